/* termsafe.c - every string of a run escaped for a terminal (termsafe.h). */
#include <errno.h>
#include <stdlib.h>

#include "core/textsafe.h"
#include "output/termsafe.h"
#include "stats/result.h"
#include "stats/result_json.h"

/* Call fn on the address of every string of r; stop at the first nonzero return. */
static int each_str(struct run *r, int (*fn)(char **s, void *arg), void *arg)
{
	struct env *e = &r->env;
	char **top[] = { &r->id, &r->label, &r->workload, &r->command_line, &r->error,
			 &e->tool_version, &e->date, &e->host, &e->os, &e->kernel, &e->arch,
			 &e->cpu_model, &e->target, &e->fs_type, &e->mount_opts,
			 &e->mount_point, &e->device, &e->device_model, &e->scheduler };
	size_t i, j;
	int rc;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if ((rc = fn(top[i], arg)))
			return rc;
	for (i = 0; i < r->options.n; i++)
		if ((rc = fn(&r->options.v[i].key, arg)) || (rc = fn(&r->options.v[i].value, arg)))
			return rc;
	for (i = 0; i < r->nrows; i++) {
		struct row *w = r->rows[i];
		char **rs[] = { &w->workload, &w->phase, &w->rate_unit, &w->error, &w->note };

		for (j = 0; j < sizeof(rs) / sizeof(rs[0]); j++)
			if ((rc = fn(rs[j], arg)))
				return rc;
		for (j = 0; j < w->params.n; j++)
			if ((rc = fn(&w->params.v[j].key, arg)) ||
			    (rc = fn(&w->params.v[j].value, arg)))
				return rc;
		for (j = 0; j < w->nmetrics; j++)
			if ((rc = fn(&w->metrics[j].name, arg)) ||
			    (rc = fn(&w->metrics[j].unit, arg)))
				return rc;
	}
	return 0;
}

static int needs(char **s, void *arg)
{
	(void)arg;
	return *s && textsafe_term_needed(*s);
}

/* Line breaks and tabs inside a value (an SQL statement over several lines) are layout,
 * not data: on a terminal they become one space each, so that a statement reads as
 * text, never as "\x0a"; the other control characters are escaped. */
static void fold_space(char *s)
{
	char *o = s, *start = s;

	while (*s) {
		if (*s == '\n' || *s == '\r' || *s == '\t') {
			/* the break and the indent after it: one space */
			while (*s == '\n' || *s == '\r' || *s == '\t' || *s == ' ')
				s++;
			if (o == start || o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
}

static int escape(char **s, void *arg)
{
	char *e;

	(void)arg;
	if (!*s || !textsafe_term_needed(*s))
		return 0;
	fold_space(*s);
	if (!textsafe_term_needed(*s))
		return 0;
	e = textsafe_term(*s);
	if (!e)
		return -ENOMEM;
	free(*s);
	*s = e;
	return 0;
}

int termsafe_needed(const struct run *run)
{
	/* each_str only reads through needs() */
	return each_str((struct run *)run, needs, NULL) ? 1 : 0;
}

int termsafe_run(struct run *run)
{
	return each_str(run, escape, NULL);
}

struct run *termsafe_copy(const struct run *run, int *err)
{
	char why[256];
	struct run *c;
	char *d;

	*err = 0;
	if (!termsafe_needed(run))
		return NULL;
	/* the JSON form is the model's complete serialisation: a deep copy */
	d = result_json_dump(run);
	c = d ? result_json_load(d, why, sizeof(why)) : NULL;
	free(d);
	if (!c || termsafe_run(c) < 0) {
		run_free(c);
		*err = -ENOMEM;
		return NULL;
	}
	return c;
}
