#!/bin/sh
# make test: cgtorture reproduce on the corpus of real kernel reports (tests/reports/, with
# SOURCES.tsv saying where each came from). For every report:
#   - the mapping (reproduce --map: records, frames, locks, era, searches) is the golden one
#     in tests/reports/golden/, as syzkaller's pkg/report keeps its parser's; UPDATE=1
#     writes the goldens instead (read the diff before committing it);
#   - the outcome is EXPECT.tsv's graded verdict: "reproduced" reports are reproduced in
#     full (their mechanism in their kernel), as that catalogue entry and detector, with an
#     exact replay (exit 0); "reproduced-in-part" ones show that much of it and say what the
#     model lacks (exit 1), never "reproduced"; "not-found" ones, false reports among them,
#     are searched (1 s free-running, 20 schedules) and reproduced neither way (exit 3);
#     "not-modelled" ones exit 2 saying what is not modelled; "refused" ones are real logs
#     in a form the reader does not take yet (exit 2, one line).
#   MAP_ONLY=1 (make check) holds the mappings, the not-modelled verdicts and the refusals,
#   and searches nothing.
# Usage: tests/e2e/reports.sh BUILD_DIR   (the plain and asan builds are used)
set -u
. "$(dirname "$0")/lib.sh"
build=$1
bin=$build/plain/cgtorture
dir=tests/reports
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	line=$(awk -F'\t' -v f="$name.log" '$1 == f' "$dir/EXPECT.tsv")
	[ -n "$line" ] || { bad "$name: no line in EXPECT.tsv"; continue; }
	outcome=$(echo "$line" | cut -f2)
	det=$(echo "$line" | cut -f3)
	as=$(echo "$line" | cut -f4)

	"$bin" reproduce "$log" --map >"$tmp/map" 2>&1
	st=$?
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$tmp/map" "$dir/golden/$name.map"
	elif ! diff -u "$dir/golden/$name.map" "$tmp/map" >"$tmp/diff"; then
		bad "$name: the mapping is not the golden one:"
		head -20 "$tmp/diff"
	else
		ok "$name: mapping as golden"
	fi
	[ "${MAP_ONLY:-0}" = 1 ] && [ "$outcome" != not-modelled ] && [ "$outcome" != refused ] &&
		continue
	case $outcome in
	refused)
		[ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/map")" -eq 1 ] &&
			grep -q "neither a report.json nor a kernel log" "$tmp/map" &&
			ok "$name: refused, one line, exit 2 (a form the reader does not take yet)" ||
			bad "$name: expected refused and exit 2, got exit $st" ;;
	not-modelled)
		[ "$st" -eq 2 ] && tail -1 "$tmp/map" | grep -q "not modelled" &&
			ok "$name: not modelled, exit 2: $(tail -1 "$tmp/map" | sed 's/.*not modelled: //' | cut -c1-80)" ||
			bad "$name: expected 'not modelled' and exit 2, got exit $st" ;;
	not-found)
		"$build/plain/cgtorture" reproduce "$log" --runs 20 --free 1 --out "$tmp/out" \
			>"$tmp/run" 2>&1
		st=$?
		[ "$st" -eq 3 ] && grep -q "not found within the budget" "$tmp/run" &&
			! grep -q "^reproduce: reproduced" "$tmp/run" &&
			ok "$name: not reproduced in 20 schedules (exit 3)" ||
			{ bad "$name: expected no reproduction and exit 3, got exit $st"
			  tail -5 "$tmp/run"; } ;;
	reproduced|reproduced-in-part)
		"$bin" reproduce "$log" --out "$tmp/out" >"$tmp/run" 2>&1
		st=$?
		page=$(sed -n 's/^reproduce: the page: //p' "$tmp/run" | tail -1)
		if [ "$outcome" = reproduced ]; then
			want_st=0 said="reproduced" verdict="reproduced"
		else
			want_st=1 said="reproduced in part" verdict="reproduced in part"
		fi
		if [ "$st" -eq "$want_st" ] && grep -q "^reproduce: $said: .* as $as\$" "$tmp/run" &&
		   grep -q "^reproduce: looking for $det " "$tmp/run" &&
		   grep -q "^reproduce: matched: detector yes" "$tmp/run" &&
		   { [ "$outcome" = reproduced ] || grep -q "^reproduce: the model lacks: " "$tmp/run"; } &&
		   grep -q "^replay: reproduced" "$tmp/run" && [ -s "$page" ] &&
		   grep -q "id=kernel-stack" "$page" &&
		   python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["source"]; sys.exit(s["reproduced_as"] != sys.argv[2] or s["verdict"] != sys.argv[3] or not s["frames"])' \
			"$(dirname "$page")/report.json" "$as" "$verdict"; then
			ok "$name: $said as $as ($det), exact replay, its page beside the kernel's, $(grep -m1 'found after' "$tmp/run" | sed 's/.*found after //')"
		else
			bad "$name: expected $said as $as ($det), exit $want_st; got exit $st"
			grep "^reproduce\|^replay" "$tmp/run" | tail -8
		fi ;;
	*)
		bad "$name: EXPECT.tsv's outcome '$outcome' is none of reproduced, reproduced-in-part, not-found, not-modelled, refused" ;;
	esac
