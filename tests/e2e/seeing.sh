#!/bin/sh
# Seeing a failure: show prints a report's story and writes report.html; reproduce turns a
# free-running report into an exact controlled replay (its page rendered by Chromium, its
# trace in decisions valid); both refuse a missing, truncated, foreign, other-version or
# unsuitable report with one line and exit 2; the trace and page checks themselves fail on
# a broken trace, a blank page and a timeline that does not read (tests/tools/page_check.py).
# Usage: tests/e2e/seeing.sh BUILD_DIR   (holding plain/cgtorture)
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: tests/e2e/seeing.sh BUILD_DIR}
bin=$dir/plain/cgtorture
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT


# -- a free-running failure, its page, and its reproduction as an exact replay. No exec in the
# mix: the walk's start thread then leaves by exiting, the kind the checks below look for
# (released by an exec, it is the same bug's other kind, which the story tells otherwise).
# In 6.x: through 5.0 oom_kill_process walked from the victim under tasklist_lock alone, and
# from a released victim that walk may also reach freed memory (an invariant, then a crash,
# in 3 runs of 230 in 3.15), a failure other than the livelock these checks look for.
"$bin" run --bug walk-from-exiting --kernel 6.x --swarm off --perturb 100 --threads 64 \
	--duration 20 --mix fork=35,exec=0,exit=20,migrate=10,observe=33 \
	--stop-on livelock --expect fail --quiet --out "$out/free" >"$out/log" 2>&1
report=$(find "$out/free" -name report.json | head -1)
if [ -z "$report" ]; then
	bad "no free-running report to work with"; tail -3 "$out/log" | sed 's/^/    /'
else
	rm -f "$(dirname "$report")/report.html"
	if "$bin" show "$report" >"$out/show" 2>&1 && grep -q 'release_task: unhashed' "$out/show" &&
		grep -q 'starts a thread-group walk' "$out/show" &&
		[ -f "$(dirname "$report")/report.html" ]; then
		ok "show: the story has the start thread's release and the walk; report.html written"
	else
		bad "show"; sed 's/^/    /' "$out/show" | head -8
	fi
	if "$bin" reproduce "$report" --shrink 6 >"$out/rep" 2>&1 &&
		grep -q '^replay: reproduced: livelock' "$out/rep"; then
		ok "$(grep '^reproduce: found' "$out/rep")"
		exact=$(sed -n 's/^reproduce: exact replay: cgtorture replay //p' "$out/rep")
		if tests/tools/page_check.py "$(dirname "$exact")" livelock >"$out/page" 2>&1 &&
			grep -q '"time_unit":"decisions"' "$(dirname "$exact")/trace.json"; then
			ok "the exact replay's folder: $(cat "$out/page")"
		else
			bad "the exact replay's folder"; sed 's/^/    /' "$out/page"
		fi
	else
		bad "reproduce"; sed 's/^/    /' "$out/rep" | tail -6
	fi
fi

# -- bad reports: one line, exit 2
refused() {
	what=$1; shift
	"$@" >"$out/o" 2>"$out/e"
	rc=$?
	lines=$(cat "$out/e" "$out/o" | grep -c .)
	if [ "$rc" = 2 ] && [ "$lines" = 1 ]; then
		ok "refused: $what: $(cat "$out/e" "$out/o" | head -1)"
	else
		bad "$what: status $rc, $lines line(s)"; head -3 "$out/e" "$out/o" | sed 's/^/    /'
	fi
}
if [ -n "$report" ]; then
	head -c 400 "$report" >"$out/cut.json"
	sed 's/"version": 2/"version": 3/' "$report" >"$out/v3.json"
	sed 's/"cgtorture-report"/"someone-elses-report"/' "$report" >"$out/foreign.json"
	sed 's/"window_from": [0-9.]*/"window_from": -1.0/' "$report" >"$out/window.json"
	for cmd in show reproduce; do
		refused "$cmd: a missing report" "$bin" $cmd "$out/none.json"
		refused "$cmd: a truncated report" "$bin" $cmd "$out/cut.json"
		refused "$cmd: a report of version 3" "$bin" $cmd "$out/v3.json"
		refused "$cmd: a foreign report" "$bin" $cmd "$out/foreign.json"
		refused "$cmd: a report whose window is not one" "$bin" $cmd "$out/window.json"
	done
	[ -n "${exact:-}" ] && refused "reproduce: a controlled report" "$bin" reproduce "$exact"
	refused "reproduce: a report from another build" "$dir/tsan/cgtorture" reproduce "$report"
	grep -q 'plain build' "$out/e" || bad "the other build's refusal does not name the build"
