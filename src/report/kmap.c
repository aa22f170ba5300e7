// SPDX-License-Identifier: GPL-2.0
/*
 * The registry that maps a kernel report onto the model (kmap.h). Its tables are the only
 * place that knows kernel names: a function is one line of functions[] (or primitives[],
 * or looked past in skipped[]), a lockdep name one line of lock_names[], a bug's tell-tale
 * functions one line of signatures[].
 */
#include <stdio.h>
#include <string.h>

#include "kmap.h"
#include "../model/bugs.h"

enum role { FORK, EXEC, EXIT, MIGRATE, OBSERVE };

/* kernel function -> the model's, what it is, the model locks it takes, the walk it is */
static const struct kfn {
	const char *fn;
	enum role role;
	const char *model;
	const char *takes;		/* model locks, comma-separated */
	const char *walk;		/* the model walk (cgt_walk's fn) it is or calls */
} functions[] = {
	{ "copy_process", FORK, "copy_process", "tasklist_lock,cgroup_threadgroup_rwsem,"
	  "group_rwsem,siglock", NULL },
	{ "_do_fork", FORK, "copy_process", NULL, NULL },
	{ "do_fork", FORK, "copy_process", NULL, NULL },
	{ "kernel_clone", FORK, "copy_process", NULL, NULL },
	{ "sys_clone", FORK, "copy_process", NULL, NULL },
	{ "sys_clone3", FORK, "copy_process", NULL, NULL },
	{ "sys_fork", FORK, "copy_process", NULL, NULL },
	{ "sys_vfork", FORK, "copy_process", NULL, NULL },
	{ "cgroup_fork", FORK, "cgroup_fork", NULL, NULL },
	{ "cgroup_post_fork", FORK, "cgroup_post_fork", "css_set_lock,cgroup_threadgroup_rwsem",
	  NULL },
	{ "cgroup_can_fork", FORK, "threadgroup_change_begin", "cgroup_threadgroup_rwsem,"
	  "cgroup_mutex", NULL },
	{ "cgroup_css_set_fork", FORK, "threadgroup_change_begin", "cgroup_threadgroup_rwsem,"
	  "cgroup_mutex", NULL },
	{ "threadgroup_change_begin", FORK, "threadgroup_change_begin",
	  "cgroup_threadgroup_rwsem,group_rwsem", NULL },
	{ "cgroup_threadgroup_change_begin", FORK, "threadgroup_change_begin",
	  "cgroup_threadgroup_rwsem", NULL },
	{ "alloc_pid", FORK, "alloc_pid", NULL, NULL },
	{ "copy_signal", FORK, "copy_signal", NULL, NULL },
	{ "attach_pid", FORK, "attach_pid", NULL, NULL },
	{ "de_thread", EXEC, "de_thread", "tasklist_lock,siglock,cgroup_threadgroup_rwsem,"
	  "group_rwsem", NULL },
	{ "zap_other_threads", EXEC, "zap_other_threads", NULL, NULL },
	{ "begin_new_exec", EXEC, "de_thread", NULL, NULL },
	{ "flush_old_exec", EXEC, "de_thread", NULL, NULL },
	{ "load_elf_binary", EXEC, "de_thread", NULL, NULL },
	{ "search_binary_handler", EXEC, "de_thread", NULL, NULL },
	{ "exec_binprm", EXEC, "de_thread", NULL, NULL },
	{ "bprm_execve", EXEC, "de_thread", NULL, NULL },
	{ "do_execve", EXEC, "de_thread", NULL, NULL },
	{ "do_execveat_common", EXEC, "de_thread", NULL, NULL },
	{ "sys_execve", EXEC, "de_thread", NULL, NULL },
	{ "sys_execveat", EXEC, "de_thread", NULL, NULL },
	{ "transfer_pid", EXEC, "transfer_pid", NULL, NULL },
	{ "exchange_tids", EXEC, "transfer_pid", NULL, NULL },
	{ "do_exit", EXIT, "do_exit", "tasklist_lock", NULL },
	{ "do_group_exit", EXIT, "do_exit", "siglock", NULL },
	{ "sys_exit", EXIT, "do_exit", NULL, NULL },
	{ "sys_exit_group", EXIT, "do_exit", NULL, NULL },
	{ "get_signal", EXIT, "do_exit", "siglock", NULL },
	{ "exit_signals", EXIT, "exit_signals", "cgroup_threadgroup_rwsem,group_rwsem,siglock",
	  NULL },
	{ "exit_notify", EXIT, "exit_notify", "tasklist_lock", NULL },
	{ "forget_original_parent", EXIT, "exit_notify", "tasklist_lock", NULL },
	{ "release_task", EXIT, "release_task", "tasklist_lock,siglock", NULL },
	{ "__exit_signal", EXIT, "__exit_signal", "siglock", NULL },
	{ "__unhash_process", EXIT, "__unhash_process", NULL, NULL },
	{ "unhash_process", EXIT, "__unhash_process", NULL, NULL },
	{ "do_notify_parent", EXIT, "do_notify_parent", NULL, NULL },
	{ "find_new_reaper", EXIT, "exit_notify", NULL, NULL },
	{ "cgroup_exit", EXIT, "cgroup_exit", "css_set_lock", NULL },
	{ "cgroup_release", EXIT, "cgroup_exit", "css_set_lock", NULL },
	{ "__put_task_struct", EXIT, "put_task_struct", NULL, NULL },
	{ "delayed_put_task_struct", EXIT, "delayed_put_task_struct", NULL, NULL },
	{ "free_pid", EXIT, "free_pid", NULL, NULL },
	{ "put_pid", EXIT, "put_pid", NULL, NULL },
	{ "wait_task_zombie", EXIT, "cgt_reap_zombies (wait_task_zombie)", "tasklist_lock",
	  NULL },
	{ "do_wait", EXIT, "cgt_reap_zombies (wait_task_zombie)", "tasklist_lock", NULL },
	{ "do_wait_thread", EXIT, "cgt_reap_zombies (wait_task_zombie)", NULL, NULL },
	{ "wait_consider_task", EXIT, "cgt_reap_zombies (wait_task_zombie)", NULL, NULL },
	{ "kernel_wait4", EXIT, "cgt_reap_zombies (wait_task_zombie)", NULL, NULL },
	{ "sys_wait4", EXIT, "cgt_reap_zombies (wait_task_zombie)", NULL, NULL },
	{ "sys_waitid", EXIT, "cgt_reap_zombies (wait_task_zombie)", NULL, NULL },
	{ "cgroup_attach_task", MIGRATE, "cgroup_attach_task", "css_set_lock",
	  "cgroup_attach_task" },
	{ "cgroup_procs_write", MIGRATE, "cgroup_procs_write", "cgroup_mutex,"
	  "cgroup_threadgroup_rwsem,group_rwsem", NULL },
	{ "__cgroup_procs_write", MIGRATE, "cgroup_procs_write", "cgroup_mutex,"
	  "cgroup_threadgroup_rwsem,group_rwsem", NULL },
	{ "cgroup1_procs_write", MIGRATE, "cgroup_procs_write", NULL, NULL },
	{ "cgroup_tasks_write", MIGRATE, "cgroup_tasks_write", NULL, NULL },
	{ "cgroup1_tasks_write", MIGRATE, "cgroup_tasks_write", NULL, NULL },
	{ "cgroup_procs_write_start", MIGRATE, "cgroup_procs_write",
	  "cgroup_threadgroup_rwsem", NULL },
	{ "cgroup_attach_lock", MIGRATE, "cgroup_procs_write", "cgroup_threadgroup_rwsem",
	  NULL },
	{ "attach_task_by_pid", MIGRATE, "cgroup_procs_write", "cgroup_mutex,group_rwsem",
	  NULL },
	{ "cgroup_kn_lock_live", MIGRATE, "cgroup_lock_live_group", "cgroup_mutex", NULL },
	{ "cgroup_lock_live_group", MIGRATE, "cgroup_lock_live_group", "cgroup_mutex", NULL },
	{ "cgroup_migrate", MIGRATE, "cgroup_attach_task", "css_set_lock", NULL },
	{ "cgroup_migrate_execute", MIGRATE, "cgroup_attach_task", "css_set_lock", NULL },
	{ "cgroup_migrate_add_src", MIGRATE, "cgroup_attach_task", "css_set_lock", NULL },
	{ "cgroup_migrate_prepare_dst", MIGRATE, "find_css_set", "css_set_lock", NULL },
	{ "cgroup_migrate_finish", MIGRATE, "put_css_set", "css_set_lock", NULL },
	{ "cgroup_task_migrate", MIGRATE, "cgroup_task_migrate", NULL, NULL },
	{ "css_set_move_task", MIGRATE, "cgroup_task_migrate", NULL, NULL },
	{ "__cgroup1_procs_write", MIGRATE, "cgroup_procs_write", "cgroup_mutex,"
	  "cgroup_threadgroup_rwsem", NULL },
	{ "cgroup_threads_write", MIGRATE, "cgroup_procs_write", NULL, NULL },
	{ "cgroup_attach_task_all", MIGRATE, "cgroup_attach_task", "cgroup_mutex,"
	  "cgroup_threadgroup_rwsem", NULL },
	{ "cgroup_transfer_tasks", MIGRATE, "cgroup_attach_task", "cgroup_mutex,"
	  "css_set_lock", NULL },
	{ "cgroup_update_dfl_csses", MIGRATE, "cgroup_attach_task", "css_set_lock,"
	  "cgroup_threadgroup_rwsem", NULL },
	{ "find_css_set", MIGRATE, "find_css_set", "css_set_lock", NULL },
	{ "put_css_set", MIGRATE, "put_css_set", "css_set_lock", NULL },
	{ "put_css_set_locked", MIGRATE, "put_css_set", NULL, NULL },
	{ "proc_task_readdir", OBSERVE, "proc_task_readdir", NULL, NULL },
	{ "next_tid", OBSERVE, "proc_task_readdir (next_tid)", NULL, NULL },
	{ "first_tid", OBSERVE, "proc_task_readdir (first_tid)", NULL, NULL },
	{ "proc_cgroup_show", OBSERVE, "proc_cgroup_show", "cgroup_mutex,css_set_lock", NULL },
	{ "task_cgroup_path", OBSERVE, "proc_cgroup_show", "css_set_lock", NULL },
	{ "fill_stats_for_tgid", OBSERVE, "fill_stats_for_tgid", "siglock",
	  "fill_stats_for_tgid" },
	{ "taskstats_user_cmd", OBSERVE, "fill_stats_for_tgid", NULL, "fill_stats_for_tgid" },
	{ "cmd_attr_tgid", OBSERVE, "fill_stats_for_tgid", NULL, "fill_stats_for_tgid" },
	{ "oom_badness", OBSERVE, "oom_badness", NULL, "find_lock_task_mm" },
	{ "find_lock_task_mm", OBSERVE, "oom_badness", NULL, "find_lock_task_mm" },
	{ "select_bad_process", OBSERVE, "oom_badness", NULL, "find_lock_task_mm" },
	{ "oom_evaluate_task", OBSERVE, "oom_badness", NULL, "find_lock_task_mm" },
	/* the OOM killer's way in: what it then does depends on the kernel */
	{ "oom_kill_process", OBSERVE, "oom_badness (the OOM killer)", NULL, NULL },
	{ "out_of_memory", OBSERVE, "oom_badness (the OOM killer)", NULL, NULL },
	{ "mem_cgroup_out_of_memory", OBSERVE, "oom_badness (the OOM killer)", NULL, NULL },
	{ "mem_cgroup_scan_tasks", OBSERVE, "css_task_iter_start (every task of a cgroup)",
	  "css_set_lock", NULL },
	{ "check_hung_uninterruptible_tasks", OBSERVE, "check_hung_uninterruptible_tasks", NULL,
	  "check_hung_uninterruptible_tasks" },
	{ "check_hung_task", OBSERVE, "check_hung_uninterruptible_tasks", NULL,
	  "check_hung_uninterruptible_tasks" },
	{ "rcu_lock_break", OBSERVE, "check_hung_uninterruptible_tasks (rcu_lock_break)", NULL,
	  "check_hung_uninterruptible_tasks" },
	{ "css_task_iter_start", OBSERVE, "css_task_iter_start", "css_set_lock", NULL },
	{ "css_task_iter_next", OBSERVE, "css_task_iter_next", "css_set_lock", NULL },
	{ "css_task_iter_advance", OBSERVE, "css_task_iter_next", NULL, NULL },
	{ "css_task_iter_end", OBSERVE, "css_task_iter_end", "css_set_lock", NULL },
	{ "cgroup_task_count", OBSERVE, "cgroup_task_count", "css_set_lock", NULL },
	{ "pidlist_array_load", OBSERVE, "css_task_iter_start", NULL, NULL },
	{ "cgroup_pidlist_start", OBSERVE, "css_task_iter_start", NULL, NULL },
	{ "cgroup_procs_start", OBSERVE, "css_task_iter_start", NULL, NULL },
	{ "cgroup_procs_next", OBSERVE, "css_task_iter_next", NULL, NULL },
	{ "cgroup_threads_start", OBSERVE, "css_task_iter_start", NULL, NULL },
	{ "kill_pgrp", OBSERVE, "cgt_pgrp_walk (kill_pgrp)", "tasklist_lock", NULL },
	{ "__kill_pgrp_info", OBSERVE, "cgt_pgrp_walk (kill_pgrp)", NULL, NULL },
	{ "kill_something_info", OBSERVE, "cgt_all_process_walk (kill -1)", "tasklist_lock",
	  NULL },
	{ "sys_kill", OBSERVE, "cgt_all_process_walk (kill -1)", NULL, NULL },
	{ "sys_getpriority", OBSERVE, "cgt_pgrp_walk (getpriority)", "tasklist_lock", NULL },
	{ "sys_setpriority", OBSERVE, "cgt_pgrp_walk (setpriority)", "tasklist_lock", NULL },
	{ "will_become_orphaned_pgrp", OBSERVE, "cgt_pgrp_walk (an orphaned-pgrp check)",
	  "tasklist_lock", NULL },
	{ "is_current_pgrp_orphaned", OBSERVE, "cgt_pgrp_walk (an orphaned-pgrp check)",
	  "tasklist_lock", NULL },
	{ "mm_update_next_owner", OBSERVE, "cgt_all_process_walk (for_each_process)",
	  "tasklist_lock", NULL },
};

