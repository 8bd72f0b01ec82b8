/* result_json_stream.c - a result document read as a stream (result_json_load.h): the
 * text comes in pieces of 64 KiB, the braces, keys, colons and commas of the document,
 * of each row and of each row's series are read here, and every other value (a member of
 * the top level, of a row, one number of a series) is cut out of the text and parsed by
 * jansson on its own. A row's members go to the tree's own code (result_json_load.c) as
 * a small object, its series straight into its arrays, and the top level's members once
 * the document has ended. What is held at once is the run being built, one member's text
 * and tree (never a whole row's series) and the top level's small members (env, options),
 * instead of the whole text and the whole tree.
 *
 * Why it gives the tree's run: a value in valid JSON ends where this reader ends it (a
 * string at its closing quote, an object or array where its brackets balance, a number
 * or a literal before the white space, ',' ']' or '}' that must follow it), so for a
 * valid document every piece is exactly the value the tree holds there, parsed by the
 * same parser with the same flags; the rows are read by the tree's own code in the same
 * order, the series by the same rules as rseries_from_json (result_sys_json.c), and the
 * rest of the run by the tree's code once the document has ended. Where a piece is not
 * valid JSON, the document is not, and the tree refuses it too (RJS_REFUSED). Forms where
 * the pieces could read differently from the whole are left to the tree (RJS_UNTAKEN): a
 * member twice in the document, a row or a series (the tree keeps the last), nesting
 * deeper than RJS_MAX_DEPTH (jansson's limit counts from the document's root), and any
 * series the tree would refuse. tests/fuzz/fuzz_result_stream.c holds it to this. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/cleanup.h"
#include "core/rfile.h"
#include "stats/result.h"
#include "stats/result_json_load.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"

#define RJS_CHUNK	65536u		/* bytes read at a time */
#define RJS_MAX_DEPTH	64u		/* the nesting a member's value may have here */

struct rjs {
	int fd;			/* the file; -1 when the text is all there is */
	char *buf;		/* the text not yet dropped (owned when fd >= 0) */
	size_t len;		/* bytes in buf */
	size_t pos;		/* the next byte to read */
	size_t mark;		/* where the value being read began: kept from here on */
	size_t cap;		/* buf's size */
	size_t chunk;		/* bytes read at a time */
	size_t total, max;	/* bytes read from the file, the most it may have */
	int eof;		/* nothing more to read */
	int row_bad;		/* a row the tree's code refused (the document may yet have
				 * "rows" again, which the tree would read instead) */
	int why;		/* enum rjs_why once it has stopped */
};

/* Stop with why (the first reason stays). Returns -1. */
static int stop(struct rjs *s, int why)
{
	if (!s->why)
		s->why = why;
	return -1;
}

/* More text after buf[len], keeping buf[mark..len): 1, 0 at the end, -1 stopped. */
static int more(struct rjs *s)
{
	ssize_t n;
	char *nb;

	if (s->eof || s->why)
		return 0;
	if (s->mark > 0) {
		memmove(s->buf, s->buf + s->mark, s->len - s->mark);
		s->len -= s->mark;
		s->pos -= s->mark;
		s->mark = 0;
	}
	if (s->len == s->cap || s->cap - s->len < s->chunk / 4) {	/* a long value */
		nb = realloc(s->buf, s->cap * 2);
		if (!nb)
			return stop(s, RJS_UNTAKEN);
		s->buf = nb;
		s->cap *= 2;
	}
	do
		n = read(s->fd, s->buf + s->len, s->cap - s->len < s->chunk ?
			 s->cap - s->len : s->chunk);
	while (n < 0 && errno == EINTR && !sig_stop_requested());
	if (n < 0)
		return stop(s, RJS_UNTAKEN);
	if (n == 0) {
		s->eof = 1;
		return 0;
	}
	s->total += (size_t)n;
	if (s->total > s->max || memchr(s->buf + s->len, '\0', (size_t)n))
		return stop(s, RJS_UNTAKEN);	/* the tree names these */
	s->len += (size_t)n;
	return 1;
}

/* The next byte, not taken; -1 at the end of the text or once stopped. */
static int peek(struct rjs *s)
{
	while (s->pos == s->len)
		if (more(s) <= 0)
			return -1;
	return (unsigned char)s->buf[s->pos];
}

