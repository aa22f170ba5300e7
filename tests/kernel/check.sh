#!/bin/sh
# The running kernel beside the model: kcheck watches this machine's kernel, model_check runs
# the model on the same scenarios, and this prints them side by side, one behaviour a row.
# A row matches when both say the same; "skip" (cgroupfs not writable here) and the rows the
# model only counts or does not model are shown, not judged. Exit 1 on any mismatch.
# Usage: tests/kernel/check.sh DIR   (holding kcheck and model_check)
set -u
dir=${1:?usage: tests/kernel/check.sh DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$dir/kcheck" >"$tmp/kernel" || { echo "kernel-check: kcheck failed"; exit 1; }
"$dir/model_check" >"$tmp/model" || { echo "kernel-check: model_check failed"; exit 1; }
python3 - "$tmp/kernel" "$tmp/model" <<'PY'
import sys

funcs = {
    "exec-keeps-pid": "de_thread (fs/exec.c)",
    "exec-takes-leader-pid": "de_thread: change_pid, transfer_pid",
    "exec-others-gone": "zap_other_threads, release_task",
    "exec-parent": "de_thread (real_parent kept)",
    "zombie-leader": "exit_notify: delay_group_leader",
    "zombie-listed": "proc_task_readdir (fs/proc/base.c)",
    "zombie-listed-after-exit": "__exit_signal, proc_task_readdir",
    "zombie-reaped": "wait_task_zombie: release_task",
    "exit-zombie-until-wait": "exit_notify: do_notify_parent, wait_task_zombie",
    "readdir-ends": "proc_task_readdir: first_tid, next_tid",
    "readdir-missed": "first_tid: resume by tid and f_pos",
    "procs-moves-all": "cgroup_procs_write, cgroup_attach_task",
    "procs-tid-moves-all": "__cgroup_procs_write: tsk->group_leader",
    "procs-fork-during-move": "threadgroup lock, cgroup_post_fork",
    "single-thread-move": "cgroup.threads (v2) / tasks (v1): one thread",
    "zombie-cgroup": "cgroup_exit, cgroup_free, proc_cgroup_show",
    "threads-read-while-moving": "css_task_iter_next, css_set_move_task",
    "pid-wrap": "alloc_pidmap: past pid_max, from RESERVED_PIDS",
    "pid-reused-at-once": "free_pid: free_pidmap as it unhashes",
}

def read(path):
    rows = {}
    for line in open(path):
        key, value, what = (line.rstrip("\n").split("\t") + ["", ""])[:3]
        rows[key] = (value, what)
    return rows

kernel, model = read(sys.argv[1]), read(sys.argv[2])
bad = 0
print("%-26s %-44s %-6s %-6s %s" % ("behaviour", "kernel function", "kernel", "model", "match"))
for key in funcs:
    kv, kw = kernel.get(key, ("missing", ""))
    mv, mw = model.get(key, ("missing", ""))
    if kv == "skip":
        match = "skip"
    elif "count" in (kv, mv) or "-" in (kv, mv):
        match = "info"
    elif kv == mv and kv != "missing":
        match = "yes"
    else:
        match = "NO"
        bad += 1
    print("%-26s %-44s %-6s %-6s %s" % (key, funcs[key], kv, mv, match))
    print("    kernel: %s" % kw)
    print("    model:  %s" % mw)
print("kernel-check: %s" % ("every row matches" if not bad else "%d mismatch(es)" % bad))
sys.exit(1 if bad else 0)
PY