/* a lock's slow path, or a wait for a grace period: the class of lock and the side */
static const struct kprim {
	const char *fn;
	const char *class;
	char side;
} primitives[] = {
	{ "queued_write_lock_slowpath", "rwlock", 'w' },
	{ "_raw_write_lock", "rwlock", 'w' },
	{ "_raw_write_lock_irq", "rwlock", 'w' },
	{ "_raw_write_lock_irqsave", "rwlock", 'w' },
	{ "do_raw_write_lock", "rwlock", 'w' },
	{ "__write_lock_failed", "rwlock", 'w' },
	{ "queued_read_lock_slowpath", "rwlock", 'r' },
	{ "_raw_read_lock", "rwlock", 'r' },
	{ "_raw_read_lock_irq", "rwlock", 'r' },
	{ "do_raw_read_lock", "rwlock", 'r' },
	{ "__read_lock_failed", "rwlock", 'r' },
	{ "rwsem_down_write_failed", "rwsem", 'w' },
	{ "rwsem_down_write_slowpath", "rwsem", 'w' },
	{ "call_rwsem_down_write_failed", "rwsem", 'w' },
	{ "down_write", "rwsem", 'w' },
	{ "down_write_killable", "rwsem", 'w' },
	{ "__down_write", "rwsem", 'w' },
	{ "rwsem_down_read_failed", "rwsem", 'r' },
	{ "rwsem_down_read_slowpath", "rwsem", 'r' },
	{ "call_rwsem_down_read_failed", "rwsem", 'r' },
	{ "down_read", "rwsem", 'r' },
	{ "__down_read", "rwsem", 'r' },
	{ "percpu_down_write", "percpu-rwsem", 'w' },
	{ "rcu_sync_enter", "percpu-rwsem", 'w' },
	{ "percpu_down_read", "percpu-rwsem", 'r' },
	{ "__percpu_down_read", "percpu-rwsem", 'r' },
	{ "percpu_rwsem_wait", "percpu-rwsem", 'r' },
	{ "__mutex_lock", "mutex", 'w' },
	{ "__mutex_lock_slowpath", "mutex", 'w' },
	{ "__mutex_lock_common", "mutex", 'w' },
	{ "mutex_lock", "mutex", 'w' },
	{ "mutex_lock_nested", "mutex", 'w' },
	{ "mutex_lock_killable", "mutex", 'w' },
	{ "mutex_lock_interruptible", "mutex", 'w' },
	{ "_raw_spin_lock", "spinlock", 'w' },
	{ "_raw_spin_lock_irq", "spinlock", 'w' },
	{ "_raw_spin_lock_irqsave", "spinlock", 'w' },
	{ "_raw_spin_lock_bh", "spinlock", 'w' },
	{ "do_raw_spin_lock", "spinlock", 'w' },
	{ "queued_spin_lock_slowpath", "spinlock", 'w' },
	{ "native_queued_spin_lock_slowpath", "spinlock", 'w' },
	{ "__pv_queued_spin_lock_slowpath", "spinlock", 'w' },
	{ "synchronize_rcu", "rcu", 'w' },
	{ "synchronize_sched", "rcu", 'w' },
	{ "synchronize_rcu_expedited", "rcu", 'w' },
	{ "wait_rcu_gp", "rcu", 'w' },
	{ "__wait_rcu_gp", "rcu", 'w' },
};

