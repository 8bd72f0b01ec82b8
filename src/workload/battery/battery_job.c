/* battery_job.c - a whole battery: the scratch directory (marked for --cleanup), the
 * first file system of the matrix, the probe, the plan and its record in the run; then
 * each repeat over the configurations (a fresh file system each), and the undoing of
 * everything at the end. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/clock.h"
#include "core/err.h"
#include "fs/fsmake.h"
#include "fs/scratch.h"
#include "runner/phase_sample.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/battery/battery_int.h"

static void conf_of(const struct battery_job *j, unsigned i, struct battery_conf *c)
{
	const struct battery_fs_entry *e = &j->o->fs[i];

	c->label = e->label;
	c->fs = e->type;
	c->mkfs_opts = e->mkfs_opts;
	c->mount_opts = e->mount_opts;
}

/* A configuration whose file system could not be made: one failed row with the reason. */
static void failed_conf(struct battery_job *j, struct runner *rc, unsigned i, const char *msg)
{
	struct battery_conf c;
	struct row *w = run_add_row(rc->run, "battery", "mkfs");

	if (!w)
		return;
	conf_of(j, i, &c);
	w->repeat = rc->repeat;
	w->flags |= ROW_FAILED;
	w->error = str_printf("%s", msg);
	kv_set(&w->params, RK_ROW_DETAIL, "%s", c.label);
	battery_conf_params(w, &c);
	/* a failure is said with --quiet too (it is not progress): "see above" needs it */
	err_msg("battery: %s skipped: %s", c.label, msg);
}

/* Make configuration i and a scratch directory inside it. 0 or -errno (said). */
static int conf_up(struct battery_job *j, struct runner *rc, unsigned i)
{
	char msg[4400];
	uint64_t t0 = clock_ns();
	int r;

	if (j->broken & (1u << i))
		return -EIO;	/* its failure is recorded once */
	r = battery_fs_make(&j->o->fs[i], i, scratch_dir(j->sc), j->o->fs_size, j->o->device,
			    &j->fs, msg, sizeof(msg));
	if (r < 0) {
		failed_conf(j, rc, i, msg);
		j->broken |= 1u << i;	/* mkfs or mount will fail again: not retried */
		return r;
	}
	r = scratch_create(j->fs.mnt, &j->inner);
	if (r < 0) {
		snprintf(msg, sizeof(msg), "cannot make a scratch directory in '%s': %s",
			 j->fs.mnt, strerror(-r));
		failed_conf(j, rc, i, msg);
		battery_fs_undo(&j->fs);
		return r;
	}
	j->fs_up = i + 1;
	j->make_ns = clock_ns() - t0;
	return 0;
}

static int conf_down(struct battery_job *j)
{
	int r = scratch_destroy(j->inner), r2;

	j->inner = NULL;
	if (!j->fs_up)
		return r;
	r2 = battery_fs_undo(&j->fs);
	j->fs_up = 0;
	return r ? r : r2;
}

void battery_job_note(struct run *run, const char *key, const char *line)
{
	const char *old = kv_get(&run->options, key);
	char *both = old ? str_printf("%s; %s", old, line) : NULL;

	if (old && !both)
		return;
	kv_set(&run->options, key, "%s", both ? both : line);
	free(both);
}

/* The plan into the run's options, a line per step, and the probe's figures. */
void battery_job_record(struct run *run, const struct battery_job *j)
{
	const struct battery_probe *p = &j->probe;
	struct kvlist *o = &run->options;
	unsigned i;

	kv_set(o, RK_BAT_PROBE_WRITE, "%.0f", p->w_bps);
	kv_set(o, RK_BAT_PROBE_READ, "%.0f", p->r_bps);
	kv_set(o, RK_BAT_PROBE_READ_LAT, "%.1f", p->r_lat_s * 1e6);
	kv_set(o, RK_BAT_PROBE_WRITE_LAT, "%.1f", p->w_lat_s * 1e6);
	kv_set(o, RK_BAT_PROBE_S, "%.2f", (double)p->probe_ns / 1e9);
	kv_set(o, RK_BAT_PASS_BUDGET, "%.1f", (double)j->plan.pass_budget_ns / 1e9);
	kv_set(o, RK_BAT_EXPECTED, "%.1f", (double)j->plan.total_ns / 1e9);
	kv_set(o, RK_BAT_SIZING, "%s", j->plan.hand_sized ? "hand" : "planned");
	if (j->o->budget_ns)
		kv_set(o, RK_BAT_BUDGET, "%.1f", (double)j->o->budget_ns / 1e9);
	if (j->env.memory_fs) {
		char m[400];

		kv_set(o, RK_BAT_MEMORY, "%s", battery_memory_note(m, sizeof(m), &j->env));
	}
	if (j->plan.s[BSTEP_JOB].run) {
		char text[2048];

		kv_set(o, RK_BAT_JOB_ENGINE, "%s", j->plan.job_engine);
		if (j->env.job_engine_why[0])
			kv_set(o, RK_BAT_JOB_ENGINE_WHY, "%s", j->env.job_engine_why);
		if (battery_job_text(&j->plan, text, sizeof(text)) < (int)sizeof(text))
			kv_set(o, RK_BAT_JOB_FILE, "%s", text);
	}
	for (i = 0; i < BSTEP_N; i++) {
		char key[32];

		snprintf(key, sizeof(key), "step%u", i + 1);
		if (j->plan.s[i].run)
			kv_set(o, key, "%s: expected %.1f s: %s",
			       battery_step_name((enum battery_step)i),
			       (double)j->plan.s[i].expect_ns / 1e9, j->plan.s[i].why);
		else
			kv_set(o, key, "%s: %s", battery_step_name((enum battery_step)i),
			       j->plan.s[i].why);
	}
}