done

if [ "${MAP_ONLY:-0}" != 1 ]; then
# Free-running first: with one controlled schedule, too few for 3.10's OOM livelock (found
# after 4), its free-running run alone finds it, whole (the walk in oom_kill_process under
# tasklist_lock, exits waiting behind it) or, where the run met only find_lock_task_mm's
# loop, in part; either way it says it replays it not exactly.
log=$dir/21-rcu-stall-memcg-oom-kill-process-livelock-writer-do-exit-3.10.log
"$bin" reproduce "$log" --runs 1 --out "$tmp/free" >"$tmp/run" 2>&1
st=$?
page=$(sed -n 's/^reproduce: the page: //p' "$tmp/run" | tail -1)
if { { [ "$st" -eq 0 ] &&
       grep -q "^reproduce: reproduced free-running only: .* as walk-from-exiting\$" "$tmp/run"; } ||
     { [ "$st" -eq 1 ] &&
       grep -q "^reproduce: reproduced in part free-running only: .* as walk-from-exiting\$" "$tmp/run"; }; } &&
   grep -q "^reproduce: no controlled schedule of 1 replays it exactly" "$tmp/run" &&
   [ -s "$page" ] && grep -q "id=kernel-stack" "$page"; then
	ok "21: free-running alone reproduces it ($(grep -o '^reproduce: reproduced[a-z ]*' "$tmp/run" | sed 's/^reproduce: //')), its page beside the kernel's"
else
	bad "21 with --runs 1: expected reproduced (whole or in part) free-running only, got exit $st"
	grep "^reproduce" "$tmp/run" | tail -4
fi
fi

# a log read from stdin is the same log
"$bin" reproduce - --map <"$dir/03-hard-lockup-tasklist-lock-exit-vs-kill-pgrp-fork12.log" \
	>"$tmp/stdin" 2>&1
sed 's|^reproduce: -:|reproduce: X:|' "$tmp/stdin" >"$tmp/a"
sed 's|^reproduce: [^:]*:|reproduce: X:|' "$dir/golden/03-hard-lockup-tasklist-lock-exit-vs-kill-pgrp-fork12.map" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok "stdin (-) maps as the file does" || bad "stdin (-) maps otherwise"