/* frames every report has and the model has no reason to: looked past */
static const char *const skipped[] = {
	"__switch_to", "__switch_to_asm", "context_switch", "finish_task_switch",
	"__schedule", "schedule", "schedule_timeout", "schedule_preempt_disabled",
	"io_schedule", "preempt_schedule_common", "preempt_schedule_irq", "wait_for_completion",
	"wait_for_common", "__wait_for_common", "do_wait_for_common", "rwsem_optimistic_spin",
	"osq_lock", "mutex_optimistic_spin", "entry_SYSCALL_64_after_hwframe",
	"entry_SYSCALL_64_fastpath", "do_syscall_64", "x64_sys_call", "system_call_fastpath",
	"system_call", "tracesys", "ret_from_fork", "ret_from_fork_asm", "kthread",
	"worker_thread", "process_one_work", "dump_stack", "dump_stack_lvl", "show_stack",
	"sched_show_task", "show_stack_log_lvl", "watchdog", "watchdog_timer_fn",
	"__hrtimer_run_queues", "hrtimer_interrupt", "local_apic_timer_interrupt",
	"smp_apic_timer_interrupt", "apic_timer_interrupt", "sysvec_apic_timer_interrupt",
	"asm_sysvec_apic_timer_interrupt", "irq_exit", "irq_exit_rcu", "__do_softirq",
	"__irq_exit_rcu", "nmi_cpu_backtrace", "nmi_trigger_cpumask_backtrace",
	"arch_trigger_cpumask_backtrace", "print_address_description", "kasan_report",
	"__kasan_report", "check_memory_region", "__asan_load8", "__asan_load4",
	"__asan_store8", "lock_acquire", "__lock_acquire", "check_noncircular",
	"print_circular_bug", "validate_chain", "check_prev_add", "debug_show_all_locks",
	"lockdep_print_held_locks", "___might_sleep", "__might_sleep", "__might_fault",
	"rcu_dump_cpu_stacks", "print_cpu_stall", "rcu_check_callbacks", "rcu_sched_clock_irq",
	"update_process_times", "tick_sched_timer", "tick_sched_handle", "vfs_write",
	"ksys_write", "sys_write", "kernfs_fop_write", "kernfs_fop_write_iter",
	"new_sync_write", "cgroup_file_write", "seq_read", "seq_read_iter", "vfs_read",
	"ksys_read", "sys_read", "proc_single_show", "iterate_dir", "sys_getdents",
	"sys_getdents64", "do_page_fault", "__do_page_fault", "page_fault",
	"asm_exc_page_fault", "exc_page_fault", "panic", "nmi_panic", "watchdog_overflow_callback",
	"__perf_event_overflow", "perf_event_nmi_handler", "nmi_handle", "default_do_nmi",
	"do_nmi", "end_repeat_nmi", "nmi", "do_syscall_x64", "__x64_sys_call",
};