fi
refused "show with no report" "$bin" show

# -- the checks can fail: a B never ended, a slice crossing its parent, a blank page
printf '{"traceEvents":[{"name":"a","ph":"B","ts":1,"pid":1,"tid":1}]}' >"$out/t1.json"
printf '{"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":5,"pid":1,"tid":1},{"name":"b","ph":"X","ts":2,"dur":9,"pid":1,"tid":1}]}' >"$out/t2.json"
for t in t1 t2; do
	if tests/tools/trace_check.py "$out/$t.json" >"$out/o" 2>&1; then
		bad "trace_check passed a broken trace ($t)"
	else
		ok "trace_check refuses: $(head -1 "$out/o" | sed 's/.*json: //')"
	fi
done
if [ -n "$report" ]; then
	mkdir -p "$out/blank"
	find "$(dirname "$report")" -maxdepth 1 -type f -exec cp {} "$out/blank/" \;
	echo '<!DOCTYPE html><html><body></body></html>' >"$out/blank/report.html"
	if tests/tools/page_check.py "$out/blank" livelock >"$out/o" 2>&1; then
		bad "page_check passed a blank page"
	else
		ok "page_check refuses a blank page: $(grep -c . "$out/o") problem(s)"
	fi
fi

# -- and fails on a timeline that does not read: each break trips its own check
broken() {
	what=$1 expect=$2
	shift 2
	rm -rf "$out/broken" && mkdir -p "$out/broken"
	find "$page" -maxdepth 1 -type f -exec cp {} "$out/broken/" \;
	sed "$@" "$page/report.html" >"$out/broken/report.html"
	if cmp -s "$page/report.html" "$out/broken/report.html"; then
		bad "$what: the break changed nothing in the page"
	elif tests/tools/page_check.py "$out/broken" livelock >"$out/o" 2>&1; then
		bad "page_check passed a page with $what"
	elif grep -q "$expect" "$out/o"; then
		ok "page_check refuses $what: $(grep -m1 "$expect" "$out/o" | sed 's/^page_check: [^ ]*: //')"
	else
		bad "page_check refused $what, not for it"; sed 's/^/    /' "$out/o" | head -3
	fi
}
if [ -n "${exact:-}" ]; then
	page=$(dirname "$exact")
	broken "no tick labels" "no time axis" -e "s/class='ticklabel'/class='gone'/g"
	broken "a colour not in the legend" "legend does not name" -e "/data-key='operation'/d"
	broken "a lane too many" "lanes, not" \
		-e "0,/<g class='lane' /s//<g class='lane' data-thread='99999'><\/g>&/"
	broken "the wrong count of other threads" "no single lane says other threads" \
		-e "s/data-other='[0-9]*'/data-other='999'/"
	broken "the window outside the axis" "window's marker" \
		-e "s/<g class='window' data-ts='[^']*'/<g class='window' data-ts='-1'/"
	broken "a decision with a fraction" "printed with a fraction" \
		-e "s/\([0-9]\) decisions</\1.000 decisions</"
	broken "a command hidden behind a scroll bar" "overflows its box: #commands" \
		-e "s/<pre id=commands>/<pre id=commands style='white-space:pre;width:20em'>/"
fi

tally seeing
