/* job_opts_lists.c - the job options whose values are lists: bssplit (size/share
 * entries per direction), random_distribution (zipf, pareto, normal, zoned) and
 * percentile_list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/job/job_int.h"

#define JO_PARTS 3

/* One direction of bssplit: "BS[/PERC]:BS[/PERC]..."; a missing or zero share is blank
 * and blanks share what the others leave, so that the total is 100. */
static int jo_bssplit_one(struct job_pstate *ps, struct job_def *d, const char *val,
			  char *s, struct job_split *e, unsigned *ne)
{
	unsigned n = 0, given = 0, blanks = 0, i, k, rest;
	char *tok, *save = NULL;
	char why[JOB_WHY_LEN];

	for (tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t perc = 0;

		if (n == JOB_BSSPLIT_MAX) {
			snprintf(why, sizeof(why), "at most %d entries", JOB_BSSPLIT_MAX);
			return job_opt_bad(ps, val, why);
		}
		if (slash) {
			*slash++ = '\0';
			if (*slash && (job_parse_plain(slash, &perc) || perc > 100))
				return job_opt_bad(ps, val,
					"a share must be a percentage 0 to 100");
		}
		if (job_parse_size(tok, d->kb_base, &e[n].bs, NULL, why, sizeof(why)))
			return job_opt_bad(ps, val, why);
		if (!e[n].bs)
			return job_opt_bad(ps, val, "block sizes must be at least 1");
		e[n].perc = (unsigned)perc;
		if (perc)
			given += (unsigned)perc;
		else
			blanks++;
		n++;
	}
	if (given > 100) {
		snprintf(why, sizeof(why), "the shares add up to %u%%, more than 100%%", given);
		return job_opt_bad(ps, val, why);
	}
	if (n && !blanks && given != 100) {
		snprintf(why, sizeof(why), "the shares add up to %u%%, not 100%%", given);
		return job_opt_bad(ps, val, why);
	}
	if (blanks && given == 100)
		return job_opt_bad(ps, val, "nothing is left for the entries without a share");
	/* blanks share the rest; the remainder of the division goes one each to the first
	 * blanks, so that the shares add up to 100 (fio leaves it to the last entry) */
	rest = 100 - given;
	for (i = 0, k = 0; i < n && blanks; i++)
		if (!e[i].perc)
			e[i].perc = rest / blanks + (k++ < rest % blanks ? 1 : 0);
	*ne = n;
	return 0;
}

/* fio's per-direction lists: "R" for all, "R,W" (trim as W), "R,W,T". */
static int jo_ddir_groups(char *s, char *grp[JO_PARTS])
{
	char *c1 = strchr(s, ','), *c2;

	if (!c1) {
		grp[0] = grp[1] = grp[2] = s;
		return 0;
	}
	*c1 = '\0';
	grp[0] = s;
	grp[1] = c1 + 1;
	c2 = strchr(grp[1], ',');
	if (c2) {
		*c2 = '\0';
		grp[2] = c2 + 1;
		if (strchr(grp[2], ','))
			return -EINVAL;
	} else {
		grp[2] = grp[1];
	}
	return 0;
}

int job_opt_bssplit(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	char buf[4096], copy[4096], *grp[JO_PARTS];
	struct job_split e[JOB_BSSPLIT_MAX];
	unsigned ne = 0, i, k;

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val, "a value BS/PERCENT:... is required");
	if (strlen(val) >= sizeof(buf))
		return job_opt_bad(ps, val, "too long");
	strcpy(buf, val);
	if (jo_ddir_groups(buf, grp))
		return job_opt_bad(ps, val, "at most three lists (read,write,trim)");
	for (i = 0; i < JO_PARTS; i++) {
		strcpy(copy, grp[i]);
		if (jo_bssplit_one(ps, d, val, copy, e, &ne))
			return -EINVAL;
		if (i >= JOB_DDIRS)
			continue;
		d->bs[i].nsplit = ne;
		for (k = 0; k < ne; k++)
			d->bs[i].split[k] = e[k];
	}
	return 0;
}

/* percentile_list=P:P:... (up to 20, each 0 to 100). */
int job_opt_pctl(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	char buf[512], *tok, *save = NULL;
	double v[JOB_PCTL_MAX];
	unsigned n = 0, i;

	(void)o;
	if (!val || !*val || strlen(val) >= sizeof(buf))
		return job_opt_bad(ps, val, "a list of percentiles P:P:... is required");
	strcpy(buf, val);
	if (buf[0] == ':' || buf[strlen(buf) - 1] == ':' || strstr(buf, "::"))
		return job_opt_bad(ps, val, "an empty percentile");
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n == JOB_PCTL_MAX)
			return job_opt_bad(ps, val, "at most 20 percentiles");
		if (job_parse_double(tok, &v[n]) || v[n] < 0 || v[n] > 100)
			return job_opt_bad(ps, val, "each percentile is a number from 0 to 100");
		n++;
	}
	for (i = 0; i < n; i++)
		d->pctl[i] = v[i];
	d->npctl = n;
	return 0;
}

