/* t_job_units.c - the job parser's values: sizes with fio 3.33's suffixes, times,
 * bssplit, per-direction lists, percent sizes, ${VAR}, $ncpus and friends with bc's
 * arithmetic. */
#include "job_test.h"
#include "workload/job/job_int.h"	/* job_calc */

struct t_size {
	const char *s;
	unsigned kb_base;
	uint64_t v;
};

static void t_sizes(void)
{
	static const struct t_size ok[] = {
		{ "4096", 1024, 4096 }, { "4k", 1024, 4096 }, { "4K", 1024, 4096 },
		{ "4kb", 1024, 4096 }, { "4KB", 1024, 4096 }, { "4ki", 1024, 4096 },
		{ "4kib", 1024, 4000 }, { "4KiB", 1024, 4000 }, { "1m", 1024, 1048576 },
		{ "1mi", 1024, 1048576 }, { "1mib", 1024, 1000000 }, { "1MiB", 1024, 1000000 },
		{ "1g", 1024, 1ull << 30 }, { "1t", 1024, 1ull << 40 }, { "1p", 1024, 1ull << 50 },
		{ "2ti", 1024, 2ull << 40 }, { "1tib", 1024, 1000000000000ull },
		{ "0x1000", 1024, 4096 }, { "0XFF", 1024, 255 }, { "4096b", 1024, 4096 },
		{ "4096B", 1024, 4096 }, { " 8k", 1024, 8192 },
		{ "4k", 1000, 4000 }, { "4ki", 1000, 4000 }, { "4kib", 1000, 4096 },
		{ "1mib", 1000, 1048576 }, { "1m", 1000, 1000000 },
	};
	static const char *const bad[] = { "4q", "4kx", "4kibb", "1.5m", "-1", "k", "0x10k",
					   "0x", "99999999999999999999", "18446744073709551615k",
					   "4 k", "4e", "+4" };
	char text[128];
	unsigned i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const struct job_def *d;

		snprintf(text, sizeof(text), "[a]\nkb_base=%u\nfilesize=%s\n", ok[i].kb_base,
			 ok[i].s);
		d = one(text);
		if (d && d->filesize[0] != ok[i].v) {
			fprintf(stderr, "filesize=%s (kb_base %u) is %llu, not %llu\n", ok[i].s,
				ok[i].kb_base, (unsigned long long)d->filesize[0],
				(unsigned long long)ok[i].v);
			test_failed_checks++;
			test_failed_in_current++;
		}
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "[a]\nfilesize=%s\n", bad[i]);
		CHECK_ERR(text, "invalid 'filesize=");
	}
	CHECK_ERR("[a]\nsize=4q\n", "unknown size suffix 'q'");
	CHECK_ERR("[a]\nsize=1.5m\n", "not a whole number");
	/* counts take units too, as in fio */
	{
		const struct job_def *d = one("[a]\niodepth=1k\nnumber_ios=2k\n");

		if (d) {
			CHECK_EQ_U64(d->iodepth, 1024);
			CHECK_EQ_U64(d->number_ios, 2048);
		}
	}
}

static void t_times(void)
{
	static const struct {
		const char *opt, *v;
		uint64_t us;
	} ok[] = {
		{ "runtime", "10", 10000000 }, { "runtime", "10s", 10000000 },
		{ "runtime", "500ms", 500000 }, { "runtime", "500msec", 500000 },
		{ "runtime", "2m", 120000000 }, { "runtime", "1h", 3600000000ull },
		{ "runtime", "1D", 86400000000ull }, { "runtime", "100us", 100 },
		{ "timeout", "5usec", 5 }, { "ramp_time", "3", 3000000 },
		{ "thinktime", "5", 5 }, { "thinktime", "5ms", 5000 },
	};
	static const char *const bad[] = { "10sec", "10x", "1.5s", "-1", "s", "0x10", "10 s" };
	char text[128];
	unsigned i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const struct job_def *d;
		uint64_t got;

		snprintf(text, sizeof(text), "[a]\n%s=%s\n", ok[i].opt, ok[i].v);
		d = one(text);
		if (!d)
			continue;
		got = ok[i].opt[0] == 'r' && ok[i].opt[1] == 'a' ? d->ramp_time :
		      ok[i].opt[0] == 't' && ok[i].opt[1] == 'h' ? d->thinktime : d->runtime;
		if (got != ok[i].us) {
			fprintf(stderr, "%s=%s is %llu us, not %llu\n", ok[i].opt, ok[i].v,
				(unsigned long long)got, (unsigned long long)ok[i].us);
			test_failed_checks++;
			test_failed_in_current++;
		}
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "[a]\nruntime=%s\n", bad[i]);
		CHECK_ERR(text, "invalid 'runtime=");
	}
	CHECK_ERR("[a]\nruntime=10sec\n", "write 's'");
	CHECK_ERR("[a]\nthinktime=5000s\n", "must be at most 4294967295");
	{
		const struct job_def *d = one("[a]\nstartdelay=1-3\n");

		if (d) {
			CHECK_EQ_U64(d->startdelay[0], 1000000);
			CHECK_EQ_U64(d->startdelay[1], 3000000);
		}
	}
}

