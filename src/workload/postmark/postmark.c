/* postmark.c - one PostMark run on the file system, measured through the runner: the
 * initial pool, the transactions and the final deletion are three phases inside a fourth
 * ("total") that spans them as PostMark's total time does; then one row per operation
 * type carries that type's latency over the whole run. See docs/methodology-postmark.md. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/clock.h"
#include "fs/scratch.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/postmark/postmark.h"
#include "workload/postmark/postmark_io.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "runner/vhook.h"
#include "workload/workload.h"

static const char *const op_names[PM_OP_N] = { "create", "read", "append", "delete" };

static double per_s(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0.0;
}

static int set_rate(struct row *r, double rate, const char *unit)
{
	r->rate = rate;
	return str_set(&r->rate_unit, unit);
}

/* Fill the worker of a stage before phase_end: its counts and the end of its work. */
static void worker_fill(struct worker *w, uint64_t ops, uint64_t bytes, int err)
{
	w->ops = ops;
	w->bytes = bytes;
	w->t_last = clock_ns();
	if (err && !w->err)
		w->err = err;
}

struct times {
	uint64_t create, txn, del, total;
};

static int add_metrics(struct row *r, const struct pm_state *st, const struct times *t,
		       uint64_t fallbacks)
{
	const struct pm_counts *c = &st->c;
	uint64_t cmix = c->created - c->created_alone, dmix = c->deleted - c->deleted_alone;
	int e = 0;

	e |= row_add_metric(r, RK_PM_FILES_CREATED, (double)c->created, "files");
	e |= row_add_metric(r, RK_PM_FILES_CREATED_ALONE, (double)c->created_alone, "files");
	e |= row_add_metric(r, RK_PM_FILES_CREATED_MIXED, (double)cmix, "files");
	e |= row_add_metric(r, RK_PM_FILES_READ, (double)c->read, "files");
	e |= row_add_metric(r, RK_PM_FILES_APPENDED, (double)c->appended, "files");
	e |= row_add_metric(r, RK_PM_FILES_DELETED, (double)c->deleted, "files");
	e |= row_add_metric(r, RK_PM_FILES_DELETED_ALONE, (double)c->deleted_alone, "files");
	e |= row_add_metric(r, RK_PM_FILES_DELETED_MIXED, (double)dmix, "files");
	e |= row_add_metric(r, RK_PM_TRANSACTIONS, (double)c->transactions, "transactions");
	e |= row_add_metric(r, RK_PM_TRANSACTIONS_REQUESTED, st->cfg->transactions, "transactions");
	e |= row_add_metric(r, RK_PM_BYTES_READ, (double)c->bytes_read, "B");
	e |= row_add_metric(r, RK_PM_BYTES_WRITTEN, (double)c->bytes_written, "B");
	e |= row_add_metric(r, RK_PM_BYTES_WRITTEN_DURABLE,
			    st->cfg->fsync ? (double)c->bytes_written : 0.0, "B");
	e |= row_add_metric(r, RK_PM_BYTES_WRITTEN_BUFFERED,
			    st->cfg->fsync ? 0.0 : (double)c->bytes_written, "B");
	e |= row_add_metric(r, RK_PM_TIME_TOTAL_S, t->total / 1e9, "s");
	e |= row_add_metric(r, RK_PM_TIME_CREATE_S, t->create / 1e9, "s");
	e |= row_add_metric(r, RK_PM_TIME_TRANSACTIONS_S, t->txn / 1e9, "s");
	e |= row_add_metric(r, RK_PM_TIME_DELETE_S, t->del / 1e9, "s");
	/* PostMark's rates: totals over the total time, mixed ones over the transactions */
	e |= row_add_metric(r, RK_PM_TRANSACTIONS_PER_S, per_s(c->transactions, t->txn), "1/s");
	e |= row_add_metric(r, RK_PM_CREATED_PER_S, per_s(c->created, t->total), "files/s");
	e |= row_add_metric(r, RK_PM_CREATED_ALONE_PER_S, per_s(c->created_alone, t->create),
			    "files/s");
	e |= row_add_metric(r, RK_PM_CREATED_MIXED_PER_S, per_s(cmix, t->txn), "files/s");
	e |= row_add_metric(r, RK_PM_READ_PER_S, per_s(c->read, t->txn), "files/s");
	e |= row_add_metric(r, RK_PM_APPENDED_PER_S, per_s(c->appended, t->txn), "files/s");
	e |= row_add_metric(r, RK_PM_DELETED_PER_S, per_s(c->deleted, t->total), "files/s");
	e |= row_add_metric(r, RK_PM_DELETED_ALONE_PER_S, per_s(c->deleted_alone, t->del),
			    "files/s");
	e |= row_add_metric(r, RK_PM_DELETED_MIXED_PER_S, per_s(dmix, t->txn), "files/s");
	e |= row_add_metric(r, RK_PM_READ_MIB_PER_S, per_s(c->bytes_read, t->total) / 1048576.0,
			    "MiB/s");
	e |= row_add_metric(r, RK_PM_WRITTEN_MIB_PER_S,
			    per_s(c->bytes_written, t->total) / 1048576.0, "MiB/s");
	e |= row_add_metric(r, RK_PM_OUT_OF_FILES, c->out_of_files, "bool");
	if (st->cfg->direct)
		e |= row_add_metric(r, RK_PM_DIRECT_FALLBACKS, (double)fallbacks, "transfers");
	return e ? -ENOMEM : 0;
}

