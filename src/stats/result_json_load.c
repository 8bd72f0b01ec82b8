/* result_json_load.c - a result's JSON read back into a run (result_json.h): every
 * figure stored as written, nothing recomputed, the first problem named with where it
 * is ("rows[3].latency.p99_ns"). Here the document is read as one tree; the loaders of
 * result_json.h read it as a stream first (result_json_stream.c, with this file's row
 * and head readers) and come here for what the stream leaves (result_json_load.h).
 * Dumping is result_json.c. */
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
#include "stats/result_json_load.h"
#include "stats/result_json_ranks.h"
#include "stats/result_keys.h"
#include "stats/result_sys_json.h"


/* Load context: the first problem found wins. */
struct jload {
	char *err;
	unsigned long errlen;
	unsigned flags;			/* RESULT_LOAD_* */
	int failed;
	const char *where;		/* "env", "rows[3]" ... */
	const char *sub;		/* a member object of where ("cpu") or "" */
};

static void jfail(struct jload *c, const char *key, const char *what)
{
	if (c->failed++)
		return;
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "'%s%s%s%s%s': %s", c->where,
			 *c->where && (*c->sub || *key) ? "." : "", c->sub,
			 *c->sub && *key ? "." : "", key, what);
}

/* String member into *dst (replaced): a copy, or NULL when null or absent. */
static void get_str(struct jload *c, const json_t *o, const char *key, char **dst)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v)) {
		str_set(dst, NULL);
		return;
	}
	if (!json_is_string(v)) {
		jfail(c, key, "expected a string");
		return;
	}
	if (str_set(dst, json_string_value(v)) < 0)
		jfail(c, key, "out of memory");
}

/* A string member that must be there and not be empty (the row's workload and phase, the
 * run's id): what every reader of a run may take for granted. Checked once the object is
 * read, so that a member of the wrong type is named first. */
static void require(struct jload *c, const char *key, const char *value)
{
	if (!value || !*value)
		jfail(c, key, "missing (required)");
}

/* An integer from 0 to max; 0 when null or absent. */
static uint64_t get_uint(struct jload *c, const json_t *o, const char *key, uint64_t max)
{
	const json_t *v = json_object_get(o, key);
	char why[64];

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0) {
		jfail(c, key, "expected a non-negative integer");
		return 0;
	}
	if ((uint64_t)json_integer_value(v) > max) {
		snprintf(why, sizeof(why), "out of range (at most %llu)", (unsigned long long)max);
		jfail(c, key, why);
		return 0;
	}
	return (uint64_t)json_integer_value(v);
}

static uint64_t get_u64(struct jload *c, const json_t *o, const char *key)
{
	return get_uint(c, o, key, (uint64_t)INT64_MAX);
}

/* A number (integer or real) from lo to hi; def when null or absent. Every figure is
 * range-checked here, so that what loads can be printed: the formatters' bounds. */
static double get_num(struct jload *c, const json_t *o, const char *key, double def,
		      double lo, double hi)
{
	const json_t *v = json_object_get(o, key);
	char why[80];
	double d;

	if (!v || json_is_null(v))
		return def;
	if (!json_is_number(v)) {
		jfail(c, key, "expected a number");
		return def;
	}
	d = json_number_value(v);
	if (!(d >= lo && d <= hi)) {
		snprintf(why, sizeof(why), "out of range (%g to %g)", lo, hi);
		jfail(c, key, why);
		return def;
	}
	return d;
}

/* true/false (or 1/0) -> 1/0; null or absent -> def. */
static int get_bool(struct jload *c, const json_t *o, const char *key, int def)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return def;
	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	jfail(c, key, "expected true or false");
	return def;
}

static void get_kv(struct jload *c, const json_t *o, const char *key, struct kvlist *l)
{
	const json_t *obj = json_object_get(o, key), *v;
	const char *k;

	if (!obj || json_is_null(obj))
		return;
	if (!json_is_object(obj)) {
		jfail(c, key, "expected an object");
		return;
	}
	json_object_foreach((json_t *)obj, k, v) {
		if (!json_is_string(v)) {
			jfail(c, key, "expected string values");
			return;
		}
		if (kv_set(l, k, "%s", json_string_value(v)) < 0) {
			jfail(c, key, "out of memory");
			return;
		}
	}
}

