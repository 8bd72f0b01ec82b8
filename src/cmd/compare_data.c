/* compare_data.c - `iobattery compare --format json|csv`, for CI jobs and scripts: every
 * line of every comparison (each run against A) with the figure, both sides (mean, n,
 * sd, unit), the delta in percent, its 95% confidence interval, Welch's p, the verdict
 * word and the refusal reason; raw numbers in the figure's own unit. JSON through
 * jansson (a null where a value does not apply); CSV as RFC 4180 quotes it, one header
 * line, an empty field where a value does not apply. docs/iobattery.1 lists the fields.
 * See compare_int.h. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/compare_int.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define COMPARE_SCHEMA_VERSION 1

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* A finite number, else null. */
static json_t *jnum(int valid, double v)
{
	return valid && isfinite(v) ? json_real(v) : json_null();
}

/* Sets key to v (v may be NULL: ENOMEM); returns -1 on failure. */
static int jset(json_t *o, const char *key, json_t *v)
{
	return v && json_object_set_new(o, key, v) == 0 ? 0 : -1;
}

static json_t *side_json(const struct row_group *g)
{
	json_t *o = json_object();

	if (!g)
		return json_null();
	if (!o || jset(o, "n", json_integer(g->value.n)) ||
	    jset(o, "mean", jnum(g->value.n > 0, g->value.mean)) ||
	    jset(o, "sd", jnum(g->value.n >= 2, g->value.sd)) ||
	    jset(o, "cv", jnum(g->value.n >= 2, g->value.cv)) ||
	    jset(o, "ci_low", jnum(g->value.n >= 2, g->value.lo)) ||
	    jset(o, "ci_high", jnum(g->value.n >= 2, g->value.hi)) ||
	    jset(o, "inconsistent", json_boolean(g->flags & ROW_INCONSISTENT))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *line_json(const struct cmp_line *l)
{
	const struct row_group *g = l->a ? l->a : l->b;
	const char *d = kv_get(&g->first->params, RK_ROW_DETAIL);
	int ratio = l->a && l->b && !l->refusal && !isnan(l->delta_pct);
	char name[320];
	json_t *o = json_object();

	compare_figure_name(name, sizeof(name), g);
	if (!o || jset(o, "figure", json_string(name)) ||
	    jset(o, "workload", jstr(g->first->workload)) ||
	    jset(o, "phase", jstr(g->first->phase)) || jset(o, "detail", jstr(d)) ||
	    jset(o, "unit", jstr(g->unit)) ||
	    jset(o, "higher_is_better", json_boolean(g->higher_better)) ||
	    jset(o, "a", side_json(l->a)) || jset(o, "b", side_json(l->b)) ||
	    jset(o, "delta_pct", jnum(ratio, l->delta_pct)) ||
	    jset(o, "ci_low_pct", jnum(ratio && l->have_ci, l->lo_pct)) ||
	    jset(o, "ci_high_pct", jnum(ratio && l->have_ci, l->hi_pct)) ||
	    jset(o, "p", jnum(ratio && l->tested, l->w.p)) ||
	    jset(o, "significant", ratio && l->tested ? json_boolean(l->significant) :
		 json_null()) ||
	    jset(o, "verdict", json_string(compare_verdict(l))) ||
	    jset(o, "refusal", jstr(l->refusal))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *runs_json(const struct cmp_all *c)
{
	json_t *a = json_array(), *o, *ids;
	char name[2] = { 0, 0 };
	size_t i, k;

	for (i = 0; a && i < c->n; i++) {
		const struct cmp_side *s = &c->side[i];

		name[0] = s->name;
		o = json_object();
		if (!o || json_array_append_new(a, o))
			goto fail;
		ids = json_array();
		if (jset(o, "name", json_string(name)) || jset(o, "given_as", jstr(s->spec)) ||
		    jset(o, "id", jstr(s->run->id)) || jset(o, "label", jstr(s->run->label)) ||
		    jset(o, "host", jstr(s->run->env.host)) ||
		    jset(o, "date", jstr(s->run->env.date)) ||
		    jset(o, "imported", json_boolean(s->run->flags & RUN_IMPORTED)) ||
		    jset(o, "run_ids", ids))
			goto fail;
		for (k = 0; k < s->nmembers; k++)
			if (json_array_append_new(ids, jstr(s->members[k]->id)))
				goto fail;
	}
	return a;
fail:
	json_decref(a);
	return NULL;
}

static json_t *pair_json(const struct cmp_all *c, size_t i)
{
	const struct cmp_result *r = &c->pair[i];
	char a[2] = { 'A', 0 }, b[2] = { c->side[i].name, 0 };
	json_t *o = json_object(), *lines = json_array(), *sum = json_object();
	size_t k;

	if (!o || !lines || !sum) {
		json_decref(o);
		json_decref(lines);
		json_decref(sum);
		return NULL;
	}
	/* o owns sum and lines from here, even when a set fails */
	if (jset(o, "summary", sum) | jset(o, "lines", lines) ||
	    jset(o, "a", json_string(a)) || jset(o, "b", json_string(b)) ||
	    jset(sum, "compared", json_integer(r->compared)) ||
	    jset(sum, "b_better", json_integer(r->b_better)) ||
	    jset(sum, "b_better_significant", json_integer(r->b_better_sig)) ||
	    jset(sum, "a_better", json_integer(r->a_better)) ||
	    jset(sum, "a_better_significant", json_integer(r->a_better_sig)) ||
	    jset(sum, "refused", json_integer(r->refused)) ||
	    jset(sum, "unmatched", json_integer(r->unmatched)))
		goto fail;
	for (k = 0; k < r->n; k++)
		if (json_array_append_new(lines, line_json(&r->l[k])))
			goto fail;
	return o;
fail:
	json_decref(o);
	return NULL;
}

int compare_write_json(FILE *f, const struct cmp_all *c)
{
	json_t *top = json_object(), *pairs = json_array();
	size_t i;
	int rc = -ENOMEM;

	for (i = 1; pairs && i < c->n; i++)
		if (json_array_append_new(pairs, pair_json(c, i)))
			break;
	if (top && pairs && i == c->n &&
	    !jset(top, "schema_version", json_integer(COMPARE_SCHEMA_VERSION)) &&
	    !jset(top, "baseline", json_string("A")) && !jset(top, "runs", runs_json(c)) &&
	    !jset(top, "comparisons", pairs) &&
	    !jset(top, "fail_if_slower_pct", jnum(c->limit >= 0, c->limit)) &&
	    !jset(top, "regressions", json_integer(c->regressions))) {
		pairs = NULL;
		rc = json_dumpf(top, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0 ||
		     fputc('\n', f) == EOF ? -EIO : 0;
	}
	json_decref(pairs);
	json_decref(top);
	return rc < 0 ? rc : ferror(f) ? -EIO : 0;
}

/* ---- CSV -------------------------------------------------------------------------- */

static const char csv_header[] =
	"a,b,figure,workload,phase,detail,unit,higher_is_better,a_n,a_mean,a_sd,b_n,b_mean,"
	"b_sd,delta_pct,ci_low_pct,ci_high_pct,p,significant,verdict,refusal\n";


static void csv_num(FILE *f, int valid, double v)
{
	if (valid && isfinite(v))
		fprintf(f, "%.10g", v);
	fputc(',', f);
}

static void csv_side(FILE *f, const struct row_group *g)
{
	if (!g) {
		fputs(",,,", f);
		return;
	}
	fprintf(f, "%u,", g->value.n);
	csv_num(f, g->value.n > 0, g->value.mean);
	csv_num(f, g->value.n >= 2, g->value.sd);
}

static void csv_line(FILE *f, char b, const struct cmp_line *l)
{
	const struct row_group *g = l->a ? l->a : l->b;
	int ratio = l->a && l->b && !l->refusal && !isnan(l->delta_pct);
	char name[320];

	compare_figure_name(name, sizeof(name), g);
	fprintf(f, "A,%c,", b);
	out_csv_field(f, name, ',');
	out_csv_field(f, g->first->workload, ',');
	out_csv_field(f, g->first->phase, ',');
	out_csv_field(f, kv_get(&g->first->params, RK_ROW_DETAIL), ',');
	out_csv_field(f, g->unit, ',');
	fprintf(f, "%s,", g->higher_better ? "true" : "false");
	csv_side(f, l->a);
	csv_side(f, l->b);
	csv_num(f, ratio, l->delta_pct);
	csv_num(f, ratio && l->have_ci, l->lo_pct);
	csv_num(f, ratio && l->have_ci, l->hi_pct);
	csv_num(f, ratio && l->tested, l->w.p);
	fprintf(f, "%s,", ratio && l->tested ? (l->significant ? "true" : "false") : "");
	out_csv_field(f, compare_verdict(l), ',');
	out_csv_field(f, l->refusal, '\n');
}

int compare_write_csv(FILE *f, const struct cmp_all *c)
{
	size_t i, k;

	fputs(csv_header, f);
	for (i = 1; i < c->n; i++)
		for (k = 0; k < c->pair[i].n; k++)
			csv_line(f, c->side[i].name, &c->pair[i].l[k]);
	return ferror(f) ? -EIO : 0;
}
