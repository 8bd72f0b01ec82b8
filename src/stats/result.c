/* result.c - the results model: building and freeing runs, rows and their lists. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/kv.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_devlat.h"
#include "stats/result_sys.h"


struct run *run_new(const char *workload)
{
	struct run *r = calloc(1, sizeof(*r));
	char host[256], stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	if (!r)
		return NULL;
	r->schema_version = RESULT_SCHEMA_VERSION;
	r->status = 0;
	r->env.rotational = -1;
	r->env.virtualized = -1;
	if (gethostname(host, sizeof(host)) != 0)
		strcpy(host, "host");
	host[sizeof(host) - 1] = '\0';
	if (!gmtime_r(&now, &tm) || strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm) == 0)
		strcpy(stamp, "0");
	r->id = str_printf("%s-%s-%ld", host, stamp, (long)getpid());
	if (!r->id || str_set(&r->workload, workload) < 0) {
		run_free(r);
		return NULL;
	}
	return r;
}

static void row_free(struct row *w)
{
	size_t i;

	if (!w)
		return;
	free(w->workload);
	free(w->phase);
	kv_free(&w->params);
	free(w->rate_unit);
	free(w->lat.hist);
	free(w->error);
	free(w->note);
	for (i = 0; i < w->nmetrics; i++) {
		free(w->metrics[i].name);
		free(w->metrics[i].unit);
	}
	free(w->metrics);
	free(w->ranks);
	row_sys_free(w->sys);
	row_series_free(w->series);
	row_devlat_free(w->devlat);
	free(w->ceiling);
	free(w);
}

void env_free(struct env *e)
{
	free(e->tool_version);
	free(e->date);
	free(e->host);
	free(e->os);
	free(e->kernel);
	free(e->arch);
	free(e->cpu_model);
	free(e->target);
	free(e->fs_type);
	free(e->mount_opts);
	free(e->mount_point);
	free(e->device);
	free(e->device_model);
	free(e->scheduler);
	env_ceilings_free(e->ceilings);
	memset(e, 0, sizeof(*e));
	e->rotational = e->virtualized = -1;
}

void run_free(struct run *r)
{
	size_t i;

	if (!r)
		return;
	free(r->id);
	free(r->label);
	free(r->workload);
	free(r->command_line);
	kv_free(&r->options);
	env_free(&r->env);
	for (i = 0; i < r->nrows; i++)
		row_free(r->rows[i]);
	free(r->rows);
	free(r->error);
	for (i = 0; i < r->nranks; i++)
		env_free(&r->ranks[i].env);
	free(r->ranks);
	free(r);
}

struct row *run_add_row(struct run *r, const char *workload, const char *phase)
{
	struct row *w;

	if (kv_grow((void **)&r->rows, &r->cap, r->nrows + 1, sizeof(*r->rows)) < 0)
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->cache_pct = -1;
	if (str_set(&w->workload, workload) < 0 || str_set(&w->phase, phase) < 0) {
		row_free(w);
		return NULL;
	}
	r->rows[r->nrows++] = w;
	return w;
}

void run_remove_row(struct run *r, size_t i)
{
	if (i >= r->nrows)
		return;
	row_free(r->rows[i]);
	memmove(&r->rows[i], &r->rows[i + 1], (r->nrows - i - 1) * sizeof(*r->rows));
	r->nrows--;
}

/* Characters that never need quoting in a POSIX shell word. */
static int result_shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789@%+=:,./_-", *s))
			return 0;
	return 1;
}

int run_set_cmdline(struct run *r, int argc, char **argv)
{
	size_t len = 1, k;
	const char *s;
	char *out, *p;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;	/* worst case: every char is ' -> '\'' */
	out = malloc(len);
	if (!out)
		return -ENOMEM;
	p = out;
	for (i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		if (result_shell_safe(argv[i])) {
			k = strlen(argv[i]);
			memcpy(p, argv[i], k);
			p += k;
			continue;
		}
		*p++ = '\'';
		for (s = argv[i]; *s; s++) {
			if (*s == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *s;
			}
		}
		*p++ = '\'';
	}
	*p = '\0';
	free(r->command_line);
	r->command_line = out;
	return 0;
}

int row_add_metric(struct row *w, const char *name, double value, const char *unit)
{
	struct metric *m;
	size_t cap = w->nmetrics;	/* grown one at a time: rows hold few metrics */

	m = realloc(w->metrics, (cap + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	w->metrics = m;
	m = &w->metrics[w->nmetrics];
	m->name = strdup(name);
	m->unit = strdup(unit ? unit : "");
	m->value = value;
	if (!m->name || !m->unit) {
		free(m->name);
		free(m->unit);
		return -ENOMEM;
	}
	w->nmetrics++;
	return 0;
}

const struct metric *row_metric(const struct row *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nmetrics; i++)
		if (strcmp(w->metrics[i].name, name) == 0)
			return &w->metrics[i];
	return NULL;
}

void row_set_lat(struct row *w, struct hist *h)
{
	struct row_lat *l = &w->lat;

	if (l->hist && l->hist != h)
		free(l->hist);
	memset(l, 0, sizeof(*l));
	l->hist = h;
	if (!h || h->n == 0)
		return;
	l->valid = 1;
	l->n = h->n;
	l->mean_ns = hist_mean(h);
	l->sd_ns = hist_stddev(h);
	l->min_ns = h->min;
	l->p50_ns = hist_percentile(h, 50);
	l->p90_ns = hist_percentile(h, 90);
	l->p99_ns = hist_percentile(h, 99);
	l->p999_ns = hist_percentile(h, 99.9);
	l->max_ns = h->max;
}