int battery_job_start(struct battery_job *j, const struct battery_opts *o, struct runner *rc)
{
	struct battery_want w;
	const char *where;
	unsigned i, passes;
	int r;

	memset(j, 0, sizeof(*j));
	j->o = o;
	j->t0 = clock_ns();
	r = scratch_create(o->dir, &j->sc);
	if (r < 0) {
		err_errno(r, "battery: cannot make a scratch directory in: '%s'", o->dir);
		return r;
	}
	r = fsmake_mark_dir(scratch_dir(j->sc));
	if (r < 0) {
		err_errno(r, "battery: cannot mark the scratch directory: '%s'",
			  scratch_dir(j->sc));
		return r;
	}
	where = scratch_dir(j->sc);
	/* the matrix: the probe runs on the first file system that can be made */
	for (i = 0; o->nfs && !o->dry_run && i < o->nfs && !sig_stop_requested(); i++) {
		if (conf_up(j, rc, i) == 0) {
			where = scratch_dir(j->inner);
			break;
		}
	}
	if (sig_stop_requested())
		return -EINTR;
	if (o->nfs && !o->dry_run && !j->fs_up) {
		err_msg("battery: no file system of --fs could be made: see above");
		return -EIO;
	}
	snprintf(j->probe_dir, sizeof(j->probe_dir), "%s",
		 j->fs_up ? j->fs.mnt : o->dir);
	r = battery_ranks_probe(rc, where, j, o->size == 0);	/* several ranks: rank 0's */
	if (r < 0) {
		if (r != -EINTR && comm_rank() == 0)
			err_errno(r, "battery: the probe failed in: '%s'", where);
		return r;
	}
	if (o->job_engine) {
		snprintf(j->env.job_engine, sizeof(j->env.job_engine), "%s", o->job_engine);
		snprintf(j->env.job_engine_why, sizeof(j->env.job_engine_why), "--job-engine");
	}
	if (o->nfs && o->dry_run && o->fs_size && j->env.free_bytes > o->fs_size)
		j->env.free_bytes = o->fs_size;
	if (j->fs_up && !j->fs.dio) {
		/* the image's own file system caches what the loop device reads: neither a
		 * drop nor O_DIRECT above it keeps that cache out */
		j->env.has_direct = j->env.can_drop = 0;
		snprintf(j->probe.note, sizeof(j->probe.note), "the loop device could not use "
			 "direct I/O on its image: reads need twice the RAM");
	}
	memset(&w, 0, sizeof(w));
	w.budget_ns = o->budget_ns;
	w.size = o->size;
	w.repeats = o->repeats ? o->repeats : 1;
	w.configs = o->nfs ? o->nfs : 1;
	w.direct = o->direct;
	w.pg_local = o->pg_local;
	w.steps = o->steps;
	w.margin = o->nfs > 1 ? 2 : 1;	/* the file systems differ: room for a faster one */
	passes = battery_passes(&w);
	w.overhead_ns = clock_ns() - j->t0 + (uint64_t)(passes - 1) * (j->make_ns + 50000000u);
	/* several ranks: rank 0 plans, every rank runs its plan */
	r = comm_rank() == 0 && battery_plan_make(&j->env, &j->probe, &w, &j->plan) < 0 ?
	    -EINVAL : 0;
	j->want = w;
	battery_deadline_init(&j->dl, j->t0, o->budget_ns, &w);
	if (battery_ranks_plan(j, r) < 0)
		return -EINVAL;
	j->rates = j->probe;
	battery_job_record(rc->run, j);
	if ((o->dry_run && comm_rank() == 0) || !o->quiet)
		battery_plan_print(o->dry_run ? stdout : stderr, &j->plan, &j->env, &j->probe,
				   j->probe_dir);
	if (!j->plan.nrun && !o->dry_run) {
		if (comm_rank() == 0)
			err_msg("battery: %s: '%s'", j->plan.note, o->dir);
		return -ENODATA;
	}
	return 0;
}

