/* result_keys.h - the result schema: every key a run or a row carries, declared once.
 *
 * A key table lists, per workload (dd, cp, bonnie, postmark, db, fsync), the row params, the
 * row metrics and the run options that workload writes by name; shared tables list the
 * keys only imports write, and the fixed fields of the JSON document (top level, env,
 * row, cpu, latency, metric objects). Each declaration gives the name as the JSON spells
 * it, the unit, the kind (field, param, metric, option), whether it decides
 * comparability, its roles for generic readers, and a one-line meaning. Code spells a
 * key through the RK_ constant below (a misspelt constant does not compile) or finds it
 * with result_key_find(); the unit test t_result_keys checks every table against
 * docs/results-schema.md both ways, and tests/cli/result_keys_declared.sh checks that
 * every param and metric the real workloads write is declared with its unit.
 *
 * How to add a figure (a param, a metric or an option of workload W):
 *   1. add `#define RK_W_NAME "name"` in W's block below;
 *   2. add one line to W's table in result_keys_wl.c: name, unit, kind, comparability
 *      (a param that changes what is measured is RK_CMP_VALUE or RK_CMP_DEFINES), roles
 *      and meaning; the same name in another table must have the same unit;
 *   3. write it with the constant (kv_set(&row->params, RK_W_NAME, ...),
 *      row_add_metric(row, RK_W_NAME, v, "unit")) and read it with the same constant;
 *   4. add a line to W's section of docs/results-schema.md (make check fails until then).
 * A new workload adds its block here, its table in result_keys_wl.c and one line in
 * result_key_tables[]; generic readers (compare, the report) then know its keys.
 *
 * Names holding a capital N ("copyN_rate") stand for a family: N is a decimal number >= 1.
 * Everything here is constant data: thread-safe, nothing to free. */
#ifndef IOB_STATS_RESULT_KEYS_H
#define IOB_STATS_RESULT_KEYS_H

#include <stddef.h>

struct row;

/* What a key is: a fixed field of the JSON document, or an entry of a row's params, of a
 * row's metrics, of the run's options. A key may be both param and option (bonnie and
 * postmark record their settings in both places). */
enum rk_kind {
	RK_FIELD	= 1u << 0,
	RK_PARAM	= 1u << 1,
	RK_METRIC	= 1u << 2,
	RK_OPTION	= 1u << 3,
};

/* Whether two rows (same workload and phase) that differ in a param may be compared.
 * A param no table declares counts as RK_CMP_VALUE. */
enum rk_cmp {
	RK_CMP_NONE = 0,	/* a label, or what was asked rather than used: never refuses */
	RK_CMP_VALUE,		/* different values refuse; present on one side only does not
				 * (an imported run knows fewer params than a measured one) */
	RK_CMP_DEFINES,		/* it names the method: also refuses when one side lacks it */
};

/* The unit of a key whose values are in the row's own rate_unit (Bonnie's per-copy rates
 * are K/sec, seeks/s or files/s as the row's rate is). */
#define RK_UNIT_RATE	"(rate_unit)"

/* What generic readers look a key up for, instead of knowing a workload's key names. */
enum rk_role {
	RK_ROLE_DATA_SIZE	= 1u << 0,	/* the data-set size (its unit: B or MiB) */
	RK_ROLE_LABEL		= 1u << 1,	/* a short text telling a workload's rows apart */
};

struct result_key {
	const char *name;		/* as the JSON spells it */
	const char *unit;		/* "B", "MiB", "ns", "s", "files", "bool" ...; "": none */
	unsigned kind;			/* enum rk_kind bits */
	enum rk_cmp cmp;		/* params only */
	const char *differs;		/* compare's words for a difference ("different block
					 * sizes"); such keys are reported first, in table order.
					 * NULL: "different parameter" */
	unsigned roles;			/* enum rk_role bits */
	const char *meaning;		/* one line */
};

struct result_key_table {
	const char *name;		/* "dd", "import", "run", "env", "row" ... */
	const char *workload;		/* the rows it is for; NULL for a shared table */
	const struct result_key *keys;
	size_t n;
};

/* Every table, NULL-terminated: the workloads' first, then the shared ones in lookup
 * order (import, row), then the document's other objects (run, env, cpu, latency,
 * metric; ranks, rank, row_rank: the members a multi-rank run adds). */
extern const struct result_key_table *const result_key_tables[];

/* The table called name, or NULL. */
const struct result_key_table *result_key_table(const char *name);
/* The tables a row of workload sees, in lookup order, into t[0..max-1]: its workload's
 * table, then the shared ones; every table when the workload has none (a result from a
 * newer version). Returns the count. */
size_t result_key_scope(const char *workload, const struct result_key_table **t, size_t max);
/* The declaration of name as a key of kind (one RK_ bit) for rows of workload, searched
 * in scope order; NULL when undeclared. workload may be NULL (every table). */
const struct result_key *result_key_find(const char *workload, unsigned kind,
					 const char *name);
/* 1 when name is the key k names (a family "copyN_rate" matches "copy12_rate"). */
int result_key_matches(const struct result_key *k, const char *name);
/* The value of the first param of row w (in its scope's order) that has role, or NULL;
 * *key (may be NULL) receives its declaration. */
const char *result_key_role_param(const struct row *w, unsigned role,
				  const struct result_key **key);
/* Bytes in one unit of a size unit: "B" 1, "KiB" 1024, "MiB" 2^20, "GiB" 2^30; 0 for
 * anything else. */
double result_key_unit_bytes(const char *unit);

/* The words a note holding a cache verdict contains ("cache: 97% resident - ...", as
 * observe/cache.c's cache_verdict writes it; docs/results-schema.md, `note`). */
