/* result_devlat.c - a row's block-layer latency: the model's helpers and its JSON form
 * (dumping a loaded object gives the same text back). See result_devlat.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "stats/result_devlat.h"
#include "stats/result_keys.h"

static const char *const op_names[RDL_NOPS] = {
	"read", "write", "write_fua", "flush", "discard", "other",
};

const char *rdl_op_name(enum rdl_op op)
{
	return (unsigned)op < RDL_NOPS ? op_names[op] : "?";
}

struct row_devlat *row_devlat_new(void)
{
	struct row_devlat *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->diskstats_requests = NAN;
	d->diskstats_await_ms = NAN;
	d->window_ns = NAN;
	d->program_ns = NAN;
	return d;
}

void row_devlat_free(struct row_devlat *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		free(d->op[i].dev.hist);
		free(d->op[i].queue.hist);
	}
	free(d->reason);
	free(d->devices);
	free(d);
}

/* h's min and max from its lowest and highest non-empty buckets; max exact as max_ns
 * when that bucket holds it, else the bucket's midpoint (the program's maximum may lose a
 * race: devlat.bpf.c). Returns the maximum. */
static uint64_t bounds(struct hist *h, uint64_t max_ns)
{
	int lo = -1, hi = -1;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->b[i]) {
			if (lo < 0)
				lo = (int)i;
			hi = (int)i;
		}
	if (lo < 0)
		return 0;
	h->min = hist_bucket_low((unsigned)lo);
	if (max_ns && hist_index(max_ns) == (unsigned)hi)
		h->max = max_ns;
	else
		h->max = hist_bucket_low((unsigned)hi) + hist_bucket_width((unsigned)hi) / 2;
	if (h->min > h->max)
		h->min = h->max;
	return h->max;
}

void rdl_part_set(struct rdl_part *p, struct hist *h, uint64_t sum_ns, uint64_t max_ns)
{
	memset(p, 0, sizeof(*p));
	if (!h || !h->n) {
		free(h);
		return;
	}
	p->hist = h;
	p->n = h->n;
	h->sum = sum_ns ? sum_ns : h->sum;
	p->mean_ns = (double)h->sum / (double)h->n;
	p->max_ns = bounds(h, max_ns);
	p->p50_ns = hist_percentile(h, 50);
	p->p99_ns = hist_percentile(h, 99);
}

/* Merge the parts of every class (kind 0 device, 1 queue) into out. */
static void total_of(const struct row_devlat *d, int kind, struct rdl_part *out)
{
	struct hist h;
	double sum = 0;
	uint64_t mx = 0;

	hist_init(&h);
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		const struct rdl_part *p = kind ? &d->op[i].queue : &d->op[i].dev;

		if (!p->n || !p->hist)
			continue;
		hist_merge(&h, p->hist);
		sum += p->mean_ns * (double)p->n;
		if (p->max_ns > mx)
			mx = p->max_ns;
	}
	if (!h.n)
		return;
	out->n = h.n;
	out->mean_ns = sum / (double)h.n;
	out->p50_ns = hist_percentile(&h, 50);
	out->p99_ns = hist_percentile(&h, 99);
	out->max_ns = mx;
}

void rdl_total(const struct row_devlat *d, struct rdl_part *dev, struct rdl_part *queue)
{
	total_of(d, 0, dev);
	total_of(d, 1, queue);
}

/* ---- JSON ---- */

static void put(json_t *o, const char *key, json_t *v, int *bad)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		(*bad)++;
}

static json_t *jnum(double v, int integer)
{
	if (!isfinite(v))
		return json_null();
	return integer ? json_integer((json_int_t)llround(v)) : json_real(v);
}

static json_t *hist_json(const struct hist *h, int *bad)
{
	json_t *a = json_array();

	if (!a) {
		(*bad)++;
		return NULL;
	}
	for (unsigned i = 0; h && i < HIST_NBUCKETS; i++)
		if (h->b[i] && json_array_append_new(a, json_pack("[II]", (json_int_t)i,
								   (json_int_t)h->b[i])) < 0)
			(*bad)++;
	return a;
}

static json_t *part_json(const struct rdl_part *p, int *bad)
{
	json_t *o = json_object();

	put(o, RK_DL_N, json_integer((json_int_t)p->n), bad);
	put(o, RK_DL_MEAN_NS, json_real(p->mean_ns), bad);
	put(o, RK_DL_P50_NS, json_integer((json_int_t)p->p50_ns), bad);
	put(o, RK_DL_P99_NS, json_integer((json_int_t)p->p99_ns), bad);
	put(o, RK_DL_MAX_NS, json_integer((json_int_t)p->max_ns), bad);
	put(o, RK_DL_HISTOGRAM, hist_json(p->hist, bad), bad);
	return o;
}

