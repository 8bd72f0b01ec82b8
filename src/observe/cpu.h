/* cpu.h - CPU accounting for a phase: this process's user and system time (getrusage,
 * all threads, as Bonnie++ %CPU) and the whole system's busy time (/proc/stat on Linux,
 * kern.cp_time on the BSDs, so kernel writeback and journal threads, or a database
 * server, count too).
 * Thread-safe (no shared state). */
#ifndef IOB_OBSERVE_CPU_H
#define IOB_OBSERVE_CPU_H

#include <stdint.h>

struct row_cpu;

struct cpu_sample {
	uint64_t wall_ns;		/* clock_ns() */
	uint64_t user_ns, sys_ns;	/* this process */
	uint64_t busy_ticks, total_ticks;	/* whole system; 0/0 when unknown */
};

/* Take a sample now. Never fails (unknown parts stay 0). */
void cpu_sample_now(struct cpu_sample *s);
/* Fill out from two samples (b after a) for a phase that did ops operations. */
void cpu_fill(struct row_cpu *out, const struct cpu_sample *a, const struct cpu_sample *b,
	      uint64_t ops);
/* Number of online CPUs (>= 1). */
unsigned cpu_count(void);

/* cpu_bsd.c, only where configure found kern.cp_time (HAVE_KERN_CP_TIME); UNTESTED here.
 * The whole system's busy and total statclock ticks (all CPUs) into *busy and *total:
 * 0 or -errno. */
int cpu_bsd_cp_time(uint64_t *busy, uint64_t *total);
/* The statclock rate kern.cp_time counts in (kern.clockrate's stathz), > 0. */
long cpu_bsd_tick_hz(void);

#endif