#define RK_NOTE_CACHE_MARK	"cache:"
/* 1 when row w's note already states the cache residency (it holds RK_NOTE_CACHE_MARK),
 * so that a reader does not say it twice; else 0. */
int result_note_states_cache(const struct row *w);

/* The snake_case name of one row flag bit (ROW_SHORT -> "short"), as JSON and CSV write
 * it; NULL for a bit that has no name. Static string. */
const char *result_flag_name(unsigned flag);
/* The flag bit called name, or 0. */
unsigned result_flag_of(const char *name);
/* What a flag means, one line (the "flags" section of docs/results-schema.md); NULL for a
 * bit without a name. */
const char *result_flag_meaning(unsigned flag);

/* ---- the top level of a result document (table "run") ----------------------------- */
#define RK_RUN_SCHEMA_VERSION	"schema_version"
#define RK_RUN_TOOL		"tool"
#define RK_RUN_ID		"id"
#define RK_RUN_LABEL		"label"
#define RK_RUN_WORKLOAD		"workload"
#define RK_RUN_COMMAND_LINE	"command_line"
#define RK_RUN_STATUS		"status"
#define RK_RUN_INCOMPLETE	"incomplete"
#define RK_RUN_IMPORTED		"imported"
#define RK_RUN_ERROR		"error"
#define RK_RUN_OPTIONS		"options"
#define RK_RUN_ENV		"env"
#define RK_RUN_ROWS		"rows"
#define RK_RUN_DIGEST		"digest"

/* ---- env (table "env") ---------------------------------------------------------------- */
#define RK_ENV_TOOL_VERSION	"tool_version"
#define RK_ENV_DATE		"date"
#define RK_ENV_HOST		"host"
#define RK_ENV_OS		"os"
#define RK_ENV_KERNEL		"kernel"
#define RK_ENV_ARCH		"arch"
#define RK_ENV_CPU_MODEL	"cpu_model"
#define RK_ENV_NCPU		"ncpu"
#define RK_ENV_RAM_BYTES	"ram_bytes"
#define RK_ENV_TARGET		"target"
#define RK_ENV_FS_TYPE		"fs_type"
#define RK_ENV_MOUNT_OPTS	"mount_opts"
#define RK_ENV_MOUNT_POINT	"mount_point"
#define RK_ENV_DEVICE		"device"
#define RK_ENV_DEVICE_MODEL	"device_model"
#define RK_ENV_ROTATIONAL	"rotational"
#define RK_ENV_SCHEDULER	"scheduler"
#define RK_ENV_VIRTUALIZED	"virtualized"

/* ---- a row's fields, and the params every workload may set (table "row") --------------- */
#define RK_ROW_WORKLOAD		"workload"
#define RK_ROW_PHASE		"phase"
#define RK_ROW_REPEAT		"repeat"
#define RK_ROW_PARAMS		"params"
#define RK_ROW_BYTES		"bytes"
#define RK_ROW_OPS		"ops"
#define RK_ROW_ELAPSED_NS	"elapsed_ns"
#define RK_ROW_BUFFERED_NS	"buffered_ns"
#define RK_ROW_DURABLE_NS	"durable_ns"
#define RK_ROW_RATE		"rate"
#define RK_ROW_RATE_UNIT	"rate_unit"
#define RK_ROW_CPU		"cpu"
#define RK_ROW_LATENCY		"latency"
#define RK_ROW_CACHE_PCT	"cache_pct"
#define RK_ROW_CACHE_DROPPED	"cache_dropped"
#define RK_ROW_FLAGS		"flags"
#define RK_ROW_ERROR		"error"
#define RK_ROW_NOTE		"note"
#define RK_ROW_METRICS		"metrics"
#define RK_ROW_DETAIL		"detail"	/* param, role label */
#define RK_ROW_FS		"fs"		/* params the battery's matrix sets */
#define RK_ROW_FS_CONFIG	"fs_config"
#define RK_ROW_MKFS_OPTIONS	"mkfs_options"
#define RK_ROW_MOUNT_OPTIONS	"mount_options"
#define RK_ROW_READ_METHOD	"read_method"	/* a battery read: drop, direct, 2x_ram */
#define RK_ROW_SYSTEM		"system"
#define RK_ROW_SERIES		"series"
#define RK_ROW_DEVICE_LATENCY	"device_latency"
#define RK_ROW_CEILING		"ceiling"

/* ---- block-layer latency (tables "device_latency", "device_latency_part";
 * stats/result_devlat.h) and ceilings (tables "ceilings" in env, "ceiling" per row;
 * stats/result_ceiling.h), declared in result_keys_dev.c ---- */
#define RK_DL_REASON		"reason"
#define RK_DL_DEVICES		"devices"
#define RK_DL_REQUESTS		"requests"
#define RK_DL_UNSTAMPED		"unstamped"
#define RK_DL_UNISSUED		"unissued"
#define RK_DL_DS_REQUESTS	"diskstats_requests"
#define RK_DL_DS_AWAIT		"diskstats_await_ms"
#define RK_DL_WINDOW_NS		"window_ns"
#define RK_DL_PROGRAM_NS	"program_ns"
#define RK_DL_OPS		"ops"
#define RK_DL_DEVICE		"device"
#define RK_DL_QUEUE		"queue"
#define RK_DL_N			"n"
#define RK_DL_MEAN_NS		"mean_ns"
#define RK_DL_P50_NS		"p50_ns"
#define RK_DL_P99_NS		"p99_ns"
#define RK_DL_MAX_NS		"max_ns"
#define RK_DL_HISTOGRAM		"histogram"
#define RK_ENV_CEILINGS		"ceilings"
#define RK_CEIL_LINK_KIND	"link_kind"
#define RK_CEIL_LINK		"link"
#define RK_CEIL_LINK_DEVICE	"link_device"
#define RK_CEIL_LINK_BYTES_S	"link_bytes_s"
#define RK_CEIL_MEMORY_BYTES_S	"memory_copy_bytes_s"
#define RK_CEIL_APPLIES		"applies"
#define RK_CEIL_RATE_BYTES_S	"rate_bytes_s"
#define RK_CEIL_RATE_OPS_S	"rate_ops_s"
#define RK_CEIL_TOOL_OPS_S	"tool_ops_s"
#define RK_CEIL_TOOL_BYTES_S	"tool_bytes_s"
#define RK_CEIL_TOOL_CPU	"tool_cpu_ns_per_op"
#define RK_CEIL_TOOL_SETTINGS	"tool_settings"

