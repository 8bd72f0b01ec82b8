/* job_opts_x.c - the second table of fio options (struct job_xopts, job_xopts.h): what
 * each value means, checked as fio checks it. Rows of their own, so that the first
 * table (job_opts.c) and its bit mask stay as they are; job_opt_find looks here second.
 * Options fio takes that change nothing iobattery measures or prints (random_generator,
 * io_submit_mode, fallocate, create_serialize ...) are accepted and checked, and the
 * manual says so. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/job/job_cmdprio.h"
#include "workload/job/job_int.h"

#define JX_OFF(f)	offsetof(struct job_def, f)

/* A CPU or node list as fio and taskset write it: "0-3,8,10-11". 0 or -EINVAL. */
int job_cpulist_parse(const char *s, uint64_t *mask, unsigned nmask)
{
	const char *p = s;

	if (mask)
		memset(mask, 0, nmask * sizeof(*mask));
	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo, i;

		if (end == p || !isdigit((unsigned char)*p))
			return -EINVAL;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (hi < lo || hi >= 64ul * nmask)
			return -EINVAL;
		for (i = lo; mask && i <= hi; i++)
			mask[i / 64] |= 1ull << (i % 64);
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

/* A string option into its fixed array (o->max bytes with the NUL). */
static int jx_str(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val)
{
	char *dst = (char *)d + o->off;

	while (val && isspace((unsigned char)*val))
		val++;
	if (!val || !*val)
		return job_opt_bad(ps, val, "a value is required");
	if (strlen(val) >= o->max)
		return job_opt_bad(ps, val, "too long");
	strcpy(dst, val);
	return 0;
}

static int jx_word(struct job_pstate *ps, const char *val, const char *const *w, int n,
		   const char *expect)
{
	int i = job_opt_word(val, w, n);

	return i < 0 ? job_opt_bad(ps, val, expect) : i;
}

static int jx_cpus(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	if (!val || job_cpulist_parse(val, NULL, 16))
		return job_opt_bad(ps, val, "a CPU list such as 0-3,6 (CPUs below 1024)");
	return jx_str(ps, d, o, val);
}

/* cpumask=HEX (or decimal): the same CPUs as a list. */
static int jx_cpumask(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	char *end, *p = d->xo.cpus_allowed;
	unsigned long long m;
	unsigned i;

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val, "a CPU mask is required");
	m = strtoull(val, &end, 0);
	if (*end || !m)
		return job_opt_bad(ps, val, "a CPU mask (0x... or decimal, not 0)");
	*p = '\0';
	for (i = 0; i < 64; i++)
		if (m >> i & 1)
			p += sprintf(p, "%s%u", p == d->xo.cpus_allowed ? "" : ",", i);
	return 0;
}

static int jx_cpus_policy(struct job_pstate *ps, struct job_def *d,
			  const struct job_optdef *o, const char *val)
{
	static const char *const w[] = { "shared", "split" };
	int i = jx_word(ps, val, w, 2, "shared or split");

	(void)o;
	if (i < 0)
		return i;
	d->xo.cpus_split = i == 1;
	return 0;
}

/* numa_mem_policy=default|local|prefer:N|bind:LIST|interleave:LIST */
static int jx_numa_mem(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		       const char *val)
{
	static const char *const w[] = { "default", "local", "prefer", "bind", "interleave" };
	char head[16];
	const char *c = val ? strchr(val, ':') : NULL;
	size_t n = c ? (size_t)(c - val) : (val ? strlen(val) : 0);
	int i;

	head[0] = '\0';
	if (val && n < sizeof(head)) {
		memcpy(head, val, n);
		head[n] = '\0';
	}
	i = job_opt_word(head, w, 5);
	if (i < 0 || (i >= 2) != (c != NULL) || (c && job_cpulist_parse(c + 1, NULL, 16)))
		return job_opt_bad(ps, val, "default, local, prefer:NODE, bind:NODES or "
				   "interleave:NODES");
	if (i == 2 && strpbrk(c + 1, ",-"))
		return job_opt_bad(ps, val, "prefer takes one node");
	o = &(struct job_optdef){ .off = JX_OFF(xo.numa_mem_policy),
				  .max = sizeof(d->xo.numa_mem_policy) };
	return jx_str(ps, d, o, val);
}

static int jx_numa_nodes(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
			 const char *val)
{
	if (!val || job_cpulist_parse(val, NULL, 16))
		return job_opt_bad(ps, val, "a node list such as 0-1,3");
	return jx_str(ps, d, o, val);
}

/* gtod_reduce=1 is fio's shorthand for disable_lat, disable_clat, disable_slat and
 * disable_bw (and fewer clock reads, which iobattery does not need). */