json_t *rdl_to_json(const struct row_devlat *d)
{
	json_t *o, *ops;
	int bad = 0;

	if (!d)
		return json_null();
	o = json_object();
	ops = json_object();
	put(o, RK_DL_REASON, d->reason ? json_string(d->reason) : json_null(), &bad);
	put(o, RK_DL_DEVICES, d->devices ? json_string(d->devices) : json_null(), &bad);
	put(o, RK_DL_REQUESTS, json_integer((json_int_t)d->requests), &bad);
	put(o, RK_DL_UNSTAMPED, json_integer((json_int_t)d->unstamped), &bad);
	put(o, RK_DL_UNISSUED, json_integer((json_int_t)d->unissued), &bad);
	put(o, RK_DL_DS_REQUESTS, jnum(d->diskstats_requests, 1), &bad);
	put(o, RK_DL_DS_AWAIT, jnum(d->diskstats_await_ms, 0), &bad);
	put(o, RK_DL_WINDOW_NS, jnum(d->window_ns, 1), &bad);
	put(o, RK_DL_PROGRAM_NS, jnum(d->program_ns, 1), &bad);
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		json_t *x;

		if (!d->op[i].dev.n)
			continue;
		x = json_object();
		put(x, RK_DL_DEVICE, part_json(&d->op[i].dev, &bad), &bad);
		put(x, RK_DL_QUEUE, part_json(&d->op[i].queue, &bad), &bad);
		put(ops, op_names[i], x, &bad);
	}
	put(o, RK_DL_OPS, ops, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- loading ---- */

static int fail(char *err, size_t len, const char *where, const char *key, const char *why)
{
	snprintf(err, len, "%s%s%s: %s", where, *where ? "." : "", key, why);
	return -EINVAL;
}

/* An unsigned integer member (absent or null: 0 when opt, else an error). */
static int get_u64(const json_t *o, const char *key, uint64_t *v, char *err, size_t len,
		   const char *where)
{
	const json_t *x = json_object_get(o, key);

	*v = 0;
	if (!x || json_is_null(x))
		return 0;
	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return fail(err, len, where, key, "expected a count");
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

static double get_num(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);

	return json_is_number(x) ? json_number_value(x) : NAN;
}

/* One part; with no_hist its histogram is checked as ever but not kept (p->hist NULL). */
static int load_part(const json_t *o, struct rdl_part *p, int no_hist, char *err,
		     size_t len, const char *where)
{
	const json_t *a, *pair;
	struct hist *h, one;
	size_t i;
	int rc = 0;

	if (!json_is_object(o))
		return fail(err, len, where, "", "expected an object");
	rc |= get_u64(o, RK_DL_N, &p->n, err, len, where);
	rc |= get_u64(o, RK_DL_P50_NS, &p->p50_ns, err, len, where);
	rc |= get_u64(o, RK_DL_P99_NS, &p->p99_ns, err, len, where);
	rc |= get_u64(o, RK_DL_MAX_NS, &p->max_ns, err, len, where);
	p->mean_ns = get_num(o, RK_DL_MEAN_NS);
	if (rc)
		return -EINVAL;
	a = json_object_get(o, RK_DL_HISTOGRAM);
	if (!json_is_array(a) || !json_array_size(a))
		return 0;
	h = no_hist ? &one : malloc(sizeof(*h));
	if (!h)
		return fail(err, len, where, RK_DL_HISTOGRAM, "out of memory");
	h->n = 0;
	if (!no_hist)
		hist_init(h);
	json_array_foreach(a, i, pair) {
		json_int_t b, n;

		if (json_unpack((json_t *)pair, "[II]", &b, &n) < 0 || b < 0 ||
		    b >= HIST_NBUCKETS || n < 0 || h->n + (uint64_t)n < h->n) {
			if (!no_hist)
				free(h);
			return fail(err, len, where, RK_DL_HISTOGRAM,
				    "expected [bucket, count] pairs");
		}
		if (!no_hist)
			h->b[b] += (uint64_t)n;
		h->n += (uint64_t)n;
	}
	if (no_hist)
		return 0;
	bounds(h, p->max_ns);
	h->sum = units_dtou64(p->mean_ns * (double)h->n, 1);
	p->hist = h;
	return 0;
}

static int load_ops(const json_t *ops, struct row_devlat *d, int no_hist, char *err,
		    size_t len)
{
	char where[64];

	if (!ops || json_is_null(ops))
		return 0;
	if (!json_is_object(ops))
		return fail(err, len, "", RK_DL_OPS, "expected an object");
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		const json_t *x = json_object_get(ops, op_names[i]);

		if (!x)
			continue;
		snprintf(where, sizeof(where), RK_DL_OPS ".%s", op_names[i]);
		if (!json_is_object(x))
			return fail(err, len, where, "", "expected an object");
		if (load_part(json_object_get(x, RK_DL_DEVICE), &d->op[i].dev, no_hist, err,
			      len, where) < 0 ||
		    load_part(json_object_get(x, RK_DL_QUEUE), &d->op[i].queue, no_hist, err,
			      len, where) < 0)
			return -EINVAL;
	}
	return 0;
}

static char *dup_str(const json_t *o, const char *key)
{
	const json_t *x = json_object_get(o, key);

	return json_is_string(x) ? strdup(json_string_value(x)) : NULL;
}

int rdl_from_json(const json_t *o, int no_hist, struct row_devlat **out, char *err,
		  size_t len)
{
	struct row_devlat *d;

	*out = NULL;
	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o)) {
		snprintf(err, len, "expected an object");
		return -EINVAL;
	}
	d = row_devlat_new();
	if (!d) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	d->reason = dup_str(o, RK_DL_REASON);
	d->devices = dup_str(o, RK_DL_DEVICES);
	d->diskstats_requests = get_num(o, RK_DL_DS_REQUESTS);
	d->diskstats_await_ms = get_num(o, RK_DL_DS_AWAIT);
	d->window_ns = get_num(o, RK_DL_WINDOW_NS);
	d->program_ns = get_num(o, RK_DL_PROGRAM_NS);
	if (get_u64(o, RK_DL_REQUESTS, &d->requests, err, len, "") < 0 ||
	    get_u64(o, RK_DL_UNSTAMPED, &d->unstamped, err, len, "") < 0 ||
	    get_u64(o, RK_DL_UNISSUED, &d->unissued, err, len, "") < 0 ||
	    load_ops(json_object_get(o, RK_DL_OPS), d, no_hist, err, len) < 0) {
		row_devlat_free(d);
		return -EINVAL;
	}
	*out = d;
	return 0;
}
