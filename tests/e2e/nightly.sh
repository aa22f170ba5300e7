#!/bin/sh
# The nightly driver (stress/nightly, stress/merge), in about a minute:
#   - bad input refused with one line and status 2 before anything starts;
#   - a short night over the shipped scenarios: its summary, junit.xml and exit status, and
#     its cells' coverage summed, with the paths no cell reached named;
#   - a cell that hangs is killed and reported while the rest of the night completes, and
#     --rerun runs only the failed cells with their seeds;
#   - SIGTERM to the driver stops the child and still writes the summary of what ran;
#   - two shards merged into one summary and junit.xml, and the same two run at once by
#     GNU parallel.
# Usage: tests/e2e/nightly.sh BUILD_DIR   (holding plain/, tsan/ and asan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=$(cd "${1:?usage: tests/e2e/nightly.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
nightly=$here/stress/nightly
merge=$here/stress/merge
short_budget=${CGT_NIGHTLY_SHORT:-40s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check WHAT ACTUAL EXPECTED
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}

# junit FILE: "testcases failures skipped", or "invalid" when it is not well-formed XML
junit() {
	python3 -c '
import sys, xml.etree.ElementTree as E
try:
    r = E.parse(sys.argv[1]).getroot()
except Exception as e:
    print("invalid", e); sys.exit()
tc = r.findall(".//testcase")
print(len(tc), sum(t.find("failure") is not None for t in tc),
      sum(t.find("skipped") is not None for t in tc))' "$1"
}

# status NIGHT_DIR CELL_ID: the cell's status in results.json
status() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
print(" ".join(c["status"] for c in d["cells"] if c["id"] == sys.argv[2]) or "absent")' "$1" "$2"
}

# seeds NIGHT_DIR: "id seed" lines, sorted
seeds() {
	python3 -c '
import json, sys
for c in sorted(json.load(open(sys.argv[1] + "/results.json"))["cells"], key=lambda c: c["id"]):
    print(c["id"], c["seed"])' "$1"
}

# --- bad input: one line, status 2, and no night folder
mkdir -p "$tmp/badscn"
refused() {
	what=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] && [ ! -e "$tmp/never" ]; then
		ok "refused: $what: $(cat "$tmp/err")"
	else
		bad "$what: status $rc, stderr: $(head -3 "$tmp/err")"
	fi
}
printf 'walk: for_each\nlok: rwsem\n' >"$tmp/badscn/typo.scn"
refused "unknown field" "$nightly" --scenarios "$tmp/badscn" --out "$tmp/never"
printf 'walk: sideways\nduration: 1s\n' >"$tmp/badscn/typo.scn"
refused "a value the binary refuses" "$nightly" --scenarios "$tmp/badscn" --out "$tmp/never"
mkdir -p "$tmp/onlyplain/plain"
ln -s "$dir/plain/cgtorture" "$tmp/onlyplain/plain/cgtorture"
refused "missing build" "$nightly" --build-dir "$tmp/onlyplain" --out "$tmp/never"
refused "unwritable results folder" "$nightly" --build-dir "$dir" --out /dev/null/night
refused "budget too small" "$nightly" --build-dir "$dir" --budget 20s --out "$tmp/never"
refused "no results to re-run" "$nightly" --rerun "$tmp/badscn" --out "$tmp/never"

# --- a short night over the shipped scenarios: every build, a bug of each kind, a twin
short=$tmp/short
"$nightly" --build-dir "$dir" --budget "$short_budget" --out "$short" --only \
	'bug/walk-from-exiting/*,bug/no-pid-alive/*,bug/cset-walk-unlocked/*,twin/walk-from-exiting/*,variant/for_each/rwsem/*,walk/while_each/mutex/*,era/3.15/plain' \
	>"$tmp/short.log" 2>&1
rc=$?
check "short night: exit status" "$rc" 0
# a cell that did not pass is named with its outcome and seed, so that it can be run again
# (the night's folder is a temporary one)
[ "$rc" = 0 ] || grep -v '^PASS ' "$short/summary.txt" | grep -E '^[A-Z]+ +[a-z]' | sed 's/^/    /'
check "short night: summary's last line" "$(tail -1 "$short/summary.txt")" "Summary: 9 passed, 0 failed"
check "short night: one table row per cell" "$(grep -c '^PASS ' "$short/summary.txt")" 9
check "short night: junit.xml (testcases failures skipped)" "$(junit "$short/junit.xml")" "9 0 0"
check "short night: the seeds printed" "$(grep -c '^seeds: night [0-9]* = base 0 + date' "$tmp/short.log")" 1
check "short night: testid.txt" "$(grep -c '^commit: \|^dirty: ' "$short/testid.txt")" 2
# the cells' coverage summed: every cell counted, and the paths none reached named alike in
# results.json, summary.txt and junit.xml
check "short night: coverage summed over the cells" "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1] + "/results.json"))["coverage"]
print(c["cells"], len(c["paths"]) > 0, sum(c["paths"].values()) > 0,
      sorted(c["unreached_paths"]) == sorted(p for p, n in c["paths"].items() if not n))' "$short")" \
	"9 True True True"
