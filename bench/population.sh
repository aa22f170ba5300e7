#!/bin/sh
# bench/population.sh: a run at each population (512, 2,000, 10,000, 30,000 threads), with
# what it reached and how fast: at the defaults (the swarm draws each phase's mix; --threads
# given pins the cap), then with --swarm off (the default mix). Each free run starts with a ramp, forks alone
# until 7/8 of the cap live (src/run/free.c). Usage: bench/population.sh path/to/cgtorture [SECONDS]
#
# One line per population starting with "BENCH population", for scripts:
#   swarm     default (no --swarm given) or off
#   threads   the --threads cap asked for
#   ramp_s    seconds until 7/8 of it lived (the SUMMARY's ramp_s), or "never"
#   peak      the most live threads at once (the SUMMARY's peak)
#   ops_per_s the model operations per second over the run
#   took      wall-clock seconds the whole run took, beside its hard deadline (duration +
#             stall + 4 s + 1 s for each 2,000 threads; up to 10 s more while threads still leave)
#   verdict   the run's verdict
# The physical limit beside it: bench_scale's bare pthread_create+join rate and the threads
# this machine can hold, from the same make bench.
set -u
bin=${1:?usage: bench/population.sh path/to/cgtorture [SECONDS]}
dur=${2:-10}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "population: a run of ${dur} s at each cap (pid_max $(cat /proc/sys/kernel/pid_max)," \
	"threads-max $(cat /proc/sys/kernel/threads-max), max_map_count $(cat /proc/sys/vm/max_map_count))"
for swarm in default off; do
	for n in 512 2000 10000 30000; do
		start=$(date +%s.%N)
		if [ "$swarm" = off ]; then set -- --swarm off; else set --; fi
		"$bin" run --threads "$n" --duration "$dur" --seed 1 "$@" >"$out" 2>&1
		took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		ramp=$(sed -n 's/^SUMMARY.* ramp_s=\([-0-9.]*\).*/\1/p' "$out")
		[ "${ramp:--1.00}" = "-1.00" ] && ramp=never
		peak=$(sed -n 's/^SUMMARY.* peak=\([0-9]*\).*/\1/p' "$out")
		ops=$(sed -n 's/^SUMMARY.* ops_per_s=\([0-9]*\).*/\1/p' "$out")
		verdict=$(sed -n 's/^SUMMARY.* verdict=\([A-Z]*\).*/\1/p' "$out")
		printf 'BENCH population swarm=%s threads=%d ramp_s=%s peak=%s ops_per_s=%s took=%s deadline=%d verdict=%s\n' \
			"$swarm" "$n" "$ramp" "${peak:-?}" "${ops:-?}" "$took" "$(( dur + 2 + 4 + n / 2000 ))" "${verdict:-none}"
		grep -m2 '^  \[' "$out" | sed 's/^/    /'
	done
done
