/* fio_fmt.h - what fio's two output forms (the human summary, text_job.c, and the JSON,
 * fio_json.c) share: the job workload's rows gathered into fio's jobs and groups, fio's
 * way of shortening numbers ("12.5k", "48.8MiB/s"), its latency-bucket distribution,
 * and figures read back from a row. Reads only the results model; thread-safe (no
 * state). */
#ifndef IOB_OUTPUT_FIO_FMT_H
#define IOB_OUTPUT_FIO_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct run;
struct row;
struct hist;

#define FIO_DIRS 4	/* read, write, trim, sync */

/* One of fio's job blocks: a report unit's rows by direction (NULL where none). */
struct fio_unit {
	const struct row *dir[FIO_DIRS];
	const struct row *first;	/* the first of them, for the unit's own figures */
	unsigned group;
	unsigned repeat;
};

/* The units of run in row order (repeat r only when r >= 0), into a malloc'd array the
 * caller frees; *n receives the count. NULL with *n 0 when there is none (or ENOMEM). */
struct fio_unit *fio_units(const struct run *run, int r, size_t *n);
/* The disk rows of repeat r (r < 0: all), in order, into out[0..max-1]. Count. */
size_t fio_disks(const struct run *run, int r, const struct row **out, size_t max);

/* fio's num2str: value shortened by 1000 (or 1024 when pow2) until its integer part has
 * at most maxlen digits, the room left filled with decimals, then the prefix (k M G ..,
 * or Ki Mi Gi ..) and unit. Returns buf. */
char *fio_num(char *buf, size_t len, double value, int maxlen, int pow2, const char *unit);

/* Whether fio's outputs show the latency what ("slat", "clat", "lat",
 * "clat_percentiles", "lat_percentiles") of w: its fio_latency_shown param; when absent
 * all but lat_percentiles (fio's defaults). */
int fio_lat_shown(const struct row *w, const char *what);
/* A metric of w, 0 when absent. */
double fio_metric(const struct row *w, const char *name);
/* A param of w as an unsigned number, dflt when absent. */
unsigned long fio_param_u(const struct row *w, const char *name, unsigned long dflt);

/* The percentile list of w (its percentile_list param, fio's 17 by default) into
 * p[0..max-1]. Returns the count. */
size_t fio_pctl(const struct row *w, double *p, size_t max);
/* fio's lat percentiles of w: the percentiles into p and the total latency at each (ns)
 * into v, [0..max-1]; from its lat_pctl_N_ns metrics (an asynchronous engine's) or else
 * its histogram (a synchronous engine's lat is its clat). The count, 0 with no
 * request. */
size_t fio_lat_pctl(const struct row *w, double *p, uint64_t *v, size_t max);
/* continue_on_error's figures of unit u: 1 with the requests passed over in *total
 * (fio's total_err) and the first one's errno in *first, 0 when its job has no
 * continue_on_error (fio then prints neither). */
int fio_unit_errors(const struct fio_unit *u, double *total, double *first);
/* fio's error of unit u: its errno, or else the first error continue_on_error passed
 * over (fio sets the job's error to it too). */
double fio_unit_errno(const struct fio_unit *u);
/* The sample standard deviation of h (fio's stddev). */
double fio_hist_sd(const struct hist *h);

/* fio's latency distribution buckets: 2 4 10 20 50 100 250 500 750 1000 ns, the same in
 * us, then 2 ... 2000 ms and >= 2000 ms. */
#define FIO_LAT_BKT	32
extern const unsigned fio_lat_edges[10];
/* Shares (percent of requests) of the latencies in h falling into each bucket: [0..9]
 * ns, [10..19] us, [20..29] ms (2 .. 1000), [30] 2000 ms, [31] beyond. Adds to out. */
void fio_lat_dist(const struct hist *h, double out[FIO_LAT_BKT]);

/* fio's steady-state line of a unit that judged it (the ss_* keys of w), or nothing:
 * "  steadystate  : attained=yes, bw=4160KiB/s (4260kB/s), iops=1039, iops mean dev=2.5%". */
void fio_ss_line(FILE *f, const struct row *w);

/* fio's json+ "bins": fio's latency histogram (stat.h in fio 3.33: FIO_IO_U_PLAT_BITS 6,
 * 29 groups, 1856 bins) has the layout of ours (stats/hist.h) up to its last bin: values
 * below 128 ns one bin each, then each power of two split into 64 equal bins, so bin i of
 * fio's and bucket i of ours hold the same values for i < FIO_PLAT_NR - 1. fio's last bin
 * takes every value from 2^34 - 2^27 ns (about 17 s) on, which ours keeps apart up to
 * 2^44 ns.
 * docs/methodology.md ("fio's json+ bins") says the same. */
#define FIO_PLAT_NR	1856
/* fio's bin of our bucket b (b < HIST_NBUCKETS): b itself, or the last bin. */
unsigned fio_plat_index(unsigned b);
/* The key fio's json+ writes for bin i (i < FIO_PLAT_NR): the bin's value in ns, i itself
 * below 128, else the middle of its range (an integer: the bins there are 2 ns wide or
 * more). */
uint64_t fio_plat_value(unsigned i);

#endif
