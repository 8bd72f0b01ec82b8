/* result_json.c - the JSON form of a run (jansson): the dump/load pair that the JSON
 * formatter, the store, the comparisons and the importers use. docs/results-schema.md
 * describes the document; every member name is a key of the tables in result_keys*.c.
 * Loading (result_json_load.c) stores every figure as written and recomputes nothing;
 * dumping a loaded run gives the same text back. This file dumps. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/rfile.h"
#include "core/textsafe.h"
#include "core/units.h"
#include "stats/hist.h"
#include "stats/result_ceiling.h"
#include "stats/result_devlat.h"
#include "stats/result.h"
#include "stats/result_canon.h"
#include "stats/result_json.h"
#include "stats/result_json_ranks.h"
#include "stats/result_keys.h"
#include "stats/result_sys_json.h"

#define JSON_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(15))

#define NFLAGS 32u	/* bits of row->flags; result_flag_name() names the known ones */


/* ---- dumping ---- */

/* Builders that never return NULL on bad input (NULL string, NaN): they give null. A
 * failed allocation makes set() fail, which the callers count. */
static json_t *jstr(const char *s)
{
	json_t *v;
	char *fixed;

	if (!s)
		return json_null();
	if (textsafe_utf8_valid(s))
		return json_string(s);
	/* JSON is UTF-8: a Latin-1 file name or label keeps its bytes as the characters of
	 * their Latin-1 reading instead of losing the run */
	fixed = textsafe_utf8_fix(s);
	v = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return v;
}

static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jint(uint64_t v)
{
	return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* Set key and count failures in *bad. */
static void set(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new(obj, key, v) < 0)
		(*bad)++;
}

static void push(json_t *arr, json_t *v, int *bad)
{
	if (!v || json_array_append_new(arr, v) < 0)
		(*bad)++;
}

static json_t *kv_to_json(const struct kvlist *l, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		(*bad)++;
		return NULL;
	}
	for (size_t i = 0; i < l->n; i++) {
		char *key = textsafe_utf8_valid(l->v[i].key) ? NULL :
			    textsafe_utf8_fix(l->v[i].key);

		set(o, key ? key : l->v[i].key, jstr(l->v[i].value), bad);
		free(key);
	}
	return o;
}

static json_t *env_to_json(const struct env *e, int *bad)
{
	json_t *o = json_object();

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_ENV_TOOL_VERSION, jstr(e->tool_version), bad);
	set(o, RK_ENV_DATE, jstr(e->date), bad);
	set(o, RK_ENV_HOST, jstr(e->host), bad);
	set(o, RK_ENV_OS, jstr(e->os), bad);
	set(o, RK_ENV_KERNEL, jstr(e->kernel), bad);
	set(o, RK_ENV_ARCH, jstr(e->arch), bad);
	set(o, RK_ENV_CPU_MODEL, jstr(e->cpu_model), bad);
	set(o, RK_ENV_NCPU, e->ncpu ? jint(e->ncpu) : json_null(), bad);
	set(o, RK_ENV_RAM_BYTES, e->ram_bytes ? jint(e->ram_bytes) : json_null(), bad);
	set(o, RK_ENV_TARGET, jstr(e->target), bad);
	set(o, RK_ENV_FS_TYPE, jstr(e->fs_type), bad);
	set(o, RK_ENV_MOUNT_OPTS, jstr(e->mount_opts), bad);
	set(o, RK_ENV_MOUNT_POINT, jstr(e->mount_point), bad);
	set(o, RK_ENV_DEVICE, jstr(e->device), bad);
	set(o, RK_ENV_DEVICE_MODEL, jstr(e->device_model), bad);
	set(o, RK_ENV_ROTATIONAL, e->rotational < 0 ? json_null() : json_boolean(e->rotational),
	    bad);
	set(o, RK_ENV_SCHEDULER, jstr(e->scheduler), bad);
	set(o, RK_ENV_VIRTUALIZED, e->virtualized < 0 ? json_null() :
	    json_boolean(e->virtualized), bad);
	set(o, RK_ENV_CEILINGS, rceil_env_to_json(e->ceilings), bad);
	return o;
}

