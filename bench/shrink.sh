#!/bin/sh
# Counterexamples cut down: for each catalogued bug, the first failure explore finds with the
# catalogue's explore options (at most RUNS schedules, from seed SEED), then shrink of its
# report at its defaults: found at (threads that ran, decisions, preemptions) -> shrunk to
# (threads that ran, model threads cap, walkers, operations, decisions, preemptions), trial
# runs and seconds; then how often the shrunk report replays exactly (REPLAYS times). The
# bounded scheduler's row: the fewest preemptions with which explore --sched bounded finds
# it, K raised from 0 to 3.
# Usage: bench/shrink.sh BUILD_DIR [RUNS] [REPLAYS] [SEED]   (build/{plain,tsan,asan}/cgtorture)
set -u
dir=${1:?usage: bench/shrink.sh BUILD_DIR [RUNS] [REPLAYS] [SEED]}
runs=${2:-200}
replays=${3:-100}
seed=${4:-1}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# "threads-that-ran decisions preemptions" of a report, up to its first failure of detector
# $2 (the preemptions of the whole run when the report does not list them: more than 100)
figures() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["schedule"]
step = [f for f in r["failures"] if f["detector"] == sys.argv[2]][0]["step"]
ids, k = [], 0
for tok in s["choices"].split():
    t, _, n = tok.partition("*")
    for _ in range(int(n or 1)):
        if k <= step:
            ids.append(int(t))
        k += 1
pre = [p for p in s.get("preempted", []) if p["decision"] <= step]
print(len(set(ids)), step + 1,
      len(pre) if "preempted" in s else s.get("preemptions", "-"))
PY
}

printf 'cgtorture shrink: each catalogued bug found by explore (its catalogue options, <= %s schedules\n' "$runs"
printf 'from seed %s), then shrunk at the defaults (--runs 1000 --time 60s). Up to the failure: ran:\n' "$seed"
printf 'threads that ran; dec: decisions; pre: preemptions (of the whole run where more than 100).\n'
printf 'cap: --threads; ops: operations the run did.\n'
printf '%s cores, %s\n\n' "$(nproc)" "$(date -u +%F)"
printf '%-27s %-5s | %-19s | %-36s | %-6s %-5s | %-7s | %s\n' bug build "found: ran/dec/pre" \
	"shrunk: ran/cap/walkers/ops/dec/pre" trials s replays "bounded"
"$dir/plain/cgtorture" bugs --tsv | tr '\t' '\037' >"$out/bugs"
while IFS="$(printf '\037')" read -r bug det build _options explore; do
	case " ${CGT_BENCH_BUGS:-$bug} " in *" $bug "*) ;; *) continue ;; esac
	bin=$dir/$build/cgtorture
	rm -rf "$out/r"
	# shellcheck disable=SC2086
	"$bin" explore --bug "$bug" $explore --seed "$seed" --runs "$runs" --out "$out/r" \
		>"$out/log" 2>/dev/null
	report=$(sed -n 's/^  report: //p' "$out/log" | head -1)
	base=$(echo "$explore" | sed 's/--sched [a-z]*//; s/--depth [0-9]*//')
	# shellcheck disable=SC2086
	"$bin" explore --bug "$bug" $base --sched bounded --preemptions 3 --seed "$seed" \
		--runs "$runs" --out "$out/b" >"$out/blog" 2>/dev/null
	bounded=$(sed -n 's/^explore: schedule \([0-9]*\) (seed [0-9]*, \([0-9]*\) preemption.*/\2 pre, schedule \1/p' \
		"$out/blog" | head -1)
	if [ -z "$report" ]; then
		printf '%-27s %-5s | %-19s | %-36s | %-6s %-5s | %-7s | %s\n' "$bug" "$build" \
			"not found" - - - - "${bounded:-not found}"
		continue
	fi
	found=$(figures "$report" "$det" | tr ' ' /)
	start=$(date +%s)
	"$bin" shrink "$report" >"$out/slog" 2>/dev/null
	secs=$(($(date +%s) - start))
	shrunk=$(dirname "$report")/report.shrunk.json
	line=$(grep '^shrink: .* trial runs' "$out/slog")
	trials=$(echo "$line" | sed -n 's/.*; \([0-9]*\) trial runs.*/\1/p')
	if [ -f "$shrunk" ]; then
		set -- $(figures "$shrunk" "$det")
		cap=$(echo "$line" | sed -n 's/.*threads [0-9]* -> \([0-9]*\);.*/\1/p')
		walk=$(echo "$line" | sed -n 's/.*walkers [0-9]* -> \([0-9]*\);.*/\1/p')
		ops=$(echo "$line" | sed -n 's/.*operations [0-9]* -> \([0-9]*\);.*/\1/p')
		cut="$1/$cap/$walk/$ops/$2/$3"
		ok=0
		for i in $(seq 1 "$replays"); do
			"$bin" replay "$shrunk" >/dev/null 2>&1 && ok=$((ok + 1))
		done
	else
		cut="failed: $(tail -1 "$out/slog" | cut -c1-30)"
		ok=-
	fi
	printf '%-27s %-5s | %-19s | %-36s | %-6s %-5s | %-7s | %s\n' "$bug" "$build" "$found" \
		"$cut" "${trials:--}" "$secs" "$ok/$replays" "${bounded:-not found}"
done <"$out/bugs"
