/* job.h - the front end of `iobattery job`: fio job files and fio-style command lines
 * parsed into validated job definitions, the canonical dump (as `fio --showcmd` prints it),
 * and the pure helpers the job's I/O loop draws from (block size, read/write mix, random
 * offsets).
 *
 * Syntax and meaning follow fio 3.33 (the fio Debian 12 ships), learnt from its parser's
 * behaviour, not its code:
 *   - ini sections; a section whose name starts with "global" sets defaults for the
 *     sections below it only; every other section is a job;
 *   - lines whose first non-blank is ';' or '#' are comments, and a ';' or '#' anywhere
 *     ends a line; "include FILE" (inside a section) reads options from FILE, relative
 *     to the current directory first, then to the including file's directory;
 *   - ${VAR} is replaced by the environment's value (empty when unset); $pagesize,
 *     $mb_memory and $ncpus by this machine's figures, after which a value holding
 *     + - * / is evaluated as integer arithmetic (as fio does through bc);
 *   - options are applied in file order, except kb_base first and filename last.
 * Sizes: digits, or 0x and hex digits, and a case-insensitive suffix b, k, kb, ki, m, mb,
 * mi, ... p (powers of kb_base, 1024 by default) or kib, mib, ... pib (powers of 1000
 * when kb_base is 1024, of 1024 when it is 1000). fio's manual says "1mi" is 10^6, but
 * fio 3.33 reads "1mi" as 1 MiB and only "1mib" as 10^6; we follow the program.
 * Times: digits and us, usec, ms, msec, s, m, h or d; runtime, ramp_time and startdelay
 * count seconds without a suffix, thinktime microseconds.
 *
 * Where fio accepts nonsense silently we refuse it by name: a suffix fio does not know
 * ("4q", "1sec", which fio reads as 1 us), a fraction ("1.5m", which fio reads as 1),
 * a negative count (numjobs=-1, which fio reads as 1), numjobs=0, nrfiles=0, junk after
 * a number, more values than directions, a bssplit that does not add up to 100, a
 * section header without its ']', an ioengine iobattery does not have. fio's verify=
 * with a checksum (md5, crc32c, sha256, ...) turns on iobattery's --verify, with a
 * warning that iobattery's own header and CRC32C are written instead of fio's (verify=0
 * is off; pattern, null and do_verify=0 are refused). Options fio
 * knows that iobattery does not implement (zonemode, verify_*, ...) are
 * errors naming the option; JOB_PARSE_IGNORE_UNKNOWN makes them warnings (they are then
 * ignored, but kept for the dump). An option fio does not know is always an error.
 *
 * Messages name the place: "job: 'x.fio' line 7, section [rand]: unknown option 'foo'"
 * (the caller prints it after "iobattery: "). No function here exits; the only output is
 * the warnings (through ctx.warn, stderr by default) and an error message when the
 * caller gives no buffer for it.
 *
 * Thread-safety: parsing reads the environment and, for include, files; it keeps no
 * global state, so two threads may parse into different lists. The generators depend only
 * on their arguments and state (a struct rng or job_offgen belongs to one thread). */
#ifndef IOB_WORKLOAD_JOB_H
#define IOB_WORKLOAD_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"
#include "workload/job/job_xopts.h"
#include "workload/job/job_logs.h"
#include "workload/job/job_ss.h"

struct engine;

#define JOB_BSSPLIT_MAX		64	/* fio's limit of bssplit entries per direction */
#define JOB_ZONES_MAX		256	/* of zoned distribution entries per direction */
#define JOB_PCTL_MAX		20	/* percentile_list entries */
#define JOB_NAME_MAX		255	/* section name length */
#define JOB_INCLUDE_DEPTH	16
#define JOB_IODEPTH_MAX		4096u	/* the request pool's (runner/ioctx.h IOCTX_MAX_DEPTH) */
#define JOB_NUMJOBS_MAX		4096u
#define JOB_PLAN_MAX_THREADS	4096u	/* threads in a run: numjobs summed (fio's limit) */
#define JOB_PLAN_MAX_FILES	(1u << 22)	/* files in a run: nrfiles x numjobs summed */
#define JOB_DEF_RANDSEED	0x89u	/* fio's default randseed */
#define JOB_DEF_ZIPF		1.1
#define JOB_DEF_PARETO		0.2

/* Directions with their own bs, ba, rate, bssplit, zones: fio's read, write and trim
 * values of such lists. */
enum job_ddir {
	JOB_READ = 0,
	JOB_WRITE = 1,
	JOB_TRIM = 2,
	JOB_DDIRS = 3,
};

