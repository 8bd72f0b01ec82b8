/* registry.c - the table of engines and their options. Add an engine: one line here
 * (behind its HAVE_*), and its name in absent[] for builds without it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "engine/engine.h"

static const struct engine *const engines[] = {
	&engine_psync,
#ifdef HAVE_LIBURING
	&engine_io_uring,
#endif
#ifdef HAVE_LIBAIO
	&engine_libaio,
#endif
#ifdef HAVE_MMAP
	&engine_mmap,
#endif
	&engine_null,
	NULL,
};

/* Engines iobattery has, and what a build lacks to list them. */
static const struct {
	const char *name, *why;
} absent[] = {
	{ "io_uring", "not in this build: configure found no liburing "
		      "(install liburing-dev, run ./configure): use psync" },
	{ "libaio", "not in this build: configure found no libaio "
		    "(install libaio-dev, run ./configure): use psync" },
	{ "mmap", "not in this build: configure found no mmap/msync: use psync" },
};

/* fio's option names; a value-less option is a boolean set to 1. */
static const struct {
	const char *name;
	unsigned flag;
	int takes_int;		/* "name=N" */
} options[] = {
	{ "fixedbufs", ENGINE_O_FIXEDBUFS, 0 },
	{ "registerfiles", ENGINE_O_REGFILES, 0 },
	{ "sqthread_poll", ENGINE_O_SQPOLL, 0 },
	{ "sqpoll", ENGINE_O_SQPOLL, 0 },	/* short form for the command line */
	{ "sqthread_poll_cpu", ENGINE_O_SQPOLL_CPU, 1 },
	{ "hipri", ENGINE_O_HIPRI, 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const struct engine *engine_find(const char *name)
{
	size_t i;

	for (i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const char *engine_absent(const char *name)
{
	size_t i;

	if (engine_find(name))
		return NULL;
	for (i = 0; i < NELEM(absent); i++)
		if (!strcmp(absent[i].name, name))
			return absent[i].why;
	return NULL;
}

const struct engine *const *engine_list(void)
{
	return engines;
}

char *engine_names(char *buf, size_t len)
{
	size_t i, used = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; engines[i]; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", engines[i]->name);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
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
	size_t i;

	for (i = 0; i < NELEM(options); i++) {
		unsigned f = options[i].flag;

		if (strcmp(options[i].name, name))
			continue;
		if (!(e->opts & f))
			return -ENOENT;
		if (options[i].takes_int) {
			char *end;
			long v;

			if (!value || !*value)
				return -EINVAL;
			errno = 0;
			v = strtol(value, &end, 10);
			if (errno || *end || v < 0 || v > INT_MAX)
				return -EINVAL;
			o->sqpoll_cpu = (int)v;
			o->flags |= f;
			return 0;
		}
		switch (parse_bool(value)) {
		case 1:
			o->flags |= f;
			return 0;
		case 0:
			o->flags &= ~f;
			return 0;
		default:
			return -EINVAL;
		}
	}
	return -ENOENT;
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
	o->sqpoll_cpu = -1;
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

char *engine_opts_str(const struct engine_opts *o, char *buf, size_t len)
{
	size_t i, used = 0;
	unsigned seen = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < NELEM(options); i++) {
		unsigned f = options[i].flag;
		int n;

		if (!(o->flags & f) || (seen & f))
			continue;
		seen |= f;
		if (options[i].takes_int)
			n = snprintf(buf + used, len - used, "%s%s=%d", used ? "," : "",
				     options[i].name, o->sqpoll_cpu);
		else
			n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
				     options[i].name);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}
