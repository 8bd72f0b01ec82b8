/* battery_probe.c - the planner's rates, measured by the workloads themselves at tiny
 * sizes in a scratch directory of the target (a second or two on a disk of a few hundred
 * MB/s): dd writes of 192 MiB and reads of 64 MiB, iozone's 4 KiB O_DIRECT passes on
 * 1 MiB, one-byte and 1 KiB dd records, small PostMark runs (nearly empty files, the
 * seed's sizes, and 32 files synced before they go) and the SQL script at 10,000 rows
 * without syncs. The rows go into a run of the probe's own, which is freed: none of them
 * is a result. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "observe/cache.h"
#include "core/clock.h"
#include "fs/fsmake.h"
#include "observe/memlimit.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/battery/battery_int.h"
#include "workload/db/db.h"
#include "workload/dd/dd.h"
#include "workload/iozone/iozone.h"
#include "workload/postmark/postmark.h"

#define PROBE_BYTES	(64u << 20)	/* read back */
#define PROBE_WRITE	BATTERY_PROBE_WRITE	/* written: past the bursts a device's (or
						 * a host's) write cache absorbs */
#define PROBE_DB_ROWS	10000u
/* PostMark's probes: files of one byte (the file tests' creates and deletes); the seed's
 * sizes, a pool and its transactions. Enough for a tenth of a second each where creates
 * are slow (a few thousand a second), not more: the probe is overhead. */
#define PROBE_PM_FILES	300u
#define PROBE_PM_POOL	100u
#define PROBE_PM_TX	400u
#define PROBE_IOZ_KB	1024u	/* iozone's 4 KiB O_DIRECT passes: 256 requests each */

/* The last row of phase ph in the probe's run (NULL when none, or failed). */
static const struct row *last(const struct run *run, const char *wl, const char *ph)
{
	size_t i;

	for (i = run->nrows; i-- > 0;) {
		const struct row *w = run->rows[i];

		if (!strcmp(w->workload, wl) && !strcmp(w->phase, ph))
			return (w->flags & ROW_FAILED) ? NULL : w;
	}
	return NULL;
}

/* Units per second of a row: bytes (or ops when bytes is 0) over its time. */
static double per_s(const struct row *w, double units)
{
	if (!w || !w->elapsed_ns)
		return 0;
	return units / ((double)w->elapsed_ns / 1e9);
}

static void note(struct battery_probe *p, const char *what)
{
	size_t n = strlen(p->note);

	snprintf(p->note + n, sizeof(p->note) - n, "%s%s", n ? "; " : "", what);
}

static int dd_probe(struct runner *rc, const char *dir, struct battery_env *e,
		    struct battery_probe *p)
{
	char path[PATH_MAX];
	const struct row *w;
	struct dd_job j;
	int r;

	snprintf(path, sizeof(path), "%s/probe", dir);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_ZERO;
	j.dst = DD_DST_FILE;
	j.out = path;
	j.ibs = j.obs = 1u << 20;
	j.count = PROBE_WRITE >> 20;
	j.conv = DD_CONV_FDATASYNC;
	j.keep_output = 1;
	r = dd_run(rc, &j);
	if (r < 0)
		return r;
	p->w_bps = per_s(last(rc->run, "dd", "write"), PROBE_WRITE);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_FILE;
	j.dst = DD_DST_NULL;
	j.in = path;
	j.ibs = j.obs = 1u << 20;
	j.count = PROBE_BYTES >> 20;
	j.drop_cache = 1;
	if ((r = dd_run(rc, &j)) == -EINTR)
		return r;
	w = last(rc->run, "dd", "read");
	if (w && w->cache_pct >= 0 && w->cache_pct < 10) {
		e->can_drop = 1;
		p->r_bps = per_s(w, PROBE_BYTES);
	}
	j.drop_cache = 0;
	j.iflag = DD_FLAG_DIRECT;
	if ((r = dd_run(rc, &j)) == -EINTR)
		return r;
	w = r == 0 ? last(rc->run, "dd", "read") : NULL;
	if (w) {
		e->has_direct = 1;
		if (per_s(w, PROBE_BYTES) > p->r_bps)
			p->r_bps = per_s(w, PROBE_BYTES);
	}
	if (!(p->r_bps > 0)) {
		/* neither could keep the cache out: the rate of a cached read is no guide,
		 * the device reads no faster than it writes for the planner */
		p->r_bps = p->w_bps;
		note(p, "reads could not be measured apart from the cache");
	}
	/* one byte and 1 KiB records, buffered: the system-call costs */
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_ZERO;
	j.dst = DD_DST_FILE;
	j.out = path;
	j.out_exists = j.out_ours = 1;
	j.ibs = j.obs = 1;
	j.count = 65536;
	j.keep_output = 1;
	if ((r = dd_run(rc, &j)) < 0)
		return r;
	p->byte_wps = per_s(last(rc->run, "dd", "write"), 65536);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_FILE;
	j.dst = DD_DST_NULL;
	j.in = path;
	j.ibs = j.obs = 1;
	j.count = UINT64_MAX;
	if ((r = dd_run(rc, &j)) < 0)
		return r;
	p->byte_rps = per_s(last(rc->run, "dd", "read"), 65536);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_ZERO;
	j.dst = DD_DST_FILE;
	j.out = path;
	j.out_exists = j.out_ours = 1;
	j.ibs = j.obs = 1024;
	j.count = 16384;
	if ((r = dd_run(rc, &j)) < 0)
		return r;
	p->w1k_bps = per_s(last(rc->run, "dd", "write"), 16384.0 * 1024);
	return battery_remove(dir, "probe");
}

