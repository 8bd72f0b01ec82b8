/* t_job_xopts.c - the second job option table (job_opts_x.c): values as fio reads them
 * (buffer_pattern's parts, CPU lists, cpumask, gtod_reduce, continue_on_error, zones),
 * fio's defaults (scramble_buffers, clat_percentiles, thinktime_blocks), the refusals,
 * the data job_buf.c makes (pattern, zeros, compressible share) and the CPU-list parser
 * of core/affinity. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job_test.h"
#include "core/affinity.h"
#include "workload/job/job_buf.h"

static void t_defaults_x(void)
{
	const struct job_def *d = one("[a]\n");

	if (!d)
		return;
	CHECK(d->xo.scramble_buffers);
	CHECK(d->xo.clat_percentiles);
	CHECK(!d->xo.refill_buffers);
	CHECK_EQ_U64(d->xo.thinktime_blocks, 1);
	CHECK_EQ_U64(d->xo.io_size, 0);
	CHECK(d->xo.zonemode == JOB_ZONE_NONE);
	CHECK(d->xo.fileop == JOB_FOP_NONE);
}

static void t_values(void)
{
	const struct job_def *d = one("[a]\nbuffer_pattern=0xdeadbeef|'ab'|258\n"
				      "cpus_allowed=0-2,5\ncpus_allowed_policy=split\n"
				      "gtod_reduce=1\ncontinue_on_error=write\nio_limit=3m\n"
				      "zonemode=strided\nzonesize=128k\nthreads=1\n");

	if (!d)
		return;
	CHECK_EQ_U64(d->xo.npattern, 8);
	CHECK(!memcmp(d->xo.pattern, "\xde\xad\xbe\xef" "ab\x02\x01", 8));
	CHECK_STR(d->xo.cpus_allowed, "0-2,5");
	CHECK(d->xo.cpus_split);
	CHECK(d->xo.disable_clat && d->xo.disable_slat && d->xo.disable_lat);
	CHECK_EQ_U64(d->xo.continue_on_error, JOB_COE_WRITE);
	CHECK_EQ_U64(d->xo.io_size, 3u << 20);
	CHECK_EQ_U64(d->xo.zonerange, 128u << 10);	/* fio: zonerange defaults to zonesize */
	CHECK(d->thread);
	d = one("[a]\ncpumask=0x13\nbuffer_pattern=0xabc\n");
	if (!d)
		return;
	CHECK_STR(d->xo.cpus_allowed, "0,1,4");
	CHECK_EQ_U64(d->xo.npattern, 2);	/* an odd digit count: 0a bc */
	CHECK(d->xo.pattern[0] == 0x0a && d->xo.pattern[1] == 0xbc);
	/* cmdprio: per direction; the bssplit forms, the same list for writes when one */
	d = one("[a]\ncmdprio_percentage=20,30\ncmdprio_class=3\ncmdprio=5\n"
		"cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1m/0\n");
	if (!d)
		return;
	CHECK(d->xo.cmdprio.pct[0] == 20 && d->xo.cmdprio.pct[1] == 30);
	CHECK(d->xo.cmdprio.cls[1] == 3 && d->xo.cmdprio.lvl[0] == 5);
	CHECK(d->xo.cmdprio.nsplit[0] == 3 && d->xo.cmdprio.nsplit[1] == 3);
	CHECK(d->xo.cmdprio.split[1][1].bs == 65536 && d->xo.cmdprio.split[1][1].own &&
	      d->xo.cmdprio.split[1][1].cls == 3 && d->xo.cmdprio.split[1][1].lvl == 2);
	CHECK(d->xo.cmdprio.split[0][2].perc == 0 && !d->xo.cmdprio.split[0][2].own);
	d = one("[a]\nioengine=filestat\n");
	if (d)
		CHECK(d->xo.fileop == JOB_FOP_STAT);
	d = one("[global]\nioengine=filestat\n[a]\nioengine=libaio\n");
	if (d)
		CHECK(d->xo.fileop == JOB_FOP_NONE);	/* a later ioengine= undoes it */
}

