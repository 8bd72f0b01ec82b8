/* job_dump.c - a parsed job list as one fio command line (what `fio --showcmd FILE`
 * prints), and fio's ':'-separated file name lists. */
#include <errno.h>
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
			jd_put(&b, s->name);
			jd_put(&b, " ");
		}
		for (k = 0; k < s->nopts; k++) {
			const struct job_optrec *r = &s->opts[k];
			const char *q = strcmp(r->name, "description") ? "" : "\"";

			jd_put(&b, "--");
			jd_put(&b, r->name);
			if (!r->value) {
				jd_put(&b, " ");
				continue;
			}
			jd_put(&b, "=");
			jd_put(&b, q);
			jd_put(&b, r->value);
			jd_put(&b, q);
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
