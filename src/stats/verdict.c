/* verdict.c - per database aspect the leading configuration, its lead and whether it is
 * significant, and the one-sentence answer (verdict.h; docs/methodology.md "The
 * verdict"). Built on the battery's table of configurations by figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"
#include "stats/battery_table.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/verdict.h"

/* Repeats the command the verdict suggests asks for. */
#define VERDICT_REPEATS 5

static const struct {
	const char *name, *means;
} aspects[VERDICT_NASPECTS] = {
	[VERDICT_COMMIT] = { "commit latency", "a durable 8 KiB write by the fastest sync method "
			     "(what every commit waits for)" },
	[VERDICT_RAND_QD1] = { "random reads, QD1", "8 KiB random reads, one at a time, "
			       "O_DIRECT (an index lookup that misses the cache)" },
	[VERDICT_RAND_QD32] = { "random reads, QD32", "8 KiB random reads, 32 in flight, "
				"O_DIRECT (many sessions at once)" },
	[VERDICT_SQL] = { "SQL script", "the 2005 posts' SQL script, total time" },
	[VERDICT_LOAD] = { "bulk load", "a large sequential write until it is durable" },
	[VERDICT_SCAN] = { "sequential scan", "a large sequential read from the device" },
	[VERDICT_META] = { "small-file metadata", "many small files created, read, appended "
			   "and deleted" },
};

const struct verdict_ref verdict_refs[] = {
	{ VERDICT_COMMIT, 120, "ops/s", "a 7,200 rpm disk without write cache (one commit "
	  "per rotation)", "7,200 turns a minute = 120 a second (docs/methodology.md)" },
	{ VERDICT_COMMIT, 609, "ops/s", "a consumer NVMe SSD (Samsung 990 Pro), fdatasync",
	  "pg_test_fsync in T. Poder, \"Using Postgres pg_test_fsync tool for testing low "
	  "latency writes\", 2025" },
	{ VERDICT_RAND_QD1, 80, "IOPS", "a 7,200 rpm disk (8.5 ms seek + 4.2 ms half "
	  "rotation)", "drive geometry (docs/methodology.md)" },
	{ VERDICT_SCAN, 94.3, "MB/s", "a 2005 3ware RAID5 of 4 disks, Bonnie++ block input "
	  "beyond RAM (92051 K/sec)", "M. Tancsa, freebsd-performance, 2005 (the 2005 posts)" },
	{ VERDICT_LOAD, 15.0, "MB/s", "a 2005 7,200 rpm IDE disk, dd bs=1024 of 1 GiB "
	  "(14953029 bytes/sec)", "N. Pavlica, freebsd-questions, January 2005 (the 2005 "
	  "posts)" },
	{ VERDICT_META, 328, "tps", "PostMark, 2005 3ware RAID5 (set size 300 100000, 400000 "
	  "transactions)", "M. Tancsa, freebsd-performance, 2005 (the 2005 posts)" },
	{ VERDICT_SQL, 304, "s", "the script on PostgreSQL 8.0, FreeBSD 5.3, P4 2.4 GHz, "
	  "7,200 rpm IDE disk", "N. Pavlica, January 2005 (the 2005 posts)" },
	{ -1, 0, NULL, NULL, NULL },
};

const char *verdict_aspect_means(int aspect)
{
	return aspect >= 0 && aspect < VERDICT_NASPECTS ? aspects[aspect].means : "";
}

const char *verdict_why_text(enum verdict_why why)
{
	switch (why) {
	case VERDICT_DECIDED: return "significant";
	case VERDICT_NO_DATA: return "not measured";
	case VERDICT_ONE_CONF: return "measured on one configuration only";
	case VERDICT_UNTRUSTED: return "untrustworthy figures (flagged)";
	case VERDICT_SINGLE: return "single runs: no interval, no test";
	case VERDICT_OVERLAP: return "the 95% intervals overlap: not significant";
	}
	return "";
}