/* ---- what the system did during the phase (tables "system", "device", "wait") -------- */
#define RK_SYS_DEVICES_REASON	"devices_reason"
#define RK_SYS_DEVICES		"devices"
#define RK_SYS_WL_READ		"workload_read_bytes"
#define RK_SYS_WL_WRITTEN	"workload_written_bytes"
#define RK_SYS_WRITE_AMP	"write_amplification"
#define RK_SYS_CPU_USER		"cpu_user_pct"
#define RK_SYS_CPU_NICE		"cpu_nice_pct"
#define RK_SYS_CPU_SYSTEM	"cpu_system_pct"
#define RK_SYS_CPU_IOWAIT	"cpu_iowait_pct"
#define RK_SYS_CPU_IRQ		"cpu_irq_pct"
#define RK_SYS_CPU_SOFTIRQ	"cpu_softirq_pct"
#define RK_SYS_CPU_STEAL	"cpu_steal_pct"
#define RK_SYS_CPU_IDLE		"cpu_idle_pct"
#define RK_SYS_DIRTY_START	"dirty_start_bytes"
#define RK_SYS_DIRTY_END	"dirty_end_bytes"
#define RK_SYS_WB_START		"writeback_start_bytes"
#define RK_SYS_WB_END		"writeback_end_bytes"
#define RK_SYS_CACHED_START	"cached_start_bytes"
#define RK_SYS_CACHED_END	"cached_end_bytes"
#define RK_SYS_WAIT_PASSES	"wait_passes"
#define RK_SYS_WAIT_OBS		"wait_observations"
#define RK_SYS_WCHAN_HIDDEN	"wchan_hidden"
#define RK_SYS_WAIT		"wait"
#define RK_SYS_SAMPLER_CPU_S	"sampler_cpu_s"

#define RK_DEV_NAME		"name"
#define RK_DEV_ROLE		"role"
#define RK_DEV_RD_BYTES		"rd_bytes"
#define RK_DEV_WR_BYTES		"wr_bytes"
#define RK_DEV_R_S		"r_s"
#define RK_DEV_W_S		"w_s"
#define RK_DEV_RKB_S		"rkb_s"
#define RK_DEV_WKB_S		"wkb_s"
#define RK_DEV_RRQM_S		"rrqm_s"
#define RK_DEV_WRQM_S		"wrqm_s"
#define RK_DEV_R_AWAIT		"r_await_ms"
#define RK_DEV_W_AWAIT		"w_await_ms"
#define RK_DEV_AQU_SZ		"aqu_sz"
#define RK_DEV_RAREQ_SZ		"rareq_sz_kb"
#define RK_DEV_WAREQ_SZ		"wareq_sz_kb"
#define RK_DEV_UTIL		"util_pct"
#define RK_DEV_D_S		"d_s"
#define RK_DEV_DKB_S		"dkb_s"
#define RK_DEV_D_AWAIT		"d_await_ms"
#define RK_DEV_F_S		"f_s"
#define RK_DEV_F_AWAIT		"f_await_ms"

#define RK_WAIT_STATE		"state"
#define RK_WAIT_WCHAN		"wchan"
#define RK_WAIT_SYSCALL		"syscall"
#define RK_WAIT_COUNT		"count"
#define RK_WAIT_SHARE		"share_pct"

/* ---- the per-interval series (tables "series", "series_device") --------------------- */
#define RK_SER_INTERVAL_NS	"interval_ns"
#define RK_SER_T_NS		"t_ns"
#define RK_SER_OPS		"ops"
#define RK_SER_BYTES		"bytes"
#define RK_SER_P50		"lat_p50_ns"
#define RK_SER_P99		"lat_p99_ns"
#define RK_SER_MAX		"lat_max_ns"
#define RK_SER_CPU_USR		"cpu_usr_pct"
#define RK_SER_CPU_SYS		"cpu_sys_pct"
#define RK_SER_CPU_IOWAIT	"cpu_iowait_pct"
#define RK_SER_CPU_STEAL	"cpu_steal_pct"
#define RK_SER_CPU_IDLE		"cpu_idle_pct"
#define RK_SER_DIRTY		"dirty_bytes"
#define RK_SER_WB		"writeback_bytes"
#define RK_SER_TEMP_C		"temp_c"
#define RK_SER_DEVICES		"devices"

/* ---- several ranks (mpirun): row params and metrics (table "row"), the row's per-rank
 * objects (table "row_rank") and the run's (table "rank") ----------------------------- */
