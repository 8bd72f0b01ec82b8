/* t_battery_plan - the battery's planner on fixed inputs: RAM, free space, probe speeds
 * and budget give the expected sizes, skips and left-out figures; and --budget's parser. */
#include <errno.h>
#include <string.h>

#include "stats/result.h"
#include "test.h"
#include "workload/battery/battery.h"

#define GIB (1024.0 * 1024 * 1024)
#define MIB (1024.0 * 1024)
#define SEC 1000000000ull

static struct battery_env env_disk(void)
{
	struct battery_env e;

	memset(&e, 0, sizeof(e));
	e.ram = e.cache_bytes = (uint64_t)(16 * GIB);
	e.free_bytes = (uint64_t)(50 * GIB);
	e.has_direct = e.can_drop = 1;
	strcpy(e.fs_type, "ext4");
	return e;
}

/* Roughly this project's test machine: a virtual disk of 500/600 MB/s. */
static struct battery_probe probe_disk(void)
{
	struct battery_probe p;
	unsigned i;

	memset(&p, 0, sizeof(p));
	p.w_bps = 500e6;
	p.r_bps = 600e6;
	p.w_lat_s = 120e-6;
	p.r_lat_s = 100e-6;
	p.byte_wps = 4e6;
	p.byte_rps = 6e6;
	p.w1k_bps = 800e6;
	p.create_ps = 5000;
	p.unlink_ps = 140000;
	p.pm_create_ps = 3500;
	p.pm_tps = 7000;
	p.pm_delete_ps = 100000;
	p.db_build_s = 0.6e-6;
	p.db_script_s = 4e-6;
	p.db_bytes_per_row = 150;
	p.db_nstmt = 16;
	for (i = 0; i < 16; i++)
		p.db_share[i] = i < 4 ? 0.2 : 0.2 / 12;
	return p;
}

static struct battery_want want(uint64_t budget_s)
{
	struct battery_want w;

	memset(&w, 0, sizeof(w));
	w.budget_ns = budget_s * SEC;
	w.repeats = 1;
	w.configs = 1;
	w.overhead_ns = SEC;
	return w;
}

static int has_out(const struct battery_plan *p, enum battery_step s, const char *phase)
{
	return battery_left_out(p, s, phase, NULL);
}

/* Two minutes on a plain disk: every step but PostgreSQL and the sustained write (a
 * minute at least, which two minutes do not leave), every kept figure planned at a
 * second or more, the stat figures and the quick statements left out, within budget. */
static void t_two_minutes(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;
	int n = battery_plan_make(&e, &p, &w, &pl);
	unsigned i;

	CHECK_EQ_U64(n, BSTEP_N - 2);
	CHECK(!pl.s[BSTEP_PG].run && strstr(pl.s[BSTEP_PG].why, "--pg-local"));
	CHECK(!pl.s[BSTEP_SUSTAINED].run && pl.s[BSTEP_SUSTAINED].for_budget &&
	      strstr(pl.s[BSTEP_SUSTAINED].why, "give a larger --budget"));
	for (i = 0; i < BSTEP_N; i++)
		if (pl.s[i].run)
			CHECK(pl.s[i].shortest_ns >= BATTERY_ROW_NS);
	/* dd: at least a second at the faster of the read and write rates */
	CHECK((double)battery_dd_bytes(&pl) >= 600e6);
	CHECK(battery_dd_bytes(&pl) % (1u << 20) == 0);
	CHECK(pl.s[BSTEP_DD_1K].v[0] >= 500e6);
	/* bonnie: a second of one-byte writes and reads; the data set is whole MiB */
	CHECK(battery_bonnie_char_mb(&pl) * MIB >= 6e6);
	CHECK(battery_bonnie_mb(&pl) * MIB >= 600e6);
	CHECK(battery_bonnie_seeks(&pl) >= 50000);
	CHECK(has_out(&pl, BSTEP_BONNIE, "seq_stat"));
	CHECK(has_out(&pl, BSTEP_BONNIE, "ran_stat"));
	/* iozone's first cell: a second of 4 KiB direct reads (one per 100 us) */
	CHECK(battery_iozone_file_kb(&pl, 0) * 1024 >= 4096 * 10000);
	/* postmark and the script */
	CHECK(battery_pm_number(&pl) >= 3500);
	CHECK(battery_pm_transactions(&pl) >= 7000);
	CHECK(battery_db_rows(&pl, BSTEP_DB) >= 1666000);
	CHECK(has_out(&pl, BSTEP_DB, "stmt16"));
	CHECK(!has_out(&pl, BSTEP_DB, "build"));
	CHECK(!has_out(&pl, BSTEP_DD_1M, "write"));
	CHECK(pl.expect_ns <= 120 * SEC);
	CHECK(pl.expect_ns >= 100 * SEC);	/* the budget is used, not wasted */
	CHECK(pl.s[BSTEP_DD_READ].read_methods == (BREAD_DROP | BREAD_DIRECT));
	/* the fsync tests: whole seconds each, 16 of them, within pg_test_fsync's 5 */
	CHECK(pl.s[BSTEP_FSYNC].run);
	CHECK(battery_fsync_secs(&pl) >= 1 && battery_fsync_secs(&pl) <= 5);
	CHECK(pl.s[BSTEP_FSYNC].expect_ns >= 16 * battery_fsync_secs(&pl) * SEC);
	CHECK(pl.s[BSTEP_FSYNC].shortest_ns >= BATTERY_ROW_NS);
}