/* zoned:ACCESS/SIZE:...[,...[,...]] for one direction group. */
static int jo_zones(struct job_pstate *ps, const char *val, char *s, struct job_zone *z,
		    unsigned *nz)
{
	unsigned n = 0, acc = 0, sz = 0, blanks = 0, i;
	char *tok, *save = NULL;
	char why[JOB_WHY_LEN];

	for (tok = strtok_r(s, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t a, b = 0;

		if (n == JOB_ZONES_MAX)
			return job_opt_bad(ps, val, "at most 256 zones");
		if (slash) {
			*slash++ = '\0';
			if (*slash && (job_parse_plain(slash, &b) || b > 100))
				return job_opt_bad(ps, val, "a zone size is a percentage 0 to 100");
		}
		if (job_parse_plain(tok, &a) || a > 100)
			return job_opt_bad(ps, val, "each zone needs ACCESS/SIZE in percent");
		z[n].access = (unsigned)a;
		z[n].size = (unsigned)b;
		acc += (unsigned)a;
		if (b)
			sz += (unsigned)b;
		else
			blanks++;
		n++;
	}
	*nz = n;
	if (!n)
		return 0;
	if (acc != 100) {
		snprintf(why, sizeof(why), "the access percentages add up to %u%%, not 100%%", acc);
		return job_opt_bad(ps, val, why);
	}
	if (sz > 100) {
		snprintf(why, sizeof(why), "the zone sizes add up to %u%%, more than 100%%", sz);
		return job_opt_bad(ps, val, why);
	}
	for (i = 0; i < n && blanks; i++)	/* fio: blanks share the rest, rounding down */
		if (!z[i].size)
			z[i].size = (100 - sz) / blanks;
	*nz = n;
	return 0;
}

/* zoned:ACCESS/SIZE:... for every direction. fio documents one list per direction
 * separated by ',', but fio 3.33 refuses any ',' in random_distribution (jo_dist), so no
 * job file has one. */
static int jo_dist_zoned(struct job_pstate *ps, struct job_def *d, const char *val,
			 const char *spec)
{
	char buf[4096];
	unsigned nz = 0, i;

	if (strlen(spec) >= sizeof(buf))
		return job_opt_bad(ps, val, "too long");
	strcpy(buf, spec);
	if (jo_zones(ps, val, buf, d->dist.zones[JOB_READ], &nz))
		return -EINVAL;
	if (!nz)
		return job_opt_bad(ps, val, "at least one zone ACCESS/SIZE");
	for (i = 0; i < JOB_DDIRS; i++) {
		d->dist.nzones[i] = nz;
		if (i != JOB_READ)
			memcpy(d->dist.zones[i], d->dist.zones[JOB_READ],
			       nz * sizeof(d->dist.zones[i][0]));
	}
	return 0;
}

int job_opt_dist(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	static const char *const w[] = { "random", "zipf", "pareto", "normal", "zoned" };
	char head[16], *c2;
	const char *colon;
	char tail[256];
	double v, center = -1;
	size_t n;
	int i;

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val,
					   "random, zipf:THETA, pareto:H, normal:DEV or zoned:...");
	colon = strchr(val, ':');
	n = colon ? (size_t)(colon - val) : strlen(val);
	if (n >= sizeof(head))
		n = sizeof(head) - 1;
	memcpy(head, val, n);
	head[n] = '\0';
	if (strchr(val, ','))	/* fio 3.33 matches no distribution then */
		return job_opt_bad(ps, val, "one distribution for all directions (fio 3.33 refuses "
			      "a ',' here)");
	if (!strcmp(head, "zoned_abs"))
		return job_perr(ps, "'%s=%s': zoned_abs is not implemented (use zoned)",
				ps->optname, val);
	i = job_opt_word(head, w, 5);
	if (i < 0)
		return job_opt_bad(ps, val,
					   "random, zipf:THETA, pareto:H, normal:DEV or zoned:...");
	memset(&d->dist, 0, sizeof(d->dist));
	d->dist.kind = (enum job_dist_kind)i;
	d->dist.center = -1;
	if (d->dist.kind == JOB_DIST_ZONED) {
		if (!colon)
			return job_opt_bad(ps, val, "zoned:ACCESS/SIZE:... is required");
		return jo_dist_zoned(ps, d, val, colon + 1);
	}
	if (d->dist.kind == JOB_DIST_RANDOM) {
		if (colon)
			return job_opt_bad(ps, val, "random takes no parameter");
		return 0;
	}
	v = d->dist.kind == JOB_DIST_ZIPF ? JOB_DEF_ZIPF :
	    d->dist.kind == JOB_DIST_PARETO ? JOB_DEF_PARETO : 0.0;
	if (colon) {
		if (strlen(colon + 1) >= sizeof(tail))
			return job_opt_bad(ps, val, "too long");
		strcpy(tail, colon + 1);
		c2 = strchr(tail, ':');
		if (c2) {
			*c2++ = '\0';
			if (job_parse_double(c2,
				&center) || center < 0 || center > 1)
				return job_opt_bad(ps, val,
					   "the center must be a number from 0 to 1");
		}
		if (job_parse_double(tail, &v))
			return job_opt_bad(ps, val, "the parameter must be a number");
	}
	if (d->dist.kind == JOB_DIST_ZIPF && (v <= 0 || v == 1.0))
		return job_opt_bad(ps, val, "zipf theta must be above 0 and not 1");
	if (d->dist.kind == JOB_DIST_PARETO && (v <= 0 || v >= 1))
		return job_opt_bad(ps, val, "pareto h must be between 0 and 1");
	if (d->dist.kind == JOB_DIST_NORMAL && (v < 0 || v >= 100))
		return job_opt_bad(ps, val, "normal deviation must be 0 to below 100 (percent)");
	d->dist.param = v;
	d->dist.center = center;
	return 0;
}
