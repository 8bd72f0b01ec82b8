/* battery_table.c - configurations by figures, ranks, shades and deltas against the
 * baseline (battery_table.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "stats/battery_table.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define MAX_CONF 64

/* Params that name the configuration, not the figure. */
static int conf_key(const char *k)
{
	return !strcmp(k, RK_ROW_FS) || !strcmp(k, RK_ROW_FS_CONFIG) ||
	       !strcmp(k, RK_ROW_MKFS_OPTIONS) || !strcmp(k, RK_ROW_MOUNT_OPTIONS);
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct kv *const *)a)->key, (*(const struct kv *const *)b)->key);
}

/* "workload|phase|k=v|k=v" over the params sorted by key, without the configuration's. */
static char *fig_key(const struct row *w)
{
	const struct kv *v[128];
	size_t i, n = 0, len = 64;
	char *s;

	for (i = 0; i < w->params.n && n < 128; i++) {
		const struct kv *p = &w->params.v[i];

		if (conf_key(p->key))
			continue;
		v[n++] = p;
		len += strlen(p->key) + strlen(p->value ? p->value : "") + 2;
	}
	qsort(v, n, sizeof(v[0]), kv_cmp);
	len += strlen(w->workload) + strlen(w->phase);
	s = malloc(len);
	if (!s)
		return NULL;
	snprintf(s, len, "%s|%s", w->workload, w->phase);
	for (i = 0; i < n; i++)
		snprintf(s + strlen(s), len - strlen(s), "|%s=%s", v[i]->key,
			 v[i]->value ? v[i]->value : "");
	return s;
}

static void fig_words(struct bt_fig *g)
{
	const struct row *w = g->first;
	const char *d = kv_get(&w->params, RK_ROW_DETAIL), *rm = kv_get(&w->params,
									  RK_ROW_READ_METHOD);
	size_t n;

	snprintf(g->name, sizeof(g->name), "%s %s%s%s", w->workload, w->phase, d ? " " : "",
		 d ? d : "");
	g->what[0] = '\0';
	if (w->durable_ns && w->buffered_ns && w->durable_ns == w->elapsed_ns)
		snprintf(g->what, sizeof(g->what), "until the data were durable (fsync)");
	else if (w->durable_ns && w->buffered_ns)
		snprintf(g->what, sizeof(g->what), "buffered (until the last write returned)");
	n = strlen(g->what);
	if (rm)
		snprintf(g->what + n, sizeof(g->what) - n, "%s%s", n ? "; " : "",
			 !strcmp(rm, "drop") ? "read after the cache was dropped" :
			 !strcmp(rm, "direct") ? "read with O_DIRECT" :
			 !strcmp(rm, "2x_ram") ? "read of data over twice the page cache" :
			 "read");
	n = strlen(g->what);
	if (!n)
		snprintf(g->what, sizeof(g->what), "%s", w->rate_unit && w->rate > 0 ?
			 "a rate over the phase" : "the phase's time");
}

/* The configuration of row w of run r (index), added when new. */
static size_t conf_index(struct battery_table *t, const struct run *r, const char *rname,
			 int several, const struct row *w)
{
	const char *c = kv_get(&w->params, RK_ROW_FS_CONFIG);
	char name[192];
	size_t i;

	if (c && several)
		snprintf(name, sizeof(name), "%s: %s", rname, c);
	else
		snprintf(name, sizeof(name), "%s", c ? c : rname);
	for (i = 0; i < t->nconf; i++)
		if (t->conf[i].run == r && !strcmp(t->conf[i].name, name))
			return i;
	if (t->nconf == MAX_CONF)
		return MAX_CONF;
	snprintf(t->conf[t->nconf].name, sizeof(t->conf[0].name), "%s", name);
	t->conf[t->nconf].run = r;
	return t->nconf++;
}

static long fig_index(struct battery_table *t, const struct row *w)
{
	char *k = fig_key(w);
	size_t i;

	if (!k)
		return -ENOMEM;
	for (i = 0; i < t->nfig; i++)
		if (!strcmp(t->fig[i].key, k)) {
			free(k);
			return (long)i;
		}
	if (!(t->nfig & (t->nfig + 1)) || t->nfig == 0) {
		struct bt_fig *g = realloc(t->fig, (t->nfig * 2 + 2) * sizeof(*g));

		if (!g) {
			free(k);
			return -ENOMEM;
		}
		t->fig = g;
	}
	memset(&t->fig[t->nfig], 0, sizeof(t->fig[0]));
	t->fig[t->nfig].key = k;
	t->fig[t->nfig].first = w;
	fig_words(&t->fig[t->nfig]);
	return (long)t->nfig++;
}

