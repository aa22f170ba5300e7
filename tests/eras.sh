#!/bin/sh
# Every kernel era (cgtorture eras) passes a default run with for_each, in the plain and the
# TSan build. One configuration (--swarm off); and for the eras whose locks let readers pass
# a waiting writer (3.14 and 3.15's x86 rwlock_t), no starvation judged (--starve 3600): the
# starvation detector finds their writers passed over within a second, which is that lock's
# nature (the reader-pref-rwlock entry), not a fault of the model.
# Usage: tests/eras.sh PLAIN_BINARY TSAN_BINARY
set -u
plain=${1:?usage: tests/eras.sh PLAIN TSAN}
tsan=${2:?usage: tests/eras.sh PLAIN TSAN}
secs=${CGT_ERA_SECONDS:-3}
log=$(mktemp)
trap 'rm -rf "$log" "$log.d"' EXIT
mkdir -p "$log.d"
fails=0
for era in $("$plain" eras | cut -f1); do
	starve=
	"$plain" eras | grep "^$era	" | grep -q 'readers pass a waiting writer\|still x86 rwlock_t' &&
		starve="--starve 3600"
	for bin in "$plain" "$tsan"; do
		# shellcheck disable=SC2086
		"$bin" run --kernel "$era" --iter for_each --swarm off $starve --duration "$secs" \
			--expect pass --quiet --out "$log.d" >"$log" 2>&1
		rc=$?
		races=$(grep -c 'WARNING: ThreadSanitizer' "$log")
		if [ "$rc" = 0 ] && [ "$races" = 0 ]; then
			echo "ok:   --kernel $era ($bin): $(grep -o 'ops=[0-9]*' "$log" | head -1)"
		else
			echo "FAIL: --kernel $era ($bin): status $rc, $races TSan report(s)"
			grep -E 'report\(s\)|^  \[|WARNING' "$log" | head -5 | sed 's/^/    /'
			fails=$((fails + 1))
		fi
	done
done
[ "$fails" = 0 ] && echo "eras: every era passed" || echo "eras: $fails failure(s)"
[ "$fails" = 0 ]
