/* result_ceiling.c - the ceilings of a run and of each row: which applies, the flags, and
 * their JSON form. See result_ceiling.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"

static const char *const kind_names[] = { NULL, "link", "memory", "tool" };

const char *ceil_kind_name(enum ceil_kind k)
{
	return (unsigned)k < 4 ? kind_names[k] : NULL;
}

struct row_ceiling *row_ceiling_new(void)
{
	struct row_ceiling *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->rate_bytes_s = c->rate_ops_s = NAN;
	c->link_bytes_s = c->memory_bytes_s = NAN;
	c->tool_ops_s = c->tool_bytes_s = NAN;
	c->tool_cpu_ns_per_op = NAN;
	return c;
}

void env_ceilings_free(struct env_ceilings *c)
{
	if (!c)
		return;
	free(c->link_kind);
	free(c->link);
	free(c->link_device);
	free(c);
}

double row_cpu_per_op(const struct row *w)
{
	double s, smp = 0;

	if (!w->ops || !w->cpu.valid)
		return NAN;
	if (w->sys && isfinite(w->sys->v[RS_SAMPLER_CPU_S]))
		smp = w->sys->v[RS_SAMPLER_CPU_S];
	s = w->cpu.user_s + w->cpu.sys_s - smp;
	return s > 0 ? s * 1e9 / (double)w->ops : NAN;
}

/* The page cache answered, as a flag already says: the link does not bound the figure. */
#define CACHE_SAID	(ROW_CACHE_INFLATED | ROW_DEVICE_IDLE | ROW_WRITEBACK_PENDING)

unsigned row_ceiling_apply(struct row *w, const struct env_ceilings *c, double tool_ops_s,
			   double tool_cpu_ns, double tool_bs, const char *settings)
{
	struct row_ceiling *r;
	double s, cpo, low = INFINITY;
	unsigned flags = 0;

	if (!w->elapsed_ns || (!w->bytes && !w->ops) ||
	    (w->flags & (ROW_FAILED | ROW_NOT_MEASURED | ROW_IMPORTED)))
		return 0;
	r = w->ceiling ? w->ceiling : row_ceiling_new();
	if (!r)
		return 0;
	w->ceiling = r;
	s = (double)w->elapsed_ns / 1e9;
	r->rate_bytes_s = w->bytes ? (double)w->bytes / s : NAN;
	r->rate_ops_s = w->ops ? (double)w->ops / s : NAN;
	if (c && w->bytes && !(w->flags & CACHE_SAID) && isfinite(c->link_bytes_s))
		r->link_bytes_s = c->link_bytes_s;
	if (c && w->bytes && isfinite(c->memory_bytes_s))
		r->memory_bytes_s = c->memory_bytes_s;
	if (isfinite(tool_ops_s) && tool_ops_s > 0) {
		r->tool_ops_s = tool_ops_s;
		r->tool_bytes_s = tool_bs > 0 ? tool_ops_s * tool_bs : NAN;
		r->tool_cpu_ns_per_op = tool_cpu_ns;
		snprintf(r->tool_settings, sizeof(r->tool_settings), "%s",
			 settings ? settings : "");
	}
	/* the lowest in bytes per second; the tool's in bytes when it has a block size */
	r->applies = CEIL_NONE;
	if (isfinite(r->link_bytes_s) && r->link_bytes_s < low) {
		low = r->link_bytes_s;
		r->applies = CEIL_LINK;
	}
	if (isfinite(r->memory_bytes_s) && r->memory_bytes_s < low) {
		low = r->memory_bytes_s;
		r->applies = CEIL_MEMORY;
	}
	if (isfinite(r->tool_bytes_s) ? r->tool_bytes_s < low :
	    isfinite(r->tool_ops_s) && r->applies == CEIL_NONE)
		r->applies = CEIL_TOOL;
	if (isfinite(r->rate_bytes_s) &&
	    ((isfinite(r->link_bytes_s) && r->rate_bytes_s > r->link_bytes_s) ||
	     (isfinite(r->memory_bytes_s) && r->rate_bytes_s > r->memory_bytes_s)))
		flags |= ROW_OVER_CEILING;
	if (isfinite(r->rate_ops_s) && isfinite(r->tool_ops_s) &&
	    r->rate_ops_s >= CEIL_TOOL_SHARE * r->tool_ops_s)
		flags |= ROW_TOOL_BOUND;
	/* the same in CPU time per request, which other work on the machine leaves alone */
	cpo = row_cpu_per_op(w);
	if (cpo > 0 && isfinite(r->tool_cpu_ns_per_op) && r->tool_cpu_ns_per_op > 0 &&
	    cpo * CEIL_TOOL_SHARE <= r->tool_cpu_ns_per_op)
		flags |= ROW_TOOL_BOUND;
	return flags;
}