int battery_job_repeat(struct battery_job *j, struct runner *rc)
{
	const struct battery_opts *o = j->o;
	unsigned i, n = o->nfs ? o->nfs : 1, passes = j->dl.passes;
	uint64_t need = (uint64_t)n * (j->plan.expect_ns + j->make_ns);
	int r = 0, planned = !j->plan.hand_sized && o->budget_ns;

	/* the matrix runs whole repeats, so that every file system runs the same */
	/* a step (in the matrix, a repeat) that cannot end within the budget does not start */
	if (o->nfs > 1 && rc->repeat > 0 && planned &&
	    !battery_deadline_fits(&j->dl, clock_ns(), need)) {
		char line[160];

		snprintf(line, sizeof(line), "repeat %u: needs about %.0f s, %.0f s of the budget "
			 "left", rc->repeat + 1, (double)need / 1e9,
			 (double)battery_deadline_left(&j->dl, clock_ns()) / 1e9);
		battery_job_note(rc->run, RK_BAT_LATE, line);
		if (!o->quiet && !j->late)
			err_msg("battery: skipped for the budget: %s; the repeats after it too",
				line);
		j->late++;
		return 0;
	}
	for (i = 0; i < n && r != -EINTR; i++) {
		struct battery_conf c;
		struct battery_clock ck;
		unsigned done = rc->repeat * n + i + 1;

		memset(&ck, 0, sizeof(ck));
		ck.quiet = o->quiet;
		if (planned && o->nfs < 2)
			ck.end_ns = battery_deadline_end(&j->dl);
		/* the first pass re-plans as it goes; the passes after it run its sizes */
		if (planned && rc->repeat == 0 && i == 0)
			ck.adapt = j;
		ck.after_ns = (uint64_t)(passes - done) * (j->plan.expect_ns + j->make_ns);
		if (!o->nfs) {
			r = battery_pass(rc, &j->plan, scratch_dir(j->sc), NULL, &ck);
			j->steps_ns += ck.steps_ns;
			continue;
		}
		if (j->fs_up != i + 1) {
			if (j->fs_up)
				conf_down(j);
			if (conf_up(j, rc, i) < 0) {
				if (sig_stop_requested())
					r = -EINTR;
				continue;
			}
		}
		conf_of(j, i, &c);
		ck.conf_label = c.label;
		/* the samplers found the devices behind -d when the run began: the pass
		 * watches the loop device (or --destroy-data-on's) and the stack below it */
		(void)runner_obs_target(rc, j->fs.mnt, NULL);
		r = battery_pass(rc, &j->plan, scratch_dir(j->inner), &c, &ck);
		j->steps_ns += ck.steps_ns;
		if (conf_down(j) < 0 && !o->quiet)
			err_msg("battery: cannot undo '%s': see 'iobattery battery --cleanup'",
				c.label);
	}
	return r;
}

int battery_job_finish(struct battery_job *j, struct run *run)
{
	int r = conf_down(j), r2;
	char d[PATH_MAX] = "";
	uint64_t wall;

	if (j->sc)
		snprintf(d, sizeof(d), "%s", scratch_dir(j->sc));
	r2 = scratch_destroy(j->sc);
	j->sc = NULL;
	if (r2 < 0)
		err_errno(r2, "battery: cannot remove the scratch directory: '%s'", d);
	wall = clock_ns() - j->t0;
	if (run && j->t0) {
		/* what the battery spent between its steps: probe, plan, mkfs, syncs, cleanup */
		kv_set(&run->options, RK_BAT_WALL, "%.3f", (double)wall / 1e9);
		kv_set(&run->options, RK_BAT_STEPS, "%.3f", (double)j->steps_ns / 1e9);
		kv_set(&run->options, RK_BAT_OVERHEAD, "%.3f",
		       (double)(wall > j->steps_ns ? wall - j->steps_ns : 0) / 1e9);
	}
	return r ? r : r2;
}