/* A larger budget buys larger sizes and the delete figures. */
static void t_ten_minutes(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w2 = want(120), w10 = want(600);
	struct battery_plan a, b;

	battery_plan_make(&e, &p, &w2, &a);
	battery_plan_make(&e, &p, &w10, &b);
	CHECK(battery_dd_bytes(&b) > 3 * battery_dd_bytes(&a));
	CHECK(battery_pm_transactions(&b) > battery_pm_transactions(&a));
	CHECK(b.expect_ns <= 600 * SEC && b.expect_ns >= 500 * SEC);
	CHECK(battery_bonnie_files(&b) >= battery_bonnie_files(&a));
	CHECK(battery_fsync_secs(&b) >= battery_fsync_secs(&a));
}

/* Three seconds: only the first step fits, the others say what they need. */
static void t_tiny_budget(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(3);
	struct battery_plan pl;
	int n = battery_plan_make(&e, &p, &w, &pl);

	CHECK_EQ_U64(n, 1);
	CHECK(pl.s[BSTEP_DD_1M].run);
	CHECK(!pl.s[BSTEP_BONNIE].run);
	CHECK(strstr(pl.s[BSTEP_BONNIE].why, "budget") != NULL);
	CHECK(strstr(pl.s[BSTEP_DD_READ].why, "skipped: needs") != NULL);
	CHECK(pl.expect_ns <= pl.pass_budget_ns + pl.pass_budget_ns / 20);
}

/* One second: nothing can be honest. */
static void t_nothing_fits(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(1);
	struct battery_plan pl;

	CHECK_EQ_U64(battery_plan_make(&e, &p, &w, &pl), 0);
	CHECK(strstr(pl.note, "nothing") != NULL);
	CHECK(strstr(pl.s[BSTEP_DD_1M].why, "skipped") != NULL);
}

/* No way to keep the cache out of a read: twice the RAM or nothing. */
static void t_two_x_ram(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(600);
	struct battery_plan pl;

	e.has_direct = e.can_drop = 0;
	e.ram = e.cache_bytes = (uint64_t)(24 * GIB);
	e.free_bytes = (uint64_t)(20 * GIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.s[BSTEP_DD_1M].run);
	CHECK(!pl.s[BSTEP_DD_READ].run);
	CHECK(strstr(pl.s[BSTEP_DD_READ].why, "skipped: needs 48.0 GiB for 2x RAM, 20.0 GiB "
		     "free; run with --direct or a larger target") != NULL);
	CHECK(!pl.s[BSTEP_IOZONE].run && strstr(pl.s[BSTEP_IOZONE].why, "O_DIRECT"));
	CHECK(pl.s[BSTEP_POSTMARK].run && pl.s[BSTEP_DB].run);

	/* with room for it, the read exceeds twice the page cache */
	e.ram = e.cache_bytes = (uint64_t)(1 * GIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.s[BSTEP_DD_READ].run);
	CHECK(pl.s[BSTEP_DD_READ].read_methods == BREAD_2XRAM);
	CHECK((double)battery_dd_bytes(&pl) >= 2 * GIB);
}

/* A file system in memory: no read can measure a device. */
static void t_memory_fs(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;

	e.memory_fs = 1;
	e.has_direct = 0;
	strcpy(e.fs_type, "tmpfs");
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_DD_READ].run && strstr(pl.s[BSTEP_DD_READ].why, "'tmpfs' keeps"));
	CHECK(!pl.s[BSTEP_CP].run);
	CHECK(!pl.s[BSTEP_BONNIE].run);
	CHECK(pl.s[BSTEP_DD_1M].run && pl.s[BSTEP_DB].run);
}

