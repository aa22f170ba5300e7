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
	/* 2.6's /proc/PID/task listing: next_thread under read_lock(&tasklist_lock) */
	{ "get_tid_list", OBSERVE, "proc_task_readdir (first_tid, next_tid)", NULL, NULL },
	{ "next_thread", OBSERVE, "next_thread", NULL, NULL },
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
	/*
	 * the OOM killer's way in: what it then does depends on the kernel; to 3.13 it walked
	 * the victim's threads itself with while_each_thread, under read_lock(&tasklist_lock)
	 * (mm/oom_kill.c), a walk the model has not
	 */
	{ "oom_kill_process", OBSERVE, "oom_badness (the OOM killer)", NULL, "oom_kill_process" },
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
	"lockdep_rcu_dereference", "lockdep_rcu_suspicious", "__asan_report_load1_noabort", "__asan_report_load4_noabort",
	"__asan_report_load8_noabort", "__asan_report_store8_noabort", "kasan_check_range",
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

/*
 * The kinds of record, and the detectors whose failures can be that kind's mechanism: a
 * hung task is a task blocked on a lock (hang), or a writer readers keep out (starvation);
 * a lockup a CPU that does not stop (a walk that cannot end, or a wait on a spinning lock);
 * an RCU stall a reader that does not leave or a grace period that does not end; KASAN a
 * memory error; KCSAN a race; lockdep an inversion; a BUG or oops a broken check or a bad
 * access.
 */
static const enum cgt_detector kind_detectors[CGT_NR_KLOG_KINDS][3] = {
	[CGT_KLOG_HUNG_TASK] = { CGT_DET_HANG, CGT_DET_STARVATION, CGT_NR_DETECTORS },
	[CGT_KLOG_SOFT_LOCKUP] = { CGT_DET_LIVELOCK, CGT_DET_STARVATION, CGT_DET_HANG },
	[CGT_KLOG_HARD_LOCKUP] = { CGT_DET_LIVELOCK, CGT_DET_STARVATION, CGT_DET_HANG },
	[CGT_KLOG_RCU_STALL] = { CGT_DET_LIVELOCK, CGT_DET_HANG, CGT_NR_DETECTORS },
	[CGT_KLOG_KASAN] = { CGT_DET_ASAN, CGT_DET_RCU_LIFETIME, CGT_NR_DETECTORS },
	[CGT_KLOG_KCSAN] = { CGT_DET_TSAN, CGT_NR_DETECTORS, CGT_NR_DETECTORS },
	[CGT_KLOG_LOCKDEP] = { CGT_DET_LOCK_ORDER, CGT_NR_DETECTORS, CGT_NR_DETECTORS },
	[CGT_KLOG_SLEEP_ATOMIC] = { CGT_DET_RCU_NESTING, CGT_NR_DETECTORS, CGT_NR_DETECTORS },
	[CGT_KLOG_BUG] = { CGT_DET_INVARIANT, CGT_DET_ASAN, CGT_DET_RCU_LIFETIME },
	[CGT_KLOG_WARNING] = { CGT_DET_INVARIANT, CGT_DET_RCU_LIFETIME, CGT_NR_DETECTORS },
	[CGT_KLOG_RCU_USAGE] = { CGT_DET_RCU_LIFETIME, CGT_DET_RCU_NESTING, CGT_NR_DETECTORS },
	[CGT_KLOG_BACKTRACE] = { CGT_DET_HANG, CGT_DET_STARVATION, CGT_DET_LIVELOCK },
};

/*
 * kernel versions -> eras (era.c says what changed). A version between two eras has none of
 * its own: it maps to the nearest, and says so.
 */