static json_t *cpu_to_json(const struct row_cpu *c, int *bad)
{
	json_t *o;

	if (!c->valid)
		return json_null();
	o = json_object();
	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_CPU_USER_S, jreal(c->user_s), bad);
	set(o, RK_CPU_SYS_S, jreal(c->sys_s), bad);
	set(o, RK_CPU_PROC_PCT, jreal(c->proc_pct), bad);
	set(o, RK_CPU_SYS_BUSY_PCT, jreal(c->sys_busy_pct), bad);
	set(o, RK_CPU_SYS_BUSY_S, jreal(c->sys_busy_s), bad);
	set(o, RK_CPU_NS_PER_OP, jreal(c->cpu_ns_per_op), bad);
	set(o, RK_CPU_WALL_S, c->wall_s > 0 ? jreal(c->wall_s) : json_null(), bad);
	set(o, RK_CPU_OPS, c->ops ? jint(c->ops) : json_null(), bad);
	return o;
}

static json_t *hist_to_json(const struct hist *h, int *bad)
{
	json_t *a;

	if (!h)
		return json_null();
	a = json_array();
	if (!a) {
		(*bad)++;
		return NULL;
	}
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		json_t *pair;

		if (!h->b[i])
			continue;
		pair = json_pack("[II]", (json_int_t)i, (json_int_t)h->b[i]);
		push(a, pair, bad);
	}
	return a;
}

static json_t *lat_to_json(const struct row_lat *l, int *bad)
{
	json_t *o;

	if (!l->valid)
		return json_null();
	o = json_object();
	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_LAT_N, jint(l->n), bad);
	set(o, RK_LAT_MEAN_NS, jreal(l->mean_ns), bad);
	set(o, RK_LAT_SD_NS, jreal(l->sd_ns), bad);
	set(o, RK_LAT_MIN_NS, jint(l->min_ns), bad);
	set(o, RK_LAT_P50_NS, jint(l->p50_ns), bad);
	set(o, RK_LAT_P90_NS, jint(l->p90_ns), bad);
	set(o, RK_LAT_P99_NS, jint(l->p99_ns), bad);
	set(o, RK_LAT_P999_NS, jint(l->p999_ns), bad);
	set(o, RK_LAT_MAX_NS, jint(l->max_ns), bad);
	set(o, RK_LAT_HISTOGRAM, hist_to_json(l->hist, bad), bad);
	return o;
}