enum job_rw {
	JOB_RW_READ,		/* read */
	JOB_RW_WRITE,		/* write */
	JOB_RW_RANDREAD,	/* randread */
	JOB_RW_RANDWRITE,	/* randwrite */
	JOB_RW_RW,		/* rw, readwrite: sequential mix */
	JOB_RW_RANDRW,		/* randrw */
	JOB_RW_TRIM,		/* trim: sequential trims (discards) */
	JOB_RW_RANDTRIM,	/* randtrim */
	JOB_RW_TRIMWRITE,	/* trimwrite: each block trimmed, then written (fio) */
	JOB_RW_RANDTRIMWRITE,	/* randtrimwrite: the same at random offsets */
};

enum job_sync {
	JOB_SYNC_NONE,		/* sync=none or 0 */
	JOB_SYNC_SYNC,		/* sync=sync or 1: O_SYNC */
	JOB_SYNC_DSYNC,		/* sync=dsync: O_DSYNC */
};

enum job_dist_kind {
	JOB_DIST_RANDOM,	/* uniform */
	JOB_DIST_ZIPF,		/* zipf:THETA[:CENTER] */
	JOB_DIST_PARETO,	/* pareto:H[:CENTER] */
	JOB_DIST_NORMAL,	/* normal:DEV[:CENTER], DEV in percent of the range */
	JOB_DIST_ZONED,		/* zoned:ACCESS/SIZE:...[,...] */
};

enum job_rate_process {
	JOB_RATE_LINEAR,
	JOB_RATE_POISSON,
};

struct job_split {
	uint64_t bs;		/* bytes */
	unsigned perc;		/* share in percent; blanks already filled in */
};

/* Block sizes of one direction, after the job is finished (job_def.bs[d]). */
struct job_bs {
	uint64_t min, max;	/* bs for both when fixed; bsrange or the bssplit extremes */
	uint64_t ba;		/* offset alignment: blockalign, default min */
	unsigned nsplit;	/* bssplit entries, 0 when none */
	struct job_split split[JOB_BSSPLIT_MAX];
};

struct job_zone {
	unsigned access;	/* percent of the accesses */
	unsigned size;		/* percent of the range, blanks filled in */
};

struct job_dist {
	enum job_dist_kind kind;
	double param;		/* zipf theta, pareto h, normal deviation in percent */
	double center;		/* 0..1, or -1 when not given */
	unsigned nzones[JOB_DDIRS];
	struct job_zone zones[JOB_DDIRS][JOB_ZONES_MAX];
};

/* The options iobattery implements; bit (1 << JOB_OPT_x) of job_def.set says the job (or
 * a global section above it) set it. */
enum job_opt_id {
	JOB_OPT_RW, JOB_OPT_RWMIXREAD, JOB_OPT_RWMIXWRITE, JOB_OPT_BS, JOB_OPT_BSRANGE,
	JOB_OPT_BSSPLIT, JOB_OPT_BA, JOB_OPT_SIZE, JOB_OPT_FILESIZE, JOB_OPT_NRFILES,
	JOB_OPT_FILENAME, JOB_OPT_DIRECTORY, JOB_OPT_OFFSET, JOB_OPT_IODEPTH,
	JOB_OPT_IODEPTH_BATCH, JOB_OPT_IODEPTH_BATCH_COMPLETE_MIN,
	JOB_OPT_IODEPTH_BATCH_COMPLETE_MAX, JOB_OPT_NUMJOBS,
	JOB_OPT_THREAD, JOB_OPT_IOENGINE, JOB_OPT_DIRECT, JOB_OPT_BUFFERED, JOB_OPT_SYNC,
	JOB_OPT_FSYNC, JOB_OPT_FDATASYNC, JOB_OPT_END_FSYNC, JOB_OPT_FSYNC_ON_CLOSE,
	JOB_OPT_RUNTIME, JOB_OPT_TIME_BASED, JOB_OPT_RAMP_TIME, JOB_OPT_STARTDELAY,
	JOB_OPT_LOOPS, JOB_OPT_NUMBER_IOS, JOB_OPT_RATE, JOB_OPT_RATE_IOPS,
	JOB_OPT_RATE_PROCESS, JOB_OPT_THINKTIME, JOB_OPT_RANDOM_DISTRIBUTION,
	JOB_OPT_RANDREPEAT, JOB_OPT_RANDSEED, JOB_OPT_NORANDOMMAP, JOB_OPT_PERCENTILE_LIST,
	JOB_OPT_GROUP_REPORTING, JOB_OPT_STONEWALL, JOB_OPT_NEW_GROUP, JOB_OPT_DESCRIPTION,
	JOB_OPT_NAME, JOB_OPT_KB_BASE, JOB_OPT_INVALIDATE,
	JOB_OPT_WRITE_IOLOG, JOB_OPT_VERIFY, JOB_OPT_DO_VERIFY,
	JOB_OPT_COUNT
};

