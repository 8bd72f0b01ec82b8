/* sampler.c - the sampling thread: wait-state passes and interval records on absolute
 * deadlines of the monotonic clock, woken early by sampler_stop. */
#define _GNU_SOURCE	/* SCHED_BATCH */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "observe/sampler.h"

enum { SAMPLER_RUNNING = 1, SAMPLER_STOPPED = 2 };

struct sampler {
	struct sampler_cfg cfg;
	pthread_mutex_t lock;		/* records, acc, stop_req */
	pthread_cond_t cond;
	pthread_mutex_t stop_lock;	/* one sampler_stop joins, others wait for it */
	pthread_t thread;
	int state, stop_req;

	struct diskstats_set set;
	struct diskstats_snap snap;	/* the loop's scratch reading */
	struct procstat_reader ps;
	struct waitstate_src src[SAMPLER_MAX_PIDS + 1];
	unsigned nsrc;
	struct waitstate_acc acc;	/* the whole run */
	uint64_t mark[WAITSTATE_MAX_KEYS];	/* acc counts at the last record */
	uint32_t passes;		/* passes since the last record */

	uint64_t t_start;		/* the readings before the first record */
	struct diskstats_counters dev0[DISKSTATS_MAX_DEVS];
	int dev0_ok;
	struct procstat_cpu cpu0;
	struct procstat_mem mem0;
	int mem0_ok;

	struct sampler_record *rec;
	struct diskstats_counters *devc;	/* cap x ndev: devices at each record's t1 */
	unsigned nrec, cap;
	struct sampler_wait_count *wc;
	unsigned nwc, capwc;

	uint64_t cpu_ns, wall_ns;
};

static uint64_t sampler_thread_cpu(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
	return 0;
}

/* Read every device now into dst (ndev entries); 1 when all were found. */
static int sampler_read_devs(struct sampler *s, struct diskstats_counters *dst)
{
	int n;

	if (!s->set.ndev)
		return 0;
	n = diskstats_read(&s->set, &s->snap);
	if (n < 0) {
		memset(dst, 0, sizeof(*dst) * s->set.ndev);
		return 0;
	}
	memcpy(dst, s->snap.c, sizeof(*dst) * s->set.ndev);
	return n == (int)s->set.ndev;
}

/* Room for one more record and ndev counters; the amortised growth. Lock held. */
static int sampler_grow(struct sampler *s)
{
	unsigned ncap = s->cap ? s->cap * 2 : 64;
	struct sampler_record *r;
	struct diskstats_counters *d;

	if (s->nrec < s->cap)
		return 0;
	r = realloc(s->rec, sizeof(*r) * ncap);
	if (!r)
		return -ENOMEM;
	s->rec = r;
	if (s->set.ndev) {
		d = realloc(s->devc, sizeof(*d) * ncap * s->set.ndev);
		if (!d)
			return -ENOMEM;
		s->devc = d;
	}
	s->cap = ncap;
	return 0;
}

/* Append the wait-state counts gained since the last record. Lock held. */
static int sampler_wait_close(struct sampler *s, struct sampler_record *r)
{
	r->wait_first = s->nwc;
	r->wait_n = 0;
	r->wait_passes = s->passes;
	s->passes = 0;
	for (unsigned k = 0; k < s->acc.nkeys; k++) {
		if (s->acc.count[k] == s->mark[k])
			continue;
		if (s->nwc == s->capwc) {
			unsigned ncap = s->capwc ? s->capwc * 2 : 256;
			struct sampler_wait_count *w = realloc(s->wc, sizeof(*w) * ncap);

			if (!w)
				return -ENOMEM;
			s->wc = w;
			s->capwc = ncap;
		}
		s->wc[s->nwc].key = k;
		s->wc[s->nwc].count = s->acc.count[k] - s->mark[k];
		s->nwc++;
		r->wait_n++;
		s->mark[k] = s->acc.count[k];
	}
	return 0;
}

/* Close the current interval at now: read everything, append a record, then tell the
 * tick callback. */