static const struct { int lo, hi; const char *era; bool exact; const char *what; } eras[] = {
	{ 0, 313, "3.14", false, "x86 rwlock_t tasklist_lock and css_set_lock" },
	{ 314, 314, "3.14", true, "x86 rwlock_t tasklist_lock and css_set_lock" },
	{ 315, 315, "3.15", true, "css_set_rwsem, rwlock_t tasklist_lock" },
	{ 316, 403, "4.4", false, "a queued rwlock tasklist_lock (3.16); css_set_rwsem until 4.2" },
	{ 404, 404, "4.4", true, "queued rwlock tasklist_lock, global threadgroup rwsem" },
	{ 405, 607, "6.x", false, "css_set_lock a spinlock, global threadgroup rwsem" },
	{ 608, 9999, "6.x", true, "css_set_lock a spinlock, global threadgroup rwsem" },
};

/*
 * each catalogued bug: the functions its kernel reports show, those that show it only in
 * the kernels that had it (counted when the record names its kernel), the locks, and those
 * kernels (major*100+minor; a record of a kernel outside is never that bug)
 */
static const struct { const char *bug, *fns, *dated, *locks; int from, until; } signatures[] = {
	/* find_lock_task_mm's walk, under the scan: a stall in the scan's own loop is not it */
	{ "walk-from-exiting", "oom_badness,find_lock_task_mm,oom_evaluate_task",
	  "oom_kill_process,out_of_memory,__unhash_process", "", 0, 313 },
	/* the OOM scan's do_each_thread under RCU alone, 6b0c81b3be11 (3.6) to 3.13 */
	{ "walk-leader-exec", "select_bad_process", "", "", 306, 313 },
	{ "no-pid-alive", "next_tid,first_tid,proc_task_readdir,next_thread", "", "", 0, 0 },
	{ "attach-no-threadgroup-lock", "cgroup_attach_task,attach_task_by_pid,"
	  "cgroup_procs_write,__cgroup_procs_write,cgroup_post_fork", "", "", 0, 0 },
	/* css_set_rwsem: 96d365e0b86e (3.15) to f0d9a5f17575 (4.2) */
	{ "rwsem-inside-rcu", "task_cgroup_path,proc_cgroup_show,cgroup_attach_task", "",
	  "css_set_lock,rcu", 315, 401 },
	/* x86 rwlock_t until the queued rwlock (70af2f8a4f48, 3.16) */
	{ "reader-pref-rwlock", "copy_process,do_exit,exit_notify,release_task,de_thread,"
	  "kill_pgrp,kill_something_info,do_wait,wait_task_zombie", "", "tasklist_lock", 0, 315 },
	{ "cset-walk-unlocked", "css_task_iter_next,css_task_iter_advance,css_task_iter_start,"
	  "cgroup_task_count,pidlist_array_load", "", "", 0, 0 },
	{ "css-task-iter-block", "css_task_iter_start,css_task_iter_next,pidlist_array_load", "",
	  "css_set_lock,cgroup_mutex", 315, 401 },
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

const char *cgt_kmap_side_name(char side)
{
	return side == 'r' ? "read" : "write";
}

const char *cgt_kmap_model_of(const char *fn)
{
	const struct kfn *f = find_fn(fn);

	return f ? f->model : NULL;
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
 * names that exist only in some kernels (major*100+minor, 0: no bound): a record that names
 * no version but shows one is of those kernels
 */
static const struct { const char *name; int since, until; } dated_names[] = {
	{ "__write_lock_failed", 0, 315 },	/* x86 rwlock_t, before qrwlock (3.16) */
	{ "__read_lock_failed", 0, 315 },
	{ "css_set_rwsem", 315, 401 },		/* 96d365e0b86e .. f0d9a5f17575 */
	{ "queued_write_lock_slowpath", 316, 0 },
	{ "queued_read_lock_slowpath", 316, 0 },
	{ "do_fork", 0, 401 },			/* _do_fork from 4.2 */
	/* the x86 entry code's names before 4.2's renames (entry_SYSENTER_32, entry_SYSCALL_64) */
	{ "sysenter_past_esp", 0, 401 },
	{ "system_call_fastpath", 0, 401 },
	{ "_do_fork", 402, 509 },		/* kernel_clone from 5.10 */
	{ "cgroup_threadgroup_rwsem", 404, 0 },
	{ "flush_old_exec", 0, 506 },		/* begin_new_exec from 5.7 */
	{ "cgroup_procs_write_start", 500, 0 },
	{ "sys_clone3", 503, 0 },
	{ "begin_new_exec", 507, 0 },
	{ "cgroup_css_set_fork", 507, 0 },
	{ "kernel_clone", 510, 0 },
};

/*
 * The kernels names in @rec (its frames, locks, the lock it waits for) say it is of: @m's
 * floor and ceiling, and the names that set them.
 */
static void version_bounds(const struct cgt_klog_record *rec, const char *waits,
			   struct cgt_kmap *m, const char **since, const char **until)
{
	m->floor = m->ceiling = -1;
	for (size_t s = 0; s < sizeof(dated_names) / sizeof(dated_names[0]); s++) {
		bool seen = waits && !strcmp(waits, dated_names[s].name);

		for (int i = 0; i < rec->nframes && !seen; i++)
			seen = !strcmp(rec->frames[i].fn, dated_names[s].name);
		for (int i = 0; i < rec->nlocks && !seen; i++)
			seen = !strcmp(rec->locks[i], dated_names[s].name);
		if (!seen)
			continue;
		if (dated_names[s].since > m->floor) {
			m->floor = dated_names[s].since;
			*since = dated_names[s].name;
		}
		if (dated_names[s].until && (m->ceiling < 0 || dated_names[s].until < m->ceiling)) {
			m->ceiling = dated_names[s].until;
			*until = dated_names[s].name;
		}
	}
}

static int era_row(int v)
{
	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++)
		if (v >= eras[i].lo && v <= eras[i].hi)
			return (int)i;
	return 0;
}

/*
 * An era that is exactly a kernel of [@lo, @hi]: the earliest when the names gave a floor
 * (the oldest kernel they allow), else the latest; with none, the nearest.
 */
static int era_between(int lo, int hi)
{
	int row = -1;

	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++)
		if (eras[i].exact && eras[i].lo >= lo && eras[i].lo <= hi && (row < 0 || !lo))
			row = (int)i;
	return row >= 0 ? row : era_row(hi < lo ? lo : lo ? lo : hi);
}

