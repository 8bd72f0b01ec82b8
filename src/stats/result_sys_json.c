/* result_sys_json.c - dump and load of a row's "system" and "series" objects. Every
 * value goes through one of two helpers (an integer or a real, null for NaN), so the
 * tables of result_sys.c decide the form and a loaded object dumps to the same text. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"
#include "stats/result_sys_json.h"

/* ---- dumping ---- */

static json_t *jval(double v, int integer)
{
	if (!isfinite(v))
		return json_null();
	if (integer)
		return json_integer(v >= 9.2e18 ? INT64_MAX : (json_int_t)llround(v));
	return json_real(v);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

/* Set and count failures (a NULL value, a failed insertion). */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		(*bad)++;
}

static void push(json_t *a, json_t *v, int *bad)
{
	if (!a || !v || json_array_append_new(a, v) < 0)
		(*bad)++;
}

static json_t *dev_to_json(const struct row_sys_dev *d, int *bad)
{
	json_t *o = json_object();

	put(o, RK_DEV_NAME, jstr(d->name), bad);
	put(o, RK_DEV_ROLE, jstr(d->role), bad);
	for (unsigned k = 0; k < RSD_N; k++)
		put(o, rsys_dev_keys[k].name, jval(d->v[k], rsys_dev_keys[k].integer), bad);
	return o;
}

static json_t *wait_to_json(const struct row_sys_wait *w, int *bad)
{
	json_t *o = json_object();
	char st[2] = { w->state, 0 };

	put(o, RK_WAIT_STATE, json_string(st), bad);
	put(o, RK_WAIT_WCHAN, jstr(w->wchan ? w->wchan : ""), bad);
	put(o, RK_WAIT_SYSCALL, jstr(w->syscall ? w->syscall : ""), bad);
	put(o, RK_WAIT_COUNT, jval(w->count, 1), bad);
	put(o, RK_WAIT_SHARE, jval(w->share_pct, 0), bad);
	return o;
}