/* Samples of one cell. */
struct samples {
	double *v;
	size_t n, cap;
};

/* Run r's name among n: its label ("freebsd-5.3") when no other run has it, else what the
 * user called it (a file, an id), else its label or "run". */
static void run_name(char *buf, size_t len, struct run *const *runs, const char *const *names,
		     size_t n, size_t r)
{
	const char *l = runs[r]->label && *runs[r]->label ? runs[r]->label : NULL;
	size_t i;

	for (i = 0; l && i < n; i++)
		if (i != r && runs[i]->label && !strcmp(runs[i]->label, l))
			l = NULL;
	snprintf(buf, len, "%s", l ? l : names && names[r] ? names[r] :
		 runs[r]->label && *runs[r]->label ? runs[r]->label : "run");
}

/* Pass 1 (s NULL): the configurations and figures. Pass 2: the samples into s. */
static int collect(struct battery_table *t, struct run *const *runs, const char *const *names,
		   size_t n, struct samples *s)
{
	size_t r, i;

	for (r = 0; r < n; r++) {
		char rn[64];

		run_name(rn, sizeof(rn), runs, names, n, r);
		for (i = 0; i < runs[r]->nrows; i++) {
			const struct row *w = runs[r]->rows[i];
			struct samples *sm;
			const char *unit;
			double v;
			size_t c;
			long f;
			int hb;

			if (compare_row_value(w, &v, &hb, &unit) < 0)
				continue;
			c = conf_index(t, runs[r], rn, n > 1, w);
			f = fig_index(t, w);
			if (f < 0)
				return (int)f;
			if (c == MAX_CONF)
				continue;
			t->fig[f].unit = unit;
			t->fig[f].higher_better = hb;
			if (!s)
				continue;
			sm = &s[c * t->nfig + (size_t)f];
			if (sm->n == sm->cap) {
				double *nv = realloc(sm->v, (sm->cap * 2 + 4) * sizeof(*nv));

				if (!nv)
					return -ENOMEM;
				sm->v = nv;
				sm->cap = sm->cap * 2 + 4;
			}
			sm->v[sm->n++] = v;
			bt_at(t, c, (size_t)f)->flags |= w->flags;
			if (w->lat.valid && w->lat.n && !bt_at(t, c, (size_t)f)->p99_ns)
				bt_at(t, c, (size_t)f)->p99_ns = (double)w->lat.p99_ns;
		}
	}
	return 0;
}

static void delta(struct bt_cell *b, struct bt_cell *x, int hb)
{
	double ratio, lo, hi;
	struct welch wt;
	int ci = stats_ratio_ci(&b->s, &x->s, &ratio, &lo, &hi);

	if (ci < 0)
		return;
	x->compared = 1;
	x->have_ci = ci == 1;
	if (hb) {
		x->delta_pct = (ratio - 1) * 100;
		x->lo_pct = (lo - 1) * 100;
		x->hi_pct = (hi - 1) * 100;
	} else {
		x->delta_pct = (1 / ratio - 1) * 100;
		x->lo_pct = hi > 0 ? (1 / hi - 1) * 100 : NAN;
		x->hi_pct = lo > 0 ? (1 / lo - 1) * 100 : NAN;
		if (isnan(x->lo_pct) || isnan(x->hi_pct))
			x->have_ci = 0;
	}
	x->tested = stats_welch(&b->s, &x->s, &wt) == 0;
	x->significant = x->tested && wt.p < 0.05;
}

static int better(double a, double b, int hb)
{
	return hb ? a > b : a < b;
}

