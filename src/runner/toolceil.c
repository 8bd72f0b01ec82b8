/* toolceil.c - the null engine through the runner's request path at given settings. See
 * toolceil.h. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "engine/engine.h"
#include "runner/ioctx.h"
#include "runner/toolceil.h"

struct tc_thread {
	unsigned depth;
	uint64_t bs, dur_ns;
	pthread_barrier_t *go;
	uint64_t ops, ns, cpu_ns;
	int err;
};

/* Requests at depth 1 go one at a time (ioctx_do_chain), as dd and Bonnie's block
 * phases issue them; deeper ones are queued and submitted depth at a time, as job does. */
static void tc_loop(struct ioctx *io, struct tc_thread *t, void *buf)
{
	uint64_t t0, now, off = 0;

	t0 = clock_ns();
	if (t->depth == 1) {
		struct engine_req *r = ioctx_get(io);

		if (!r) {
			t->err = 1;
			return;
		}
		r->op = ENGINE_OP_PREAD;
		r->fd = -1;
		r->buf = buf;
		r->len = t->bs;
		do {
			for (unsigned k = 0; k < 256; k++, r->off += t->bs)
				ioctx_do_chain(io, r);
			now = clock_ns();
		} while (now - t0 < t->dur_ns);
		ioctx_put(io, r);
	} else {
		do {
			for (unsigned k = 0; k < 256; k++) {
				struct engine_req *r = ioctx_get(io);

				if (!r) {
					t->err = 1;
					break;
				}
				r->op = ENGINE_OP_PREAD;
				r->fd = -1;
				r->buf = buf;
				r->len = t->bs;
				r->off = off;
				off += t->bs;
				ioctx_queue(io, r);
				if (io->nqueued >= t->depth && ioctx_submit(io) < 0)
					t->err = 1;
			}
			now = clock_ns();
		} while (now - t0 < t->dur_ns && !t->err);
		ioctx_drain(io);
		now = clock_ns();
	}
	t->ns = now - t0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *tc_main(void *arg)
{
	struct tc_thread *t = arg;
	struct worker *w = calloc(1, sizeof(*w));
	void *buf = malloc(t->bs);
	struct ioctx io;

	if (!w || !buf || ioctx_init(&io, engine_find("null"), t->depth) < 0) {
		t->err = 1;
		pthread_barrier_wait(t->go);
		free(w);
		free(buf);
		return NULL;
	}
	hist_init(&w->lat);
	ioctx_bind(&io, w);
	pthread_barrier_wait(t->go);	/* every thread starts together */
	t->cpu_ns = thread_cpu_ns();
	tc_loop(&io, t, buf);
	t->cpu_ns = thread_cpu_ns() - t->cpu_ns;
	t->ops = w->ops;
	ioctx_exit(&io);
	free(w);
	free(buf);
	return NULL;
}

static struct toolceil measure(unsigned threads, unsigned depth, uint64_t bs,
			       uint64_t dur_ns)
{
	struct toolceil r = { NAN, NAN };
	struct tc_thread *t = calloc(threads, sizeof(*t));
	pthread_t *tid = calloc(threads, sizeof(*tid));
	pthread_barrier_t go;
	uint64_t ops = 0, ns = 0, cpu = 0;
	unsigned i, started = 0;
	int bad = 0;

	if (!t || !tid || pthread_barrier_init(&go, NULL, threads) != 0) {
		free(t);
		free(tid);
		return r;
	}
	for (i = 0; i < threads; i++) {
		t[i] = (struct tc_thread){ depth, bs, dur_ns, &go, 0, 0, 0, 0 };
		if (pthread_create(&tid[i], NULL, tc_main, &t[i]) != 0)
			break;
		started++;
	}
	if (started < threads) {	/* the barrier would wait for ever: release it */
		for (i = started; i < threads; i++)
			pthread_barrier_wait(&go);
		bad = 1;
	}
	for (i = 0; i < started; i++) {
		pthread_join(tid[i], NULL);
		bad |= t[i].err;
		ops += t[i].ops;
		cpu += t[i].cpu_ns;
		if (t[i].ns > ns)
			ns = t[i].ns;
	}
	pthread_barrier_destroy(&go);
	free(t);
	free(tid);
	/* aggregate: all requests over the slowest thread's time, as the runner's rule */
	if (!bad && ns && ops) {
		r.ops_s = (double)ops / ((double)ns / 1e9);
		r.cpu_ns_per_op = (double)cpu / (double)ops;
	}
	return r;
}

static struct tc_kept {
	unsigned threads, depth;
	uint64_t bs;
	struct toolceil v;
} kept[32];
static unsigned nkept;

struct toolceil toolceil_measure(unsigned threads, unsigned depth, uint64_t bs,
				 uint64_t dur_ns)
{
	struct toolceil v = { NAN, NAN };

	if (threads < 1 || threads > TOOLCEIL_MAX_THREADS || depth < 1 ||
	    depth > IOCTX_MAX_DEPTH || bs < 1 || bs > (64u << 20) || !engine_find("null"))
		return v;
	for (unsigned i = 0; i < nkept; i++)
		if (kept[i].threads == threads && kept[i].depth == depth && kept[i].bs == bs)
			return kept[i].v;
	v = measure(threads, depth, bs, dur_ns ? dur_ns : TOOLCEIL_NS);
	if (nkept < sizeof(kept) / sizeof(kept[0]))
		kept[nkept++] = (struct tc_kept){ threads, depth, bs, v };
	return v;
}