/* The members in the order of the "system" key table. */
json_t *rsys_to_json(const struct row_sys *s)
{
	json_t *o, *devs, *waits;
	int bad = 0;
	size_t i;

	if (!s)
		return json_null();
	o = json_object();
	devs = json_array();
	waits = json_array();
	for (i = 0; i < s->ndev; i++)
		push(devs, dev_to_json(&s->dev[i], &bad), &bad);
	for (i = 0; i < s->nwait; i++)
		push(waits, wait_to_json(&s->wait[i], &bad), &bad);
	put(o, RK_SYS_DEVICES_REASON, jstr(s->devices_reason), &bad);
	put(o, RK_SYS_DEVICES, devs, &bad);
	for (i = RS_WL_READ; i <= RS_CACHED1; i++)
		put(o, rsys_keys[i].name, jval(s->v[i], rsys_keys[i].integer), &bad);
	put(o, RK_SYS_WAIT_PASSES, jval(s->v[RS_WAIT_PASSES], 1), &bad);
	put(o, RK_SYS_WAIT_OBS, jval(s->v[RS_WAIT_OBS], 1), &bad);
	put(o, RK_SYS_WCHAN_HIDDEN, s->wchan_hidden < 0 ? json_null() :
	    json_boolean(s->wchan_hidden), &bad);
	put(o, RK_SYS_WAIT, waits, &bad);
	put(o, RK_SYS_SAMPLER_CPU_S, jval(s->v[RS_SAMPLER_CPU_S], 0), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *column(const double *v, size_t n, int integer, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		push(a, jval(v[i], integer), bad);
	return a;
}

json_t *rseries_to_json(const struct row_series *s)
{
	json_t *o, *devs;
	int bad = 0;
	size_t k, d;

	if (!s)
		return json_null();
	o = json_object();
	put(o, RK_SER_INTERVAL_NS, jval((double)s->interval_ns, 1), &bad);
	for (k = 0; k < RSE_N; k++) {
		size_t i = 0;

		/* the temperature only where a workload read it (sustained) */
		while (k == RSE_TEMP_C && i < s->n && isnan(s->v[k][i]))
			i++;
		if (k == RSE_TEMP_C && i == s->n)
			continue;
		put(o, rser_keys[k].name, column(s->v[k], s->n, rser_keys[k].integer, &bad),
		    &bad);
	}
	devs = json_array();
	for (d = 0; d < s->ndev; d++) {
		json_t *dv = json_object();

		put(dv, RK_DEV_NAME, jstr(s->dev[d].name), &bad);
		for (k = 0; k < RSED_N; k++)
			put(dv, rser_dev_keys[k].name,
			    column(s->dev[d].v[k], s->n, rser_dev_keys[k].integer, &bad), &bad);
		push(devs, dv, &bad);
	}
	put(o, RK_SER_DEVICES, devs, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- loading ---- */

struct sload {
	char *err;
	size_t len;
	int failed;
};

static void sfail(struct sload *c, const char *where, const char *key, const char *what)
{
	if (c->failed++)
		return;
	snprintf(c->err, c->len, "%s%s%s: %s", where, *where ? "." : "", key, what);
}

/* A number member (null or absent: NaN). */
static double get_num(struct sload *c, const json_t *o, const char *where, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NAN;
	if (!json_is_number(v)) {
		sfail(c, where, key, "expected a number");
		return NAN;
	}
	return json_number_value(v);
}

/* A string member into a new copy (null or absent: NULL). */
static char *get_str(struct sload *c, const json_t *o, const char *where, const char *key)
{
	const json_t *v = json_object_get(o, key);
	char *s;

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		sfail(c, where, key, "expected a string");
		return NULL;
	}
	s = strdup(json_string_value(v));
	if (!s)
		sfail(c, where, key, "out of memory");
	return s;
}

/* An array member (absent or null: NULL). */
static const json_t *get_arr(struct sload *c, const json_t *o, const char *where,
			     const char *key)
{
	const json_t *a = json_object_get(o, key);

	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		sfail(c, where, key, "expected an array");
		return NULL;
	}
	return a;
}

static void load_devs(struct sload *c, const json_t *a, struct row_sys *s)
{
	char where[48];
	size_t i;

	if (!a || row_sys_set_devs(s, json_array_size(a)) < 0) {
		if (a)
			sfail(c, "", RK_SYS_DEVICES, "out of memory");
		return;
	}
	for (i = 0; i < s->ndev && !c->failed; i++) {
		const json_t *d = json_array_get(a, i);

		snprintf(where, sizeof(where), RK_SYS_DEVICES "[%zu]", i);
		if (!json_is_object(d)) {
			sfail(c, where, "", "expected an object");
			return;
		}
		s->dev[i].name = get_str(c, d, where, RK_DEV_NAME);
		s->dev[i].role = get_str(c, d, where, RK_DEV_ROLE);
		for (unsigned k = 0; k < RSD_N; k++)
			s->dev[i].v[k] = get_num(c, d, where, rsys_dev_keys[k].name);
	}
}

static void load_waits(struct sload *c, const json_t *a, struct row_sys *s)
{
	char where[48];
	size_t i;

	if (!a || row_sys_set_waits(s, json_array_size(a)) < 0) {
		if (a)
			sfail(c, "", RK_SYS_WAIT, "out of memory");
		return;
	}
	for (i = 0; i < s->nwait && !c->failed; i++) {
		const json_t *w = json_array_get(a, i);
		char *st;

		snprintf(where, sizeof(where), RK_SYS_WAIT "[%zu]", i);
		if (!json_is_object(w)) {
			sfail(c, where, "", "expected an object");
			return;
		}
		st = get_str(c, w, where, RK_WAIT_STATE);
		if (!c->failed && (!st || strlen(st) != 1))
			sfail(c, where, RK_WAIT_STATE, "expected one letter");
		s->wait[i].state = st ? st[0] : '?';
		free(st);
		s->wait[i].wchan = get_str(c, w, where, RK_WAIT_WCHAN);
		s->wait[i].syscall = get_str(c, w, where, RK_WAIT_SYSCALL);
		s->wait[i].count = get_num(c, w, where, RK_WAIT_COUNT);
		s->wait[i].share_pct = get_num(c, w, where, RK_WAIT_SHARE);
	}
}

int rsys_from_json(const json_t *o, struct row_sys **out, char *err, size_t len)
{
	struct sload c = { err, len, 0 };
	struct row_sys *s;
	const json_t *h;

	*out = NULL;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, len, "expected an object");
		return -EINVAL;
	}
	s = row_sys_new();
	if (!s) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	s->devices_reason = get_str(&c, o, "", RK_SYS_DEVICES_REASON);
	load_devs(&c, get_arr(&c, o, "", RK_SYS_DEVICES), s);
	for (unsigned k = 0; k < RS_N; k++)
		s->v[k] = get_num(&c, o, "", rsys_keys[k].name);
	h = json_object_get(o, RK_SYS_WCHAN_HIDDEN);
	if (h && !json_is_null(h) && !json_is_boolean(h))
		sfail(&c, "", RK_SYS_WCHAN_HIDDEN, "expected true or false");
	s->wchan_hidden = json_is_boolean(h) ? json_is_true(h) : -1;
	load_waits(&c, get_arr(&c, o, "", RK_SYS_WAIT), s);
	if (c.failed) {
		row_sys_free(s);
		return -EINVAL;
	}
	*out = s;
	return 0;
}