/* Ranks, shades, the leader of each figure and the deltas. */
static void score(struct battery_table *t)
{
	size_t f, c;

	for (f = 0; f < t->nfig; f++) {
		struct bt_fig *g = &t->fig[f];
		double lo = HUGE_VAL, hi = -HUGE_VAL;
		size_t second = t->nconf;

		for (c = 0; c < t->nconf; c++) {
			struct bt_cell *x = bt_at(t, c, f);

			if (!x->have)
				continue;
			g->nhave++;
			lo = fmin(lo, x->s.mean);
			hi = fmax(hi, x->s.mean);
		}
		g->leader = t->nconf;
		for (c = 0; c < t->nconf; c++) {
			struct bt_cell *x = bt_at(t, c, f);
			size_t k;

			if (!x->have)
				continue;
			x->rank = 1;
			for (k = 0; k < t->nconf; k++) {
				const struct bt_cell *o = bt_at(t, k, f);

				if (o->have && better(o->s.mean, x->s.mean, g->higher_better))
					x->rank++;
			}
			x->shade = hi > lo ? (g->higher_better ? x->s.mean - lo : hi - x->s.mean) /
					     (hi - lo) : 1;
			if (x->rank == 1 && g->leader == t->nconf)
				g->leader = c;
			else if (x->rank == 2 || (x->rank == 1 && second == t->nconf))
				second = c;
		}
		if (g->nhave < 2 || g->leader == t->nconf)
			continue;
		t->compared++;
		t->conf[g->leader].leads++;
		if (second < t->nconf) {
			struct bt_cell tmp = *bt_at(t, g->leader, f);

			delta(bt_at(t, second, f), &tmp, g->higher_better);
			g->lead_sig = tmp.significant;
			t->conf[g->leader].leads_sig += (unsigned)tmp.significant;
		}
		if (bt_at(t, t->baseline, f)->have)
			for (c = 0; c < t->nconf; c++)
				if (c != t->baseline && bt_at(t, c, f)->have)
					delta(bt_at(t, t->baseline, f), bt_at(t, c, f),
					      g->higher_better);
	}
}

int battery_table_build(struct run *const *runs, const char *const *names, size_t n,
			const char *baseline, struct battery_table *t)
{
	struct samples *s = NULL;
	size_t c, f, k;
	int rc;

	memset(t, 0, sizeof(*t));
	t->conf = calloc(MAX_CONF, sizeof(*t->conf));
	if (!t->conf)
		return -ENOMEM;
	rc = collect(t, runs, names, n, NULL);
	if (rc < 0)
		goto out;
	k = t->nconf * t->nfig + 1;
	t->cell = calloc(k, sizeof(*t->cell));
	s = calloc(k, sizeof(*s));
	if (!t->cell || !s) {
		rc = -ENOMEM;
		goto out;
	}
	rc = collect(t, runs, names, n, s);
	if (rc < 0)
		goto out;
	for (c = 0; c < t->nconf; c++)
		for (f = 0; f < t->nfig; f++) {
			struct bt_cell *x = bt_at(t, c, f);

			x->have = s[c * t->nfig + f].n > 0;
			stats_describe(s[c * t->nfig + f].v, s[c * t->nfig + f].n, &x->s);
		}
	for (c = 0; c < n; c++) {
		const char *d = kv_get(&runs[c]->options, "destroy-data-on");

		if (kv_get(&runs[c]->options, "fs") && (!d || !*d))
			t->loop = 1;
	}
	if (baseline) {
		for (c = 0; c < t->nconf && strcmp(t->conf[c].name, baseline); c++)
			;
		if (c == t->nconf) {
			rc = -ENOENT;
			goto out;
		}
		t->baseline = c;
	}
	score(t);
	rc = (int)t->nconf;
out:
	if (s)
		for (c = 0; c < k; c++)
			free(s[c].v);
	free(s);
	if (rc < 0)
		battery_table_free(t);
	return rc;
}

void battery_table_free(struct battery_table *t)
{
	size_t i;

	for (i = 0; i < t->nfig; i++)
		free(t->fig[i].key);
	free(t->fig);
	free(t->conf);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

int battery_table_useful(struct run *const *runs, size_t n)
{
	const char *first = NULL;
	size_t r, i;

	for (r = 0; r < n; r++)
		for (i = 0; i < runs[r]->nrows; i++) {
			const char *c = kv_get(&runs[r]->rows[i]->params, RK_ROW_FS_CONFIG);

			if (!c)
				continue;
			if (!first)
				first = c;
			else if (strcmp(first, c))
				return 1;
		}
	if (n < 2)
		return 0;
	for (r = 0; r < n; r++)
		if (!runs[r]->workload || strcmp(runs[r]->workload, "battery"))
			return 0;
	return 1;
}

static int by_leads(const void *a, const void *b)
{
	const struct bt_conf *x = *(const struct bt_conf *const *)a;
	const struct bt_conf *y = *(const struct bt_conf *const *)b;

	return x->leads < y->leads ? 1 : x->leads > y->leads ? -1 : 0;
}

char *battery_table_leads(const struct battery_table *t, char *buf, size_t len)
{
	const struct bt_conf *o[MAX_CONF];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nconf; i++)
		o[i] = &t->conf[i];
	qsort(o, t->nconf, sizeof(o[0]), by_leads);
	for (i = 0; i < t->nconf && n < len; i++) {
		if (i == 0)
			n += (size_t)snprintf(buf + n, len - n, "%s leads in %u of %u figures, %u "
					      "significantly", o[i]->name, o[i]->leads, t->compared,
					      o[i]->leads_sig);
		else
			n += (size_t)snprintf(buf + n, len - n, "; %s leads in %u", o[i]->name,
					      o[i]->leads);
	}
	return buf;
}

