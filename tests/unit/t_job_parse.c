/* t_job_parse.c - the fio job-file grammar: sections, [global] inheritance and order,
 * include, comments, errors with their line numbers, flags and modes, command lines,
 * the --showcmd dump. Values and units are in t_job_units.c.
 *
 * Without arguments it runs the unit tests. As a tool for tests/cli/job_parse_vs_fio.sh:
 *   t_job_parse --showcmd FILE     print the dump as fio --showcmd does; exit 1 on error
 *   t_job_parse --parse-only FILE  exit 0 when the file parses, 1 (and the message) if not
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "job_test.h"

static void t_defaults(void)
{
	const struct job_def *d = one("[a]\n");

	if (!d)
		return;
	CHECK_STR(d->name, "a");
	CHECK(d->rw == JOB_RW_READ);
	CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
	CHECK_EQ_U64(d->bs[JOB_WRITE].max, 4096);
	CHECK_EQ_U64(d->bs[JOB_READ].ba, 4096);
	CHECK_EQ_U64(d->iodepth, 1);
	CHECK_EQ_U64(d->numjobs, 1);
	CHECK_EQ_U64(d->nrfiles, 1);
	CHECK(d->engine == &engine_psync);
	CHECK_STR(d->engine_name, "psync");
	CHECK_EQ_U64(d->rwmix[JOB_READ], 50);
	CHECK_EQ_U64(d->randseed, 0x89);
	CHECK(d->randrepeat);
	CHECK(!d->direct);
	CHECK_EQ_U64(d->loops, 1);
	CHECK_EQ_U64(d->npctl, 17);
	CHECK_NEAR(d->pctl[16], 99.99, 1e-9);
	CHECK_EQ_U64(d->kb_base, 1024);
	CHECK_EQ_U64(d->set, 0);
	CHECK_STR(d->src, "t.fio");
	CHECK_EQ_U64(d->src_line, 1);
}

static void t_global_order(void)
{
	char err[256];
	struct job_list l;
	const char *text = "[global]\nbs=8k\nrw=randread\n[a]\niodepth=2\n"
			   "[global]\nbs=16k\n[b]\n[global-late]\ndirect=1\n";

	CHECK_EQ_U64(parse(text, 0, &l, err, sizeof(err)), 0);
	CHECK_EQ_U64(l.njobs, 2);
	CHECK_EQ_U64(l.nsects, 5);
	if (l.njobs == 2) {
		CHECK_EQ_U64(l.jobs[0].bs[JOB_READ].min, 8192);
		CHECK(l.jobs[0].rw == JOB_RW_RANDREAD);
		CHECK_EQ_U64(l.jobs[0].iodepth, 2);
		CHECK_EQ_U64(l.jobs[1].bs[JOB_READ].min, 16384);
		CHECK(l.jobs[1].rw == JOB_RW_RANDREAD);
		CHECK_EQ_U64(l.jobs[1].iodepth, 1);	/* a job's options stay its own */
		CHECK(!l.jobs[1].direct);		/* a later [global] changes nothing */
		CHECK(JOB_SET(&l.jobs[1], JOB_OPT_BS));
		CHECK(!JOB_SET(&l.jobs[1], JOB_OPT_IODEPTH));
		CHECK_EQ_U64(l.jobs[1].src_line, 8);
	}
	CHECK(l.sects[0].global && l.sects[4].global && !l.sects[1].global);
	CHECK_EQ_U64(l.sects[1].job, 0);
	CHECK_EQ_U64(l.sects[3].job, 1);
	job_list_free(&l);
}

/* kb_base is applied before the other options of its section, filename after them */
static void t_priority(void)
{
	const struct job_def *d = one("[a]\nsize=1mib\nkb_base=1000\nfilesize=1mi\n");

	if (d) {
		CHECK_EQ_U64(d->size, 1048576);		/* kb_base=1000: mib is 1024^2 */
		CHECK_EQ_U64(d->filesize[0], 1000000);	/* and mi (like m) 1000^2 */
	}
	d = one("[a]\nsize=1mib\nfilesize=1mi\n");
	if (d) {
		CHECK_EQ_U64(d->size, 1000000);
		CHECK_EQ_U64(d->filesize[0], 1048576);	/* fio 3.33: 1mi is 1 MiB */
	}
}









