#!/bin/sh
# cgtorture compare end to end: a short comparison with --reference (the variants added last
# and rcu-spinlock, threads 1 and 2, the null and read-mostly workloads, 0.1 s cells, one
# repeat) whose tables (the cost of an acquisition in each of the five contexts with the
# ratios, the limit, measurement-cost columns, the references and the reading under them),
# compare.csv, compare.json and plots are checked for every variant, thread count, context
# and figure, the ratios being numbers (never their values); the same without gnuplot
# (plots skipped, one line, the files still written); and bad input: one line, exit 2, no
# results folder.
# Usage: tests/e2e/compare.sh BUILD_DIR   (holding plain/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
bin=${1:?usage: tests/e2e/compare.sh BUILD_DIR}/plain/cgtorture
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
out=$(mktemp -d) log=$(mktemp) err=$(mktemp)
trap 'rm -rf "$out" "$log" "$err"' EXIT

locks="rcu-spinlock percpu-rwsem pthread-rwlock rcu-mutex"
workloads="null read-mostly"
figures="reads_per_s writes_per_s read_p50_ns read_p99_ns read_p99.9_ns read_max_ns write_p50_ns
	 write_p99_ns write_p99.9_ns write_max_ns worst_writer_wait_ns passed_over user_s sys_s
	 cpu_ns_per_op measure_ns_per_op"

"$bin" compare --locks rcu-spinlock,percpu-rwsem,pthread-rwlock,rcu-mutex --threads 1,2 \
	--workload null,read-mostly --duration 0.1 --repeat 1 --seed 5 --reference --out "$out/a" \
	>"$log" 2>"$err" || fail "compare exited $?: $(cat "$err")"
dir=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$log")
[ -d "$dir" ] || fail "no results folder in the output"
for col in loop limit reference lim/ref bare bare/lim harness harn/bare limit/s reads/s \
	'vs limit' meas/op; do
	[ "$(grep -c "^lock .*  $col " "$log")" = 2 ] || fail "the tables lack the column $col"
done
[ "$(grep -c '^Reading: the most acquisitions/s at 1 thread ' "$log")" = 2 ] ||
	bad "no reading under each workload's tables"
grep -Eq '^At 1 thread the limit is within x1.25 of its reference for [0-4] of 4 variants \([0-6] of 6 pairs of variants in the same order by both\), the bare lock within x1.25 of its limit for [0-4] of 4, and the harness within x1.25 of the bare lock for [0-4] of 4\.$' "$log" ||
	bad "the reading does not count the variants within x1.25"
[ "$(grep -c '^  rcu-spinlock   urcu+ck_spinlock_ticket: ' "$log")" = 2 ] ||
	bad "no references under the cost tables"
# one repeat of 0.1 s: said before the first cell and under each workload's tables, each
# ratio of the cells' lines marked, and no spread of 0%
grep -q "^warning: no ratio of this comparison will mean much (marked '?'): one repeat, no spread to judge them by; measurements of 0.1 s, under 0.25 s" "$log" ||
	bad "no warning before the cells that one repeat of 0.1 s makes the ratios mean little"
[ "$(grep -c "^Warning: no ratio here means much ('?'): one repeat" "$log")" = 2 ] ||
	bad "no warning under each workload's tables that its ratios mean little"
[ "$(grep -c '^\[ *[0-9]*/16\] .* bare (x[0-9.]*?), .* harness (x[0-9.]*?), .*(limit x[0-9.]*?)' "$log")" = 16 ] ||
	bad "a cell's line has a ratio not marked '?'"
grep -Eq '^[a-z-]+ +[0-9]+ .* 0%' "$log" && fail "a spread of one repeat shows as 0%"
[ "$(grep -c '"ratios_noise": "one repeat, no spread to judge them by; measurements of 0.1 s, under 0.25 s"' "$dir/compare.json")" = 16 ] ||
	bad "compare.json does not say of each cell why its ratios mean little"
