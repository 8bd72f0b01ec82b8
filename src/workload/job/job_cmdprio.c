/* job_cmdprio.c - fio's priorities per request (job_cmdprio.h): cmdprio_percentage,
 * cmdprio_class, cmdprio and cmdprio_bssplit (both of its forms), parsed into plain
 * values of struct job_cmdprio, and the pick for each request. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload/job/job_cmdprio.h"
#include "workload/job/job_int.h"

/* "A[,B]": one value for reads and writes, or one each (a third, for trims, ignored as
 * fio ignores it). Each 0..max. 0 or -EINVAL with the message. */
static int jc_pair(struct job_pstate *ps, const char *val, unsigned max, uint8_t out[2])
{
	char buf[64], *c;
	uint64_t v[3];
	unsigned n = 0, i;

	if (!val || !*val || strlen(val) >= sizeof(buf))
		return job_opt_bad(ps, val, "a number, or one for reads and one for writes");
	strcpy(buf, val);
	for (c = strtok(buf, ","); c && n < 3; c = strtok(NULL, ","), n++)
		if (job_parse_plain(c, &v[n]) || v[n] > max) {
			char why[64];

			snprintf(why, sizeof(why), "each value from 0 to %u", max);
			return job_opt_bad(ps, val, why);
		}
	if (!n || c)
		return job_opt_bad(ps, val, "a number, or one for reads and one for writes");
	for (i = 0; i < 2; i++)
		out[i] = (uint8_t)v[i < n ? i : 0];
	return 0;
}

/* cmdprio_bssplit's list for one direction: BS/PERC[/CLASS/LEVEL]:... */
static int jc_split(struct job_pstate *ps, struct job_def *d, const char *val, char *s,
		    struct job_cmdprio *c, unsigned dir)
{
	char why[JOB_WHY_LEN], *tok, *save = NULL, *f[4], *p;
	unsigned n = 0, k;

	for (tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		struct job_cmdprio_ent *e = &c->split[dir][n];
		uint64_t bs, v[3];

		if (n == JOB_CMDPRIO_MAX)
			return job_opt_bad(ps, val, "at most 16 entries a direction");
		for (k = 0, p = tok; k < 4 && p; k++) {
			f[k] = p;
			if ((p = strchr(p, '/')) != NULL)
				*p++ = '\0';
		}
		if ((k != 2 && k != 4) || p)
			return job_opt_bad(ps, val, "entries BS/PERCENT or BS/PERCENT/CLASS/LEVEL");
		if (job_parse_size(f[0], d->kb_base, &bs, NULL, why, sizeof(why)) ||
		    bs > UINT32_MAX)
			return job_opt_bad(ps, val, "a block size in each entry");
		if (job_parse_plain(f[1], &v[0]) || v[0] > 100 ||
		    (k == 4 && (job_parse_plain(f[2], &v[1]) || v[1] > 3 ||
				job_parse_plain(f[3], &v[2]) || v[2] > 7)))
			return job_opt_bad(ps, val, "percent 0-100, class 0-3, level 0-7");
		e->bs = (uint32_t)bs;
		e->perc = (uint8_t)v[0];
		e->own = k == 4;
		e->cls = k == 4 ? (uint8_t)v[1] : 0;
		e->lvl = k == 4 ? (uint8_t)v[2] : 0;
		n++;
	}
	c->nsplit[dir] = (uint8_t)n;
	return 0;
}

static int jc_bssplit(struct job_pstate *ps, struct job_def *d, const char *val)
{
	char buf[1024], *grp[3] = { NULL, NULL, NULL }, *comma;
	unsigned i, n = 0;

	if (!val || !*val || strlen(val) >= sizeof(buf))
		return job_opt_bad(ps, val, "a list BS/PERCENT[/CLASS/LEVEL]:... is required");
	strcpy(buf, val);
	for (grp[n++] = buf; n < 3 && (comma = strchr(grp[n - 1], ',')); n++) {
		*comma = '\0';
		grp[n] = comma + 1;
	}
	for (i = 0; i < 2; i++) {
		char one[1024];

		/* one list: reads and writes alike */
		snprintf(one, sizeof(one), "%s", grp[i < n ? i : 0]);
		if (jc_split(ps, d, val, one, &d->xo.cmdprio, i))
			return -EINVAL;
	}
	return 0;
}

int job_cmdprio_opt(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		    const char *val)
{
	struct job_cmdprio *c = &d->xo.cmdprio;

	while (val && isspace((unsigned char)*val))
		val++;
	if (!strcmp(o->name, "cmdprio_percentage"))
		return jc_pair(ps, val, 100, c->pct);
	if (!strcmp(o->name, "cmdprio_class"))
		return jc_pair(ps, val, 3, c->cls);
	if (!strcmp(o->name, "cmdprio"))
		return jc_pair(ps, val, 7, c->lvl);
	return jc_bssplit(ps, d, val);
}

bool job_cmdprio_on(const struct job_cmdprio *c)
{
	return c->pct[0] || c->pct[1] || c->nsplit[0] || c->nsplit[1];
}

/* The ioprio value of class cls (0: fio's default, the real-time class) and level. */
static unsigned jc_value(unsigned cls, unsigned lvl)
{
	return (cls ? cls : 1u) << 13 | lvl;
}

unsigned job_cmdprio_pick(const struct job_cmdprio *c, unsigned dir, uint64_t len,
			  struct rng *r)
{
	unsigned i, acc = 0, v;

	if (dir > 1)
		return 0;
	if (c->nsplit[dir]) {
		v = (unsigned)rng_below(r, 100);
		for (i = 0; i < c->nsplit[dir]; i++) {
			const struct job_cmdprio_ent *e = &c->split[dir][i];

			if (e->bs != len)
				continue;
			acc += e->perc;
			if (v < acc)
				return e->own ? jc_value(e->cls, e->lvl)
					      : jc_value(c->cls[dir], c->lvl[dir]);
		}
		return 0;
	}
	if (c->pct[dir] && rng_below(r, 100) < c->pct[dir])
		return jc_value(c->cls[dir], c->lvl[dir]);
	return 0;
}