/* The messages of the bad inputs: one line naming file, line and section. */
static void t_errors(void)
{
	const char *text = "; a job file\n[global]\nsize=4m\n\n[rand]\nrw=randread\nfoo=1\n";

	CHECK_STR(parse_err(text), "job: 't.fio' line 7, section [rand]: unknown option 'foo'");
	CHECK_STR(parse_err("[a]\nbs=0\n"),
		  "job: 't.fio' line 2, section [a]: invalid 'bs=0': must be at least 1");
	CHECK_STR(parse_err("[a]\n\niodepth=0\n"),
		  "job: 't.fio' line 3, section [a]: invalid 'iodepth=0': must be at least 1");
	CHECK_STR(parse_err("[a]\nnumjobs=-1\n"),
		  "job: 't.fio' line 2, section [a]: invalid 'numjobs=-1': must not be negative");
	CHECK_STR(parse_err("[a]\nrwmixread=150\n"),
		  "job: 't.fio' line 2, section [a]: invalid 'rwmixread=150': must be 0 to 100");
	CHECK_STR(parse_err("[a]\nbs=4q\n"),
		  "job: 't.fio' line 2, section [a]: invalid 'bs=4q': unknown size suffix 'q'");
	CHECK_STR(parse_err("bs=4k\n[a]\n"), "job: 't.fio' line 1: 'bs=4k' outside of a [section]");
	CHECK_STR(parse_err("[a]\n[b\n"),
		  "job: 't.fio' line 2: section header '[b' lacks its closing ']'");
	CHECK_ERR("[]\n", "lacks its closing");
	CHECK_ERR("[a]\n=4k\n", "missing option name");
	CHECK_ERR("[a]\nRW=read\n", "unknown option 'RW'");
	CHECK_ERR("[a]\nnumjobs=0\n", "must be at least 1");
	CHECK_ERR("[a]\nnumjobs=5000\n", "must be at most 4096");
	CHECK_ERR("[a]\nrw=sideways\n", "invalid 'rw=sideways'");
	CHECK_ERR("[a]\nrw = randread\n", "invalid 'rw= randread'");	/* as fio */
	CHECK_ERR("[a]\nrw=trimread\n", "invalid 'rw=trimread'");
	CHECK_ERR("[a]\nrw=randread:0\n", "a new offset every N");
	CHECK_ERR("[a]\nzonemode=zbd\n", "zonemode=zbd needs a zoned block device");
	CHECK_ERR("[a]\nverify_offset=1\n", "fio option 'verify_offset' is not implemented by "
		  "iobattery (iobattery's --verify, or verify=crc32c, stamps every block");
	CHECK_ERR("[a]\nverify=pattern\n", "fio's pattern verification is not implemented");
	CHECK_ERR("[a]\nverify=null\n", "fio's pretend verification is not implemented");
	CHECK_ERR("[a]\nverify=crc33\n", "invalid 'verify=crc33': 0 or a checksum");
	CHECK_ERR("[a]\ndo_verify=2\n", "invalid 'do_verify=2': must be 0 or 1");
	CHECK_ERR("[a]\nverify_pattern=0xqq\n", "invalid 'verify_pattern=0xqq'");
	CHECK_ERR("[a]\nfill_device=1\nrw=read\n", "fill_device=1 with rw=read is not "
		  "implemented");
	CHECK_ERR("[a]\nhipri=1\n", "option 'hipri' belongs to ioengine=io_uring");
	CHECK_ERR("[a]\nreadfua=1\n", "fio option 'readfua' is not implemented");
	CHECK_ERR("[a]\nioengine=posixaio\n", "fio's posixaio engine is not implemented");
	CHECK_ERR("[a]\nioengine=bogus\n", "unknown engine");
	CHECK_ERR("[a]\ndirect\n", "'direct' needs a value");
	CHECK_ERR("[a]\ndirect=yes\n", "must be 0 or 1");
	CHECK_ERR("[a]\ntime_based=2\n", "must be 0 or 1");
	CHECK_ERR("[a]\nsync=maybe\n", "none, 0, sync, 1 or dsync");
	CHECK_ERR("[a]\niodepth=4,8\n", "invalid 'iodepth=4,8'");
	CHECK_ERR("[a]\nrandom_distribution=zipf:1\n", "not 1");
	CHECK_ERR("[a]\nrandom_distribution=zipf:abc\n", "must be a number");
	CHECK_ERR("[a]\nrandom_distribution=zipf:1.2:2\n", "center");
	CHECK_ERR("[a]\nrandom_distribution=pareto:1.5\n", "between 0 and 1");
	CHECK_ERR("[a]\nrandom_distribution=normal:100\n", "below 100");
	CHECK_ERR("[a]\nrandom_distribution=zoned:50/50:40/50\n", "add up to 90%");
	CHECK_ERR("[a]\nrandom_distribution=zoned:50/60:50/60\n", "sizes add up to 120%");
	CHECK_ERR("[a]\nrandom_distribution=zoned:50/50,50/50\n", "refuses a ','");
	CHECK_ERR("[a]\nrandom_distribution=zoned_abs:50/1g:50/1g\n", "zoned_abs is not");
	CHECK_ERR("[a]\nrandom_distribution=random:3\n", "no parameter");
	CHECK_ERR("[a]\npercentile_list=50:101\n", "from 0 to 100");
	CHECK_ERR("[a]\npercentile_list=50::99\n", "an empty percentile");
	CHECK_ERR("[a]\nbsrange=4k\n", "a range LOW-HIGH");
	CHECK_ERR("[a]\nfilesize=4m-1m\n", "low end is above");
	CHECK_ERR("[a]\nkb_base=512\n", "1024 or 1000");
	CHECK_ERR("[a]\nrate_process=burst\n", "linear or poisson");
	CHECK_ERR("[a]\nbuffered=2\n", "must be 0 or 1");
	CHECK_ERR("[a]\nname=\n", "a value is required");
	CHECK_ERR("[a]\ninclude x.inc\n", "includes are not allowed here");
	CHECK_ERR("[a]\ninclude\n", "include needs a file name");
	{
		static const char nul[] = "[a]\nbs=4k\0x\n";
		char err[256];
		struct job_list l;

		job_list_init(&l);
		CHECK_EQ_U64(job_parse_buf(nul, sizeof(nul) - 1, "n.fio", &l, err, sizeof(err)),
			     -EINVAL);
		CHECK_STR(err, "job: 'n.fio' line 2, section [a]: NUL byte in a job file");
		job_list_free(&l);
	}
}

