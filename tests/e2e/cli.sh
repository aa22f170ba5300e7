#!/bin/sh
# Command-line checks: bad input gets one line on stderr and exit status 2; help and a
# short run behave. Usage: tests/e2e/cli.sh BUILD_DIR   (holding plain/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
bin=${1:?usage: tests/e2e/cli.sh BUILD_DIR}/plain/cgtorture
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# expect STATUS ARGS...: the exit status, and for status 2 exactly one line on stderr
expect() {
	want=$1
	shift
	"$bin" "$@" >"$out" 2>"$err"
	got=$?
	lines=$(wc -l <"$err")
	if [ "$got" != "$want" ] || { [ "$want" = 2 ] && [ "$lines" != 1 ]; }; then
		bad "cgtorture $* -> status $got (want $want), $lines stderr line(s):"
		sed 's/^/    /' "$err"
	else
		ok "cgtorture $* -> $got${lines:+  }$(head -c 100 "$err")"
	fi
}

expect 2 --bogus
expect 2 run --bogus
expect 2 frobnicate
expect 2 run --threads abc
expect 2 run --threads 0
expect 2 run --threads 1000000
expect 2 run --duration 0
expect 2 run --duration -3
expect 2 run --duration 99999999
expect 2 run --duration 5parsecs
expect 2 run --duration
expect 2 run --seed -1
expect 2 run --seed 12x
expect 2 run --css-lock nosuchlock
expect 2 run --tasklist-lock nosuchlock
expect 2 run --iter sideways
expect 2 run --mix fork=1,teleport=3
expect 2 run --mix fork=0,exec=0,exit=0,migrate=0,observe=0
expect 2 run --mix fork
expect 2 run extra-argument
expect 2 run --css-lock rcu-spinlock
expect 2 compare --locks nosuchlock
expect 2 compare --workload nosuchload
expect 2 compare --threads abc
expect 2 compare --threads ''
expect 2 compare extra-argument
expect 2 run --expect sometimes
# refused up front, naming the word and what would work: a sanitizer's failure the build
# cannot catch, options that would do nothing in the run's mode, duplicates, empty items, an
# abbreviation or a value for a flag
expect 2 run --bug cset-walk-unlocked --stop-on tsan --expect fail
expect 2 run --bug no-pid-alive --expect fail
expect 2 run --stop-on asan
expect 2 explore --bug no-pid-alive --runs 1
expect 2 run --locks code
expect 2 run --depth 5
expect 2 run --sched random --depth 5
expect 2 explore --sched random --depth 5
expect 2 run --bug walk-from-exiting --bug walk-from-exiting
expect 2 run --mix fork=1,fork=2
expect 2 run --mix fork=1,,exit=2
expect 2 run --swarm threads,
expect 2 run --swarm threads,threads
expect 2 compare --locks rwsem,
expect 2 compare --threads 2,,4
expect 2 run --lock percpu-rwsem
expect 2 run --quiet=yes
"$bin" run --lock percpu-rwsem 2>"$err"
grep -q "unknown option '--lock' (did you mean --locks?)" "$err" ||
	bad "the parser does not name the word: $(cat "$err")"
"$bin" run --bug cset-walk-unlocked --stop-on tsan --expect fail 2>"$err"
grep -q 'build/tsan/cgtorture' "$err" ||
	bad "the build that can is not named: $(cat "$err")"
expect 0 compare --help
expect 0 --help
expect 0 run --help
expect 0 --version
grep -q '^cgtorture .* (plain build)$' "$out" || bad "--version: $(cat "$out")"
# help CMD and CMD --help, for every command
for c in run bugs locks schedulers eras compare explore replay shrink show reproduce; do
	expect 0 help "$c"
	grep -q "^usage: cgtorture" "$out" || bad "help $c: no usage line"
	expect 0 "$c" --help
