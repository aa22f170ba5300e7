#!/bin/sh
# make test: every cgtorture command that README.md and docs/*.md show in a code block runs
# here and does what its text promises. The commands are extracted from the documents; each
# has a check below, by its exact text, and a documented command with none fails the test,
# so an example cannot drift from the tool. Durations are cut to a few seconds where a
# duration is given (a run, a compare cell); a placeholder (results/<run-id>/report.json,
# dmesg.txt, [OPTION...]) becomes a real report, a real kernel log, or nothing.
# Usage: tests/e2e/docs.sh BUILD_DIR
set -u
. "$(dirname "$0")/lib.sh"
build=${1:?usage: tests/e2e/docs.sh BUILD_DIR}
bin=$(cd "$build/plain" && pwd)/cgtorture
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# OPTION VALUE ARGS...: ARGS with OPTION's value set to VALUE (replaced, or added)
set_opt() {
	opt=$1 val=$2
	shift 2
	out= seen=0
	while [ $# -gt 0 ]; do
		if [ "$1" = "$opt" ] && [ $# -ge 2 ]; then
			out="$out $opt $val"
			seen=1
			shift 2
			continue
		fi
		out="$out $1"
		shift
	done
	[ "$seen" = 1 ] || out="$out $opt $val"
	echo "$out"
}

# STATUS OUT_PATTERN ARGS...: cgtorture ARGS exits STATUS ("0|1" for either) and its output
# matches OUT_PATTERN (grep -E; empty: anything)
expect() {
	want=$1 pat=$2
	shift 2
	(cd "$tmp" && "$bin" "$@") >"$tmp/out" 2>&1
	st=$?
	if ! echo "|$want|" | grep -q "|$st|"; then
		bad "cgtorture $*: exit $st (want $want)"
		tail -5 "$tmp/out" | sed 's/^/    /'
	elif [ -n "$pat" ] && ! grep -Eq "$pat" "$tmp/out"; then
		bad "cgtorture $*: exit $st but no line matching /$pat/"
		tail -5 "$tmp/out" | sed 's/^/    /'
	else
		ok "cgtorture $* (exit $st)"
	fi
}

# the report every replay and shrink of results/<run-id>/report.json is given: explore's
report() {
	find "$tmp/results" -name report.json -path '*explore*' 2>/dev/null | grep -v /replay/ |
		head -1
}

# and reproduce's, a free-running failure's: the catalogue's run of walk-from-exiting
free_report() {
	find "$tmp/results" -maxdepth 2 -name report.json 2>/dev/null |
		xargs grep -l '"walk-from-exiting"' 2>/dev/null | head -1
}

# the commands, one "FILE<TAB>COMMAND" a line, comments cut
for f in README.md docs/*.md; do
	awk -v F="$f" '/^ *```/ { f = !f; next }
		f && /^ *\.\/cgtorture / { sub(/^ */, ""); sub(/ +#.*/, ""); print F "\t" $0 }' "$f"
done >"$tmp/commands"
log=$(ls tests/reports/23-*.log)

# explore first: its report stands for results/<run-id>/report.json below
sort -t"$(printf '\t')" -k2 "$tmp/commands" | awk -F'\t' '$2 ~ /explore --bug/' >"$tmp/first"
grep -v -F -f "$tmp/first" "$tmp/commands" | cat "$tmp/first" - >"$tmp/ordered"

while IFS="$(printf '\t')" read -r file cmd; do
	set -- $cmd
	shift			# ./cgtorture
	case "$cmd" in
	"./cgtorture run --seed 42 --duration 1m --check-interval 5 --stop-on any")
		expect 0 "End of test: PASS" $(set_opt --duration 3 "$@") ;;
	"./cgtorture run [OPTION...]")
		expect 0 "End of test: PASS" run --duration 3 ;;
	"./cgtorture run --iter while_each --duration 20")
		# "the buggy walk: livelock reports"
		expect 1 "livelock" "$@" ;;
	"./cgtorture run --css-lock spinlock --threads 2000"|\
	"./cgtorture run --mix fork=40,exec=10,exit=20,migrate=20,observe=10 --perturb 50")
		expect 0 "End of test: PASS" $(set_opt --duration 3 "$@") ;;
	"./cgtorture run --bug walk-from-exiting --perturb 100 --threads 64 --stop-on livelock --expect fail")
		expect 0 "livelock" "$@" --duration 20 ;;
	"./cgtorture run --sched random --threads 8 --steps 5000 --seed 7 --check-determinism")
		expect 0 "End of test: PASS" "$@" ;;
	"./cgtorture compare"|"./cgtorture compare --reference --workload null,read-mostly --threads 1,2"|\
	"./cgtorture compare --workload all --locks rwlock,rwsem,rcu-spinlock --threads 2,8 --repeat 5"|\
	"./cgtorture compare --reference --workload null,read-mostly --threads 1,2 --locks all --repeat 3 --duration 1 --seed 1")
		expect 0 "" $(set_opt --repeat 1 $(set_opt --duration 20ms "$@")) --quiet \
			--out "$tmp/results"
		ls "$tmp"/results/compare-*/compare.csv >/dev/null 2>&1 ||
			bad "$cmd: wrote no compare.csv" ;;
	"./cgtorture compare [OPTION...]")
		expect 0 "usage: cgtorture compare" compare --help ;;
	"./cgtorture explore --bug walk-from-exiting --swarm off --sched random --threads 8 --steps 5000 --runs 50 --seed 1")
		# "find a failure": it finds its bug within its runs, at the default seed
		expect "0|1" "livelock found after" "$@" --out "$tmp/results/explore" ;;
	"./cgtorture explore --sched random --locks code --kernel 6.x --runs 20")
		expect 0 "no schedule of 20 failed" "$@" --out "$tmp/results/explore-clean" ;;
	"./cgtorture replay results/<run-id>/report.json")
		expect 0 "^replay: reproduced" replay "$(report)" ;;
	"./cgtorture shrink results/<run-id>/report.json")
		expect 0 "" shrink "$(report)" --runs 20
		[ -s "$(dirname "$(report)")/report.shrunk.json" ] ||
			bad "shrink wrote no report.shrunk.json" ;;
	"./cgtorture replay results/<run-id>/report.shrunk.json")
		expect 0 "^replay: reproduced" replay "$(dirname "$(report)")/report.shrunk.json" ;;
	"./cgtorture reproduce results/<run-id>/report.json")
		# "a free-running failure, made exact"; in 3.15 that run may end not in the livelock
		# but in oom_kill_process's walk onto freed memory (docs/detectors.md, 3 runs of 230),
		# rarely met by a controlled schedule: then the truth is "no schedule gave it"
		if grep -q '"detector": "livelock"' "$(free_report)"; then
			expect 0 "^replay: reproduced" reproduce "$(free_report)" --shrink 0
		else
			expect "0|1" "^replay: reproduced|^reproduce: no schedule of [0-9]+ gave" \
				reproduce "$(free_report)" --shrink 0
		fi ;;
	"./cgtorture reproduce dmesg.txt")
		# "a kernel's hang report": searched, then an exact replay
		expect 0 "^reproduce: reproduced: " reproduce "$PWD/$log" --shrink 0 \
			--out "$tmp/results" ;;
	"./cgtorture reproduce dmesg.txt --map")
		expect 0 "searches, in order" reproduce "$PWD/$log" --map ;;
	"./cgtorture bugs [--tsv]")
		expect 0 "walk-from-exiting" bugs
		expect 0 "walk-from-exiting" bugs --tsv ;;
	"./cgtorture locks"|"./cgtorture schedulers"|"./cgtorture help")
		expect 0 "." "$@" ;;
	"./cgtorture eras")
		expect 0 "6\\.x" eras ;;
	"./cgtorture help explore")
		expect 0 "^usage: cgtorture explore" "$@" ;;
	"./cgtorture help --man")
		expect 0 "^\\.TH CGTORTURE 1 " "$@" ;;
	"./cgtorture help --completion bash")
		expect 0 "^complete -F _cgtorture cgtorture$" "$@" ;;
	"./cgtorture --version")
		expect 0 "^cgtorture .* \\(plain build\\)$" "$@" ;;
	*)
		bad "$file: a documented command with no check here: $cmd" ;;
	esac
done <"$tmp/ordered"

tally docs "$checks check(s) of $(wc -l <"$tmp/commands") documented command(s), all passed"