/*
 * The record's era: its version's (the nearest era when it has none of its own), else the
 * one names in it bound it to, else a guess that the verdict owns up to: the latest era, as
 * most reports come from recent kernels.
 */
static void era_of(const struct cgt_klog_record *rec, const char *log_version,
		   struct cgt_kmap *m)
{
	const char *since = NULL, *until = NULL;
	int v = cgt_klog_version(rec->version[0] ? rec->version : log_version), row;
	size_t o;

	m->version = v;
	version_bounds(rec, m->waits_for, m, &since, &until);
	if (v > 0) {
		row = era_row(v);
		m->era_from = CGT_ERA_NAMED;
		m->era = eras[row].era;
		if (eras[row].exact)
			snprintf(m->era_why, sizeof(m->era_why), "%s", eras[row].what);
		else
			snprintf(m->era_why, sizeof(m->era_why), "%d.%d has no era of its own; the "
				 "nearest: %s", v / 100, v % 100, eras[row].what);
		return;
	}
	if (m->floor > 0 || m->ceiling > 0) {
		int lo = m->floor > 0 ? m->floor : 0, hi = m->ceiling > 0 ? m->ceiling : 9999;

		row = era_between(lo, hi);
		m->era_from = CGT_ERA_FROM_NAMES;
		m->era = eras[row].era;
		o = (size_t)snprintf(m->era_why, sizeof(m->era_why), "no version, but");
		if (since)
			o += (size_t)snprintf(m->era_why + o, sizeof(m->era_why) - o,
					      " %s: %d.%d or later", since, lo / 100, lo % 100);
		if (until && o < sizeof(m->era_why))
			snprintf(m->era_why + o, sizeof(m->era_why) - o, "%s %s: %d.%d or earlier",
				 since ? ";" : "", until, hi / 100, hi % 100);
		return;
	}
	m->era_from = CGT_ERA_GUESSED;
	m->era = eras[sizeof(eras) / sizeof(eras[0]) - 1].era;
	snprintf(m->era_why, sizeof(m->era_why), "no version and no name that dates it: a guess, "
		 "the latest era");
}