for w in $workloads; do
	for lock in $locks; do
		for t in 1 2; do
			# the cost row: loop, limit, reference, ratio, bare, ratio, harness, ratio
			# (every ratio marked '?': one repeat of 0.1 s means little)
			ns='[0-9.]+[nu]s\*?' x='x[0-9]+\.[0-9]{2}\?'
			grep -Eq "^$lock +$t +$ns +$ns +$ns +$x +$ns +$x +$ns +$x *$" "$log" ||
				bad "$w: the cost table has no row with numbers for $lock at $t threads"
			# the throughput row: limit/s, reads/s, writes/s, then 'vs limit'
			grep -Eq "^$lock +$t +[0-9.]+[kMG]?\*? +[0-9.]+[kMG]?\*? +[0-9.]+[kMG]?\*? +$x " "$log" ||
				bad "$w: the throughput table has no row for $lock at $t threads"
			for ctx in bare harness limit loop reference; do
				grep -q "^$w,$lock,[01],$t,$ctx,1," "$dir/compare.csv" ||
					bad "compare.csv has no $ctx row for $lock at $t threads in $w"
			done
		done
	done
done
for f in $figures overhead limit_ratio reference_ratio; do
	for s in median min max; do
		head -1 "$dir/compare.csv" | tr ',' '\n' | grep -qx "${f}_$s" ||
			bad "compare.csv lacks ${f}_$s"
	done
done
for f in $figures; do
	n=$(grep -c "\"$f\": {" "$dir/compare.json")
	[ "$n" = 80 ] || fail "compare.json has $f in $n places, want 80 (16 cells x 5 contexts)"
done
for r in overhead limit_ratio reference_ratio loop_ns_per_op; do
	[ "$(grep -c "\"$r\": {" "$dir/compare.json")" = 16 ] || fail "compare.json: $r per cell"
done
grep -q '"schema": "cgtorture-compare"' "$dir/compare.json" || fail "compare.json: schema"
# every measured rate is a positive number; both ratios are numbers where they belong
python3 - "$dir/compare.csv" <<'PY' || fail "compare.csv: a rate that is not positive or a ratio that is not a number"
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 80, len(rows)
for r in rows:
    assert float(r["reads_per_s_median"]) > 0, r
    ratio = {"harness": "overhead_median", "bare": "limit_ratio_median",
             "reference": "reference_ratio_median"}.get(r["context"])
    if ratio:
        assert math.isfinite(float(r[ratio])) and float(r[ratio]) > 0, r
    if r["context"] in ("limit", "loop", "reference"):
        assert r["read_p50_ns_median"] == "" and r["measure_ns_per_op_median"] == "", r
    else:
        assert float(r["measure_ns_per_op_median"]) >= 0, r
PY
if command -v gnuplot >/dev/null; then
	for w in $workloads; do
		for k in throughput latency; do
			for x in png svg; do
				[ -s "$dir/$k-$w.$x" ] || fail "no $k-$w.$x"
			done
		done
	done
	# every variant, in the throughput plots
	for lock in $locks; do
		grep -q "$lock" "$dir/throughput-null.svg" || fail "throughput-null.svg lacks $lock"
	done
fi
# the script: a colour of its own for each variant; every legend outside the plot area (by
# gnuplot's 'outside', or placed right of the panels' right margins); the limit, the harness
# and the reference each drawn, and named in the legend
python3 - "$dir/compare.gp" 4 <<'PY' || fail "compare.gp: colours, legends or lines (above)"
import re, sys
gp, nlocks = open(sys.argv[1]).read(), int(sys.argv[2])
colours = re.findall(r"^set linetype (\d+) lc rgb '(#[0-9a-f]{6})'", gp, re.M)
assert sorted(int(n) for n, _ in colours) == list(range(1, nlocks + 1)), colours
assert len({c for _, c in colours}) == nlocks, "two variants share a colour: %s" % colours
for plot in gp.split("reset\n")[1:]:
    keys = re.findall(r"^set key (.*)$", plot, re.M)
    assert keys, "a plot with no placed legend:\n" + plot[:200]
    right = [float(x) for x in re.findall(r"^set rmargin at screen ([0-9.]+)$", plot, re.M)]
    for k in keys:
        at = re.match(r"at screen ([0-9.]+),", k)
        assert k.startswith("outside") or (at and right and float(at.group(1)) > max(right)), \
            "a legend that may sit on the data: set key " + k
    if re.search(r"^plot for \[i=1:\d+\] \$rate", plot, re.M):
        for col, title in ((5, "limit"), (6, "harness"), (7, "reference")):
            assert re.search(r"using 1:%d with lines dt '[-.]+' .*lc i notitle" % col, plot), col
            assert "title '%s'" % title in plot, title
    else:
        assert "title 'harness'" in plot and "using 1:4 with linespoints" in plot