# the same log as dmesg -T, journalctl -o short-precise and -o short-monotonic, dmesg -x and
# syslog carry it maps as the file does
name=07-lockdep-css-set-lock-vs-siglock-cgroup-freeze
sed 's|^reproduce: [^:]*:|reproduce: X:|' "$dir/golden/$name.map" >"$tmp/b"
carried() {
	sed "$2" "$dir/$name.log" >"$tmp/form.log"
	"$bin" reproduce "$tmp/form.log" --map 2>&1 | sed 's|^reproduce: [^:]*:|reproduce: X:|' >"$tmp/a"
	cmp -s "$tmp/a" "$tmp/b" && ok "07 as $1 carries it maps as the file does" ||
		bad "07 as $1 carries it maps otherwise"
}
carried "dmesg -T" 's/^\[ *[0-9]*\.[0-9]*\] /[Mon Dec  7 13:04:04 2026] /'
carried "journalctl -o short-precise" 's/^\[ *[0-9]*\.[0-9]*\] /Dec 07 13:04:04.123456 host kernel: /'
carried "journalctl -o short-monotonic" 's/^\(\[ *[0-9]*\.[0-9]*\]\) /\1 host kernel: /'
carried "dmesg -x" 's/^\[ *[0-9]*\.[0-9]*\] /kern  :warn  : &/'
carried "syslog" 's/^\[ *[0-9]*\.[0-9]*\] /Mar  3 10:11:12 host kernel: /'

# bad input: one line naming the problem, exit 2
refused() {
	what=$1
	shift
	"$@" >"$tmp/o" 2>"$tmp/e"
	st=$?
	if [ "$st" -eq 2 ] && [ "$(cat "$tmp/o" "$tmp/e" | wc -l)" -eq 1 ]; then
		ok "refused: $what: $(cat "$tmp/e")"
	else
		bad "$what: exit $st, $(cat "$tmp/o" "$tmp/e" | wc -l) line(s)"
	fi
}
: >"$tmp/empty.log"
head -c 100000 "$bin" >"$tmp/binary.log"
printf 'INFO: task cgexec:4242 blocked for more than 120 seconds.\n' >"$tmp/cut.log"
printf 'Dear list,\nthe machine hangs when I run my job.\n' >"$tmp/prose.log"
refused "an empty file" "$bin" reproduce "$tmp/empty.log"
refused "binary data" "$bin" reproduce "$tmp/binary.log"
refused "a record cut after its title" "$bin" reproduce "$tmp/cut.log"
refused "a mail with no kernel record" "$bin" reproduce "$tmp/prose.log"
refused "a missing file" "$bin" reproduce "$tmp/none.log"

# a write-up with no kernel record: refused, naming the functions it names and how to hand
# them in; handed in, they map as a record of that kind
printf 'The OOM killer loops in oom_kill_process: find_lock_task_mm walks\nwith while_each_thread from a task that exited.\n' >"$tmp/writeup.txt"
refused "a write-up, naming its functions" "$bin" reproduce "$tmp/writeup.txt"
grep -q "it names oom_kill_process, find_lock_task_mm but holds no kernel record.*--functions oom_kill_process,find_lock_task_mm --kind" "$tmp/e" &&
	ok "the write-up's refusal says how to hand its functions in" ||
	bad "the write-up's refusal: $(cat "$tmp/e")"
"$bin" reproduce "$tmp/writeup.txt" --functions find_lock_task_mm,oom_badness \
	--kind soft-lockup --version 3.12 --map >"$tmp/o" 2>&1
st=$?
[ "$st" -eq 0 ] && grep -q "searches, in order: walk-from-exiting (livelock)" "$tmp/o" &&
	grep -q "kernel 3.12: --kernel 3.14" "$tmp/o" &&
	ok "handed in: a 3.12 soft lockup in find_lock_task_mm is searched as walk-from-exiting" ||
	bad "handed in: exit $st: $(tail -2 "$tmp/o")"
refused "--kind without --functions" "$bin" reproduce "$tmp/writeup.txt" --kind hung-task
refused "--functions with an empty item" "$bin" reproduce "$tmp/writeup.txt" \
	--functions a,,b --kind hung-task
refused "--functions of an unknown kind" "$bin" reproduce "$tmp/writeup.txt" \
	--functions do_exit --kind stall

tally reports "all as expected"
