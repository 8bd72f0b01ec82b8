/* import.c - the import driver: split a text into lines, remove mail quoting, join
 * Bonnie++ CSV lines a mailer wrapped, hand each line to the readers and report the
 * lines none of them could read. See import.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/rfile.h"
#include "import/import.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"

/* refuse files larger than this */
#define IMPORT_MAX_BYTES (64u << 20)

/* Strip mail quoting ("> ", ">> ", "> > ") and surrounding blanks, in place. */
static char *unquote(char *s)
{
	char *e;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '>')
			break;
		s++;
	}
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

struct lines {
	char **v;
	size_t n;
};

/* Split text into NUL-terminated lines (the text is copied). */
static int split_lines(const char *text, char **copy, struct lines *ls)
{
	size_t n = 1, i = 0;
	char *p;

	*copy = strdup(text);
	if (!*copy)
		return -ENOMEM;
	for (p = *copy; *p; p++)
		n += *p == '\n';
	ls->v = calloc(n, sizeof(*ls->v));
	if (!ls->v) {
		free(*copy);
		return -ENOMEM;
	}
	p = *copy;
	while (p && i < n) {
		ls->v[i++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	ls->n = i;
	if (ls->n && !*ls->v[ls->n - 1])
		ls->n--;	/* the empty piece after the final newline */
	return 0;
}

static void report(struct import_set *set, FILE *diag, const char *source, unsigned lineno,
		   const char *why)
{
	set->skipped++;
	if (!diag || set->reported >= IMPORT_MAX_REPORTS)
		return;
	set->reported++;
	fprintf(diag, "iobattery: skipped line %u: '%s': %s\n", lineno, source, why);
}

/* Join a Bonnie++ CSV line wrapped over several lines. Returns the number of extra lines
 * consumed, the joined text in *joined (malloc'd) or -ENOMEM. A piece of the wrap width
 * (79 or 80 characters) or a line still short of fields continues on the next line when
 * that holds no blanks. */
static int join_wrapped(struct lines *ls, size_t i, char *first, char **joined)
{
	unsigned have, want, extra = 0;
	size_t len = strlen(first), plen = len, nl;
	char *buf = strdup(first), *next, *nb;

	if (!buf)
		return -ENOMEM;
	while (i + 1 + extra < ls->n && extra < 8 &&
	       import_bonnie_shape(buf, &have, &want) &&
	       (have < want || plen == 79 || plen == 80)) {
		next = unquote(ls->v[i + 1 + extra]);
		if (!*next || strchr(next, ' ') || strchr(next, '\t'))
			break;
		nl = strlen(next);
		nb = realloc(buf, len + nl + 1);
		if (!nb) {
			free(buf);
			return -ENOMEM;
		}
		buf = nb;
		memcpy(buf + len, next, nl + 1);
		len += nl;
		plen = nl;
		extra++;
	}
	*joined = buf;
	return (int)extra;
}

/* One line that may be a Bonnie++ CSV line. Returns lines consumed beyond this one, or
 * -1 when it is not one, or -ENOMEM. */
static int try_bonnie(struct import_set *set, struct lines *ls, size_t i, char *s,
		      const char *source, FILE *diag, int *added)
{
	unsigned have, want;
	struct run *run;
	char *joined, why[256];
	int extra, rc;

	if (!import_bonnie_shape(s, &have, &want))
		return -1;
	extra = join_wrapped(ls, i, s, &joined);
	if (extra < 0)
		return extra;
	why[0] = '\0';
	rc = import_bonnie_csv(joined, source, (unsigned)i + 1, &run, why, sizeof(why));
	free(joined);
	if (rc == -ENOMEM)
		return rc;
	if (rc == 1) {
		if (import_set_add(set, run) < 0)
			return -ENOMEM;
		(*added)++;
	} else {
		report(set, diag, source, (unsigned)i + 1,
		       why[0] ? why : "not a complete Bonnie++ CSV line");
	}
	return extra;
}

/* The runs from index `from` on were read at line lineno: each must be a result that
 * loads (every figure in the loader's ranges, every required key), or it is dropped and
 * the line reported with the loader's reason. What is imported can then be stored,
 * compared and printed like a measured run. */
static void check_new(struct import_set *set, size_t from, FILE *diag, const char *source,
		      unsigned lineno)
{
	char why[512], msg[560];
	size_t k = from;

	while (k < set->n) {
		char *d = result_json_dump(set->runs[k]);
		struct run *back = d ? result_json_load(d, why, sizeof(why)) : NULL;

		free(d);
		if (back) {
			run_free(back);
			k++;
			continue;
		}
		if (!d)
			snprintf(why, sizeof(why), "cannot be written as a result");
		snprintf(msg, sizeof(msg), "a figure out of range: %s", why);
		report(set, diag, source, lineno, msg);
		run_free(set->runs[k]);
		memmove(set->runs + k, set->runs + k + 1, (set->n - k - 1) * sizeof(*set->runs));
		set->n--;
	}
}

int import_text(struct import_set *set, const char *text, const char *source, FILE *diag)
{
	struct import_lines *st;
	struct lines ls = { 0 };
	char *copy, *s;
	size_t i;
	int rc, added = 0;
	size_t before = set->n;

	set->reported = 0;
	rc = split_lines(text, &copy, &ls);
	if (rc < 0)
		return rc;
	st = import_lines_new(source);
	if (!st) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < ls.n; i++) {
		size_t had = set->n;

		s = unquote(ls.v[i]);
		if (!*s)
			continue;
		rc = try_bonnie(set, &ls, i, s, source, diag, &added);
		if (rc == -ENOMEM)
			break;
		if (rc >= 0) {
			check_new(set, had, diag, source, (unsigned)i + 1);
			i += (size_t)rc;
			continue;
		}
		rc = import_lines_feed(st, s, (unsigned)i + 1, set);
		check_new(set, had, diag, source, (unsigned)i + 1);
		if (rc < 0)
			break;
		if (rc == 0)
			report(set, diag, source, (unsigned)i + 1,
			       "not a Bonnie++ CSV line, PostMark report, dd or time output");
	}
	{
		size_t had = set->n;

		if (rc != -ENOMEM)
			rc = import_lines_end(st, set);
		else
			(void)import_lines_end(st, set);
		check_new(set, had, diag, source, (unsigned)ls.n);
	}
	if (diag && set->reported >= IMPORT_MAX_REPORTS && set->skipped > set->reported)
		fprintf(diag, "iobattery: skipped lines: '%s': %u more not shown\n", source,
			set->skipped - set->reported);
out:
	free(ls.v);
	free(copy);
	(void)added;
	return rc < 0 ? rc : (int)(set->n - before);
}

int import_file(struct import_set *set, const char *path, FILE *diag)
{
	char *buf;
	size_t len;
	int rc;

	/* a regular file only: a FIFO would block, a directory is no text */
	rc = rfile_read(path, 0, IMPORT_MAX_BYTES, &buf, &len);
	if (rc < 0) {
		if (diag)
			fprintf(diag, "iobattery: cannot %s: '%s': %s\n",
				rc == -EINVAL || rc == -EFBIG || rc == -EISDIR ? "import" : "read",
				path, rc == -EFBIG ? "larger than 64 MiB" : rfile_strerror(rc));
		return rc == -ENOMEM ? rc : rc == -EFBIG || rc == -EISDIR ? -EINVAL : rc;
	}
	/* a NUL inside ends the text: binary junk is read up to there */
	rc = import_text(set, buf, path, diag);
	free(buf);
	return rc;
}