static void t_refused(void)
{
	CHECK_ERR("[a]\nbuffer_pattern=0x\n", "0xHEX, 'text' or a decimal number");
	CHECK_ERR("[a]\ncpus_allowed=3-1\n", "a CPU list");
	CHECK_ERR("[a]\ncpus_allowed_policy=half\n", "shared or split");
	CHECK_ERR("[a]\nzonemode=zoned\n", "none, strided or zbd");
	CHECK_ERR("[a]\nzonemode=strided\nzonesize=1m\nzonerange=64k\n", "smaller than zonesize");
	CHECK_ERR("[a]\nwait_for=b\n", "no job before this one is called 'b'");
	CHECK_ERR("[a]\nrandom_generator=mt\n", "tausworthe, lfsr or tausworthe64");
	CHECK_ERR("[a]\nbuffer_compress_percentage=101\n", "at most 100");
	CHECK_ERR("[a]\nioengine=ftruncate\nrw=read\n", "truncates on writes only");
	CHECK_ERR("[a]\nioengine=filedelete\nfilename=x\n", "filename= is not allowed");
	CHECK_ERR("[a]\nnuma_mem_policy=prefer:1,2\n", "prefer takes one node");
	CHECK_ERR("[a]\ncmdprio_percentage=101\n", "each value from 0 to 100");
	CHECK_ERR("[a]\ncmdprio_class=4\n", "each value from 0 to 3");
	CHECK_ERR("[a]\ncmdprio_bssplit=4k/50/1\n", "BS/PERCENT or BS/PERCENT/CLASS/LEVEL");
	CHECK_ERR("[a]\ncmdprio_bssplit=4k/50/1/8\n", "class 0-3, level 0-7");
}

static void t_data(void)
{
	const struct job_def *d = one("[a]\nrw=write\nbuffer_pattern='xy'\n");
	unsigned char buf[4096];
	struct job_buf b;
	size_t i, zeros = 0;

	if (!d)
		return;
	job_buf_setup(&b, d, 1, buf, sizeof(buf));
	CHECK(b.fill == NULL);	/* a fixed pattern: nothing per write */
	CHECK(buf[0] == 'x' && buf[1] == 'y' && buf[4095] == 'y');
	d = one("[a]\nrw=write\nbuffer_compress_percentage=75\n");
	if (!d)
		return;
	job_buf_setup(&b, d, 1, buf, sizeof(buf));
	CHECK(b.fill != NULL);
	b.fill(&b, buf, sizeof(buf), 0);
	for (i = 0; i < sizeof(buf); i++)
		zeros += buf[i] == 0;
	CHECK(zeros >= 3072 && zeros < 3072 + 64);	/* the last quarter random */
	d = one("[a]\nrw=write\nzero_buffers\n");
	if (d) {
		job_buf_setup(&b, d, 1, buf, sizeof(buf));
		CHECK(b.fill == NULL && buf[100] == 0 && buf[4000] == 0);
	}
}

static void t_affinity_lists(void)
{
	char out[64];

	if (affinity_set("x", -1) == -ENOSYS)
		return;	/* not Linux: nothing to bind with */
	CHECK_EQ_U64(affinity_set("x", -1), -EINVAL);
	CHECK_EQ_U64(affinity_set("5-1", -1), -EINVAL);
	CHECK_EQ_U64(affinity_mempolicy("sometimes"), -EINVAL);
	CHECK(affinity_node_cpus("9999", out, sizeof(out)) < 0);
}

int main(void)
{
	RUN(t_defaults_x);
	RUN(t_values);
	RUN(t_refused);
	RUN(t_data);
	RUN(t_affinity_lists);
	job_list_free(&t_list);
	return test_done();
}
