/* figkey.h - a figure's identity as one string, so that figures are matched by sorting
 * and binary search (O(n log n)) instead of comparing every pair: grouping repeats,
 * lining up two runs, the report's columns. Each field is written as its length, ':',
 * and its bytes, so no content can make two different figures' keys equal.
 * Pure; thread-safe. Keys are malloc'd (caller frees); NULL on ENOMEM. */
#ifndef IOB_STATS_FIGKEY_H
#define IOB_STATS_FIGKEY_H

#include <stddef.h>

struct row;

/* Workload, phase and every param as a set (sorted): equal keys exactly when
 * compare_same_figure says the rows are repeats of one figure. */
char *figkey_row(const struct row *w);
/* Workload and phase only. */
char *figkey_phase(const struct row *w);
/* Workload, phase and the "detail" param: the report's column of the figure. */
char *figkey_col(const struct row *w);

/* An index into an array of n keys, sorted by key then by position (stable), for
 * binary search. */
struct figkey_index {
	char **key;		/* borrowed: key[i] of item i */
	size_t *ord;		/* item numbers in key order; owned */
	size_t n;
};
/* Sort. 0 or -ENOMEM. */
int figkey_index_build(struct figkey_index *x, char **key, size_t n);
void figkey_index_free(struct figkey_index *x);
/* The first position in ord whose key equals k (the lowest item among equals), or n. */
size_t figkey_index_find(const struct figkey_index *x, const char *k);

#endif