static void t_ignore_unknown(void)
{
	char err[256], *cmd;
	struct job_list l;

	CHECK_EQ_U64(parse("[a]\nverify_offset=4k\nbs=8k\n", JOB_PARSE_IGNORE_UNKNOWN, &l,
			   err, sizeof(err)), 0);
	CHECK(strstr(t_warnings, "line 2, section [a]: fio option 'verify_offset' is not "
				 "implemented by iobattery") != NULL);
	cmd = job_showcmd(&l);
	CHECK_STR(cmd, "fio --name=a --verify_offset=4k --bs=8k \n");
	free(cmd);
	job_list_free(&l);
	/* not a fio option at all: still an error */
	CHECK_EQ_U64(parse("[a]\nfoo=1\n", JOB_PARSE_IGNORE_UNKNOWN, &l, err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "unknown option 'foo'") != NULL);
	job_list_free(&l);
}

static void t_flags_and_modes(void)
{
	const struct job_def *d = one("[a]\ntime_based\nruntime=1\ngroup_reporting\nthread\n"
				      "norandommap\nstonewall\nnew_group\n");

	if (d) {
		CHECK(d->time_based && d->group_reporting && d->thread && d->norandommap);
		CHECK(d->stonewall && d->new_group);
	}
	d = one("[a]\ntime_based=0\nwait_for_previous=1\n");
	if (d)
		CHECK(!d->time_based && d->stonewall);
	d = one("[a]\nreadwrite=randrw\nrwmixwrite=30\n");
	if (d) {
		CHECK(d->rw == JOB_RW_RANDRW);
		CHECK_EQ_U64(d->rwmix[JOB_READ], 70);
		CHECK_EQ_U64(d->rwmix[JOB_WRITE], 30);
	}
	d = one("[a]\nrw=randrw\nrwmixread=60\nrwmixwrite=10\n");	/* the last wins */
	if (d)
		CHECK_EQ_U64(d->rwmix[JOB_READ], 90);
	d = one("[a]\nrw=randread:8\n");
	if (d)
		CHECK_EQ_U64(d->rw_seq_nr, 8);
	d = one("[a]\nrw=read:-8k\n");
	if (d)
		CHECK(d->rw_seq_add == -8192);
	d = one("[a]\nbuffered=0\nsync=dsync\nfsync=16\nfdatasync=1\nend_fsync=1\n"
		"fsync_on_close=1\n");
	if (d) {
		CHECK(d->direct);
		CHECK(d->sync == JOB_SYNC_DSYNC);
		CHECK_EQ_U64(d->fsync, 16);
		CHECK_EQ_U64(d->fdatasync, 1);
		CHECK(d->end_fsync && d->fsync_on_close);
	}
	d = one("[a]\nsync=1\n");
	if (d)
		CHECK(d->sync == JOB_SYNC_SYNC);
	d = one("[a]\nioengine=sync\n");
	if (d) {
		CHECK(d->engine == &engine_psync);
		CHECK_STR(d->engine_name, "sync");
	}
	d = one("[a]\nioengine=io_uring\niodepth=32\niodepth_batch_submit=64\n"
		"iodepth_batch_complete=4\n");
	if (d) {
		CHECK(d->engine == engine_lookup("io_uring"));
		CHECK_EQ_U64(d->iodepth_batch, 32);	/* above iodepth: iodepth (fio) */
		CHECK_EQ_U64(d->iodepth_batch_complete_min, 4);
		CHECK(t_warnings[0] == '\0');
	}
	d = one("[a]\nioengine=psync\niodepth=32\n");
	if (d)
		CHECK(strstr(t_warnings, "iodepth=32 has no effect with the synchronous engine "
					 "psync") != NULL);
	d = one("[a]\nioengine=libaio\niodepth=8\n");
	if (d)
		CHECK(strstr(t_warnings, "libaio without direct=1") != NULL);
	d = one("[a]\ntime_based\n");
	if (d) {
		CHECK(!d->time_based);
		CHECK(strstr(t_warnings, "time_based without runtime") != NULL);
	}
	d = one("[a]\nrandseed=42\nloops=0\n");
	if (d) {
		CHECK_EQ_U64(d->randseed, 42);
		CHECK(!d->randrepeat);		/* randseed overrides randrepeat */
		CHECK_EQ_U64(d->loops, 1);
	}
	d = one("[a]\nrw=randread\nba=512\n");
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].ba, 512);
		CHECK(d->norandommap);
		CHECK(strstr(t_warnings, "random map is off") != NULL);
	}
	d = one("[a]\nrw=read\nba=512\n");	/* sequential: aligned to bs */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_READ].ba, 4096);
	d = one("[a]\nrandom_distribution=zipf\n");
	if (d) {
		CHECK(d->dist.kind == JOB_DIST_ZIPF);
		CHECK_NEAR(d->dist.param, 1.1, 1e-12);
		CHECK(d->norandommap);
	}
	d = one("[a]\nrandom_distribution=zipf:1.5:0.25\n");
	if (d) {
		CHECK_NEAR(d->dist.param, 1.5, 1e-12);
		CHECK_NEAR(d->dist.center, 0.25, 1e-12);
	}
	d = one("[a]\nrandom_distribution=zoned:60/10:30/20:8/30:2/\n");
	if (d) {
		CHECK_EQ_U64(d->dist.nzones[JOB_WRITE], 4);
		CHECK_EQ_U64(d->dist.zones[JOB_READ][3].size, 40);
	}
	d = one("[a]\npercentile_list=50:90:99.9\n");
	if (d) {
		CHECK_EQ_U64(d->npctl, 3);
		CHECK_NEAR(d->pctl[2], 99.9, 1e-12);
	}
	d = one("[a]\nname=other\ndescription=  two words\nfilename=a\\:b:c\ndirectory=/tmp\n");
	if (d) {
		char **names;
		unsigned n;

		CHECK_STR(d->name, "other");
		CHECK_STR(d->section, "a");
		CHECK_STR(d->description, "two words");
		CHECK_STR(d->directory, "/tmp");
		CHECK(job_names_split(d->filename, &names, &n) == 0);
		CHECK_EQ_U64(n, 2);
		if (n == 2) {
			CHECK_STR(names[0], "a:b");
			CHECK_STR(names[1], "c");
		}
		job_names_free(names, n);
	}
}