#define JOB_SET(d, id)	(((d)->set >> (id)) & 1u)

#define JOB_EOPT_MAX	16	/* engine options one job (with its globals) sets */

/* An engine option a job set (an option some engine declares in its optdefs: io_uring's
 * fixedbufs ...), checked as fio checks it and kept until the job's engine is resolved
 * (job_prepare applies them with engine_opt_set). */
struct job_eopt {
	const char *name;	/* the optdef's name (static) */
	char value[24];		/* "1" or "0" for a flag, decimal digits for a number */
};

/* One job (a section, or the options after one --name). numjobs copies are the runner's
 * business; a job_def is one definition. Strings are owned by the job_def (job_list_free
 * frees them). Times are microseconds, sizes bytes. Fields hold fio's defaults unless
 * the job or a global section above it set them. */
struct job_def {
	char *name;		/* name= or the section name */
	char *section;		/* the section name */
	char *src;		/* file (or "command line") of the section header */
	unsigned src_line;	/* its line (argument index on a command line) */
	char *description;	/* NULL when none */
	char *filename;		/* raw, ':'-separated as fio (job_names_split), or NULL */
	char *directory;	/* raw, ':'-separated, or NULL */
	char *write_iolog;	/* fio's log of the requests issued, or NULL */
	struct job_logcfg logs;	/* fio's bw/lat/iops/hist logs (job_logs.h) */
	struct job_sscfg ss;	/* fio's steadystate (job_ss.h) */

	enum job_rw rw;
	unsigned rw_seq_nr;	/* randread:N: a new random offset every N I/Os (1) */
	int64_t rw_seq_add;	/* read:SIZE: skip SIZE bytes after each sequential I/O */
	unsigned rwmix[JOB_DDIRS];	/* rwmixread / rwmixwrite, add up to 100 (trim: 0) */

	uint64_t bs_opt[JOB_DDIRS];	/* bs= as given (default 4096) */
	uint64_t bsrange[JOB_DDIRS][2];	/* bsrange= low, high; 0 when not set */
	uint64_t ba_opt[JOB_DDIRS];	/* blockalign= as given, 0 when not set */
	struct job_bs bs[JOB_DDIRS];	/* the effective sizes (after job_list is built) */

	uint64_t size;		/* total bytes of I/O region; 0 = not set */
	unsigned size_pct;	/* size=N%: percent of the file or device; 0 = not set */
	uint64_t filesize[2];	/* filesize= low, high; 0 = not set */
	unsigned nrfiles;
	uint64_t offset;	/* offset= bytes */
	unsigned offset_pct;	/* offset=N% */

	unsigned iodepth;
	unsigned iodepth_batch;		/* iodepth_batch_submit; fio's rule: 0 or > iodepth
					 * becomes iodepth */
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;	/* completions one reap takes at most; fio's
					 * default (0): the min, so one at a time */
	unsigned numjobs;
	bool thread;
	/* ioengine=: the registry's engine, in this build or not (engine->absent: then
	 * job_prepare refuses it); psync by default */
	const struct engine *engine;
	const char *engine_name;	/* as spelled ("sync" or "psync" ...); static */

	bool direct;
	enum job_sync sync;
	unsigned fsync;		/* fsync every N writes, 0 = never */
	unsigned fdatasync;	/* fdatasync every N writes */
	bool end_fsync;
	bool fsync_on_close;

	uint64_t runtime;	/* us, 0 = not set */
	bool time_based;
	uint64_t ramp_time;	/* us */
	uint64_t startdelay[2];	/* us, low and high (equal unless a range was given) */
	unsigned loops;		/* at least 1 */
	uint64_t number_ios;	/* 0 = no limit */

	uint64_t rate[JOB_DDIRS];	/* bytes/s, 0 = unlimited */
	unsigned rate_iops[JOB_DDIRS];
	enum job_rate_process rate_process;
	uint64_t thinktime;	/* us between I/Os (at most 2^32 - 1, as fio) */

	struct job_dist dist;
	bool randrepeat;
	uint64_t randseed;
	bool norandommap;	/* also set by a non-uniform distribution or blockalign */