/* A tmpfs of 22 GiB free on a machine with 3 GiB available: its files are memory, so
 * every size fits what the memory can spare (a quarter kept: 2.25 GiB), not the free
 * space; the plan says the target is in memory. */
static void t_memory_caps(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(3600);
	struct battery_plan pl;
	double usable = 2.25 * GIB;
	char note[400];
	unsigned i;

	e.memory_fs = 1;
	strcpy(e.fs_type, "tmpfs");
	e.free_bytes = (uint64_t)(22 * GIB);
	e.mem_avail = (uint64_t)(3 * GIB);
	CHECK(battery_mem_usable(&e) == (uint64_t)usable);
	CHECK(battery_plan_make(&e, &p, &w, &pl) > 0);
	CHECK(pl.mem_usable == (uint64_t)usable);
	CHECK(pl.s[BSTEP_DD_1M].run && pl.s[BSTEP_DD_1K].run);
	CHECK((double)battery_dd_bytes(&pl) <= usable);
	CHECK(pl.s[BSTEP_DD_1K].v[0] <= usable);
	CHECK((double)pl.space <= usable);
	for (i = 0; i < BSTEP_N; i++)
		CHECK((double)pl.s[i].space <= usable);
	CHECK(!pl.s[BSTEP_DD_READ].run && strstr(pl.s[BSTEP_DD_READ].why, "in memory"));
	battery_memory_note(note, sizeof(note), &e);
	CHECK(strstr(note, "in memory (tmpfs)") && strstr(note, "RAM figures"));
	CHECK(strstr(note, "2.25 GiB of the 3.00 GiB"));

	/* memory-speed writes: a second of dd needs more than the memory can spare, and
	 * the step says so instead of planning a write the RAM cannot hold */
	p.w_bps = p.w1k_bps = 3e9;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_DD_1M].run);
	CHECK(strstr(pl.s[BSTEP_DD_1M].why, "skipped: needs 2.8 GiB; the target is in memory: "
		     "its files may take 2.2 GiB of the 3.0 GiB available") != NULL);
	CHECK((double)pl.space <= usable);

	/* by hand, too: a --size the memory cannot hold is skipped */
	w = want(0);
	w.size = (uint64_t)(4 * GIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_DD_1M].run && strstr(pl.s[BSTEP_DD_1M].why, "in memory"));

	/* a disk is not capped by the memory */
	e = env_disk();
	e.mem_avail = (uint64_t)(3 * GIB);
	p = probe_disk();
	w = want(3600);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.mem_usable == 0 && (double)battery_dd_bytes(&pl) > 4 * GIB);
	e.memory_fs = 0;
	battery_memory_note(note, sizeof(note), &e);
	CHECK(note[0] == '\0');
}

/* Little free space: the dd file does not fit. */
static void t_small_target(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;

	e.free_bytes = (uint64_t)(300 * MIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_DD_1M].run);
	CHECK(strstr(pl.s[BSTEP_DD_1M].why, "needs 477 MiB, 300 MiB free") != NULL);
	CHECK(strstr(pl.s[BSTEP_DB].why, "needs 238 MiB (1666667 rows), 300 MiB free"));
	CHECK(pl.s[BSTEP_IOZONE].run);	/* a second of 4 KiB reads is 41 MB */
	CHECK(pl.space <= 300 * MIB);
	CHECK(pl.s[BSTEP_FSYNC].run);	/* its file is 16 MiB */

	CHECK(strstr(pl.s[BSTEP_DB].why, "300 MiB free (5% and 64 MiB are kept free)"));

	/* too little room even for the fsync test's file: skipped with the reason */
	e.free_bytes = (uint64_t)(80 * MIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_FSYNC].run);
	CHECK(strstr(pl.s[BSTEP_FSYNC].why, "skipped: needs 16 MiB (1 s a test), 80 MiB "
		     "free (5% and 64 MiB are kept free)") != NULL);
}

/* Twelve seconds cannot hold the fsync step's 16 tests of a second: it says what it
 * needs instead of running shorter tests. */
static void t_fsync_budget(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(12);
	struct battery_plan pl;

	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_FSYNC].run);
	CHECK(strstr(pl.s[BSTEP_FSYNC].why, "budget") != NULL);
	CHECK(pl.s[BSTEP_DD_1M].run);
}