done
expect 2 help nosuchcommand
expect 0 help --help
grep -q "^usage: cgtorture \[run\]" "$out" || bad "help --help: not help's text"
# the manual page and the completion script (tests/e2e/install.sh renders and runs them)
expect 0 help --man
grep -q '^\.TH CGTORTURE 1 ' "$out" || bad "help --man: no .TH line"
expect 0 help --completion bash
grep -q '^complete -F _cgtorture cgtorture$' "$out" || bad "help --completion bash: no complete line"
expect 2 help --completion zsh
expect 2 help --completion

# The error names the valid choices.
"$bin" run --css-lock nosuchlock 2>"$err"
grep -q 'rwlock, rwsem, spinlock' "$err" || bad "lock error does not list the variants"

# A short run passes, echoes every parameter and ends with the verdict line.
expect 0 run --duration 1 --threads 64 --seed 7
for p in duration=1s seed=7 threads=64 walkers= iter=for_each css-lock= tasklist-lock= mix= \
	 clone-thread= stats-interval= stack=; do
	grep -q "$p" "$out" || bad "banner lacks $p"
done
grep -q '^End of test: PASS' "$out" || bad "no PASS verdict"
grep -q '^SUMMARY .*verdict=PASS' "$out" || bad "no SUMMARY line"

# More threads than the machine allows (max_map_count/2 at most, 32,765 by default): the
# banner says what caps it. No forks, so the run itself stays small.
expect 0 run --threads 100000 --duration 0.2 --swarm off \
	--mix fork=0,exec=0,exit=0,migrate=0,observe=100
grep -q '^  machine: about [0-9]* threads at most (pid_max' "$out" ||
	bad "banner lacks the machine's thread cap"

# --expect known asks for the era's catalogued behaviour: 6.x's locks have none, so it is
# missed (3).
expect 3 run --kernel 6.x --duration 0.5 --threads 64 --quiet --expect known
grep -q "^expected the era's known behaviour, found none" "$out" ||
	bad "--expect known missed without saying so"

# --off-cpu: a reader of the threadgroup lock kept off the CPU holding it is the end of a
# hang's chain (the writer in cgroup_procs_write, then everything behind it), free-running.
oc=$(mktemp -d)
expect 1 run --kernel 4.4 --swarm off --off-cpu 5 --duration 8 --seed 1 --quiet --out "$oc"
grep -q "^hang " "$out" && grep -q "holds cgroup_threadgroup_rwsem (read)" "$oc"/*/summary.txt &&
	ok "--off-cpu: a hang whose chain ends at cgroup_threadgroup_rwsem's reader" ||
	bad "--off-cpu gave no hang on cgroup_threadgroup_rwsem"
rm -rf "$oc"
expect 2 run --off-cpu -1
# css_set_rwsem's mistakes are 3.15's: 4.4's css_set_lock is a spinlock (f0d9a5f17575)
expect 2 run --kernel 4.4 --bug rwsem-inside-rcu
expect 2 run --kernel 6.x --bug css-task-iter-block

# It never outlives its hard deadline (duration + stall + 4 s + 1 s a 2,000 threads), but by
# up to 10 s while threads still leave or step (detect/deadline.c): a 4 s run of 2,000
# threads ends within 21 s, whatever the machine's load. How long it takes unloaded is make bench's figure.
# Its first half may go to the ramp: it reaches 7/8 of the population it asks for. Every
# dimension is drawn but the population (--threads pins it) and the era: 3.14's reader-first
# locks may keep every fork out, by design.
start=$(date +%s)
"$bin" run --duration 4 --threads 2000 --quiet \
	--swarm mix,clone-thread,perturb,walkers,reads,reap-delay,pid-max >"$out" 2>&1
took=$(( $(date +%s) - start ))
if [ "$took" -gt 22 ]; then
	bad "a 4 s run took ${took} s, past its hard deadline and grace"
else
	ok "a 4 s run with 2000 threads took ${took} s"
fi
ramp=$(sed -n 's/^SUMMARY.* ramp_s=\([-0-9.]*\).*/\1/p' "$out")
peak=$(sed -n 's/^SUMMARY.* peak=\([0-9]*\).*/\1/p' "$out")
if [ -n "$ramp" ] && [ "$ramp" != "-1.00" ] && [ "${peak:-0}" -ge 1750 ] &&
	grep -q "^peak live threads .* 1750 live .* (the ramp)" "$out"; then
	ok "the ramp reached 1750 of 2000 threads in ${ramp} s (peak $peak)"
