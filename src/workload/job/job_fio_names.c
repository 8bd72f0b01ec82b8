/* job_fio_names.c - the option names (with aliases and the options of fio's engines)
 * and engine names of fio 3.33, sorted: an option iobattery does not implement is
 * refused as "not implemented" when fio has it, and as "unknown" otherwise. Names only,
 * the interface fio's users type. */
#include <stdlib.h>
#include <string.h>

#include "workload/job/job_int.h"

static const char *const fio_options[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic", "ba",
	"bindname", "block_error_percentiles", "blockalign", "blocksize", "blocksize_range",
	"blocksize_unaligned", "bs", "bs_is_seq_rand", "bs_unaligned", "bsrange", "bssplit",
	"buffer_compress_chunk", "buffer_compress_percentage", "buffer_pattern", "buffered",
	"bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight", "clat_percentiles",
	"clocksource", "cmd_type", "cmdprio", "cmdprio_bssplit", "cmdprio_class",
	"cmdprio_percentage", "continue_on_error", "cpuload", "cpumask", "cpumode",
	"cpus_allowed", "cpus_allowed_policy", "create_fsync", "create_on_open", "create_only",
	"create_serialize", "dedupe_global", "dedupe_mode", "dedupe_percentage",
	"dedupe_working_set_percentage", "description", "direct", "directory", "disable_bw",
	"disable_bw_measurement", "disable_clat", "disable_lat", "disable_slat", "disk_util",
	"do_verify", "donorname", "end_fsync", "error_dump", "exec_postrun", "exec_prerun",
	"exit_on_io_done", "exit_what", "exitall", "exitall_on_error", "experimental_verify",
	"fadvise_hint", "fallocate", "fdatasync", "file_append", "file_service_type",
	"filename", "filename_format", "fileoffset", "filesize", "fill_device", "fill_fs",
	"fixedbufs", "flow", "flow_id", "flow_sleep", "flow_watermark", "force_async", "fsync",
	"fsync_on_close", "gid", "gpu_dev_id", "group_reporting", "gtod_cpu", "gtod_reduce",
	"hipri", "hipri_percentage", "hostname", "hugepage-size", "ignore_error",
	"ignore_zone_limits", "inplace", "interface", "invalidate", "io_limit", "io_size",
	"io_submit_mode", "iodepth", "iodepth_batch", "iodepth_batch_complete",
	"iodepth_batch_complete_max", "iodepth_batch_complete_min", "iodepth_batch_submit",
	"iodepth_low", "ioengine", "iomem", "iomem_align", "iopsavgtime", "ioscheduler",
	"job_max_open_zones", "kb_base", "lat_percentiles", "latency_percentile",
	"latency_run", "latency_target", "latency_window", "listen", "lockfile", "lockmem",
	"log_alternate_epoch", "log_alternate_epoch_clock_id", "log_avg_msec",
	"log_compression", "log_compression_cpus", "log_entries", "log_hist_coarseness",
	"log_hist_msec", "log_max_value", "log_offset", "log_prio", "log_store_compressed",
	"log_unix_epoch", "loops", "max_latency", "max_open_zones", "mem", "mem_align",
	"merge_blktrace_file", "merge_blktrace_iters", "merge_blktrace_scalars", "mss", "name",
	"new_group", "nice", "nodelay", "nonvectored", "norandommap", "nowait", "nr_files",
	"nrfiles", "numa_cpu_nodes", "numa_mem_policy", "number_ios", "numjobs", "offset",
	"offset_align", "offset_increment", "opendir", "openfiles", "overwrite",
	"per_job_logs", "percentage_random", "percentage_sequential", "percentile_list",
	"pingpong", "port", "pre_read", "prio", "prioclass", "profile", "protocol",
	"ramp_time", "random_distribution", "random_generator", "randrepeat", "randseed",
	"rate", "rate_cycle", "rate_ignore_thinktime", "rate_iops", "rate_iops_min",
	"rate_min", "rate_process", "ratecycle", "ratemin", "read_beyond_wp", "read_iolog",
	"read_iolog_chunked", "readfua", "readwrite", "refill_buffers", "registerfiles",
	"replay_align", "replay_no_stall", "replay_redirect", "replay_scale", "replay_skip",
	"replay_time_scale", "runtime", "rw", "rw_sequencer", "rwmixcycle", "rwmixread",
	"rwmixwrite", "scramble_buffers", "serialize_overlap", "sg_write_mode",
	"significant_figures", "size", "slat_percentiles", "softrandommap", "sqthread_poll",
	"sqthread_poll_cpu", "ss", "ss_dur", "ss_ramp", "startdelay", "stats", "steadystate",
	"steadystate_duration", "steadystate_ramp_time", "stonewall", "stream_id", "sync",
	"sync_file_range", "thinktime", "thinktime_blocks", "thinktime_blocks_type",
	"thinktime_iotime", "thinktime_spin", "thp", "thread", "time_based", "timeout",
	"trim_backlog", "trim_backlog_batch", "trim_percentage", "trim_verify_zero", "ttl",
	"uid", "uncached", "unified_rw_reporting", "unique_filename", "unit_base", "unlink",
	"unlink_each_loop", "uri", "userspace_reap", "verb", "verify", "verify_async",
	"verify_async_cpus", "verify_backlog", "verify_backlog_batch", "verify_dump",
	"verify_fatal", "verify_interval", "verify_offset", "verify_only", "verify_pattern",
	"verify_state_load", "verify_state_save", "verifysort", "verifysort_nr", "wait_for",
	"wait_for_previous", "window_size", "write_barrier", "write_bw_log", "write_hint",
	"write_hist_log", "write_iolog", "write_iops_log", "write_lat_log", "writefua",
	"zero_buffers", "zone_reset_frequency", "zone_reset_threshold", "zonecapacity",
	"zonemode", "zonerange", "zonesize", "zoneskip",
};

static const char *const fio_engines[] = {
	"cpuio", "dev-dax", "dfs", "e4defrag", "exec", "external", "falloc", "filecreate",
	"filedelete", "filestat", "ftruncate", "gfapi", "gfapi_async", "http", "ime_aio",
	"ime_psync", "ime_psyncv", "io_uring", "io_uring_cmd", "libaio", "libhdfs", "libpmem",
	"librpma_apm", "librpma_gpspm", "mmap", "mtd", "nbd", "net", "netsplice", "nfs",
	"null", "pmemblk", "posixaio", "psync", "pvsync", "pvsync2", "rados", "rbd", "rdma",
	"sg", "solarisaio", "splice", "sync", "vsync", "windowsaio", "xnvme",
};

static int jf_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

bool job_fio_has_option(const char *name)
{
	return bsearch(name, fio_options, sizeof(fio_options) / sizeof(fio_options[0]),
		       sizeof(fio_options[0]), jf_cmp) != NULL;
}

bool job_fio_has_engine(const char *name)
{
	return bsearch(name, fio_engines, sizeof(fio_engines) / sizeof(fio_engines[0]),
		       sizeof(fio_engines[0]), jf_cmp) != NULL;
}