static json_t *row_to_json(const struct row *w, int *bad)
{
	json_t *o = json_object(), *flags, *metrics;

	if (!o) {
		(*bad)++;
		return NULL;
	}
	set(o, RK_ROW_WORKLOAD, jstr(w->workload), bad);
	set(o, RK_ROW_PHASE, jstr(w->phase), bad);
	set(o, RK_ROW_REPEAT, jint(w->repeat), bad);
	set(o, RK_ROW_PARAMS, kv_to_json(&w->params, bad), bad);
	set(o, RK_ROW_BYTES, jint(w->bytes), bad);
	set(o, RK_ROW_OPS, jint(w->ops), bad);
	set(o, RK_ROW_ELAPSED_NS, jint(w->elapsed_ns), bad);
	set(o, RK_ROW_BUFFERED_NS, w->buffered_ns ? jint(w->buffered_ns) : json_null(), bad);
	set(o, RK_ROW_DURABLE_NS, w->durable_ns ? jint(w->durable_ns) : json_null(), bad);
	set(o, RK_ROW_RATE, jreal(w->rate), bad);
	set(o, RK_ROW_RATE_UNIT, jstr(w->rate_unit), bad);
	set(o, RK_ROW_CPU, cpu_to_json(&w->cpu, bad), bad);
	set(o, RK_ROW_LATENCY, lat_to_json(&w->lat, bad), bad);
	/* beside the tool's own latency; null when not sampled */
	set(o, RK_ROW_DEVICE_LATENCY, rdl_to_json(w->devlat), bad);
	set(o, RK_ROW_CEILING, rceil_to_json(w->ceiling), bad);
	set(o, RK_ROW_CACHE_PCT, w->cache_pct < 0 ? json_null() : jreal(w->cache_pct), bad);
	set(o, RK_ROW_CACHE_DROPPED, json_boolean(w->cache_dropped), bad);
	flags = json_array();
	for (unsigned i = 0; flags && i < NFLAGS; i++)
		if ((w->flags & (1u << i)) && result_flag_name(1u << i))
			push(flags, json_string(result_flag_name(1u << i)), bad);
	set(o, RK_ROW_FLAGS, flags, bad);
	set(o, RK_ROW_ERROR, jstr(w->error), bad);
	set(o, RK_ROW_NOTE, jstr(w->note), bad);
	metrics = json_array();
	for (size_t i = 0; metrics && i < w->nmetrics; i++) {
		json_t *m = json_object();

		if (m) {
			set(m, RK_METRIC_NAME, jstr(w->metrics[i].name), bad);
			set(m, RK_METRIC_VALUE, jreal(w->metrics[i].value), bad);
			set(m, RK_METRIC_UNIT, jstr(w->metrics[i].unit), bad);
		}
		push(metrics, m, bad);
	}
	set(o, RK_ROW_METRICS, metrics, bad);
	*bad += result_json_ranks_row(o, w);	/* several ranks only */
	set(o, RK_ROW_SYSTEM, rsys_to_json(w->sys), bad);
	set(o, RK_ROW_SERIES, rseries_to_json(w->series), bad);
	return o;
}

static json_t *run_to_json(const struct run *r)
{
	json_t *o = json_object(), *rows;
	int bad = 0;

	if (!o)
		return NULL;
	set(o, RK_RUN_SCHEMA_VERSION, json_integer(r->schema_version ? r->schema_version :
					      RESULT_SCHEMA_VERSION), &bad);
	set(o, RK_RUN_TOOL, json_string("iobattery"), &bad);
	set(o, RK_RUN_ID, jstr(r->id), &bad);
	set(o, RK_RUN_LABEL, jstr(r->label), &bad);
	set(o, RK_RUN_WORKLOAD, jstr(r->workload), &bad);
	set(o, RK_RUN_COMMAND_LINE, jstr(r->command_line), &bad);
	set(o, RK_RUN_STATUS, json_integer(r->status), &bad);
	set(o, RK_RUN_INCOMPLETE, json_boolean(r->flags & RUN_INCOMPLETE), &bad);
	set(o, RK_RUN_IMPORTED, json_boolean(r->flags & RUN_IMPORTED), &bad);
	set(o, RK_RUN_ERROR, jstr(r->error), &bad);
	set(o, RK_RUN_OPTIONS, kv_to_json(&r->options, &bad), &bad);
	set(o, RK_RUN_ENV, env_to_json(&r->env, &bad), &bad);
	rows = json_array();
	for (size_t i = 0; rows && i < r->nrows; i++)
		push(rows, row_to_json(r->rows[i], &bad), &bad);
	set(o, RK_RUN_ROWS, rows, &bad);
	bad += result_json_ranks_run(o, r);	/* several ranks only */
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *result_json_dump(const struct run *run)
{
	json_t *o = run_to_json(run);
	char digest[RESULT_DIGEST_LEN];
	char *s;

	if (!o)
		return NULL;
	/* the digest over everything above (docs/methodology.md, "Self-checking results") */
	if (result_canon_digest(o, digest) < 0 ||
	    json_object_set_new(o, RK_RUN_DIGEST, json_string(digest)) < 0) {
		json_decref(o);
		return NULL;
	}
	s = json_dumps(o, JSON_FLAGS);
	json_decref(o);
	return s;
}

json_t *result_json_env(const struct env *e, int *bad)
{
	return env_to_json(e, bad);
}