#define RK_ROW_RANKS		"ranks"		/* field: the row's per-rank objects */
#define RK_ROW_RANK_COUNT	"rank_count"	/* param: ranks that measured together */
#define RK_ROW_RANK_RATE_MIN	"rank_rate_min"
#define RK_ROW_RANK_RATE_MAX	"rank_rate_max"
#define RK_ROW_RANK_RATE_MEAN	"rank_rate_mean"
#define RK_ROW_RANK_RATE_SD	"rank_rate_sd"
#define RK_ROW_FIRST_DONE_RATE	"rank_first_done_rate"
#define RK_ROW_FIRST_DONE_S	"rank_first_done_s"
#define RK_ROW_LAST_DONE_S	"rank_last_done_s"
#define RK_ROW_STONEWALL_S	"stonewall_s"
#define RK_ROW_STONEWALL_RATE	"stonewall_rate"
#define RK_ROW_STONEWALL_BYTES_MIN "stonewall_bytes_min"
#define RK_ROW_STONEWALL_BYTES_MAX "stonewall_bytes_max"

#define RK_RR_RANK		"rank"
#define RK_RR_PRESENT		"present"
#define RK_RR_START_NS		"start_ns"
#define RK_RR_STOP_NS		"stop_ns"
#define RK_RR_BYTES		"bytes"
#define RK_RR_OPS		"ops"
#define RK_RR_ELAPSED_NS	"elapsed_ns"
#define RK_RR_RATE		"rate"
#define RK_RR_STONEWALL_BYTES	"stonewall_bytes"
#define RK_RR_FLAGS		"flags"

#define RK_RUN_RANKS		"ranks"		/* field: the run's per-rank objects */
#define RK_OPT_STONEWALL	"stonewall_seconds"	/* options of a multi-rank run */
#define RK_OPT_WEAROUT		"wearout"
#define RK_OPT_SHARED_FILE	"shared-file"
#define RK_OPT_SHARED_DIR	"shared-dir"
#define RK_RANK_RANK		"rank"
#define RK_RANK_ENV		"env"
#define RK_RANK_FS_DIFFERS	"fs_differs"

/* ---- a metric object (table "metric"), cpu (table "cpu"), latency (table "latency") --- */
#define RK_METRIC_NAME		"name"
#define RK_METRIC_VALUE		"value"
#define RK_METRIC_UNIT		"unit"

#define RK_CPU_USER_S		"user_s"
#define RK_CPU_SYS_S		"sys_s"
#define RK_CPU_PROC_PCT		"proc_pct"
#define RK_CPU_SYS_BUSY_PCT	"sys_busy_pct"
#define RK_CPU_SYS_BUSY_S	"sys_busy_s"
#define RK_CPU_NS_PER_OP	"cpu_ns_per_op"
#define RK_CPU_WALL_S		"wall_s"
#define RK_CPU_OPS		"ops"

#define RK_LAT_N		"n"
#define RK_LAT_MEAN_NS		"mean_ns"
#define RK_LAT_SD_NS		"sd_ns"
#define RK_LAT_MIN_NS		"min_ns"
#define RK_LAT_P50_NS		"p50_ns"
#define RK_LAT_P90_NS		"p90_ns"
#define RK_LAT_P99_NS		"p99_ns"
#define RK_LAT_P999_NS		"p999_ns"
#define RK_LAT_MAX_NS		"max_ns"
#define RK_LAT_HISTOGRAM	"histogram"

/* ---- dd (table "dd") ------------------------------------------------------------------ */
#define RK_DD_BS		"bs"
#define RK_DD_IBS		"ibs"
#define RK_DD_OBS		"obs"
#define RK_DD_COUNT		"count"
#define RK_DD_SIZE		"size"
#define RK_DD_DATA		"data"
#define RK_DD_CONV		"conv"
#define RK_DD_DIRECT		"direct"
#define RK_DD_OFLAG		"oflag"
#define RK_DD_ENGINE		"engine"
#define RK_DD_RECORDS_IN_FULL	"records_in_full"
#define RK_DD_RECORDS_IN_PARTIAL "records_in_partial"
#define RK_DD_RECORDS_OUT_FULL	"records_out_full"
#define RK_DD_RECORDS_OUT_PARTIAL "records_out_partial"
#define RK_DD_BYTES_IN		"bytes_in"

/* ---- cp (table "cp") ------------------------------------------------------------------ */
/* sustained (workload/sustained) */
#define RK_SUS_BS		"bs"
#define RK_SUS_DIRECT		"direct"
#define RK_SUS_ENGINE		"engine"
#define RK_SUS_STEP		"step_s"
#define RK_SUS_DROP		"drop_pct"
#define RK_SUS_HOLD		"hold"
#define RK_SUS_LIMIT		"size_limit"
#define RK_SUS_STOP		"stopped_by"
#define RK_SUS_KNEE		"knee_found"
#define RK_SUS_BURST		"burst_rate"
#define RK_SUS_SUSTAINED	"sustained_rate"
#define RK_SUS_CLIFF_BYTES	"cliff_bytes"
#define RK_SUS_CLIFF_S		"cliff_s"
#define RK_SUS_INTERVALS	"intervals"
#define RK_SUS_TEMP_START	"temp_start_c"
#define RK_SUS_TEMP_CLIFF	"temp_cliff_c"
#define RK_SUS_TEMP_MAX		"temp_max_c"
#define RK_SUS_TEMP_END		"temp_end_c"
#define RK_SUS_TEMP_WARN	"temp_warn_c"
#define RK_SUS_TEMP_CRIT	"temp_crit_c"
#define RK_SUS_THROTTLED	"throttled"
#define RK_SUS_TEMP_SOURCE	"temp_source"
#define RK_SUS_KNEE_SERIES	"knee_series"

#define RK_CP_METHOD		"method"
#define RK_CP_METHOD_ASKED	"method_asked"
#define RK_CP_BUFFER		"buffer"
#define RK_CP_SIZE		"size"
#define RK_CP_ENGINE		"engine"
#define RK_CP_MEMCPY_BANDWIDTH	"memcpy_bandwidth"