/* One row per operation type: its latency over the whole run. elapsed_ns is the time
 * spent inside operations of that type, so rate = 1 / mean latency. */
static int add_op_rows(struct runner *rc, struct pm_state *st)
{
	const struct pm_counts *c = &st->c;
	uint64_t bytes[PM_OP_N] = { c->bytes_written - c->bytes_appended, c->bytes_read,
				    c->bytes_appended, 0 };
	unsigned k;

	for (k = 0; k < PM_OP_N; k++) {
		struct row *r = run_add_row(rc->run, "postmark", op_names[k]);
		struct hist *h = malloc(sizeof(*h));

		if (!r || !h) {
			free(h);
			return -ENOMEM;
		}
		*h = st->op_w[k]->lat;
		r->repeat = rc->repeat;
		r->ops = h->n;
		r->bytes = bytes[k];
		r->elapsed_ns = h->sum;
		if (set_rate(r, per_s(h->n, h->sum), "ops/s") < 0 ||
		    kv_set(&r->params, RK_PM_LATENCY_OF, "%s", "one whole operation") < 0)
			return -ENOMEM;
		row_set_lat(r, h);
	}
	return 0;
}

static const char *err_what(enum pm_op op)
{
	switch (op) {
	case PM_OP_CREATE: return "creating a file";
	case PM_OP_READ: return "reading a file";
	case PM_OP_APPEND: return "appending to a file";
	default: return "deleting a file";
	}
}

static int stage_row(struct row *r, unsigned repeat, const char *unit, double rate)
{
	if (!r)
		return -ENOMEM;
	r->repeat = repeat;
	return set_rate(r, rate, unit);
}

/* --verify, after the transactions and before the files are deleted: every file read
 * back in a phase of its own, left out of the total's time and CPU. 0 or -errno (bad
 * blocks fail the verify row, not the run). */
static int verify_pool(struct runner *rc, struct vhook *vh, struct phase *pt)
{
	struct cpu_sample a, b;
	int e;

	if (!vh)
		return 0;
	cpu_sample_now(&a);
	e = vhook_verify(vh, rc, "postmark");
	cpu_sample_now(&b);
	phase_exclude(pt, &a, &b);
	return e > 0 ? 0 : e;
}

/* The three stages inside the total phase. */
static int run_stages(struct runner *rc, struct pm_state *st, struct phase *pt,
		      struct times *t, struct row **total, struct vhook *vh)
{
	struct phase ph;
	struct row *r;
	uint64_t b0;
	int e;

