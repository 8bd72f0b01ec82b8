/* battery_steps.c - each step of the battery: the workload's own config filled from the
 * plan, then its run function (dd_run, copy_run, bonnie_run, iozone_run, postmark_run,
 * db_run), as its command would run it. The seeds' file names: tstfile, tstfile2. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "fs/scratch.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/battery/battery_int.h"
#include "workload/battery/battery_plan_int.h"
#include "workload/bonnie/bonnie.h"
#include "workload/copy/copy.h"
#include "workload/db/db.h"
#include "workload/dd/dd.h"
#include "workload/fsync/fsync.h"
#include "workload/iozone/iozone.h"
#include "workload/postmark/postmark.h"
#include "workload/sustained/sustained.h"

int battery_remove(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int slot;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* through the cleanup registry: fs/scratch.c removes what is ours */
	slot = cleanup_register(path, 0);
	return slot < 0 ? slot : cleanup_remove(slot);
}

/* dd bs=BS if=/dev/zero of=tstfile count=... conv=fdatasync; keep: leave the file for
 * the reads and the copy. */
static int step_dd_write(struct runner *rc, const char *dir, uint64_t bytes, uint64_t bs,
			 int keep)
{
	char path[PATH_MAX];
	struct dd_job j;

	snprintf(path, sizeof(path), "%s/%s", dir, BATTERY_TSTFILE);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_ZERO;
	j.dst = DD_DST_FILE;
	j.out = path;
	j.ibs = j.obs = bs;
	j.count = (bytes + bs - 1) / bs;
	j.conv = DD_CONV_FDATASYNC;
	j.keep_output = keep;
	return dd_run(rc, &j);
}

/* dd if=tstfile of=/dev/null bs=1M: after dropping its pages, with iflag=direct, or plain
 * when the file is over twice the page cache. */
static int step_dd_read(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	unsigned m = p->s[BSTEP_DD_READ].read_methods;
	char path[PATH_MAX];
	struct dd_job j;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, BATTERY_TSTFILE);
	memset(&j, 0, sizeof(j));
	j.src = DD_SRC_FILE;
	j.dst = DD_DST_NULL;
	j.in = path;
	j.ibs = j.obs = 1u << 20;
	j.count = UINT64_MAX;
	if (m & BREAD_DROP) {
		j.drop_cache = 1;
		err = dd_run(rc, &j);
		j.drop_cache = 0;
	}
	if (!err && (m & BREAD_DIRECT)) {
		/* dropped as well: the residency the row reports is then what O_DIRECT saw */
		j.drop_cache = 1;
		j.iflag = DD_FLAG_DIRECT;
		err = dd_run(rc, &j);
	}
	if (!err && !(m & (BREAD_DROP | BREAD_DIRECT)))
		err = dd_run(rc, &j);
	return err;
}

/* cp tstfile tstfile2 by a read/write loop (as cp did when the seeds ran it: a
 * copy_file_range is instant on a file system that shares blocks), the source's pages
 * dropped first; then both files go. */
static int step_cp(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	char src[PATH_MAX], dst[PATH_MAX];
	struct copy_job j;
	int err, e2;

	snprintf(src, sizeof(src), "%s/%s", dir, BATTERY_TSTFILE);
	snprintf(dst, sizeof(dst), "%s/%s", dir, BATTERY_TSTFILE2);
	memset(&j, 0, sizeof(j));
	j.src = src;
	j.dst = dst;
	j.buffer = 128u << 10;
	j.method = COPY_RW;
	j.drop_cache = (p->s[BSTEP_CP].read_methods & (BREAD_DROP | BREAD_DIRECT)) != 0;
	err = copy_run(rc, &j);
	e2 = battery_remove(dir, BATTERY_TSTFILE);
	return err ? err : e2;
}

/* bonnie++ -d DIR -s B -n N -r 0 with the planned per-char size and seeks; the reads
 * after dropping the cache (--drop-cache), or -D under --direct. */
