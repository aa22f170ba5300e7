#!/bin/sh
# Every kernel era (cgtorture eras) passes a default run, in the plain and the TSan build, and
# docs/model.md's table of the eras' behaviours is the one the binary prints.
# What an era shipped with is no failure of the run: 3.14 and 3.15's x86 rwlock_t lets
# readers pass a waiting writer, and a starvation it causes is the catalogue's
# reader-pref-rwlock, counted as known (SUMMARY known=N) with the verdict PASS. Anything
# else that fires fails the era.
# Usage: tests/e2e/eras.sh BUILD_DIR   (holding plain/ and tsan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/eras.sh BUILD_DIR}
plain=$dir/plain/cgtorture tsan=$dir/tsan/cgtorture
secs=${CGT_ERA_SECONDS:-3}
log=$(mktemp)
trap 'rm -rf "$log" "$log.d"' EXIT
mkdir -p "$log.d"
# docs/model.md carries the eras' table as the binary prints it, between its two markers
doc=$(dirname "$0")/../../docs/model.md
"$plain" eras --table >"$log"
if sed -n '/^<!-- cgtorture eras --table -->$/,/^<!-- end of cgtorture eras --table -->$/p' \
	"$doc" | sed '1d;$d' | cmp -s - "$log"; then
	ok "docs/model.md's era table is cgtorture eras --table"
else
	bad "docs/model.md's era table differs from cgtorture eras --table"
fi
for era in $("$plain" eras | cut -f1); do
	for bin in "$plain" "$tsan"; do
		"$bin" run --kernel "$era" --duration "$secs" --expect pass --quiet --out "$log.d" \
			>"$log" 2>&1
		rc=$?
		races=$(grep -c 'WARNING: ThreadSanitizer' "$log")
		if [ "$rc" = 0 ] && [ "$races" = 0 ] && grep -q '^SUMMARY .*verdict=PASS' "$log"; then
			ok "--kernel $era ($bin): $(grep -o 'ops=[0-9]*\|known=[0-9]*' "$log" |
				tr '\n' ' ')"
		else
			bad "--kernel $era ($bin): status $rc, $races TSan report(s)"
			grep -E 'report\(s\)|^  \[|WARNING' "$log" | head -5 | sed 's/^/    /'
		fi
	done
done
tally eras "every era passed"
