#!/bin/sh
# Every correct variant (for_each x every css_set lock) runs briefly and must PASS: in the
# plain build, and in the TSan build with not one ThreadSanitizer report.
# Usage: tests/e2e/variants.sh BUILD_DIR   (holding plain/ and tsan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/variants.sh BUILD_DIR}
plain=$dir/plain/cgtorture tsan=$dir/tsan/cgtorture
here=$(cd "$(dirname "$0")/../.." && pwd)
: "${TSAN_OPTIONS:=suppressions=$here/tsan-suppressions}"
export TSAN_OPTIONS
secs=${CGT_VARIANT_SECONDS:-3}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# the correct variants: those that are not a catalogued bug themselves
locks=$("$plain" locks | grep -v 'known bug:' | awk '{print $1}')
[ -n "$locks" ] || { echo "variants: could not list the lock variants"; exit 1; }

check() {
	build=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	reports=$(grep -c 'WARNING: ThreadSanitizer' "$log")
	verdict=$(sed -n 's/.*verdict=\([A-Z]*\).*/\1/p' "$log")
	if [ "$rc" = 0 ] && [ "$reports" = 0 ] && [ "$verdict" = PASS ]; then
		ok "$build $(grep '^SUMMARY' "$log")"
	else
		bad "$build $* -> status $rc, $reports TSan report(s), verdict ${verdict:-none}"
		grep -m 30 -E 'WARNING|SUMMARY|#[0-9] |BROKEN|LEAK|livelock' "$log" | sed 's/^/    /'
	fi
}

for lock in $locks; do
	check plain "$plain" run --duration "$secs" --iter for_each --css-lock "$lock" --quiet
	check tsan "$tsan" run --duration "$secs" --iter for_each --css-lock "$lock" --threads 300 --quiet
done
# The boot under TSan: percpu-rwsem's rcu_sync callback, queued by the model's boot, runs on
# liburcu's call_rcu thread and reaches the detectors; they must be armed before the boot (the
# nightly's tasklist/for_each/percpu-rwsem/tsan cell, seed 4179914992). Two threads and no
# walkers leave no later call_rcu to order the two by chance: each run showed the race, 8 of 8.
for i in 1 2 3 4 5; do
	check tsan "$tsan" run --duration 0.1 --iter for_each --tasklist-lock percpu-rwsem \
		--threads 2 --walkers 0 --swarm off --seed 4179914992 --quiet
done
tally variants "all passed"