/* iozone -I -i 0 -i 2 -s 2m -r 4k: one 4 KiB request at a time, the device's latency. */
static int ioz_probe(struct runner *rc, const char *dir, struct battery_probe *p)
{
	const char *dirs[1] = { dir }, *names[1] = { "iozone.probe" };
	struct iozone_cfg c;
	char failed[4096];	/* the file of a failed call: the probe's own */
	int r;

	iozone_cfg_init(&c);
	c.sizes_kb[0] = PROBE_IOZ_KB;
	c.nsizes = 1;
	c.recs_kb[0] = 4;
	c.nrecs = 1;
	c.tests = (1u << 0) | (1u << 2);
	c.direct = 1;
	c.no_probe = 1;
	r = iozone_run(rc, &c, dirs, names, failed, sizeof(failed));
	if (r == -EINTR)
		return r;
	if (r == 0) {
		double rd = per_s(last(rc->run, "iozone", "random_read"), PROBE_IOZ_KB / 4);
		double wr = per_s(last(rc->run, "iozone", "random_write"), PROBE_IOZ_KB / 4);

		p->r_lat_s = rd > 0 ? 1 / rd : 0;
		p->w_lat_s = wr > 0 ? 1 / wr : 0;
	}
	return 0;
}

/* Two small PostMark runs: nearly empty files (the file tests' creates and deletes),
 * then the seed's sizes (the pool, the transactions, the final deletion). */
static int pm_probe(struct runner *rc, const char *dir, struct battery_probe *p)
{
	const struct row *w;
	struct pm_config c;
	int r;

	pm_config_init(&c);
	c.size_low = c.size_high = 1;
	c.number = PROBE_PM_FILES;
	c.transactions = 1;
	c.nlocs = 1;
	c.locs[0].path = (char *)dir;
	c.locs[0].weight = 1;
	if ((r = postmark_run(rc, &c, NULL)) < 0)
		return r;
	p->create_ps = per_s(last(rc->run, "postmark", "create_alone"), PROBE_PM_FILES);
	p->unlink_ps = per_s(last(rc->run, "postmark", "delete_alone"), PROBE_PM_FILES);
	c.size_low = 300;
	c.size_high = 100000;
	c.number = PROBE_PM_POOL;
	c.transactions = PROBE_PM_TX;
	if ((r = postmark_run(rc, &c, NULL)) < 0)
		return r;
	p->pm_create_ps = per_s(last(rc->run, "postmark", "create_alone"), PROBE_PM_POOL);
	p->pm_tps = per_s(last(rc->run, "postmark", "transactions"), PROBE_PM_TX);
	w = last(rc->run, "postmark", "delete_alone");
	p->pm_delete_ps = w ? per_s(w, (double)w->ops) : 0;
	w = last(rc->run, "postmark", "total");
	if (w && row_metric(w, RK_PM_BYTES_WRITTEN))
		p->pm_bytes_per_tx = (row_metric(w, RK_PM_BYTES_WRITTEN)->value -
				      PROBE_PM_POOL * 50150.0) / PROBE_PM_TX;
	/* the pool's data on the device before it goes: deleting it frees real blocks
	 * (and discards them where the file system is mounted so) */
	c.number = 32;
	c.transactions = 1;
	c.fsync = 1;
	if ((r = postmark_run(rc, &c, NULL)) < 0)
		return r;
	w = last(rc->run, "postmark", "delete_alone");
	p->pm_delete_alloc_ps = w ? per_s(w, (double)w->ops) : 0;
	return 0;
}

/* The seeds' script at 20,000 rows on SQLite: per row of build and script, each
 * statement's share, the database's peak size. */
