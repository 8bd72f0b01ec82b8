/* kv.c - the small string helpers every floor uses: an ordered key/value list, string
 * setting and formatting, and array growth. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv.h"

__attribute__((format(printf, 1, 0)))
static char *str_vprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	char *s;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *str_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = str_vprintf(fmt, ap);
	va_end(ap);
	return s;
}

int str_set(char **dst, const char *s)
{
	char *copy = NULL;

	if (s) {
		copy = strdup(s);
		if (!copy)
			return -ENOMEM;
	}
	free(*dst);
	*dst = copy;
	return 0;
}

int kv_grow(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t ncap = *cap ? *cap : 8;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int kv_set(struct kvlist *l, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *val;
	size_t i;

	va_start(ap, fmt);
	val = str_vprintf(fmt, ap);
	va_end(ap);
	if (!val)
		return -ENOMEM;
	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].key, key) == 0) {
			free(l->v[i].value);
			l->v[i].value = val;
			return 0;
		}
	}
	if (kv_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v)) < 0)
		goto nomem;
	l->v[l->n].key = strdup(key);
	if (!l->v[l->n].key)
		goto nomem;
	l->v[l->n].value = val;
	l->n++;
	return 0;
nomem:
	free(val);
	return -ENOMEM;
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].value;
	return NULL;
}

void kv_free(struct kvlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