/* Column key of o into dst (n values): an array of n numbers or nulls. */
static void load_col(struct sload *c, const json_t *o, const char *where, const char *key,
		     double *dst, size_t n)
{
	const json_t *a = get_arr(c, o, where, key), *v;
	size_t i;

	if (!a)
		return;
	if (json_array_size(a) != n) {
		sfail(c, where, key, "expected one value per interval");
		return;
	}
	json_array_foreach(a, i, v) {
		if (json_is_null(v))
			continue;
		if (!json_is_number(v)) {
			sfail(c, where, key, "expected numbers");
			return;
		}
		dst[i] = json_number_value(v);
	}
}

int rseries_from_json(const json_t *o, struct row_series **out, char *err, size_t len)
{
	struct sload c = { err, len, 0 };
	const json_t *t, *devs;
	struct row_series *s;
	char where[48];
	double iv;
	size_t n, d;

	*out = NULL;
	if (!o || json_is_null(o))
		return 0;
	t = json_object_get(o, RK_SER_T_NS);
	if (!json_is_object(o) || !json_is_array(t)) {
		snprintf(err, len, "expected an object with a " RK_SER_T_NS " array");
		return -EINVAL;
	}
	devs = get_arr(&c, o, "", RK_SER_DEVICES);
	n = json_array_size(t);
	s = row_series_new(n, devs ? json_array_size(devs) : 0);
	if (!s) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	iv = get_num(&c, o, "", RK_SER_INTERVAL_NS);
	if (iv > 9e18)	/* no cast out of range: an interval past 2^63 ns is refused */
		sfail(&c, "", RK_SER_INTERVAL_NS, "out of range");
	s->interval_ns = iv > 0 && iv <= 9e18 ? (uint64_t)iv : 0;
	for (unsigned k = 0; k < RSE_N; k++)
		load_col(&c, o, "", rser_keys[k].name, s->v[k], n);
	for (d = 0; d < s->ndev && !c.failed; d++) {
		const json_t *dv = json_array_get(devs, d);

		snprintf(where, sizeof(where), RK_SER_DEVICES "[%zu]", d);
		if (!json_is_object(dv)) {
			sfail(&c, where, "", "expected an object");
			break;
		}
		s->dev[d].name = get_str(&c, dv, where, RK_DEV_NAME);
		for (unsigned k = 0; k < RSED_N; k++)
			load_col(&c, dv, where, rser_dev_keys[k].name, s->dev[d].v[k], n);
	}
	if (c.failed) {
		row_series_free(s);
		return -EINVAL;
	}
	*out = s;
	return 0;
}