static int step_bonnie(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	unsigned m = p->s[BSTEP_BONNIE].read_methods;
	struct bonnie_cfg c;
	char err[256];

	bonnie_cfg_init(&c);
	c.dir = dir;
	c.size_mb = battery_bonnie_mb(p);
	c.size_set = 1;
	c.char_mb = battery_bonnie_char_mb(p);
	c.seeks = battery_bonnie_seeks(p);
	if (c.seeks < c.seekers)
		c.seeks = c.seekers;
	c.nfiles = battery_bonnie_files(p);
	c.ram_mb = 0;
	c.ram_set = 1;
	c.seed = 1;
	c.seed_set = 1;
	c.drop_cache = (m & BREAD_DROP) != 0;
	c.direct = (m & BREAD_DIRECT) && !(m & BREAD_DROP);
	if (bonnie_check(&c, err, sizeof(err)) < 0)
		return -EINVAL;
	return bonnie_run(rc, &c, dir);
}

/* iozone -I -i 0 -i 1 -i 2 -s F -r R, one cell per planned record size. */
static int step_iozone(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	const char *dirs[1] = { dir }, *names[1] = { "iozone.tmp" };
	struct iozone_cfg c;
	char err[256], failed[4096];	/* failed: the file of a failed call (the row
					 * says what failed; the file is removed) */
	unsigned i;
	int r = 0;

	for (i = 0; i < BATTERY_IOZ_RECS && !r; i++) {
		uint64_t kb = battery_iozone_file_kb(p, i);

		if (!kb)
			continue;
		iozone_cfg_init(&c);
		c.sizes_kb[0] = kb;
		c.nsizes = 1;
		c.recs_kb[0] = battery_iozone_rec_kb(i);
		c.nrecs = 1;
		c.tests = (1u << 0) | (1u << 1) | (1u << 2);
		c.direct = (p->s[BSTEP_IOZONE].read_methods & BREAD_DIRECT) != 0;
		c.no_probe = 1;
		if (iozone_check(&c, err, sizeof(err)) < 0)
			return -EINVAL;
		r = iozone_run(rc, &c, dirs, names, failed, sizeof(failed));
	}
	return r;
}

/* pm> set size 300 100000; set number P; set transactions X; set location DIR; run */
static int step_postmark(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	struct pm_config c;

	pm_config_init(&c);
	c.size_low = 300;
	c.size_high = 100000;
	c.number = battery_pm_number(p);
	c.transactions = battery_pm_transactions(p);
	c.nlocs = 1;
	c.locs[0].path = (char *)dir;	/* borrowed: not freed here */
	c.locs[0].weight = 1;
	return postmark_run(rc, &c, NULL);
}

static int step_db(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	struct db_cfg cfg = {
		.kind = DB_SQLITE, .script_name = "seed",
		.sqlite = { "delete", "full", 4096, -2000 },
	};
	char path[PATH_MAX];
	int r, r2;

	snprintf(path, sizeof(path), "%s/perftst.sqlite", dir);
	cfg.rows = battery_db_rows(p, BSTEP_DB);
	cfg.sqlite_path = path;
	cfg.device_path = dir;
	r = db_run(rc, &cfg);
	r2 = db_sqlite_remove(path);
	return r ? r : r2;
}

/* The script on a throwaway PostgreSQL whose data directory is in dir. */
static int step_pg(struct runner *rc, const struct battery_plan *p, const char *dir)
{
#ifdef HAVE_LIBPQ
	struct db_cfg cfg = { .kind = DB_PG, .script_name = "seed" };
	struct db_pgserver *srv = NULL;
	char err[1024];
	int r, r2;

	r = db_pgserver_start(dir, NULL, &srv, err, sizeof(err));
	if (r < 0) {
		struct row *row = run_add_row(rc->run, "db", "build");

		if (row) {
			row->flags |= ROW_FAILED;
			row->error = str_printf("cannot start a throwaway postgresql server: %s",
						err);
			kv_set(&row->params, "engine", "postgresql");
		}
		return r;
	}
	cfg.rows = battery_db_rows(p, BSTEP_PG);
	cfg.server = srv;
	cfg.conninfo = db_pgserver_conninfo(srv);
	cfg.size_dir = db_pgserver_datadir(srv);
	cfg.device_path = dir;
	r = db_run(rc, &cfg);
	r2 = db_pgserver_stop(srv);
	return r ? r : r2;
#else
	(void)rc;
	(void)p;
	(void)dir;
	return -ENOTSUP;
#endif
}

