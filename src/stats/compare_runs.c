/* compare_runs.c - lining up two runs' figures and comparing them: refusals with a
 * reason, the ratio with Fieller's interval, Welch's test, the winner. See compare.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/compare.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static const char *val_or_none(const char *v)
{
	return v ? v : "(none)";
}

/* Split s at blanks and commas into up to 32 words of up to 63 characters. */
static size_t split_words(const char *s, char w[32][64])
{
	size_t n = 0, k;

	while (*s && n < 32) {
		s += strspn(s, " ,");
		k = strcspn(s, " ,");
		if (k)
			snprintf(w[n++], 64, "%.*s", (int)k, s);
		s += k;
	}
	return n;
}

/* Values equal as sets of words: "fdatasync " equals "fdatasync", "a,b" equals "b a". */
static int param_equal(const char *a, const char *b)
{
	char wa[32][64], wb[32][64];
	size_t na = split_words(a, wa), nb = split_words(b, wb), i, j;

	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && strcmp(wa[i], wb[j]); j++)
			;
		if (j == nb)
			return 0;
	}
	return 1;
}

/* Is k the declaration rows of workload wl see for its name (not one shadowed by an
 * earlier table of the scope)? */
static int key_effective(const char *wl, const struct result_key *k)
{
	return result_key_find(wl, RK_PARAM, k->name) == k;
}

/* The first parameter that makes a and b incomparable, as a reason; NULL when none.
 * The key tables say which params decide comparability (stats/result_keys.c): a key on
 * both sides with different values refuses unless the key is a mere label
 * (RK_CMP_NONE); a key on one side only refuses when it names the method
 * (RK_CMP_DEFINES: an imported run knows fewer params than a measured one, and that
 * alone must not block a comparison). Params no table declares compare by value. */
static char *params_refusal(const struct row *a, const struct row *b)
{
	const struct result_key_table *t[16];
	const struct result_key *k;
	const char *va, *vb, *key, *wl = a->workload;
	size_t i, j, nt = result_key_scope(wl, t, 16);

	/* the keys whose tables explain a difference first, in table order: the ones
	 * users care most about */
	for (i = 0; i < nt; i++)
		for (j = 0; j < t[i]->n; j++) {
			k = &t[i]->keys[j];
			if (!(k->kind & RK_PARAM) || !k->differs || k->cmp == RK_CMP_NONE ||
			    !key_effective(wl, k))
				continue;
			va = kv_get(&a->params, k->name);
			vb = kv_get(&b->params, k->name);
			if (!va && !vb)
				continue;
			if ((va && vb && !param_equal(va, vb)) ||
			    ((!va || !vb) && k->cmp == RK_CMP_DEFINES))
				return str_printf("%s: %s '%s' vs '%s'", k->differs, k->name,
						  val_or_none(va), val_or_none(vb));
		}
	for (i = 0; i < a->params.n; i++) {
		key = a->params.v[i].key;
		va = a->params.v[i].value;
		vb = kv_get(&b->params, key);
		k = result_key_find(wl, RK_PARAM, key);
		if (k && (k->cmp == RK_CMP_NONE || k->differs))
			continue;
		if (vb && !param_equal(va ? va : "", vb))
			return str_printf("%s: %s '%s' vs '%s'", "different parameter", key,
					  val_or_none(va), vb);
	}
	return NULL;
}

char *compare_refusal(const struct row_group *a, const struct row_group *b)
{
	char *why = params_refusal(a->first, b->first);
	unsigned ca = a->flags & ROW_CACHE_INFLATED, cb = b->flags & ROW_CACHE_INFLATED;
	unsigned fa = a->flags & ROW_TOO_FAST, fb = b->flags & ROW_TOO_FAST;

	if (why)
		return why;
	if (a->value.n == 0 || b->value.n == 0)
		return str_printf("not measured: no figure in %s%s",
				  a->value.n == 0 ? "A" : "",
				  a->value.n == 0 && b->value.n == 0 ? " and B" :
				  (b->value.n == 0 ? "B" : ""));
	if (ca != cb)
		return str_printf("cache-inflated vs not: %s read largely from the page cache",
				  ca ? "A" : "B");
	if (fa != fb)
		return str_printf("offloaded vs not: %s finished faster than memory can copy",
				  fa ? "A" : "B");
	if (!a->unit || !b->unit || strcmp(a->unit, b->unit))
		return str_printf("different units: '%s' vs '%s'", val_or_none(a->unit),
				  val_or_none(b->unit));
	if (a->higher_better != b->higher_better)
		return str_printf("different kinds of figure (rate vs time)");
	return NULL;
}