/* The next byte, taken; -1 at the end or once stopped. */
static int take(struct rjs *s)
{
	int c = peek(s);

	if (c >= 0)
		s->pos++;
	return c;
}

/* JSON's white space, dropped: nothing before it is needed again. */
static void skip_ws(struct rjs *s)
{
	int c;

	while ((c = peek(s)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		s->pos++;
	s->mark = s->pos;
}

/* Take the byte c that must come next; 0 or -1 (refused). */
static int expect(struct rjs *s, int c)
{
	skip_ws(s);
	if (peek(s) != c)
		return stop(s, RJS_REFUSED);
	s->pos++;
	s->mark = s->pos;
	return 0;
}

/* Past a string whose '"' is at pos (escapes not checked: the parser does). 0 or -1. */
static int skip_string(struct rjs *s)
{
	int c;

	s->pos++;
	for (;;) {
		if ((c = peek(s)) < 0)
			return stop(s, RJS_REFUSED);
		s->pos++;
		if (c == '"')
			return 0;
		if (c == '\\') {
			if (peek(s) < 0)
				return stop(s, RJS_REFUSED);
			s->pos++;
		}
	}
}

/* Past the value at pos (== mark): a string, an object or array (its brackets balanced,
 * whichever kind: a mismatch is the parser's to refuse), or a number or literal. 0 or -1.
 * Positions move when more() drops what lies before mark: none is held across it. */
static int skip_value(struct rjs *s)
{
	unsigned depth = 0;
	int c = peek(s);

	if (c == '"')
		return skip_string(s);
	if (c == '{' || c == '[') {
		for (;;) {
			if ((c = peek(s)) < 0)
				return stop(s, RJS_REFUSED);
			if (c == '"') {
				if (skip_string(s) < 0)
					return -1;
				continue;
			}
			s->pos++;
			if ((c == '{' || c == '[') && ++depth > RJS_MAX_DEPTH)
				return stop(s, RJS_UNTAKEN);
			if ((c == '}' || c == ']') && --depth == 0)
				return 0;
		}
	}
	while ((c = peek(s)) >= 0 && !memchr(" \t\n\r,]}", c, 7))
		s->pos++;
	return s->pos > s->mark ? 0 : stop(s, RJS_REFUSED);
}

/* The value at pos, parsed alone; NULL stopped. The caller owns it. */
static json_t *read_value(struct rjs *s)
{
	json_error_t e;
	json_t *v;

	skip_ws(s);
	if (skip_value(s) < 0)
		return NULL;
	v = json_loadb(s->buf + s->mark, s->pos - s->mark, JSON_DECODE_ANY, &e);
	if (!v)
		stop(s, json_error_code(&e) == json_error_out_of_memory ? RJS_UNTAKEN :
			RJS_REFUSED);
	s->mark = s->pos;
	return v;
}

/* The object at pos, member by member: member(s, key, arg) reads each value (its key
 * taken, pos at the value). 0 or -1. */
static int read_object(struct rjs *s, int (*member)(struct rjs *, const char *, void *),
		       void *arg)
{
	json_t *key;
	int c, rc;

	if (expect(s, '{') < 0)
		return -1;
	skip_ws(s);
	if (peek(s) == '}')
		return expect(s, '}');
	do {
		skip_ws(s);
		if (peek(s) != '"')
			return stop(s, RJS_REFUSED);
		if (!(key = read_value(s)))
			return -1;
		rc = expect(s, ':') < 0 ? -1 : member(s, json_string_value(key), arg);
		json_decref(key);
		if (rc < 0)
			return -1;
		skip_ws(s);
		c = take(s);
	} while (c == ',');
	return c == '}' ? 0 : stop(s, RJS_REFUSED);
}

/* The array at pos, element by element: elem(s, i, arg) reads each. 0 or -1. */
static int read_array(struct rjs *s, int (*elem)(struct rjs *, size_t, void *), void *arg)
{
	size_t i = 0;
	int c;

	if (expect(s, '[') < 0)
		return -1;
	skip_ws(s);
	if (peek(s) == ']')
		return expect(s, ']');
	do {
		if (elem(s, i++, arg) < 0)
			return -1;
		skip_ws(s);
		c = take(s);
	} while (c == ',');
	return c == ']' ? 0 : stop(s, RJS_REFUSED);
}

/* The value at pos read and dropped (a member nothing reads). 0 or -1. */
static int drop_value(struct rjs *s)
{
	json_t *v = read_value(s);

	json_decref(v);
	return v ? 0 : -1;
}

/* ---- a row's series, straight into its arrays (stats/result_sys_json.c's
 * rseries_from_json reads the same from a tree). A series that reader would refuse,
 * or one with a member twice, is left to the tree (RJS_UNTAKEN): the stream never
 * refuses what it does not read exactly as the tree. ---- */

struct scol {
	double *v;
	size_t n, cap;
	int seen;		/* the member was there */
	int arr;		/* ... as an array (null: not) */
};

struct sdev {
	json_t *name;
	int name_seen;
	struct scol col[RSED_N];
};

struct serctx {
	struct scol col[RSE_N];
	json_t *interval;
	int interval_seen, devs_seen;
	struct sdev *dev;
	size_t ndev, devcap;
};

/* One interval's value at pos: a number or null (NaN). */
static int col_elem(struct rjs *s, size_t i, void *arg)
{
	struct scol *c = arg;
	json_t *v = read_value(s);
	double *nv;

	(void)i;
	if (!v)
		return -1;
	if (!json_is_number(v) && !json_is_null(v)) {
		json_decref(v);
		return stop(s, RJS_UNTAKEN);	/* "expected numbers" */
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 4;
		nv = realloc(c->v, c->cap * sizeof(*nv));
		if (!nv) {
			json_decref(v);
			return stop(s, RJS_UNTAKEN);
		}
		c->v = nv;
	}
	c->v[c->n++] = json_is_null(v) ? NAN : json_number_value(v);
	json_decref(v);
	return 0;
}

/* The value at pos, which must be null (an array member that is not there): 0, or -1
 * (any other value is the tree's to refuse). */
static int null_value(struct rjs *s)
{
	json_t *v = read_value(s);
	int null = json_is_null(v);

	json_decref(v);
	return !v ? -1 : null ? 0 : stop(s, RJS_UNTAKEN);	/* "expected an array" */
}

/* A column member at pos: an array of values, or null (absent). */
static int read_col(struct rjs *s, struct scol *c)
{
	if (c->seen)
		return stop(s, RJS_UNTAKEN);	/* twice */
	c->seen = 1;
	skip_ws(s);
	if (peek(s) == '[') {
		c->arr = 1;
		return read_array(s, col_elem, c);
	}
	return null_value(s);
}

static int dev_member(struct rjs *s, const char *k, void *arg)
{
	struct sdev *d = arg;

	for (unsigned i = 0; i < RSED_N; i++)
		if (!strcmp(k, rser_dev_keys[i].name))
			return read_col(s, &d->col[i]);
	if (strcmp(k, RK_DEV_NAME))
		return drop_value(s);	/* read by no one */
	if (d->name_seen)
		return stop(s, RJS_UNTAKEN);
	d->name_seen = 1;
	return (d->name = read_value(s)) ? 0 : -1;
}

static int dev_elem(struct rjs *s, size_t i, void *arg)
{
	struct serctx *x = arg;
	struct sdev *nd;

	(void)i;
	skip_ws(s);
	if (peek(s) != '{')
		return stop(s, RJS_UNTAKEN);	/* "expected an object" (or not JSON) */
	if (x->ndev == x->devcap) {
		x->devcap = x->devcap ? x->devcap * 2 : 4;
		nd = realloc(x->dev, x->devcap * sizeof(*nd));
		if (!nd)
			return stop(s, RJS_UNTAKEN);
		x->dev = nd;
	}
	memset(&x->dev[x->ndev], 0, sizeof(*x->dev));
	return read_object(s, dev_member, &x->dev[x->ndev++]);
}

static int ser_member(struct rjs *s, const char *k, void *arg)
{
	struct serctx *x = arg;

	for (unsigned i = 0; i < RSE_N; i++)
		if (!strcmp(k, rser_keys[i].name))
			return read_col(s, &x->col[i]);
	if (!strcmp(k, RK_SER_INTERVAL_NS)) {
		if (x->interval_seen)
			return stop(s, RJS_UNTAKEN);
		x->interval_seen = 1;
		return (x->interval = read_value(s)) ? 0 : -1;
	}
	if (strcmp(k, RK_SER_DEVICES))
		return drop_value(s);
	if (x->devs_seen)
		return stop(s, RJS_UNTAKEN);
	x->devs_seen = 1;
	skip_ws(s);
	if (peek(s) == '[')
		return read_array(s, dev_elem, x);
	return null_value(s);
}

/* A column into its place in the series (n values: the tree's length check). */
static int put_col(struct scol *c, double **dst, size_t n)
{
	if (!c->arr)
		return 0;
	if (c->n != n)
		return -1;	/* "expected one value per interval" */
	if (n) {	/* the array to its size: a few values a row are the common case */
		double *v = realloc(c->v, n * sizeof(*v));

		if (v)
			c->v = v;
		free(*dst);
		*dst = c->v;
		c->v = NULL;
	}
	return 0;
}

/* The series from what was read, as rseries_from_json makes it; NULL when it would not. */
static struct row_series *ser_make(struct serctx *x)
{
	const json_t *iv = x->interval;
	struct row_series *sr;
	double v = NAN;
	size_t n = x->col[RSE_T_NS].n, d;
	int bad = !x->col[RSE_T_NS].arr;

	if (iv && !json_is_null(iv))
		v = json_is_number(iv) ? json_number_value(iv) : 1e19;
	if (bad || v > 9e18 || !(sr = row_series_new(n, x->ndev)))
		return NULL;
	sr->interval_ns = v > 0 && v <= 9e18 ? (uint64_t)v : 0;
	for (unsigned k = 0; k < RSE_N; k++)
		bad |= put_col(&x->col[k], &sr->v[k], n);
	for (d = 0; d < x->ndev && !bad; d++) {
		const json_t *nm = x->dev[d].name;

		for (unsigned k = 0; k < RSED_N; k++)
			bad |= put_col(&x->dev[d].col[k], &sr->dev[d].v[k], n);
		if (json_is_string(nm))
			bad |= !(sr->dev[d].name = strdup(json_string_value(nm)));
		else
			bad |= nm && !json_is_null(nm);
	}
	if (bad) {
		row_series_free(sr);
		return NULL;
	}
	return sr;
}

static void ser_free(struct serctx *x)
{
	for (unsigned k = 0; k < RSE_N; k++)
		free(x->col[k].v);
	for (size_t d = 0; d < x->ndev; d++) {
		for (unsigned k = 0; k < RSED_N; k++)
			free(x->dev[d].col[k].v);
		json_decref(x->dev[d].name);
	}
	free(x->dev);
	json_decref(x->interval);
}

/* The series object at pos into *out. 0 or -1. */
static int read_series(struct rjs *s, struct row_series **out)
{
	struct serctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	rc = read_object(s, ser_member, &x);
	if (rc == 0 && !(*out = ser_make(&x)))
		rc = stop(s, RJS_UNTAKEN);
	ser_free(&x);
	return rc;
}

/* What the stream reads of a row: its members but the series (into rest, for the tree's
 * code) and the series itself, straight into its arrays. */
struct rowctx {
	json_t *rest;
	struct row_series *series;
	int series_seen;
};

static int row_member(struct rjs *s, const char *k, void *arg)
{
	struct rowctx *x = arg;
	json_t *v;

	if (json_object_get(x->rest, k) || (x->series_seen && !strcmp(k, RK_ROW_SERIES)))
		return stop(s, RJS_UNTAKEN);	/* twice: the tree keeps the last */
	if (!strcmp(k, RK_ROW_SERIES) && (skip_ws(s), peek(s) == '{')) {
		x->series_seen = 1;
		return read_series(s, &x->series);
	}
	if (!(v = read_value(s)))
		return -1;
	return json_object_set_new(x->rest, k, v) < 0 ? stop(s, RJS_UNTAKEN) : 0;
}

/* What the stream reads of the document. */
struct docctx {
	struct run *r;
	json_t *rest;		/* the top level's members but the rows */
	unsigned flags;
	int rows_seen;
};

/* Row i at pos into the run. A row the tree's code refuses, or one that is not an
 * object, refuses the document only once it has ended (a later "rows" replaces it). */
static int row_elem(struct rjs *s, size_t i, void *arg)
{
	struct docctx *d = arg;
	struct rowctx x = { NULL, NULL, 0 };
	char err[256] = "";
	int rc = 0;

	skip_ws(s);
	if (peek(s) != '{') {
		x.rest = read_value(s);
	} else if (!(x.rest = json_object())) {
		return stop(s, RJS_UNTAKEN);
	} else if (read_object(s, row_member, &x) < 0) {
		json_decref(x.rest);
		row_series_free(x.series);
		return -1;
	}
	if (!x.rest)
		return -1;
	if (!s->row_bad)
		rc = rjl_row(d->r, x.rest, i, d->flags, err, sizeof(err));
	json_decref(x.rest);
	if (rc == 0 && !s->row_bad && x.series)	/* the row read no series: absent */
		d->r->rows[d->r->nrows - 1]->series = x.series;
	else
		row_series_free(x.series);
	if (rc < 0 && strstr(err, "out of memory"))
		return stop(s, RJS_UNTAKEN);
	s->row_bad |= rc < 0;
	return 0;
}

/* One member of the top level: the rows into the run, any other into rest. */
static int doc_member(struct rjs *s, const char *k, void *arg)
{
	struct docctx *d = arg;
	json_t *v;

	if (json_object_get(d->rest, k) || (d->rows_seen && !strcmp(k, RK_RUN_ROWS)))
		return stop(s, RJS_UNTAKEN);	/* twice: the tree keeps the last */
	if (!strcmp(k, RK_RUN_ROWS) && (skip_ws(s), peek(s) == '[')) {
		d->rows_seen = 1;
		return read_array(s, row_elem, d);
	}
	if (!(v = read_value(s)))
		return -1;
	return json_object_set_new(d->rest, k, v) < 0 ? stop(s, RJS_UNTAKEN) : 0;
}

/* The document into a new run; NULL stopped. */
static struct run *load(struct rjs *s, unsigned flags)
{
	struct docctx d = { run_new(""), json_object(), flags, 0 };
	char err[256] = "";

	if (!d.r || !d.rest) {
		stop(s, RJS_UNTAKEN);
	} else if (read_object(s, doc_member, &d) == 0) {
		skip_ws(s);
		if (peek(s) >= 0)	/* after the document, only white space */
			stop(s, RJS_REFUSED);
		if (s->row_bad)
			stop(s, RJS_REFUSED);
		if (!s->why && rjl_head(d.rest, d.r, flags, err, sizeof(err)) < 0)
			stop(s, strstr(err, "out of memory") ? RJS_UNTAKEN : RJS_REFUSED);
	}
	json_decref(d.rest);
	if (s->why && d.r) {
		run_free(d.r);
		d.r = NULL;
	}
	return d.r;
}

struct run *rjs_load_text(const char *text, unsigned flags, int *why)
{
	/* the whole text is there: more() never reads, buf is never written */
	struct rjs s = { -1, (char *)text, strlen(text), 0, 0, 0, 0, 0, SIZE_MAX, 1, 0, 0 };
	struct run *r = load(&s, flags);

	if (why)
		*why = s.why;
	return r;
}

struct run *rjs_load_file(const char *path, unsigned flags, size_t max, size_t chunk,
			  int *why)
{
	struct rjs s = { -1, NULL, 0, 0, 0, 0, 0, 0, max, 0, 0, 0 };
	struct run *r = NULL;

	s.chunk = chunk ? chunk : RJS_CHUNK;
	s.cap = s.chunk;
	s.fd = rfile_open(path, 0);
	s.buf = s.fd >= 0 ? malloc(s.cap) : NULL;
	if (s.buf)
		r = load(&s, flags);
	else
		stop(&s, RJS_UNTAKEN);	/* the tree names what failed */
	if (s.fd >= 0 && close(s.fd) < 0 && r) {
		run_free(r);
		r = NULL;
		stop(&s, RJS_UNTAKEN);
	}
	free(s.buf);
	if (why)
		*why = s.why;
	return r;
}