/* pg_test_fsync's tests (iobattery fsync -s SECS) on a file in dir. */
static int step_fsync(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	struct fsync_cfg c;
	int r, r2;

	memset(&c, 0, sizeof(c));
	c.secs = battery_fsync_secs(p);
	c.block = FSYNC_DEFAULT_BLOCK;
	c.method = FSYNC_M_FDATASYNC;
	c.new_file = 1;
	c.cleanup = -1;
	snprintf(c.dir, sizeof(c.dir), "%s", dir);
	if (snprintf(c.path, sizeof(c.path), "%s/fsync.tmp", dir) >= (int)sizeof(c.path))
		return -ENAMETOOLONG;
	r = fsync_run(rc, &c);
	r2 = battery_remove(dir, "fsync.tmp");
	return r ? r : r2;
}

/* iobattery sustained -d DIR --size S --time T (O_DIRECT, 1 MiB writes, the knee's
 * defaults); its file goes after. */
static int step_sustained(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	struct sustained_cfg c = {
		.size = battery_sus_bytes(p), .bs = 1u << 20, .time_s = battery_sus_secs(p),
		.step_s = 1, .drop_pct = 30, .hold = 5,
	};
	int r, r2;

	c.size -= c.size % c.bs;
	if (!c.size || !(c.time_s >= 1))
		return -EINVAL;
	r = sustained_run(rc, &c, dir);
	r2 = battery_remove(dir, "sustained.dat");
	return r ? r : r2;
}

static int step_dd_1k(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	return step_dd_write(rc, dir, (uint64_t)p->s[BSTEP_DD_1K].v[0], 1024, 0);
}

static int step_dd_1m(struct runner *rc, const struct battery_plan *p, const char *dir)
{
	return step_dd_write(rc, dir, battery_dd_bytes(p), 1u << 20, 1);
}

/* The steps (battery.h): id, name, workload, priority, size variables, run. */
const struct battery_step_info battery_steps[BSTEP_N] = {
	{ BSTEP_DD_1K, "dd-1k", "dd write bs=1k", "dd", 4, 1, { V_S1K }, step_dd_1k },
	{ BSTEP_DD_1M, "dd-1m", "dd write bs=1M", "dd", 1, 1, { V_S }, step_dd_1m },
	{ BSTEP_DD_READ, "dd-read", "dd read", "dd", 2, 1, { V_S }, step_dd_read },
	{ BSTEP_CP, "cp", "cp", "cp", 3, 1, { V_S }, step_cp },
	{ BSTEP_BONNIE, "bonnie", "bonnie", "bonnie", 5, 4, { V_B, V_C, V_K, V_N },
	  step_bonnie },
	{ BSTEP_IOZONE, "iozone", "iozone", "iozone", 10, 3, { V_F0, V_F1, V_F2 }, step_iozone },
	{ BSTEP_POSTMARK, "postmark", "postmark", "postmark", 9, 2, { V_P, V_X },
	  step_postmark },
	{ BSTEP_DB, "db", "db sqlite", "db", 7, 1, { V_R }, step_db },
	{ BSTEP_PG, "pg", "db postgresql", "db", 11, 1, { V_RPG }, step_pg },
	{ BSTEP_FSYNC, "fsync", "fsync", "fsync", 6, 1, { V_FSEC }, step_fsync },
	{ BSTEP_JOB, "job", "job db pattern", "job", 8, 2, { V_JF, V_JSEC }, battery_job_step },
	{ BSTEP_SUSTAINED, "sustained", "sustained write", "sustained", 12, 2,
	  { V_SUSEC, V_SUSB }, step_sustained },
};

const char *battery_step_name(enum battery_step s)
{
	return s < BSTEP_N ? battery_steps[s].name : "?";
}

const char *battery_step_workload(enum battery_step s)
{
	return s < BSTEP_N ? battery_steps[s].workload : "?";
}

enum battery_step battery_step_by_priority(unsigned k)
{
	for (unsigned i = 0; i < BSTEP_N; i++)
		if (battery_steps[i].priority == k + 1)
			return battery_steps[i].step;
	return BSTEP_N;
}

int battery_step_run(struct runner *rc, const struct battery_plan *p, enum battery_step s,
		     const char *dir)
{
	return s < BSTEP_N ? battery_steps[s].run(rc, p, dir) : -EINVAL;
}
