/* registry.c - the table of engines, and what is read from it: lookup by name or alias,
 * option setting by each engine's own optdefs, the names for messages. Add an engine:
 * its extern and its row in engines[] (engine.h says all it takes). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* The engines besides psync (engine.h), each defined in its own file in every build. */
extern const struct engine engine_io_uring;	/* absent without HAVE_LIBURING */
extern const struct engine engine_libaio;	/* absent without HAVE_LIBAIO */
extern const struct engine engine_mmap;		/* absent without HAVE_MMAP */
extern const struct engine engine_null;

/* Every engine iobattery has, in this build or not (an absent one says why): the order
 * of listings and of engine_option_owner. */
static const struct engine *const engines[] = {
	&engine_psync,
	&engine_io_uring,
	&engine_libaio,
	&engine_mmap,
	&engine_null,
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The ones in this build, NULL-terminated: a constant of the build, filled once. */
static const struct engine *built[NELEM(engines) + 1];
static pthread_once_t built_once = PTHREAD_ONCE_INIT;

static void built_fill(void)
{
	size_t i, n = 0;

	for (i = 0; i < NELEM(engines); i++)
		if (!engines[i]->absent)
			built[n++] = engines[i];
	built[n] = NULL;
}

const struct engine *engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(engines); i++)
		if (!engines[i]->absent && !strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct engine *engine_lookup(const char *name)
{
	const char *const *a;
	size_t i;

	for (i = 0; i < NELEM(engines); i++) {
		if (!strcmp(engines[i]->name, name))
			return engines[i];
		for (a = engines[i]->aliases; a && *a; a++)
			if (!strcmp(*a, name))
				return engines[i];
	}
	return NULL;
}

const char *engine_absent(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i]->absent;
	return NULL;
}

const struct engine *const *engine_list(void)
{
	pthread_once(&built_once, built_fill);
	return built;
}

/* Append "sep s" to buf (used bytes in *used). 0, or -1 when it no longer fits. */
static int append(char *buf, size_t len, size_t *used, const char *s)
{
	int n = snprintf(buf + *used, len - *used, "%s%s", *used ? ", " : "", s);

	if (n < 0 || (size_t)n >= len - *used)
		return -1;
	*used += (size_t)n;
	return 0;
}

char *engine_names(char *buf, size_t len)
{
	size_t i, used = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < NELEM(engines); i++)
		if (!engines[i]->absent && append(buf, len, &used, engines[i]->name) < 0)
			break;
	return buf;
}

char *engine_spellings(char *buf, size_t len, bool (*keep)(const char *alias))
{
	const char *const *a;
	size_t i, used = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < NELEM(engines); i++) {
		if (append(buf, len, &used, engines[i]->name) < 0)
			return buf;
		for (a = engines[i]->aliases; a && *a; a++)
			if ((!keep || keep(*a)) && append(buf, len, &used, *a) < 0)
				return buf;
	}
	return buf;
}

/* ---- options ---- */

/* The index of e's option name in its optdefs (the alias too when alias), or -1. */
static int opt_index(const struct engine *e, const char *name, int alias)
{
	const struct engine_optdef *d;

	for (d = e->optdefs; d && d->name && d - e->optdefs < ENGINE_OPT_MAX; d++)
		if (!strcmp(d->name, name) || (alias && d->alias && !strcmp(d->alias, name)))
			return (int)(d - e->optdefs);
	return -1;
}

const struct engine_optdef *engine_optdef_find(const struct engine *e, const char *name)
{
	int i = opt_index(e, name, 0);

	return i < 0 ? NULL : &e->optdefs[i];
}

const struct engine *engine_option_owner(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(engines); i++)
		if (opt_index(engines[i], name, 0) >= 0)
			return engines[i];
	return NULL;
}

/* 1, 0 or -1 (not a boolean). */
static int parse_bool(const char *v)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	if (!v || !*v)
		return 1;
	for (i = 0; i < NELEM(yes); i++) {
		if (!strcmp(v, yes[i]))
			return 1;
		if (!strcmp(v, no[i]))
			return 0;
	}
	return -1;
}