/* The figure whose latency the summary quotes: a commit (fsync, else the database
 * pattern's fdatasync), else 4 KiB O_DIRECT random writes, else PostMark's transactions,
 * else the first with latency. */
static long lat_fig(const struct battery_table *t)
{
	/* a commit first: the fsync test's, then the database pattern's fdatasync after
	 * each 8 KiB write (its sync row) */
	static const char *const pref[] = {
		"fsync|", "job|sync|", "iozone|random_write|", "postmark|transactions|",
	};
	const size_t np = sizeof(pref) / sizeof(pref[0]);
	size_t p, f, c;

	for (p = 0; p <= np; p++)
		for (f = 0; f < t->nfig; f++) {
			int have = 0;

			if (p < np && strncmp(t->fig[f].key, pref[p], strlen(pref[p])))
				continue;
			if (p == 2 && !strstr(t->fig[f].key, "reclen_kb=4|") &&
			    !strstr(t->fig[f].key, "reclen_kb=4\0"))
				continue;
			for (c = 0; c < t->nconf; c++)
				have += bt_at(t, c, f)->p99_ns > 0;
			if (have >= 2)
				return (long)f;
		}
	return -1;
}

char *battery_table_latency(const struct battery_table *t, char *buf, size_t len)
{
	long f = lat_fig(t);
	size_t c, n;
	char v[32];

	buf[0] = '\0';
	if (f < 0)
		return buf;
	n = (size_t)snprintf(buf, len, "latency p99 of %s:", t->fig[f].name);
	for (c = 0; c < t->nconf && n < len; c++) {
		double ns = bt_at(t, c, (size_t)f)->p99_ns;

		if (ns > 0)
			n += (size_t)snprintf(buf + n, len - n, "%s %s %s", c ? "," : "",
					      t->conf[c].name, units_fmt_ns(v, sizeof(v), ns));
	}
	return buf;
}

int battery_table_summary(FILE *f, const struct run *run, const char *baseline)
{
	struct run *runs[1] = { (struct run *)run };
	struct battery_table t;
	char buf[1024];
	size_t c, g;
	int rc = battery_table_build(runs, NULL, 1, baseline, &t);

	if (rc < 0)
		return rc;
	fprintf(f, "\ncomparison against %s:\n  %s\n", t.conf[t.baseline].name,
		battery_table_leads(&t, buf, sizeof(buf)));
	if (battery_table_latency(&t, buf, sizeof(buf))[0])
		fprintf(f, "  %s\n", buf);
	if (t.loop)
		fputs("  this compares the file systems' behaviour on this device (each on a loop "
		      "device over a file here), not devices\n", f);
	for (g = 0; g < t.nfig; g++) {
		if (t.fig[g].nhave < 2)
			continue;
		fprintf(f, "  %-40.40s", t.fig[g].name);
		for (c = 0; c < t.nconf; c++) {
			const struct bt_cell *x = bt_at(&t, c, g);

			if (!x->have)
				fprintf(f, "  %s -", t.conf[c].name);
			else if (c == t.baseline || !x->compared)
				fprintf(f, "  %s %.*f", t.conf[c].name,
					fabs(x->s.mean) >= 100 ? 0 : fabs(x->s.mean) >= 10 ? 1 : 3,
					x->s.mean);
			else if (x->have_ci)
				fprintf(f, "  %s %+.1f%% [%+.1f, %+.1f]%s", t.conf[c].name,
					x->delta_pct, x->lo_pct, x->hi_pct,
					x->significant ? "*" : "");
			else
				fprintf(f, "  %s %+.1f%%", t.conf[c].name, x->delta_pct);
		}
		fprintf(f, " %s\n", t.fig[g].unit ? t.fig[g].unit : "");
	}
	fputs("  (+ better than the baseline; [95% confidence interval]; * significant)\n", f);
	battery_table_free(&t);
	return ferror(f) ? -EIO : 0;
}