static void sampler_record_now(struct sampler *s)
{
	struct diskstats_counters dc[DISKSTATS_MAX_DEVS];
	struct sampler_record r;
	int added = 0;
	unsigned idx = 0;

	memset(&r, 0, sizeof(r));
	r.t1_ns = clock_ns();
	r.dev_ok = sampler_read_devs(s, dc);
	r.cpu_ok = procstat_read_cpu(&s->ps, &r.cpu) == 0;
	r.mem_ok = procstat_read_mem(&s->ps, &r.mem) > 0;
	pthread_mutex_lock(&s->lock);
	r.t0_ns = s->nrec ? s->rec[s->nrec - 1].t1_ns : s->t_start;
	if (sampler_grow(s) == 0 && sampler_wait_close(s, &r) == 0) {
		if (s->set.ndev)
			memcpy(&s->devc[(size_t)s->nrec * s->set.ndev], dc,
			       sizeof(dc[0]) * s->set.ndev);
		idx = s->nrec;
		s->rec[s->nrec++] = r;
		added = 1;
	}
	pthread_mutex_unlock(&s->lock);
	if (added && s->cfg.tick)
		s->cfg.tick(s->cfg.tick_arg, s, idx);
}

/* One pass over every process's threads. A process that exited is dropped. */
static void sampler_wait_pass(struct sampler *s)
{
	pthread_mutex_lock(&s->lock);
	for (unsigned i = 0; i < s->nsrc; i++) {
		if (!s->src[i].dir)
			continue;
		if (waitstate_sample(&s->src[i], &s->acc) == -ESRCH)
			waitstate_close(&s->src[i]);
	}
	s->passes++;
	pthread_mutex_unlock(&s->lock);
}

/* The next deadline after a step from next, skipping those already missed. */
static uint64_t sampler_advance(uint64_t next, uint64_t step, uint64_t now)
{
	next += step;
	return next > now ? next : now + step;
}

/* The sampler must not take the CPU from what it measures: as a batch thread (Linux) its
 * wake-ups never preempt a running thread; it runs on an idle CPU or at the next tick. */
static void sampler_yield_policy(void)
{
#ifdef SCHED_BATCH
	struct sched_param sp;

	memset(&sp, 0, sizeof(sp));
	(void)sched_setscheduler(0, SCHED_BATCH, &sp);	/* this thread; best effort */
#endif
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	uint64_t wi = s->cfg.wait_interval_ns, next_rec, next_wait, now;
	int waits = !s->cfg.no_wait && s->nsrc > 0, tid = waitstate_tid();
	uint64_t c0 = sampler_thread_cpu(), w0 = clock_ns();

	sampler_yield_policy();

	for (unsigned i = 0; i < s->nsrc; i++)
		if (s->src[i].pid == 0)
			s->src[i].exclude_tid = tid;	/* not the sampler itself */
	next_rec = s->t_start + s->cfg.interval_ns;
	next_wait = waits ? s->t_start : UINT64_MAX;
	pthread_mutex_lock(&s->lock);
	while (!s->stop_req) {
		uint64_t due = next_rec < next_wait ? next_rec : next_wait;
		struct timespec ts = { (time_t)(due / 1000000000u), (long)(due % 1000000000u) };

		if (clock_ns() < due) {
			pthread_cond_timedwait(&s->cond, &s->lock, &ts);
			continue;	/* woken early or on time: test the clock again */
		}
		pthread_mutex_unlock(&s->lock);
		now = clock_ns();
		if (now >= next_wait) {
			sampler_wait_pass(s);
			next_wait = sampler_advance(next_wait, wi, now);
		}
		if (now >= next_rec) {
			sampler_record_now(s);
			next_rec = sampler_advance(next_rec, s->cfg.interval_ns, now);
		}
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	sampler_record_now(s);	/* the last, partial interval */
	s->cpu_ns = sampler_thread_cpu() - c0;
	s->wall_ns = clock_ns() - w0;
	return NULL;
}

/* Open the wait-state sources: this process unless no_self, and the pids. */
static void sampler_open_sources(struct sampler *s)
{
	if (s->cfg.no_wait)
		return;
	if (!s->cfg.no_self &&
	    waitstate_open(&s->src[s->nsrc], 0, 0, s->cfg.want_stack) == 0) {
		if (s->cfg.ntids) {
			s->src[s->nsrc].only = s->cfg.tids;
			s->src[s->nsrc].nonly = s->cfg.ntids < SAMPLER_MAX_TIDS ?
						s->cfg.ntids : SAMPLER_MAX_TIDS;
		}
		s->nsrc++;
	}
	for (unsigned i = 0; i < s->cfg.npids && i < SAMPLER_MAX_PIDS; i++)
		if (waitstate_open(&s->src[s->nsrc], s->cfg.pids[i], 0, s->cfg.want_stack) == 0)
			s->nsrc++;
}

/* A set found before: its devices and notes, with a reader of our own. */
static void sampler_copy_set(struct diskstats_set *dst, const struct diskstats_set *src)
{
	diskstats_init(dst);
	dst->ndev = src->ndev;
	memcpy(dst->dev, src->dev, sizeof(dst->dev));
	dst->left_out = src->left_out;
	memcpy(dst->fstype, src->fstype, sizeof(dst->fstype));
	memcpy(dst->reason, src->reason, sizeof(dst->reason));
	if (src->diskstats_path)
		dst->diskstats_path = src->diskstats_path;
}

/* The first readings and the preallocated room. 0 or -ENOMEM. */
static int sampler_prepare(struct sampler *s)
{
	unsigned hint = s->cfg.records_hint ? s->cfg.records_hint : 64;

	if (s->cfg.devices)
		sampler_copy_set(&s->set, s->cfg.devices);
	else if (s->cfg.path)
		diskstats_find(s->cfg.path, &s->set);
	else
		diskstats_init(&s->set);
	procstat_init(&s->ps);
	waitstate_acc_init(&s->acc);
	sampler_open_sources(s);
	s->rec = malloc(sizeof(*s->rec) * hint);
	s->devc = s->set.ndev ? malloc(sizeof(*s->devc) * hint * s->set.ndev) : NULL;
	s->wc = malloc(sizeof(*s->wc) * 256);
	if (!s->rec || (s->set.ndev && !s->devc) || !s->wc)
		return -ENOMEM;
	s->cap = hint;
	s->capwc = 256;
	s->t_start = clock_ns();
	s->dev0_ok = sampler_read_devs(s, s->dev0);
	if (procstat_read_cpu(&s->ps, &s->cpu0) < 0)
		memset(&s->cpu0, 0, sizeof(s->cpu0));
	s->mem0_ok = procstat_read_mem(&s->ps, &s->mem0) > 0;
	return 0;
}

static void sampler_release(struct sampler *s)
{
	for (unsigned i = 0; i < s->nsrc; i++)
		waitstate_close(&s->src[i]);
	diskstats_close(&s->set);
	procstat_close(&s->ps);
	free(s->rec);
	free(s->devc);
	free(s->wc);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->stop_lock);
	free(s);
}