/*
 * messages -> the function that prints them: evidence beside a record whose own backtrace
 * is cut short (a mail that quotes the OOM killer's lines and then only a stalled writer)
 */
static const struct { const char *text, *fn; } messages[] = {
	{ "or sacrifice child", "oom_kill_process" },
	{ "Out of memory: Kill process", "oom_kill_process" },
	{ "Memory cgroup out of memory: Kill process", "oom_kill_process" },
	{ "Killed process ", "oom_kill_process" },
	{ "invoked oom-killer", "out_of_memory" },
};

const char *cgt_kmap_said(const char *line)
{
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
		if (strstr(line, messages[i].text))
			return messages[i].fn;
	return NULL;
}

/*
 * frames of a task kept off the CPU while it may hold a lock: direct reclaim, writeback and
 * CFS throttling (the model's --off-cpu)
 */
static const char *const off_cpu_frames[] = {
	"__alloc_pages_slowpath", "__alloc_pages_direct_reclaim", "__perform_reclaim",
	"try_to_free_pages", "try_to_free_mem_cgroup_pages", "do_try_to_free_pages",
	"shrink_node", "shrink_zones", "shrink_zone", "shrink_slab", "shrink_lruvec",
	"shrink_inactive_list", "super_cache_scan", "prune_icache_sb", "throttle_direct_reclaim",
	"mem_cgroup_handle_over_high", "balance_dirty_pages", "congestion_wait",
	"wait_iff_congested", "throttle_cfs_rq",
};