static const char *param(const struct row *w, const char *k)
{
	const char *v = kv_get(&w->params, k);

	return v ? v : "";
}

/* A number of bytes from "1M", "8k", "1048576". */
static double bytes_of(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'k': case 'K': return v * 1024;
	case 'm': case 'M': return v * 1048576;
	case 'g': case 'G': return v * 1073741824.0;
	default: return v;
	}
}

/* In [0, 1): lower for a larger block size (larger blocks first: a scan or a load reads
 * and writes in large blocks). */
static double small_first(const char *bs)
{
	double b = bytes_of(bs);

	return b > 0 ? 1 / (1 + b) : 0.999;
}

static int is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* How well a figure answers an aspect: lower is better, < 0 not at all. */
static double pref(int aspect, const struct row *w)
{
	const char *wl = w->workload, *ph = w->phase;

	switch (aspect) {
	case VERDICT_COMMIT:
		return is(wl, "fsync") && is(param(w, RK_FSYNC_TEST), "one_write") ? 0 : -1;
	case VERDICT_RAND_QD1:
	case VERDICT_RAND_QD32:
		if (!is(wl, "job") || !is(ph, "read") || !is(param(w, RK_JOB_RW), "randread"))
			return -1;
		return is(param(w, RK_JOB_IODEPTH), aspect == VERDICT_RAND_QD1 ? "1" : "32") ?
		       0 : -1;
	case VERDICT_SQL:
		return is(wl, "db") && is(ph, "script_total") ? 0 : -1;
	case VERDICT_LOAD:
		if (is(wl, "dd") && is(ph, "write"))
			return (w->durable_ns && w->durable_ns == w->elapsed_ns ? 0 : 1) +
			       small_first(param(w, RK_DD_BS));
		return is(wl, "db") && (strstr(ph, "insert") || strstr(ph, "build")) ? 2 : -1;
	case VERDICT_SCAN:
		return is(wl, "dd") && is(ph, "read") ? small_first(param(w, RK_DD_BS)) : -1;
	case VERDICT_META:
		if (is(wl, "postmark") && is(ph, "transactions"))
			return 0;
		return is(wl, "bonnie") && is(ph, "seq_create") ? 1 : -1;
	}
	return -1;
}

static int better(double a, double b, int hb)
{
	return hb ? a > b : a < b;
}

static void set_cell(struct verdict *v, const struct battery_table *t, size_t c, int a,
		     size_t f)
{
	struct verdict_cell *x = verdict_at(v, c, a);
	const struct bt_cell *b = bt_at(t, c, f);

	x->have = 1;
	x->flags = b->flags;
	x->trusted = !(b->flags & flag_untrusted_mask());
	x->s = b->s;
	x->p99_ns = b->p99_ns;
	x->row = t->fig[f].first;
	snprintf(x->figure, sizeof(x->figure), "%s", t->fig[f].name);
}

/* Commit: per configuration its fastest durable method, a trusted one when it has one. */
static void pick_commit(struct verdict *v, const struct battery_table *t)
{
	size_t c, f;

	for (c = 0; c < t->nconf; c++) {
		long best = -1;
		int best_trusted = 0;

		for (f = 0; f < t->nfig; f++) {
			const struct bt_cell *b = bt_at(t, c, f);
			int tr = !(b->flags & flag_untrusted_mask());

			if (!b->have || pref(VERDICT_COMMIT, t->fig[f].first) < 0)
				continue;
			if (best < 0 || tr > best_trusted ||
			    (tr == best_trusted &&
			     better(b->s.mean, bt_at(t, c, (size_t)best)->s.mean,
				    t->fig[f].higher_better))) {
				best = (long)f;
				best_trusted = tr;
			}
		}
		if (best >= 0)
			set_cell(v, t, c, VERDICT_COMMIT, (size_t)best);
	}
}