/* ---- bonnie (table "bonnie") ---------------------------------------------------------- */
#define RK_BONNIE_CHAR_METHOD	"char_method"
#define RK_BONNIE_DIRECT	"direct"
#define RK_BONNIE_CHUNK		"chunk"
#define RK_BONNIE_SIZE_MB	"size_mb"
#define RK_BONNIE_CHAR_MB	"char_mb"
#define RK_BONNIE_SEEKS		"seeks"
#define RK_BONNIE_SEEKERS	"seekers"
#define RK_BONNIE_COPIES	"copies"
#define RK_BONNIE_FSYNC_EACH	"fsync_each"
#define RK_BONNIE_FILES		"files"
#define RK_BONNIE_MAX_SIZE	"max_size"
#define RK_BONNIE_MIN_SIZE	"min_size"
#define RK_BONNIE_DIRS		"dirs"
#define RK_BONNIE_FILE_CHUNK	"file_chunk"
#define RK_BONNIE_MIN_TIME	"min_time"
#define RK_BONNIE_DIRECTORY	"directory"
#define RK_BONNIE_MACHINE	"machine"
#define RK_BONNIE_CONCURRENCY	"concurrency"
#define RK_BONNIE_SEED		"seed"
#define RK_BONNIE_RAM_MB	"ram_mb"
#define RK_BONNIE_REPEATS	"repeats"
#define RK_BONNIE_DROP_CACHE	"drop_cache"
#define RK_BONNIE_QUIET		"quiet"
#define RK_BONNIE_COPY_RATE	"copyN_rate"	/* the family's declared name */
#define RK_BONNIE_COPY_RATE_FMT	"copy%u_rate"	/* printf format of one member, N >= 1 */

/* ---- postmark (table "postmark") ------------------------------------------------------ */
#define RK_PM_SIZE_LOW		"size_low"
#define RK_PM_SIZE_HIGH		"size_high"
#define RK_PM_NUMBER		"number"
#define RK_PM_TRANSACTIONS	"transactions"	/* a param and a metric */
#define RK_PM_SEED		"seed"
#define RK_PM_SUBDIRECTORIES	"subdirectories"
#define RK_PM_READ_BLOCK	"read_block"
#define RK_PM_WRITE_BLOCK	"write_block"
#define RK_PM_BUFFERING		"buffering"
#define RK_PM_BIAS_READ		"bias_read"
#define RK_PM_BIAS_CREATE	"bias_create"
#define RK_PM_REPORT		"report"
#define RK_PM_FSYNC		"fsync"
#define RK_PM_DIRECT		"direct"
#define RK_PM_LOCATION_WEIGHTS	"location_weights"
#define RK_PM_LOCATIONS		"locations"
#define RK_PM_LATENCY_OF	"latency_of"
#define RK_PM_FILES_CREATED	"files_created"
#define RK_PM_FILES_CREATED_ALONE "files_created_alone"
#define RK_PM_FILES_CREATED_MIXED "files_created_mixed"
#define RK_PM_FILES_READ	"files_read"
#define RK_PM_FILES_APPENDED	"files_appended"
#define RK_PM_FILES_DELETED	"files_deleted"
#define RK_PM_FILES_DELETED_ALONE "files_deleted_alone"
#define RK_PM_FILES_DELETED_MIXED "files_deleted_mixed"
#define RK_PM_TRANSACTIONS_REQUESTED "transactions_requested"
#define RK_PM_BYTES_READ	"bytes_read"
#define RK_PM_BYTES_WRITTEN	"bytes_written"
#define RK_PM_BYTES_WRITTEN_DURABLE "bytes_written_durable"
#define RK_PM_BYTES_WRITTEN_BUFFERED "bytes_written_buffered"
#define RK_PM_TIME_TOTAL_S	"time_total_s"
#define RK_PM_TIME_CREATE_S	"time_create_s"
#define RK_PM_TIME_TRANSACTIONS_S "time_transactions_s"
#define RK_PM_TIME_DELETE_S	"time_delete_s"
#define RK_PM_TRANSACTIONS_PER_S "transactions_per_s"
#define RK_PM_CREATED_PER_S	"created_per_s"
#define RK_PM_CREATED_ALONE_PER_S "created_alone_per_s"
#define RK_PM_CREATED_MIXED_PER_S "created_mixed_per_s"
#define RK_PM_READ_PER_S	"read_per_s"
#define RK_PM_APPENDED_PER_S	"appended_per_s"
#define RK_PM_DELETED_PER_S	"deleted_per_s"
#define RK_PM_DELETED_ALONE_PER_S "deleted_alone_per_s"
#define RK_PM_DELETED_MIXED_PER_S "deleted_mixed_per_s"
#define RK_PM_READ_MIB_PER_S	"read_mib_per_s"
#define RK_PM_WRITTEN_MIB_PER_S	"written_mib_per_s"
#define RK_PM_OUT_OF_FILES	"out_of_files"
#define RK_PM_DIRECT_FALLBACKS	"direct_fallbacks"