/* Fill a compared line: ratio, delta in the "B better" orientation, CI, test, winner. */
static void line_compare(struct cmp_line *l)
{
	const struct fig_stats *a = &l->a->value, *b = &l->b->value;
	double ratio, lo, hi;
	int hb = l->a->higher_better;

	if (stats_ratio_ci(a, b, &ratio, &lo, &hi) < 0) {
		/* A's mean is zero: nothing sensible to divide by */
		l->ratio = NAN;
		l->delta_pct = NAN;
		l->winner = b->mean > 0 ? (hb ? CMP_B : CMP_A) : CMP_TIE;
		return;
	}
	l->have_ci = stats_ratio_ci(a, b, &ratio, &lo, &hi) == 1;
	l->ratio = ratio;
	/* for rates B is better by ratio - 1; for times by A/B - 1 (B took less time) */
	if (hb) {
		l->delta_pct = (ratio - 1) * 100;
		l->lo_pct = (lo - 1) * 100;
		l->hi_pct = (hi - 1) * 100;
	} else {
		l->delta_pct = (1 / ratio - 1) * 100;
		l->lo_pct = hi > 0 ? (1 / hi - 1) * 100 : NAN;
		l->hi_pct = lo > 0 ? (1 / lo - 1) * 100 : NAN;
		if (isnan(l->lo_pct) || isnan(l->hi_pct))
			l->have_ci = 0;
	}
	l->tested = stats_welch(a, b, &l->w) == 0;
	l->significant = l->tested && l->w.p < 0.05;
	if (ratio == 1)
		l->winner = CMP_TIE;
	else
		l->winner = l->delta_pct > 0 ? CMP_B : CMP_A;
}

static struct cmp_line *line_new(struct cmp_result *r)
{
	struct cmp_line *nl = realloc(r->l, (r->n + 1) * sizeof(*nl));

	if (!nl)
		return NULL;
	r->l = nl;
	memset(&nl[r->n], 0, sizeof(*nl));
	return &nl[r->n++];
}

static int same_phase(const struct row *a, const struct row *b)
{
	return !strcmp(a->workload ? a->workload : "", b->workload ? b->workload : "") &&
	       !strcmp(a->phase ? a->phase : "", b->phase ? b->phase : "");
}

/* B's counterpart of group ga: the group with the same figure, else the only group with
 * the same workload and phase (whose params then differ), else NULL. */
static const struct row_group *find_match(const struct row_group *ga,
					  const struct run_groups *b, const char *used)
{
	const struct row_group *cand = NULL;
	size_t j, ncand = 0;

	for (j = 0; j < b->n; j++)
		if (!used[j] && compare_same_figure(ga->first, b->g[j].first))
			return &b->g[j];
	for (j = 0; j < b->n; j++)
		if (!used[j] && same_phase(ga->first, b->g[j].first)) {
			cand = &b->g[j];
			ncand++;
		}
	return ncand == 1 ? cand : NULL;
}

static void tally(struct cmp_result *r, const struct cmp_line *l)
{
	if (!l->a || !l->b) {
		r->unmatched++;
		return;
	}
	if (l->refusal) {
		r->refused++;
		return;
	}
	r->compared++;
	if (l->winner == CMP_B) {
		r->b_better++;
		r->b_better_sig += l->significant;
	} else if (l->winner == CMP_A) {
		r->a_better++;
		r->a_better_sig += l->significant;
	}
}

int compare_groups(const struct run_groups *a, const struct run_groups *b,
		   struct cmp_result *out)
{
	struct cmp_line *l;
	const struct row_group *m;
	char *used;
	size_t i;

	memset(out, 0, sizeof(*out));
	used = calloc(b->n + 1, 1);
	if (!used)
		return -ENOMEM;
	for (i = 0; i < a->n; i++) {
		l = line_new(out);
		if (!l)
			goto nomem;
		l->a = &a->g[i];
		m = find_match(&a->g[i], b, used);
		if (m) {
			used[m - b->g] = 1;
			l->b = m;
			l->refusal = compare_refusal(l->a, m);
			if (!l->refusal)
				line_compare(l);
		}
		tally(out, l);
	}
	for (i = 0; i < b->n; i++) {
		if (used[i])
			continue;
		l = line_new(out);
		if (!l)
			goto nomem;
		l->b = &b->g[i];
		tally(out, l);
	}
	free(used);
	return 0;
nomem:
	free(used);
	compare_result_free(out);
	return -ENOMEM;
}

void compare_result_free(struct cmp_result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->l[i].refusal);
	free(r->l);
	memset(r, 0, sizeof(*r));
}
