/* battery_print.c - the plan in words (--dry-run, and on stderr before a run), and the
 * --budget parser. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/battery/battery.h"

#define MIB 1048576.0

static const uint32_t ioz_rec[BATTERY_IOZ_RECS] = { 4, 1024, 64 };	/* KiB */

char *battery_read_words(char *buf, size_t len, unsigned m)
{
	snprintf(buf, len, "%s%s%s%s%s", m & BREAD_DROP ? "cache dropped" : "",
		 (m & BREAD_DROP) && (m & ~BREAD_DROP) ? ", " : "",
		 m & BREAD_DIRECT ? "O_DIRECT" : "",
		 (m & BREAD_DIRECT) && (m & BREAD_2XRAM) ? ", " : "",
		 m & BREAD_2XRAM ? "over twice the page cache" : "");
	if (!m)
		snprintf(buf, len, "none");
	return buf;
}


static void fbytes(char *buf, size_t len, double b)
{
	if (b >= 1024.0 * MIB)
		snprintf(buf, len, "%.2f GiB", b / 1024.0 / MIB);
	else if (b >= MIB)
		snprintf(buf, len, "%.0f MiB", b / MIB);
	else
		snprintf(buf, len, "%.0f KiB", b / 1024.0);
}

static void fsecs(char *buf, size_t len, double s)
{
	if (s >= 3600)
		snprintf(buf, len, "%d:%02d:%02d", (int)(s / 3600), (int)fmod(s / 60, 60),
			 (int)fmod(s, 60));
	else if (s >= 60)
		snprintf(buf, len, "%d:%02d", (int)(s / 60), (int)fmod(s, 60));
	else
		snprintf(buf, len, "%.1f s", s);
}

static void frate(char *buf, size_t len, double r, const char *unit)
{
	if (!(r > 0))
		snprintf(buf, len, "?");
	else if (r >= 1e6)
		snprintf(buf, len, "%.1f M%s", r / 1e6, unit);
	else if (r >= 1e4)
		snprintf(buf, len, "%.0f k%s", r / 1e3, unit);
	else
		snprintf(buf, len, "%.0f %s", r, unit);
}

/* The sizes of step s in the words of its own tool. */
static void step_size(char *buf, size_t len, const struct battery_plan *p, enum battery_step s)
{
	char a[32], b[32], c[32];
	size_t n;
	unsigned i;

	buf[0] = '\0';
	switch (s) {
	case BSTEP_DD_1K:
		fbytes(buf, len, p->s[s].v[0]);
		break;
	case BSTEP_DD_1M: case BSTEP_DD_READ: case BSTEP_CP:
		fbytes(buf, len, (double)battery_dd_bytes(p));
		break;
	case BSTEP_BONNIE:
		snprintf(buf, len, "-s %llu -n %u (per-char %llu MiB, %u seeks)",
			 (unsigned long long)battery_bonnie_mb(p), battery_bonnie_files(p),
			 (unsigned long long)battery_bonnie_char_mb(p), battery_bonnie_seeks(p));
		break;
	case BSTEP_IOZONE:
		n = 0;
		for (i = 0; i < BATTERY_IOZ_RECS && n < len; i++) {
			if (!battery_iozone_file_kb(p, i))
				continue;
			fbytes(a, sizeof(a), (double)battery_iozone_file_kb(p, i) * 1024);
			n += (size_t)snprintf(buf + n, len - n, "%s-r %uk -s %s", n ? ", " : "-I ",
					      battery_iozone_rec_kb(i), a);
		}
		break;
	case BSTEP_POSTMARK:
		snprintf(buf, len, "set size 300 100000, number %u, transactions %u",
			 battery_pm_number(p), battery_pm_transactions(p));
		break;
	case BSTEP_DB: case BSTEP_PG:
		snprintf(buf, len, "%llu rows", (unsigned long long)battery_db_rows(p, s));
		break;
	case BSTEP_FSYNC:
		snprintf(buf, len, "-s %u (8 KiB commits, each test %u s)", battery_fsync_secs(p),
			 battery_fsync_secs(p));
		break;
	case BSTEP_SUSTAINED:
		fbytes(a, sizeof(a), (double)battery_sus_bytes(p));
		snprintf(buf, len, "--size %s --time %u (stops at the knee)", a,
			 battery_sus_secs(p));
		break;
	case BSTEP_JOB:
		fbytes(a, sizeof(a), (double)battery_job_bytes(p));
		if (p->hand_sized)
			snprintf(buf, len, "bs=8k direct=1, 4 jobs over %s once each", a);
		else
			snprintf(buf, len, "bs=8k direct=1, 4 jobs of %u s on %s",
				 battery_job_secs(p), a);
		break;
	default:
		break;
	}
	(void)b;
	(void)c;
}

