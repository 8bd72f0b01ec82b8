/* procstat.h - the whole system's CPU split between two samples of /proc/stat's "cpu"
 * line, as iostat and mpstat compute it, and the page-cache gauges of /proc/meminfo
 * (Dirty, Writeback, Cached, MemFree, MemAvailable), so a buffered write's "where did it
 * go" is visible. observe/cpu.c keeps the per-phase busy figure; this is the split.
 * Linux (HAVE_PROC_STAT); elsewhere the readers return -ENOSYS. The parse and split
 * functions are pure and thread-safe; a reader belongs to one thread at a time. */
#ifndef IOB_OBSERVE_PROCSTAT_H
#define IOB_OBSERVE_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

/* The first "cpu" line of /proc/stat, in clock ticks (USER_HZ). guest and guest_nice are
 * already inside user and nice (the kernel counts them twice). */
struct procstat_cpu {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
	unsigned nfields;	/* numbers read (4 on very old kernels, 10 today); 0: none */
};

/* Percentages of all CPUs' time over an interval; user..idle add up to 100. */
struct procstat_split {
	double user, nice, system, iowait, irq, softirq, steal, idle;
	double guest, guest_nice;	/* parts of user and nice, for the record */
	uint64_t total_ticks;		/* the interval's ticks over all CPUs */
};

/* /proc/meminfo gauges in bytes. */
struct procstat_mem {
	uint64_t mem_free, mem_available, cached, dirty, writeback;
	unsigned have;		/* PROCSTAT_HAVE_* bits: which were present */
};
/* the bits follow the order of the fields above */
#define PROCSTAT_HAVE_FREE	0x01u
#define PROCSTAT_HAVE_AVAILABLE	0x02u
#define PROCSTAT_HAVE_CACHED	0x04u
#define PROCSTAT_HAVE_DIRTY	0x08u
#define PROCSTAT_HAVE_WRITEBACK	0x10u

/* Parse the "cpu " line at the start of text (the whole /proc/stat or its first line).
 * Returns 0 or -EINVAL. Pure. */
int procstat_parse_cpu(const char *text, struct procstat_cpu *out);
/* Parse /proc/meminfo text ("Dirty:   1234 kB" lines; NUL-terminated). Returns the
 * number of the five gauges found (0..5). Pure. */
int procstat_parse_meminfo(const char *text, struct procstat_mem *out);
/* The split between samples a and b (b later). Each share is its tick difference over
 * the total of user, nice, system, idle, iowait, irq, softirq and steal (guest is inside
 * user); a counter that went back counts 0, as sysstat does. iostat's %system is
 * system + irq + softirq here. Returns 0, or -EINVAL (every share 0) when a sample is
 * missing or no tick passed between them. Pure. */
int procstat_split(const struct procstat_cpu *a, const struct procstat_cpu *b,
		   struct procstat_split *out);

/* Open files kept between samples; owned by the caller. */
struct procstat_reader {
	int stat_fd, mem_fd;
	int stat_open, mem_open;
	char buf[4096];		/* the first 4 KiB of a file: the cpu line, every gauge */
};

/* Prepare a reader (opens nothing yet). */
void procstat_init(struct procstat_reader *r);
/* Read the cpu line now. 0 or -errno (-ENOSYS without /proc/stat). No allocation. */
int procstat_read_cpu(struct procstat_reader *r, struct procstat_cpu *out);
/* Read the gauges now. The count found (>= 1) or -errno. No allocation. */
int procstat_read_mem(struct procstat_reader *r, struct procstat_mem *out);
/* Close what is open. 0 or -errno. Idempotent. */
int procstat_close(struct procstat_reader *r);

#endif