/* The trim modes, and the third (trim) value of per-direction lists. */
static void t_trim(void)
{
	static const struct {
		const char *text, *name;
		enum job_rw rw;
	} m[] = {
		{ "[a]\nrw=trim\n", "trim", JOB_RW_TRIM },
		{ "[a]\nrw=randtrim\n", "randtrim", JOB_RW_RANDTRIM },
		{ "[a]\nrw=trimwrite\n", "trimwrite", JOB_RW_TRIMWRITE },
		{ "[a]\nreadwrite=randtrimwrite\n", "randtrimwrite", JOB_RW_RANDTRIMWRITE },
	};
	const struct job_def *d;
	unsigned i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		d = one(m[i].text);
		if (!d)
			continue;
		CHECK(d->rw == m[i].rw);
		CHECK(job_rw_trims(d->rw) && job_rw_modifies(d->rw));
		CHECK(job_rw_writes(d->rw) == (m[i].rw == JOB_RW_TRIMWRITE ||
					       m[i].rw == JOB_RW_RANDTRIMWRITE));
		CHECK(!job_rw_reads(d->rw));
		CHECK(job_rw_random(d->rw) == (m[i].rw == JOB_RW_RANDTRIM ||
					       m[i].rw == JOB_RW_RANDTRIMWRITE));
		CHECK_STR(job_rw_name(d->rw), m[i].name);
	}
	d = one("[a]\nrw=randtrim\nbs=4k,8k,64k\nrate_iops=1,2,3\n");
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 8192);
		CHECK_EQ_U64(d->bs[JOB_TRIM].min, 65536);
		CHECK_EQ_U64(d->bs[JOB_TRIM].ba, 65536);
		CHECK_EQ_U64(d->rate_iops[JOB_TRIM], 3);
	}
	d = one("[a]\nrw=trim\nbs=4k,8k\n");	/* fio: the last value goes on to trims */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_TRIM].min, 8192);
	d = one("[a]\nrw=trim\nbs=4k,8k,\n");	/* an empty last part: trims keep 4k */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_TRIM].min, 4096);
	d = one("[a]\nrw=trim\nbssplit=4k/100,8k/100,16k/50:64k/50\n");
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_TRIM].nsplit, 2);
		CHECK_EQ_U64(d->bs[JOB_TRIM].min, 16384);
		CHECK_EQ_U64(d->bs[JOB_TRIM].max, 65536);
	}
	CHECK_ERR("[a]\nrw=trim\nsize=4k\nbs=8k\n", "smaller than the block size 8192");
	CHECK_ERR("[a]\nrw=trim\nbs=4k,4k,0\n", "invalid 'bs=4k,4k,0'");
}