/* ---- db (table "db") ------------------------------------------------------------------ */
#define RK_DB_ENGINE		"engine"	/* a param and an option */
#define RK_DB_SCRIPT		"script"	/* a param and an option */
#define RK_DB_ROWS		"rows"		/* a param and an option */
#define RK_DB_SQL		"sql"
#define RK_DB_TAG		"tag"
#define RK_DB_COUNT		"count"
#define RK_DB_LINE		"line"
#define RK_DB_STATEMENTS	"statements"
#define RK_DB_DEVICE_BYTES_WRITTEN "device_bytes_written"
#define RK_DB_DB_SIZE		"db_size"
#define RK_DB_DB_PEAK_SIZE	"db_peak_size"
#define RK_DB_NO_BUILD		"no-build"	/* options named as db's long options */
#define RK_DB_JOURNAL_MODE	"journal-mode"
#define RK_DB_SYNCHRONOUS	"synchronous"
#define RK_DB_PAGE_SIZE		"page-size"
#define RK_DB_CACHE_SIZE	"cache-size"
#define RK_DB_SQLITE_VERSION	"sqlite_version"
#define RK_DB_PG_SERVER_VERSION	"pg_server_version"
#define RK_DB_PG_DATA_DIRECTORY	"pg_data_directory"
#define RK_DB_DB_DEVICE		"db_device"

/* ---- fsync (table "fsync") ------------------------------------------------------------ */
#define RK_FSYNC_TEST		"test"
#define RK_FSYNC_METHOD		"method"
#define RK_FSYNC_WRITES_PER_OP	"writes_per_op"
#define RK_FSYNC_WRITE_SIZE	"write_size"
#define RK_FSYNC_DIRECT		"direct"
#define RK_FSYNC_SECS_PER_TEST	"secs_per_test"
#define RK_FSYNC_LABEL		"label"
#define RK_FSYNC_NA		"na"
#define RK_FSYNC_PLATFORM_DIRECT "platform_direct"
#define RK_FSYNC_BLOCKS		"blocks"
#define RK_FSYNC_USECS_PER_OP	"usecs_per_op"
#define RK_FSYNC_DEVICE_FLUSHES	"device_flushes"
#define RK_FSYNC_DEVICE_WRITES	"device_writes"
#define RK_FSYNC_DEVICE		"device"
#define RK_FSYNC_DEVICE_MODEL	"device_model"
#define RK_FSYNC_WRITE_CACHE	"write_cache"
#define RK_FSYNC_FUA		"fua"
#define RK_FSYNC_ROTATIONAL	"rotational"
#define RK_FSYNC_RPM		"rpm"
#define RK_FSYNC_RPM_SOURCE	"rpm_source"
#define RK_FSYNC_FLOOR_US	"floor_us"
#define RK_FSYNC_FLOOR_WHY	"floor_why"
#define RK_FSYNC_BEST_METHOD	"best_method"
#define RK_FSYNC_WAL_SYNC_METHOD "wal_sync_method"
#define RK_FSYNC_SQLITE_SYNCHRONOUS "sqlite_synchronous"
#define RK_FSYNC_IMPLAUSIBLE	"implausible_methods"

/* ---- every write workload's --verify (in table "row"; runner/vhook_check.c) ------------ */
#define RK_VERIFY		"verify"	/* param on every row of a verified run */
#define RK_VERIFY_RUN_ID	"verify_run_id"
#define RK_VERIFY_BLOCK		"verify_block"
#define RK_VERIFY_AFTER_DROP	"verify_after_drop"
#define RK_VERIFY_CRC_PATH	"verify_crc_path"
#define RK_VERIFY_JOURNAL	"verify_journal"
#define RK_VERIFY_GENERATIONS	"verify_generations"
#define RK_VERIFY_BLOCKS	"verify_blocks"
#define RK_VERIFY_BAD_BLOCKS	"verify_bad_blocks"
#define RK_VERIFY_FILES		"verify_files"
#define RK_VERIFY_FILES_GONE	"verify_files_gone"
#define RK_VERIFY_ACKED		"verify_acknowledged"
#define RK_VERIFY_ACK_S		"verify_acknowledge_s"
/* blocks per class (vblock.h), in enum vblock_class order */
#define RK_VERIFY_OK		"verify_ok"
#define RK_VERIFY_IN_FLIGHT	"verify_in_flight"
#define RK_VERIFY_CORRUPTED	"verify_corrupted"
#define RK_VERIFY_MISDIRECTED	"verify_misdirected"
#define RK_VERIFY_STALE		"verify_stale"
#define RK_VERIFY_OTHER_RUN	"verify_other_run"
#define RK_VERIFY_ZEROED	"verify_zeroed"
#define RK_VERIFY_NO_HEADER	"verify_no_header"
#define RK_VERIFY_TORN		"verify_torn"
#define RK_VERIFY_MISSING	"verify_missing"
/* the file offset of the first block of each failing class */
#define RK_VERIFY_FIRST_CORRUPTED	"verify_first_corrupted"
#define RK_VERIFY_FIRST_MISDIRECTED	"verify_first_misdirected"
#define RK_VERIFY_FIRST_STALE		"verify_first_stale"
#define RK_VERIFY_FIRST_OTHER_RUN	"verify_first_other_run"
#define RK_VERIFY_FIRST_ZEROED		"verify_first_zeroed"
#define RK_VERIFY_FIRST_NO_HEADER	"verify_first_no_header"
#define RK_VERIFY_FIRST_TORN		"verify_first_torn"
#define RK_VERIFY_FIRST_MISSING		"verify_first_missing"
/* ---- iozone (table "iozone"): one row per (pass, file size, record size) --------------- */
#define RK_IOZ_FILE_KB		"file_kb"	/* params and options */
#define RK_IOZ_RECLEN_KB	"reclen_kb"
#define RK_IOZ_DIRECT		"direct"
#define RK_IOZ_WORKERS		"workers"
#define RK_IOZ_ENGINE		"engine"
#define RK_IOZ_DEPTH		"depth"
#define RK_IOZ_FSYNC_TIMED	"fsync_timed"
#define RK_IOZ_CLOSE_TIMED	"close_timed"
#define RK_IOZ_OSYNC		"osync"
#define RK_IOZ_STONEWALL	"stonewall"
#define RK_IOZ_STRIDE		"stride"
#define RK_IOZ_MIX_READ_PCT	"mix_read_pct"
#define RK_IOZ_RAM_SPEED	"ram_speed"	/* metrics */
#define RK_IOZ_PARENT_RATE	"parent_rate"
#define RK_IOZ_MIN_RATE		"min_rate"
#define RK_IOZ_MAX_RATE		"max_rate"
#define RK_IOZ_AVG_RATE		"avg_rate"
#define RK_IOZ_MIN_XFER		"min_xfer"
#define RK_IOZ_STONEWALLED	"stonewalled"
#define RK_IOZ_WORKER_RATE	"workerN_rate"
#define RK_IOZ_WORKER_RATE_FMT	"worker%u_rate"
#define RK_IOZ_WORKER_XFER	"workerN_xfer"
#define RK_IOZ_WORKER_XFER_FMT	"worker%u_xfer"
#define RK_IOZ_AUTO		"auto"		/* options */
#define RK_IOZ_TESTS		"tests"
#define RK_IOZ_NO_RETEST	"no_retest"
#define RK_IOZ_NO_CROSSOVER	"no_crossover"
#define RK_IOZ_MULTIPLIER	"multiplier"
#define RK_IOZ_FILE		"file"
#define RK_IOZ_EXCEL		"excel"
#define RK_IOZ_XLSX		"xlsx"
#define RK_IOZ_CACHE_KB		"cache_kb"
#define RK_IOZ_LINE_BYTES	"line_bytes"
#define RK_IOZ_KEEP		"keep"
#define RK_IOZ_THREADS		"threads"
#define RK_IOZ_DELAY_US		"delay_us"
#define RK_IOZ_DROP_CACHE	"drop_cache"
#define RK_IOZ_VERIFY		"verify"
#define RK_IOZ_EXTENDED		"extended"
#define RK_IOZ_PAGE_CACHE_BYTES	"page_cache_bytes"
#define RK_IOZ_DEVICE_READ	"device_read_limit"
#define RK_IOZ_DEVICE_WRITE	"device_write_limit"
#define RK_IOZ_PROBE_BYTES	"probe_bytes"
#define RK_IOZ_PROBE		"probe"
/* ---- job (table "job"): fio's job files. Rows: one per report unit (a job, or a group
 * with group_reporting) and direction ("read", "write", "sync"), one "aggregate" per
 * stonewall step, one "disk" per device ------------------------------------------- */