	unsigned npctl;
	double pctl[JOB_PCTL_MAX];	/* percentile_list (fio's 17 defaults) */

	bool invalidate;	/* drop the files' cached pages before the job (fio: 1) */
	bool verify;		/* verify=CHECKSUM: fio's check, served by iobattery's
				 * --verify (its own header and CRC32C, the whole run) */
	/* engine options, in the order first set; once the job is finished only its own
	 * engine's (a job section that sets another engine's is refused, one inherited
	 * from [global] is dropped, as fio does) */
	unsigned neopt;
	struct job_eopt eopt[JOB_EOPT_MAX];

	bool group_reporting;
	bool stonewall;
	bool new_group;
	unsigned kb_base;	/* 1024 or 1000 */

	uint64_t set;		/* bit JOB_OPT_x for each option set explicitly */
	struct job_xopts xo;	/* the options of the second table (job_xopts.h) */
};

/* One option as fio's --showcmd prints it: canonical name, value after ${VAR} and
 * keyword substitution exactly as written (NULL for a bare flag). */
struct job_optrec {
	char *name;
	char *value;
};

/* One section (or command-line group) in input order, with its options in the order
 * they were applied; for a global section, as fio's --showcmd prints it, every global
 * option set so far (by the global sections above it too). job is the index in
 * job_list.jobs, or -1 for a global section. */
struct job_sect {
	char *name;
	bool global;
	long job;
	size_t nopts;
	struct job_optrec *opts;
};

#define JOB_PARSE_IGNORE_UNKNOWN	0x1u	/* fio options we lack: warn, not fail */
#define JOB_PARSE_NO_INCLUDE		0x2u	/* "include" is an error: no file access */

/* Parse settings. Zero values mean: ask the system (pagesize, ncpus, mb_memory) and
 * print warnings on stderr with err_msg. */
struct job_pctx {
	unsigned flags;
	void (*warn)(void *arg, const char *msg);	/* msg without "iobattery: " */
	void *warn_arg;
	uint64_t pagesize;	/* $pagesize */
	uint64_t ncpus;		/* $ncpus (CPUs configured) */
	uint64_t mb_memory;	/* $mb_memory (MiB of RAM) */
};

struct job_list {
	struct job_pctx ctx;	/* set by the caller between job_list_init and parsing */
	size_t njobs;
	struct job_def *jobs;
	size_t nsects;
	struct job_sect *sects;
};

/* Empty list with default settings. */
void job_list_init(struct job_list *l);
/* Free every job and section; the list is empty again (ctx kept). */
void job_list_free(struct job_list *l);

/* Parse len bytes of job-file text named name (for messages and for resolving relative
 * includes) and append its jobs and sections to out; each call starts from fio's
 * defaults (a [global] of an earlier call does not carry over). Touches no file except through
 * "include", which JOB_PARSE_NO_INCLUDE in out->ctx.flags refuses. A NUL byte is a
 * syntax error. On error writes one message (no "iobattery: ", no newline) into err
 * (or prints it when err is NULL) and returns -EINVAL (-ENOMEM when out of memory); out
 * then holds what was parsed before the error and must still be freed. A file with no
 * job section is not an error (njobs stays 0), as in fio --parse-only. */
int job_parse_buf(const char *buf, size_t len, const char *name, struct job_list *out,
		  char *err, size_t errlen);

/* job_parse_buf on the contents of path. Returns as job_parse_buf, or -errno when path
 * cannot be read (the message says why). */
int job_parse_file(const char *path, struct job_list *out, char *err, size_t errlen);

/* Parse fio-style options: argv[0..argc-1] are "--opt=value", "--opt value" (for options
 * that take a value) or "--flag", applied in the order given (no ${VAR} or keyword
 * substitution: the shell has done it). Options before the first --name=NAME are global;
 * each --name starts a job. When no --name is given the options make one job named "job"
 * (fio would say "no jobs defined"). An argument not starting with "--" is an error.
 * Returns as job_parse_buf; messages count argv[0] as argument 1 ("command line
 * argument 3, section [a]: ..."). */
int job_parse_argv(int argc, char *const argv[], struct job_list *out, char *err,
		   size_t errlen);

/* The list as `fio --showcmd` prints it: "fio ", then per section "--name=NAME " (not for
 * global ones) and its options ("--opt=value " or "--opt "), description in double
 * quotes, then "\n". Returns a malloc'd string (caller frees) or NULL when out of memory. */
char *job_showcmd(const struct job_list *l);

/* The value job d gives engine option name ("1" for a bare flag), or NULL when it sets
 * none of that name. Points into d. */