static void t_bssplit(void)
{
	const struct job_def *d = one("[a]\nrw=randrw\nbssplit=4k/10:64k/50:32k/40\n");

	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].nsplit, 3);
		CHECK_EQ_U64(d->bs[JOB_READ].split[1].bs, 65536);
		CHECK_EQ_U64(d->bs[JOB_READ].split[1].perc, 50);
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_READ].max, 65536);
		CHECK_EQ_U64(d->bs[JOB_WRITE].nsplit, 3);
	}
	d = one("[a]\nbssplit=4k/50:16k/30:64k/\n");	/* a blank share: the rest */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_READ].split[2].perc, 20);
	d = one("[a]\nbssplit=1k:2k:4k\n");		/* all blank: 34 33 33 */
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].split[0].perc, 34);
		CHECK_EQ_U64(d->bs[JOB_READ].split[1].perc, 33);
		CHECK_EQ_U64(d->bs[JOB_READ].split[2].perc, 33);
	}
	d = one("[a]\nbssplit=4k/0:8k/60\n");		/* /0 is blank, as in fio */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_READ].split[0].perc, 40);
	d = one("[a]\nrw=randrw\nbssplit=4k/25:8k/75,64k\n");	/* read, write */
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].nsplit, 2);
		CHECK_EQ_U64(d->bs[JOB_WRITE].nsplit, 1);
		CHECK_EQ_U64(d->bs[JOB_WRITE].split[0].perc, 100);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 65536);
	}
	d = one("[a]\nrw=randrw\nbssplit=,64k/100\n");	/* reads keep bs */
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].nsplit, 0);
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 65536);
	}
	CHECK_ERR("[a]\nbssplit=4k/50:8k/60\n", "add up to 110%");
	CHECK_ERR("[a]\nbssplit=4k/10:64k/50\n", "add up to 60%, not 100%");
	CHECK_ERR("[a]\nbssplit=4k/50:8k/50:16k\n", "nothing is left");
	CHECK_ERR("[a]\nbssplit=4k/101\n", "a share must be a percentage");
	CHECK_ERR("[a]\nbssplit=0/100\n", "at least 1");
	CHECK_ERR("[a]\nbssplit=4k/100,8k/100,16k/100,32k/100\n", "at most three");
	{
		char text[2048];
		size_t n = 0;
		int i;

		n += (size_t)snprintf(text + n, sizeof(text) - n, "[a]\nbssplit=");
		for (i = 1; i <= 65; i++)
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%dk%s", i,
					      i < 65 ? ":" : "\n");
		CHECK_ERR(text, "at most 64 entries");
		text[strlen(text) - 5] = '\n';	/* cut ":65k": 64 entries */
		text[strlen(text) - 4] = '\0';
		d = one(text);
		if (d)
			CHECK_EQ_U64(d->bs[JOB_READ].nsplit, 64);
	}
}

static void t_perdir(void)
{
	const struct job_def *d = one("[a]\nrw=randrw\nbs=4k,16k\n");

	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 16384);
	}
	d = one("[a]\nrw=randrw\nbs=8k:16k\n");		/* ':' and '-' separate too */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 16384);
	d = one("[a]\nrw=randrw\nbs=8k-16k\n");
	if (d)
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 16384);
	d = one("[a]\nrw=randrw\nbs=,8k\n");		/* write only */
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 8192);
	}
	d = one("[a]\nrw=randrw\nbs=8k,\n");		/* read only (fio) */
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 8192);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 4096);
	}
	d = one("[a]\nrw=randrw\nbsrange=4k-16k,32k:8k\n");
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
		CHECK_EQ_U64(d->bs[JOB_READ].max, 16384);
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 8192);	/* swapped, as fio */
		CHECK_EQ_U64(d->bs[JOB_WRITE].max, 32768);
	}
	d = one("[a]\nrate=1m,500k\n");
	if (d) {
		CHECK_EQ_U64(d->rate[JOB_READ], 1048576);
		CHECK_EQ_U64(d->rate[JOB_WRITE], 512000);
	}
	d = one("[a]\nrate_iops=100,50\nrate_process=poisson\n");
	if (d) {
		CHECK_EQ_U64(d->rate_iops[JOB_READ], 100);
		CHECK_EQ_U64(d->rate_iops[JOB_WRITE], 50);
		CHECK(d->rate_process == JOB_RATE_POISSON);
	}
	CHECK_ERR("[a]\nbs=4k,8k,16k,32k\n", "at most three values");
	CHECK_ERR("[a]\nbs=,\n", "a value is required");
	CHECK_ERR("[a]\nrate=1m\nrate_iops=10\n", "rate and rate_iops exclude each other");
}