#define RK_JOB_JOB		"job"
#define RK_JOB_GROUPID		"groupid"
#define RK_JOB_JOBS		"jobs"
#define RK_JOB_RW		"rw"
#define RK_JOB_BS		"bs"
#define RK_JOB_IODEPTH		"iodepth"
#define RK_JOB_NUMJOBS		"numjobs"
#define RK_JOB_IOENGINE		"ioengine"
#define RK_JOB_DIRECT		"direct"
#define RK_JOB_SYNC		"sync"
#define RK_JOB_FSYNC		"fsync_every"
#define RK_JOB_FDATASYNC	"fdatasync_every"
#define RK_JOB_SIZE		"size"
#define RK_JOB_RWMIXREAD	"rwmixread"
#define RK_JOB_DISTRIBUTION	"random_distribution"
#define RK_JOB_RATE		"rate_limit"
#define RK_JOB_RATE_IOPS	"rate_iops"
#define RK_JOB_RUNTIME		"runtime"
#define RK_JOB_TIME_BASED	"time_based"
#define RK_JOB_FIO_OPTIONS	"fio_options"
#define RK_JOB_PERCENTILE_LIST	"percentile_list"
#define RK_JOB_LAT_SHOWN	"fio_latency_shown"
#define RK_JOB_DESCRIPTION	"description"
#define RK_JOB_STEP		"step"
#define RK_JOB_DEVICE		"device"
#define RK_JOB_BW_BYTES		"bw_bytes"
#define RK_JOB_SHORT_IOS	"short_ios"
#define RK_JOB_SLAT_N		"slat_n"
#define RK_JOB_SLAT_MIN_NS	"slat_min_ns"
#define RK_JOB_SLAT_MAX_NS	"slat_max_ns"
#define RK_JOB_SLAT_MEAN_NS	"slat_mean_ns"
#define RK_JOB_SLAT_SD_NS	"slat_sd_ns"
#define RK_JOB_LAT_N		"lat_n"
#define RK_JOB_LAT_MIN_NS	"lat_min_ns"
#define RK_JOB_LAT_MAX_NS	"lat_max_ns"
#define RK_JOB_LAT_MEAN_NS	"lat_mean_ns"
#define RK_JOB_LAT_SD_NS	"lat_sd_ns"
#define RK_JOB_LAT_PCTL		"lat_pctl_N_ns"	/* N: 1 up, the percentile_list's */
#define RK_JOB_LAT_PCTL_PFX	"lat_pctl_"	/* + N + "_ns" */
#define RK_JOB_BW_MIN		"bw_min"
#define RK_JOB_BW_MAX		"bw_max"
#define RK_JOB_BW_MEAN		"bw_mean"
#define RK_JOB_BW_DEV		"bw_dev"
#define RK_JOB_BW_AGG		"bw_agg"
#define RK_JOB_BW_SAMPLES	"bw_samples"
#define RK_JOB_IOPS_MIN		"iops_min"
#define RK_JOB_IOPS_MAX		"iops_max"
#define RK_JOB_IOPS_MEAN	"iops_mean"
#define RK_JOB_IOPS_DEV		"iops_stddev"
#define RK_JOB_IOPS_SAMPLES	"iops_samples"
#define RK_JOB_USR_CPU		"usr_cpu"
#define RK_JOB_SYS_CPU		"sys_cpu"
#define RK_JOB_CTX		"ctx"
#define RK_JOB_MAJF		"majf"
#define RK_JOB_MINF		"minf"
#define RK_JOB_JOB_RUNTIME	"job_runtime"
#define RK_JOB_ERRNO		"errno"
#define RK_JOB_ERRORS		"errors_passed"
#define RK_JOB_FIRST_ERROR	"first_error"
#define RK_JOB_DEPTH		"depth_N"	/* families: N in 1 2 4 8 16 32 */
#define RK_JOB_DEPTH_PFX	"depth_"	/* + N */
#define RK_JOB_DEPTH_GE64	"depth_ge64"
#define RK_JOB_SUBMIT		"submit_N"	/* N in 4 8 16 32 64 */
#define RK_JOB_SUBMIT_PFX	"submit_"
#define RK_JOB_SUBMIT_GE64	"submit_ge64"
#define RK_JOB_COMPLETE		"complete_N"
#define RK_JOB_COMPLETE_PFX	"complete_"
#define RK_JOB_COMPLETE_GE64	"complete_ge64"
#define RK_JOB_THREADS		"step_threads"
#define RK_JOB_IOPS		"iops"
#define RK_JOB_FIRST_DONE_S	"first_done_s"
#define RK_JOB_FIRST_DONE_BYTES	"first_done_bytes"
#define RK_JOB_FIRST_DONE_RATE	"first_done_rate"
#define RK_JOB_LAST_DONE_S	"last_done_s"
#define RK_JOB_DEV_READ_BYTES	"device_read_bytes"
#define RK_JOB_DEV_WRITE_BYTES	"device_write_bytes"
#define RK_JOB_READ_IOS		"read_ios"
#define RK_JOB_WRITE_IOS	"write_ios"
#define RK_JOB_READ_MERGES	"read_merges"
#define RK_JOB_WRITE_MERGES	"write_merges"
#define RK_JOB_READ_TICKS	"read_ticks"
#define RK_JOB_WRITE_TICKS	"write_ticks"
#define RK_JOB_IN_QUEUE		"in_queue"
#define RK_JOB_UTIL		"util"
/* fio's steady state (workload/job/job_ss.h): on the unit's rows */
#define RK_JOB_SS		"ss"
#define RK_JOB_SS_ATTAINED	"ss_attained"
#define RK_JOB_SS_DURATION	"ss_duration"
#define RK_JOB_SS_CRITERION	"ss_criterion"
#define RK_JOB_SS_MAX_DEV	"ss_max_deviation"
#define RK_JOB_SS_SLOPE		"ss_slope"
#define RK_JOB_SS_IOPS_MEAN	"ss_iops_mean"
#define RK_JOB_SS_BW_MEAN	"ss_bw_mean"
#define RK_JOB_SS_IOPS_DATA	"ss_iops_data"
#define RK_JOB_SS_BW_DATA	"ss_bw_data"
#define RK_JOB_SS_LAT_MEAN	"ss_lat_mean"
#define RK_JOB_SS_LAT_DATA	"ss_lat_data"
#define RK_JOB_GLOBAL_OPTIONS	"fio_global_options"	/* run options */
#define RK_JOB_SECTION		"section"
#define RK_JOB_FILES		"job_files"
#define RK_JOB_OVERWRITE	"overwrite"
#define RK_JOB_DESTROY_DATA_ON	"destroy-data-on"
#define RK_JOB_NO_LAYOUT	"no-layout"
#define RK_JOB_DIRECTORY	"directory"