/* Repeats and file systems share the budget. */
static void t_passes(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(600);
	struct battery_plan pl;

	w.repeats = 2;
	w.configs = 3;
	w.overhead_ns = 6 * SEC;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK_EQ_U64(pl.pass_budget_ns, 99 * SEC);
	CHECK(pl.total_ns <= 600 * SEC + 6 * SEC);
	CHECK(pl.total_ns >= 500 * SEC);
}

/* --direct: reads by O_DIRECT only. */
static void t_direct(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;

	w.direct = 1;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.s[BSTEP_DD_READ].read_methods == BREAD_DIRECT);
}

/* The sustained write joins when the budget has its minute after every other step: an
 * hour plans it (at most ten minutes, its file the probe's write rate over its time,
 * within the free space); too little free space for a minute of writing skips it and
 * says how much it needs; a memory file system or no O_DIRECT skips it. */
static void t_sustained_step(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(3600);
	struct battery_plan pl;

	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.s[BSTEP_SUSTAINED].run);
	CHECK(battery_sus_secs(&pl) >= 60 && battery_sus_secs(&pl) <= 600);
	CHECK((double)battery_sus_bytes(&pl) <= (double)battery_sus_secs(&pl) * p.w_bps + 1048576);
	CHECK(battery_sus_bytes(&pl) <= e.free_bytes);
	CHECK(strstr(pl.s[BSTEP_SUSTAINED].why, "stopping once the rate has fallen"));
	CHECK(pl.expect_ns <= pl.pass_budget_ns + pl.pass_budget_ns / 20);
	e.free_bytes = (uint64_t)(20 * GIB);	/* 40 s of writing at 500 MB/s */
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_SUSTAINED].run && !pl.s[BSTEP_SUSTAINED].for_budget);
	CHECK(strstr(pl.s[BSTEP_SUSTAINED].why, "skipped: needs 27.9 GiB (60 s), 20.0 GiB free"));
	e = env_disk();
	e.has_direct = 0;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_SUSTAINED].run && strstr(pl.s[BSTEP_SUSTAINED].why, "O_DIRECT"));
}

/* --size: the sizes from it, nothing left out, nothing skipped for shortness. */
static void t_hand_sized(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(0);
	struct battery_plan pl;

	w.size = 1u << 20;
	CHECK_EQ_U64(battery_plan_make(&e, &p, &w, &pl), BSTEP_N - 3);
	CHECK(!pl.s[BSTEP_FSYNC].run && strstr(pl.s[BSTEP_FSYNC].why, "--budget"));
	CHECK(!pl.s[BSTEP_SUSTAINED].run && strstr(pl.s[BSTEP_SUSTAINED].why, "--budget"));
	CHECK(pl.hand_sized);
	CHECK_EQ_U64(pl.nout, 0);
	CHECK_EQ_U64(battery_dd_bytes(&pl), 1u << 20);
	CHECK_EQ_U64(battery_bonnie_mb(&pl), 1);
	CHECK_EQ_U64(battery_bonnie_files(&pl), 1);
	CHECK_EQ_U64(battery_pm_number(&pl), 1000);
	CHECK_EQ_U64(battery_db_rows(&pl, BSTEP_DB), 20000);
	CHECK_EQ_U64(battery_iozone_file_kb(&pl, 1), 1024);
	w.size = 0;
	w.budget_ns = 0;
	CHECK_EQ_U64(battery_plan_make(&e, &p, &w, &pl), (uint64_t)-EINVAL);
}

/* A probe that could not measure the one-byte calls skips Bonnie++ and says so. */
static void t_unprobed(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;

	p.byte_wps = 0;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_BONNIE].run);
	CHECK(strstr(pl.s[BSTEP_BONNIE].why, "could not measure putc") != NULL);
}

/* The database pattern: planned with O_DIRECT on the environment's engine, four jobs of
 * whole seconds over a file of 256 MiB or more; a larger budget buys longer jobs. */
