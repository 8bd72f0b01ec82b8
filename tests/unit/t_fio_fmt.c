/* t_fio_fmt.c - fio's number shortening (against what fio 3.33 prints), the device
 * signatures that stop --destroy-data-on, the merge of job threads' figures. */
#include <stdlib.h>
#include <string.h>

#include "fs/devsafe.h"
#include "output/fio_fmt.h"
#include "test.h"
#include "workload/job/job_run.h"

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) { \
		fprintf(stderr, "%s:%d: '%s' != '%s'\n", __FILE__, __LINE__, \
			a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

static void t_num(void)
{
	char b[32];

	/* fio 3.33's lines: IOPS=12.5k, IOPS=1613k, IOPS=9660, BW=48.8MiB/s (51.1MB/s),
	 * max=8085.7k, max=13906k, io=4096KiB (4194kB), io=6325MiB (6632MB) */
	CHECK_STR(fio_num(b, sizeof(b), 12466, 4, 0, ""), "12.5k");
	CHECK_STR(fio_num(b, sizeof(b), 1612744, 4, 0, ""), "1613k");
	CHECK_STR(fio_num(b, sizeof(b), 9660, 4, 0, ""), "9660");
	CHECK_STR(fio_num(b, sizeof(b), 51118280, 4, 1, "B/s"), "48.8MiB/s");
	CHECK_STR(fio_num(b, sizeof(b), 51118280, 4, 0, "B/s"), "51.1MB/s");
	CHECK_STR(fio_num(b, sizeof(b), 8085709, 6, 0, ""), "8085.7k");
	CHECK_STR(fio_num(b, sizeof(b), 13906334, 6, 0, ""), "13906k");
	CHECK_STR(fio_num(b, sizeof(b), 4194304, 4, 1, "B"), "4096KiB");
	CHECK_STR(fio_num(b, sizeof(b), 4194304, 4, 0, "B"), "4194kB");
	CHECK_STR(fio_num(b, sizeof(b), 6632222720.0, 4, 1, "B"), "6325MiB");
	CHECK_STR(fio_num(b, sizeof(b), 6632222720.0, 4, 0, "B"), "6632MB");
	CHECK_STR(fio_num(b, sizeof(b), 0, 4, 0, ""), "0");
	/* a carry into the next digit: 99.96k shown in 4 places */
	CHECK_STR(fio_num(b, sizeof(b), 99960, 4, 0, ""), "100.0k");
}

static void t_signatures(void)
{
	unsigned char *b = calloc(1, DEVSAFE_PROBE_BYTES);

	if (!b) {
		CHECK(0);
		return;
	}
	CHECK(devsafe_signature(b, DEVSAFE_PROBE_BYTES) == NULL);
	b[1080] = 0x53;
	b[1081] = 0xEF;
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "ext2/3/4");
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b, "XFSB", 4);
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "xfs");
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b + 65536 + 64, "_BHRfS_M", 8);
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "btrfs");
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b + 4096 - 10, "SWAPSPACE2", 10);
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "swap");
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b + 512, "LABELONE", 8);
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "LVM2 physical volume");
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b + 512, "EFI PART", 8);
	b[510] = 0x55;
	b[511] = 0xAA;
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "GPT partition table");
	memset(b + 512, 0, 8);
	CHECK_STR(devsafe_signature(b, DEVSAFE_PROBE_BYTES), "MBR partition table or boot sector");
	/* a short read cannot see a signature beyond it */
	memset(b, 0, DEVSAFE_PROBE_BYTES);
	memcpy(b + 65536 + 64, "_BHRfS_M", 8);
	CHECK(devsafe_signature(b, 4096) == NULL);
	free(b);
}

static void t_merge(void)
{
	struct job_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *u = malloc(sizeof(*u));

	if (!a || !b || !u) {
		CHECK(0);
		goto out;
	}
	job_stats_init(a);
	job_stats_init(b);
	job_stats_init(u);
	a->nthreads = b->nthreads = 1;
	a->ios[JOB_READ] = 10;
	a->bytes[JOB_READ] = 40960;
	b->ios[JOB_READ] = 5;
	b->bytes[JOB_READ] = 20480;
	a->t_start = 100;
	a->t_stop = 1000;
	b->t_start = 50;
	b->t_stop = 900;
	a->rt_sum_ns = a->rt_min_ns = a->rt_max_ns = 900;
	b->rt_sum_ns = b->rt_min_ns = b->rt_max_ns = 850;
	hist_add(&a->clat[JOB_READ], 100);
	hist_add(&b->clat[JOB_READ], 300);
	job_lsum_add(&a->lat[JOB_READ], 7);
	job_lsum_add(&b->lat[JOB_READ], 3);
	a->samp = calloc(2, sizeof(*a->samp));
	b->samp = calloc(1, sizeof(*b->samp));
	if (!a->samp || !b->samp) {
		CHECK(0);
		goto out;
	}
	a->nsamp = 2;
	a->samp[0].bytes[JOB_READ] = 4096;
	a->samp[1].bytes[JOB_READ] = 8192;
	b->nsamp = 1;
	b->samp[0].bytes[JOB_READ] = 1000;
	CHECK(job_merge(u, a) == 0);
	CHECK(job_merge(u, b) == 0);
	CHECK_EQ_U64(u->nthreads, 2);
	CHECK_EQ_U64(u->ios[JOB_READ], 15);
	CHECK_EQ_U64(u->bytes[JOB_READ], 61440);
	CHECK_EQ_U64(u->t_start, 50);
	CHECK_EQ_U64(u->t_stop, 1000);
	CHECK_EQ_U64(u->rt_sum_ns, 1750);
	CHECK_EQ_U64(u->rt_min_ns, 850);
	CHECK_EQ_U64(u->rt_max_ns, 900);
	CHECK_EQ_U64(u->clat[JOB_READ].n, 2);
	CHECK_EQ_U64(u->clat[JOB_READ].max, 300);
	CHECK_EQ_U64(u->lat[JOB_READ].min, 3);
	CHECK_EQ_U64(u->lat[JOB_READ].max, 7);
	/* samples add by interval; the thread that ended keeps its last count */
	CHECK_EQ_U64(u->nsamp, 2);
	CHECK_EQ_U64(u->samp[0].bytes[JOB_READ], 5096);
	CHECK_EQ_U64(u->samp[1].bytes[JOB_READ], 9192);
out:
	if (a)
		job_stats_free(a);
	if (b)
		job_stats_free(b);
	if (u)
		job_stats_free(u);
	free(a);
	free(b);
	free(u);
}

int main(void)
{
	RUN(t_num);
	RUN(t_signatures);
	RUN(t_merge);
	return test_done();
}