static void load_env(struct jload *c, const json_t *o, struct env *e)
{
	e->rotational = -1;
	e->virtualized = -1;
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, RK_RUN_ENV, "expected an object");
		return;
	}
	c->where = RK_RUN_ENV;
	get_str(c, o, RK_ENV_TOOL_VERSION, &e->tool_version);
	get_str(c, o, RK_ENV_DATE, &e->date);
	get_str(c, o, RK_ENV_HOST, &e->host);
	get_str(c, o, RK_ENV_OS, &e->os);
	get_str(c, o, RK_ENV_KERNEL, &e->kernel);
	get_str(c, o, RK_ENV_ARCH, &e->arch);
	get_str(c, o, RK_ENV_CPU_MODEL, &e->cpu_model);
	e->ncpu = (unsigned)get_uint(c, o, RK_ENV_NCPU, UINT_MAX);
	e->ram_bytes = get_u64(c, o, RK_ENV_RAM_BYTES);
	get_str(c, o, RK_ENV_TARGET, &e->target);
	get_str(c, o, RK_ENV_FS_TYPE, &e->fs_type);
	get_str(c, o, RK_ENV_MOUNT_OPTS, &e->mount_opts);
	get_str(c, o, RK_ENV_MOUNT_POINT, &e->mount_point);
	get_str(c, o, RK_ENV_DEVICE, &e->device);
	get_str(c, o, RK_ENV_DEVICE_MODEL, &e->device_model);
	e->rotational = get_bool(c, o, RK_ENV_ROTATIONAL, -1);
	get_str(c, o, RK_ENV_SCHEDULER, &e->scheduler);
	e->virtualized = get_bool(c, o, RK_ENV_VIRTUALIZED, -1);
	{
		char msg[160];

		if (rceil_env_from_json(json_object_get(o, RK_ENV_CEILINGS), &e->ceilings, msg,
					sizeof(msg)) < 0)
			jfail(c, RK_ENV_CEILINGS, msg);
	}
	c->where = "";
}

int result_json_env_load(const json_t *o, struct env *e, char *err, size_t len)
{
	struct jload c = { err, len, 0, 0, "", "" };

	load_env(&c, o, e);
	return c.failed ? -1 : 0;
}

static void load_cpu(struct jload *c, const json_t *o, struct row_cpu *p)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, RK_ROW_CPU, "expected an object");
		return;
	}
	p->valid = 1;
	c->sub = RK_ROW_CPU;
	p->user_s = get_num(c, o, RK_CPU_USER_S, 0, 0, RJ_MAX_SECS);
	p->sys_s = get_num(c, o, RK_CPU_SYS_S, 0, 0, RJ_MAX_SECS);
	p->proc_pct = get_num(c, o, RK_CPU_PROC_PCT, 0, 0, RJ_MAX_PCT);
	p->sys_busy_pct = get_num(c, o, RK_CPU_SYS_BUSY_PCT, 0, 0, 100);
	p->sys_busy_s = get_num(c, o, RK_CPU_SYS_BUSY_S, 0, 0, RJ_MAX_SECS);
	p->cpu_ns_per_op = get_num(c, o, RK_CPU_NS_PER_OP, 0, 0, RJ_MAX_FIG);
	p->wall_s = get_num(c, o, RK_CPU_WALL_S, 0, 0, RJ_MAX_SECS);
	p->ops = get_u64(c, o, RK_CPU_OPS);
	c->sub = "";
}

/* Rebuild a histogram from [[bucket, count], ...]; the exact sums are not stored, so
 * sum and sum of squares are derived from the stored mean and deviation. */
static struct hist *load_hist(struct jload *c, const json_t *a, const struct row_lat *l)
{
	struct hist *h;
	size_t i;
	const json_t *pair;

	if (!a || json_is_null(a))
		return NULL;
	if (!json_is_array(a)) {
		jfail(c, RK_LAT_HISTOGRAM, "expected an array");
		return NULL;
	}
	h = malloc(sizeof(*h));
	if (!h) {
		jfail(c, RK_LAT_HISTOGRAM, "out of memory");
		return NULL;
	}
	hist_init(h);
	json_array_foreach(a, i, pair) {
		json_int_t b, n;

		if (json_unpack((json_t *)pair, "[II]", &b, &n) < 0 || b < 0 ||
		    b >= HIST_NBUCKETS || n < 0) {
			jfail(c, RK_LAT_HISTOGRAM,
			      "expected [bucket, count] pairs");
			free(h);
			return NULL;
		}
		if (h->n + (uint64_t)n < h->n) {
			jfail(c, RK_LAT_HISTOGRAM,
			      "out of range (the counts pass 2^64)");
			free(h);
			return NULL;
		}
		h->b[b] += (uint64_t)n;
		h->n += (uint64_t)n;
	}
	if (h->n) {
		double m = l->mean_ns, sd = l->sd_ns, sq;

		h->min = l->min_ns;
		h->max = l->max_ns;
		/* mean and deviation are bounded on load, their products with n are not:
		 * saturate instead of casting out of range */
		h->sum = units_dtou64(m * (double)h->n, 1);
		sq = (sd * sd + m * m) * (double)h->n;
		h->sumsq = sq < 3.4e38 ? (unsigned __int128)sq : ~(unsigned __int128)0;
	}
	return h;
}