unreached=$(python3 -c '
import json, sys
print(", ".join(json.load(open(sys.argv[1] + "/results.json"))["coverage"]["unreached_paths"]) or "none")' "$short")
check "short night: summary names the paths no cell reached" \
	"$(grep -c "^  paths no cell reached: $unreached\$" "$short/summary.txt")" 1
check "short night: summary's coverage line" \
	"$(grep -c '^coverage over 9 cells: [0-9]* of [0-9]* paths reached' "$short/summary.txt")" 1
check "short night: junit.xml names the unreached paths" "$(python3 -c '
import sys, xml.etree.ElementTree as E
p = {e.get("name"): e.get("value") for e in E.parse(sys.argv[1]).getroot().iter("property")}
print(p.get("coverage_paths_unreached", "(none)").replace(" ", ", ") or "none")' "$short/junit.xml")" "$unreached"
[ "$fails" = 0 ] || sed 's/^/    /' "$tmp/short.log"

# --- a fake build whose mutex cells hang (ignoring SIGTERM, so only SIGKILL ends them)
fake=$tmp/fake
mkdir -p "$fake/plain" "$tmp/scn"
cat >"$fake/plain/cgtorture" <<EOF
#!/bin/sh
case " \$* " in
*" --out /dev/null/"*) ;;
*" --css-lock mutex "*)
	if [ "\${FAKE_HANG:-1}" = 1 ]; then
		trap '' TERM
		echo "fake: hanging"
		sleep 613
	fi ;;
esac
exec "$dir/plain/cgtorture" "\$@"
EOF
chmod +x "$fake/plain/cgtorture"
cat >"$tmp/scn/mini.scn" <<'EOF'
# a clean cell, and one that hangs in the fake build
walk:     for_each
lock:     rwsem mutex
duration: 1s
options:  --threads 64
EOF
cat >"$tmp/scn/wrong.scn" <<'EOF'
# the buggy walk expected to pass: FAIL, with the report's story (one configuration: the
# quick options that show it)
walk:     while_each
duration: 2s
options:  --threads 64 --perturb 100 --swarm off
EOF
cat >"$tmp/scn/missed.scn" <<'EOF'
# the correct walk expected to livelock: MISSED
walk:     for_each
expect:   fail
detector: livelock
duration: 1s
options:  --threads 64
EOF
mini() { "$nightly" --build-dir "$fake" --scenarios "$tmp/scn" --kill-margin 1s "$@"; }

night=$tmp/hang
start=$(date +%s)
mini --out "$night" >"$tmp/hang.log" 2>&1
rc=$?
check "hanging cell: exit status" "$rc" 1
check "hanging cell: killed as a HANG" "$(status "$night" mini/for_each/mutex/plain)" HANG
check "hanging cell: the rest ran" "$(status "$night" mini/for_each/rwsem/plain) $(status "$night" wrong/while_each/plain) $(status "$night" missed/for_each/plain)" "PASS FAIL MISSED"
check "hanging cell: summary's last line" "$(tail -1 "$night/summary.txt")" "Summary: 1 passed, 3 failed"
check "hanging cell: junit.xml" "$(junit "$night/junit.xml")" "4 3 0"
check "hanging cell: its output kept" "$(grep -c 'fake: hanging' "$night/cells/mini.for_each.mutex.plain/log.txt")" 1
check "hanging cell: story in the summary" "$(grep -c '^HANG .*killed after' "$night/summary.txt")" 1
check "failing cell: its report folder" "$(find "$night/cells/wrong.while_each.plain" -name report.json | wc -l)" 1
check "failing cell: the report's story" "$(grep -c '^FAIL .*livelock' "$night/summary.txt")" 1
check "failing cell: its page linked" "$(grep -c '^    page:   cells/wrong.while_each.plain/.*/report.html$' "$night/summary.txt")" 1
check "hanging cell: nothing left running" "$(pgrep -f 'sleep 613' | wc -l)" 0
check "hanging cell: bounded time" "$([ $(($(date +%s) - start)) -lt 40 ] && echo yes)" yes
[ "$fails" = 0 ] || sed 's/^/    /' "$tmp/hang.log"