static int jx_gtod(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	bool on;

	(void)o;
	if (!val || (strcmp(val, "0") && strcmp(val, "1")))
		return job_opt_bad(ps, val, "must be 0 or 1");
	on = val[0] == '1';
	d->xo.gtod_reduce = on;
	d->xo.disable_lat = d->xo.disable_clat = d->xo.disable_slat = d->xo.disable_bw = on;
	return 0;
}

/* One part of buffer_pattern: 0xHEX, 'text' / "text", or a decimal number (its bytes,
 * lowest first, as few as hold it). Appends to out. 0 or -EINVAL. */
static int jx_pattern_part(const char *s, size_t n, unsigned char *out, unsigned *len)
{
	if (n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n - 1] == s[0]) {
		if (*len + n - 2 > JOB_PATTERN_MAX)
			return -EINVAL;
		memcpy(out + *len, s + 1, n - 2);
		*len += (unsigned)(n - 2);
		return n > 2 ? 0 : -EINVAL;
	}
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		/* the digits in pairs from the left; an odd count: a 0 before the first */
		size_t nd = n - 2, i;
		char digs[2 * JOB_PATTERN_MAX + 2];

		if (nd + 1 >= sizeof(digs))
			return -EINVAL;
		digs[0] = '0';
		memcpy(digs + 1, s + 2, nd);
		for (i = nd % 2 ? 0 : 1; i < nd + 1; i += 2) {
			char hx[3] = { digs[i], digs[i + 1], 0 };

			if (!isxdigit((unsigned char)hx[0]) || !isxdigit((unsigned char)hx[1]) ||
			    *len >= JOB_PATTERN_MAX)
				return -EINVAL;
			out[(*len)++] = (unsigned char)strtoul(hx, NULL, 16);
		}
		return 0;
	}
	{
		char buf[24], *end;
		unsigned long long v;

		if (!n || n >= sizeof(buf) || !isdigit((unsigned char)s[0]))
			return -EINVAL;
		memcpy(buf, s, n);
		buf[n] = '\0';
		v = strtoull(buf, &end, 10);
		if (*end)
			return -EINVAL;
		do {
			if (*len >= JOB_PATTERN_MAX)
				return -EINVAL;
			out[(*len)++] = (unsigned char)(v & 0xff);
			v >>= 8;
		} while (v);
	}
	return 0;
}

/* buffer_pattern=PART[|PART...]: the bytes every write buffer repeats. */
static int jx_pattern(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	unsigned char out[JOB_PATTERN_MAX];
	unsigned len = 0;
	const char *p = val, *bar;

	(void)o;
	while (p && isspace((unsigned char)*p))
		p++;
	if (!p || !*p)
		return job_opt_bad(ps, val, "a pattern (0xHEX, 'text' or a number) is required");
	for (;;) {
		size_t n;

		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (jx_pattern_part(p, n, out, &len))
			return job_opt_bad(ps, val, "0xHEX, 'text' or a decimal number, joined "
					   "by '|', at most 512 bytes");
		if (!bar)
			break;
		p = bar + 1;
	}
	memcpy(d->xo.pattern, out, len);
	d->xo.npattern = len;
	return 0;
}

static int jx_coe(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val)
{
	static const char *const w[] = { "none", "false", "0", "read", "write", "io",
					 "verify", "all", "true", "1" };
	static const unsigned m[] = { JOB_COE_NONE, JOB_COE_NONE, JOB_COE_NONE, JOB_COE_READ,
				      JOB_COE_WRITE, JOB_COE_IO, JOB_COE_VERIFY, JOB_COE_ALL,
				      JOB_COE_ALL, JOB_COE_ALL };
	int i = jx_word(ps, val, w, 10, "none, read, write, io, verify or all (0, 1)");

	(void)o;
	if (i < 0)
		return i;
	d->xo.continue_on_error = m[i];
	return 0;
}

static int jx_exit_what(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
			const char *val)
{
	static const char *const w[] = { "group", "stonewall", "all" };
	int i = jx_word(ps, val, w, 3, "group, stonewall or all");

	(void)o;
	if (i < 0)
		return i;
	d->xo.exit_what = (enum job_exit_what)i;
	return 0;
}

static int jx_dedupe_mode(struct job_pstate *ps, struct job_def *d,
			  const struct job_optdef *o, const char *val)
{
	static const char *const w[] = { "repeat", "working_set" };
	int i = jx_word(ps, val, w, 2, "repeat or working_set");

	(void)o;
	if (i < 0)
		return i;
	d->xo.dedupe_ws = i == 1;
	return 0;
}

static int jx_zonemode(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		       const char *val)
{
	static const char *const w[] = { "none", "strided", "zbd" };
	int i = jx_word(ps, val, w, 3, "none, strided or zbd");

	(void)o;
	if (i < 0)
		return i;
	d->xo.zonemode = (enum job_zonemode)i;
	return 0;
}