static void t_job_step(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w2 = want(120), w10 = want(600);
	struct battery_plan a, b;

	strcpy(e.job_engine, "io_uring");
	battery_plan_make(&e, &p, &w2, &a);
	battery_plan_make(&e, &p, &w10, &b);
	CHECK(a.s[BSTEP_JOB].run);
	CHECK(strcmp(a.job_engine, "io_uring") == 0);
	CHECK(strstr(a.s[BSTEP_JOB].why, "O_DIRECT, io_uring") != NULL);
	CHECK(battery_job_secs(&a) >= 1 && battery_job_secs(&a) <= 60);
	CHECK((double)battery_job_bytes(&a) >= 256 * MIB);
	CHECK(battery_job_bytes(&a) % (1u << 20) == 0);
	CHECK(a.s[BSTEP_JOB].expect_ns >= 4 * battery_job_secs(&a) * SEC);
	CHECK(a.s[BSTEP_JOB].shortest_ns >= BATTERY_ROW_NS);
	CHECK(a.s[BSTEP_JOB].space == battery_job_bytes(&a));
	CHECK(!has_out(&a, BSTEP_JOB, "layout"));	/* time, not a figure */
	CHECK(battery_job_secs(&b) > battery_job_secs(&a));
	CHECK(battery_job_bytes(&b) >= battery_job_bytes(&a));
	/* no engine named: psync, which runs everywhere */
	e.job_engine[0] = '\0';
	battery_plan_make(&e, &p, &w2, &a);
	CHECK(strcmp(a.job_engine, "psync") == 0);
}

/* Without O_DIRECT, or room for its file, the pattern says why it is skipped. */
static void t_job_refused(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;

	e.has_direct = 0;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_JOB].run && strstr(pl.s[BSTEP_JOB].why, "skipped: needs O_DIRECT"));
	w.size = 8u << 20;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_JOB].run && strstr(pl.s[BSTEP_JOB].why, "skipped: needs O_DIRECT"));
	e = env_disk();
	w = want(120);
	e.free_bytes = (uint64_t)(300 * MIB);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_JOB].run);
	CHECK(strstr(pl.s[BSTEP_JOB].why, "skipped: needs 256 MiB, 300 MiB free (5% and 64 "
		     "MiB are kept free)") != NULL);
	/* a budget that cannot hold four jobs of a second */
	e = env_disk();
	w = want(6);
	w.steps = 1u << BSTEP_JOB;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_JOB].run && strstr(pl.s[BSTEP_JOB].why, "budget"));
	e.memory_fs = 1;
	strcpy(e.fs_type, "tmpfs");
	w = want(120);
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(!pl.s[BSTEP_JOB].run && strstr(pl.s[BSTEP_JOB].why, "'tmpfs' keeps"));
}

/* By hand: the file at --size, each job over it once. */
static void t_job_hand(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(0);
	struct battery_plan pl;
	char text[2048];

	w.size = 4u << 20;
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(pl.s[BSTEP_JOB].run);
	CHECK_EQ_U64(battery_job_bytes(&pl), 4u << 20);
	CHECK(battery_job_text(&pl, text, sizeof(text)) < (int)sizeof(text));
	CHECK(strstr(text, "size=4194304\n") && strstr(text, "ioengine=psync\n"));
	CHECK(!strstr(text, "time_based"));
	w = want(120);
	strcpy(e.job_engine, "libaio");
	battery_plan_make(&e, &p, &w, &pl);
	CHECK(battery_job_text(&pl, text, sizeof(text)) < (int)sizeof(text));
	CHECK(strstr(text, "ioengine=libaio\n") && strstr(text, "time_based=1\n"));
	CHECK(strstr(text, "direct=1\n") && strstr(text, "bs=8k\n"));
	CHECK(strstr(text, "[randread-qd1]\nrw=randread\niodepth=1\n"));
	CHECK(strstr(text, "[randread-qd32]\nrw=randread\niodepth=32\n"));
	CHECK(strstr(text, "[randwrite-fdatasync]\nrw=randwrite\niodepth=1\nfdatasync=1\n"));
	CHECK(strstr(text, "[randrw70-qd32]\nrw=randrw\nrwmixread=70\niodepth=32\n"));
	CHECK(battery_job_text(&pl, text, 16) >= 16);
}