FAKE_HANG=0 mini --rerun "$night" --out "$tmp/rerun" >"$tmp/rerun.log" 2>&1
check "re-run: exit status" "$?" 1
check "re-run: only the failed cells" "$(tail -1 "$tmp/rerun/summary.txt")" "Summary: 1 passed, 2 failed"
check "re-run: the same seeds" "$(seeds "$tmp/rerun")" "$(seeds "$night" | grep -v rwsem)"

# --- SIGTERM during the hanging cell: the child goes, the summary of what ran is written
"$nightly" --build-dir "$fake" --scenarios "$tmp/scn" --kill-margin 1s --out "$tmp/term" >"$tmp/term.log" 2>&1 &
pid=$!
n=0
until grep -qs 'fake: hanging' "$tmp/term/cells/mini.for_each.mutex.plain/log.txt" || [ $n -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
kill -TERM "$pid"
wait "$pid"
check "SIGTERM: exit status 128+15" "$?" 143
check "SIGTERM: summary of what ran" "$(tail -1 "$tmp/term/summary.txt")" "Summary: 1 passed, 0 failed, 3 not run"
check "SIGTERM: said so" "$(grep -c '^interrupted by SIGTERM' "$tmp/term/summary.txt")" 1
check "SIGTERM: nothing left running" "$(pgrep -f 'sleep 613' | wc -l)" 0

# --- two shards of one night, merged
export FAKE_HANG=0
mini --seed 42 --shard 1/2 --out "$tmp/s1" >"$tmp/s1.log" 2>&1
mini --seed 42 --shard 2/2 --out "$tmp/s2" >"$tmp/s2.log" 2>&1
check "shards: disjoint, together the night" \
	"$( (seeds "$tmp/s1"; seeds "$tmp/s2") | sort | uniq -d | wc -l) $( (seeds "$tmp/s1"; seeds "$tmp/s2") | wc -l)" "0 4"
"$merge" --out "$tmp/merged" "$tmp/s1" "$tmp/s2" >"$tmp/merge.log" 2>&1
check "merge: exit status" "$?" 1
check "merge: summary's last line" "$(tail -1 "$tmp/merged/summary.txt")" "Summary: 2 passed, 2 failed"
check "merge: junit.xml" "$(junit "$tmp/merged/junit.xml")" "4 2 0"
check "merge: the seeds of the whole night" "$(seeds "$tmp/merged")" \
	"$(mini --seed 42 --list | awk 'NF == 6 && $4 ~ /^[0-9]+$/ {print $1, $4}' | sort)"
check "merge: the failing cell's report copied" "$(find "$tmp/merged/cells/wrong.while_each.plain" -name report.json | wc -l)" 1
"$merge" --out "$tmp/never" "$tmp/s1" "$tmp/s1" >/dev/null 2>"$tmp/err"
check "merge: the same shard twice refused" "$? $(wc -l <"$tmp/err")" "2 1"
"$merge" --out "$tmp/half" "$tmp/s1" >/dev/null 2>&1
check "merge: a missing shard's cells are not run" "$(tail -1 "$tmp/half/summary.txt" | sed 's/.*, //')" \
	"$(($(seeds "$tmp/s2" | wc -l))) not run"

# --- the same two shards at once through GNU parallel on this machine, then merged: the
# same night (nightly_ssh.sh runs stress/README.md's command over ssh)
if command -v parallel >/dev/null; then
	parallel -j 2 --will-cite "$nightly" --build-dir "$fake" --scenarios "$tmp/scn" \
		--kill-margin 1s --seed 42 --shard {}/2 --out "$tmp/p{}" ::: 1 2 >"$tmp/par.log" 2>&1
	"$merge" --out "$tmp/pmerged" "$tmp/p1" "$tmp/p2" >/dev/null 2>&1
	check "GNU parallel: the shards merged are the night run one shard after another" \
		"$(seeds "$tmp/pmerged") | $(tail -1 "$tmp/pmerged/summary.txt")" \
		"$(seeds "$tmp/merged") | $(tail -1 "$tmp/merged/summary.txt")"
else
	check "GNU parallel installed (scripts/deps.sh installs it)" no yes
fi

tally nightly
