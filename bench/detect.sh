#!/bin/sh
# make bench-detect: how fast each catalogued bug is caught at default settings (only --bug:
# swarm testing on), with its catalogue options, and with them less perturbation; whether
# its fixed twin stays silent; and how fast the known-bad configurations (the buggy walk, a
# reader-preferring lock) are caught at default settings; and, per build, how many default
# runs reach every path of the COVERAGE line. Over many seeds; asserts nothing.
# Usage: bench/detect.sh BUILD_DIR [SEEDS] [BUDGET_SECONDS]
#   CGT_BENCH_BUGS="a b": only those bugs, and no known-bad configurations
#   CGT_BENCH_DEFAULTS=1: the defaults column alone (a quarter of the time; the others "not run")
set -u
dir=${1:?usage: bench/detect.sh BUILD_DIR [SEEDS] [BUDGET]}
seeds=${2:-20}
budget=${3:-10}
base=${CGT_BENCH_SEED:-1000}
out=$(mktemp -d)
log=$out/log
trap 'rm -rf "$out"' EXIT

# time_to FILE DETECTOR: seconds to the detector's first report, or nothing
time_to() {
	sed -n "s/^  \[ *\([0-9.]*\)s\] $2: .*/\1/p" "$1" | head -1
}

# stats: "caught/total median worst" from a file of times (one per line, "-" for a miss)
stats() {
	[ -s "$1" ] || { printf '%-20s' 'not run'; return; }
	awk -v n="$seeds" '
		$1 != "-" { t[++c] = $1 }
		END {
			if (!c) { printf "%2d/%d %7s %7s", 0, n, "-", "-"; exit }
			for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++)
				if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			med = (c % 2) ? t[(c + 1) / 2] : (t[c / 2] + t[c / 2 + 1]) / 2
			printf "%2d/%d %6.2fs %6.2fs", c, n, med, t[c]
		}' "$1"
}

printf '%s seeds x %s s budget per run, %s cores, %s\n\n' "$seeds" "$budget" "$(nproc)" "$(date -u +%F)"
printf '%-27s %-11s %-5s | %-22s | %-22s | %-22s | %s\n' bug detector build \
	"defaults: caught med worst" "catalogue: caught med worst" "unperturbed" "twin reports"
