#!/bin/sh
# make bench-reports: cgtorture reproduce on every report of tests/reports/ with its default
# budget (--runs 200), one table row each: the record's kind and kernel, how much of its
# backtrace the model knows (frames mapped of those not looked past), the graded verdict,
# the detector and catalogue entry it was reproduced as, whether the failure kept matched the
# record's mechanism column by column (detector, lock and side, function family, era: y, n,
# or - where the column is not asked of that kind; g for an era guessed), the schedules
# tried and the seconds.
# tests/reports/EXPECT.tsv says what each should give; a row that differs is marked '!'.
# Usage: bench/reports.sh CGTORTURE [RUNS]
set -u
bin=$1
runs=${2:-200}
dir=tests/reports
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-66s %-15s %-30s %-9s %-20s %-34s %-11s %6s %7s\n' report kind kernel mapped \
	verdict "as (detector)" "det/lk/fn/era" scheds seconds
total=0 differ=0
for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	start=$(date +%s.%N)
	"$bin" reproduce "$log" --runs "$runs" --out "$tmp/out" >"$tmp/run" 2>&1
	st=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
	kind=$(awk '/ is mapped:$/ { getline; sub(/^  /, ""); sub(/: .*/, ""); print; exit }' \
		"$tmp/run")
	kernel=$(sed -n 's/^  kernel \(.*\): --kernel .*/\1/p' "$tmp/run" | head -1)
	mapped=$(sed -n 's/^  mapped \([0-9]*\) of \([0-9]*\) .*/\1\/\2/p' "$tmp/run" | head -1)
	as=-
	cols=$(sed -n 's/^reproduce: matched: detector \([a-z-]*\), lock \([a-z-]*\), functions \([a-z-]*\), era \([a-z-]*\)$/\1 \2 \3 \4/p' "$tmp/run" |
		tail -1 | awk '{ for (i = 1; i <= 4; i++) printf "%s%s", substr($i, 1, 1), i < 4 ? "/" : "" }')
	case $st in
	0|1) verdict=reproduced
	   [ "$st" -eq 1 ] && verdict=reproduced-in-part
	   grep -q '^reproduce: another failure found' "$tmp/run" && verdict=another-failure
	   as=$(sed -n 's/^reproduce: reproduced[a-z ]*: .* as \(.*\)$/\1/p' "$tmp/run" | tail -1)
	   as="${as:--} ($(sed -n 's/^reproduce: found after .*: \([a-z-]*\) at decision.*/\1/p' "$tmp/run" | tail -1))" ;;
	3) verdict=not-found ;;
	2) verdict=not-modelled
	   [ -n "$kind" ] || kind=$(sed -n 's/.*(the first, \([a-z-]*\) .*/\1/p' "$tmp/run") ;;
	*) verdict="exit-$st" ;;
	esac
	scheds=$(sed -n -e 's/^reproduce: no schedule of \([0-9]*\) .*/\1/p' \
		-e 's/^reproduce: found after \([0-9]*\) schedule.*/\1/p' "$tmp/run" |
		awk '{ s += $1 } END { print s + 0 }')
	want=$(awk -F'\t' -v f="$name.log" '$1 == f { print $2 }' "$dir/EXPECT.tsv")
	mark=" "
	[ "$want" = "$verdict" ] || { mark="!"; differ=$((differ + 1)); }
	total=$((total + 1))
	printf '%-66s %-15s %-30s %-9s %s%-19s %-34s %-11s %6s %7.1f\n' "$name" "${kind:--}" \
		"${kernel:--}" "${mapped:--}" "$mark" "$verdict" "$as" "${cols:--}" "$scheds" "$secs"
done
echo "bench-reports: $total report(s), $differ unlike tests/reports/EXPECT.tsv (--runs $runs)"