/* Other aspects: one figure for every configuration, the best-suited of those that
 * most configurations have. */
static void pick_one(struct verdict *v, const struct battery_table *t, int a)
{
	long best = -1;
	double bp = 0;
	size_t f, c;

	for (f = 0; f < t->nfig; f++) {
		double p = pref(a, t->fig[f].first);

		if (p < 0)
			continue;
		if (best < 0 || t->fig[f].nhave > t->fig[best].nhave ||
		    (t->fig[f].nhave == t->fig[best].nhave && p < bp)) {
			best = (long)f;
			bp = p;
		}
	}
	if (best < 0)
		return;
	for (c = 0; c < t->nconf; c++)
		if (bt_at(t, c, (size_t)best)->have)
			set_cell(v, t, c, a, (size_t)best);
}

/* The lead of configuration l over s: percent, its interval, Welch's test. */
static void lead(struct verdict_aspect *x, const struct verdict_cell *l,
		 const struct verdict_cell *s)
{
	double ratio, lo, hi;
	struct welch w;
	int ci = stats_ratio_ci(&s->s, &l->s, &ratio, &lo, &hi);

	if (ci < 0)
		return;
	if (x->higher_better) {
		x->lead_pct = (ratio - 1) * 100;
		x->lo_pct = (lo - 1) * 100;
		x->hi_pct = (hi - 1) * 100;
		x->have_ci = ci == 1;
	} else {
		x->lead_pct = (1 / ratio - 1) * 100;
		x->have_ci = ci == 1 && lo > 0 && hi > 0;
		x->lo_pct = x->have_ci ? (1 / hi - 1) * 100 : 0;
		x->hi_pct = x->have_ci ? (1 / lo - 1) * 100 : 0;
	}
	x->tested = stats_welch(&s->s, &l->s, &w) == 0;
	x->p = x->tested ? w.p : 1;
}

/* Leader and runner-up over the trusted figures (all figures when fewer than two are
 * trusted, marked so), the lead and why it does or does not decide. */
static void judge(struct verdict *v, int a)
{
	struct verdict_aspect *x = &v->a[a];
	size_t c, have = 0, trusted = 0;
	int only_trusted;

	x->leader = x->second = v->nconf;
	for (c = 0; c < v->nconf; c++) {
		const struct verdict_cell *k = verdict_at(v, c, a);

		if (!k->have)
			continue;
		have++;
		trusted += (size_t)k->trusted;
		if (!x->unit) {
			const char *u;
			double d;

			if (compare_row_value(k->row, &d, &x->higher_better, &u) == 0)
				x->unit = u;
		}
	}
	if (have == 0 || have == 1) {
		x->why = have ? VERDICT_ONE_CONF : VERDICT_NO_DATA;
		return;
	}
	only_trusted = trusted >= 2;
	for (c = 0; c < v->nconf; c++) {
		const struct verdict_cell *k = verdict_at(v, c, a);

		if (!k->have || (only_trusted && !k->trusted))
			continue;
		if (x->leader == v->nconf ||
		    better(k->s.mean, verdict_at(v, x->leader, a)->s.mean, x->higher_better)) {
			x->second = x->leader;
			x->leader = c;
		} else if (x->second == v->nconf ||
			   better(k->s.mean, verdict_at(v, x->second, a)->s.mean,
				  x->higher_better)) {
			x->second = c;
		}
	}
	lead(x, verdict_at(v, x->leader, a), verdict_at(v, x->second, a));
	if (!only_trusted)
		x->why = VERDICT_UNTRUSTED;
	else if (!x->tested)
		x->why = VERDICT_SINGLE;
	else if (x->p >= 0.05 || !x->have_ci || x->lo_pct <= 0)
		x->why = VERDICT_OVERLAP;
	else
		x->why = VERDICT_DECIDED;
}