/* The kernels the record may be of: its version, or the names' bounds. */
static void kernel_range(const struct cgt_kmap *m, int *lo, int *hi)
{
	*lo = m->version > 0 ? m->version : m->floor > 0 ? m->floor : 0;
	*hi = m->version > 0 ? m->version : m->ceiling > 0 ? m->ceiling : 9999;
}

/* The latest era whose kernels meet [@from, @until] (0: unbounded), or NULL. */
static const char *era_within(int from, int until)
{
	const char *era = NULL;

	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++)
		if (eras[i].exact && eras[i].lo >= from && (!until || eras[i].lo <= until))
			era = eras[i].era;
	return era;
}

static void add_candidate(struct cgt_kmap *m, int bug, const char *era, enum cgt_detector det,
			  int score, bool off_cpu)
{
	int i = m->ncandidates;

	if (i == CGT_KMAP_CANDIDATES)
		return;
	/* in order of score, the era as it shipped last */
	while (i > 0 && m->cand[i - 1].score < score) {
		m->cand[i] = m->cand[i - 1];
		i--;
	}
	m->cand[i] = (struct cgt_kmap_candidate){ .bug = bug, .era = era, .off_cpu = off_cpu,
						  .detector = det, .score = score };
	m->ncandidates++;
}

static bool is_spinning(const char *lock, const char *era)
{
	/* the css_set lock sleeps as css_set_rwsem (3.15); every other modelled one's class is
	 * its own */
	if (!lock)
		return false;
	if (!strcmp(lock, "css_set_lock"))
		return strcmp(era, "3.15") != 0;
	return !strcmp(lock, "tasklist_lock") || !strcmp(lock, "siglock");
}

/* @fn once in the mechanism's functions */
static void want_fn(struct cgt_kmap_mechanism *w, const char *fn)
{
	for (int i = 0; i < w->nfns; i++)
		if (!strcmp(w->fns[i], fn))
			return;
	if (w->nfns < CGT_KMAP_WANTS)
		w->fns[w->nfns++] = fn;
}

static void lacks(struct cgt_kmap_mechanism *w, const char *what)
{
	size_t o = strlen(w->lacks);

	if (strstr(w->lacks, what))
		return;
	snprintf(w->lacks + o, sizeof(w->lacks) - o, "%s%s", o ? ", " : "", what);
}

/*
 * What a failure must show to be the record's: the lock its first stack waits for and the
 * side, the walk, the model functions of its stacks (the first stack's first), a lockdep
 * cycle's locks; and what the record shows that the model has not: locks, and the first
 * stack's own functions before the first the model runs.
 */