/* Options whose values are checked and which change nothing iobattery does: the
 * words each may take (NULL: any value). */
static int jx_accept(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val)
{
	static const struct {
		const char *name;
		const char *const w[8];
		const char *expect;
	} acc[] = {
		{ "random_generator", { "tausworthe", "lfsr", "tausworthe64" },
		  "tausworthe, lfsr or tausworthe64" },
		{ "io_submit_mode", { "inline", "offload" }, "inline or offload" },
		{ "fallocate", { "none", "native", "posix", "keep", "truncate", "0", "1" },
		  "none, native, posix, keep, truncate, 0 or 1" },
	};
	size_t i;

	(void)d;
	for (i = 0; i < sizeof(acc) / sizeof(acc[0]); i++) {
		int n = 0;

		if (strcmp(acc[i].name, o->name))
			continue;
		while (n < 8 && acc[i].w[n])
			n++;
		return jx_word(ps, val, acc[i].w, n, acc[i].expect) < 0 ? -EINVAL : 0;
	}
	return 0;
}

static int jx_ratemin(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	char why[JOB_WHY_LEN];
	uint64_t v;

	(void)o;
	if (!val || job_parse_size(val, d->kb_base, &v, NULL, why, sizeof(why)))
		return job_opt_bad(ps, val, val ? why : "a rate is required");
	d->xo.ratemin[0] = d->xo.ratemin[1] = d->xo.ratemin[2] = v;
	return 0;
}

static int jx_latpct(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val)
{
	double v;

	(void)o;
	if (!val || job_parse_double(val, &v) || v < 0 || v > 100)
		return job_opt_bad(ps, val, "a percentile 0 to 100");
	d->xo.latency_percentile = v;
	return 0;
}

static int jx_flow(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	char *end;
	long v;

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val, "a weight is required");
	v = strtol(val, &end, 10);
	if (*end || v < -1000000 || v > 1000000)
		return job_opt_bad(ps, val, "a whole number");
	d->xo.flow = (int)v;
	return 0;
}

#define XG(nm, al, k, f, mn, mx)	{ nm, al, JOB_OPT_COUNT, k, 0, JX_OFF(f), mn, mx, 0, NULL }
#define XT(nm, f, unit)		{ nm, NULL, JOB_OPT_COUNT, JK_TIME, 0, JX_OFF(f), 0, 0, unit, NULL }
#define XS(nm, al, fn)		{ nm, al, JOB_OPT_COUNT, JK_SPECIAL, 0, 0, 0, 0, 0, fn }
#define XSTR(nm, f, fn)	{ nm, NULL, JOB_OPT_COUNT, JK_SPECIAL, 0, JX_OFF(f), 0, \
				  sizeof(((struct job_def *)0)->f), 0, fn }