static void load_lat(struct jload *c, const json_t *o, struct row_lat *l)
{
	if (!o || json_is_null(o))
		return;
	if (!json_is_object(o)) {
		jfail(c, RK_ROW_LATENCY, "expected an object");
		return;
	}
	l->valid = 1;
	c->sub = RK_ROW_LATENCY;
	l->n = get_u64(c, o, RK_LAT_N);
	l->mean_ns = get_num(c, o, RK_LAT_MEAN_NS, 0, 0, RJ_MAX_NS);
	l->sd_ns = get_num(c, o, RK_LAT_SD_NS, 0, 0, RJ_MAX_NS);
	l->min_ns = get_u64(c, o, RK_LAT_MIN_NS);
	l->p50_ns = get_u64(c, o, RK_LAT_P50_NS);
	l->p90_ns = get_u64(c, o, RK_LAT_P90_NS);
	l->p99_ns = get_u64(c, o, RK_LAT_P99_NS);
	l->p999_ns = get_u64(c, o, RK_LAT_P999_NS);
	l->max_ns = get_u64(c, o, RK_LAT_MAX_NS);
	if (!(c->flags & RESULT_LOAD_NO_HIST))
		l->hist = load_hist(c, json_object_get(o, RK_LAT_HISTOGRAM), l);
	c->sub = "";
}

static unsigned load_flags(struct jload *c, const json_t *a)
{
	unsigned flags = 0;
	size_t i;
	const json_t *v;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a)) {
		jfail(c, RK_ROW_FLAGS, "expected an array");
		return 0;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_string(v)) {
			jfail(c, RK_ROW_FLAGS, "expected flag names");
			return flags;
		}
		/* names this version does not know are dropped */
		flags |= result_flag_of(json_string_value(v));
	}
	return flags;
}

static void load_metrics(struct jload *c, const json_t *a, struct row *w)
{
	size_t i;
	const json_t *m;

	if (!a || json_is_null(a))
		return;
	if (!json_is_array(a)) {
		jfail(c, RK_ROW_METRICS, "expected an array");
		return;
	}
	json_array_foreach(a, i, m) {
		const json_t *n = json_object_get(m, RK_METRIC_NAME);
		const json_t *u = json_object_get(m, RK_METRIC_UNIT);

		if (!json_is_object(m) || !json_is_string(n) || (u && !json_is_string(u) &&
								 !json_is_null(u))) {
			jfail(c, RK_ROW_METRICS,
			      "expected {\"name\", \"value\", \"unit\"} objects");
			return;
		}
		if (row_add_metric(w, json_string_value(n),
				   get_num(c, m, RK_METRIC_VALUE, NAN, -RJ_MAX_FIG, RJ_MAX_FIG),
				   json_is_string(u) ? json_string_value(u) : NULL) < 0) {
			jfail(c, RK_ROW_METRICS, "out of memory");
			return;
		}
	}
}

static void load_sys(struct jload *c, const json_t *o, struct row *w)
{
	char msg[160];

	if (rsys_from_json(json_object_get(o, RK_ROW_SYSTEM), &w->sys, msg, sizeof(msg)) < 0)
		jfail(c, RK_ROW_SYSTEM, msg);
	else if (rseries_from_json(json_object_get(o, RK_ROW_SERIES), &w->series, msg,
				   sizeof(msg)) < 0)
		jfail(c, RK_ROW_SERIES, msg);
	else if (rdl_from_json(json_object_get(o, RK_ROW_DEVICE_LATENCY),
			       !!(c->flags & RESULT_LOAD_NO_HIST), &w->devlat, msg,
			       sizeof(msg)) < 0)
		jfail(c, RK_ROW_DEVICE_LATENCY, msg);
	else if (rceil_from_json(json_object_get(o, RK_ROW_CEILING), &w->ceiling, msg,
				 sizeof(msg)) < 0)
		jfail(c, RK_ROW_CEILING, msg);
}