const char *job_def_eopt(const struct job_def *d, const char *name);

/* Split a ':'-separated filename/directory list as fio does ("\:" is a colon inside a
 * name, empty names are skipped). *names is a malloc'd array of *n malloc'd strings
 * (job_names_free frees it). Returns 0 or -ENOMEM. */
int job_names_split(const char *list, char ***names, unsigned *n);
void job_names_free(char **names, unsigned n);

/* ---- helpers for the I/O loop (job_gen.c); pure, thread-safe on distinct states ---- */

/* The block size of one I/O from 64 random bits r: fixed bs; for bsrange fio's rule
 * (min + r * max, rounded down to a multiple of min, at most max: uniform over the
 * multiples of min when max is one); for bssplit the entry whose share holds r (the
 * size rounded down to a multiple of min, as fio does). */
uint64_t job_bs_pick(const struct job_bs *b, uint64_t r);
/* A block size that fits in room bytes: draws from r until one fits (at most 64 draws,
 * then the largest candidate that fits). Returns 0 when not even min fits. */
uint64_t job_bs_next(const struct job_bs *b, struct rng *r, uint64_t room);

/* Whether this job issues reads, writes, trims, and is random. A trimwrite job both
 * trims and writes (each write goes where the trim before it went). */
bool job_rw_reads(enum job_rw rw);
bool job_rw_writes(enum job_rw rw);
bool job_rw_trims(enum job_rw rw);
bool job_rw_random(enum job_rw rw);
/* Whether it changes its files' data: writes or trims. */
bool job_rw_modifies(enum job_rw rw);
/* fio's name of rw ("randtrim"). Static string. */
const char *job_rw_name(enum job_rw rw);
/* Direction of the next I/O: fixed for pure modes (trim for the trimwrite ones, whose
 * writes follow their trims); for mixed ones read when
 * 1 + rng_below(100) <= rwmix[JOB_READ] (fio's rule). */
enum job_ddir job_ddir_next(const struct job_def *d, struct rng *r);

/* The number of blocks (units of bs[d].ba) a random offset is drawn from in span bytes,
 * so that a min-sized I/O at the last one still fits (fio's last_block). 0 when none. */
uint64_t job_rand_blocks(const struct job_bs *b, uint64_t span);

/* A keyed bijection of [0, n) (cycle-walking over a mixing permutation of the next power
 * of two): scatters hot ranks over a file, and orders a pass of the random map. */
struct job_perm {
	uint64_t n, mask;
	unsigned shift;
	uint64_t k[3], m[3];
};
void job_perm_init(struct job_perm *p, uint64_t n, struct rng *r);
uint64_t job_perm_apply(const struct job_perm *p, uint64_t x);

/* Random block generator for one direction of a job. */
struct job_offgen {
	enum job_dist_kind kind;
	bool map;		/* uniform with the random map: each block once per pass */
	bool scatter;		/* ranks scattered by perm (no center given) */
	uint64_t n;		/* blocks */
	uint64_t shift;		/* center * n (ranks start there) */
	uint64_t pos;		/* position in the current random-map pass */
	uint64_t pass;		/* completed passes */
	struct job_perm perm;
	/* zipf (rejection-inversion, Hoermann and Derflinger 1996) */
	double theta, h_x1, h_n, s;
	/* pareto */
	double pareto_pow;
	/* normal, fio's construction: mean of 12 uniform draws plus a uniform deviation */
	uint64_t stddev;
	/* zoned: cumulative access percent -> [start, end) block of its zone */
	unsigned nzones;
	unsigned zone_acc[JOB_ZONES_MAX];
	uint64_t zone_lo[JOB_ZONES_MAX], zone_len[JOB_ZONES_MAX];
};

/* Set up g for job d, direction dir, over n > 0 blocks; keys are drawn from r. The
 * random map is used for a uniform distribution unless d->norandommap. Returns 0 or
 * -EINVAL (n == 0). */
int job_offgen_init(struct job_offgen *g, const struct job_def *d, enum job_ddir dir,
		    uint64_t n, struct rng *r);
/* The next block index in [0, n). With the random map, every block comes exactly once
 * per pass of n draws; the next pass has a new order. */
uint64_t job_offgen_next(struct job_offgen *g, struct rng *r);
/* The rank (0 = hottest) a zipf/pareto draw produced before scattering, for tests:
 * the same draw as job_offgen_next without the mapping to a block. */
uint64_t job_offgen_rank(struct job_offgen *g, struct rng *r);

#endif