static void mechanism(struct cgt_kmap *m, const struct cgt_klog *log)
{
	struct cgt_kmap_mechanism *w = &m->want;
	const struct cgt_klog_record *r = m->rec;
	int unmodelled = 0;

	memset(w, 0, sizeof(*w));
	if (m->waits_for) {
		w->lock = m->waits_for;
		w->side = m->waits_side;
		w->spinning = is_spinning(m->waits_for, m->era);
	}
	w->walk = m->walk;
	/* a walk the log's own messages name (the OOM killer's), when no stack is in one */
	for (int i = 0; i < log->nsaid && !w->walk; i++)
		w->walk = find_fn(log->said[i]) ? find_fn(log->said[i])->walk : NULL;
	for (int i = 0; i < m->nframes; i++)
		if (m->frames[i].model && !m->frames[i].primitive &&
		    strncmp(m->frames[i].model, "off the CPU", 11))
			want_fn(w, m->frames[i].kernel);
	for (int i = 0; i < log->nsaid; i++)
		want_fn(w, log->said[i]);
	for (int i = 0; i < m->nlocks; i++) {
		if (!m->locks[i].model)
			lacks(w, m->locks[i].kernel);
		else if (r->kind == CGT_KLOG_LOCKDEP && strcmp(m->locks[i].model, "rcu") &&
			 w->ncycle < CGT_KMAP_WANTS)
			w->cycle[w->ncycle++] = m->locks[i].model;
	}
	/* the first stack's own work before the model's part: what it is doing that we are not */
	for (int i = 0; i < m->nframes && r->frames[i].stack == r->frames[0].stack; i++) {
		if (m->frames[i].model && !m->frames[i].primitive)
			break;
		if (!m->frames[i].model && !m->frames[i].skipped && unmodelled++ < 3)
			lacks(w, m->frames[i].kernel);
	}
	w->same_check = r->kind == CGT_KLOG_BUG && (strstr(r->title, "kernel BUG") ||
						    strstr(r->title, "BUG_ON"));
	w->same_check |= r->kind == CGT_KLOG_WARNING;
}

/* Can @det show the record's mechanism, given what the record says it is? */
static bool detector_fits(const struct cgt_kmap *m, enum cgt_detector det)
{
	const struct cgt_kmap_mechanism *w = &m->want;
	bool lockup = m->rec->kind == CGT_KLOG_SOFT_LOCKUP || m->rec->kind == CGT_KLOG_HARD_LOCKUP;

	switch (det) {
	case CGT_DET_HANG:
	case CGT_DET_STARVATION:
		/* a lock's waiter: the record must say which lock; on a lockup, a spinning one */
		if (!w->lock || (lockup && !w->spinning))
			return false;
		return det == CGT_DET_HANG || strcmp(w->lock, "rcu");
	case CGT_DET_LIVELOCK:
		return w->walk != NULL;
	case CGT_DET_LOCK_ORDER:
		/* the same cycle, and only one the model has every lock of */
		for (int i = 0; i < m->nlocks; i++)
			if (!m->locks[i].model)
				return false;
		return w->ncycle >= 2;
	default:
		return w->nfns > 0;
	}
}

/*
 * How much @fn says a record is a bug's: 4 for one of its own functions, 3 for one that had
 * the bug only in the kernels it is dated to (counted when the record names its kernel):
 * either puts the bug before the era as it shipped, and its own function before the other.
 */
static int own_function(const char *fns, const char *dated, const char *fn, bool dated_ok)
{
	return listed(fns, fn) ? 4 : dated_ok && listed(dated, fn) ? 3 : 0;
}

/*
 * The searches: each catalogued bug whose own functions the record's stacks show and whose
 * kernels include the record's, for a detector the record's kind allows; a holder off the
 * CPU when a backtrace is in reclaim; then the era as it shipped, for each detector that fits.
 */