static void load_row(struct jload *c, struct run *r, const json_t *o)
{
	struct row *w = run_add_row(r, "", "");

	if (!w) {
		jfail(c, "", "out of memory");
		return;
	}
	get_str(c, o, RK_ROW_WORKLOAD, &w->workload);
	get_str(c, o, RK_ROW_PHASE, &w->phase);
	w->repeat = (unsigned)get_uint(c, o, RK_ROW_REPEAT, UINT_MAX);
	get_kv(c, o, RK_ROW_PARAMS, &w->params);
	w->bytes = get_u64(c, o, RK_ROW_BYTES);
	w->ops = get_u64(c, o, RK_ROW_OPS);
	w->elapsed_ns = get_u64(c, o, RK_ROW_ELAPSED_NS);
	w->buffered_ns = get_u64(c, o, RK_ROW_BUFFERED_NS);
	w->durable_ns = get_u64(c, o, RK_ROW_DURABLE_NS);
	w->rate = get_num(c, o, RK_ROW_RATE, NAN, 0, RJ_MAX_FIG);
	get_str(c, o, RK_ROW_RATE_UNIT, &w->rate_unit);
	load_cpu(c, json_object_get(o, RK_ROW_CPU), &w->cpu);
	load_lat(c, json_object_get(o, RK_ROW_LATENCY), &w->lat);
	w->cache_pct = get_num(c, o, RK_ROW_CACHE_PCT, -1, 0, 100);
	w->cache_dropped = get_bool(c, o, RK_ROW_CACHE_DROPPED, 0);
	w->flags = load_flags(c, json_object_get(o, RK_ROW_FLAGS));
	get_str(c, o, RK_ROW_ERROR, &w->error);
	get_str(c, o, RK_ROW_NOTE, &w->note);
	load_metrics(c, json_object_get(o, RK_ROW_METRICS), w);
	require(c, RK_ROW_WORKLOAD, w->workload);
	require(c, RK_ROW_PHASE, w->phase);
	if (!c->failed && result_json_ranks_row_load(o, w, c->err, c->errlen) < 0)
		c->failed++;
	load_sys(c, o, w);
}

/* The checks that make a document a result of ours at all; 0, or -1 with the reason. */
static int check_root(const json_t *root, char *errbuf, unsigned long errlen)
{
	const json_t *tool = json_object_get(root, RK_RUN_TOOL);
	const json_t *sv = json_object_get(root, RK_RUN_SCHEMA_VERSION);
	const json_t *rows = json_object_get(root, RK_RUN_ROWS);

	if (!json_is_object(root) || !json_is_string(tool) ||
	    strcmp(json_string_value(tool), "iobattery") != 0 || !json_is_integer(sv) ||
	    json_integer_value(sv) < 1) {
		snprintf(errbuf, errlen, "not an iobattery result");
		return -1;
	}
	if (json_integer_value(sv) > RESULT_SCHEMA_VERSION) {
		snprintf(errbuf, errlen, "schema_version %lld is newer than this version reads "
			 "(%d): upgrade iobattery", (long long)json_integer_value(sv),
			 RESULT_SCHEMA_VERSION);
		return -1;
	}
	if (rows && !json_is_array(rows)) {
		snprintf(errbuf, errlen, "'" RK_RUN_ROWS "': expected an array");
		return -1;
	}
	return 0;
}

/* The run's own members (all but its rows) from root, checked by check_root. */
static void load_head(struct jload *c, const json_t *root, struct run *r)
{
	const json_t *o;

	r->schema_version = (int)json_integer_value(json_object_get(root,
								    RK_RUN_SCHEMA_VERSION));
	get_str(c, root, RK_RUN_ID, &r->id);
	get_str(c, root, RK_RUN_LABEL, &r->label);
	get_str(c, root, RK_RUN_WORKLOAD, &r->workload);
	get_str(c, root, RK_RUN_COMMAND_LINE, &r->command_line);
	o = json_object_get(root, RK_RUN_STATUS);
	if (o && !json_is_integer(o) && !json_is_null(o))
		jfail(c, RK_RUN_STATUS, "expected an integer");
	else if (json_is_integer(o) && (json_integer_value(o) < 0 || json_integer_value(o) > 255))
		jfail(c, RK_RUN_STATUS, "out of range (an exit status, 0 to 255)");
	r->status = json_is_integer(o) && !c->failed ? (int)json_integer_value(o) : 0;
	r->flags = (get_bool(c, root, RK_RUN_INCOMPLETE, 0) ? RUN_INCOMPLETE : 0) |
		   (get_bool(c, root, RK_RUN_IMPORTED, 0) ? RUN_IMPORTED : 0);
	get_str(c, root, RK_RUN_ERROR, &r->error);
	get_kv(c, root, RK_RUN_OPTIONS, &r->options);
	load_env(c, json_object_get(root, RK_RUN_ENV), &r->env);
	if (!c->failed && result_json_ranks_run_load(root, r, c->err, c->errlen) < 0)
		c->failed++;
}

