/* compare_runs.c - lining up two runs' figures and comparing them: refusals with a
 * reason, the ratio with Fieller's interval, Welch's test, the winner. See compare.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/compare.h"
#include "stats/figkey.h"
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
 * The key tables say which params decide comparability (stats/result_keys_wl.c): a key on
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
	struct cmp_line *nl;

	/* capacity doubles at each power of two (r->n is the only count kept) */
	if (r->n < 8 || !(r->n & (r->n - 1))) {
		nl = realloc(r->l, (r->n < 8 ? 8 : r->n * 2) * sizeof(*nl));
		if (!nl)
			return NULL;
		r->l = nl;
	} else {
		nl = r->l;
	}
	memset(&nl[r->n], 0, sizeof(*nl));
	return &nl[r->n++];
}

/* B's groups indexed for matching: by figure key for the exact match, by phase key with,
 * per run of equal phase keys, the count and the sum of the groups still unused, so that
 * "the only unused group of this phase" is found without a scan. */
struct bmatch {
	char **key, **pkey;
	struct figkey_index byk, byp;
	size_t *range;		/* group -> its phase range (position of the range's start) */
	size_t *unused_n, *unused_sum;	/* per range start */
	char *used;
};

static void bmatch_free(struct bmatch *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m->key ? m->key[i] : NULL);
		free(m->pkey ? m->pkey[i] : NULL);
	}
	free(m->key);
	free(m->pkey);
	figkey_index_free(&m->byk);
	figkey_index_free(&m->byp);
	free(m->range);
	free(m->unused_n);
	free(m->unused_sum);
	free(m->used);
}

static int bmatch_build(struct bmatch *m, const struct run_groups *b)
{
	size_t i, j, n = b->n;

	memset(m, 0, sizeof(*m));
	m->key = calloc(n + 1, sizeof(*m->key));
	m->pkey = calloc(n + 1, sizeof(*m->pkey));
	m->range = calloc(n + 1, sizeof(*m->range));
	m->unused_n = calloc(n + 1, sizeof(*m->unused_n));
	m->unused_sum = calloc(n + 1, sizeof(*m->unused_sum));
	m->used = calloc(n + 1, 1);
	if (!m->key || !m->pkey || !m->range || !m->unused_n || !m->unused_sum || !m->used)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!(m->key[i] = figkey_row(b->g[i].first)) ||
		    !(m->pkey[i] = figkey_phase(b->g[i].first)))
			return -ENOMEM;
	if (figkey_index_build(&m->byk, m->key, n) < 0 ||
	    figkey_index_build(&m->byp, m->pkey, n) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(m->pkey[m->byp.ord[j]], m->pkey[m->byp.ord[i]]); j++) {
			m->range[m->byp.ord[j]] = i;
			m->unused_n[i]++;
			m->unused_sum[i] += m->byp.ord[j];
		}
	}
	return 0;
}

static void bmatch_use(struct bmatch *m, size_t j)
{
	m->used[j] = 1;
	m->unused_n[m->range[j]]--;
	m->unused_sum[m->range[j]] -= j;
}

/* B's counterpart of group ga: the group with the same figure, else the only unused
 * group with the same workload and phase (whose params then differ), else NULL. */
static const struct row_group *find_match(const struct row_group *ga,
					  const struct run_groups *b, struct bmatch *m)
{
	char *k = figkey_row(ga->first), *pk;
	size_t pos, r;

	if (!k)
		return NULL;
	pos = figkey_index_find(&m->byk, k);
	free(k);
	if (pos < m->byk.n && !m->used[m->byk.ord[pos]])
		return &b->g[m->byk.ord[pos]];
	pk = figkey_phase(ga->first);
	if (!pk)
		return NULL;
	pos = figkey_index_find(&m->byp, pk);
	free(pk);
	if (pos == m->byp.n)
		return NULL;
	r = m->range[m->byp.ord[pos]];
	return m->unused_n[r] == 1 ? &b->g[m->unused_sum[r]] : NULL;
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
	struct bmatch bm;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (bmatch_build(&bm, b) < 0)
		goto nomem;
	for (i = 0; i < a->n; i++) {
		l = line_new(out);
		if (!l)
			goto nomem;
		l->a = &a->g[i];
		m = find_match(&a->g[i], b, &bm);
		if (m) {
			bmatch_use(&bm, (size_t)(m - b->g));
			l->b = m;
			l->refusal = compare_refusal(l->a, m);
			if (!l->refusal)
				line_compare(l);
		}
		tally(out, l);
	}
	for (i = 0; i < b->n; i++) {
		if (bm.used[i])
			continue;
		l = line_new(out);
		if (!l)
			goto nomem;
		l->b = &b->g[i];
		tally(out, l);
	}
	bmatch_free(&bm, b->n);
	return 0;
nomem:
	bmatch_free(&bm, b->n);
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
