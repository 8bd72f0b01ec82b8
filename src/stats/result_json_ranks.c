/* result_json_ranks.c - the "ranks" arrays of a multi-rank run in JSON, both ways. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_json_ranks.h"
#include "stats/result_keys.h"

#define NFLAGS 32u

static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

static void set(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		(*bad)++;
}

static json_t *flags_json(unsigned flags, int *bad)
{
	json_t *a = json_array();

	for (unsigned i = 0; a && i < NFLAGS; i++)
		if ((flags & (1u << i)) && result_flag_name(1u << i) &&
		    json_array_append_new(a, json_string(result_flag_name(1u << i))) < 0)
			(*bad)++;
	if (!a)
		(*bad)++;
	return a;
}

int result_json_ranks_run(json_t *o, const struct run *r)
{
	json_t *a;
	int bad = 0;

	if (!r->nranks)
		return 0;
	a = json_array();
	for (size_t i = 0; a && i < r->nranks; i++) {
		const struct run_rank *k = &r->ranks[i];
		json_t *x = json_object();

		set(x, RK_RANK_RANK, json_integer(k->rank), &bad);
		set(x, RK_RANK_ENV, result_json_env(&k->env, &bad), &bad);
		set(x, RK_RANK_FS_DIFFERS, json_boolean(k->fs_differs), &bad);
		if (!x || json_array_append_new(a, x) < 0)
			bad++;
	}
	set(o, RK_RUN_RANKS, a, &bad);
	return bad;
}

int result_json_ranks_row(json_t *o, const struct row *w)
{
	json_t *a;
	int bad = 0;

	if (!w->nranks)
		return 0;
	a = json_array();
	for (size_t i = 0; a && i < w->nranks; i++) {
		const struct row_rank *k = &w->ranks[i];
		json_t *x = json_object();

		set(x, RK_RR_RANK, json_integer(k->rank), &bad);
		set(x, RK_RR_PRESENT, json_boolean(k->present), &bad);
		set(x, RK_RR_START_NS, jint(k->start_ns), &bad);
		set(x, RK_RR_STOP_NS, jint(k->stop_ns), &bad);
		set(x, RK_RR_BYTES, jint(k->bytes), &bad);
		set(x, RK_RR_OPS, jint(k->ops), &bad);
		set(x, RK_RR_ELAPSED_NS, jint(k->elapsed_ns), &bad);
		set(x, RK_RR_RATE, isfinite(k->rate) ? json_real(k->rate) : json_null(), &bad);
		set(x, RK_RR_STONEWALL_BYTES, k->stonewall_bytes ? jint(k->stonewall_bytes) :
		    json_null(), &bad);
		set(x, RK_RR_FLAGS, flags_json(k->flags, &bad), &bad);
		if (!x || json_array_append_new(a, x) < 0)
			bad++;
	}
	set(o, RK_ROW_RANKS, a, &bad);
	return bad;
}

static uint64_t u64_of(const json_t *o, const char *k, int *bad)
{
	const json_t *v = json_object_get(o, k);

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		(*bad)++;
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

static unsigned flags_of(const json_t *a, int *bad)
{
	unsigned f = 0;
	size_t i;
	const json_t *v;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a)) {
		(*bad)++;
		return 0;
	}
	json_array_foreach(a, i, v)
		if (json_is_string(v))
			f |= result_flag_of(json_string_value(v));
	return f;
}

/* The array member "ranks" of o: NULL when absent; -1 via *bad when not an array. */
static const json_t *ranks_of(const json_t *o, size_t *n, char *err, size_t len)
{
	const json_t *a = json_object_get(o, RK_ROW_RANKS);

	*n = 0;
	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		snprintf(err, len, "'" RK_ROW_RANKS "': expected an array");
		return NULL;
	}
	*n = json_array_size(a);
	return a;
}

int result_json_ranks_run_load(const json_t *o, struct run *r, char *err, size_t len)
{
	size_t n, i;
	const json_t *a = ranks_of(o, &n, err, len);

	if (!a)
		return json_object_get(o, RK_RUN_RANKS) && !json_is_null(json_object_get(o,
								RK_RUN_RANKS)) ? -1 : 0;
	r->ranks = calloc(n ? n : 1, sizeof(*r->ranks));
	if (!r->ranks) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i);
		struct run_rank *k = &r->ranks[i];
		int bad = 0;

		r->nranks = i + 1;
		k->env.rotational = k->env.virtualized = -1;
		if (!json_is_object(x)) {
			snprintf(err, len, "'" RK_RUN_RANKS "[%zu]': expected an object", i);
			return -1;
		}
		k->rank = (unsigned)u64_of(x, RK_RANK_RANK, &bad);
		k->fs_differs = json_is_true(json_object_get(x, RK_RANK_FS_DIFFERS));
		if (bad || result_json_env_load(json_object_get(x, RK_RANK_ENV), &k->env, err,
						len) < 0) {
			if (bad)
				snprintf(err, len, "'" RK_RUN_RANKS "[%zu]': bad member", i);
			return -1;
		}
	}
	return 0;
}

int result_json_ranks_row_load(const json_t *o, struct row *w, char *err, size_t len)
{
	size_t n, i;
	const json_t *a = ranks_of(o, &n, err, len);

	if (!a)
		return json_object_get(o, RK_ROW_RANKS) && !json_is_null(json_object_get(o,
								RK_ROW_RANKS)) ? -1 : 0;
	w->ranks = calloc(n ? n : 1, sizeof(*w->ranks));
	if (!w->ranks) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	w->nranks = n;
	for (i = 0; i < n; i++) {
		const json_t *x = json_array_get(a, i), *rate;
		struct row_rank *k = &w->ranks[i];
		int bad = !json_is_object(x);

		k->rank = (unsigned)u64_of(x, RK_RR_RANK, &bad);
		k->present = json_is_true(json_object_get(x, RK_RR_PRESENT));
		k->start_ns = u64_of(x, RK_RR_START_NS, &bad);
		k->stop_ns = u64_of(x, RK_RR_STOP_NS, &bad);
		k->bytes = u64_of(x, RK_RR_BYTES, &bad);
		k->ops = u64_of(x, RK_RR_OPS, &bad);
		k->elapsed_ns = u64_of(x, RK_RR_ELAPSED_NS, &bad);
		rate = json_object_get(x, RK_RR_RATE);
		k->rate = json_is_number(rate) ? json_number_value(rate) : NAN;
		k->stonewall_bytes = u64_of(x, RK_RR_STONEWALL_BYTES, &bad);
		k->flags = flags_of(json_object_get(x, RK_RR_FLAGS), &bad);
		if (bad) {
			snprintf(err, len, "'" RK_ROW_RANKS "[%zu]': bad member", i);
			return -1;
		}
	}
	return 0;
}