static void t_comments(void)
{
	const char *text = "# comment\r\n   ; indented\r\n\r\n[ spaced name ]  ; after\r\n"
			   "rw=read   # after a value\r\nbs = 8k\r\n\tsize=1m\r\n"
			   "description=ends here; the rest\r\n";
	const struct job_def *d = one(text);

	if (d) {
		CHECK_STR(d->name, " spaced name ");
		CHECK_EQ_U64(d->bs[JOB_READ].min, 8192);
		CHECK_EQ_U64(d->size, 1048576);
		CHECK_STR(d->description, "ends here");
		CHECK_EQ_U64(d->src_line, 4);
	}
}

static void t_showcmd(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		/* outputs of fio 3.33 --showcmd for the same files */
		{ "[global]\nbs=8k\n[a]\niodepth=2\n[global]\nbs=16k\n[b]\n",
		  "fio --bs=8k --name=a --iodepth=2 --bs=8k --bs=16k --name=b \n" },
		{ "[x]\nfilename=f\nsize=1m\nkb_base=1000\ndescription=two words\ntime_based\n"
		  "runtime=1\n",
		  "fio --name=x --kb_base=1000 --size=1m --description=\"two words\" --time_based "
		  "--runtime=1 --filename=f \n" },
		{ "[global]\n[a]\n[b]\nrw=read\n", "fio --name=a --name=b --rw=read \n" },
		{ "[global]\nbs=4k\n", "fio --bs=4k \n" },
		{ "; nothing\n", "\n" },
		{ "[a]\ntimeout=5\nblocksize=8k\nnr_files=2\nblockalign=4k\nrw=randread\n",
		  "fio --name=a --runtime=5 --bs=8k --nrfiles=2 --ba=4k --rw=randread \n" },
		{ "[a]\nbs = 4k\nsize= 1m\n", "fio --name=a --bs= 4k --size= 1m \n" },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256], *cmd;
		struct job_list l;

		CHECK_EQ_U64(parse(cases[i].text, 0, &l, err, sizeof(err)), 0);
		cmd = job_showcmd(&l);
		CHECK_STR(cmd, cases[i].want);
		free(cmd);
		job_list_free(&l);
	}
}