/* Row i of a document (o, any JSON value) appended to r. */
static void load_row_at(struct jload *c, struct run *r, const json_t *o, size_t i)
{
	char where[32];

	snprintf(where, sizeof(where), RK_RUN_ROWS "[%zu]", i);
	c->where = where;
	if (!json_is_object(o))
		jfail(c, "", "expected an object");
	else
		load_row(c, r, o);
	c->where = "";
}

static struct run *run_from_json(const json_t *root, unsigned flags, char *errbuf,
				 unsigned long errlen)
{
	struct jload c = { errbuf, errlen, flags, 0, "", "" };
	const json_t *rows = json_object_get(root, RK_RUN_ROWS), *o;
	struct run *r;
	size_t i;

	if (check_root(root, errbuf, errlen) < 0)
		return NULL;
	r = run_new("");
	if (!r) {
		snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
		return NULL;
	}
	load_head(&c, root, r);
	json_array_foreach(rows, i, o) {
		if (c.failed)
			break;
		load_row_at(&c, r, o, i);
	}
	require(&c, RK_RUN_ID, r->id);
	if (c.failed) {
		run_free(r);
		return NULL;
	}
	return r;
}

int rjl_row(struct run *r, const json_t *o, size_t i, unsigned flags, char *err, size_t len)
{
	struct jload c = { err, len, flags, 0, "", "" };

	load_row_at(&c, r, o, i);
	return c.failed ? -1 : 0;
}

int rjl_head(const json_t *root, struct run *r, unsigned flags, char *err, size_t len)
{
	struct jload c = { err, len, flags, 0, "", "" };

	if (check_root(root, err, len) < 0)
		return -1;
	load_head(&c, root, r);
	require(&c, RK_RUN_ID, r->id);
	return c.failed ? -1 : 0;
}

struct run *rjl_tree_text(const char *text, unsigned flags, char *errbuf,
			  unsigned long errlen)
{
	json_error_t jerr;
	json_t *root;
	struct run *r;

	root = json_loads(text ? text : "", 0, &jerr);
	if (!root) {
		snprintf(errbuf, errlen, "malformed JSON at line %d column %d: %s", jerr.line,
			 jerr.column, jerr.text);
		return NULL;
	}
	r = run_from_json(root, flags, errbuf, errlen);
	json_decref(root);
	return r;
}

struct run *rjl_tree_file(const char *path, unsigned flags, char *errbuf,
			  unsigned long errlen)
{
	struct run *r;
	char *text;
	size_t len;
	int rc;

	/* a regular file only (a FIFO would block), read whole, then parsed as text */
	rc = rfile_read(path, 0, RESULT_JSON_MAX_BYTES, &text, &len);
	if (rc < 0) {
		snprintf(errbuf, errlen, "%s", rfile_strerror(rc));
		return NULL;
	}
	if (strlen(text) != len) {
		snprintf(errbuf, errlen, "malformed JSON: a NUL byte at offset %zu",
			 strlen(text));
		free(text);
		return NULL;
	}
	r = rjl_tree_text(text, flags, errbuf, errlen);
	free(text);
	return r;
}

/* The loaders read the document as a stream (result_json_stream.c): the rows go into the
 * run one by one and no tree of the whole document is ever built. A document the stream
 * does not take (malformed, not a result, a top-level member twice ...) is read again
 * whole as a tree, which names the first problem exactly as it always has: the two ways
 * give the same run or the same message (tests/fuzz/fuzz_result_stream.c). */
struct run *result_json_load(const char *text, char *errbuf, unsigned long errlen)
{
	return result_json_load_flags(text, 0, errbuf, errlen);
}

struct run *result_json_load_flags(const char *text, unsigned flags, char *errbuf,
				   unsigned long errlen)
{
	struct run *r = rjs_load_text(text ? text : "", flags, NULL);

	return r ? r : rjl_tree_text(text, flags, errbuf, errlen);
}

struct run *result_json_load_file(const char *path, char *errbuf, unsigned long errlen)
{
	return result_json_load_file_flags(path, 0, errbuf, errlen);
}

struct run *result_json_load_file_flags(const char *path, unsigned flags, char *errbuf,
					unsigned long errlen)
{
	struct run *r = rjs_load_file(path, flags, RESULT_JSON_MAX_BYTES, 0, NULL);

	return r ? r : rjl_tree_file(path, flags, errbuf, errlen);
}
