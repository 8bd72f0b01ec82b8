/* result_keys_dev.c - the key tables of a row's block-layer latency ("device_latency",
 * "device_latency_op" for each class, "device_latency_part" for each time), of the
 * run's ceilings (env's "ceilings") and of a row's "ceiling". See result_keys.h;
 * docs/results-schema.md documents each table. */
#include "stats/result_keys_int.h"

static const struct result_key devlat_keys[] = {
	FIELD(RK_DL_REASON, "", "why the phase has no block-layer figures, or null"),
	FIELD(RK_DL_DEVICES, "", "the devices whose requests were counted, comma-separated"),
	FIELD(RK_DL_REQUESTS, "", "requests that completed in the window, untimed included"),
	FIELD(RK_DL_UNSTAMPED, "", "completed without the program seeing them issued"),
	FIELD(RK_DL_UNISSUED, "", "seen inserted, completed without being issued"),
	FIELD(RK_DL_DS_REQUESTS, "", "the same devices' completed requests by /proc/diskstats"),
	FIELD(RK_DL_DS_AWAIT, "ms", "their mean time by /proc/diskstats (await)"),
	FIELD(RK_DL_WINDOW_NS, "ns", "the length of the window"),
	FIELD(RK_DL_PROGRAM_NS, "ns", "CPU time the program ran (kernel.bpf_stats_enabled)"),
	FIELD(RK_DL_OPS, "", "per request class: its device and queue times"),
};

static const struct result_key devlat_op_keys[] = {
	FIELD(RK_DL_DEVICE, "", "device time: issue to completion"),
	FIELD(RK_DL_QUEUE, "", "queue time: insert to issue"),
};

static const struct result_key devlat_part_keys[] = {
	FIELD(RK_DL_N, "", "number of timed calls"),
	FIELD(RK_DL_MEAN_NS, "ns", "exact mean"),
	FIELD(RK_DL_P50_NS, "ns", "median, from the histogram"),
	FIELD(RK_DL_P99_NS, "ns", "99th percentile"),
	FIELD(RK_DL_MAX_NS, "ns", "exact maximum"),
	FIELD(RK_DL_HISTOGRAM, "", "the non-zero buckets as [index, count] pairs"),
};

static const struct result_key ceilings_keys[] = {
	FIELD(RK_CEIL_LINK_KIND, "", "nvme, pcie, sata, usb, virtio, none or unknown"),
	FIELD(RK_CEIL_LINK, "", "the link in words (\"PCIe 8.0 GT/s x4\")"),
	FIELD(RK_CEIL_LINK_DEVICE, "", "the disk whose link it is"),
	FIELD(RK_CEIL_LINK_BYTES_S, "B/s", "the most the link can carry, or null"),
	FIELD(RK_CEIL_MEMORY_BYTES_S, "B/s", "memcpy rate measured once per run"),
};

static const struct result_key ceiling_keys[] = {
	FIELD(RK_CEIL_APPLIES, "", "the lowest ceiling of the row: link, memory or tool"),
	FIELD(RK_CEIL_RATE_BYTES_S, "B/s", "the row's bytes over its time"),
	FIELD(RK_CEIL_RATE_OPS_S, "1/s", "the row's operations over its time"),
	FIELD(RK_CEIL_LINK_BYTES_S, "B/s", "the most the link can carry, or null"),
	FIELD(RK_CEIL_MEMORY_BYTES_S, "B/s", "memcpy rate measured once per run"),
	FIELD(RK_CEIL_TOOL_OPS_S, "1/s", "the null engine's rate at the row's settings"),
	FIELD(RK_CEIL_TOOL_BYTES_S, "B/s", "that rate times the block size"),
	FIELD(RK_CEIL_TOOL_CPU, "ns", "the null engine's CPU time per request"),
	FIELD(RK_CEIL_TOOL_SETTINGS, "", "the limit used and the null engine's settings"),
};

TABLE(rk_devlat_table, "device_latency", NULL, devlat_keys);
TABLE(rk_devlat_op_table, "device_latency_op", NULL, devlat_op_keys);
TABLE(rk_devlat_part_table, "device_latency_part", NULL, devlat_part_keys);
TABLE(rk_ceilings_table, "ceilings", NULL, ceilings_keys);
TABLE(rk_ceiling_table, "ceiling", NULL, ceiling_keys);
