#!/bin/sh
# A crash is a failure with a report, in every build: a run killed on purpose with a fatal
# signal exits 1 (FAIL), never 0, within its grace, and leaves report.json naming the crash
# detector, the signal, the thread and its role, with that thread's last events. The run is
# the child of cgtorture's supervising parent; a SIGKILL, which no handler sees (as a heap
# too corrupt for the handler to write), leaves the report to the parent: the crash detector
# and the signal, with no thread.
# Usage: tests/e2e/crash.sh BUILD_DIR   (holding plain/, tsan/ and asan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/crash.sh BUILD_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for build in plain tsan asan; do
	for sig in SEGV ABRT KILL; do
		res=$out/$build-$sig
		"$dir/$build/cgtorture" run --threads 64 --duration 60 --stats-interval 0.2 \
			--out "$res" >"$res.log" 2>&1 &
		pid=$!
		# the handlers are in place once the first stats line is out
		n=0
		while ! grep -q '^\[' "$res.log" 2>/dev/null && [ $n -lt 600 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		# the run is the supervisor's child
		child=$(cut -d' ' -f1 "/proc/$pid/task/$pid/children" 2>/dev/null)
		if [ -z "$child" ]; then
			bad "$build, SIG$sig: no supervised child under pid $pid"
			kill "$pid"
			wait "$pid"
			continue
		fi
		kill -"$sig" "$child"
		wait "$pid"
		rc=$?
		report=$(ls "$res"/*/report.json 2>/dev/null | head -1)
		if [ "$rc" != 1 ] || [ -z "$report" ]; then
			bad "$build, SIG$sig: status $rc, report '${report:-none}'"
			tail -3 "$res.log" | sed 's/^/    /'
			continue
		fi
		# the crash's summary, its thread's events, and the verdict
		set -- $(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
f = [f for f in r["failures"] if f["detector"] == "crash"]
t = [t for t in r["threads"] if f and t["id"] == f[0]["thread"]]
print(r["verdict"], len(t[0]["events"]) if t else 0, f[0]["summary"] if f else "")
' "$report")
		verdict=$1 events=$2
		shift 2
		summary="$*"
		# TSan 14 runs a SIGSEGV or SIGABRT's handler at once, as if the thread had faulted,
		# even when kill(1) finds the thread inside the runtime without its slot (a free
		# waiting out a trace reset): the runtime's CHECK fails (google/sanitizers#1541) and
		# it aborts before our handler runs. A real fault is raised in our code, never
		# there; the report is the supervisor's, and still a FAIL.
		if [ "$build" = tsan ] &&
			grep -q 'ThreadSanitizer: CHECK failed: .*"((thr->slot)) != (0)"' "$res.log"
		then
			if [ "$verdict" = FAIL ]; then
				ok "$build, SIG$sig: FAIL, the TSan runtime's own CHECK (thr->slot)" \
					"failed first: $summary"
			else
				bad "$build, SIG$sig: the TSan runtime's CHECK failed; verdict $verdict"
			fi
			continue
		fi
		# kill(1) may land on a thread the harness does not run (liburcu's, the sanitizer's)
		case $summary in
		"the run died of SIGKILL (signal 9) before it could write its own report;"*)
			if [ "$sig" = KILL ] && [ "$verdict" = FAIL ]; then
				ok "$build, SIGKILL: FAIL, report written by the supervisor"
			else
				bad "$build, SIG$sig: verdict $verdict, summary '$summary'"
			fi ;;
		"SIG$sig in thread 0 (not a harness thread, tid 0)")
			if [ "$verdict" = FAIL ]; then
				ok "$build, SIG$sig: FAIL, $summary"
			else
				bad "$build, SIG$sig: verdict $verdict"
			fi ;;
		"SIG$sig in thread "*" ("*", tid "*)
			if [ "$events" -gt 0 ] && [ "$verdict" = FAIL ]; then
				ok "$build, SIG$sig: FAIL, $summary, $events events"
			else
				bad "$build, SIG$sig: verdict $verdict, $events events"
			fi ;;
		*)	bad "$build, SIG$sig: crash summary '$summary'" ;;
		esac
	done
done

# The TSan runtime's own death (here a suppressions file it cannot read; in a run, a CHECK
# of its own) must not take our exitcode=0 with it: it aborts.
TSAN_OPTIONS=suppressions=/nonexistent "$dir/tsan/cgtorture" run --threads 8 --duration 1 \
	--quiet >"$out/tsan-die.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && grep -q 'ThreadSanitizer: failed to read suppressions' "$out/tsan-die.log"
then
	ok "tsan, the runtime's own death: status $rc, not 0"
else
	bad "tsan, the runtime's own death: status $rc"
fi

# A run deaf past its deadline (stopped here, as one stuck in a sanitizer's runtime was):
# its supervisor kills it 20 s after its deadline (cgt_run_deadline_s), and reports it.
res=$out/deaf
start=$(date +%s)
"$dir/plain/cgtorture" run --threads 16 --duration 1 --stall 0.2 --out "$res" >"$res.log" 2>&1 &
pid=$!
sleep 0.5
child=$(cut -d' ' -f1 "/proc/$pid/task/$pid/children" 2>/dev/null)
[ -n "$child" ] && kill -STOP "$child"
wait "$pid"
rc=$?
took=$(($(date +%s) - start))
if [ "$rc" = 1 ] && grep -q 'deadline: the run outlived its deadline' "$res.log" &&
	[ -f "$(ls "$res"/*/report.json 2>/dev/null | head -1)" ]; then
	ok "plain, stopped child: FAIL after ${took}s, deadline reported by the supervisor"
else
	bad "plain, stopped child: status $rc after ${took}s"
	tail -3 "$res.log" | sed 's/^/    /'
fi

tally crash