static void t_percent(void)
{
	const struct job_def *d = one("[a]\nsize=50%\noffset=10%\n");

	if (d) {
		CHECK_EQ_U64(d->size, 0);
		CHECK_EQ_U64(d->size_pct, 50);
		CHECK_EQ_U64(d->offset_pct, 10);
	}
	d = one("[a]\nsize=4m\noffset=1m\n");
	if (d) {
		CHECK_EQ_U64(d->size, 4194304);
		CHECK_EQ_U64(d->size_pct, 0);
		CHECK_EQ_U64(d->offset, 1048576);
	}
	CHECK_ERR("[a]\nsize=0%\n", "1% to 100%");
	CHECK_ERR("[a]\nsize=101%\n", "0% to 100%");
	CHECK_ERR("[a]\nbs=50%\n", "a percentage is not allowed here");
	CHECK_ERR("[a]\nsize=10z\n", "zonemode");
	CHECK_ERR("[a]\nbs=8k\nsize=4k\n", "size=4096 is smaller than the block size 8192");
}

static void t_env(void)
{
	const struct job_def *d;

	setenv("IOB_T_BS", "16k", 1);
	setenv("IOB_T_OPT", "iodepth", 1);
	unsetenv("IOB_T_UNSET");
	d = one("[a]\nbs=${IOB_T_BS}\n${IOB_T_OPT}=4\ndescription=x${IOB_T_UNSET}y\n");
	if (d) {
		CHECK_EQ_U64(d->bs[JOB_READ].min, 16384);
		CHECK_EQ_U64(d->iodepth, 4);
		CHECK_STR(d->description, "xy");
		CHECK_STR(t_list.sects[0].opts[0].value, "16k");	/* substituted */
	}
	CHECK_ERR("[a]\nbs=${IOB_T_UNSET}\n", "invalid 'bs=': a value is required");
	d = one("[a]\ndescription=${IOB_T_BS\n");	/* no '}': kept as written */
	if (d)
		CHECK_STR(d->description, "${IOB_T_BS");
	unsetenv("IOB_T_BS");
	unsetenv("IOB_T_OPT");
}

static void t_keywords(void)
{
	const struct job_def *d = one("[a]\nnumjobs=$ncpus\niodepth=$ncpus*2\n"
				      "size=$pagesize*256\nfilesize=$mb_memory/4\n"
				      "thinktime=$ncpus\n");
	int64_t v;

	if (d) {
		CHECK_EQ_U64(d->numjobs, 3);
		CHECK_EQ_U64(d->iodepth, 6);
		CHECK_EQ_U64(d->size, 1048576);
		CHECK_EQ_U64(d->filesize[0], 250);
		CHECK_EQ_U64(d->thinktime, 3);
		CHECK_STR(t_list.sects[0].opts[1].value, "6");
	}
	d = one("[a]\nbs=$pagesize\n");		/* no operator: no arithmetic */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_READ].min, 4096);
	d = one("[a]\nbs=${X}4k-8k\nrw=randrw\n");	/* no keyword: no arithmetic */
	if (d)
		CHECK_EQ_U64(d->bs[JOB_WRITE].min, 8192);
	CHECK_ERR("[a]\niodepth=$ncpus*x\n", "cannot evaluate '3*x'");
	CHECK_ERR("[a]\niodepth=$ncpus/0\n", "cannot evaluate");
	v = 0;
	CHECK(job_calc("1+2*3", &v) == 0 && v == 7);
}

/* bc's integer arithmetic, which fio uses for keyword values */
static void t_calc(void)
{
	static const struct {
		const char *e;
		int64_t v;
	} ok[] = {
		{ "1+2*3", 7 }, { "(1+2)*3", 9 }, { "7/2", 3 }, { "-7/2", -3 }, { "7%3", 1 },
		{ "2^10", 1024 }, { "-2^2", 4 }, { "2^3^2", 512 }, { " 4096 * 256 ", 1048576 },
		{ "10-2-3", 5 }, { "1^100000000000", 1 }, { "0^5", 0 }, { "2^-1", 0 },
		{ "9223372036854775807", INT64_MAX },
	};
	static const char *const bad[] = { "1/0", "2*", "", "(1", "1)", "2x",
		"9223372036854775807+1",
					   "3037000500*3037000500", "2^64", "1%0" };
	unsigned i;
	int64_t v;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = -12345;
		if (job_calc(ok[i].e, &v) || v != ok[i].v) {
			fprintf(stderr, "calc '%s' = %lld, not %lld\n", ok[i].e, (long long)v,
				(long long)ok[i].v);
			test_failed_checks++;
			test_failed_in_current++;
		}
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(job_calc(bad[i], &v) == -EINVAL);
}

int main(void)
{
	RUN(t_sizes);
	RUN(t_times);
	RUN(t_bssplit);
	RUN(t_perdir);
	RUN(t_percent);
	RUN(t_env);
	RUN(t_keywords);
	RUN(t_calc);
	job_list_free(&t_list);
	return test_done();
}
