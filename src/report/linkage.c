// SPDX-License-Identifier: GPL-2.0
/*
 * The linkage near a failure, drawn as the article in shared/seeds draws it by hand, from
 * the model as the capture copied it when the detector fired: each thread group with its
 * headless thread_group ring (red) and its signal->thread_head list (blue), the pid hash
 * entries and the tasks on their PIDTYPE_PID lists, each css_set with its tasks and one
 * cgrp_cset_link per hierarchy to its cgroup, the walk's start thread and the path
 * next_thread() takes from it (orange), and the harness threads involved with the locks
 * they hold (green) and wait for (red, dashed).
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linkage.h"
#include "../base/files.h"

extern char **environ;

static const char *task_state(const struct cgt_snap_task *t)
{
	if (!t->hashed)
		return "unhashed";
	if (t->exit_state == EXIT_DEAD)
		return "dead";
	if (t->exit_state == EXIT_ZOMBIE)
		return "zombie";
	return t->exiting ? "exiting" : "running";
}

static void task_node(FILE *m, const struct cgt_snap_task *t, bool start)
{
	fprintf(m, "  t%d [label=\"task tid %d\\n%s%s\", shape=box, style=\"rounded%s\", "
		"color=\"%s\", penwidth=%d];\n", t->tid, t->tid, t->leader ? "group_leader, " : "",
		task_state(t), t->hashed ? "" : ",dashed", start ? "#e07000" : "black",
		start ? 3 : 1);
}

static void groups(FILE *m, const struct cgt_linkage *l)
{
	for (int g = 0; g < l->ngroups; g++) {
		const struct cgt_snap_group *sg = &l->groups[g];

		fprintf(m, " subgraph cluster_g%d {\n  label=\"thread group %d: nr_threads %d, "
			"live %d%s\"; color=\"#888888\"; fontsize=11;\n", g, sg->tgid,
			sg->nr_threads, sg->live, sg->group_exit ? ", group exit under way" : "");
		fprintf(m, "  sig%d [label=\"signal_struct\\nthread_head\", shape=cylinder, "
			"color=\"#2060c0\"];\n", sg->tgid);
		for (int i = 0; i < sg->nring; i++)
			task_node(m, &sg->ring[i], l->walk.valid && sg->ring[i].tid == l->walk.start.tid);
		fputs(" }\n", m);
		for (int i = 0; i + 1 < sg->nring; i++)
			fprintf(m, " t%d -> t%d [color=\"#d02020\", label=\"thread_group\", "
				"fontcolor=\"#d02020\", fontsize=9];\n", sg->ring[i].tid,
				sg->ring[i + 1].tid);
		if (sg->ring_closed && sg->nring > 1)
			fprintf(m, " t%d -> t%d [color=\"#d02020\", fontsize=9];\n",
				sg->ring[sg->nring - 1].tid, sg->ring[0].tid);
		for (int i = 0; i < sg->nhead; i++)
			fprintf(m, " %s%d -> t%d [color=\"#2060c0\", style=dashed%s];\n",
				i ? "t" : "sig", i ? sg->head[i - 1] : sg->tgid, sg->head[i],
				i ? "" : ", label=\"thread_node\", fontcolor=\"#2060c0\", fontsize=9");
		if (sg->nhead)
			fprintf(m, " t%d -> sig%d [color=\"#2060c0\", style=dashed];\n",
				sg->head[sg->nhead - 1], sg->tgid);
	}
}

static bool drawn(const struct cgt_linkage *l, int tid)
{
	for (int g = 0; g < l->ngroups; g++)
		for (int i = 0; i < l->groups[g].nring; i++)
			if (l->groups[g].ring[i].tid == tid)
				return true;
	return false;
}

static void walk(FILE *m, const struct cgt_capture *c, const struct cgt_linkage *l)
{
	const struct cgt_snap_walk *w = &l->walk;
	int walker = c->ninvolved ? c->threads[c->involved[0]].id : 0;

	if (!w->valid)
		return;
	if (!drawn(l, w->start.tid))
		task_node(m, &w->start, true);
	for (int i = 1; i < w->npath; i++)
		if (!drawn(l, w->path[i].tid))
			task_node(m, &w->path[i], false);
	fprintf(m, " h%d -> t%d [label=\"%s walk starts here\", color=\"#e07000\", "
		"fontcolor=\"#e07000\", penwidth=2, fontsize=10];\n", walker, w->start.tid, w->iter);
	for (int i = 0; i + 1 < w->npath; i++)
		fprintf(m, " t%d -> t%d [label=\"step %d\", color=\"#e07000\", fontcolor=\"#e07000\", "
			"style=bold, fontsize=9, constraint=false];\n", w->path[i].tid, w->path[i + 1].tid,
			i + 1);
	if (w->npath && w->loops_to)
		fprintf(m, " t%d -> t%d [label=\"%s\", color=\"#e07000\", fontcolor=\"#e07000\", "
			"style=bold, fontsize=9, constraint=false];\n", w->path[w->npath - 1].tid,
			w->loops_to, w->start_on_ring ? "back to the start" :
			"round again: the start is not on the ring");
}

static void pids(FILE *m, const struct cgt_linkage *l)
{
	fputs(" subgraph cluster_pids {\n  label=\"pid hash\"; color=\"#2060c0\"; fontsize=11;\n", m);
	for (int i = 0; i < l->npids; i++)
		fprintf(m, "  p%d [label=\"struct pid %d%s\", shape=ellipse, color=\"#2060c0\"];\n",
			l->pids[i].nr, l->pids[i].nr, l->pids[i].found ? "" : "\\n(not in the hash)");
	fputs(" }\n", m);
	for (int i = 0; i < l->npids; i++)
		for (int k = 0; k < l->pids[i].ntasks; k++)
			fprintf(m, " p%d -> t%d [label=\"PIDTYPE_PID\", color=\"#2060c0\", "
				"fontcolor=\"#2060c0\", fontsize=8];\n", l->pids[i].nr,
				l->pids[i].tasks[k]);
}

static void csets(FILE *m, const struct cgt_linkage *l)
{
	char seen[CGT_NR_HIERARCHIES * CGT_SNAP_CSETS][24];
	int nseen = 0;

	for (int i = 0; i < l->ncsets; i++) {
		const struct cgt_snap_cset *cs = &l->csets[i];

		fprintf(m, " cs%d [label=\"css_set #%d\\nrefcount %d\\ntasks: %d%s%s\", shape=box3d, "
			"color=\"#208040\"];\n", i, i, cs->refcount, cs->ntasks, cs->more ? "+" : "",
			cs->from_list ? "" : " drawn");
		for (int k = 0; k < cs->ntasks; k++)
			fprintf(m, " t%d -> cs%d [color=\"#208040\", style=dotted, arrowhead=none%s];\n",
				cs->tasks[k], i, k ? "" : ", label=\"cg_list\", fontsize=8, "
				"fontcolor=\"#208040\"");
		for (int h = 0; h < CGT_NR_HIERARCHIES; h++) {
			bool have = false;

			for (int s = 0; s < nseen; s++)
				have |= !strcmp(seen[s], cs->cgroups[h]);
			if (!have && nseen < (int)(sizeof(seen) / sizeof(seen[0]))) {
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", cs->cgroups[h]);
				fprintf(m, " \"cg:%s\" [label=\"cgroup %s\", shape=folder, "
					"color=\"#208040\"];\n", cs->cgroups[h], cs->cgroups[h]);
			}
			fprintf(m, " lk%d_%d [label=\"cgrp_cset_link\", shape=box, fontsize=8, "
				"height=0.2, color=\"#208040\"];\n cs%d -> lk%d_%d [color=\"#208040\", "
				"arrowhead=none];\n lk%d_%d -> \"cg:%s\" [color=\"#208040\"];\n", i, h, i,
				i, h, i, h, cs->cgroups[h]);
		}
	}
}

static void locks(FILE *m, const struct cgt_capture *c)
{
	const char *names[16];
	int nnames = 0;

	for (int k = 0; k < c->ninvolved; k++) {
		const struct cgt_thread *t = &c->threads[c->involved[k]];
		const char *what[CGT_MAX_HELD + 1];
		int nwhat = 0;

		fprintf(m, " h%d [label=\"thread %d\\n%s%s%s\", shape=oval, style=filled, "
			"fillcolor=\"#f4f0e0\"];\n", t->id, t->id, cgt_role_name(t->role),
			t->rcu_depth ? "\\nin rcu_read_lock" : "", t->walk_active ? "\\nwalking" : "");
		if (t->pid > 0 && t->role == CGT_ROLE_ACTOR)
			fprintf(m, " h%d -> t%d [style=dotted, arrowhead=none, label=\"runs\", "
				"fontsize=8];\n", t->id, t->pid);
		for (int i = 0; i < t->nheld && i < CGT_MAX_HELD; i++)
			what[nwhat++] = t->held[i].name;
		if (t->wait_obj)
			what[nwhat++] = t->wait_name;
		for (int i = 0; i < nwhat; i++) {
			bool have = false;

			for (int s = 0; s < nnames; s++)
				have |= !strcmp(names[s], what[i]);
			if (!have && nnames < 16) {
				names[nnames++] = what[i];
				fprintf(m, " \"lock:%s\" [label=\"%s\", shape=octagon, color=\"#806000\"];\n",
					what[i], what[i]);
			}
		}
		for (int i = 0; i < t->nheld && i < CGT_MAX_HELD; i++)
			fprintf(m, " \"lock:%s\" -> h%d [label=\"held (%s)\", color=\"#208020\", "
				"fontcolor=\"#208020\", fontsize=9, penwidth=2];\n", t->held[i].name, t->id,
				t->held[i].write ? "write" : "read");
		if (t->wait_obj)
			fprintf(m, " h%d -> \"lock:%s\" [label=\"waits (%s)\", color=\"#d02020\", "
				"fontcolor=\"#d02020\", fontsize=9, style=dashed, penwidth=2];\n", t->id,
				t->wait_name, cgt_wait_name(t->wait_kind));
	}
}

char *cgt_linkage_dot(const struct cgt_capture *c)
{
	const struct cgt_linkage *l = &c->linkage;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fprintf(m, "digraph linkage {\n graph [rankdir=LR, fontname=\"DejaVu Sans\", fontsize=12, "
		"label=\"The linkage when %s fired (%s %.*f%s): %s\", labelloc=t];\n"
		" node [fontname=\"DejaVu Sans\", fontsize=10];\n edge [fontname=\"DejaVu Sans\"];\n",
		cgt_detector_names[c->failure.detector], c->controlled ? "decision" : "at",
		c->controlled ? 0 : 3,	/* a decision is a whole number */
		c->controlled ? (double)c->at : (double)c->at / 1e9, c->controlled ? "" : " s",
		!l->taken ? "the model was not read (a crash)" : l->still ?
		"the model held still" : "read under RCU while the run went on");
	if (l->taken) {
		groups(m, l);
		walk(m, c, l);
		pids(m, l);
		csets(m, l);
	}
	locks(m, c);
	fputs("}\n", m);
	fclose(m);
	return buf;
}

int cgt_linkage_svg(const char *dir, char *why, size_t len)
{
	char *dot = cgt_path_join(dir, "linkage.dot"), *tmp = cgt_path_join(dir, ".linkage.svg.tmp");
	char *svg = cgt_path_join(dir, "linkage.svg");
	char *argv[] = { "dot", "-Tsvg", "-o", tmp, dot, NULL };
	int ret = -1, status = 0;
	pid_t pid;

	if (!dot || !tmp || !svg) {
		snprintf(why, len, "no memory");
		goto out;
	}
	if (posix_spawnp(&pid, "dot", NULL, NULL, argv, environ)) {
		snprintf(why, len, "Graphviz's dot is not installed");
		goto out;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, len, WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
			 "Graphviz's dot is not installed" : "dot failed");
		unlink(tmp);
		goto out;
	}
	ret = rename(tmp, svg) ? -1 : 0;
	if (ret)
		snprintf(why, len, "cannot rename: %s", strerror(errno));
out:
	free(dot);
	free(tmp);
	free(svg);
	return ret;
}
