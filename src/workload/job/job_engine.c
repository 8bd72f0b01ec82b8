/* job_engine.c - the job's engine as the parser sees it: ioengine= by any name or alias
 * of the registry, the options each engine declares (struct engine_optdef), checked as
 * fio checks them and kept until job_prepare applies them, and the warnings an engine's
 * flags call for. No engine is named here: the registry says what exists. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/job/job_fileops.h"
#include "workload/job/job_int.h"

/* The registry's spelling of name for e (its name or the alias), static. */
static const char *spelling(const struct engine *e, const char *name)
{
	const char *const *a;

	for (a = e->aliases; a && *a; a++)
		if (!strcmp(*a, name))
			return *a;
	return e->name;
}

int job_opt_ioengine(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val)
{
	const struct engine *e;
	char names[320];
	const char *v;

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val, "an engine name is required");
	for (v = val; isspace((unsigned char)*v); v++)
		;
	(void)job_fileop_engine(d, "");	/* none of fio's metadata engines, until one */
	e = engine_lookup(v);
	if (e) {
		d->engine = e;
		d->engine_name = spelling(e, v);
		return 0;
	}
	/* fio's file engines (filecreate ...) and falloc, ftruncate: the engine's metadata
	 * calls (job_fileops.c), on psync */
	if (!job_fileop_engine(d, v)) {
		d->engine = &engine_psync;
		return 0;
	}
	/* every name taken: the registry's engines and their aliases, then fio's file
	 * engines done on psync */
	engine_spellings(names, sizeof(names), NULL);
	job_fileop_names(names, sizeof(names));
	if (job_fio_has_engine(v))
		return job_perr(ps, "'%s=%s': fio's %s engine is not implemented (%s)",
				ps->optname, val, v, names);
	return job_perr(ps, "invalid '%s=%s': unknown engine (%s)", ps->optname, val, names);
}

/* The value of a flag as fio's "string set" takes it: bare is on, else 0 or 1. */
static int flag_value(struct job_pstate *ps, const char *val, char out[2])
{
	const char *v = val;

	while (v && isspace((unsigned char)*v))
		v++;
	if (!v) {
		strcpy(out, "1");
		return 0;
	}
	if (strcmp(v, "0") && strcmp(v, "1"))
		return job_opt_bad(ps, val, "must be 0 or 1");
	strcpy(out, v);
	return 0;
}

/* A number with fio's size units, in [od->min, od->max], as decimal digits into out. */
static int num_value(struct job_pstate *ps, const struct job_def *d,
		     const struct engine_optdef *od, const char *val, char *out, size_t len)
{
	char why[JOB_WHY_LEN];
	uint64_t v;

	if (!val || !*val)
		return job_opt_bad(ps, val, "a number is required");
	if (job_parse_size(val, d->kb_base, &v, NULL, why, sizeof(why)))
		return job_opt_bad(ps, val, why);
	if (v < (uint64_t)od->min) {
		snprintf(why, sizeof(why), "must be at least %ld", od->min);
		return job_opt_bad(ps, val, why);
	}
	if (v > (uint64_t)od->max) {
		snprintf(why, sizeof(why), "must be at most %ld", od->max);
		return job_opt_bad(ps, val, why);
	}
	snprintf(out, len, "%llu", (unsigned long long)v);
	return 0;
}

int job_engine_opt(struct job_pstate *ps, struct job_def *d, const char *name,
		   const char *val)
{
	const struct engine *owner = engine_option_owner(name);
	const struct engine_optdef *od;
	struct job_eopt *x;
	char value[sizeof(x->value)];
	unsigned i;
	int rc;

	if (!owner)
		return -ENOENT;
	od = engine_optdef_find(owner, name);
	rc = od->takes_value ? num_value(ps, d, od, val, value, sizeof(value))
			     : flag_value(ps, val, value);
	if (rc)
		return rc;
	for (i = 0; i < d->neopt && strcmp(d->eopt[i].name, od->name); i++)
		;
	if (i == JOB_EOPT_MAX)
		return job_perr(ps, "more than %u engine options", JOB_EOPT_MAX);
	x = &d->eopt[i];
	x->name = od->name;
	memcpy(x->value, value, sizeof(value));
	if (i == d->neopt)
		d->neopt++;
	return 0;
}

const char *job_def_eopt(const struct job_def *d, const char *name)
{
	unsigned i;

	for (i = 0; i < d->neopt; i++)
		if (!strcmp(d->eopt[i].name, name))
			return d->eopt[i].value;
	return NULL;
}

/* Warnings about an engine that will not do what the job asks, from its flags. */
static void engine_notes(struct job_pstate *ps, const struct job_def *d)
{
	unsigned f = d->engine->flags;

	if (!(f & (ENGINE_F_ASYNC | ENGINE_F_NOIO)) && d->iodepth > 1)
		job_pwarn(ps, "iodepth=%u has no effect with the synchronous engine %s: one I/O "
			  "at a time, as fio", d->iodepth, d->engine_name);
	if ((f & ENGINE_F_DIRECT_ASYNC) && !d->direct)
		job_pwarn(ps, "ioengine=%s without direct=1: Linux AIO runs buffered I/O "
			  "synchronously, whatever the iodepth", d->engine->name);
}

/* Whether the job's own section (the last one recorded) set option name. */
static bool own_option(const struct job_pstate *ps, const char *name)
{
	const struct job_sect *s = ps->out->nsects ? &ps->out->sects[ps->out->nsects - 1] : NULL;
	size_t k;

	for (k = 0; s && !s->global && k < s->nopts; k++)
		if (!strcmp(s->opts[k].name, name))
			return true;
	return false;
}

int job_engine_finish(struct job_pstate *ps, struct job_def *d)
{
	unsigned i, n = 0;

	engine_notes(ps, d);
	/* fio knows an engine's options only for that engine: one the job's section sets
	 * for another engine is refused as fio refuses it; one inherited from a global
	 * section does not apply and is dropped (fio accepts that file) */
	for (i = 0; i < d->neopt; i++) {
		const char *name = d->eopt[i].name;

		if (engine_optdef_find(d->engine, name)) {
			d->eopt[n++] = d->eopt[i];
			continue;
		}
		if (own_option(ps, name))
			return job_perr(ps, "option '%s' belongs to ioengine=%s, not ioengine=%s",
					name, engine_option_owner(name)->name, d->engine_name);
	}
	d->neopt = n;
	return 0;
}
