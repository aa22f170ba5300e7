#!/bin/sh
# Controlled schedules (src/sched, cgtorture explore/replay/shrink): the same seed makes the
# same choices; fixed twins run clean under the scheduler in every build; every catalogued bug
# is found by explore with its catalogue options, in its build, and its report replays to the
# same failure at the same decision, shrinks, and the shrunk report replays too; bad reports
# and options get one line and exit status 2.
# Controlled runs are bounded by --steps; --duration 60 only keeps a loaded machine from
# cutting one short by the wall clock, which would change where it stops.
# Usage: tests/e2e/sched.sh BUILD_DIR   (holding plain/, tsan/ and asan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/sched.sh BUILD_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plain=$dir/plain/cgtorture


# -- determinism, in two builds and with every scheduler (pct at its default depth, 3)
for build in plain tsan; do
	for sched in $("$plain" schedulers); do
		if "$dir/$build/cgtorture" run --sched "$sched" --threads 8 --steps 3000 --seed 11 \
			--check-determinism --duration 60 --quiet --out "$out/det" >"$out/log" 2>&1 &&
			grep -q '^determinism: PASS' "$out/log"; then
			ok "determinism ($build, $sched): $(grep '^determinism' "$out/log")"
		else
			bad "determinism ($build, $sched)"; grep '^determinism' "$out/log" | sed 's/^/    /'
		fi
	done
done

# -- determinism stepping through the locks' code (--locks code) in every era: the ticket
# locks' turn words once followed their addresses and percpu-rwsem's counts the CPU a thread
# ran on, and 4.4 and 6.x schedules came out differently in one run in two
for era in $("$plain" eras | cut -f1); do
	for seed in 1 3; do
		if "$plain" run --sched random --locks code --kernel "$era" --steps 6000 --seed "$seed" \
			--check-determinism --duration 60 --quiet --out "$out/det" >"$out/log" 2>&1 &&
			grep -q '^determinism: PASS' "$out/log"; then
			ok "determinism (--locks code, $era, seed $seed)"
		else
			bad "determinism (--locks code, $era, seed $seed)"
			grep '^determinism' "$out/log" | sed 's/^/    /'
		fi
	done
done

# -- a schedule stepping through a variant's code replays exactly: the catalogue's
# reader-first tasklist_lock, starved under --locks code
"$plain" explore --tasklist-lock rwlock-rpref --locks code --sched random --seed 1 --runs 20 \
	--duration 60 --out "$out/code" >"$out/log" 2>&1
report=$(sed -n 's/^  report: //p' "$out/log" | head -1)
if [ -f "$report" ] && grep -q '"locks": "code"' "$report" &&
	"$plain" replay "$report" >"$out/log2" 2>&1 && grep -q '^replay: reproduced' "$out/log2"; then
	ok "a --locks code report replays: $(grep '^replay: reproduced' "$out/log2")"
else
	bad "a --locks code report: found and replayed"
	cat "$out/log" "$out/log2" 2>/dev/null | tail -3 | sed 's/^/    /'
fi

