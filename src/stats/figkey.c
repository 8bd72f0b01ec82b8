/* figkey.c - figure identities as strings, and a sorted index of them (figkey.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/figkey.h"
#include "stats/result.h"
#include "stats/result_keys.h"

struct kbuf {
	char *s;
	size_t len, cap;
	int bad;
};

static void kb_add(struct kbuf *b, const char *v)
{
	size_t l = v ? strlen(v) : 0, need = b->len + l + 24;
	char *n;

	if (b->bad)
		return;
	if (need > b->cap) {
		n = realloc(b->s, need * 2);
		if (!n) {
			b->bad = 1;
			return;
		}
		b->s = n;
		b->cap = need * 2;
	}
	b->len += (size_t)sprintf(b->s + b->len, "%zu:", l);
	memcpy(b->s + b->len, v ? v : "", l);
	b->len += l;
	b->s[b->len] = '\0';
}

static char *kb_done(struct kbuf *b)
{
	if (b->bad || !b->s) {
		free(b->s);
		return NULL;
	}
	return b->s;
}

char *figkey_phase(const struct row *w)
{
	struct kbuf b = { 0 };

	kb_add(&b, w->workload);
	kb_add(&b, w->phase);
	return kb_done(&b);
}

char *figkey_col(const struct row *w)
{
	struct kbuf b = { 0 };

	kb_add(&b, w->workload);
	kb_add(&b, w->phase);
	kb_add(&b, kv_get(&w->params, RK_ROW_DETAIL));
	return kb_done(&b);
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = *(const struct kv *const *)a, *y = *(const struct kv *const *)b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->value ? x->value : "", y->value ? y->value : "");
}

char *figkey_row(const struct row *w)
{
	struct kbuf b = { 0 };
	const struct kv **p;
	size_t i, n = w->params.n;

	kb_add(&b, w->workload);
	kb_add(&b, w->phase);
	if (!n)
		return kb_done(&b);
	p = malloc(n * sizeof(*p));
	if (!p) {
		free(b.s);
		return NULL;
	}
	for (i = 0; i < n; i++)
		p[i] = &w->params.v[i];
	qsort(p, n, sizeof(*p), kv_cmp);
	for (i = 0; i < n; i++) {
		kb_add(&b, p[i]->key);
		kb_add(&b, p[i]->value);
	}
	free(p);
	return kb_done(&b);
}

/* qsort has no context argument: sort (key, item) pairs, the item breaking ties. */
struct kpair {
	const char *key;
	size_t item;
};

static int kpair_cmp(const void *a, const void *b)
{
	const struct kpair *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	return x->item < y->item ? -1 : x->item > y->item;
}

int figkey_index_build(struct figkey_index *x, char **key, size_t n)
{
	struct kpair *p = malloc((n ? n : 1) * sizeof(*p));
	size_t i;

	x->key = key;
	x->n = n;
	x->ord = malloc((n ? n : 1) * sizeof(*x->ord));
	if (!p || !x->ord) {
		free(p);
		free(x->ord);
		x->ord = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		p[i] = (struct kpair){ key[i], i };
	qsort(p, n, sizeof(*p), kpair_cmp);
	for (i = 0; i < n; i++)
		x->ord[i] = p[i].item;
	free(p);
	return 0;
}

void figkey_index_free(struct figkey_index *x)
{
	free(x->ord);
	x->ord = NULL;
	x->n = 0;
}

size_t figkey_index_find(const struct figkey_index *x, const char *k)
{
	size_t lo = 0, hi = x->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(x->key[x->ord[mid]], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->n && !strcmp(x->key[x->ord[lo]], k) ? lo : x->n;
}
