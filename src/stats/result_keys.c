/* result_keys.c - the shared key tables of the result schema (the document's fields, the
 * row's, the system figures', the ranks'; each workload's own are in result_keys_wl.c),
 * the list of all tables and their lookup. See
 * result_keys.h for how to add a figure; docs/results-schema.md says the same as these
 * tables in prose, and t_result_keys keeps the two in step. */
#include <string.h>

#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_keys_int.h"

static const struct result_key row_keys[] = {
	FIELD(RK_ROW_WORKLOAD, "", "the workload the row belongs to"),
	FIELD(RK_ROW_PHASE, "", "the phase (write, read, copy, seq_create ...)"),
	FIELD(RK_ROW_REPEAT, "", "0-based repeat index"),
	FIELD(RK_ROW_PARAMS, "", "text parameters that say what the figure is comparable with"),
	FIELD(RK_ROW_BYTES, "B", "bytes transferred"),
	FIELD(RK_ROW_OPS, "", "operations (calls, files, transactions) done"),
	FIELD(RK_ROW_ELAPSED_NS, "ns", "the time the rate is computed from"),
	FIELD(RK_ROW_BUFFERED_NS, "ns", "until the last write call returned"),
	FIELD(RK_ROW_DURABLE_NS, "ns", "until the closing fsync or fdatasync returned"),
	FIELD(RK_ROW_RATE, RK_UNIT_RATE, "the figure, in rate_unit"),
	FIELD(RK_ROW_RATE_UNIT, "", "the rate's unit (MB/s, K/sec, files/s, tps ...)"),
	FIELD(RK_ROW_CPU, "", "CPU use over the phase"),
	FIELD(RK_ROW_LATENCY, "", "per-call latency"),
	FIELD(RK_ROW_CACHE_PCT, "%", "share of the file in the page cache when a read began"),
	FIELD(RK_ROW_CACHE_DROPPED, "bool", "the file was dropped from the cache first"),
	FIELD(RK_ROW_FLAGS, "", "flag names"),
	FIELD(RK_ROW_ERROR, "", "why the phase failed"),
	FIELD(RK_ROW_NOTE, "", "one sentence for humans"),
	FIELD(RK_ROW_METRICS, "", "extra named figures"),
	PARAM_R(RK_ROW_DETAIL, "", 0, RK_CMP_NONE, NULL, RK_ROLE_LABEL,
		"a short label telling the workload's rows apart in tables (dd: bs=1M)"),
	/* several ranks (mpirun): runner/ranks_row.c */
	PARAM(RK_ROW_RANK_COUNT, "ranks", 0, RK_CMP_DEFINES, "different numbers of ranks",
	      "ranks that measured the row together (mpirun); absent for one process"),
	METRIC(RK_ROW_RANK_RATE_MIN, RK_UNIT_RATE, "the slowest rank's own rate"),
	METRIC(RK_ROW_RANK_RATE_MAX, RK_UNIT_RATE, "the fastest rank's own rate"),
	METRIC(RK_ROW_RANK_RATE_MEAN, RK_UNIT_RATE, "the mean of the ranks' own rates"),
	METRIC(RK_ROW_RANK_RATE_SD, RK_UNIT_RATE,
	       "the population standard deviation of the ranks' own rates"),
	METRIC(RK_ROW_FIRST_DONE_RATE, RK_UNIT_RATE,
	       "aggregate rate until the fastest rank finished (elbencho's first done)"),
	METRIC(RK_ROW_FIRST_DONE_S, "s", "from the earliest start until the fastest rank finished"),
	METRIC(RK_ROW_LAST_DONE_S, "s",
	       "from the earliest start until the slowest rank finished (the rate's time)"),
	METRIC(RK_ROW_STONEWALL_S, "s", "--stonewall: from the earliest start until the last "
	       "rank stopped at the wall"),
	METRIC(RK_ROW_STONEWALL_RATE, RK_UNIT_RATE,
	       "--stonewall: the work done before the wall over stonewall_s"),
	METRIC(RK_ROW_STONEWALL_BYTES_MIN, "B",
	       "--stonewall: the least a rank did before the wall"),
	METRIC(RK_ROW_STONEWALL_BYTES_MAX, "B", "--stonewall: the most a rank did before the wall"),
	PARAM(RK_ROW_FS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the file system made for the row (ext4, xfs, btrfs)"),
	PARAM(RK_ROW_FS_CONFIG, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the entry as typed, the configuration's name (xfs@noatime)"),
	PARAM(RK_ROW_MKFS_OPTIONS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the options given to mkfs (empty: none)"),
	PARAM(RK_ROW_MOUNT_OPTIONS, "", 0, RK_CMP_NONE, NULL,
	      "battery --fs: the mount options (empty: the defaults)"),
	PARAM(RK_ROW_READ_METHOD, "", 0, RK_CMP_NONE, NULL,
	      "battery: how a read of the device kept the page cache out: drop, direct or "
	      "2x_ram"),
	FIELD(RK_ROW_SYSTEM, "", "what the system did during the phase"),
	FIELD(RK_ROW_SERIES, "", "the phase interval by interval"),
	FIELD(RK_ROW_DEVICE_LATENCY, "", "block-layer device and queue time per request class"),
	FIELD(RK_ROW_CEILING, "", "the ceilings that apply to the row's figure"),
	/* every write workload's --verify: its rows' param, and the verify row's figures */
	PARAM(RK_VERIFY, "bool", 0, RK_CMP_VALUE, "different data (verified blocks)",
	      "true on every row of a run with --verify: the data written were stamped blocks"),
	PARAM(RK_VERIFY_RUN_ID, "", 0, RK_CMP_NONE, NULL, "the run id in every block, in hex"),
	PARAM(RK_VERIFY_BLOCK, "B", 0, RK_CMP_NONE, NULL, "the longest block"),
	PARAM(RK_VERIFY_AFTER_DROP, "bool", 0, RK_CMP_VALUE, NULL,
	      "true when each file was dropped from the page cache before it was read back"),
	PARAM(RK_VERIFY_CRC_PATH, "", 0, RK_CMP_NONE, NULL,
	      "the CRC32C code that ran: sse4.2, armv8-crc or software"),
	PARAM(RK_VERIFY_JOURNAL, "", 0, RK_CMP_NONE, NULL,
	      "where acknowledged generations went: the journal file or the listener"),
	PARAM(RK_VERIFY_GENERATIONS, "", 0, RK_CMP_NONE, NULL,
	      "last-write: each block held to the generation of its last write (stale "
	      "found); any: some file too large to track, held to any generation of the run"),
	METRIC(RK_VERIFY_BLOCKS, "blocks", "blocks checked"),
	METRIC(RK_VERIFY_BAD_BLOCKS, "blocks", "blocks in failing classes"),
	METRIC(RK_VERIFY_FILES, "files", "files checked"),
	METRIC(RK_VERIFY_FILES_GONE, "files", "files the workload removed before the check"),
	METRIC(RK_VERIFY_ACKED, "records", "acknowledged generations recorded"),
	METRIC(RK_VERIFY_ACK_S, "s", "time spent recording them (inside the write phases)"),
	METRIC(RK_VERIFY_OK, "blocks", "blocks as written"),
	METRIC(RK_VERIFY_IN_FLIGHT, "blocks", "blocks of an unacknowledged write (accepted)"),
	METRIC(RK_VERIFY_CORRUPTED, "blocks", "blocks with bytes no write put there"),
	METRIC(RK_VERIFY_MISDIRECTED, "blocks", "blocks of this run for another place"),
	METRIC(RK_VERIFY_STALE, "blocks", "blocks of an older generation (lost write)"),
	METRIC(RK_VERIFY_OTHER_RUN, "blocks", "blocks of another run (lost write)"),
	METRIC(RK_VERIFY_ZEROED, "blocks", "zeros where a block was written"),
	METRIC(RK_VERIFY_NO_HEADER, "blocks", "bytes that are no block of this format"),
	METRIC(RK_VERIFY_TORN, "blocks", "blocks partly an older generation or zeros"),
	METRIC(RK_VERIFY_MISSING, "blocks", "blocks past the end of the file"),
	METRIC(RK_VERIFY_FIRST_CORRUPTED, "B", "file offset of the first corrupted block"),
	METRIC(RK_VERIFY_FIRST_MISDIRECTED, "B", "file offset of the first misdirected block"),
	METRIC(RK_VERIFY_FIRST_STALE, "B", "file offset of the first stale block"),
	METRIC(RK_VERIFY_FIRST_OTHER_RUN, "B", "file offset of the first other run's block"),
	METRIC(RK_VERIFY_FIRST_ZEROED, "B", "file offset of the first zeroed block"),
	METRIC(RK_VERIFY_FIRST_NO_HEADER, "B", "file offset of the first block without header"),
	METRIC(RK_VERIFY_FIRST_TORN, "B", "file offset of the first torn block"),
	METRIC(RK_VERIFY_FIRST_MISSING, "B", "file offset of the first missing block"),
};

static const struct result_key system_keys[] = {
	FIELD(RK_SYS_DEVICES_REASON, "", "why there are no device figures"),
	FIELD(RK_SYS_DEVICES, "", "the devices behind the target, the top first"),
	FIELD(RK_SYS_WL_READ, "B", "bytes the phase's threads read through system calls"),
	FIELD(RK_SYS_WL_WRITTEN, "B", "bytes the phase's threads wrote through system calls"),
	FIELD(RK_SYS_WRITE_AMP, "", "bytes the top device wrote / workload_written_bytes"),
	FIELD(RK_SYS_CPU_USER, "%", "share of all CPUs' time in user mode (nice apart)"),
	FIELD(RK_SYS_CPU_NICE, "%", "in user mode at a lowered priority"),
	FIELD(RK_SYS_CPU_SYSTEM, "%", "in the kernel (interrupts apart)"),
	FIELD(RK_SYS_CPU_IOWAIT, "%", "idle with I/O outstanding"),
	FIELD(RK_SYS_CPU_IRQ, "%", "serving hardware interrupts"),
	FIELD(RK_SYS_CPU_SOFTIRQ, "%", "serving soft interrupts"),
	FIELD(RK_SYS_CPU_STEAL, "%", "taken by the hypervisor for something else"),
	FIELD(RK_SYS_CPU_IDLE, "%", "idle without I/O outstanding"),
	FIELD(RK_SYS_DIRTY_START, "B", "Dirty of /proc/meminfo when the phase began"),
	FIELD(RK_SYS_DIRTY_END, "B", "Dirty when it ended"),
	FIELD(RK_SYS_WB_START, "B", "Writeback when the phase began"),
	FIELD(RK_SYS_WB_END, "B", "Writeback when it ended"),
	FIELD(RK_SYS_CACHED_START, "B", "Cached (the page cache) when the phase began"),
	FIELD(RK_SYS_CACHED_END, "B", "Cached when it ended"),
	FIELD(RK_SYS_WAIT_PASSES, "", "wait-state sampling passes"),
	FIELD(RK_SYS_WAIT_OBS, "", "thread observations of those passes"),
	FIELD(RK_SYS_WCHAN_HIDDEN, "bool", "wait channels could not be read"),
	FIELD(RK_SYS_WAIT, "", "where the threads were, as shares of the observations"),
	FIELD(RK_SYS_SAMPLER_CPU_S, "s", "CPU the sampler thread itself used"),
};

static const struct result_key device_keys[] = {
	FIELD(RK_DEV_NAME, "", "kernel name of the device"),
	FIELD(RK_DEV_ROLE, "", "top, disk, member or backing"),
	FIELD(RK_DEV_RD_BYTES, "B", "bytes the device read"),
	FIELD(RK_DEV_WR_BYTES, "B", "bytes the device wrote"),
	FIELD(RK_DEV_R_S, "1/s", "reads completed per second"),
	FIELD(RK_DEV_W_S, "1/s", "writes completed per second"),
	FIELD(RK_DEV_RKB_S, "kB/s", "kB (1024 bytes) read per second"),
	FIELD(RK_DEV_WKB_S, "kB/s", "kB written per second"),
	FIELD(RK_DEV_RRQM_S, "1/s", "read requests merged per second"),
	FIELD(RK_DEV_WRQM_S, "1/s", "write requests merged per second"),
	FIELD(RK_DEV_R_AWAIT, "ms", "mean time of a read, queue and service"),
	FIELD(RK_DEV_W_AWAIT, "ms", "mean time of a write, queue and service"),
	FIELD(RK_DEV_AQU_SZ, "", "mean number of requests in flight"),
	FIELD(RK_DEV_RAREQ_SZ, "kB", "mean read size"),
	FIELD(RK_DEV_WAREQ_SZ, "kB", "mean write size"),
	FIELD(RK_DEV_UTIL, "%", "share of the time with a request in flight"),
	FIELD(RK_DEV_D_S, "1/s", "discards per second"),
	FIELD(RK_DEV_DKB_S, "kB/s", "kB discarded per second"),
	FIELD(RK_DEV_D_AWAIT, "ms", "mean time of a discard"),
	FIELD(RK_DEV_F_S, "1/s", "flushes per second"),
	FIELD(RK_DEV_F_AWAIT, "ms", "mean time of a flush"),
};

static const struct result_key wait_keys[] = {
	FIELD(RK_WAIT_STATE, "", "the thread state letter (R, S, D ...)"),
	FIELD(RK_WAIT_WCHAN, "", "the kernel function it slept in"),
	FIELD(RK_WAIT_SYSCALL, "", "the system call it was in"),
	FIELD(RK_WAIT_COUNT, "", "observations"),
	FIELD(RK_WAIT_SHARE, "%", "count over all observations of the phase"),
};

static const struct result_key series_keys[] = {
	FIELD(RK_SER_INTERVAL_NS, "ns", "the length of an interval (the last may be shorter)"),
	FIELD(RK_SER_T_NS, "ns", "end of each interval, from the phase's start"),
	FIELD(RK_SER_OPS, "", "operations completed in each interval"),
	FIELD(RK_SER_BYTES, "B", "bytes of those"),
	FIELD(RK_SER_P50, "ns", "their median latency"),
	FIELD(RK_SER_P99, "ns", "their 99th percentile"),
	FIELD(RK_SER_MAX, "ns", "the slowest of them"),
	FIELD(RK_SER_CPU_USR, "%", "user and nice share of all CPUs' time"),
	FIELD(RK_SER_CPU_SYS, "%", "system, irq and softirq share"),
	FIELD(RK_SER_CPU_IOWAIT, "%", "iowait share"),
	FIELD(RK_SER_CPU_STEAL, "%", "steal share"),
	FIELD(RK_SER_CPU_IDLE, "%", "idle share"),
	FIELD(RK_SER_DIRTY, "B", "Dirty at the end of each interval"),
	FIELD(RK_SER_WB, "B", "Writeback at the end of each interval"),
	FIELD(RK_SER_TEMP_C, "C", "the device's temperature at the end of each interval"),
	FIELD(RK_SER_DEVICES, "", "per device, its figures in each interval"),
};

static const struct result_key series_device_keys[] = {
	FIELD(RK_DEV_NAME, "", "kernel name of the device"),
	FIELD(RK_DEV_UTIL, "%", "share of each interval with a request in flight"),
	FIELD(RK_DEV_AQU_SZ, "", "mean number of requests in flight"),
	FIELD(RK_DEV_R_S, "1/s", "reads completed per second"),
	FIELD(RK_DEV_W_S, "1/s", "writes completed per second"),
	FIELD(RK_DEV_RKB_S, "kB/s", "kB read per second"),
	FIELD(RK_DEV_WKB_S, "kB/s", "kB written per second"),
	FIELD(RK_DEV_R_AWAIT, "ms", "mean time of a read"),
	FIELD(RK_DEV_W_AWAIT, "ms", "mean time of a write"),
};

static const struct result_key run_keys[] = {
	FIELD(RK_RUN_SCHEMA_VERSION, "", "the version of the document's layout"),
	FIELD(RK_RUN_TOOL, "", "always iobattery"),
	FIELD(RK_RUN_ID, "", "unique id of the run"),
	FIELD(RK_RUN_LABEL, "", "the user's --label"),
	FIELD(RK_RUN_WORKLOAD, "", "the subcommand"),
	FIELD(RK_RUN_COMMAND_LINE, "", "the command as typed"),
	FIELD(RK_RUN_STATUS, "", "the exit status the run ended with"),
	FIELD(RK_RUN_INCOMPLETE, "bool", "the run was interrupted"),
	FIELD(RK_RUN_IMPORTED, "bool", "the run was read from another tool's output"),
	FIELD(RK_RUN_ERROR, "", "why the run failed"),
	FIELD(RK_RUN_OPTIONS, "", "the effective options"),
	FIELD(RK_RUN_ENV, "", "the environment"),
	FIELD(RK_RUN_ROWS, "rows", "one object per measured phase"),
	FIELD(RK_RUN_DIGEST, "", "sha256: and the SHA-256 of the document's canonical form"),
};

static const struct result_key env_keys[] = {
	FIELD(RK_ENV_TOOL_VERSION, "", "iobattery version that measured"),
	FIELD(RK_ENV_DATE, "", "start of the run, ISO 8601 UTC"),
	FIELD(RK_ENV_HOST, "", "host name"),
	FIELD(RK_ENV_OS, "", "kernel name and distribution"),
	FIELD(RK_ENV_KERNEL, "", "kernel release"),
	FIELD(RK_ENV_ARCH, "", "machine"),
	FIELD(RK_ENV_CPU_MODEL, "", "CPU model name"),
	FIELD(RK_ENV_NCPU, "", "online CPUs"),
	FIELD(RK_ENV_RAM_BYTES, "B", "physical memory"),
	FIELD(RK_ENV_TARGET, "", "the directory or file measured"),
	FIELD(RK_ENV_FS_TYPE, "", "file system type of the target's mount"),
	FIELD(RK_ENV_MOUNT_OPTS, "", "that mount's options"),
	FIELD(RK_ENV_MOUNT_POINT, "", "where that file system is mounted"),
	FIELD(RK_ENV_DEVICE, "", "the whole block device behind it"),
	FIELD(RK_ENV_DEVICE_MODEL, "", "vendor and model of the device"),
	FIELD(RK_ENV_ROTATIONAL, "bool", "the kernel's rotational flag"),
	FIELD(RK_ENV_SCHEDULER, "", "the active I/O scheduler"),
	FIELD(RK_ENV_VIRTUALIZED, "bool", "a hypervisor was detected"),
	FIELD(RK_ENV_CEILINGS, "", "the run's ceilings: the link and the memory copy rate"),
};

static const struct result_key cpu_keys[] = {
	FIELD(RK_CPU_USER_S, "s", "user CPU seconds of the process"),
	FIELD(RK_CPU_SYS_S, "s", "system CPU seconds of the process"),
	FIELD(RK_CPU_PROC_PCT, "%", "(user + sys) / elapsed x 100, as Bonnie++'s %CPU"),
	FIELD(RK_CPU_SYS_BUSY_PCT, "%", "share of all CPUs that was busy"),
	FIELD(RK_CPU_SYS_BUSY_S, "s", "the same as CPU seconds"),
	FIELD(RK_CPU_NS_PER_OP, "ns", "(user + sys) / ops"),
	FIELD(RK_CPU_WALL_S, "s", "the wall-clock window proc_pct is over"),
	FIELD(RK_CPU_OPS, "", "the operations cpu_ns_per_op is per (a job's every direction)"),
};

static const struct result_key latency_keys[] = {
	FIELD(RK_LAT_N, "", "number of timed calls"),
	FIELD(RK_LAT_MEAN_NS, "ns", "exact mean"),
	FIELD(RK_LAT_SD_NS, "ns", "population standard deviation"),
	FIELD(RK_LAT_MIN_NS, "ns", "exact minimum"),
	FIELD(RK_LAT_P50_NS, "ns", "median, from the histogram"),
	FIELD(RK_LAT_P90_NS, "ns", "90th percentile"),
	FIELD(RK_LAT_P99_NS, "ns", "99th percentile"),
	FIELD(RK_LAT_P999_NS, "ns", "99.9th percentile"),
	FIELD(RK_LAT_MAX_NS, "ns", "exact maximum"),
	FIELD(RK_LAT_HISTOGRAM, "", "the non-zero buckets as [index, count] pairs"),
};

static const struct result_key metric_keys[] = {
	FIELD(RK_METRIC_NAME, "", "the metric's key"),
	FIELD(RK_METRIC_VALUE, "", "its value, in unit"),
	FIELD(RK_METRIC_UNIT, "", "its unit"),
};

/* The members a multi-rank run adds (only then), and its options. */
static const struct result_key ranks_keys[] = {
	FIELD(RK_RUN_RANKS, "", "top level and each row: one object per rank (mpirun)"),
	OPTION(RK_OPT_STONEWALL, "s", "--stonewall: every rank's phase stopped after this"),
	OPTION(RK_OPT_WEAROUT, "bool", "--wearout: then every rank did as much as the busiest"),
	OPTION(RK_OPT_SHARED_FILE, "bool", "--shared-file: one file, a segment per rank"),
	OPTION(RK_OPT_SHARED_DIR, "bool", "--shared-dir: one directory for every rank's files"),
};

static const struct result_key rank_keys[] = {
	FIELD(RK_RANK_RANK, "", "the rank's number, 0 first"),
	FIELD(RK_RANK_ENV, "", "its environment, as the top level's env"),
	FIELD(RK_RANK_FS_DIFFERS, "bool", "its target's file system type is not rank 0's"),
};

static const struct result_key row_rank_keys[] = {
	FIELD(RK_RR_RANK, "", "the rank's number"),
	FIELD(RK_RR_PRESENT, "bool", "false: the rank has no such row (it stopped earlier)"),
	FIELD(RK_RR_START_NS, "ns", "its start, from the earliest start of any rank"),
	FIELD(RK_RR_STOP_NS, "ns", "its stop, on the same scale"),
	FIELD(RK_RR_BYTES, "B", "its bytes"),
	FIELD(RK_RR_OPS, "", "its operations"),
	FIELD(RK_RR_ELAPSED_NS, "ns", "its own time"),
	FIELD(RK_RR_RATE, RK_UNIT_RATE, "its own rate, over its own time"),
	FIELD(RK_RR_STONEWALL_BYTES, "B", "--stonewall: its bytes when the wall came"),
	FIELD(RK_RR_FLAGS, "", "its own row's flags"),
};

#define STABLE(v, n, wl, k)	static TABLE(v, n, wl, k)
STABLE(row_table, "row", NULL, row_keys);
STABLE(run_table, "run", NULL, run_keys);
STABLE(env_table, "env", NULL, env_keys);
STABLE(cpu_table, "cpu", NULL, cpu_keys);
STABLE(latency_table, "latency", NULL, latency_keys);
STABLE(metric_table, "metric", NULL, metric_keys);
STABLE(ranks_table, "ranks", NULL, ranks_keys);
STABLE(rank_table, "rank", NULL, rank_keys);
STABLE(row_rank_table, "row_rank", NULL, row_rank_keys);
STABLE(system_table, "system", NULL, system_keys);
STABLE(device_table, "device", NULL, device_keys);
STABLE(wait_table, "wait", NULL, wait_keys);
STABLE(series_table, "series", NULL, series_keys);
STABLE(series_device_table, "series_device", NULL, series_device_keys);

/* The shared tables a workload's rows see after their own, in this order. */
#define N_SHARED 2

const struct result_key_table *const result_key_tables[] = {
	&rk_dd_table, &rk_cp_table, &rk_bonnie_table, &rk_postmark_table, &rk_db_table,
	&rk_fsync_table, &rk_iozone_table, &rk_job_table, &rk_battery_table, &rk_sustained_table,
	&rk_import_table, &row_table,		/* shared: every workload's rows */
	&run_table, &env_table, &cpu_table, &latency_table, &metric_table,
	&ranks_table, &rank_table, &row_rank_table,
	&system_table, &device_table, &wait_table, &series_table, &series_device_table,
	&rk_devlat_table, &rk_devlat_op_table, &rk_devlat_part_table, &rk_ceilings_table,
	&rk_ceiling_table,
	NULL,
};

const struct result_key_table *result_key_table(const char *name)
{
	size_t i;

	for (i = 0; name && result_key_tables[i]; i++)
		if (!strcmp(result_key_tables[i]->name, name))
			return result_key_tables[i];
	return NULL;
}

size_t result_key_scope(const char *workload, const struct result_key_table **t, size_t max)
{
	const struct result_key_table *own = NULL;
	size_t i, n = 0, shared = 0;

	for (i = 0; workload && result_key_tables[i]; i++)
		if (result_key_tables[i]->workload &&
		    !strcmp(result_key_tables[i]->workload, workload))
			own = result_key_tables[i];
	if (own && n < max)
		t[n++] = own;
	for (i = 0; result_key_tables[i] && n < max; i++) {
		const struct result_key_table *k = result_key_tables[i];

		if (!own)
			t[n++] = k;		/* a workload we do not know: every table */
		else if (!k->workload && shared++ < N_SHARED)
			t[n++] = k;
	}
	return n;
}

int result_key_matches(const struct result_key *k, const char *name)
{
	const char *p = strchr(k->name, 'N');
	size_t pre, digits;

	if (!p)
		return !strcmp(k->name, name);
	pre = (size_t)(p - k->name);
	if (strncmp(k->name, name, pre))
		return 0;
	name += pre;
	digits = strspn(name, "0123456789");
	if (!digits || name[0] == '0')
		return 0;
	return !strcmp(p + 1, name + digits);
}

const struct result_key *result_key_find(const char *workload, unsigned kind,
					 const char *name)
{
	const struct result_key_table *t[16];
	size_t n = result_key_scope(workload, t, 16), i, j;

	for (i = 0; name && i < n; i++)
		for (j = 0; j < t[i]->n; j++)
			if ((t[i]->keys[j].kind & kind) && result_key_matches(&t[i]->keys[j], name))
				return &t[i]->keys[j];
	return NULL;
}

const char *result_key_role_param(const struct row *w, unsigned role,
				  const struct result_key **key)
{
	const struct result_key_table *t[16];
	size_t n = result_key_scope(w->workload, t, 16), i, j;
	const struct result_key *k;
	const char *v;

	for (i = 0; i < n; i++)
		for (j = 0; j < t[i]->n; j++) {
			k = &t[i]->keys[j];
			if (!(k->kind & RK_PARAM) || !(k->roles & role) ||
			    result_key_find(w->workload, RK_PARAM, k->name) != k)
				continue;
			v = kv_get(&w->params, k->name);
			if (v) {
				if (key)
					*key = k;
				return v;
			}
		}
	return NULL;
}

double result_key_unit_bytes(const char *unit)
{
	if (!unit)
		return 0;
	if (!strcmp(unit, "B"))
		return 1;
	if (!strcmp(unit, "KiB"))
		return 1024.0;
	if (!strcmp(unit, "MiB"))
		return 1048576.0;
	if (!strcmp(unit, "GiB"))
		return 1073741824.0;
	return 0;
}

int result_note_states_cache(const struct row *w)
{
	return w->note && strstr(w->note, RK_NOTE_CACHE_MARK) != NULL;
}

/* ---- flags ---------------------------------------------------------------------------- */

/* The names and meanings live in one table (stats/flags.c); these read it. */
const char *result_flag_name(unsigned flag)
{
	const struct flag_info *x = flag_info_of(flag);

	return x ? x->name : NULL;
}

unsigned result_flag_of(const char *name)
{
	return flag_of_name(name);
}

const char *result_flag_meaning(unsigned flag)
{
	const struct flag_info *x = flag_info_of(flag);

	return x ? x->meaning : NULL;
}