/* lockdep's lock names -> the model's locks */
static const struct { const char *kernel, *model; } lock_names[] = {
	{ "tasklist_lock", "tasklist_lock" },
	{ "cgroup_mutex", "cgroup_mutex" },
	{ "cgroup_threadgroup_rwsem", "cgroup_threadgroup_rwsem" },
	{ "css_set_rwsem", "css_set_lock" },
	{ "css_set_lock", "css_set_lock" },
	{ "sig->group_rwsem", "group_rwsem" },
	{ "tsk->signal->group_rwsem", "group_rwsem" },
	{ "sighand->siglock", "siglock" },
	{ "rcu_read_lock", "rcu" },
	{ "rcu_callback_map", "rcu" },
};

/* the model's locks and the class of lock each is (css_set_lock's by era) */
static const struct { const char *lock, *classes; } lock_classes[] = {
	{ "tasklist_lock", "rwlock" },
	{ "cgroup_mutex", "mutex" },
	{ "cgroup_threadgroup_rwsem", "percpu-rwsem" },
	{ "group_rwsem", "rwsem" },
	{ "css_set_lock", "rwsem,spinlock,rwlock" },
	{ "siglock", "spinlock" },
	{ "rcu", "rcu" },
};

/* the kinds of record, and the detectors that can show each, most likely first */
static const enum cgt_detector kind_detectors[CGT_NR_KLOG_KINDS][3] = {
	[CGT_KLOG_HUNG_TASK] = { CGT_DET_HANG, CGT_DET_STARVATION, CGT_NR_DETECTORS },
	[CGT_KLOG_SOFT_LOCKUP] = { CGT_DET_LIVELOCK, CGT_DET_STARVATION, CGT_DET_HANG },
	[CGT_KLOG_HARD_LOCKUP] = { CGT_DET_LIVELOCK, CGT_DET_STARVATION, CGT_DET_HANG },
	[CGT_KLOG_RCU_STALL] = { CGT_DET_LIVELOCK, CGT_DET_HANG, CGT_NR_DETECTORS },
	[CGT_KLOG_KASAN] = { CGT_DET_ASAN, CGT_DET_RCU_LIFETIME, CGT_NR_DETECTORS },
	[CGT_KLOG_KCSAN] = { CGT_DET_TSAN, CGT_NR_DETECTORS, CGT_NR_DETECTORS },
	[CGT_KLOG_LOCKDEP] = { CGT_DET_LOCK_ORDER, CGT_DET_HANG, CGT_NR_DETECTORS },
	[CGT_KLOG_SLEEP_ATOMIC] = { CGT_DET_RCU_NESTING, CGT_DET_HANG, CGT_NR_DETECTORS },
	[CGT_KLOG_BUG] = { CGT_DET_ASAN, CGT_DET_INVARIANT, CGT_DET_RCU_LIFETIME },
	[CGT_KLOG_WARNING] = { CGT_DET_INVARIANT, CGT_DET_RCU_LIFETIME, CGT_NR_DETECTORS },
	[CGT_KLOG_RCU_USAGE] = { CGT_DET_RCU_LIFETIME, CGT_DET_RCU_NESTING, CGT_NR_DETECTORS },
	[CGT_KLOG_BACKTRACE] = { CGT_DET_HANG, CGT_DET_LIVELOCK, CGT_NR_DETECTORS },
};

