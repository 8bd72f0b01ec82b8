/* sampler.h - a thread that records what the system did while a phase ran: per interval
 * (default 1 s) the counters of the devices behind the target (observe/diskstats.h), the
 * CPU counters and page-cache gauges (observe/procstat.h), and the wait states of this
 * process's threads and of other processes (observe/waitstate.h, a pass every 100 ms by
 * default). Records keep raw counters, so the figures of any interval, and of the whole
 * run, come from the same pure functions, and the intervals add up to the whole exactly.
 *
 * Start and stop explicitly (the runner does it per phase). Everything the loop needs is
 * allocated at start; records grow by doubling (amortised). Start, stop and every getter
 * are thread-safe: a getter may be called while the sampler runs (a live view) and sees
 * the records completed so far. The sampler measures its own CPU time. */
#ifndef IOB_OBSERVE_SAMPLER_H
#define IOB_OBSERVE_SAMPLER_H

#include <stdint.h>

#include "observe/diskstats.h"
#include "observe/procstat.h"
#include "observe/waitstate.h"

#define SAMPLER_MAX_PIDS	16
#define SAMPLER_MAX_TIDS	64
#define SAMPLER_WHOLE		0xffffffffu	/* "interval" index: from start to stop */
#define SAMPLER_INTERVAL_NS	1000000000u	/* defaults */
#define SAMPLER_WAIT_NS		100000000u

struct sampler;

struct sampler_cfg {
	const char *path;		/* device figures for the devices behind it; NULL none */
	const struct diskstats_set *devices;	/* or these, found before (its device list
					 * is copied, not its reader); wins over path */
	uint64_t interval_ns;		/* one record per interval; 0: SAMPLER_INTERVAL_NS */
	uint64_t wait_interval_ns;	/* a wait-state pass every ...; 0: SAMPLER_WAIT_NS */
	int no_wait;			/* 1: no wait-state passes */
	int want_stack;			/* 1: read kernel stacks where allowed (the syscall) */
	int pids[SAMPLER_MAX_PIDS];	/* wait states of these processes too (a server) */
	unsigned npids;
	int no_self;			/* 1: not this process's threads */
	int tids[SAMPLER_MAX_TIDS];	/* of this process, only these threads (a phase's
					 * workers); ntids 0: every thread but the sampler */
	unsigned ntids;
	unsigned records_hint;		/* records allocated at start; 0: 64 */
	/* Called on the sampler thread, without its lock held, right after record rec was
	 * appended (the last time after sampler_stop asked it to stop); it may call the
	 * getters. NULL: none. */
	void (*tick)(void *arg, struct sampler *s, unsigned rec);
	void *tick_arg;
};

/* One interval [t0_ns, t1_ns] (clock_ns). Counters are those read at t1. */
struct sampler_record {
	uint64_t t0_ns, t1_ns;
	int dev_ok;			/* every device of the set was read at t1 */
	int cpu_ok, mem_ok;
	struct procstat_cpu cpu;
	struct procstat_mem mem;
	uint32_t wait_passes;		/* wait-state passes in the interval */
	unsigned wait_first, wait_n;	/* its counts (private; see sampler_wait) */
};

/* Observations of one wait-state key (see sampler_wait_key) in an interval. */
struct sampler_wait_count {
	unsigned key;
	uint64_t count;
};

/* Take the first readings now and start the thread. Device figures that cannot be had
 * (tmpfs, no /proc) do not fail the start: sampler_devices says why. Returns 0 and
 * *out (free with sampler_free), or -errno (-ENOMEM, -EAGAIN from pthread_create). */
int sampler_start(const struct sampler_cfg *cfg, struct sampler **out);
/* Stop the thread: the last record ends now (it may be shorter than an interval).
 * Idempotent and safe from several threads at once. Returns 0. */
int sampler_stop(struct sampler *s);
/* Stop if running, then free. NULL is fine. */
void sampler_free(struct sampler *s);

/* The device set (fixed after start; ndev 0 with reason when there are no device
 * figures). The pointer stays valid until sampler_free. */
const struct diskstats_set *sampler_devices(const struct sampler *s);
/* Records completed so far. */
unsigned sampler_count(struct sampler *s);
/* Copy record i. 0 or -ERANGE. */
int sampler_get(struct sampler *s, unsigned i, struct sampler_record *out);
/* iostat figures of device dev (an index into sampler_devices) over record i, or over
 * the whole run for SAMPLER_WHOLE. 0, -ERANGE, -ENODEV (no such device) or -EINVAL (a
 * reading is missing). */
int sampler_dev(struct sampler *s, unsigned i, unsigned dev, struct diskstats_figures *out);
/* The same over records first..last together (first <= last < count). */
int sampler_dev_span(struct sampler *s, unsigned first, unsigned last, unsigned dev,
		     struct diskstats_figures *out);
/* The CPU split over record i or SAMPLER_WHOLE. 0, -ERANGE or -EINVAL. */
int sampler_cpu(struct sampler *s, unsigned i, struct procstat_split *out);
/* The same over records first..last together. */
int sampler_cpu_span(struct sampler *s, unsigned first, unsigned last,
		     struct procstat_split *out);
/* The gauges before the first record (mem_ok 0 when they could not be read). */
void sampler_mem_start(struct sampler *s, struct procstat_mem *out, int *mem_ok);
/* The wait-state counts of record i (or SAMPLER_WHOLE) into out (at most max entries).
 * Returns the number of entries of the interval (may exceed max) or -ERANGE. */
int sampler_wait(struct sampler *s, unsigned i, struct sampler_wait_count *out, unsigned max);
/* The key with index key. 0 or -ERANGE. */
int sampler_wait_key(struct sampler *s, unsigned key, struct waitstate_key *out);
/* A copy of the whole run's wait-state accumulator (counts, hidden-wchan tallies). */
void sampler_wait_totals(struct sampler *s, struct waitstate_acc *out);
/* The sampler thread's own CPU time and the time it ran, after sampler_stop (both 0
 * before, or where the system has no per-thread CPU clock). */
void sampler_self_cpu(struct sampler *s, uint64_t *cpu_ns, uint64_t *wall_ns);

#endif
