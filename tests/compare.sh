#!/bin/sh
# cgtorture compare end to end: a short comparison (two variants, threads 1 and 2, 0.2 s
# cells, one repeat) whose table, compare.csv, compare.json and plots are checked for every
# variant, thread count, context and figure; the same without gnuplot (plots skipped, one
# line, the files still written); and bad input: one line, exit 2, no results folder.
# Usage: tests/compare.sh path/to/cgtorture
set -u
bin=${1:?usage: tests/compare.sh path/to/cgtorture}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=$(mktemp -d) log=$(mktemp) err=$(mktemp)
trap 'rm -rf "$out" "$log" "$err"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

locks="rwlock-rpref rcu-spinlock"
figures="reads_per_s writes_per_s read_p50_ns read_p99_ns read_p99.9_ns read_max_ns write_p50_ns
	 write_p99_ns write_p99.9_ns write_max_ns worst_writer_wait_ns passed_over user_s sys_s
	 cpu_ns_per_op"

"$bin" compare --locks rwlock-rpref,rcu-spinlock --threads 1,2 --duration 0.2 --repeat 1 \
	--seed 5 --out "$out/a" >"$log" 2>"$err" || fail "compare exited $?: $(cat "$err")"
dir=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$log")
[ -d "$dir" ] || fail "no results folder in the output"
for lock in $locks; do
	for t in 1 2; do
		grep -Eq "^$lock +$t " "$log" || fail "the table has no row for $lock at $t threads"
		for ctx in bare harness; do
			grep -q "^read-mostly,$lock,[01],$t,$ctx,1," "$dir/compare.csv" ||
				fail "compare.csv has no $ctx row for $lock at $t threads"
		done
	done
done
for f in $figures; do
	for s in median min max; do
		head -1 "$dir/compare.csv" | tr ',' '\n' | grep -qx "${f}_$s" ||
			fail "compare.csv lacks ${f}_$s"
	done
	n=$(grep -c "\"$f\": {" "$dir/compare.json")
	[ "$n" = 8 ] || fail "compare.json has $f in $n places, want 8 (4 cells x 2 contexts)"
done
[ "$(grep -c '"overhead": {' "$dir/compare.json")" = 4 ] || fail "compare.json: overhead per cell"
grep -q '"schema": "cgtorture-compare"' "$dir/compare.json" || fail "compare.json: schema"
# every measured rate is a positive number
awk -F, 'NR > 1 && !($8 > 0) { bad = 1 } END { exit bad }' "$dir/compare.csv" ||
	fail "compare.csv: a reads_per_s_median that is not positive"
if command -v gnuplot >/dev/null; then
	for k in throughput latency; do
		for x in png svg; do
			[ -s "$dir/$k-read-mostly.$x" ] || fail "no $k-read-mostly.$x"
		done
	done
fi
ls -a "$dir" | grep -q '\.tmp' && fail "a temporary file was left in $dir"
[ "$fails" = 0 ] && echo "ok:   compare: table, compare.csv, compare.json and plots for every variant"

# without gnuplot: one line, and the files all the same
PATH=/nonexistent "$bin" compare --locks spinlock --threads 1 --duration 0.05 --repeat 1 \
	--out "$out/b" >"$log" 2>&1 || fail "compare without gnuplot exited $?"
n=$(grep -c 'plots skipped' "$log")
[ "$n" = 1 ] || fail "without gnuplot: $n 'plots skipped' lines, want 1"
ls "$out"/b/compare-*/compare.csv "$out"/b/compare-*/compare.json >/dev/null 2>&1 ||
	fail "without gnuplot the CSV and JSON were not written"
[ "$fails" = 0 ] && echo "ok:   compare without gnuplot: $(grep 'plots skipped' "$log" | cut -c1-60)..."

# bad input: one line on stderr, exit 2, and no results folder made
touch "$out/file"
bad() {
	"$bin" compare "$@" --out "$out/c" >"$log" 2>"$err"
	rc=$?
	if [ "$rc" != 2 ] || [ "$(wc -l <"$err")" != 1 ] || [ -e "$out/c" ]; then
		fail "compare $* -> status $rc, $(wc -l <"$err") stderr line(s): $(head -c 200 "$err")"
	else
		echo "ok:   compare $* -> 2  $(head -c 90 "$err")"
	fi
}
bad --locks nosuchlock
bad --locks rwlock,rwlock
bad --workload nosuchload
bad --threads ''
bad --threads 1,x
bad --threads 0
bad --threads 5000
bad --repeat 0
bad --duration 0
"$bin" compare --out "$out/file/sub" >"$log" 2>"$err"
rc=$?
if [ "$rc" != 2 ] || [ "$(wc -l <"$err")" != 1 ]; then
	fail "compare --out under a plain file -> status $rc"
else
	echo "ok:   compare --out under a plain file -> 2  $(head -c 90 "$err")"
fi

[ "$fails" = 0 ] && echo "compare: all passed" || echo "compare: $fails failure(s)"
[ "$fails" = 0 ]