char *battery_memory_note(char *buf, size_t len, const struct battery_env *e)
{
	uint64_t m = e->mem_avail ? e->mem_avail : e->cache_bytes ? e->cache_bytes : e->ram;
	char a[32], b[32];

	buf[0] = '\0';
	if (!e->memory_fs)
		return buf;
	fbytes(a, sizeof(a), (double)battery_mem_usable(e));
	fbytes(b, sizeof(b), (double)m);
	snprintf(buf, len, "the target is in memory (%s): its figures are RAM figures, not a "
		 "device's, and no read of it can be cache-free; its files may take %s of the "
		 "%s of memory available (the rest is kept for the tests themselves)",
		 e->fs_type[0] ? e->fs_type : "a memory file system", a, b);
	return buf;
}

char *battery_shared_words(char *buf, size_t len, const struct battery_env *e)
{
	buf[0] = '\0';
	if (e->fs_ranks > 1)
		snprintf(buf, len, " for each of the %u ranks sharing the file system",
			 e->fs_ranks);
	return buf;
}

static void print_probe(FILE *f, const struct battery_probe *pr)
{
	char a[24], b[24], c[24], d[24], e[24], g[24], h[24];

	fsecs(a, sizeof(a), (double)pr->probe_ns / 1e9);
	frate(b, sizeof(b), pr->w_bps, "B/s");
	frate(c, sizeof(c), pr->r_bps, "B/s");
	frate(d, sizeof(d), pr->byte_wps, "/s");
	frate(e, sizeof(e), pr->create_ps, "/s");
	frate(g, sizeof(g), pr->unlink_ps, "/s");
	frate(h, sizeof(h), pr->pm_tps, "/s");
	fprintf(f, "probe (%s): write %s, read %s, 4 KiB O_DIRECT read %.0f us / write %.0f us, "
		"1-byte writes %s, creates %s, unlinks %s, PostMark transactions %s\n", a, b, c,
		pr->r_lat_s * 1e6, pr->w_lat_s * 1e6, d, e, g, h);
	if (pr->note[0])
		fprintf(f, "probe: %s\n", pr->note);
}

int battery_plan_print(FILE *f, const struct battery_plan *p, const struct battery_env *e,
		       const struct battery_probe *pr, const char *target)
{
	char a[32], b[32], c[32], size[160], sh[80];
	unsigned i, passes;

	fbytes(a, sizeof(a), (double)e->ram);
	fbytes(b, sizeof(b), (double)e->free_bytes);
	fbytes(c, sizeof(c), (double)e->cache_bytes);
	fprintf(f, "plan for %s (%s, RAM %s, page cache up to %s, %s free%s)\n", target,
		e->fs_type[0] ? e->fs_type : "unknown file system", a, c, b,
		battery_shared_words(sh, sizeof(sh), e));
	if (e->memory_fs) {
		char m[400];

		fprintf(f, "note: %s\n", battery_memory_note(m, sizeof(m), e));
	}
	if (pr && !p->hand_sized)
		print_probe(f, pr);
	fprintf(f, "  %-15s %-52s %9s  %s\n", "step", "size", "expected", "why");
	for (i = 0; i < BSTEP_N; i++) {
		const struct battery_step_plan *s = &p->s[i];

		if (!s->run) {
			fprintf(f, "  %-15s %-52s %9s  %s\n", battery_step_name(i), "-", "-",
				s->why);
			continue;
		}
		step_size(size, sizeof(size), p, (enum battery_step)i);
		fsecs(a, sizeof(a), (double)s->expect_ns / 1e9);
		if (p->hand_sized)
			snprintf(a, sizeof(a), "?");
		fprintf(f, "  %-15s %-52s %9s  %s\n", battery_step_name(i), size, a, s->why);
	}
	/* consecutive figures left out for the same reason share a line */
	for (i = 0; i < p->nout; i++) {
		const struct battery_out *o = &p->out[i];

		if (!i || o->step != o[-1].step || strcmp(o->why, o[-1].why))
			fprintf(f, "  %s %s", battery_step_workload(o->step), o->phase);
		else
			fprintf(f, ", %s", o->phase);
		if (i + 1 == p->nout || o[1].step != o->step || strcmp(o[1].why, o->why))
			fprintf(f, ": %s\n", o->why);
	}
	passes = p->expect_ns ? (unsigned)((p->total_ns + p->expect_ns / 2) / p->expect_ns) : 0;
	fsecs(a, sizeof(a), (double)p->total_ns / 1e9);
	fsecs(b, sizeof(b), (double)p->expect_ns / 1e9);
	fbytes(c, sizeof(c), (double)p->space);
	if (p->hand_sized)
		fprintf(f, "at most %s on the target at once\n", c);
	else
		fprintf(f, "expected %s in all (a pass of %s%s), at most %s on the target at "
			"once%s%s\n", a, b, passes > 1 ? ", several passes" : "", c,
			p->note[0] ? "; " : "", p->note);
	return ferror(f) ? -EIO : 0;
}