int engine_opt_set(const struct engine *e, struct engine_opts *o, const char *name,
		   const char *value)
{
	int i = opt_index(e, name, 1);
	const struct engine_optdef *d;
	unsigned bit;

	if (i < 0)
		return -ENOENT;
	d = &e->optdefs[i];
	bit = 1u << i;
	if (d->takes_value) {
		char *end;
		long v;

		if (!value || !*value)
			return -EINVAL;
		errno = 0;
		v = strtol(value, &end, 10);
		if (errno || *end || v < d->min || v > d->max)
			return -EINVAL;
		o->val[i] = v;
		o->flags |= bit;
		return 0;
	}
	switch (parse_bool(value)) {
	case 1:
		o->flags |= bit;
		o->val[i] = 1;
		return 0;
	case 0:
		o->flags &= ~bit;
		o->val[i] = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

int engine_opt_get(const struct engine *e, const struct engine_opts *o, const char *name,
		   long *value)
{
	int i = opt_index(e, name, 0);

	if (i < 0)
		return -ENOENT;
	if (!(o->flags & (1u << i)))
		return 0;
	if (value)
		*value = e->optdefs[i].takes_value ? o->val[i] : 1;
	return 1;
}

int engine_opts_check(const struct engine *e, const struct engine_opts *o)
{
	unsigned n = 0;

	while (n < ENGINE_OPT_MAX && e->optdefs && e->optdefs[n].name)
		n++;
	return o->flags & ~((1u << n) - 1) ? -EINVAL : 0;
}

/* One "opt[=value]" of a spec, len bytes at p. */
static int parse_one(const struct engine *e, struct engine_opts *o, const char *p, size_t len,
		     char *err, size_t errlen)
{
	char item[64];
	char *eq;
	int rc;

	if (!len || len >= sizeof(item)) {
		snprintf(err, errlen, "bad option list for engine '%s'", e->name);
		return -EINVAL;
	}
	memcpy(item, p, len);
	item[len] = 0;
	eq = strchr(item, '=');
	if (eq)
		*eq++ = 0;
	rc = engine_opt_set(e, o, item, eq);
	if (rc == -ENOENT)
		snprintf(err, errlen, "engine '%s' has no option '%s'", e->name, item);
	else if (rc)
		snprintf(err, errlen, "bad value for engine option '%s': '%s'", item,
			 eq ? eq : "");
	return rc ? -EINVAL : 0;
}

int engine_parse(const char *spec, const struct engine **e, struct engine_opts *o,
		 char *err, size_t errlen)
{
	char name[32];
	const char *colon = strchr(spec, ':'), *p;
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *why;

	memset(o, 0, sizeof(*o));
	if (errlen)
		err[0] = 0;
	if (len >= sizeof(name))
		len = sizeof(name) - 1;
	memcpy(name, spec, len);
	name[len] = 0;
	*e = engine_find(name);
	if (!*e) {
		why = engine_absent(name);
		if (why)
			snprintf(err, errlen, "engine '%s' %s", name, why);
		else
			snprintf(err, errlen, "unknown engine: '%s'", name);
		return -ENOENT;
	}
	if (!colon)
		return 0;
	for (p = colon + 1;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int rc = parse_one(*e, o, p, n, err, errlen);

		if (rc)
			return rc;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

char *engine_opts_str(const struct engine *e, const struct engine_opts *o, char *buf,
		      size_t len)
{
	const struct engine_optdef *d;
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (d = e->optdefs; d && d->name && d - e->optdefs < ENGINE_OPT_MAX; d++) {
		unsigned i = (unsigned)(d - e->optdefs);
		int n;

		if (!(o->flags & (1u << i)))
			continue;
		if (d->takes_value)
			n = snprintf(buf + used, len - used, "%s%s=%ld", used ? "," : "",
				     d->name, o->val[i]);
		else
			n = snprintf(buf + used, len - used, "%s%s", used ? "," : "", d->name);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}
