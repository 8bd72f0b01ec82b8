/* result_json_stream.c - a result document read as a stream (result_json_load.h): the
 * text comes in pieces of 64 KiB, the document's own braces, keys, colons and commas are
 * read here, and each member's value (each row alone, for "rows") is cut out of the text
 * and parsed by jansson on its own, then taken into the run and dropped. What is held at
 * once is the run being built, one row's text and its tree, and the small members of the
 * top level (env, options ...), instead of the whole text and the whole tree.
 *
 * Why it gives the tree's run: a value in valid JSON ends where this reader ends it (a
 * string at its closing quote, an object or array where its brackets balance, a number
 * or a literal before the white space, ',' ']' or '}' that must follow it), so for a
 * valid document every piece is exactly the value the tree holds there, parsed by the
 * same parser with the same flags; the rows are read by the tree's own code in the same
 * order, and the rest of the run by the same code once the document has ended. Where a
 * piece is not valid, the document is not, and the tree refuses it too (RJS_REFUSED).
 * Forms where a piece alone would read differently from the whole are left to the tree
 * (RJS_UNTAKEN): a top-level member twice (the tree keeps the last), nesting deeper than
 * RJS_MAX_DEPTH (jansson's depth limit counts from the document's root). */
#include <errno.h>
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

/* The rows array at pos, each row into r as it comes. 0 or -1. */
static int load_rows(struct rjs *s, struct run *r, unsigned flags)
{
	char err[256] = "";
	size_t i;
	json_t *o;
	int c, rc;

	if (expect(s, '[') < 0)
		return -1;
	skip_ws(s);
	if (peek(s) == ']')
		return expect(s, ']');
	for (i = 0;; i++) {
		if (!(o = read_value(s)))
			return -1;
		/* a row that is not an object is the tree's code's to refuse */
		rc = s->row_bad ? 0 : rjl_row(r, o, i, flags, err, sizeof(err));
		json_decref(o);
		if (rc < 0 && strstr(err, "out of memory"))
			return stop(s, RJS_UNTAKEN);
		s->row_bad |= rc < 0;	/* refused at the end, if nothing else stops it */
		skip_ws(s);
		c = take(s);
		if (c == ']')
			return 0;
		if (c != ',')
			return stop(s, RJS_REFUSED);
	}
}

/* One member of the top level at pos ("key": value): the rows into r, any other into
 * rest. 0 or -1. */
static int load_member(struct rjs *s, struct run *r, json_t *rest, int *rows_seen,
		       unsigned flags)
{
	json_t *key, *v;
	const char *k;
	int rc = -1;

	skip_ws(s);
	if (peek(s) != '"')
		return stop(s, RJS_REFUSED);
	if (!(key = read_value(s)))
		return -1;
	k = json_string_value(key);
	if (expect(s, ':') < 0) {
		rc = -1;
	} else if (json_object_get(rest, k) || (*rows_seen && !strcmp(k, RK_RUN_ROWS))) {
		rc = stop(s, RJS_UNTAKEN);	/* twice: the tree keeps the last */
	} else if (!strcmp(k, RK_RUN_ROWS) && (skip_ws(s), peek(s) == '[')) {
		*rows_seen = 1;
		rc = load_rows(s, r, flags);
	} else if ((v = read_value(s))) {
		rc = json_object_set_new(rest, k, v) < 0 ? stop(s, RJS_UNTAKEN) : 0;
	}
	json_decref(key);
	return rc;
}

/* The document into a new run; NULL stopped. */
static struct run *load(struct rjs *s, unsigned flags)
{
	struct run *r = run_new("");
	json_t *rest = json_object();
	char err[256] = "";
	int rows_seen = 0, c = 0;

	if (!r || !rest) {
		stop(s, RJS_UNTAKEN);
	} else if (expect(s, '{') == 0) {
		skip_ws(s);
		if (peek(s) == '}')
			take(s);
		else
			do {
				if (load_member(s, r, rest, &rows_seen, flags) < 0)
					break;
				skip_ws(s);
				c = take(s);
				if (c != ',' && c != '}')
					stop(s, RJS_REFUSED);
			} while (c == ',');
		skip_ws(s);
		if (!s->why && peek(s) >= 0)	/* after the document, only white space */
			stop(s, RJS_REFUSED);
		if (s->row_bad)
			stop(s, RJS_REFUSED);
		if (!s->why && rjl_head(rest, r, flags, err, sizeof(err)) < 0)
			stop(s, strstr(err, "out of memory") ? RJS_UNTAKEN : RJS_REFUSED);
	}
	json_decref(rest);
	if (s->why && r) {
		run_free(r);
		r = NULL;
	}
	return r;
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