static int sampler_sync_init(struct sampler *s)
{
	pthread_condattr_t ca;
	int rc;

	if ((rc = pthread_condattr_init(&ca)) != 0)
		return -rc;
	rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (rc == 0)
		rc = pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (rc)
		return -rc;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->stop_lock, NULL);
	return 0;
}

int sampler_start(const struct sampler_cfg *cfg, struct sampler **out)
{
	struct sampler *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	int rc;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	if (!s->cfg.interval_ns)
		s->cfg.interval_ns = SAMPLER_INTERVAL_NS;
	if (!s->cfg.wait_interval_ns)
		s->cfg.wait_interval_ns = SAMPLER_WAIT_NS;
	if ((rc = sampler_sync_init(s)) < 0) {
		free(s);
		return rc;
	}
	rc = sampler_prepare(s);
	if (rc == 0) {
		/* the thread takes no signals: SIGINT stays with the runner */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = -pthread_create(&s->thread, NULL, sampler_main, s);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (rc < 0) {
		sampler_release(s);
		return rc;
	}
	s->state = SAMPLER_RUNNING;
	*out = s;
	return 0;
}

int sampler_stop(struct sampler *s)
{
	pthread_mutex_lock(&s->stop_lock);
	if (s->state == SAMPLER_RUNNING) {
		pthread_mutex_lock(&s->lock);
		s->stop_req = 1;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->thread, NULL);
		s->state = SAMPLER_STOPPED;
	}
	pthread_mutex_unlock(&s->stop_lock);
	return 0;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	sampler_stop(s);
	sampler_release(s);
}

const struct diskstats_set *sampler_devices(const struct sampler *s)
{
	return &s->set;
}

unsigned sampler_count(struct sampler *s)
{
	unsigned n;

	pthread_mutex_lock(&s->lock);
	n = s->nrec;
	pthread_mutex_unlock(&s->lock);
	return n;
}