/* kernel versions -> eras: the first version of each (era.c says what changed) */
static const struct { int from; const char *era; const char *why; } eras[] = {
	{ 0, "3.14", "3.14 or earlier: x86 rwlock_t tasklist_lock and css_set_lock" },
	{ 315, "3.15", "3.15: css_set_rwsem, rwlock_t tasklist_lock" },
	{ 316, "4.4", "3.16 to 4.4: queued rwlock tasklist_lock, css_set_rwsem" },
	{ 405, "6.x", "4.5 or later: css_set_lock a spinlock, global threadgroup rwsem" },
};

/*
 * each catalogued bug: the functions its kernel reports show, those that show it only in
 * the kernels that had it (counted when the record names its kernel), the locks, and those
 * kernels (major*100+minor; a record that names a kernel outside is not that bug)
 */
static const struct { const char *bug, *fns, *dated, *locks; int from, until; } signatures[] = {
	{ "walk-from-exiting", "oom_badness,find_lock_task_mm,select_bad_process,"
	  "oom_evaluate_task", "oom_kill_process,out_of_memory,__unhash_process", "", 0, 313 },
	{ "walk-leader-exec", "check_hung_uninterruptible_tasks", "", "", 0, 315 },
	{ "no-pid-alive", "next_tid,first_tid,proc_task_readdir,next_thread", "", "", 0, 0 },
	{ "attach-no-threadgroup-lock", "cgroup_attach_task,attach_task_by_pid,"
	  "cgroup_procs_write,__cgroup_procs_write,cgroup_post_fork", "", "", 0, 0 },
	{ "rwsem-inside-rcu", "task_cgroup_path,proc_cgroup_show,cgroup_attach_task", "",
	  "css_set_lock,rcu", 315, 404 },
	{ "reader-pref-rwlock", "copy_process,do_exit,exit_notify,release_task,de_thread,"
	  "kill_pgrp,kill_something_info,do_wait,wait_task_zombie", "", "tasklist_lock", 0, 315 },
	{ "cset-walk-unlocked", "css_task_iter_next,css_task_iter_advance,css_task_iter_start,"
	  "cgroup_task_count,pidlist_array_load", "", "", 0, 0 },
	{ "css-task-iter-block", "css_task_iter_start,css_task_iter_next,pidlist_array_load", "",
	  "css_set_lock,cgroup_mutex", 315, 404 },
};

/* @name in the comma-separated @list */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return true;
	return false;
}

static const struct kfn *find_fn(const char *fn)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (!strcmp(functions[i].fn, fn))
			return &functions[i];
	return NULL;
}

static const struct kprim *find_prim(const char *fn)
{
	for (size_t i = 0; i < sizeof(primitives) / sizeof(primitives[0]); i++)
		if (!strcmp(primitives[i].fn, fn))
			return &primitives[i];
	return NULL;
}

static bool is_off_cpu(const char *fn)
{
	for (size_t i = 0; i < sizeof(off_cpu_frames) / sizeof(off_cpu_frames[0]); i++)
		if (!strcmp(off_cpu_frames[i], fn))
			return true;
	return false;
}

const char *cgt_kmap_candidate_name(const struct cgt_kmap_candidate *c)
{
	if (c->bug >= 0)
		return cgt_bug_catalogue[c->bug].name;
	return c->off_cpu ? "the era with a holder off the CPU" : "the era as it shipped";
}