PY
ls -a "$dir" | grep -q '\.tmp' && fail "a temporary file was left in $dir"
[ "$fails" = 0 ] && ok "compare: tables, reading, compare.csv, compare.json and plots for every variant (a colour each, legends off the data, limit, harness and reference drawn); one repeat of 0.1 s warned of"

# two repeats of 0.25 s: no warning for the comparison; a cell whose repeats disagree (the
# machine decides which, if any) is named under the tables whenever a ratio is marked '?'
"$bin" compare --locks spinlock,rwsem --threads 2 --duration 0.25 --repeat 2 --seed 5 \
	--out "$out/d" >"$log" 2>&1 || fail "compare --repeat 2 --duration 0.25 exited $?"
grep -qi 'no ratio' "$log" && fail "two repeats of 0.25 s: warned that no ratio means much"
marked=$(grep -Ec '^(spinlock|rwsem) +2 .*x[0-9.]+\?' "$log")
named=$(grep -Ec '^  (spinlock|rwsem) at 2 threads: (bare/lim|harn/bare) x' "$log")
if [ "$marked" -gt 0 ] && ! grep -q "^Warning: the ratios of $named of 2 cells mean little" "$log"; then
	bad "ratios marked '?' in $marked table rows, but no warning names their $named cell(s)"
fi
[ "$named" -gt 0 ] && [ "$marked" = 0 ] && fail "$named cell(s) named noisy, none marked '?'"
[ "$fails" = 0 ] && ok "compare --repeat 2 --duration 0.25: no warning for the comparison; $named of 2 cells' repeats disagreed, each named and marked"

# without gnuplot: one line, and the files all the same
PATH=/nonexistent "$bin" compare --locks spinlock --threads 1 --duration 0.05 --repeat 1 \
	--out "$out/b" >"$log" 2>&1 || fail "compare without gnuplot exited $?"
n=$(grep -c 'plots skipped' "$log")
[ "$n" = 1 ] || fail "without gnuplot: $n 'plots skipped' lines, want 1"
ls "$out"/b/compare-*/compare.csv "$out"/b/compare-*/compare.json >/dev/null 2>&1 ||
	bad "without gnuplot the CSV and JSON were not written"
[ "$fails" = 0 ] && ok "compare without gnuplot: $(grep 'plots skipped' "$log" | cut -c1-60)..."

# bad input: one line on stderr, exit 2, and no results folder made
touch "$out/file"
bad_input() {
	"$bin" compare "$@" --out "$out/c" >"$log" 2>"$err"
	rc=$?
	if [ "$rc" != 2 ] || [ "$(wc -l <"$err")" != 1 ] || [ -e "$out/c" ]; then
		bad "compare $* -> status $rc, $(wc -l <"$err") stderr line(s): $(head -c 200 "$err")"
	else
		ok "compare $* -> 2  $(head -c 90 "$err")"
	fi
}
bad_input --locks nosuchlock
bad_input --locks rwlock,rwlock
bad_input --workload nosuchload
bad_input --threads ''
bad_input --threads 1,x
bad_input --threads 0
bad_input --threads 5000
bad_input --repeat 0
bad_input --duration 0
"$bin" compare --out "$out/file/sub" >"$log" 2>"$err"
rc=$?
if [ "$rc" != 4 ] || [ "$(wc -l <"$err")" != 1 ]; then
	bad "compare --out under a plain file -> status $rc"
else
	ok "compare --out under a plain file -> 4  $(head -c 90 "$err")"
fi

tally compare "all passed"
