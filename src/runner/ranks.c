/* ranks.c - the runner's phase boundaries across ranks: start and end gates, the progress
 * hook (samples for first done, messages to rank 0, rank 0's aggregate line), stonewall
 * and the booking of each phase's row for the merge (ranks_merge.c). See ranks.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "core/clock.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "runner/ranks.h"
#include "runner/ranks_int.h"
#include "runner/runner.h"
#include "stats/result.h"

#define SAMPLE_NS	20000000ull	/* first-done samples: every 20 ms, coarser when long */
#define DRAW_NS		250000000ull	/* rank 0 redraws four times a second */
#define SAMPLES_MAX	512u

struct phase_rank {
	uint64_t release;		/* clock_ns when this rank left the start gate */
	uint64_t seq;			/* the start gate's number: tags progress messages */
	uint64_t every;			/* sampling interval */
	uint64_t next_draw;
	uint64_t last_done;		/* the latest count the hook saw */
	uint64_t *st, *sd;		/* samples: ns from the phase's t0, count */
	unsigned ns;
	uint64_t sw_bytes, sw_ns;	/* stonewall figure */
	int finished;			/* rank 0: its own part is done */
	struct comm_prog *tab;		/* rank 0: every rank's latest message */
};

/* Tell once why this rank stops (rank 0 only: the others would say the same). */
void ranks_stop(const struct comm_fault *f)
{
	static int said;

	sig_stop_peer();
	if (said++ || comm_rank() != 0)
		return;
	if (f->err == -EINTR)
		err_msg("stopping: interrupted while waiting for the other ranks");
	else if (f->err == -EPIPE)
		err_msg("stopping: the other ranks cannot be reached (one died?)");
	else
		err_msg("stopping every rank: rank %u on %s failed: %s%s%s", f->rank, f->host,
			f->what[0] ? f->what : strerror(-f->err),
			f->what[0] && f->err != -ECANCELED ? ": " : "",
			f->what[0] && f->err != -ECANCELED ? strerror(-f->err) : "");
}

/* Keep a sample; when full, keep every other one and sample half as often. */
static void sample(struct phase_rank *pr, uint64_t t, uint64_t done)
{
	unsigned i;

	if (!pr->st)
		return;
	if (pr->ns == SAMPLES_MAX) {
		for (i = 0; i < SAMPLES_MAX / 2; i++) {
			pr->st[i] = pr->st[2 * i + 1];
			pr->sd[i] = pr->sd[2 * i + 1];
		}
		pr->ns = SAMPLES_MAX / 2;
		pr->every *= 2;
	}
	pr->st[pr->ns] = t;
	pr->sd[pr->ns] = done;
	pr->ns++;
}

/* Rank 0's line: its own count plus the latest of every other rank in this phase. */
static void draw(struct phase *ph, uint64_t done, uint64_t now)
{
	struct phase_rank *pr = ph->pr;
	unsigned r, n = comm_size(), fin = pr->finished;
	uint64_t agg = done;

	if (!ph->prog.enabled || now < pr->next_draw)
		return;
	for (r = 1; r < n; r++) {
		if (pr->tab[r].seq != pr->seq)
			continue;
		agg += pr->tab[r].units;
		fin += (pr->tab[r].flags & COMM_PROG_DONE) != 0;
	}
	snprintf(ph->prog.suffix, sizeof(ph->prog.suffix), "  all ranks, %u/%u done", fin, n);
	progress_show(&ph->prog, agg, now);
	pr->next_draw = now + DRAW_NS;
}

static void hook(struct progress *p, uint64_t done, uint64_t now)
{
	struct phase *ph = p->hook_arg;
	struct phase_rank *pr = ph->pr;
	struct comm_prog m = { pr->seq, done, 0 };

	pr->last_done = done;
	sample(pr, now > ph->t0 ? now - ph->t0 : 0, done);
	if (comm_rank() == 0) {
		comm_progress_collect(pr->tab);
		draw(ph, done, now);
	} else {
		comm_progress_post(&m);
	}
	p->next_ns = now + pr->every;
}

/* While rank 0 waits at the end gate: the others' counts go on. */
static void end_poll(void *arg)
{
	struct phase *ph = arg;

	comm_progress_collect(ph->pr->tab);
	draw(ph, ph->pr->last_done, clock_ns());
}