/* "commit latency (+23% [+10%, +36%])" appended to buf. */
static size_t say_lead(char *buf, size_t len, size_t n, const struct verdict_aspect *x)
{
	if (n >= len)
		return n;
	if (x->have_ci)
		return n + (size_t)snprintf(buf + n, len - n, "%s (%+.0f%% [%+.0f%%, %+.0f%%])",
					    x->name, x->lead_pct, x->lo_pct, x->hi_pct);
	return n + (size_t)snprintf(buf + n, len - n, "%s (%+.0f%%)", x->name, x->lead_pct);
}

/* The command that would decide: the first run's own command with repeats. */
static void suggest(struct verdict *v, int untrusted)
{
	const struct run *r = v->nconf ? v->conf_run[0] : NULL;
	const char *cl = r && r->command_line ? r->command_line : "iobattery battery --fs LIST";
	const char *each = "";
	size_t c;

	for (c = 1; c < v->nconf; c++)
		if (v->conf_run[c] != r)	/* configurations from several runs */
			each = "each configuration's run again, as ";
	if (strstr(cl, "--repeat"))
		snprintf(v->command, sizeof(v->command), "%s%s (with a larger --repeat)%s", each,
			 cl, untrusted ? ", and a larger --budget so that no figure is cache or "
			 "short" : "");
	else
		snprintf(v->command, sizeof(v->command), "%s%s --repeat %d%s", each, cl,
			 VERDICT_REPEATS, untrusted ? " (and a larger --budget so that no figure "
			 "is cache or short)" : "");
}

/* The answer: the leader of the first decided aspect in priority order (the enum's
 * order: a database server waits on commits first), with the aspects it also leads and
 * those another configuration leads; or why nothing decides. */
static void conclude(struct verdict *v)
{
	size_t n = 0, len = sizeof(v->sentence), c;
	unsigned why[VERDICT_OVERLAP + 1] = { 0 };
	int a, first = -1, k;
	char *s = v->sentence;

	for (a = 0; a < VERDICT_NASPECTS; a++) {
		why[v->a[a].why]++;
		if (v->a[a].why == VERDICT_DECIDED && first < 0)
			first = a;
	}
	if (first >= 0) {
		v->decided = 1;
		v->choice = v->a[first].leader;
		n = (size_t)snprintf(s, len, "Choose %s for a database server: it leads "
				     "significantly in ", v->conf[v->choice]);
		for (a = first, k = 0; a < VERDICT_NASPECTS; a++)
			if (v->a[a].why == VERDICT_DECIDED && v->a[a].leader == v->choice) {
				n += (size_t)snprintf(s + n, n < len ? len - n : 0, "%s",
						      k++ ? ", " : "");
				n = say_lead(s, len, n, &v->a[a]);
			}
		for (a = 0, k = 0; a < VERDICT_NASPECTS; a++)
			if (v->a[a].why == VERDICT_DECIDED && v->a[a].leader != v->choice) {
				n += (size_t)snprintf(s + n, n < len ? len - n : 0,
						      "%s%s leads in ",
						      k++ ? "; " : ", though ",
						      v->conf[v->a[a].leader]);
				n = say_lead(s, len, n, &v->a[a]);
			}
		if (n < len)
			snprintf(s + n, len - n, "%s", k ? " (it matters less to a database, "
				 "which waits on commits and random reads first)." : ".");
		return;
	}
	n = (size_t)snprintf(s, len, "The data cannot decide between ");
	for (c = 0; c < v->nconf && n < len; c++)
		n += (size_t)snprintf(s + n, len - n, "%s%s", c == 0 ? "" :
				      c + 1 == v->nconf ? " and " : ", ", v->conf[c]);
	if (n < len)
		n += (size_t)snprintf(s + n, len - n, ": no aspect has a significant lead (");
	for (k = VERDICT_UNTRUSTED, c = 0; k <= VERDICT_OVERLAP && n < len; k++)
		if (why[k])
			n += (size_t)snprintf(s + n, len - n, "%s%u aspect%s: %s", c++ ? "; " : "",
					      why[k], why[k] == 1 ? "" : "s",
					      verdict_why_text((enum verdict_why)k));
	if (!c && n < len)
		n += (size_t)snprintf(s + n, len - n, "no aspect measured on two configurations");
	if (n < len)
		snprintf(s + n, len - n, ").");
	suggest(v, why[VERDICT_UNTRUSTED] > 0);
}

