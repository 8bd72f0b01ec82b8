/* kv.h - the string helpers below every floor: an ordered list of text key/value pairs
 * (a run's parameters and options, an environment's extras), setting and formatting
 * strings, and growing arrays. Not thread-safe on one list; no shared state. */
#ifndef IOB_CORE_KV_H
#define IOB_CORE_KV_H

#include <stddef.h>

/* An ordered list of text key/value pairs. */
struct kv {
	char *key;
	char *value;
};
struct kvlist {
	struct kv *v;
	size_t n, cap;
};
/* Set key to the formatted value (replacing an earlier value). 0 or -ENOMEM. */
int kv_set(struct kvlist *l, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of key or NULL. */
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);
/* Replace a string field: *dst = strdup(s) (NULL allowed). 0 or -ENOMEM. */
int str_set(char **dst, const char *s);
/* printf into a new string; NULL on ENOMEM. */
char *str_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Grow the array *arr of elements of size sz to hold at least need (capacity doubles
 * from 8); *arr and *cap are updated. 0 or -ENOMEM (the array is then unchanged). */
int kv_grow(void **arr, size_t *cap, size_t need, size_t sz);

#endif
