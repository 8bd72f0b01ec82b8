/* diskstats.c - /proc/diskstats lines into counters, and the iostat -dx figures between
 * two counter sets. The device walk is in diskstats_walk.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/clock.h"
#include "observe/diskstats.h"

/* Difference of a count (requests, merges, sectors). sysstat prints 0 for a counter that
 * went back rather than a wrapped difference; so do we. */
static uint64_t ds_count(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

/* Difference of a time field: the kernel prints milliseconds as a 32-bit unsigned number,
 * so a smaller later value is a wrap, and the difference modulo 2^32 is the true one. */
static uint64_t ds_ticks(uint64_t a, uint64_t b)
{
	return (b - a) & 0xffffffffu;
}

/* sysstat's test for a device that was removed and added again: fewer requests in all than
 * before, and no sector counter that kept growing. The earlier snapshot then counts as 0. */
static int ds_was_reset(const struct diskstats_counters *a, const struct diskstats_counters *b)
{
	uint64_t ia = a->rd_ios + a->wr_ios + a->dc_ios + a->fl_ios;
	uint64_t ib = b->rd_ios + b->wr_ios + b->dc_ios + b->fl_ios;

	return ib < ia && (!a->rd_sectors || b->rd_sectors < a->rd_sectors) &&
	       (!a->wr_sectors || b->wr_sectors < a->wr_sectors) &&
	       (!a->dc_sectors || b->dc_sectors < a->dc_sectors);
}

/* Share of merged requests: merged / (merged + issued) x 100, 0 without requests. */
static double ds_merge_pct(uint64_t merges, uint64_t ios)
{
	return merges + ios ? (double)merges / (double)(merges + ios) * 100.0 : 0.0;
}

/* Mean of num per request, 0 without requests (iostat's await and areq-sz rule). */
static double ds_per_io(uint64_t num, uint64_t ios)
{
	return ios ? (double)num / (double)ios : 0.0;
}

int diskstats_compute(const struct diskstats_counters *a, const struct diskstats_counters *b,
		      uint64_t interval_ns, struct diskstats_figures *out)
{
	static const struct diskstats_counters zero;
	uint64_t rs, ws, ds, rm, wm, dm;
	double t, ms;

	memset(out, 0, sizeof(*out));
	if (!interval_ns || !a->nfields || !b->nfields)
		return -EINVAL;
	if (ds_was_reset(a, b)) {
		out->reset = 1;
		a = &zero;
	}
	t = (double)interval_ns / 1e9;
	ms = (double)interval_ns / 1e6;
	out->interval_s = t;
	out->has_discard = (a == &zero || a->nfields >= 15) && b->nfields >= 15;
	out->has_flush = (a == &zero || a->nfields >= 17) && b->nfields >= 17;

	out->rd_ios = ds_count(a->rd_ios, b->rd_ios);
	out->wr_ios = ds_count(a->wr_ios, b->wr_ios);
	out->dc_ios = ds_count(a->dc_ios, b->dc_ios);
	out->fl_ios = ds_count(a->fl_ios, b->fl_ios);
	rs = ds_count(a->rd_sectors, b->rd_sectors);
	ws = ds_count(a->wr_sectors, b->wr_sectors);
	ds = ds_count(a->dc_sectors, b->dc_sectors);
	rm = ds_count(a->rd_merges, b->rd_merges);
	wm = ds_count(a->wr_merges, b->wr_merges);
	dm = ds_count(a->dc_merges, b->dc_merges);
	out->rd_bytes = rs * DISKSTATS_SECTOR;
	out->wr_bytes = ws * DISKSTATS_SECTOR;
	out->dc_bytes = ds * DISKSTATS_SECTOR;

	out->r_s = (double)out->rd_ios / t;
	out->w_s = (double)out->wr_ios / t;
	out->d_s = (double)out->dc_ios / t;
	out->f_s = (double)out->fl_ios / t;
	/* two 512-byte sectors are one kB */
	out->rkb_s = (double)rs / 2.0 / t;
	out->wkb_s = (double)ws / 2.0 / t;
	out->dkb_s = (double)ds / 2.0 / t;
	out->rrqm_s = (double)rm / t;
	out->wrqm_s = (double)wm / t;
	out->drqm_s = (double)dm / t;
	out->rrqm_pct = ds_merge_pct(rm, out->rd_ios);
	out->wrqm_pct = ds_merge_pct(wm, out->wr_ios);
	out->drqm_pct = ds_merge_pct(dm, out->dc_ios);
	out->r_await = ds_per_io(ds_ticks(a->rd_ticks, b->rd_ticks), out->rd_ios);
	out->w_await = ds_per_io(ds_ticks(a->wr_ticks, b->wr_ticks), out->wr_ios);
	out->d_await = ds_per_io(ds_ticks(a->dc_ticks, b->dc_ticks), out->dc_ios);
	out->f_await = ds_per_io(ds_ticks(a->fl_ticks, b->fl_ticks), out->fl_ios);
	out->rareq_sz = ds_per_io(rs, out->rd_ios) / 2.0;
	out->wareq_sz = ds_per_io(ws, out->wr_ios) / 2.0;
	out->dareq_sz = ds_per_io(ds, out->dc_ios) / 2.0;
	/* field 14 adds, every millisecond, the requests in flight: its growth per
	 * millisecond of the interval is the mean queue length */
	out->aqu_sz = (double)ds_ticks(a->time_in_queue, b->time_in_queue) / ms;
	/* field 13 grows by the milliseconds with at least one request in flight; not capped
	 * at 100, as iostat does not cap it (a little over 100 is clock skew) */
	out->util_pct = (double)ds_ticks(a->io_ticks, b->io_ticks) / ms * 100.0;
	return 0;
}

/* Skip blanks; parse an unsigned decimal number. Returns the end or NULL. */
static const char *ds_number(const char *p, uint64_t *v)
{
	uint64_t x = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		x = x * 10u + (uint64_t)(*p - '0');
	*v = x;
	return p;
}

int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor, char *name,
			 size_t namelen, struct diskstats_counters *c)
{
	uint64_t v[17], mj, mn;
	const char *p = line, *s;
	unsigned n = 0;
	size_t len;

	memset(c, 0, sizeof(*c));
	if (!(p = ds_number(p, &mj)) || !(p = ds_number(p, &mn)))
		return -EINVAL;
	while (*p == ' ' || *p == '\t')
		p++;
	for (s = p; *p && *p != ' ' && *p != '\t' && *p != '\n'; p++)
		;
	len = (size_t)(p - s);
	if (!len || mj > 0xffffffffu || mn > 0xffffffffu)
		return -EINVAL;
	while (n < 17) {
		const char *q = ds_number(p, &v[n]);

		if (!q)
			break;
		p = q;
		n++;
	}
	if (n == 4) {		/* a partition line of kernels before 2.6.25 */
		c->rd_ios = v[0];
		c->rd_sectors = v[1];
		c->wr_ios = v[2];
		c->wr_sectors = v[3];
	} else if (n >= 11) {
		uint64_t *f[17] = { &c->rd_ios, &c->rd_merges, &c->rd_sectors, &c->rd_ticks,
				    &c->wr_ios, &c->wr_merges, &c->wr_sectors, &c->wr_ticks,
				    &c->in_flight, &c->io_ticks, &c->time_in_queue,
				    &c->dc_ios, &c->dc_merges, &c->dc_sectors, &c->dc_ticks,
				    &c->fl_ios, &c->fl_ticks };

		/* 11, 15 or 17 known fields: a kernel between the steps gets the older set */
		n = n >= 17 ? 17 : n >= 15 ? 15 : 11;
		for (unsigned i = 0; i < n; i++)
			*f[i] = v[i];
	} else {
		return -EINVAL;
	}
	c->nfields = n;
	*major = (unsigned)mj;
	*minor = (unsigned)mn;
	if (name && namelen) {
		if (len >= namelen)
			len = namelen - 1;
		memcpy(name, s, len);
		name[len] = '\0';
	}
	return 0;
}