/* ---- battery (table "battery"): the run's options, the plan and the probe ------------- */
#define RK_BAT_PROBE_WRITE	"probe_write_bps"
#define RK_BAT_PROBE_READ	"probe_read_bps"
#define RK_BAT_PROBE_READ_LAT	"probe_read_4k_us"
#define RK_BAT_PROBE_WRITE_LAT	"probe_write_4k_us"
#define RK_BAT_PROBE_S		"probe_s"
#define RK_BAT_PASS_BUDGET	"pass_budget_s"
#define RK_BAT_EXPECTED		"expected_s"
#define RK_BAT_SIZING		"sizing"
#define RK_BAT_STEP		"stepN"		/* the family: step1, step2 ... */
#define RK_BAT_WALL		"wall_s"
#define RK_BAT_STEPS		"steps_s"
#define RK_BAT_OVERHEAD		"overhead_s"
#define RK_BAT_JOB_ENGINE	"job_engine"
#define RK_BAT_JOB_ENGINE_WHY	"job_engine_why"
#define RK_BAT_JOB_FILE		"job_file"
#define RK_BAT_MEMORY		"memory_target"
#define RK_BAT_BUDGET		"budget_s"
#define RK_BAT_REPLAN		"replanned"
#define RK_BAT_LATE		"budget_skipped"

/* ---- written only by imports (table "import") ------------------------------------------ */
#define RK_IMPORT_IMPORTED_FROM	"imported_from"
#define RK_IMPORT_IMPORTED_FORMAT "imported_format"
#define RK_IMPORT_FILES_SPEC	"files_spec"
#define RK_IMPORT_LATENCY_MAX	"latency_max"
#define RK_IMPORT_TOTAL_S	"total_s"
#define RK_IMPORT_CREATED_ALONE	"created_alone"
#define RK_IMPORT_CREATED_MIXED	"created_mixed"
#define RK_IMPORT_DELETED_ALONE	"deleted_alone"
#define RK_IMPORT_DELETED_MIXED	"deleted_mixed"
#define RK_IMPORT_REAL_S	"real_s"
#define RK_IMPORT_TAGS		"tags"

#endif
