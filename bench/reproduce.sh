#!/bin/sh
# cgtorture reproduce against the catalogue: for each bug, a free-running report made with
# the catalogue's options (the kind a nightly cell leaves), then reproduce: how many
# controlled schedules until the same detector fires with the same kind of evidence, whether
# the schedule found replays exactly, and what it cost (wall seconds, and per schedule: the
# bare cost of one controlled run of the bug's explore options, its physical limit here).
# Usage: bench/reproduce.sh BUILD_DIR [RUNS]   (build/{plain,tsan,asan}/cgtorture;
# CGT_BENCH_BUGS="a b" limits the bugs)
set -u
dir=${1:?usage: bench/reproduce.sh BUILD_DIR [RUNS]}
runs=${2:-200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf 'cgtorture reproduce: a free-running report in, an exact replay out (at most %s schedules);\n' "$runs"
printf '%s cores, %s, load %s\n\n' "$(nproc)" "$(date -u +%F)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-27s %-11s %-5s | %-9s | %-10s | %-8s | %-9s | %s\n' bug detector build "free run" \
	"schedules" "exact" "seconds" "s/schedule"
"$dir/plain/cgtorture" bugs --tsv | tr '\t' '\037' >"$out/bugs.us"
while IFS="$(printf '\037')" read -r bug det build options _explore; do
	case " ${CGT_BENCH_BUGS:-$bug} " in *" $bug "*) ;; *) continue ;; esac
	bin=$dir/$build/cgtorture
	printf '%-27s %-11s %-5s' "$bug" "$det" "$build"
	# shellcheck disable=SC2086
	"$bin" run --bug "$bug" $options --duration 30 --stop-on "$det" --expect fail --quiet \
		--out "$out/$bug" >"$out/log" 2>&1
	report=$(sed -n 's|^report: \(.*/report.json\) and .*|\1|p' "$out/log")
	if [ -z "$report" ]; then
		printf ' | %-9s |\n' "missed"
		continue
	fi
	start=$(date +%s.%N)
	"$bin" reproduce "$report" --runs "$runs" --shrink 0 >"$out/rlog" 2>&1
	took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	k=$(sed -n 's/^reproduce: found after \([0-9]*\) schedule.*/\1/p' "$out/rlog")
	exact=no
	grep -q '^replay: reproduced: ' "$out/rlog" && exact=yes
	per=-
	[ -n "$k" ] && per=$(awk -v t="$took" -v k="$k" 'BEGIN { printf "%.2f", t / (k + 1) }')
	printf ' | %-9s | %-10s | %-8s | %-9s | %s\n' "caught" "${k:->$runs}" "$exact" "$took" "$per"
	sed -n 's/^reproduce: looking for [a-z-]* (kind "\(.*\)") in .*/    kind: \1/p' "$out/rlog"
	[ -z "$k" ] && sed -n 's/^reproduce: /    /p' "$out/rlog" | tail -2
done <"$out/bugs.us"