static void candidates(struct cgt_kmap *m, const struct cgt_klog *log)
{
	const enum cgt_detector *dets = kind_detectors[m->rec->kind];
	int lo, hi;

	kernel_range(m, &lo, &hi);
	for (size_t s = 0; s < sizeof(signatures) / sizeof(signatures[0]); s++) {
		const char *era = m->era;
		enum cgt_bug bug;
		int score = 0, own = 0;
		bool det_ok = false;

		if (cgt_bug_parse(signatures[s].bug, &bug))
			continue;
		if (hi < signatures[s].from || (signatures[s].until && lo > signatures[s].until))
			continue;
		if (m->era_from == CGT_ERA_GUESSED)
			era = era_within(signatures[s].from, signatures[s].until);
		for (int d = 0; d < 3; d++)
			det_ok |= dets[d] == cgt_bug_catalogue[bug].detector;
		if (!era || !det_ok || !detector_fits(m, cgt_bug_catalogue[bug].detector))
			continue;
		/*
		 * its own functions on the stacks (one that had the bug only in the kernels the
		 * bug is dated to counts only in a record that names its kernel: 3.12's
		 * oom_kill_process walked while_each_thread itself); a lock it shares adds to them
		 */
		for (int k = 0; k < log->nrecords; k++)
			for (int i = 0; i < log->rec[k].nframes; i++)
				own += own_function(signatures[s].fns, signatures[s].dated,
						    log->rec[k].frames[i].fn, m->version > 0);
		for (int i = 0; i < log->nsaid; i++)
			own += own_function(signatures[s].fns, signatures[s].dated, log->said[i],
					    m->version > 0);
		if (!own)
			continue;
		score = own;
		for (int i = 0; i < m->nlocks; i++)
			score += m->locks[i].model && listed(signatures[s].locks, m->locks[i].model);
		if (m->waits_for)
			score += listed(signatures[s].locks, m->waits_for);
		add_candidate(m, bug, era, cgt_bug_catalogue[bug].detector, score, false);
	}
	/* a log that shows a task in reclaim or throttled: the same, a holder off the CPU */
	for (int d = 0; d < 3 && dets[d] != CGT_NR_DETECTORS; d++)
		if (m->off_cpu && dets[d] == CGT_DET_HANG && detector_fits(m, CGT_DET_HANG))
			add_candidate(m, -1, m->era, CGT_DET_HANG, 4, true);
	/* the era as it shipped, its likeliest detector first */
	for (int d = 0; d < 3 && dets[d] != CGT_NR_DETECTORS; d++)
		if (detector_fits(m, dets[d]))
			add_candidate(m, -1, m->era, dets[d], d ? 0 : 3, false);
}

/*
 * A record of a check that fired (BUG, WARNING, KASAN, KCSAN, a suspicious RCU use, a sleep
 * in atomic context) in a function the model has not is not the model's to show, whatever
 * its callers are: its mechanism is that function's. Say so in @m's lacks.
 */
static bool fired_unmodelled(struct cgt_kmap *m)
{
	const struct cgt_klog_record *r = m->rec;
	char what[CGT_KLOG_NAME + 40];
	int counts[CGT_KLOG_FRAMES] = { 0 }, stack = 0;

	if (r->kind != CGT_KLOG_BUG && r->kind != CGT_KLOG_WARNING && r->kind != CGT_KLOG_KASAN &&
	    r->kind != CGT_KLOG_KCSAN && r->kind != CGT_KLOG_RCU_USAGE &&
	    r->kind != CGT_KLOG_SLEEP_ATOMIC)
		return false;
	/* the check's stack is the longest: the others are lockdep's held locks, say */
	for (int i = 0; i < m->nframes; i++)
		if (r->frames[i].stack < CGT_KLOG_FRAMES &&
		    ++counts[r->frames[i].stack] > counts[stack])
			stack = r->frames[i].stack;
	for (int i = 0; i < m->nframes; i++) {
		if (r->frames[i].stack != stack || m->frames[i].skipped || m->frames[i].primitive)
			continue;
		if (m->frames[i].model)
			return false;
		snprintf(what, sizeof(what), "%s, where the record's check fired", r->frames[i].fn);
		m->want.lacks[0] = '\0';
		lacks(&m->want, what);
		m->ncandidates = 0;
		return true;
	}
	return false;
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
	mechanism(m, log);
	candidates(m, log);
	if (fired_unmodelled(m))
		return -2;
	if (!m->ncandidates && !m->want.lacks[0])
		snprintf(m->want.lacks, sizeof(m->want.lacks), "%s",
			 m->want.lock || m->want.walk ? "a failure of that kind there" :
			 "what its task waits for or walks in");
	return m->ncandidates ? 0 : -2;
}
