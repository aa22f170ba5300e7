#!/bin/sh
# Controlled schedules against the catalogue: for each bug, how many schedules cgtorture
# explore needs to find it (median over SEEDS seeds, at most RUNS schedules each) with the
# random walk and with PCT at depths 1 to 3; how often its first failing report replays
# exactly (REPLAYS times); and how far shrink cuts that schedule down.
# Usage: bench/sched.sh BUILD_DIR [SEEDS] [RUNS] [REPLAYS]   (build/{plain,tsan,asan}/cgtorture)
set -u
dir=${1:?usage: bench/sched.sh BUILD_DIR [SEEDS] [RUNS] [REPLAYS]}
seeds=${2:-20}
runs=${3:-50}
replays=${4:-100}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# the median of the numbers on stdin; a miss counts as more than RUNS
median() {
	sort -n | awk -v r="$runs" '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		m = v[int((NR + 1) / 2)]
		print (m > r ? ">" r : m) }'
}

printf 'cgtorture explore: schedules until the first failure, median of %s seeds (at most %s each);\n' "$seeds" "$runs"
printf 'found: seeds that found it. %s cores, %s\n\n' "$(nproc)" "$(date -u +%F)"
printf '%-27s %-11s %-5s | %-13s | %-13s | %-13s | %-13s\n' bug detector build \
	"random" "pct d=1" "pct d=2" "pct d=3"
"$dir/plain/cgtorture" bugs --tsv >"$out/bugs"
# a tab is white space to read, so empty columns would merge: split on \037 instead
tr '\t' '\037' <"$out/bugs" >"$out/bugs.us"
while IFS="$(printf '\037')" read -r bug det build _options explore; do
	case " ${CGT_BENCH_BUGS:-$bug} " in *" $bug "*) ;; *) continue ;; esac
	bin=$dir/$build/cgtorture
	base=$(echo "$explore" | sed 's/--sched [a-z]*//; s/--depth [0-9]*//')
	printf '%-27s %-11s %-5s' "$bug" "$det" "$build"
	for sched in "random" "pct --depth 1" "pct --depth 2" "pct --depth 3"; do
		: >"$out/k"
		for i in $(seq 1 "$seeds"); do
			# shellcheck disable=SC2086
			"$bin" explore --sched $sched --bug "$bug" $base --seed $((i * 100000)) \
				--runs "$runs" --out "$out/r" >"$out/log" 2>/dev/null
			k=$(sed -n 's/.* found after \([0-9]*\) schedule.*/\1/p' "$out/log")
			echo "${k:-$((runs + 1))}" >>"$out/k"
			if [ -n "$k" ] && [ ! -s "$out/first" ]; then
				sed -n 's/^  report: //p' "$out/log" | head -1 >"$out/first"
			fi
		done
		found=$(awk -v r="$runs" '$1 <= r' "$out/k" | wc -l)
		printf ' | %5s %3s/%-3s' "$(median <"$out/k")" "$found" "$seeds"
	done
	echo
	if [ -s "$out/first" ]; then
		report=$(cat "$out/first")
		ok=0
		for i in $(seq 1 "$replays"); do
			"$bin" replay "$report" >"$out/rlog" 2>/dev/null && ok=$((ok + 1))
		done
		"$bin" shrink "$report" --runs 100 >"$out/slog" 2>/dev/null
		cut=$(sed -n 's/^shrink: [a-z-]* at decision .*; decisions \([0-9]*\) -> \([0-9]*\); preemptions \([0-9]*\) -> \([0-9]*\); switches \([0-9]*\) -> \([0-9]*\);.*/decisions \1 -> \2, preemptions \3 -> \4, switches \5 -> \6/p' "$out/slog")
		shrunk=$(dirname "$report")/report.shrunk.json
		sok=no
		[ -f "$shrunk" ] && "$bin" replay "$shrunk" >/dev/null 2>&1 && sok=yes
		printf '    replay %s/%s exact; shrink: %s; shrunk report replays: %s\n' "$ok" \
			"$replays" "${cut:-failed}" "$sok"
	else
		printf '    not found: nothing to replay or shrink\n'
	fi
	rm -f "$out/first"
done <"$out/bugs.us"