static bool is_skipped(const char *fn)
{
	for (size_t i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++)
		if (!strcmp(skipped[i], fn))
			return true;
	return false;
}

/* The model lock among @takes of lock class @class (a primitive's), or NULL. */
static const char *lock_of_class(const char *takes, const char *class)
{
	for (size_t i = 0; i < sizeof(lock_classes) / sizeof(lock_classes[0]); i++)
		if (listed(takes, lock_classes[i].lock) && listed(lock_classes[i].classes, class))
			return lock_classes[i].lock;
	return NULL;
}

/*
 * What the first backtrace waits for: its first primitive (under the frames looked past),
 * then the first of the next few callers that takes a lock of that class.
 */
static void waits_for(struct cgt_kmap *m)
{
	const struct cgt_klog_record *r = m->rec;
	const struct kprim *prim = NULL;

	for (int i = 0; i < r->nframes && r->frames[i].stack == r->frames[0].stack; i++) {
		const struct kfn *f;

		if (m->frames[i].skipped)
			continue;
		if (!prim) {
			prim = find_prim(r->frames[i].fn);
			if (!prim)
				return;		/* it runs, or waits on nothing we know */
			if (!strcmp(prim->class, "rcu")) {
				m->waits_for = "rcu";
				m->waits_side = 'w';
				return;
			}
			continue;
		}
		if (find_prim(r->frames[i].fn))
			continue;
		f = find_fn(r->frames[i].fn);
		if (f && f->takes && (m->waits_for = lock_of_class(f->takes, prim->class))) {
			m->waits_side = prim->side;
			return;
		}
	}
}

/*
 * names that exist only from a kernel on: a record that names no version but shows one is
 * of that kernel or later (major*100+minor)
 */
static const struct { const char *name; int since; } since[] = {
	{ "css_set_rwsem", 315 },
	{ "queued_write_lock_slowpath", 316 },
	{ "queued_read_lock_slowpath", 316 },
	{ "cgroup_threadgroup_rwsem", 404 },
	{ "cgroup_procs_write_start", 500 },
	{ "sys_clone3", 503 },
	{ "cgroup_css_set_fork", 507 },
	{ "kernel_clone", 510 },
};

/* The latest kernel that a name in @rec says it is at least, or -1. */
static int version_floor(const struct cgt_klog_record *rec, const char *waits,
			 const char **which)
{
	int floor = -1;

	for (size_t s = 0; s < sizeof(since) / sizeof(since[0]); s++) {
		bool seen = false;

		for (int i = 0; i < rec->nframes && !seen; i++)
			seen = !strcmp(rec->frames[i].fn, since[s].name);
		for (int i = 0; i < rec->nlocks && !seen; i++)
			seen = !strcmp(rec->locks[i], since[s].name);
		seen |= waits && !strcmp(waits, since[s].name);
		if (seen && since[s].since > floor) {
			floor = since[s].since;
			*which = since[s].name;
		}
	}
	return floor;
}

static void era_of(const struct cgt_klog_record *rec, const char *log_version,
		   struct cgt_kmap *m)
{
	int v = cgt_klog_version(rec->version[0] ? rec->version : log_version);
	const char *which = NULL;

	m->version = v;
	m->era = "3.15";
	m->era_why = "no kernel version in the record: the default era";
	if (v < 0 && (v = version_floor(rec, m->waits_for, &which)) > 0) {
		snprintf(m->era_floor, sizeof(m->era_floor), "no version, but %s: %d.%d or later",
			 which, v / 100, v % 100);
		m->era_why = NULL;
		for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++)
			if (v >= eras[i].from)
				m->era = eras[i].era;
		return;
	}
	for (size_t i = 0; v > 0 && i < sizeof(eras) / sizeof(eras[0]); i++) {
		if (v >= eras[i].from) {
			m->era = eras[i].era;
			m->era_why = eras[i].why;
		}
	}
}

static void add_candidate(struct cgt_kmap *m, int bug, enum cgt_detector det, int score,
			  bool off_cpu)
{
	int i = m->ncandidates;

	if (i == CGT_KMAP_CANDIDATES)
		return;
	/* in order of score, the era as it shipped last */
	while (i > 0 && m->cand[i - 1].score < score) {
		m->cand[i] = m->cand[i - 1];
		i--;
	}
	m->cand[i] = (struct cgt_kmap_candidate){ .bug = bug, .off_cpu = off_cpu, .detector = det,
						  .score = score };
	m->ncandidates++;
}

/*
 * The kind's detectors, most likely first: a lockup or stall in a walk is a livelock; one
 * whose first backtrace waits on a lock is that lock's hang or starvation, not a livelock.
 */
