/* result_ceiling.h - the ceilings every figure must stay under, in the results model.
 *
 * The run's (env "ceilings"): the link of the disk behind the target (PCIe generation x
 * width for NVMe, the SATA link's speed, USB's; virtio and unknown links have none) and
 * the memory copy rate measured once per run. A row's ("ceiling"): its own rate in bytes
 * and operations per second, the run's two ceilings where they apply to it, and the
 * tool's own limit at the row's settings (the null engine: through the workload's own
 * loop where it measures that, a job's, else through the runner's request path at the
 * same depth, threads and block size), and which of them is the lowest
 * (applies). Flags: over_ceiling (the row's bytes per second above the link or the
 * memory ceiling), tool_bound (its operations per second within 10% of the tool's own
 * limit, or its CPU time per operation within 1/0.9 of the tool's own: the comparison
 * that holds when other work on the machine takes CPU time from both measurements).
 * Values are doubles, NaN where unknown or not applicable (JSON null).
 * docs/results-schema.md ("ceilings", "ceiling") and docs/methodology.md ("Ceilings").
 * Ownership: the env owns its ceilings (env_free), a row its ceiling (run_free). */
#ifndef IOB_STATS_RESULT_CEILING_H
#define IOB_STATS_RESULT_CEILING_H

#include <stddef.h>

#include <jansson.h>

struct row;

#define CEIL_TOOL_SHARE		0.90	/* tool_bound: at least this share of the tool's */

struct env_ceilings {
	char *link_kind;		/* "nvme", "pcie", "sata", "usb", "virtio", "none",
					 * "unknown" */
	char *link;			/* in words: "PCIe 8.0 GT/s x4", "SATA 6.0 Gbps" */
	char *link_device;		/* the disk it belongs to */
	double link_bytes_s;		/* the most it can carry; NaN none or unknown */
	double memory_bytes_s;		/* memcpy rate; NaN not measured */
};

enum ceil_kind { CEIL_NONE, CEIL_LINK, CEIL_MEMORY, CEIL_TOOL };

struct row_ceiling {
	enum ceil_kind applies;		/* the lowest that applies; CEIL_NONE: none */
	double rate_bytes_s, rate_ops_s;	/* the row's; NaN none */
	double link_bytes_s;		/* NaN: does not apply (cache, no link known) */
	double memory_bytes_s;
	double tool_ops_s, tool_bytes_s;	/* NaN: not measured for this row */
	double tool_cpu_ns_per_op;	/* the null engine's CPU time per request */
	char tool_settings[160];	/* the limit used and its settings in words */
};

/* "link", "memory", "tool"; NULL for CEIL_NONE. */
const char *ceil_kind_name(enum ceil_kind k);
/* A row_ceiling with every value NaN; NULL on ENOMEM. */
struct row_ceiling *row_ceiling_new(void);
void env_ceilings_free(struct env_ceilings *c);

/* Fill w->ceiling from the run's ceilings c (may be NULL) and the tool's limit
 * (tool_ops_s and tool_cpu_ns per request, NaN none; tool_bs its block size; settings in
 * words), pick the one that applies, and return the flags (ROW_OVER_CEILING,
 * ROW_TOOL_BOUND) it calls for. The link applies to a row that
 * moves bytes unless a flag already says the page cache answered (cache_inflated,
 * device_idle, writeback_pending); memory to every row that moves bytes. 0 and no
 * ceiling for a row without a time. -ENOMEM possible through the allocation: then 0. */
unsigned row_ceiling_apply(struct row *w, const struct env_ceilings *c, double tool_ops_s,
			   double tool_cpu_ns, double tool_bs, const char *settings);

/* The CPU time w's process spent per operation, less the sampler thread's own (ns); NaN
 * without CPU figures. Pure. */
double row_cpu_per_op(const struct row *w);

json_t *rceil_to_json(const struct row_ceiling *c);
json_t *rceil_env_to_json(const struct env_ceilings *c);
/* Read o (absent or null: *out NULL). 0 or -EINVAL/-ENOMEM with why in err. */
int rceil_from_json(const json_t *o, struct row_ceiling **out, char *err, size_t len);
int rceil_env_from_json(const json_t *o, struct env_ceilings **out, char *err, size_t len);

#endif