/* ---- JSON ---- */

static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		(*bad)++;
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

json_t *rceil_to_json(const struct row_ceiling *c)
{
	json_t *o;
	int bad = 0;

	if (!c)
		return json_null();
	o = json_object();
	put(o, RK_CEIL_APPLIES, jstr(ceil_kind_name(c->applies)), &bad);
	put(o, RK_CEIL_RATE_BYTES_S, jreal(c->rate_bytes_s), &bad);
	put(o, RK_CEIL_RATE_OPS_S, jreal(c->rate_ops_s), &bad);
	put(o, RK_CEIL_LINK_BYTES_S, jreal(c->link_bytes_s), &bad);
	put(o, RK_CEIL_MEMORY_BYTES_S, jreal(c->memory_bytes_s), &bad);
	put(o, RK_CEIL_TOOL_OPS_S, jreal(c->tool_ops_s), &bad);
	put(o, RK_CEIL_TOOL_BYTES_S, jreal(c->tool_bytes_s), &bad);
	put(o, RK_CEIL_TOOL_CPU, jreal(c->tool_cpu_ns_per_op), &bad);
	put(o, RK_CEIL_TOOL_SETTINGS, jstr(c->tool_settings), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *rceil_env_to_json(const struct env_ceilings *c)
{
	json_t *o;
	int bad = 0;

	if (!c)
		return json_null();
	o = json_object();
	put(o, RK_CEIL_LINK_KIND, jstr(c->link_kind), &bad);
	put(o, RK_CEIL_LINK, jstr(c->link), &bad);
	put(o, RK_CEIL_LINK_DEVICE, jstr(c->link_device), &bad);
	put(o, RK_CEIL_LINK_BYTES_S, jreal(c->link_bytes_s), &bad);
	put(o, RK_CEIL_MEMORY_BYTES_S, jreal(c->memory_bytes_s), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static double num(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);

	return json_is_number(x) ? json_number_value(x) : NAN;
}

static char *str(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);

	return json_is_string(x) ? strdup(json_string_value(x)) : NULL;
}

int rceil_from_json(const json_t *o, struct row_ceiling **out, char *err, size_t len)
{
	struct row_ceiling *c;
	const json_t *a, *t;

	*out = NULL;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, len, "expected an object");
		return -EINVAL;
	}
	c = row_ceiling_new();
	if (!c) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	a = json_object_get(o, RK_CEIL_APPLIES);
	for (unsigned k = 1; k < 4 && json_is_string(a); k++)
		if (!strcmp(json_string_value(a), kind_names[k]))
			c->applies = (enum ceil_kind)k;
	c->rate_bytes_s = num(o, RK_CEIL_RATE_BYTES_S);
	c->rate_ops_s = num(o, RK_CEIL_RATE_OPS_S);
	c->link_bytes_s = num(o, RK_CEIL_LINK_BYTES_S);
	c->memory_bytes_s = num(o, RK_CEIL_MEMORY_BYTES_S);
	c->tool_ops_s = num(o, RK_CEIL_TOOL_OPS_S);
	c->tool_bytes_s = num(o, RK_CEIL_TOOL_BYTES_S);
	c->tool_cpu_ns_per_op = num(o, RK_CEIL_TOOL_CPU);
	t = json_object_get(o, RK_CEIL_TOOL_SETTINGS);
	if (json_is_string(t))
		snprintf(c->tool_settings, sizeof(c->tool_settings), "%s", json_string_value(t));
	*out = c;
	return 0;
}

int rceil_env_from_json(const json_t *o, struct env_ceilings **out, char *err, size_t len)
{
	struct env_ceilings *c;

	*out = NULL;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, len, "expected an object");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	c->link_kind = str(o, RK_CEIL_LINK_KIND);
	c->link = str(o, RK_CEIL_LINK);
	c->link_device = str(o, RK_CEIL_LINK_DEVICE);
	c->link_bytes_s = num(o, RK_CEIL_LINK_BYTES_S);
	c->memory_bytes_s = num(o, RK_CEIL_MEMORY_BYTES_S);
	*out = c;
	return 0;
}
