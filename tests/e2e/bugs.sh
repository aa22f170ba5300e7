#!/bin/sh
# Every catalogued bug must be caught by the detector meant for it, in the build it needs, and
# its report folder must hold a valid trace.json, linkage.svg and a report.html that headless
# Chromium renders (tests/tools/page_check.py); its fixed twin (the same options without --bug)
# must pass with no report in every build.
# Usage: tests/e2e/bugs.sh BUILD_DIR   (holding plain/, tsan/ and asan/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/bugs.sh BUILD_DIR}
budget=${CGT_BUG_SECONDS:-20}	# per attempt; the run stops at the first failure
twin_secs=${CGT_TWIN_SECONDS:-3}
log=$(mktemp)
out=$(mktemp -d)
trap 'rm -rf "$log" "$log.page" "$out"' EXIT

"$dir/plain/cgtorture" bugs --tsv >"$log.tsv" || exit 1
# a tab is white space to read, so empty columns would merge: split on \037 instead
tr '\t' '\037' <"$log.tsv" >"$log.tsv.us"
while IFS="$(printf '\037')" read -r bug detector build options _explore; do
	bin=$dir/$build/cgtorture
	# shellcheck disable=SC2086
	"$bin" run --bug "$bug" $options --duration "$budget" --stop-on "$detector" --expect fail \
		--quiet --out "$out" >"$log" 2>&1
	rc=$?
	if [ "$rc" = 0 ] && grep -q "^$detector .*report(s)" "$log"; then
		ok "$bug caught by $detector ($build) $(sed -n 's/.*\(first_failure_s=[0-9.]*\).*/\1/p' "$log")"
		# its folder: trace.json valid, linkage.svg, report.html rendered by Chromium
		rdir=$(sed -n 's|^report: \(.*\)/report.json and .*|\1|p' "$log")
		if [ -n "$rdir" ] && tests/tools/page_check.py "$rdir" "$detector" >"$log.page" 2>&1; then
			ok "$bug: $(cat "$log.page")"
		else
			bad "$bug: its report folder (${rdir:-none})"
			sed 's/^/    /' "$log.page" | head -6
		fi
		# a race's accesses, function by function, are kept in report.json
		if [ "$detector" = tsan ]; then
			if grep -q 'report 1: data-race' "$rdir/report.json" &&
				grep -q "bytes by TSan's T[0-9]*: [a-z_]* <- " "$rdir/report.json"; then
				ok "$bug: report.json names the race's functions"
			else
				bad "$bug: report.json keeps no stack of the race"
			fi
		fi
	else
		bad "$bug ($build): status $rc, $detector did not report"
		grep -E 'report\(s\)|^  \[' "$log" | head -5 | sed 's/^/    /'
	fi
	for twin_build in plain tsan asan; do
		# shellcheck disable=SC2086
		"$dir/$twin_build/cgtorture" run $options --duration "$twin_secs" --expect pass \
			--quiet --out "$out" >"$log" 2>&1
		rc=$?
		races=$(grep -c 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer' "$log")
		if [ "$rc" = 0 ] && [ "$races" = 0 ]; then
			ok "$bug twin clean ($twin_build)"
		else
			bad "$bug twin ($twin_build): status $rc, $races sanitizer report(s)"
			grep -E 'report\(s\)|^  \[|WARNING|ERROR' "$log" | head -5 | sed 's/^/    /'
		fi
	done
done <"$log.tsv.us"
rm -f "$log.tsv" "$log.tsv.us"

# css-iter-stale-pos at default settings, over several seeds: caught in each era with the
# per-step css_task_iter (4.4 is the one --bug alone runs), and that era clean without it
for seed in 1 2 3; do
	for era in "" 6.x; do
		# shellcheck disable=SC2086
		if "$dir/plain/cgtorture" run --bug css-iter-stale-pos ${era:+--kernel $era} \
			--seed "$seed" --duration "$budget" --stop-on invariant --expect fail --quiet \
			--out "$out" >"$log" 2>&1 && grep -q '^invariant .*report(s)' "$log"; then
			ok "css-iter-stale-pos caught (${era:-default era}, seed $seed)"
		else
			bad "css-iter-stale-pos not caught (${era:-default era}, seed $seed)"
		fi
	done
	for era in 4.4 6.x; do
		if "$dir/plain/cgtorture" run --kernel "$era" --seed "$seed" --duration "$twin_secs" \
			--expect pass --quiet --out "$out" >"$log" 2>&1 && grep -q '^SUMMARY .*verdict=PASS' "$log"; then
			ok "--kernel $era clean, its iterators moved on (seed $seed)"
		else
			bad "--kernel $era (seed $seed)"
			grep -E 'report\(s\)|^  \[' "$log" | head -3 | sed 's/^/    /'
		fi
	done
done
tally bugs "all caught, every twin clean"
