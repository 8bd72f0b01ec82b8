/* job_dump.c - a parsed job list as one fio command line (what `fio --showcmd FILE`
 * prints), and fio's ':'-separated file name lists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/job/job_int.h"

struct jd_buf {
	char *s;
	size_t len, cap;
	int oom;
};

static void jd_put(struct jd_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *ns;

		while (b->len + n + 1 > cap)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

/* A value as a shell word that runs nothing when pasted: as fio prints it (bare, or a
 * description in double quotes; blanks too, as fio) when nothing in it would expand or
 * run; else in single quotes ('\'' for a quote); a control character as $'\xNN' (no
 * raw ESC reaches the terminal). */
static void jd_value(struct jd_buf *b, const char *v, int dquote)
{
	const char *p;
	char x[8];
	int ctl = 0, meta = 0;

	for (p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			ctl = 1;
		else if (strchr(dquote ? "$`\\\"!" : "$`\\\"'!;&|<>()*?[]#~{}", c))
			meta = 1;
	}
	if (!ctl && !meta) {
		jd_put(b, dquote ? "\"" : "");
		jd_put(b, v);
		jd_put(b, dquote ? "\"" : "");
		return;
	}
	jd_put(b, ctl ? "$'" : "'");
	for (p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\'') {
			jd_put(b, ctl ? "\\'" : "'\\''");
		} else if (ctl && (c < 0x20 || c == 0x7f || c == '\\')) {
			snprintf(x, sizeof(x), "\\x%02x", c);
			jd_put(b, x);
		} else {
			x[0] = (char)c;
			x[1] = '\0';
			jd_put(b, x);
		}
	}
	jd_put(b, "'");
}

char *job_showcmd(const struct job_list *l)
{
	struct jd_buf b = { 0 };
	size_t i, k;

	/* fio prints "fio " when it meets the first section, then "\n" in any case */
	if (l->nsects)
		jd_put(&b, "fio ");
	for (i = 0; i < l->nsects; i++) {
		const struct job_sect *s = &l->sects[i];

		if (!s->global) {
			jd_put(&b, "--name=");
			jd_value(&b, s->name, 0);
			jd_put(&b, " ");
		}
		for (k = 0; k < s->nopts; k++) {
			const struct job_optrec *r = &s->opts[k];

			jd_put(&b, "--");
			jd_put(&b, r->name);
			if (!r->value) {
				jd_put(&b, " ");
				continue;
			}
			jd_put(&b, "=");
			jd_value(&b, r->value, !strcmp(r->name, "description"));
			jd_put(&b, " ");
		}
	}
	jd_put(&b, "\n");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

void job_names_free(char **names, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int job_names_split(const char *list, char ***names, unsigned *n)
{
	char **v = NULL, *cur;
	unsigned cnt = 0;
	const char *p = list ? list : "";
	size_t len = strlen(p), k = 0;

	*names = NULL;
	*n = 0;
	cur = malloc(len + 1);
	if (!cur)
		return -ENOMEM;
	for (;; p++) {
		if (*p == '\\' && p[1] == ':') {
			cur[k++] = ':';
			p++;
			continue;
		}
		if (*p && *p != ':') {
			cur[k++] = *p;
			continue;
		}
		if (k) {
			char **nv = realloc(v, (cnt + 1) * sizeof(*v));

			if (!nv || !(cur[k] = '\0', nv[cnt] = strdup(cur))) {
				job_names_free(nv ? nv : v, cnt);
				free(cur);
				return -ENOMEM;
			}
			v = nv;
			cnt++;
			k = 0;
		}
		if (!*p)
			break;
	}
	free(cur);
	*names = v;
	*n = cnt;
	return 0;
}