static void detectors_of(const struct cgt_kmap *m, enum cgt_detector dets[3])
{
	int n = 0, live = -1;

	for (int d = 0; d < 3; d++) {
		dets[d] = kind_detectors[m->rec->kind][d];
		if (dets[d] == CGT_DET_LIVELOCK)
			live = d;
	}
	if (live < 0 || m->walk || !m->waits_for)
		return;
	for (int d = 0; d < 3; d++)
		if (d != live && kind_detectors[m->rec->kind][d] != CGT_NR_DETECTORS)
			dets[n++] = kind_detectors[m->rec->kind][d];
	dets[n++] = CGT_DET_LIVELOCK;
	while (n < 3)
		dets[n++] = CGT_NR_DETECTORS;
}

static void candidates(struct cgt_kmap *m, const struct cgt_klog *log)
{
	enum cgt_detector dets[3];

	detectors_of(m, dets);
	for (size_t s = 0; s < sizeof(signatures) / sizeof(signatures[0]); s++) {
		enum cgt_bug bug;
		int score = 0;
		bool det_ok = false;

		if (cgt_bug_parse(signatures[s].bug, &bug))
			continue;
		if (m->version > 0 && (m->version < signatures[s].from ||
				       (signatures[s].until && m->version > signatures[s].until)))
			continue;
		for (int d = 0; d < 3; d++)
			det_ok |= dets[d] == cgt_bug_catalogue[bug].detector;
		if (!det_ok)
			continue;
		/*
		 * a function of the bug's counts for more than a lock it shares; a function that
		 * had the bug only in the kernels the bug is dated to counts only in a record
		 * that names its kernel (3.12's oom_kill_process walked while_each_thread itself)
		 */
		for (int k = 0; k < log->nrecords; k++)
			for (int i = 0; i < log->rec[k].nframes; i++)
				score += 4 * (listed(signatures[s].fns, log->rec[k].frames[i].fn) ||
					      (m->version > 0 &&
					       listed(signatures[s].dated, log->rec[k].frames[i].fn)));
		for (int i = 0; i < log->nsaid; i++)
			score += 4 * (listed(signatures[s].fns, log->said[i]) ||
				      (m->version > 0 && listed(signatures[s].dated, log->said[i])));
		for (int i = 0; i < m->nlocks; i++)
			score += m->locks[i].model && listed(signatures[s].locks, m->locks[i].model);
		if (m->waits_for)
			score += listed(signatures[s].locks, m->waits_for);
		if (score)
			add_candidate(m, bug, cgt_bug_catalogue[bug].detector, score, false);
	}
	/* a log that shows a task in reclaim or throttled: the same, a holder off the CPU */
	for (int d = 0; d < 3 && dets[d] != CGT_NR_DETECTORS; d++)
		if (m->off_cpu && dets[d] == CGT_DET_HANG)
			add_candidate(m, -1, CGT_DET_HANG, 4, true);
	/* the era as it shipped, its likeliest detector before bugs that share only locks */
	for (int d = 0; d < 3 && dets[d] != CGT_NR_DETECTORS; d++)
		add_candidate(m, -1, dets[d], d ? 0 : 3, false);
}

int cgt_kmap_record(const struct cgt_klog *log, int index, struct cgt_kmap *m)
{
	const struct cgt_klog_record *rec = &log->rec[index];
	int useful = 0;

	memset(m, 0, sizeof(*m));
	m->rec = rec;
	m->nframes = rec->nframes;
	for (int i = 0; i < rec->nframes; i++) {
		struct cgt_kmap_item *it = &m->frames[i];
		const struct kfn *f = find_fn(rec->frames[i].fn);
		const struct kprim *p = f ? NULL : find_prim(rec->frames[i].fn);

		it->kernel = rec->frames[i].fn;
		if (f) {
			it->model = f->model;
			m->mix[f->role] = true;
			m->nmapped++;
			useful++;
			if (f->walk && !m->walk)
				m->walk = f->walk;
		} else if (p) {
			it->model = p->class;
			it->primitive = true;
			m->nmapped++;
		} else if (is_off_cpu(rec->frames[i].fn)) {
			it->model = "off the CPU (reclaim, throttling)";
			m->nmapped++;
		} else if (is_skipped(rec->frames[i].fn)) {
			it->skipped = true;
			m->nskipped++;
		}
	}
	m->nlocks = rec->nlocks;
	for (int i = 0; i < rec->nlocks; i++) {
		m->locks[i].kernel = rec->locks[i];
		for (size_t l = 0; l < sizeof(lock_names) / sizeof(lock_names[0]); l++)
			if (!strcmp(lock_names[l].kernel, rec->locks[i]))
				m->locks[i].model = lock_names[l].model;
		useful += m->locks[i].model && strcmp(m->locks[i].model, "rcu");
	}
	waits_for(m);
	era_of(rec, log->version, m);
	for (int k = 0; k < log->nrecords; k++)
		for (int i = 0; i < log->rec[k].nframes; i++)
			m->off_cpu |= is_off_cpu(log->rec[k].frames[i].fn);
	if (!useful)
		return -1;
	candidates(m, log);
	return 0;
}