else
	bad "the ramp did not reach 1750 of 2000 threads (ramp_s=${ramp:-none}, peak=${peak:-none})"
fi

# A large --stall or off-CPU hold bounds no free run past its --duration: the swarm's off-CPU
# holder (up to half of --stall) goes back on the CPU when the run's time is up, or at a
# signal. Seed 6 draws one: it took 28.8 s before; the bound is generous for a loaded machine.
start=$(date +%s)
expect 0 run --stall 60 --duration 1 --seed 6 --quiet
took=$(( $(date +%s) - start ))
[ "$took" -le 15 ] && ok "--stall 60 --duration 1 took ${took} s" ||
	bad "--stall 60 --duration 1 took ${took} s"
st=$(mktemp -d)
"$bin" run --stall 3600 --duration 60 --seed 6 --quiet --out "$st" >"$out" 2>&1 &
pid=$!
sleep 2
start=$(date +%s)
kill -TERM "$pid"
wait "$pid"
rc=$?
took=$(( $(date +%s) - start ))
if [ "$rc" = 143 ] && [ "$took" -le 5 ]; then
	ok "--stall 3600: SIGTERM ended it in ${took} s"
else
	bad "--stall 3600: SIGTERM -> status $rc after ${took} s"
fi
rm -rf "$st"

# The summary gives the run's wall time; on a terminal, a large run's last check and drain say
# so on the progress line (script(1) gives the run a terminal).
if command -v script >/dev/null; then
	script -qc "$bin run --duration 1 --threads 3000 --swarm off --seed 2" "$out" >/dev/null 2>&1
	if grep -aq 'draining: [0-9]* thread(s) to go' "$out" &&
		grep -aq '^wall time [0-9.]* s for a 1 s run' "$out" &&
		grep -aq '^SUMMARY .* wall_s=[0-9.]* ' "$out"; then
		ok "the drain on the progress line, the wall time in the summary"
	else
		bad "no drain on the progress line, or no wall time"
	fi
fi

# The exit-status contract (README.md's table), run's rows. Interrupted (128 + the signal):
# the partial run is named so and its report written; `| head -1` ends it as SIGPIPE would.
ir=$(mktemp -d)
"$bin" run --duration 60 --seed 3 --out "$ir" >"$out" 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid"
wait "$pid"
rc=$?
if [ "$rc" = 143 ] && grep -q '^SUMMARY .*verdict=INTERRUPTED' "$out" &&
	grep -q '^End of test: INTERRUPTED' "$out" && grep -q '^interrupted by SIGTERM' "$out" &&
	grep -q '"verdict": "INTERRUPTED"' "$ir"/*/report.json; then
	ok "an interrupted run -> 143, INTERRUPTED, its report written"
else
	bad "an interrupted run -> status $rc, $(grep -c INTERRUPTED "$out") INTERRUPTED line(s)"
fi
rm -rf "$ir"/*
{ "$bin" run --duration 60 --seed 3 --out "$ir" 2>/dev/null; echo $? >"$err"; } | head -1 >/dev/null
if [ "$(cat "$err")" = 141 ] && grep -q '"verdict": "INTERRUPTED"' "$ir"/*/report.json; then
	ok "run | head -1 -> 141, its report written"
else
	bad "run | head -1 -> status $(cat "$err"), report: $(ls "$ir")"
fi
rm -rf "$ir"
# Cannot write the --out folder: 4, one line; a folder under a file, and one only its owner
# may write (root writes anywhere: there the run is nobody's).
expect 4 run --duration 1 --out /etc/passwd/results
nobody=
[ "$(id -u)" = 0 ] && nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
ro=$(mktemp -d)
chmod 755 "$ro"
$nobody "$bin" run --duration 1 --out "$ro" --bug walk-from-exiting --quiet >"$out" 2>"$err"
rc=$?
if [ "$rc" = 4 ] && grep -q '^cgtorture: --out: cannot write' "$err"; then
	ok "run --out a folder it cannot write -> 4"