static int db_probe(struct runner *rc, const char *dir, struct battery_probe *p)
{
	struct db_cfg cfg = {
		.kind = DB_SQLITE, .rows = PROBE_DB_ROWS, .script_name = "seed",
		/* without the commits' syncs: their cost is fixed, the rows' cost is what
		 * grows with the size the plan picks */
		.sqlite = { "delete", "off", 4096, -2000 },
	};
	const struct row *b, *t, *m;
	char path[PATH_MAX];
	size_t i, first;
	int r;

	snprintf(path, sizeof(path), "%s/probe.sqlite", dir);
	cfg.sqlite_path = path;
	cfg.device_path = dir;
	first = rc->run->nrows;
	r = db_run(rc, &cfg);
	(void)db_sqlite_remove(path);
	if (r < 0)
		return r;
	b = last(rc->run, "db", "build");
	t = last(rc->run, "db", "script_total");
	if (!b || !t || !t->elapsed_ns)
		return 0;
	p->db_build_s = (double)b->elapsed_ns / 1e9 / PROBE_DB_ROWS;
	p->db_script_s = (double)t->elapsed_ns / 1e9 / PROBE_DB_ROWS;
	m = t;
	if (row_metric(m, RK_DB_DB_PEAK_SIZE))
		p->db_bytes_per_row = row_metric(m, RK_DB_DB_PEAK_SIZE)->value / PROBE_DB_ROWS;
	for (i = first; i < rc->run->nrows && p->db_nstmt < BATTERY_DB_STMTS; i++) {
		const struct row *w = rc->run->rows[i];

		if (strncmp(w->phase, "stmt", 4))
			continue;
		p->db_share[p->db_nstmt++] = (double)w->elapsed_ns / (double)t->elapsed_ns;
	}
	return 0;
}

static void probe_env(const char *dir, struct battery_env *e)
{
	struct run *tmp = run_new("probe");
	uint64_t avail = 0;

	e->ram = sysinfo_ram();
	e->cache_bytes = memlimit_cache_bytes(NULL);
	if (!e->cache_bytes || e->cache_bytes > e->ram)
		e->cache_bytes = e->ram;
	(void)space_check(dir, 0, &avail);
	e->free_bytes = avail;
	if (tmp && sysinfo_fill(&tmp->env, dir) == 0 && tmp->env.fs_type)
		snprintf(e->fs_type, sizeof(e->fs_type), "%s", tmp->env.fs_type);
	e->memory_fs = sysinfo_memory_fs(dir, e->fs_type);
	if (e->memory_fs && !e->fs_type[0])
		snprintf(e->fs_type, sizeof(e->fs_type), "tmpfs");
	/* what a memory file system's files take; a cgroup's limit bounds it too */
	e->mem_avail = sysinfo_mem_available();
	if (e->cache_bytes && (!e->mem_avail || e->cache_bytes < e->mem_avail))
		e->mem_avail = e->cache_bytes;
	run_free(tmp);
}

int battery_probe(const struct runner *rc0, const char *dir, struct battery_env *e,
		  struct battery_probe *p, int full)
{
	struct runner rc = *rc0;
	struct scratch *s = NULL;
	uint64_t t0 = clock_ns();
	int r;

	memset(e, 0, sizeof(*e));
	memset(p, 0, sizeof(*p));
	probe_env(dir, e);
	battery_job_engine(e);
	if (!full) {
		/* hand-sized: the sizes need no rates; what the reads can use is enough */
		e->has_direct = fsmake_has_direct(dir);
		e->can_drop = !e->memory_fs;
		p->probe_ns = clock_ns() - t0;
		snprintf(p->note, sizeof(p->note), "not probed: sized by hand");
		return 0;
	}
	rc.progress = 0;
	rc.repeat = 0;
	rc.run = run_new("probe");
	if (!rc.run)
		return -ENOMEM;
	r = scratch_create(dir, &s);
	if (r == 0)
		r = dd_probe(&rc, scratch_dir(s), e, p);
	if (r == 0 && e->has_direct)
		r = ioz_probe(&rc, scratch_dir(s), p);
	if (r == 0 && !e->has_direct) {
		/* no O_DIRECT: a seek's cost is assumed, a fast flash device's */
		p->r_lat_s = p->w_lat_s = 50e-6;
		note(p, "4 KiB latency assumed 50 us (no O_DIRECT)");
	}
	if (r == 0)
		r = pm_probe(&rc, scratch_dir(s), p);
	if (r == 0)
		r = db_probe(&rc, scratch_dir(s), p);
	if (r == 0 && sig_stop_requested())
		r = -EINTR;
	scratch_destroy(s);
	run_free(rc.run);
	/* the device's free space after the probe's files went */
	probe_env(dir, e);
	p->probe_ns = clock_ns() - t0;
	return r;
}
