/* result_sys.h - what the system did during a phase, in the results model: a row's
 * "system" object (device figures per device of the target's stack, write amplification,
 * the whole system's CPU split, page-cache gauges at start and end, wait-state shares)
 * and its "series" object (the same per interval, with the workload's ops, bytes and
 * latency percentiles). The runner fills them from the phase's sampler
 * (runner/phase_sample.c); JSON, the store, the formatters and the report read them.
 * Values are doubles, NaN where unknown or not applicable (JSON null); counts are kept
 * exactly (below 2^53). Key names are the RK_SYS_, RK_DEV_, RK_WAIT_, RK_SER_ and
 * RK_SERDEV_ constants of result_keys.h; the tables below give each value its key.
 * Ownership: a row owns its sys and series (freed by run_free); not thread-safe. */
#ifndef IOB_STATS_RESULT_SYS_H
#define IOB_STATS_RESULT_SYS_H

#include <stddef.h>
#include <stdint.h>

struct row;
struct run;

/* ---- per phase ---- */

/* One device of the stack: the iostat -dx figures over the phase. */
enum rsys_dev_fig {
	RSD_RD_BYTES, RSD_WR_BYTES,
	RSD_R_S, RSD_W_S, RSD_RKB_S, RSD_WKB_S, RSD_RRQM_S, RSD_WRQM_S,
	RSD_R_AWAIT, RSD_W_AWAIT, RSD_AQU_SZ, RSD_RAREQ_SZ, RSD_WAREQ_SZ, RSD_UTIL,
	RSD_D_S, RSD_DKB_S, RSD_D_AWAIT, RSD_F_S, RSD_F_AWAIT,	/* NaN: kernel has none */
	RSD_N
};

struct row_sys_dev {
	char *name;			/* "sda1" */
	char *role;			/* "top", "disk", "member", "backing" */
	double v[RSD_N];
};

/* Scalars of the phase. */
enum rsys_fig {
	RS_WL_READ, RS_WL_WRITTEN,	/* bytes the workers read and wrote (task I/O) */
	RS_WRITE_AMP,			/* device bytes written / RS_WL_WRITTEN */
	RS_CPU_USER, RS_CPU_NICE, RS_CPU_SYSTEM, RS_CPU_IOWAIT, RS_CPU_IRQ, RS_CPU_SOFTIRQ,
	RS_CPU_STEAL, RS_CPU_IDLE,	/* % of all CPUs' time */
	RS_DIRTY0, RS_DIRTY1, RS_WB0, RS_WB1, RS_CACHED0, RS_CACHED1,	/* bytes */
	RS_WAIT_PASSES, RS_WAIT_OBS,	/* wait-state passes and thread observations */
	RS_SAMPLER_CPU_S,		/* the sampler thread's own CPU */
	RS_N
};

/* One (state, wchan, syscall) with its share of the phase's observations. */
struct row_sys_wait {
	char state;			/* 'R', 'S', 'D' ... */
	char *wchan;			/* "" when running or hidden */
	char *syscall;			/* "" when unknown */
	double count;			/* observations */
	double share_pct;		/* count / observations x 100 */
};

struct row_sys {
	char *devices_reason;		/* why there are no device figures, or NULL */
	struct row_sys_dev *dev;	/* ndev devices, dev[0] the top */
	size_t ndev;
	double v[RS_N];
	int wchan_hidden;		/* 1 hidden, 0 names read, -1 unknown (null) */
	struct row_sys_wait *wait;	/* nwait entries, largest share first */
	size_t nwait;
};

/* ---- per interval ---- */

enum rser_col {
	RSE_T_NS,			/* end of the interval, from the phase's start */
	RSE_OPS, RSE_BYTES,		/* completed in the interval */
	RSE_P50, RSE_P99, RSE_MAX,	/* latency ns of those; NaN when none */
	RSE_CPU_USER, RSE_CPU_SYSTEM, RSE_CPU_IOWAIT, RSE_CPU_STEAL, RSE_CPU_IDLE,
	RSE_DIRTY, RSE_WB,		/* gauges at the end of the interval */
	RSE_TEMP_C,			/* the device's temperature at the end of the
					 * interval, degrees Celsius (sustained); NaN
					 * unknown, and left out of the JSON when all are */
	RSE_N
};

enum rser_dcol {
	RSED_UTIL, RSED_AQU, RSED_R_S, RSED_W_S, RSED_RKB_S, RSED_WKB_S, RSED_R_AWAIT,
	RSED_W_AWAIT,
	RSED_N
};

struct row_series_dev {
	char *name;
	double *v[RSED_N];		/* n values each */
};

struct row_series {
	uint64_t interval_ns;		/* the intervals' length (the last may be shorter) */
	size_t n;			/* intervals */
	double *v[RSE_N];		/* n values each */
	struct row_series_dev *dev;
	size_t ndev;
};

/* The key and kind of each value: name as JSON spells it, 1 for an integer. */
struct rsys_key {
	const char *name;
	int integer;
};
extern const struct rsys_key rsys_dev_keys[RSD_N];
extern const struct rsys_key rsys_keys[RS_N];
extern const struct rsys_key rser_keys[RSE_N];
extern const struct rsys_key rser_dev_keys[RSED_N];

/* A row_sys with every value NaN, wchan_hidden -1; NULL on ENOMEM. */
struct row_sys *row_sys_new(void);
/* Room for n devices (names NULL, values NaN); 0 or -ENOMEM. */
int row_sys_set_devs(struct row_sys *s, size_t n);
/* Room for n wait entries; 0 or -ENOMEM. */
int row_sys_set_waits(struct row_sys *s, size_t n);
void row_sys_free(struct row_sys *s);

/* A series of n intervals (values NaN) and ndev devices (names NULL), interval_ns 0;
 * NULL on ENOMEM. */
struct row_series *row_series_new(size_t n, size_t ndev);
void row_series_free(struct row_series *s);

/* ---- flags from these figures (docs/results-schema.md, "flags") ---- */

#define RSYS_STEAL_PCT		5.0	/* steal: over this share of the CPU time */
#define RSYS_IDLE_SHARE		0.10	/* device_idle: the device moved under this share */
#define RSYS_PENDING_SHARE	0.10	/* writeback_pending: over this share still dirty */
#define RSYS_MIN_BYTES		(1u << 20)	/* device_idle: phases moving less never */
#define RSYS_PENDING_MIN	(16u << 20)	/* writeback_pending: phases writing less
						 * never (Dirty is the whole system's) */

/* The flag bits (ROW_STEAL, ROW_DEVICE_IDLE, ROW_WRITEBACK_PENDING) that row w's figures
 * call for; 0 without figures. Reads rate_unit, durable_ns and the cache flag too, so
 * call it once the workload has filled the row. Pure. */
unsigned row_sys_flags(const struct row *w);
/* Set those flags on every row of run that has figures (common_mark does). */
void result_sys_flag_run(struct run *run);
/* The device of w's figures whose bytes stand for the disk: the top device, or its whole
 * disk when the top is a partition; NULL when there are none. */
const struct row_sys_dev *row_sys_disk(const struct row *w);

#endif