	e = phase_begin(&ph, rc, "create_alone", 1, "files", st->cfg->number);
	if (e < 0)
		return e;
	phase_restart(pt);
	worker_start(&pt->w[0]);
	worker_start(&ph.w[0]);
	st->stage_w = &ph.w[0];
	pm_create_pool(st);
	worker_fill(&ph.w[0], st->c.created_alone, st->c.bytes_written, st->err);
	r = phase_end(&ph, "postmark");
	t->create = r ? r->elapsed_ns : 0;
	if (stage_row(r, rc->repeat, "files/s", r ? per_s(r->ops, r->elapsed_ns) : 0) < 0)
		return -ENOMEM;

	e = phase_begin(&ph, rc, "transactions", 1, "transactions", st->cfg->transactions);
	if (e < 0)
		return e;
	worker_start(&ph.w[0]);
	st->stage_w = &ph.w[0];
	b0 = st->c.bytes_read + st->c.bytes_written;
	pm_transactions(st);
	worker_fill(&ph.w[0], st->c.transactions, st->c.bytes_read + st->c.bytes_written - b0,
		    st->err);
	r = phase_end(&ph, "postmark");
	t->txn = r ? r->elapsed_ns : 0;
	if (stage_row(r, rc->repeat, "tps", r ? per_s(r->ops, r->elapsed_ns) : 0) < 0)
		return -ENOMEM;
	if (st->c.out_of_files && str_set(&r->note, "out of files: increase the number of "
					  "files or decrease the number of transactions") < 0)
		return -ENOMEM;
	if ((e = verify_pool(rc, vh, pt)) < 0)
		return e;

	e = phase_begin(&ph, rc, "delete_alone", 1, "files", 0);
	if (e < 0)
		return e;
	worker_start(&ph.w[0]);
	st->stage_w = &ph.w[0];
	pm_delete_all(st);
	st->stage_w = NULL;
	worker_fill(&ph.w[0], st->c.deleted_alone, 0, 0);
	r = phase_end(&ph, "postmark");
	t->del = r ? r->elapsed_ns : 0;
	if (stage_row(r, rc->repeat, "files/s", r ? per_s(r->ops, r->elapsed_ns) : 0) < 0)
		return -ENOMEM;

	worker_fill(&pt->w[0], st->c.created + st->c.read + st->c.appended + st->c.deleted,
		    st->c.bytes_read + st->c.bytes_written, st->err);
	*total = phase_end(pt, "postmark");
	return *total ? 0 : -ENOMEM;
}

static int make_dirs(const struct pm_config *cfg, struct scratch **sc, char **dirs,
		     struct row **fail_row, struct runner *rc)
{
	unsigned l, n = cfg->nlocs ? cfg->nlocs : 1;
	int e;

	for (l = 0; l < n; l++) {
		const char *parent = cfg->nlocs ? cfg->locs[l].path : ".";

		e = ranks_scratch_create(parent, rc->shared_dir, &sc[l]);	/* --shared-dir */
		if (e < 0) {
			*fail_row = run_add_row(rc->run, "postmark", "total");
			if (*fail_row) {
				(*fail_row)->flags |= ROW_FAILED;
				(*fail_row)->error = str_printf("cannot create a scratch "
								"directory in '%s': %s",
								parent, strerror(-e));
			}
			return e;
		}
		dirs[l] = (char *)scratch_dir(sc[l]);
	}
	return 0;
}

static int finish_total(struct runner *rc, struct row *total, struct pm_state *st,
			const struct times *t, const struct pm_io_ctx *io)
{
	const struct pm_counts *c = &st->c;
	char msg[128];

	snprintf(msg, sizeof(msg), "%s", strerror(st->err ? -st->err : 0));
	msg[0] = (char)tolower((unsigned char)msg[0]);
	total->repeat = rc->repeat;
	if (set_rate(total, per_s(total->ops, total->elapsed_ns), "ops/s") < 0 ||
	    pm_config_record(st->cfg, &total->params) < 0 ||
	    add_metrics(total, st, t, io->direct_fallbacks) < 0)
		return -ENOMEM;
	if (st->err) {
		total->flags |= ROW_FAILED;
		free(total->error);
		total->error = str_printf("%s: %s (after %llu files created, %llu read, "
					  "%llu appended and %llu transactions, %llu bytes "
					  "written; every file was removed)",
					  err_what(st->err_op), msg,
					  (unsigned long long)c->created,
					  (unsigned long long)c->read,
					  (unsigned long long)c->appended,
					  (unsigned long long)c->transactions,
					  (unsigned long long)c->bytes_written);
		if (!total->error)
			return -ENOMEM;
	}
	return 0;
}