int battery_parse_steps(const char *spec, unsigned *mask, char *err, size_t len)
{
	char buf[512], *save = NULL, *w;
	unsigned m = 0, i;

	if (!spec || !*spec || snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf)) {
		snprintf(err, len, "--steps: a list of steps: '%s'", spec ? spec : "");
		return -EINVAL;
	}
	for (w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		while (*w == ' ')
			w++;
		if (!strcmp(w, "dd")) {
			m |= 1u << BSTEP_DD_1K | 1u << BSTEP_DD_1M | 1u << BSTEP_DD_READ;
			continue;
		}
		for (i = 0; i < BSTEP_N && strcmp(w, battery_steps[i].id); i++)
			;
		if (i == BSTEP_N) {
			snprintf(err, len, "--steps: unknown step: '%s': use dd, dd-1k, dd-1m, "
				 "dd-read, cp, bonnie, iozone, postmark, db, pg, fsync, job or "
				 "sustained", w);
			return -EINVAL;
		}
		m |= 1u << i;
	}
	if (!m) {
		snprintf(err, len, "--steps: no step given: '%s'", spec);
		return -EINVAL;
	}
	*mask = m;
	return 0;
}

int battery_parse_budget(const char *s, uint64_t *ns)
{
	double total = 0;
	const char *q = s;
	int parts = 0;

	if (!s || !*s)
		return -EINVAL;
	while (*q) {
		char *end;
		double v, mult;

		if (!isdigit((unsigned char)*q) && *q != '.')
			return -EINVAL;
		errno = 0;
		v = strtod(q, &end);
		if (end == q || errno || !(v >= 0))
			return errno == ERANGE ? -ERANGE : -EINVAL;
		switch (*end) {
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		default: return -EINVAL;	/* a number without its unit */
		}
		total += v * mult;
		q = end + 1;
		parts++;
	}
	if (!parts || !(total > 0))
		return -EINVAL;
	if (total > 30.0 * 24 * 3600)
		return -ERANGE;
	*ns = (uint64_t)(total * 1e9 + 0.5);
	return 0;
}

int battery_left_out(const struct battery_plan *p, enum battery_step s, const char *phase,
		     const char **why)
{
	unsigned i;

	for (i = 0; i < p->nout; i++)
		if (p->out[i].step == s && !strcmp(p->out[i].phase, phase)) {
			if (why)
				*why = p->out[i].why;
			return 1;
		}
	return 0;
}

uint64_t battery_dd_bytes(const struct battery_plan *p)
{
	return (uint64_t)p->s[BSTEP_DD_1M].v[0];
}

uint64_t battery_bonnie_mb(const struct battery_plan *p)
{
	return (uint64_t)(p->s[BSTEP_BONNIE].v[0] / MIB);
}

uint64_t battery_bonnie_char_mb(const struct battery_plan *p)
{
	return (uint64_t)(p->s[BSTEP_BONNIE].v[1] / MIB);
}

uint32_t battery_bonnie_seeks(const struct battery_plan *p)
{
	return (uint32_t)p->s[BSTEP_BONNIE].v[2];
}

uint32_t battery_bonnie_files(const struct battery_plan *p)
{
	return (uint32_t)(p->s[BSTEP_BONNIE].v[3] / 1024);
}

uint32_t battery_iozone_rec_kb(unsigned i)
{
	return i < BATTERY_IOZ_RECS ? ioz_rec[i] : 0;
}

uint64_t battery_iozone_file_kb(const struct battery_plan *p, unsigned i)
{
	return i < BATTERY_IOZ_RECS ? (uint64_t)(p->s[BSTEP_IOZONE].v[i] / 1024) : 0;
}

uint32_t battery_pm_number(const struct battery_plan *p)
{
	return (uint32_t)p->s[BSTEP_POSTMARK].v[0];
}

uint32_t battery_pm_transactions(const struct battery_plan *p)
{
	return (uint32_t)p->s[BSTEP_POSTMARK].v[1];
}

uint64_t battery_db_rows(const struct battery_plan *p, enum battery_step s)
{
	return (uint64_t)p->s[s == BSTEP_PG ? BSTEP_PG : BSTEP_DB].v[0];
}

unsigned battery_fsync_secs(const struct battery_plan *p)
{
	return (unsigned)p->s[BSTEP_FSYNC].v[0];
}

uint64_t battery_job_bytes(const struct battery_plan *p)
{
	return (uint64_t)p->s[BSTEP_JOB].v[0];
}

unsigned battery_job_secs(const struct battery_plan *p)
{
	return (unsigned)p->s[BSTEP_JOB].v[1];
}

unsigned battery_sus_secs(const struct battery_plan *p)
{
	return (unsigned)p->s[BSTEP_SUSTAINED].v[0];
}

uint64_t battery_sus_bytes(const struct battery_plan *p)
{
	return (uint64_t)p->s[BSTEP_SUSTAINED].v[1];
}