/* At most 64 rows: bit i of xo.set is row i. */
static const struct job_optdef job_xopts[] = {
	XG("io_size", "io_limit", JK_U64, xo.io_size, 1, 0),
	XG("offset_increment", NULL, JK_U64, xo.offset_increment, 0, 0),
	XSTR("filename_format", xo.filename_format, jx_str),
	XSTR("cpus_allowed", xo.cpus_allowed, jx_cpus),
	XS("cpumask", NULL, jx_cpumask),
	XS("cpus_allowed_policy", NULL, jx_cpus_policy),
	XSTR("numa_cpu_nodes", xo.numa_cpu_nodes, jx_numa_nodes),
	XS("numa_mem_policy", NULL, jx_numa_mem),
	XG("disable_lat", NULL, JK_BOOL, xo.disable_lat, 0, 0),
	XG("disable_clat", NULL, JK_BOOL, xo.disable_clat, 0, 0),
	XG("disable_slat", NULL, JK_BOOL, xo.disable_slat, 0, 0),
	XG("disable_bw_measurement", "disable_bw", JK_BOOL, xo.disable_bw, 0, 0),
	XS("gtod_reduce", NULL, jx_gtod),
	XG("clat_percentiles", NULL, JK_BOOL, xo.clat_percentiles, 0, 0),
	XG("lat_percentiles", NULL, JK_BOOL, xo.lat_percentiles, 0, 0),
	XG("slat_percentiles", NULL, JK_BOOL, xo.slat_percentiles, 0, 0),
	XS("buffer_pattern", NULL, jx_pattern),
	XG("refill_buffers", NULL, JK_SET, xo.refill_buffers, 0, 0),
	XG("zero_buffers", NULL, JK_SET, xo.zero_buffers, 0, 0),
	XG("scramble_buffers", NULL, JK_BOOL, xo.scramble_buffers, 0, 0),
	XG("buffer_compress_percentage", NULL, JK_UINT, xo.compress_pct, 0, 100),
	XG("buffer_compress_chunk", NULL, JK_UINT, xo.compress_chunk, 0, 1u << 30),
	XG("dedupe_percentage", NULL, JK_UINT, xo.dedupe_pct, 0, 100),
	XS("continue_on_error", NULL, jx_coe),
	XG("exitall", NULL, JK_SET, xo.exitall, 0, 0),
	XS("exit_what", NULL, jx_exit_what),
	XG("unlink", NULL, JK_BOOL, xo.unlink, 0, 0),
	XG("unlink_each_loop", NULL, JK_BOOL, xo.unlink_each_loop, 0, 0),
	XG("create_on_open", NULL, JK_BOOL, xo.create_on_open, 0, 0),
	XS("zonemode", NULL, jx_zonemode),
	XG("zonesize", NULL, JK_U64, xo.zonesize, 0, 0),
	XG("zonerange", NULL, JK_U64, xo.zonerange, 0, 0),
	XG("zoneskip", NULL, JK_U64, xo.zoneskip, 0, 0),
	XG("thinktime_blocks", NULL, JK_UINT, xo.thinktime_blocks, 1, UINT32_MAX),
	XS("ratemin", NULL, jx_ratemin),
	XS("flow", NULL, jx_flow),
	XT("latency_target", xo.latency_target, 1),
	XT("latency_window", xo.latency_window, 1),
	XS("latency_percentile", NULL, jx_latpct),
	XSTR("wait_for", xo.wait_for, jx_str),
	/* fio's "threads" is its spelling of thread in old job files */
	XG("threads", NULL, JK_SET, thread, 0, 0),
	/* checked, and nothing iobattery does changes */
	XS("random_generator", NULL, jx_accept),
	XS("io_submit_mode", NULL, jx_accept),
	XS("fallocate", NULL, jx_accept),
	XG("create_serialize", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("exitall_on_error", NULL, JK_SET, xo.no_effect_flag, 0, 0),
	XG("flow_watermark", NULL, JK_UINT, xo.no_effect_num, 0, 0),
	XT("flow_sleep", xo.no_effect_num, 1),
	XG("latency_run", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("error_dump", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("openfiles", NULL, JK_UINT, xo.no_effect_num, 1, UINT32_MAX),
	/* I/O priorities: prio and prioclass each thread's (job_thread.c); the cmdprio
	 * options a request's (job_cmdprio.c) */
	XG("prio", NULL, JK_UINT, xo.prio, 0, 7),
	XG("prioclass", NULL, JK_UINT, xo.prioclass, 0, 3),
	XS("cmdprio", NULL, job_cmdprio_opt),
	XS("cmdprio_percentage", NULL, job_cmdprio_opt),
	XS("cmdprio_class", NULL, job_cmdprio_opt),
	XS("cmdprio_bssplit", NULL, job_cmdprio_opt),
	XG("verify_dump", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("verify_fatal", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("verify_async", NULL, JK_UINT, xo.no_effect_num, 0, 0),
	/* only with zonemode=zbd, which is refused with its reason */
	XG("max_open_zones", NULL, JK_UINT, xo.no_effect_num, 0, 0),
	XG("job_max_open_zones", NULL, JK_UINT, xo.no_effect_num, 0, 0),
	XG("read_beyond_wp", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	/* acting, with a note in job_xopts_finish */
	XG("verify_backlog", NULL, JK_U64, xo.verify_backlog, 0, 0),
	XSTR("ignore_error", xo.ignore_error, jx_str),
	XS("dedupe_mode", NULL, jx_dedupe_mode),
	XG("dedupe_global", NULL, JK_BOOL, xo.no_effect_flag, 0, 0),
	XG("dedupe_working_set_percentage", NULL, JK_UINT, xo.dedupe_ws_pct, 0, 100),
};

#define JX_N	(sizeof(job_xopts) / sizeof(job_xopts[0]))

const struct job_optdef *job_xopt_find(const char *name)
{
	size_t i;

	for (i = 0; i < JX_N; i++)
		if (!strcmp(job_xopts[i].name, name) ||
		    (job_xopts[i].alias && !strcmp(job_xopts[i].alias, name)))
			return &job_xopts[i];
	return NULL;
}

void job_xopt_mark(struct job_def *d, const struct job_optdef *o)
{
	size_t i = (size_t)(o - job_xopts);

	if (o >= job_xopts && i < JX_N && i < 64)
		d->xo.set |= 1ull << i;
}

bool job_xopt_set(const struct job_def *d, const char *name)
{
	const struct job_optdef *o = job_xopt_find(name);
	size_t i = o ? (size_t)(o - job_xopts) : 64;

	return i < 64 && (d->xo.set >> i & 1);
}

void job_xopts_defaults(struct job_xopts *x)
{
	memset(x, 0, sizeof(*x));
	x->clat_percentiles = true;
	x->scramble_buffers = true;
	x->thinktime_blocks = 1;
	x->dedupe_ws_pct = 50;
}