int sampler_get(struct sampler *s, unsigned i, struct sampler_record *out)
{
	int rc = -ERANGE;

	pthread_mutex_lock(&s->lock);
	if (i < s->nrec) {
		*out = s->rec[i];
		rc = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* The record range [first, last] that interval i means; 0 or -ERANGE. Lock held. */
static int sampler_span(const struct sampler *s, unsigned i, unsigned *first, unsigned *last)
{
	if (!s->nrec || (i != SAMPLER_WHOLE && i >= s->nrec))
		return -ERANGE;
	*first = i == SAMPLER_WHOLE ? 0 : i;
	*last = i == SAMPLER_WHOLE ? s->nrec - 1 : i;
	return 0;
}

/* Device figures over records first..last. Lock held. */
static int sampler_dev_locked(struct sampler *s, unsigned first, unsigned last, unsigned dev,
			      struct diskstats_figures *out)
{
	const struct diskstats_counters *a, *b;
	unsigned n = s->set.ndev;

	a = first ? &s->devc[(size_t)(first - 1) * n + dev] : &s->dev0[dev];
	b = &s->devc[(size_t)last * n + dev];
	return diskstats_compute(a, b, s->rec[last].t1_ns - s->rec[first].t0_ns, out);
}

int sampler_dev_span(struct sampler *s, unsigned first, unsigned last, unsigned dev,
		     struct diskstats_figures *out)
{
	int rc = -ERANGE;

	memset(out, 0, sizeof(*out));
	if (dev >= s->set.ndev)
		return -ENODEV;
	pthread_mutex_lock(&s->lock);
	if (first <= last && last < s->nrec)
		rc = sampler_dev_locked(s, first, last, dev, out);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int sampler_dev(struct sampler *s, unsigned i, unsigned dev, struct diskstats_figures *out)
{
	unsigned first, last, n = s->set.ndev;
	int rc;

	memset(out, 0, sizeof(*out));
	if (dev >= n)
		return -ENODEV;
	pthread_mutex_lock(&s->lock);
	rc = sampler_span(s, i, &first, &last);
	if (rc == 0)
		rc = sampler_dev_locked(s, first, last, dev, out);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int sampler_cpu(struct sampler *s, unsigned i, struct procstat_split *out)
{
	unsigned first, last;
	int rc;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	rc = sampler_span(s, i, &first, &last);
	if (rc == 0)
		rc = procstat_split(first ? &s->rec[first - 1].cpu : &s->cpu0, &s->rec[last].cpu,
				    out);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int sampler_cpu_span(struct sampler *s, unsigned first, unsigned last,
		     struct procstat_split *out)
{
	int rc = -ERANGE;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	if (first <= last && last < s->nrec)
		rc = procstat_split(first ? &s->rec[first - 1].cpu : &s->cpu0, &s->rec[last].cpu,
				    out);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void sampler_mem_start(struct sampler *s, struct procstat_mem *out, int *mem_ok)
{
	pthread_mutex_lock(&s->lock);
	*out = s->mem0;
	*mem_ok = s->mem0_ok;
	pthread_mutex_unlock(&s->lock);
}

int sampler_wait(struct sampler *s, unsigned i, struct sampler_wait_count *out, unsigned max)
{
	int n = 0;

	pthread_mutex_lock(&s->lock);
	if (i == SAMPLER_WHOLE) {
		for (unsigned k = 0; k < s->acc.nkeys; k++) {
			if (!s->acc.count[k])
				continue;
			if ((unsigned)n < max) {
				out[n].key = k;
				out[n].count = s->acc.count[k];
			}
			n++;
		}
	} else if (i < s->nrec) {
		const struct sampler_record *r = &s->rec[i];

		for (unsigned j = 0; j < r->wait_n; j++)
			if (j < max)
				out[j] = s->wc[r->wait_first + j];
		n = (int)r->wait_n;
	} else {
		n = -ERANGE;
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

int sampler_wait_key(struct sampler *s, unsigned key, struct waitstate_key *out)
{
	int rc = -ERANGE;

	pthread_mutex_lock(&s->lock);
	if (key < s->acc.nkeys) {
		*out = s->acc.key[key];
		rc = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void sampler_wait_totals(struct sampler *s, struct waitstate_acc *out)
{
	pthread_mutex_lock(&s->lock);
	*out = s->acc;
	pthread_mutex_unlock(&s->lock);
}

void sampler_self_cpu(struct sampler *s, uint64_t *cpu_ns, uint64_t *wall_ns)
{
	pthread_mutex_lock(&s->stop_lock);
	*cpu_ns = s->state == SAMPLER_STOPPED ? s->cpu_ns : 0;
	*wall_ns = s->state == SAMPLER_STOPPED ? s->wall_ns : 0;
	pthread_mutex_unlock(&s->stop_lock);
}