# -- fixed twins: a controlled run of the correct model is clean in every build
for build in plain tsan asan; do
	for sched in $("$plain" schedulers); do
		"$dir/$build/cgtorture" run --sched "$sched" --threads 8 --steps 4000 --seed 5 \
			--expect pass --duration 60 --quiet --out "$out/twin" >"$out/log" 2>&1
		rc=$?
		races=$(grep -c 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer' "$out/log")
		if [ "$rc" = 0 ] && [ "$races" = 0 ]; then
			ok "twin clean under $sched ($build)"
		else
			bad "twin under $sched ($build): status $rc, $races sanitizer report(s)"
			grep -E 'report\(s\)|^  \[' "$out/log" | head -3 | sed 's/^/    /'
		fi
	done
done

# -- no false alarm: many schedules of the correct default configuration find nothing. Seed
# 5's 40 schedules once reported starvation 3 times, counting as passing a writer the reads
# that got in while it was switched away before it asked for the lock.
for sched in $("$plain" schedulers); do
	"$plain" explore --sched "$sched" --runs 40 --seed 5 --keep-going --duration 60 \
		--out "$out/quiet" >"$out/log" 2>&1
	if grep -q '^explore: no schedule of 40 failed' "$out/log"; then
		ok "no false alarm in 40 schedules of $sched"
	else
		bad "false alarm under $sched:"; grep 'failed:' "$out/log" | head -3 | sed 's/^/    /'
	fi
done

# -- every bug: explore finds it, replay reproduces it exactly, shrink cuts it down
"$plain" bugs --tsv >"$out/bugs" || exit 1
# a tab is white space to read, so empty columns would merge: split on \037 instead
tr '\t' '\037' <"$out/bugs" >"$out/bugs.us"
while IFS="$(printf '\037')" read -r bug det build _options explore; do
	bin=$dir/$build/cgtorture
	# shellcheck disable=SC2086
	"$bin" explore --bug "$bug" $explore --seed 1 --runs 40 --duration 60 --out "$out/$bug" >"$out/log" 2>/dev/null
	report=$(sed -n 's/^  report: //p' "$out/log" | head -1)
	# found, and not also "no schedule ... failed" (explore once said both)
	if ! grep -q "^explore: $det found after" "$out/log" || [ ! -f "$report" ] ||
	   grep -q "^explore: no schedule" "$out/log"; then
		bad "explore did not find $bug ($build)"; tail -2 "$out/log" | sed 's/^/    /'
		continue
	fi
	ok "$bug ($build): $(tail -1 "$out/log" | sed 's/^explore: //')"
	if "$bin" replay "$report" >"$out/log" 2>&1 && grep -q '^replay: reproduced: ' "$out/log"; then
		ok "  $(grep '^replay:' "$out/log" | head -1)"
	else
		bad "  $bug did not replay"; head -3 "$out/log" | sed 's/^/    /'
	fi
	shrunk=$(dirname "$report")/report.shrunk.json
	if "$bin" shrink "$report" --runs 12 >"$out/log" 2>&1 && [ -f "$shrunk" ] &&
		"$bin" replay "$shrunk" >"$out/log2" 2>&1 && grep -q '^replay: reproduced' "$out/log2"; then
		ok "  $(grep '^shrink:' "$out/log" | head -1)"
	else
		bad "  $bug: shrink, or the replay of its result"
		cat "$out/log" "$out/log2" 2>/dev/null | head -4 | sed 's/^/    /'
	fi
done <"$out/bugs.us"

# -- the bounded scheduler: no preemption with K = 0, at most K else; explore raises K from 0
for k in 0 2; do
	"$plain" run --sched bounded --preemptions "$k" --threads 8 --steps 3000 --seed 5 \
		--swarm off --duration 60 --quiet --out "$out/bd" >"$out/log" 2>&1
	n=$(sed -n 's/^controlled: [0-9]* decisions by bounded, \([0-9]*\) preemptions.*/\1/p' "$out/log")
	if [ -n "$n" ] && [ "$n" -le "$k" ]; then
		ok "bounded, --preemptions $k: $n preemption(s)"
	else
		bad "bounded, --preemptions $k: '${n:-no controlled line}'"
	fi
done
"$plain" explore --sched bounded --bug rwsem-inside-rcu --swarm off --threads 8 --steps 5000 \
	--css-lock rwsem --runs 4 --seed 1 --duration 60 --out "$out/bx" >"$out/log" 2>&1
if grep -q '^explore: bounded: at most 0 preemptions, then 1, ... up to 3, in blocks of 1 schedules' "$out/log"; then
	ok "explore --sched bounded raises K from 0: $(grep '^explore: bounded' "$out/log")"
else
	bad "explore --sched bounded: $(grep '^explore: bounded' "$out/log")"
fi

# -- shrink: a counterexample a person reads. The catalogue's attach-no-threadgroup-lock,
# found at seed 1 by the random walk with hundreds of preemptions, cut to a few threads, at
# most 3 preemptions and a schedule told thread by thread; its budget in trials, not seconds,
# so that a loaded machine makes the same cuts. Then the same shrink interrupted: its
# smallest run so far is written, named partial, and replays.
"$plain" explore --bug attach-no-threadgroup-lock --swarm off --sched random --threads 8 \
	--steps 5000 --mix fork=35,exec=2,exit=20,migrate=30,observe=13 --seed 1 --runs 20 \
	--duration 60 --out "$out/sh" >"$out/log" 2>&1
report=$(sed -n 's/^  report: //p' "$out/log" | head -1)
if [ ! -f "$report" ]; then
	bad "shrink: explore found no attach-no-threadgroup-lock to shrink"
else
	rdir=$(dirname "$report")
	cp -r "$rdir" "$out/sh-copy"
	"$plain" shrink "$report" --runs 300 --time 1h >"$out/log" 2>&1
	line=$(grep '^shrink: invariant at decision' "$out/log")
	pre=$(echo "$line" | sed -n 's/.*preemptions [0-9]* -> \([0-9]*\);.*/\1/p')
	ran=$(python3 - "$rdir/report.shrunk.json" <<'PY' 2>/dev/null
import json, sys
r = json.load(open(sys.argv[1]))
step = [f for f in r["failures"] if f["detector"] == "invariant"][0]["step"]
ids, k = set(), 0
for tok in r["schedule"]["choices"].split():
    t, _, n = tok.partition("*")
    for _ in range(int(n or 1)):
        if k <= step:
            ids.add(int(t))
        k += 1
assert r["schedule"]["preemptions"] == len(r["schedule"]["preempted"])
print(len(ids))
PY
)
	if [ -n "$pre" ] && [ "$pre" -le 3 ] && [ -n "$ran" ] && [ "$ran" -le 4 ] &&
		grep -q '^Thread by thread' "$rdir/summary.shrunk.txt" &&
		grep -q '| fails: invariant' "$rdir/summary.shrunk.txt" &&
		grep -q ' preempted after ' "$rdir/summary.shrunk.txt" &&
		"$plain" replay "$rdir/report.shrunk.json" >"$out/log2" 2>&1 &&
		grep -q '^replay: reproduced' "$out/log2"; then
		ok "shrink: $ran threads ran, $(echo "$line" | sed 's/^shrink: //')"
	else
		bad "shrink of attach-no-threadgroup-lock: ${line:-no result} ($ran threads ran)"
		tail -3 "$out/log" | sed 's/^/    /'
	fi
	"$plain" shrink "$out/sh-copy/report.json" --runs 100000 --time 1h >"$out/log" 2>&1 &
	pid=$!
	sleep 8
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	if [ "$rc" = 130 ] && grep -q '^shrink: interrupted by SIGINT after [0-9]* trial runs' "$out/log" &&
		grep -q 'partial: interrupted' "$out/log" &&
		"$plain" replay "$out/sh-copy/report.shrunk-partial.json" >"$out/log2" 2>&1 &&
		grep -q '^replay: reproduced' "$out/log2"; then
		ok "shrink interrupted: 130, $(grep '^shrink: interrupted' "$out/log" | cut -c1-60)...; the partial result replays"
	else
		bad "shrink interrupted: status $rc"; tail -3 "$out/log" | sed 's/^/    /'
	fi
fi

# -- bad input: one line on stderr, exit 2
refused() {
	what=$1; shift
	"$@" >"$out/o" 2>"$out/e"
	rc=$?
	lines=$(cat "$out/e" "$out/o" | grep -c .)
	if [ "$rc" = 2 ] && [ "$lines" -le 2 ]; then
		ok "refused: $what: $(cat "$out/e" "$out/o" | head -1)"
	else
		bad "$what: status $rc, $lines line(s)"; head -3 "$out/e" "$out/o" | sed 's/^/    /'
	fi
}
"$plain" explore --bug walk-from-exiting --swarm off --sched random --threads 8 --steps 5000 --seed 1 --duration 60 \
	--runs 50 --out "$out/base" >"$out/log" 2>&1
base=$(sed -n 's/^  report: //p' "$out/log" | head -1)
if [ ! -f "$base" ]; then
	bad "no report to alter"
else
	printf '{"schema": ' >"$out/trunc.json"
	head -c 300 "$base" >"$out/cut.json"
	sed 's/"version": 2/"version": 1/' "$base" >"$out/v1.json"
	# T<threads + 1> never exists: the replay must say at which decision it stopped fitting
	python3 - "$base" "$out/alien.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["schedule"]
c = []
for tok in s["choices"].split():
    t, _, n = tok.partition("*")
    c += [int(t)] * int(n or 1)
s["threads"] += 1
c[len(c) // 2] = s["threads"]
s["switches"] = sum(1 for a, b in zip(c, c[1:]) if a != b)
s["choices"] = " ".join(str(t) for t in c)
json.dump(r, open(sys.argv[2], "w"))
PY
	refused "a report that is not JSON" "$plain" replay "$out/trunc.json"
	refused "a truncated report" "$plain" replay "$out/cut.json"
	refused "a report of schema version 1" "$plain" replay "$out/v1.json"
	refused "a missing report" "$plain" replay "$out/none.json"
	# a recording that no longer fits its command: a tool error (4), said so, and where
	"$plain" replay "$out/alien.json" >"$out/o" 2>"$out/e"
	rc=$?
	if [ "$rc" = 4 ] && grep -q '^replay: diverged at step [0-9]*: T[0-9]* does not exist' "$out/o" &&
		grep -q 'no longer matches its recorded schedule' "$out/o"; then
		ok "a schedule naming a thread that never was: 4, $(head -1 "$out/o")"
	else
		bad "a schedule naming a thread that never was: status $rc: $(cat "$out/o")"
	fi
	refused "a plain report in the TSan build" "$dir/tsan/cgtorture" replay "$base"
	refused "shrinking a report of no failure" "$plain" shrink "$out/v1.json"
	refused "reproduce --sched of no scheduler" "$plain" reproduce "$base" --sched fifo
fi
refused "explore --sched none" "$plain" explore --sched none --runs 2
refused "explore --runs 0" "$plain" explore --runs 0
refused "--check-determinism free-running" "$plain" run --check-determinism
refused "replay with no report" "$plain" replay
refused "an --out with a space" "$plain" run --out "$out/a b"

# -- a free-running report is re-run with its seed; the rate is printed (6.x: its livelock
# alone, not 3.x's rare walk onto freed memory, see seeing.sh)
"$plain" run --bug walk-from-exiting --kernel 6.x --swarm off --perturb 100 --threads 64 \
	--duration 10 --stop-on livelock --expect fail --quiet --out "$out/free" >/dev/null 2>&1
free=$(find "$out/free" -name report.json | head -1)
if [ -n "$free" ] && "$plain" replay "$free" --tries 3 >"$out/log" 2>&1;
	[ -n "$free" ] && grep -q '^replay: reproduced [0-3] of 3' "$out/log"; then
	ok "free-running replay: $(tail -1 "$out/log")"
else
	bad "free-running replay"; tail -3 "$out/log" 2>/dev/null | sed 's/^/    /'
fi

tally sched