int verdict_build(struct run *const *runs, const char *const *names, size_t n,
		  struct verdict *v)
{
	struct battery_table t;
	size_t c;
	int rc, a;

	memset(v, 0, sizeof(*v));
	rc = battery_table_build(runs, names, n, NULL, &t);
	if (rc < 0)
		return rc;
	v->nconf = t.nconf;
	v->conf = calloc(t.nconf + 1, sizeof(*v->conf));
	v->conf_run = calloc(t.nconf + 1, sizeof(*v->conf_run));
	v->cell = calloc(t.nconf * VERDICT_NASPECTS + 1, sizeof(*v->cell));
	if (!v->conf || !v->conf_run || !v->cell) {
		battery_table_free(&t);
		verdict_free(v);
		return -ENOMEM;
	}
	for (c = 0; c < t.nconf; c++) {
		snprintf(v->conf[c], sizeof(v->conf[c]), "%s", t.conf[c].name);
		v->conf_run[c] = t.conf[c].run;
	}
	pick_commit(v, &t);
	for (a = VERDICT_COMMIT + 1; a < VERDICT_NASPECTS; a++)
		pick_one(v, &t, a);
	battery_table_free(&t);
	for (a = 0; a < VERDICT_NASPECTS; a++) {
		v->a[a].name = aspects[a].name;
		v->a[a].higher_better = 1;
		judge(v, a);
	}
	if (v->nconf >= 2)
		conclude(v);
	return (int)v->nconf;
}

void verdict_free(struct verdict *v)
{
	free(v->conf);
	free(v->conf_run);
	free(v->cell);
	memset(v, 0, sizeof(*v));
}

char *verdict_limit(const struct verdict *v, size_t c, int aspect, char *buf, size_t len)
{
	const struct verdict_cell *x = verdict_at(v, c, aspect);
	const struct run *r = v->conf_run[c];
	const char *eng = x->row ? kv_get(&x->row->params, RK_JOB_IOENGINE) : NULL;

	if (!x->have)
		snprintf(buf, len, "not measured");
	else if (x->flags & (ROW_CACHE_INFLATED | ROW_DEVICE_IDLE | ROW_WRITEBACK_PENDING))
		snprintf(buf, len, "the host's page cache: the figure is RAM's, not the device's");
	else if (x->flags & ROW_FLUSH_IMPLAUSIBLE)
		snprintf(buf, len, "a volatile write cache that acknowledged the flush");
	else if (x->flags & ROW_TOO_FAST)
		snprintf(buf, len, "a copy offload or reflink, not the device");
	else if (x->flags & ROW_SHORT)
		snprintf(buf, len, "the run's length: under 0.5 s, start-up and the clock show "
			 "(a larger --budget gives a steadier figure)");
	else if (x->row && x->row->cpu.valid && x->row->cpu.proc_pct >= 90)
		snprintf(buf, len, "the CPU: the process used %.0f%% of a CPU",
			 x->row->cpu.proc_pct);
	else if (aspect == VERDICT_RAND_QD32 && eng && !strcmp(eng, "psync"))
		snprintf(buf, len, "the tool: psync keeps one request in flight per job, so "
			 "queue depth 32 is not reached");
	else if (r && r->env.virtualized == 1)
		snprintf(buf, len, "the virtual disk: the hypervisor's device or its host cache");
	else
		snprintf(buf, len, "the device%s", r && r->env.rotational == 1 ?
			 " (a rotating disk)" : "");
	return buf;
}