int ranks_phase_begin(struct phase *ph)
{
	struct phase_rank *pr;
	struct comm_fault f;
	unsigned n = comm_size();

	if (n < 2 || ph->rc->solo)
		return 0;
	pr = calloc(1, sizeof(*pr));
	if (pr) {
		pr->st = calloc(SAMPLES_MAX, sizeof(*pr->st));
		pr->sd = calloc(SAMPLES_MAX, sizeof(*pr->sd));
		if (comm_rank() == 0)
			pr->tab = calloc(n, sizeof(*pr->tab));
	}
	/* a rank that cannot keep its books still goes through the gate, failing it */
	if (!pr || !pr->st || !pr->sd || (comm_rank() == 0 && !pr->tab)) {
		if (comm_gate(-ENOMEM, "out of memory", &f, NULL, NULL) < 0)
			ranks_stop(&f);
		if (pr) {
			free(pr->st);
			free(pr->sd);
			free(pr->tab);
			free(pr);
		}
		return 0;
	}
	ph->pr = pr;
	/* rank 0 draws the ranks' line where a person watches mpirun's terminal */
	if (comm_rank() == 0 && ph->rc->progress && !ph->prog.enabled && comm_terminal())
		ph->prog.enabled = 1;
	if (comm_gate(0, NULL, &f, NULL, NULL) < 0)
		ranks_stop(&f);
	pr->release = clock_ns();
	pr->seq = comm_gate_seq();
	pr->every = SAMPLE_NS;
	pr->next_draw = pr->release + 1000000000ull;	/* nothing for phases under 1 s */
	if (ph->prog.total)
		ph->prog.total *= n;
	progress_set_hook(&ph->prog, hook, ph, pr->release + pr->every);
	return 0;
}

uint64_t ranks_stonewall(struct phase *ph, uint64_t done, int err)
{
	struct phase_rank *pr = ph->pr;
	struct comm_fault f;
	uint64_t most = done;

	if (!pr)
		return done;
	pr->sw_bytes = done ? done : 1;
	pr->sw_ns = clock_ns() - ph->t0;
	if (comm_gate(err, err ? strerror(-err) : NULL, &f, NULL, NULL) < 0) {
		ranks_stop(&f);
		return done;
	}
	if (!ph->rc->wearout)
		return done;
	if (comm_allreduce_u64(&most, 1, COMM_MAX) < 0)
		return done;
	return most > done ? most : done;
}

/* The count a phase ended with: its workers' bytes for a byte phase, else the last tick. */
static uint64_t final_done(const struct phase *ph, const struct phase_rank *pr)
{
	uint64_t b = 0;
	unsigned i;

	if (strcmp(ph->prog.unit, "B"))
		return pr->last_done;
	for (i = 0; i < ph->nw; i++)
		b += ph->w[i].bytes;
	/* the samples count worker 0 only: keep their scale */
	return ph->nw > 1 ? ph->w[0].bytes : b;
}

void ranks_phase_end(struct phase *ph, struct row *row, int err)
{
	struct phase_rank *pr = ph->pr;
	struct comm_prog m;
	struct comm_fault f;
	const char *what;

	if (!pr)
		return;
	ph->pr = NULL;
	m.seq = pr->seq;
	m.units = final_done(ph, pr);
	m.flags = COMM_PROG_DONE;
	pr->last_done = m.units;
	pr->finished = 1;
	comm_progress_post(&m);
	sample(pr, ph->t1 > ph->t0 ? ph->t1 - ph->t0 : 0, m.units);
	what = err ? (row && row->error ? row->error : strerror(-err)) : NULL;
	ph->pr = pr;			/* end_poll draws from it */
	if (comm_gate(err, what, &f, comm_rank() == 0 ? end_poll : NULL, ph) < 0)
		ranks_stop(&f);
	ph->pr = NULL;
	if (row && ranks_book_row(ph->rc, row, ph->t0 > pr->release ? ph->t0 - pr->release : 0,
				  pr->st, pr->sd, pr->ns, pr->sw_bytes, pr->sw_ns) == 0)
		pr->st = pr->sd = NULL;	/* the book owns them now */
	if (pr->tab)
		comm_progress_collect(NULL);	/* stop listening into the table first */
	free(pr->st);
	free(pr->sd);
	free(pr->tab);
	free(pr);
}

int ranks_gate(int err, const char *what)
{
	struct comm_fault f;
	int r;

	if (!comm_multi())
		return err;
	r = comm_gate(err, what, &f, NULL, NULL);
	if (r < 0)
		ranks_stop(&f);
	return r;
}

int ranks_share(void *buf, size_t len, int err, const char *what)
{
	int r = ranks_gate(err, what);

	if (r < 0 || !comm_multi())
		return r;
	return comm_bcast(buf, len);
}