/* --verify needs every write to hold a block header: files and writes of 64 bytes and
 * more. 0, or -EINVAL with a failed row saying so. */
static int verify_fits(struct runner *rc, const struct pm_config *cfg, struct row **fail)
{
	if (!vhook_cfg_on(rc->verify) ||
	    (cfg->size_low >= VBLOCK_MIN_LEN &&
	     (cfg->buffered || cfg->write_block >= VBLOCK_MIN_LEN)))
		return 0;
	*fail = run_add_row(rc->run, "postmark", "total");
	if (*fail) {
		(*fail)->flags |= ROW_FAILED;
		(*fail)->error = str_printf("--verify needs files and writes of at least %u bytes "
					    "(set size, set write)", VBLOCK_MIN_LEN);
	}
	return -EINVAL;
}

int postmark_run(struct runner *rc, const struct pm_config *cfg, FILE *dots)
{
	struct scratch *sc[PM_MAX_LOCS] = { NULL };
	char *dirs[PM_MAX_LOCS] = { NULL }, err[512];
	struct pm_io_ctx io;
	struct pm_state st;
	struct row *total = NULL;
	struct phase pt;
	struct times t = { 0, 0, 0, 0 };
	struct vhook *vh = NULL;
	unsigned l;
	int e, ioopen = 0, stinit = 0;

	e = verify_fits(rc, cfg, &total);
	if (e == 0)
		e = make_dirs(cfg, sc, dirs, &total, rc);
	if (e < 0)
		goto out;
	e = pm_io_open(&io, cfg, rc->eng, dirs, rc->shared_dir && comm_multi() ?
		       (int)comm_rank() : -1, err, sizeof(err));
	ioopen = e == 0;
	/* --verify: every write stamped (PostMark's data are random bytes) */
	if (e == 0 && (e = vhook_start(&vh, rc, io.wchunk, VBLOCK_DATA_RANDOM,
				       VHOOK_F_PASSES)) == 0 && (e = vhook_attach(vh, &io.io)) == 0)
		io.verify = vh != NULL;
	else if (ioopen)
		snprintf(err, sizeof(err), "cannot start --verify: %s", strerror(-e));
	if (e < 0) {
		total = run_add_row(rc->run, "postmark", "total");
		if (total) {
			total->flags |= ROW_FAILED;
			total->error = strdup(err);
		}
		goto out;
	}
	ioopen = 1;
	e = pm_state_init(&st, cfg, &pm_io_files, &io);
	if (e < 0)
		goto out;
	stinit = 1;
	st.dots = dots;
	e = phase_begin(&pt, rc, "total", 1, "files", 0);
	if (e < 0)
		goto out;
	e = run_stages(rc, &st, &pt, &t, &total, vh);
	if (e < 0) {
		if (!total)
			phase_abort(&pt);
		goto out;
	}
	t.total = total->elapsed_ns;
	e = finish_total(rc, total, &st, &t, &io);
	if (e == 0)
		e = add_op_rows(rc, &st);
	if (e == 0 && st.err)
		e = st.err;
	if (e == 0 && sig_stop_requested())
		e = -EINTR;
out:
	if (stinit) {
		st.dots = NULL;
		pm_delete_all(&st);	/* after a failure: nothing may stay behind */
		pm_state_free(&st);
	}
	if (ioopen)
		pm_io_close(&io);
	vhook_stop(vh);
	for (l = 0; l < PM_MAX_LOCS; l++)
		if (sc[l]) {
			int r = ranks_scratch_destroy(sc[l], rc->shared_dir);

			if (r < 0 && e == 0)
				e = r;
		}
	return e;
}