/* --steps: only the steps named run; the rest say so. */
static void t_steps(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk();
	struct battery_want w = want(120);
	struct battery_plan pl;
	unsigned m = 0, i;
	char err[256];

	CHECK(battery_parse_steps("dd", &m, err, sizeof(err)) == 0);
	CHECK(m == (1u << BSTEP_DD_1K | 1u << BSTEP_DD_1M | 1u << BSTEP_DD_READ));
	CHECK(battery_parse_steps("job,fsync", &m, err, sizeof(err)) == 0);
	CHECK(m == (1u << BSTEP_JOB | 1u << BSTEP_FSYNC));
	CHECK(battery_parse_steps("dd-1m, cp", &m, err, sizeof(err)) == 0);
	CHECK(m == (1u << BSTEP_DD_1M | 1u << BSTEP_CP));
	CHECK(battery_parse_steps("jobs", &m, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "unknown step: 'jobs'") != NULL);
	CHECK(battery_parse_steps("", &m, err, sizeof(err)) == -EINVAL);
	CHECK(battery_parse_steps(",", &m, err, sizeof(err)) == -EINVAL);
	w.steps = 1u << BSTEP_FSYNC | 1u << BSTEP_CP;
	CHECK_EQ_U64(battery_plan_make(&e, &p, &w, &pl), 1);
	CHECK(pl.s[BSTEP_FSYNC].run);
	/* cp reads dd's file, and dd is not asked for */
	CHECK(!pl.s[BSTEP_CP].run && strstr(pl.s[BSTEP_CP].why, "dd write bs=1M"));
	for (i = 0; i < BSTEP_N; i++)
		if (i != BSTEP_FSYNC && i != BSTEP_CP)
			CHECK(strstr(pl.s[i].why, "skipped: not in --steps") != NULL);
	/* the budget goes to what was asked */
	CHECK(battery_fsync_secs(&pl) == 5);
	w = want(0);
	w.size = 1u << 20;
	w.steps = 1u << BSTEP_JOB;
	CHECK_EQ_U64(battery_plan_make(&e, &p, &w, &pl), 1);
	CHECK(pl.s[BSTEP_JOB].run && !pl.s[BSTEP_DD_1M].run);
}

/* A host's write-back cache took the probe's 192 MiB at 1.5 GB/s; the device sustains
 * 388 MB/s. dd write bs=1M, planned from the probe, took 25 s instead of 7: its row's
 * durable rate replaces the probe's, and the steps after it are planned again into what
 * is left of the pass, so that the pass still fits the budget. */