static void t_argv(void)
{
	char *const a1[] = { "--rw=randread", "--bs=4k", "--iodepth", "32", "--numjobs=4",
			     "--time_based", "--runtime=10s", "--ioengine=io_uring" };
	char *const a2[] = { "--size=1m", "--name=a", "--bs", "8k", "--name", "b",
			     "--rw=randwrite" };
	char *const a3[] = { "--rw=read", "job.fio" };
	char *const a4[] = { "--name=a", "--bs=0" };
	char err[256], *cmd;
	struct job_list l;

	job_list_init(&l);
	l.ctx.warn = t_warn;
	CHECK_EQ_U64(job_parse_argv(8, a1, &l, err, sizeof(err)), 0);
	CHECK_EQ_U64(l.njobs, 1);
	if (l.njobs == 1) {
		CHECK_STR(l.jobs[0].name, "job");
		CHECK(l.jobs[0].rw == JOB_RW_RANDREAD);
		CHECK_EQ_U64(l.jobs[0].iodepth, 32);
		CHECK_EQ_U64(l.jobs[0].numjobs, 4);
		CHECK(l.jobs[0].time_based);
		CHECK_EQ_U64(l.jobs[0].runtime, 10000000);
		CHECK_STR(l.jobs[0].src, "command line");
	}
	cmd = job_showcmd(&l);
	CHECK_STR(cmd, "fio --rw=randread --bs=4k --iodepth=32 --numjobs=4 --time_based "
		       "--runtime=10s --ioengine=io_uring --name=job \n");
	free(cmd);
	job_list_free(&l);

	CHECK_EQ_U64(job_parse_argv(7, a2, &l, err, sizeof(err)), 0);
	CHECK_EQ_U64(l.njobs, 2);
	if (l.njobs == 2) {
		CHECK_STR(l.jobs[0].name, "a");
		CHECK_EQ_U64(l.jobs[0].bs[JOB_READ].min, 8192);
		CHECK_EQ_U64(l.jobs[0].size, 1048576);
		CHECK_STR(l.jobs[1].name, "b");
		CHECK_EQ_U64(l.jobs[1].bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(l.jobs[1].size, 1048576);
		CHECK(l.jobs[1].rw == JOB_RW_RANDWRITE);
	}
	job_list_free(&l);

	CHECK_EQ_U64(job_parse_argv(2, a3, &l, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "job: command line argument 2, section [global]: 'job.fio' is not an "
		       "option (--name=value)");
	job_list_free(&l);
	CHECK_EQ_U64(job_parse_argv(2, a4, &l, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "job: command line argument 2, section [a]: invalid 'bs=0': must be at "
		       "least 1");
	job_list_free(&l);
}

/* include, through real files in a temp directory */
static void t_include(void)
{
	const char *tmp = getenv("TESTS_TMP");
	char dir[512], path[600], err[600];
	struct job_list l;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/t_job_parse.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		CHECK(0);
		return;
	}
#define WRITE(name, text) do { \
	snprintf(path, sizeof(path), "%s/%s", dir, name); \
	f = fopen(path, "w"); \
	CHECK(f != NULL); \
	if (f) { fputs(text, f); CHECK(fclose(f) == 0); } \
} while (0)
	WRITE("main.fio", "[global]\ninclude common.inc\n[a]\nrw=randwrite\ninclude sub/b.inc\n");
	WRITE("common.inc", "; shared\nbs=8k\n");
	snprintf(path, sizeof(path), "%s/sub", dir);
	CHECK(mkdir(path, 0700) == 0);
	WRITE("sub/b.inc", "iodepth=4\ninclude c.inc\n");	/* relative to sub/ */
	WRITE("sub/c.inc", "size=2m\nfoo=1\n");
	WRITE("self.fio", "[a]\ninclude loop.inc\n");
	WRITE("loop.inc", "include loop.inc\n");
	WRITE("sect.fio", "[a]\ninclude sect.inc\n");
	WRITE("sect.inc", "[b]\n");

	snprintf(path, sizeof(path), "%s/main.fio", dir);
	job_list_init(&l);
	l.ctx.warn = t_warn;
	CHECK_EQ_U64(job_parse_file(path, &l, err, sizeof(err)), -EINVAL);
	/* the message names the included file and its line, and the section */
	CHECK(strstr(err, "sub/c.inc' line 2, section [a]: unknown option 'foo'") != NULL);
	job_list_free(&l);
	WRITE("sub/c.inc", "size=2m\n");
	job_list_init(&l);
	l.ctx.warn = t_warn;
	snprintf(path, sizeof(path), "%s/main.fio", dir);
	CHECK_EQ_U64(job_parse_file(path, &l, err, sizeof(err)), 0);
	CHECK_EQ_U64(l.njobs, 1);
	if (l.njobs == 1) {
		CHECK_EQ_U64(l.jobs[0].bs[JOB_READ].min, 8192);
		CHECK_EQ_U64(l.jobs[0].iodepth, 4);
		CHECK_EQ_U64(l.jobs[0].size, 2097152);
	}
	job_list_free(&l);
	/* the same text with includes refused */
	job_list_init(&l);
	l.ctx.flags = JOB_PARSE_NO_INCLUDE;
	{
		const char *t = "[global]\ninclude common.inc\n";

		CHECK_EQ_U64(job_parse_buf(t, strlen(t), path, &l, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "includes are not allowed") != NULL);
	}
	job_list_free(&l);
	snprintf(path, sizeof(path), "%s/self.fio", dir);
	job_list_init(&l);
	CHECK_EQ_U64(job_parse_file(path, &l, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "loop.inc' line 1, section [a]: include 'loop.inc': nested more "
			  "than 16 deep") != NULL);
	job_list_free(&l);
	snprintf(path, sizeof(path), "%s/sect.fio", dir);
	job_list_init(&l);
	CHECK_EQ_U64(job_parse_file(path, &l, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "no sections in an included file") != NULL);
	job_list_free(&l);
	snprintf(path, sizeof(path), "%s/none.fio", dir);
	job_list_init(&l);
	CHECK_EQ_U64(job_parse_file(path, &l, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "none.fio': No such file or directory") != NULL);
	job_list_free(&l);
	WRITE("x", "");
	{
		static const char *const names[] = { "main.fio", "common.inc", "sub/b.inc",
						     "sub/c.inc", "self.fio", "loop.inc",
							"sect.fio",
						     "sect.inc", "x", "sub" };
		unsigned i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			CHECK(remove(path) == 0);
		}
		CHECK(rmdir(dir) == 0);
	}
#undef WRITE
}