"$dir/plain/cgtorture" bugs --tsv >"$out/bugs"
# a tab is white space to read, so empty columns would merge: split on \037 instead
tr '\t' '\037' <"$out/bugs" >"$out/bugs.us"
while IFS="$(printf '\037')" read -r bug det build options _explore; do
	# CGT_BENCH_BUGS="a b": only those bugs
	case " ${CGT_BENCH_BUGS:-$bug} " in *" $bug "*) ;; *) continue ;; esac
	bin=$dir/$build/cgtorture
	plain_opts=$(echo "$options" | sed 's/--perturb [0-9]*//')
	: >"$out/d"; : >"$out/p"; : >"$out/u"
	twin=0
	for i in $(seq 1 "$seeds"); do
		seed=$((base + i))
		for mode in d p u; do
			[ "$mode" = d ] || [ -z "${CGT_BENCH_DEFAULTS:-}" ] || continue
			o=$options
			[ "$mode" = u ] && o=$plain_opts
			[ "$mode" = d ] && o=""
			# shellcheck disable=SC2086
			"$bin" run --bug "$bug" $o --seed "$seed" --duration "$budget" --stop-on "$det" \
				--quiet --out "$out/r" >"$log" 2>&1
			t=$(time_to "$log" "$det")
			echo "${t:--}" >>"$out/$mode"
		done
		[ -n "${CGT_BENCH_DEFAULTS:-}" ] && { twin=-; continue; }
		# shellcheck disable=SC2086
		"$bin" run $options --seed "$seed" --duration "$budget" --quiet --out "$out/r" \
			>"$log" 2>&1
		n=$(sed -n 's/.*failures=\([0-9]*\).*/\1/p' "$log")
		r=$(grep -c 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer' "$log")
		twin=$((twin + ${n:-1} + r))
		[ "${n:-1}" != 0 ] || [ "$r" != 0 ] &&
			echo "twin of $bug, seed $seed: $(grep -m1 '^  \[' "$log")" >>"$out/twins"
	done
	printf '%-27s %-11s %-5s | %s | %s | %s | %s\n' "$bug" "$det" "$build" \
		"$(stats "$out/d")" "$(stats "$out/p")" "$(stats "$out/u")" "$twin"
	echo "BENCH detect bug=$bug defaults=\"$(stats "$out/d")\" catalogue=\"$(stats "$out/p")\" unperturbed=\"$(stats "$out/u")\" twin_reports=$twin" >>"$out/bench"
done <"$out/bugs.us"

# the known-bad configurations, at default settings otherwise (plain build)
echo
printf '%-40s %-11s | %s\n' "configuration" detector "defaults: caught med worst"
for cfg in "--iter while_each:livelock" "--tasklist-lock rwlock-rpref:starvation" \
	   "--css-lock rwlock-rpref:starvation"; do
	o=${cfg%:*} det=${cfg##*:}
	[ -n "${CGT_BENCH_BUGS:-}" ] && break	# a choice of bugs leaves these out
	: >"$out/d"
	for i in $(seq 1 "$seeds"); do
		# shellcheck disable=SC2086
		"$dir/plain/cgtorture" run $o --seed "$((base + i))" --duration "$budget" \
			--stop-on "$det" --quiet --out "$out/r" >"$log" 2>&1
		t=$(time_to "$log" "$det")
		echo "${t:--}" >>"$out/d"
	done
	printf '%-40s %-11s | %s\n' "$o" "$det" "$(stats "$out/d")"
	echo "BENCH detect config=\"$o\" defaults=\"$(stats "$out/d")\"" >>"$out/bench"
done

# coverage per build: of the default runs (no option but the seed), how many reached every
# path of the COVERAGE line, and each path some run missed with the runs that reached it
echo
printf '%-5s | %-18s | %s\n' build "runs reaching all" "paths some run missed: runs reaching them"
for build in plain tsan asan; do
	[ -n "${CGT_BENCH_BUGS:-}" ] && break	# a choice of bugs leaves these out
	: >"$out/c"
	for i in $(seq 1 "$seeds"); do
		"$dir/$build/cgtorture" run --seed "$((base + i))" --duration "$budget" --quiet \
			--out "$out/r" >"$log" 2>&1
		grep '^COVERAGE ' "$log" | tr ' ' '\n' | sed -n 's/^path\.//p' >>"$out/c"
	done
	# "name=count" lines, a run's each: a path is reached in a run if its count is not 0
	miss=$(awk -F= -v n="$seeds" '
		{ seen[$1] += $2 > 0; if (!($1 in order)) { order[$1] = ++k; name[k] = $1 } }
		END { for (i = 1; i <= k; i++) if (seen[name[i]] < n) {
			printf "%s%s:%d", sep, name[i], seen[name[i]]; sep = " " } }' "$out/c")
	all=$(awk -F= -v k="$(grep -c '^exec-by-thread=' "$out/c")" '
		$1 == "exec-by-thread" { run++ } $2 == 0 { bad[run] = 1 }
		END { for (r = 1; r <= k; r++) n += !bad[r]; print n + 0 }' "$out/c")
	printf '%-5s | %8s/%-9s | %s\n' "$build" "$all" "$seeds" "${miss:-none}"
	echo "BENCH detect coverage build=$build all_paths=$all/$seeds missed=\"$miss\"" >>"$out/bench"
done
echo
cat "$out/bench"
[ -s "$out/twins" ] && { echo; echo "twin reports:"; cat "$out/twins"; }
exit 0