static void t_revise(void)
{
	struct battery_env e = env_disk();
	struct battery_probe p = probe_disk(), q;
	struct battery_want w = want(75);
	struct battery_plan a, b;
	struct row r1k, r1m;
	struct row *rows[1];
	uint64_t done_ns[BSTEP_N] = { 0 }, bytes, used, sum = 0;
	unsigned done, i;
	char what[240];

	p.w_bps = 1.5e9;
	p.w1k_bps = 1.6e9;
	CHECK(battery_plan_make(&e, &p, &w, &a) > 3);
	CHECK(a.s[BSTEP_DD_1K].run && a.s[BSTEP_DD_1M].run && a.s[BSTEP_DD_READ].run);
	bytes = battery_dd_bytes(&a);
	CHECK(bytes >= 1500000000u);	/* a second at the probe's rate */

	/* the rows dd made: 1 KiB writes as planned, with a short sync (the writer was the
	 * bottleneck); 1 MiB writes at 388 MB/s until fdatasync returned */
	memset(&r1k, 0, sizeof(r1k));
	r1k.phase = (char *)"write";
	r1k.bytes = (uint64_t)a.s[BSTEP_DD_1K].v[0];
	r1k.elapsed_ns = (uint64_t)((double)r1k.bytes / 1.5e9 * 1e9);
	r1k.buffered_ns = r1k.elapsed_ns - r1k.elapsed_ns / 20;
	r1k.durable_ns = r1k.elapsed_ns;
	r1m = r1k;
	r1m.bytes = bytes;
	r1m.elapsed_ns = (uint64_t)((double)bytes / 388e6 * 1e9);
	r1m.buffered_ns = r1m.elapsed_ns / 3;
	r1m.durable_ns = r1m.elapsed_ns;

	q = p;
	rows[0] = &r1k;
	CHECK_EQ_U64(battery_adapt_rates(&q, BSTEP_DD_1K, rows, 1, what, sizeof(what)), 0);
	CHECK(q.w_bps == p.w_bps && q.w1k_bps == p.w1k_bps);
	rows[0] = &r1m;
	CHECK_EQ_U64(battery_adapt_rates(&q, BSTEP_DD_1M, rows, 1, what, sizeof(what)), 1);
	CHECK(q.w_bps > 387e6 && q.w_bps < 389e6);
	CHECK(strstr(what, "durable 1 MiB writes measured 388 MB/s, planned at 1.50 GB/s"));
	/* dd read: the faster of its reads is the read rate */
	{
		struct battery_probe x = p;
		struct row rd = r1m;

		rd.phase = (char *)"read";
		rd.elapsed_ns = (uint64_t)((double)bytes / 300e6 * 1e9);
		rows[0] = &rd;
		CHECK_EQ_U64(battery_adapt_rates(&x, BSTEP_DD_READ, rows, 1, NULL, 0), 1);
		CHECK(x.r_bps < 301e6 && x.w_bps == p.w_bps);
		rows[0] = &r1m;
	}
	/* other steps' rows change no rate; a failed row none either */
	CHECK_EQ_U64(battery_adapt_rates(&q, BSTEP_BONNIE, rows, 1, what, sizeof(what)), 0);
	r1m.flags = ROW_FAILED;
	CHECK_EQ_U64(battery_adapt_rates(&p, BSTEP_DD_1M, rows, 1, NULL, 0), 0);
	r1m.flags = 0;
	/* 1 KiB writes whose fdatasync took a third: the device is behind, its rate too */
	{
		struct battery_probe x = p;

		rows[0] = &r1m;
		CHECK_EQ_U64(battery_adapt_rates(&x, BSTEP_DD_1K, rows, 1, NULL, 0), 2);
		CHECK(x.w1k_bps < 389e6 && x.w_bps < 389e6);
	}

	/* both dd writes ran; the rest re-planned into what is left */
	done = 1u << BSTEP_DD_1K | 1u << BSTEP_DD_1M;
	done_ns[BSTEP_DD_1K] = r1k.elapsed_ns + 100000000u;
	done_ns[BSTEP_DD_1M] = r1m.elapsed_ns + 100000000u;
	used = done_ns[BSTEP_DD_1K] + done_ns[BSTEP_DD_1M];
	CHECK(battery_plan_revise(&e, &q, &w, &a, done, done_ns, &b) > 2);
	CHECK_EQ_U64(b.pass_budget_ns, a.pass_budget_ns);
	/* what ran stays as it ran, with what it took */
	CHECK(b.s[BSTEP_DD_1M].run && b.s[BSTEP_DD_1M].expect_ns == done_ns[BSTEP_DD_1M]);
	CHECK(b.s[BSTEP_DD_1K].v[0] == a.s[BSTEP_DD_1K].v[0]);
	CHECK_EQ_U64(battery_dd_bytes(&b), bytes);	/* dd read and cp read its file */
	/* the read of that file at the probe's read rate is still planned */
	CHECK(b.s[BSTEP_DD_READ].run);
	/* the pass fits its budget again, which the first plan at 388 MB/s would not */
	CHECK(b.expect_ns <= b.pass_budget_ns + b.pass_budget_ns / 50);
	CHECK(a.expect_ns - a.s[BSTEP_DD_1M].expect_ns + done_ns[BSTEP_DD_1M] >
	      a.pass_budget_ns + a.pass_budget_ns / 50);
	for (i = 0; i < BSTEP_N; i++) {
		if (!b.s[i].run)
			continue;
		sum += b.s[i].expect_ns;
		if (!(done & (1u << i)))
			CHECK(b.s[i].shortest_ns >= BATTERY_ROW_NS);
	}
	CHECK_EQ_U64(sum, b.expect_ns);
	CHECK(sum - used <= a.pass_budget_ns - used + a.pass_budget_ns / 50);
	/* what no longer fits says it is the budget */
	for (i = 0; i < BSTEP_N; i++)
		if (a.s[i].run && !b.s[i].run)
			CHECK(strstr(b.s[i].why, "budget") != NULL);
	/* what the first plan skipped stays skipped, for its own reason */
	CHECK(!b.s[BSTEP_PG].run && strstr(b.s[BSTEP_PG].why, "--pg-local"));
	/* the steps after the dd writes are no larger than before (the device is slower) */
	CHECK(battery_bonnie_mb(&b) <= battery_bonnie_mb(&a) || !b.s[BSTEP_BONNIE].run);

	/* the other way: dd took a tenth of what was planned at 30 s; the steps the budget
	 * left out after it may fit now, and one does */
	w = want(30);
	battery_plan_make(&e, &p, &w, &a);
	for (i = BSTEP_DD_1M + 1, sum = 0; i < BSTEP_N; i++)
		sum += a.s[i].for_budget;
	CHECK(sum > 0);
	memset(done_ns, 0, sizeof(done_ns));
	done = 1u << BSTEP_DD_1K | 1u << BSTEP_DD_1M;
	done_ns[BSTEP_DD_1K] = a.s[BSTEP_DD_1K].expect_ns / 10;
	done_ns[BSTEP_DD_1M] = a.s[BSTEP_DD_1M].expect_ns / 10;
	CHECK(battery_plan_revise(&e, &p, &w, &a, done, done_ns, &b) > (int)a.nrun);
	CHECK(b.expect_ns <= b.pass_budget_ns + b.pass_budget_ns / 50);
	for (i = 0; i < BSTEP_N; i++)
		if (!a.s[i].run && !a.s[i].for_budget)
			CHECK(!b.s[i].run && !strcmp(a.s[i].why, b.s[i].why));
	w = want(75);
	battery_plan_make(&e, &p, &w, &a);

	/* everything ran: the plan is what ran */
	for (i = 0, done = 0; i < BSTEP_N; i++)
		if (a.s[i].run) {
			done |= 1u << i;
			done_ns[i] = a.s[i].expect_ns;
		}
	CHECK(battery_plan_revise(&e, &p, &w, &a, done, done_ns, &b) == (int)a.nrun);
	CHECK_EQ_U64(b.expect_ns, a.expect_ns);
	CHECK_EQ_U64(b.nout, a.nout);
	/* a hand-sized plan is not revised */
	w.size = 1u << 20;
	battery_plan_make(&e, &p, &w, &a);
	CHECK(battery_plan_revise(&e, &p, &w, &a, 0, done_ns, &b) == -EINVAL);
}