/* Random bytes and mutated job files: no crash, and every failure has a message. */
static void t_garbage(void)
{
	static const char base[] = "[global]\nbs=4k,8k\nsize=4m\n[a]\nrw=randrw:4\n"
				   "bssplit=4k/50:8k/\nrandom_distribution=zoned:60/10:40/90\n"
				   "iodepth=$ncpus*2\n";
	char buf[sizeof(base)], err[512];
	struct rng r;
	unsigned i, k;

	rng_seed(&r, 99);
	for (i = 0; i < 3000; i++) {
		struct job_list l;
		int rc;

		memcpy(buf, base, sizeof(base));
		for (k = 0; k < 1 + i % 4; k++)
			buf[rng_below(&r, sizeof(base) - 1)] = (char)rng_below(&r, 256);
		job_list_init(&l);
		l.ctx.flags = JOB_PARSE_NO_INCLUDE;
		l.ctx.warn = t_warn;
		t_warnings[0] = '\0';
		err[0] = '\0';
		rc = job_parse_buf(buf, sizeof(base) - 1, "g.fio", &l, err, sizeof(err));
		CHECK(rc == 0 || rc == -EINVAL);
		CHECK(rc == 0 || strncmp(err, "job: 'g.fio' line ", 18) == 0);
		job_list_free(&l);
	}
}

