/* job_xopts.h - the fio options of a job beyond the first table (job_opts.c): the ones
 * fio's example job files and the tools that write job files use (io_size,
 * filename_format, offset_increment, CPU and NUMA binding, the data written, zones,
 * think time per blocks, exitall, unlink, the options that only change what is printed,
 * and the options fio takes that change nothing iobattery measures). They live in
 * struct job_xopts (job_def.xo) with a set mask of their own, parsed by the table of
 * job_opts_x.c; the buffer contents by job_buf.c. Plain values only (no pointers), so
 * a job_def copies them with a struct assignment. */
#ifndef IOB_WORKLOAD_JOB_XOPTS_H
#define IOB_WORKLOAD_JOB_XOPTS_H

#include <stdbool.h>
#include <stdint.h>

#define JOB_PATTERN_MAX		512	/* bytes of buffer_pattern */
#define JOB_XSTR_MAX		256	/* filename_format, cpus_allowed, wait_for ... */

enum job_zonemode {
	JOB_ZONE_NONE,
	JOB_ZONE_STRIDED,	/* zonesize bytes of I/O, then zoneskip bytes skipped */
	JOB_ZONE_ZBD,		/* a zoned block device: refused unless the files are one */
};

enum job_fileop {		/* fio's file-metadata engines (job_fileops.c) */
	JOB_FOP_NONE,
	JOB_FOP_CREATE,		/* filecreate */
	JOB_FOP_STAT,		/* filestat */
	JOB_FOP_DELETE,		/* filedelete */
	JOB_FOP_DCREATE,	/* dircreate (fio 3.37): mkdir */
	JOB_FOP_DSTAT,		/* dirstat: stat of a directory made untimed first */
	JOB_FOP_DDELETE,	/* dirdelete: rmdir of a directory made untimed first */
};

enum job_iometa {		/* fio's engines whose requests are metadata calls */
	JOB_IOM_NONE,
	JOB_IOM_FALLOC,		/* falloc: a write or read is a fallocate of its range */
	JOB_IOM_FTRUNCATE,	/* ftruncate: a write truncates the file to its offset */
};

enum job_coe {			/* continue_on_error */
	JOB_COE_NONE = 0,
	JOB_COE_READ = 1,
	JOB_COE_WRITE = 2,
	JOB_COE_IO = 3,		/* read and write */
	JOB_COE_VERIFY = 4,
	JOB_COE_ALL = 7,
};

enum job_exit_what {
	JOB_EXIT_GROUP,		/* fio's default: the jobs of the same step */
	JOB_EXIT_STONEWALL,
	JOB_EXIT_ALL,
};

#define JOB_CMDPRIO_MAX		16	/* cmdprio_bssplit entries a direction */

struct job_cmdprio_ent {	/* one cmdprio_bssplit entry */
	uint32_t bs;
	uint8_t perc;		/* of the requests of this size */
	uint8_t own;		/* its own class and level (BS/PERC/CLASS/LEVEL) */
	uint8_t cls, lvl;
};

struct job_cmdprio {		/* fio's priorities per request (job_cmdprio.c) */
	uint8_t pct[2];		/* cmdprio_percentage, reads and writes */
	uint8_t cls[2], lvl[2];	/* cmdprio_class (0: fio's default, real-time), cmdprio */
	uint8_t nsplit[2];	/* cmdprio_bssplit entries */
	struct job_cmdprio_ent split[2][JOB_CMDPRIO_MAX];
};

struct job_xopts {
	uint64_t set;			/* bit per row of job_opts_x.c's table */
	enum job_fileop fileop;		/* ioengine=filecreate ...: the thread does these */
	enum job_iometa iometa;		/* ioengine=falloc or ftruncate */
	uint64_t io_size;		/* bytes of I/O per loop, 0: size */
	uint64_t offset_increment;	/* added per clone: offset + clone x this */
	char filename_format[JOB_XSTR_MAX];	/* "" : fio's $jobname.$jobnum.$filenum */
	char cpus_allowed[JOB_XSTR_MAX];	/* a CPU list, "" : any */
	bool cpus_split;		/* cpus_allowed_policy=split: one CPU per clone */
	char numa_cpu_nodes[JOB_XSTR_MAX];	/* a node list, "" : any */
	char numa_mem_policy[64];	/* as given, "" : the default */
	/* what fio prints */
	bool disable_lat, disable_clat, disable_slat, disable_bw, gtod_reduce;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	/* the data written (job_buf.c) */
	unsigned char pattern[JOB_PATTERN_MAX];
	unsigned npattern;		/* 0: no buffer_pattern */
	bool refill_buffers, zero_buffers, scramble_buffers;
	unsigned compress_pct;		/* buffer_compress_percentage, 0: none */
	unsigned compress_chunk;	/* buffer_compress_chunk, 0: the whole block */
	unsigned dedupe_pct;		/* dedupe_percentage */
	bool dedupe_ws;			/* dedupe_mode=working_set */
	unsigned dedupe_ws_pct;		/* dedupe_working_set_percentage (50) */
	/* errors and ends */
	unsigned continue_on_error;	/* enum job_coe bits */
	bool exitall;
	enum job_exit_what exit_what;
	bool unlink;			/* remove the job's files at its end */
	bool unlink_each_loop;
	bool create_on_open;
	/* zones */
	enum job_zonemode zonemode;
	uint64_t zonesize, zonerange, zoneskip;
	/* pacing */
	unsigned thinktime_blocks;	/* thinktime after every N I/Os (1) */
	uint64_t ratemin[3];		/* bytes/s below which fio fails the job */
	int flow;			/* fio's flow weight (not enforced) */
	uint64_t latency_target, latency_window;	/* us */
	double latency_percentile;
	char wait_for[JOB_XSTR_MAX];	/* a job this one starts after */
	uint64_t verify_backlog;	/* fio verifies every N blocks; here after the steps */
	char ignore_error[JOB_XSTR_MAX];	/* as given */
	unsigned prio, prioclass;	/* the threads' I/O priority (set bits say given) */
	struct job_cmdprio cmdprio;	/* libaio and io_uring: a priority per request */
	/* where the options that change nothing iobattery does put their checked value */
	bool no_effect_flag;
	uint64_t no_effect_num;
};

#endif
