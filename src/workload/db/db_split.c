/* db_split.c - split an SQL script into statements the way psql does for the constructs
 * scripts use: ';' ends a statement unless it is inside a single-quoted string ('' doubles
 * a quote; E'...' also takes backslash escapes), a double-quoted identifier, a -- comment,
 * a block comment (nested, as PostgreSQL allows), or a dollar quote ($$...$$ or
 * $tag$...$tag$, the usual way of writing function bodies). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/db/db.h"

struct splitter {
	const char *t;
	size_t i;
	unsigned line;
	struct db_stmt *v;
	int n, cap;
};

static int ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

/* Length of a dollar-quote opener at t ("$$" or "$tag$"), 0 when t is not one. */
static size_t dollar_tag_len(const char *t)
{
	size_t k = 1;

	if (t[0] != '$')
		return 0;
	if (t[1] == '$')
		return 2;
	if (!(isalpha((unsigned char)t[1]) || t[1] == '_' || (unsigned char)t[1] >= 0x80))
		return 0;
	while (t[k] && t[k] != '$') {
		if (!(isalnum((unsigned char)t[k]) || t[k] == '_' ||
		      (unsigned char)t[k] >= 0x80))
			return 0;
		k++;
	}
	return t[k] == '$' ? k + 1 : 0;
}

static void advance(struct splitter *s, size_t k)
{
	while (k-- && s->t[s->i]) {
		if (s->t[s->i] == '\n')
			s->line++;
		s->i++;
	}
}

/* Skip blanks and comments; 0, or -EINVAL for an unterminated block comment. */
static int skip_blank(struct splitter *s)
{
	for (;;) {
		const char *p = s->t + s->i;
		int depth;

		if (isspace((unsigned char)*p)) {
			advance(s, 1);
		} else if (p[0] == '-' && p[1] == '-') {
			while (s->t[s->i] && s->t[s->i] != '\n')
				advance(s, 1);
		} else if (p[0] == '/' && p[1] == '*') {
			advance(s, 2);
			depth = 1;
			while (depth) {
				p = s->t + s->i;
				if (!*p)
					return -EINVAL;
				if (p[0] == '/' && p[1] == '*') {
					depth++;
					advance(s, 2);
				} else if (p[0] == '*' && p[1] == '/') {
					depth--;
					advance(s, 2);
				} else {
					advance(s, 1);
				}
			}
		} else {
			return 0;
		}
	}
}

static int push(struct splitter *s, size_t from, size_t to, unsigned line)
{
	struct db_stmt *nv;
	char *sql;

	while (to > from && isspace((unsigned char)s->t[to - 1]))
		to--;
	if (to == from)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		nv = realloc(s->v, (size_t)s->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->v = nv;
	}
	sql = malloc(to - from + 1);
	if (!sql)
		return -ENOMEM;
	memcpy(sql, s->t + from, to - from);
	sql[to - from] = '\0';
	s->v[s->n].sql = sql;
	s->v[s->n].line = line;
	s->n++;
	return 0;
}

/* Scan past a quoted token starting at s->i; returns 0 or -EINVAL (unterminated). */
static int skip_quoted(struct splitter *s, const char **what)
{
	const char *p = s->t + s->i;
	size_t tl;
	int bs = 0;

	if (*p == '$' && (tl = dollar_tag_len(p))) {
		const char *end;

		*what = "dollar quote";
		for (end = p + tl; *end; end++)
			if (*end == '$' && !strncmp(end, p, tl))
				break;
		if (!*end)
			return -EINVAL;
		advance(s, (size_t)(end - p) + tl);
		return 0;
	}
	if ((*p == 'E' || *p == 'e') && p[1] == '\'') {
		bs = 1;
		advance(s, 1);
		p++;
	}
	if (*p == '\'' || *p == '"') {
		char q = *p;

		*what = q == '"' ? "double-quoted identifier" : "quoted string";
		advance(s, 1);
		for (;;) {
			p = s->t + s->i;
			if (!*p)
				return -EINVAL;
			if (bs && *p == '\\' && p[1]) {
				advance(s, 2);
			} else if (*p == q && p[1] == q) {
				advance(s, 2);
			} else if (*p == q) {
				advance(s, 1);
				return 0;
			} else {
				advance(s, 1);
			}
		}
	}
	return 1;	/* not a quote */
}

static int split_run(struct splitter *s, char *err, size_t errlen)
{
	size_t from;
	unsigned line, qline;
	const char *what = "";
	int rc;

	for (;;) {
		if (skip_blank(s) < 0)
			goto unterminated_comment;
		if (!s->t[s->i])
			return 0;
		from = s->i;
		line = s->line;
		for (;;) {
			const char *p = s->t + s->i;
			int prev = s->i > from ? s->t[s->i - 1] : ' ';

			if (!*p || *p == ';') {
				rc = push(s, from, s->i, line);
				if (rc < 0)
					return rc;
				if (*p)
					advance(s, 1);
				break;
			}
			qline = s->line;
			if ((p[0] == '-' && p[1] == '-') || (p[0] == '/' && p[1] == '*')) {
				if (skip_blank(s) < 0)
					goto unterminated_comment;
				continue;
			}
			if (!ident_char(prev) || *p == '\'' || *p == '"') {
				rc = skip_quoted(s, &what);
				if (rc < 0) {
					snprintf(err, errlen, "unterminated %s starting at line %u",
						 what, qline);
					return -EINVAL;
				}
				if (rc == 0)
					continue;
			}
			advance(s, 1);
		}
	}
unterminated_comment:
	snprintf(err, errlen, "unterminated /* comment");
	return -EINVAL;
}

int db_split(const char *text, struct db_stmt **out, char *err, size_t errlen)
{
	struct splitter s = { .t = text, .line = 1 };
	int rc;

	rc = split_run(&s, err, errlen);
	if (rc < 0) {
		db_split_free(s.v, s.n);
		*out = NULL;
		return rc;
	}
	*out = s.v;
	return s.n;
}

void db_split_free(struct db_stmt *v, int n)
{
	int k;

	if (!v)
		return;
	for (k = 0; k < n; k++)
		free(v[k].sql);
	free(v);
}