static int tool(const char *mode, const char *file)
{
	struct job_list l;
	char err[1024];
	char *s;
	int rc;

	job_list_init(&l);
	rc = job_parse_file(file, &l, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iobattery: %s\n", err);
		job_list_free(&l);
		return 1;
	}
	if (!strcmp(mode, "--showcmd")) {
		s = job_showcmd(&l);
		if (!s) {
			job_list_free(&l);
			return 1;
		}
		fputs(s, stdout);
		free(s);
	}
	job_list_free(&l);
	return 0;
}

/* fio's verify=CHECKSUM turns on iobattery's --verify (said once, where it is set, and
 * inherited from [global]); verify=0 turns it off; do_verify=1 is fio's default. */
static void t_verify(void)
{
	const struct job_def *d = one("[a]\nverify=md5\ndo_verify=1\n");

	if (d)
		CHECK(d->verify && JOB_SET(d, JOB_OPT_VERIFY));
	CHECK(strstr(t_warnings, "line 2, section [a]: verify=md5 is served by iobattery's "
				 "--verify: every block the run writes carries iobattery's header "
				 "and CRC32C (not fio's md5 header)") != NULL);
	d = one("[global]\nverify=crc32c-intel\n[a]\n");
	if (d)
		CHECK(d->verify);
	d = one("[global]\nverify=sha256\n[a]\nverify=0\n");
	if (d)
		CHECK(!d->verify);
	d = one("[a]\n");
	if (d)
		CHECK(!d->verify);
}

/* Whether job d sets engine option name to 1. */
static bool on(const struct job_def *d, const char *name)
{
	const char *v = job_def_eopt(d, name);

	return v && !strcmp(v, "1");
}

/* io_uring's options apply to io_uring jobs; inherited by another engine they drop;
 * invalidate and write_iolog are kept. */
static void t_engine_opts(void)
{
	const struct job_def *d;
	char err[512];

	d = one("[a]\nioengine=io_uring\nfixedbufs\nregisterfiles\nsqthread_poll=1\n"
		"sqthread_poll_cpu=1\nhipri\n");
	if (d) {
		CHECK(on(d, "fixedbufs") && on(d, "registerfiles") && on(d, "sqthread_poll") &&
		      on(d, "hipri"));
		CHECK(on(d, "sqthread_poll_cpu"));	/* =1 */
		CHECK(d->invalidate);
		CHECK(!d->write_iolog);
	}
	job_list_free(&t_list);
	CHECK(parse("[global]\nioengine=io_uring\nfixedbufs\n[r]\n[s]\nioengine=psync\n"
		    "invalidate=0\nwrite_iolog=s.log\n", 0, &t_list, err, sizeof(err)) == 0);
	if (t_list.njobs == 2) {
		CHECK(on(&t_list.jobs[0], "fixedbufs"));
		CHECK(!job_def_eopt(&t_list.jobs[1], "fixedbufs"));
		CHECK(!t_list.jobs[1].invalidate);
		CHECK_STR(t_list.jobs[1].write_iolog, "s.log");
	} else {
		CHECK(0);
	}
	CHECK_ERR("[a]\nioengine=libaio\nfixedbufs\n", "belongs to ioengine=io_uring");
}

int main(int argc, char **argv)
{
	if (argc == 3)
		return tool(argv[1], argv[2]);
	RUN(t_defaults);
	RUN(t_global_order);
	RUN(t_priority);
	RUN(t_errors);
	RUN(t_ignore_unknown);
	RUN(t_flags_and_modes);
	RUN(t_trim);
	RUN(t_comments);
	RUN(t_showcmd);
	RUN(t_argv);
	RUN(t_include);
	RUN(t_garbage);
	RUN(t_engine_opts);
	RUN(t_verify);
	job_list_free(&t_list);
	return test_done();
}