unsigned diskstats_parse(const char *text, size_t len, const struct diskstats_set *set,
			 struct diskstats_snap *snap)
{
	const char *p = text, *end = text + len;
	unsigned found = 0;

	snap->ndev = set->ndev;
	for (unsigned i = 0; i < set->ndev; i++)
		memset(&snap->c[i], 0, sizeof(snap->c[i]));
	while (p < end && found < set->ndev) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct diskstats_counters c;
		char line[512];
		unsigned mj, mn;

		if (ll < sizeof(line)) {
			memcpy(line, p, ll);
			line[ll] = '\0';
			if (diskstats_parse_line(line, &mj, &mn, NULL, 0, &c) == 0) {
				for (unsigned i = 0; i < set->ndev; i++) {
					if (set->dev[i].major == mj && set->dev[i].minor == mn &&
					    !snap->c[i].nfields) {
						snap->c[i] = c;
						found++;
						break;
					}
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	return found;
}

#ifdef HAVE_DISKSTATS
/* Read the whole file from its start into set->buf; the length or -errno. */
static long ds_slurp(struct diskstats_set *set)
{
	size_t n = 0;

	if (!set->fd_open) {
		set->fd = open(set->diskstats_path ? set->diskstats_path : "/proc/diskstats",
			       O_RDONLY | O_CLOEXEC);
		if (set->fd < 0)
			return -errno;
		set->fd_open = 1;
	}
	if (!set->buf) {
		set->cap = 16384;
		set->buf = malloc(set->cap);
		if (!set->buf)
			return -ENOMEM;
	}
	if (lseek(set->fd, 0, SEEK_SET) < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(set->fd, set->buf + n, set->cap - 1 - n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == set->cap - 1) {
			char *nb = realloc(set->buf, set->cap * 2);

			if (!nb)
				return -ENOMEM;
			set->buf = nb;
			set->cap *= 2;
		}
	}
	set->buf[n] = '\0';
	return (long)n;
}

int diskstats_read(struct diskstats_set *set, struct diskstats_snap *snap)
{
	long n;

	snap->ndev = 0;
	if (!set->ndev)
		return -ENODEV;
	snap->t_ns = clock_ns();
	n = ds_slurp(set);
	if (n < 0)
		return (int)n;
	return (int)diskstats_parse(set->buf, (size_t)n, set, snap);
}

int diskstats_read_name(const char *name, struct diskstats_counters *out)
{
	struct diskstats_set set;
	const char *p, *nl;
	long n;
	int rc = -ENOENT;

	memset(out, 0, sizeof(*out));
	memset(&set, 0, sizeof(set));
	set.diskstats_path = "/proc/diskstats";
	n = ds_slurp(&set);
	for (p = set.buf; n >= 0 && rc == -ENOENT && p && *p; p = nl ? nl + 1 : NULL) {
		char line[512], dev[DISKSTATS_NAME_LEN];
		unsigned mj, mn;
		size_t ll;

		nl = strchr(p, '\n');
		ll = nl ? (size_t)(nl - p) : strlen(p);
		if (ll >= sizeof(line))
			continue;
		memcpy(line, p, ll);
		line[ll] = '\0';
		if (diskstats_parse_line(line, &mj, &mn, dev, sizeof(dev), out) == 0 &&
		    strcmp(dev, name) == 0)
			rc = 0;
	}
	if (rc)
		memset(out, 0, sizeof(*out));
	if (n < 0)
		rc = (int)n;
	n = diskstats_close(&set);
	return rc == 0 && n < 0 ? (int)n : rc;
}
#elif !defined(HAVE_DEVSTAT)	/* the BSDs' devstat: diskstats_bsd.c */
int diskstats_read(struct diskstats_set *set, struct diskstats_snap *snap)
{
	(void)set;
	snap->ndev = 0;
	return -ENOSYS;
}

int diskstats_read_name(const char *name, struct diskstats_counters *out)
{
	(void)name;
	memset(out, 0, sizeof(*out));
	return -ENOSYS;
}
#endif

int diskstats_close(struct diskstats_set *set)
{
	int rc = 0;

	if (set->fd_open && close(set->fd) < 0)
		rc = -errno;
	set->fd_open = 0;
	set->fd = -1;
	free(set->buf);
	set->buf = NULL;
	set->cap = 0;
	return rc;
}

const char *diskstats_role_name(enum diskstats_role role)
{
	switch (role) {
	case DISKSTATS_TOP:
		return "top";
	case DISKSTATS_DISK:
		return "disk";
	case DISKSTATS_MEMBER:
		return "member";
	case DISKSTATS_BACKING:
		return "backing";
	}
	return "?";
}