static void t_budget_parse(void)
{
	uint64_t ns = 0;

	CHECK(battery_parse_budget("10m", &ns) == 0 && ns == 600 * SEC);
	CHECK(battery_parse_budget("90s", &ns) == 0 && ns == 90 * SEC);
	CHECK(battery_parse_budget("1h", &ns) == 0 && ns == 3600 * SEC);
	CHECK(battery_parse_budget("1m30s", &ns) == 0 && ns == 90 * SEC);
	CHECK(battery_parse_budget("1.5m", &ns) == 0 && ns == 90 * SEC);
	CHECK(battery_parse_budget("3", &ns) == -EINVAL);
	CHECK(battery_parse_budget("0", &ns) == -EINVAL);
	CHECK(battery_parse_budget("0s", &ns) == -EINVAL);
	CHECK(battery_parse_budget("", &ns) == -EINVAL);
	CHECK(battery_parse_budget("5x", &ns) == -EINVAL);
	CHECK(battery_parse_budget("-1m", &ns) == -EINVAL);
	CHECK(battery_parse_budget("1m3", &ns) == -EINVAL);
	CHECK(battery_parse_budget("999999h", &ns) == -ERANGE);
}

/* The step table: one entry per step in the order of a pass, priorities a permutation,
 * every step named, with a workload, an id --steps takes and a run function. */
static void t_step_table(void)
{
	unsigned seen = 0, i, mask;
	char err[200];

	for (i = 0; i < BSTEP_N; i++) {
		const struct battery_step_info *t = &battery_steps[i];

		CHECK(t->step == (enum battery_step)i);
		CHECK(t->priority >= 1 && t->priority <= BSTEP_N);
		seen |= 1u << (t->priority - 1);
		CHECK(t->name && t->workload && t->id && t->run);
		CHECK(t->nvar >= 1 && t->nvar <= BATTERY_MAX_VARS);
		CHECK(battery_parse_steps(t->id, &mask, err, sizeof(err)) == 0);
		CHECK(mask == 1u << i);
		CHECK(battery_step_by_priority(t->priority - 1) == t->step);
	}
	CHECK(seen == (1u << BSTEP_N) - 1);
	CHECK(!strcmp(battery_step_name(BSTEP_JOB), "job db pattern"));
	CHECK(battery_step_by_priority(0) == BSTEP_DD_1M);
}

int main(void)
{
	RUN(t_step_table);
	RUN(t_two_minutes);
	RUN(t_ten_minutes);
	RUN(t_tiny_budget);
	RUN(t_nothing_fits);
	RUN(t_two_x_ram);
	RUN(t_memory_fs);
	RUN(t_memory_caps);
	RUN(t_small_target);
	RUN(t_fsync_budget);
	RUN(t_passes);
	RUN(t_direct);
	RUN(t_hand_sized);
	RUN(t_sustained_step);
	RUN(t_unprobed);
	RUN(t_job_step);
	RUN(t_job_refused);
	RUN(t_job_hand);
	RUN(t_steps);
	RUN(t_revise);
	RUN(t_budget_parse);
	return test_done();
}