else
	bad "run --out a folder it cannot write -> status $rc"
fi
rmdir "$ro"

# The contract's rows for the other commands. check NAME WANT GOT [PATTERN FILE]: the status,
# and a line the contract asks for.
check() {
	if [ "$3" = "$2" ] && { [ -z "${4:-}" ] || grep -q "$4" "$5"; }; then
		ok "$1 -> $3"
	else
		bad "$1 -> status $3 (want $2)${4:+, or no '$4'}"
		sed 's/^/    /' "${5:-/dev/null}" | tail -5
	fi
}
# interrupted: how far it got, 128 + the signal, never "no schedule failed" (the kernel as it
# shipped: no bug to find and end the search before the signal)
sd=$(mktemp -d)
"$bin" explore --swarm off --sched random --threads 8 --steps 5000 \
	--runs 100000 --seed 100000 --out "$sd/x" >"$out" 2>&1 &
pid=$!
sleep 2
kill -TERM "$pid"
wait "$pid"
check "explore interrupted" 143 $? '^explore: interrupted by SIGTERM after [0-9]* of 100000 schedules' "$out"
"$bin" compare --duration 0.3 --threads 2 --repeat 1 --out "$sd/cmp" >"$out" 2>&1 &
pid=$!
sleep 4
kill -INT "$pid"
wait "$pid"
rc=$?
check "compare interrupted" 130 $rc '^compare: interrupted by SIGINT after [0-9]* of [0-9]* cells' "$out"
[ "$rc" != 130 ] || grep -q 'before a cell was measured' "$out" || ls "$sd"/cmp/*/compare.csv >/dev/null ||
	bad "compare interrupted wrote no compare.csv"
# a free-running failure, made a controlled one by reproduce, in a folder nobody may write
# (walk-leader-exec: its walk is under RCU and ends only in the livelock, which controlled
# schedules find at once; walk-from-exiting's 3.x walk may step onto freed memory instead)
"$bin" run --bug walk-leader-exec --swarm off --perturb 100 --threads 64 --stop-on livelock \
	--duration 20 --seed 5 --quiet --out "$sd/free" >/dev/null 2>&1
free=$(ls "$sd"/free/*/report.json | head -1)
"$bin" reproduce "$free" --runs 30 --shrink 100000 >"$out" 2>&1 &
pid=$!
sleep 3
kill -TERM "$pid"
wait "$pid"
check "reproduce interrupted" 143 $? 'interrupted by SIGTERM after' "$out"
chmod -R a+rX "$sd"
chmod 755 "$sd/free" "$(dirname "$free")"
$nobody "$bin" reproduce "$free" --runs 30 --shrink 0 >"$out" 2>"$err"
check "reproduce, its folder unwritable" 4 $? 'put.* the search in a folder you can write' "$err"
mkdir "$sd/mine" && chmod 777 "$sd/mine"
$nobody "$bin" reproduce "$free" --runs 30 --shrink 0 --out "$sd/mine" >"$out" 2>"$err"
check "reproduce --out, its folder unwritable" 0 $? '^replay: reproduced' "$out"
$nobody "$bin" replay "$free" --tries 1 >"$out" 2>"$err"
check "replay, its folder unwritable" 4 $? 'cannot write in' "$err"
$nobody "$bin" show "$free" >"$out" 2>"$err"
check "show, its folder unwritable" 4 $? 'cannot write' "$err"
# a controlled report whose command was edited: the recording no longer fits it
ctl=$(ls "$sd"/mine/reproduce/*/report.json | head -1)
sed -i 's/--threads 8/--threads 9/' "$ctl"
"$bin" replay "$ctl" >"$out" 2>&1
check "replay of an edited command" 4 $? 'no longer matches its recorded schedule' "$out"
rm -rf "$sd"

tally cli "all passed"
