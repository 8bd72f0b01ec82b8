/* t_job_gen.c - what the job's I/O loop draws: block sizes (bs, bsrange, bssplit per
 * direction), the read/write mix, random blocks (the random map, zipf against its
 * formula, pareto's 80/20, fio's normal, zoned). Fixed seeds: every figure here is the
 * same on every run, and the tolerances are many standard deviations wide. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "workload/job/job.h"

static struct job_list t_list;

static void t_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static const struct job_def *job(const char *text)
{
	char err[512];

	job_list_free(&t_list);
	job_list_init(&t_list);
	t_list.ctx.flags = JOB_PARSE_NO_INCLUDE;
	t_list.ctx.warn = t_quiet;
	if (job_parse_buf(text, strlen(text), "g.fio", &t_list, err, sizeof(err)) ||
	    t_list.njobs != 1) {
		fprintf(stderr, "parse of <%s> failed: %s\n", text, err);
		test_failed_checks++;
		test_failed_in_current++;
		return NULL;
	}
	return &t_list.jobs[0];
}

static void t_bs_fixed_and_range(void)
{
	const struct job_def *d = job("[a]\nbs=8k\n");
	unsigned cnt[17] = { 0 }, i;
	struct rng r;

	rng_seed(&r, 1);
	if (d)
		for (i = 0; i < 1000; i++)
			CHECK_EQ_U64(job_bs_pick(&d->bs[JOB_READ], rng_next(&r)), 8192);
	d = job("[a]\nbsrange=4k-64k\n");
	if (!d)
		return;
	for (i = 0; i < 160000; i++) {
		uint64_t b = job_bs_pick(&d->bs[JOB_READ], rng_next(&r));

		CHECK(b >= 4096 && b <= 65536 && b % 4096 == 0);
		if (b % 4096 == 0 && b <= 65536)
			cnt[b / 4096]++;
	}
	/* uniform over the 16 multiples of 4k: 10000 each, sd 97 */
	for (i = 1; i <= 16; i++)
		CHECK(cnt[i] > 9500 && cnt[i] < 10500);
	CHECK_EQ_U64(job_bs_pick(&d->bs[JOB_READ], 0), 4096);
	CHECK_EQ_U64(job_bs_pick(&d->bs[JOB_READ], UINT64_MAX), 65536);
	/* a range whose top is not a multiple of the bottom: multiples of the bottom,
	 * or the top itself (fio caps there) */
	d = job("[a]\nbsrange=3k-10k\n");
	if (d) {
		unsigned top = 0;

		for (i = 0; i < 10000; i++) {
			uint64_t b = job_bs_pick(&d->bs[JOB_READ], rng_next(&r));

			CHECK(b >= 3072 && b <= 10240 && (b % 3072 == 0 || b == 10240));
			top += b == 10240;
		}
		CHECK(top > 0);
	}
}

static void t_bssplit(void)
{
	const struct job_def *d = job("[a]\nrw=randrw\nbssplit=4k/10:64k/50:32k/40,8k/70:16k/\n");
	unsigned long r4 = 0, r32 = 0, r64 = 0, w8 = 0, w16 = 0, i, n = 100000;
	struct rng r;

	if (!d)
		return;
	rng_seed(&r, 2);
	for (i = 0; i < n; i++) {
		uint64_t b = job_bs_pick(&d->bs[JOB_READ], rng_next(&r));

		r4 += b == 4096;
		r32 += b == 32768;
		r64 += b == 65536;
		b = job_bs_pick(&d->bs[JOB_WRITE], rng_next(&r));
		w8 += b == 8192;
		w16 += b == 16384;
	}
	CHECK_EQ_U64(r4 + r32 + r64, n);
	CHECK_EQ_U64(w8 + w16, n);
	/* shares within 1% (sd at most 0.16%) */
	CHECK_NEAR(r4 / (double)n, 0.10, 0.01);
	CHECK_NEAR(r64 / (double)n, 0.50, 0.01);
	CHECK_NEAR(r32 / (double)n, 0.40, 0.01);
	CHECK_NEAR(w8 / (double)n, 0.70, 0.01);
	CHECK_NEAR(w16 / (double)n, 0.30, 0.01);
	/* fio rounds a split size down to a multiple of the smallest: 6k becomes 4k */
	d = job("[a]\nbssplit=4k/50:6k/50\n");
	if (d)
		for (i = 0; i < 1000; i++)
			CHECK_EQ_U64(job_bs_pick(&d->bs[JOB_READ], rng_next(&r)), 4096);
}

static void t_bs_room(void)
{
	const struct job_def *d = job("[a]\nbssplit=4k/20:64k/80\n");
	struct rng r;
	unsigned i, small = 0;

	if (!d)
		return;
	rng_seed(&r, 3);
	CHECK_EQ_U64(job_bs_next(&d->bs[JOB_READ], &r, 4095), 0);
	for (i = 0; i < 1000; i++) {
		uint64_t b = job_bs_next(&d->bs[JOB_READ], &r, 32768);

		CHECK_EQ_U64(b, 4096);	/* 64k never fits in 32k */
		b = job_bs_next(&d->bs[JOB_READ], &r, 1 << 20);
		CHECK(b == 4096 || b == 65536);
		small += b == 4096;
	}
	CHECK(small > 100 && small < 300);	/* the shares are kept when all fit */
	d = job("[a]\nbsrange=4k-64k\n");
	if (d)
		for (i = 0; i < 1000; i++) {
			uint64_t b = job_bs_next(&d->bs[JOB_READ], &r, 10000);

			CHECK(b == 4096 || b == 8192);
		}
}

static void t_rwmix(void)
{
	const struct job_def *d = job("[a]\nrw=randrw\nrwmixread=70\n");
	unsigned long reads = 0, i, n = 100000;
	enum job_ddir first[64];
	struct rng r;

	if (!d)
		return;
	rng_seed(&r, 70);
	for (i = 0; i < n; i++) {
		enum job_ddir dd = job_ddir_next(d, &r);

		if (i < 64)
			first[i] = dd;
		reads += dd == JOB_READ;
	}
	CHECK_NEAR(reads / (double)n, 0.70, 0.02);
	/* the same seed gives the same sequence */
	rng_seed(&r, 70);
	for (i = 0; i < 64; i++)
		CHECK(job_ddir_next(d, &r) == first[i]);
	d = job("[a]\nrw=randwrite\n");
	if (d)
		for (i = 0; i < 100; i++)
			CHECK(job_ddir_next(d, &r) == JOB_WRITE);
	d = job("[a]\nrw=rw\nrwmixwrite=100\n");
	if (d)
		for (i = 0; i < 100; i++)
			CHECK(job_ddir_next(d, &r) == JOB_WRITE);
	CHECK(job_rw_reads(JOB_RW_RW) && job_rw_writes(JOB_RW_RW) && !job_rw_random(JOB_RW_RW));
	CHECK(job_rw_random(JOB_RW_RANDREAD) && !job_rw_writes(JOB_RW_RANDREAD));
}

static void t_blocks(void)
{
	struct job_bs b = { 4096, 4096, 4096, 0, { { 0, 0 } } };

	CHECK_EQ_U64(job_rand_blocks(&b, 1 << 20), 256);
	b.ba = 512;	/* the last block still holds a whole 4k I/O */
	CHECK_EQ_U64(job_rand_blocks(&b, 1 << 20), 2041);
	CHECK_EQ_U64(job_rand_blocks(&b, 3584), 0);
	b.ba = 4096;
	CHECK_EQ_U64(job_rand_blocks(&b, 4095), 0);
}

/* Every n from 1 to 300 and a few large ones: a permutation of [0, n). */
static void t_perm(void)
{
	static unsigned char seen[70000];
	static const uint64_t big[] = { 1000, 4096, 4097, 65535, 65536, 69999 };
	struct job_perm p;
	struct rng r;
	uint64_t n, x;
	unsigned i;

	rng_seed(&r, 4);
	for (n = 1; n <= 300 + sizeof(big) / sizeof(big[0]); n++) {
		uint64_t m = n <= 300 ? n : big[n - 301];
		int ok = 1;

		job_perm_init(&p, m, &r);
		memset(seen, 0, m);
		for (x = 0; x < m; x++) {
			uint64_t y = job_perm_apply(&p, x);

			if (y >= m || seen[y])
				ok = 0;
			else
				seen[y] = 1;
		}
		if (!ok) {
			fprintf(stderr, "not a permutation of [0, %llu)\n", (unsigned long long)m);
			test_failed_checks++;
			test_failed_in_current++;
		}
	}
	/* not the identity, nor the same for two keys */
	job_perm_init(&p, 1000, &r);
	for (i = 0, x = 0; i < 1000; i++)
		x += job_perm_apply(&p, i) == i;
	CHECK(x < 20);
}

/* norandommap off: each block exactly once per pass, a new order each pass */
static void t_random_map(void)
{
	const struct job_def *d = job("[a]\nrw=randread\n");
	static uint64_t order[2][1000];
	unsigned char seen[1000];
	struct job_offgen g;
	unsigned pass, i, same = 0, seq = 0;
	struct rng r;

	if (!d)
		return;
	rng_seed(&r, 5);
	CHECK_EQ_U64(job_offgen_init(&g, d, JOB_READ, 1000, &r), 0);
	CHECK(g.map);
	for (pass = 0; pass < 2; pass++) {
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < 1000; i++) {
			uint64_t b = job_offgen_next(&g, &r);

			CHECK(b < 1000);
			if (b < 1000) {
				CHECK(!seen[b]);
				seen[b] = 1;
			}
			order[pass][i] = b;
		}
	}
	CHECK_EQ_U64(g.pass, 1);
	for (i = 0; i < 1000; i++) {
		same += order[0][i] == order[1][i];
		seq += i && order[0][i] == order[0][i - 1] + 1;
	}
	CHECK(same < 20);
	CHECK(seq < 20);
	/* tiny files */
	for (i = 1; i <= 3; i++) {
		unsigned k, mask = 0;

		CHECK_EQ_U64(job_offgen_init(&g, d, JOB_READ, i, &r), 0);
		for (k = 0; k < i; k++)
			mask |= 1u << job_offgen_next(&g, &r);
		CHECK_EQ_U64(mask, (1u << i) - 1);
	}
	CHECK_EQ_U64(job_offgen_init(&g, d, JOB_READ, 0, &r), -EINVAL);
	/* norandommap: plain uniform draws, which repeat */
	d = job("[a]\nrw=randread\nnorandommap\n");
	if (d) {
		unsigned rep = 0;

		CHECK_EQ_U64(job_offgen_init(&g, d, JOB_READ, 1000, &r), 0);
		CHECK(!g.map);
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < 1000; i++) {
			uint64_t b = job_offgen_next(&g, &r);

			CHECK(b < 1000);
			if (b < 1000) {
				rep += seen[b];
				seen[b] = 1;
			}
		}
		/* 1000 draws of 1000: about 368 repeats */
		CHECK(rep > 300 && rep < 440);
	}
}

/* H(k, theta) = sum of i^-theta for i = 1..k */
static double harmonic(uint64_t k, double theta)
{
	double s = 0;
	uint64_t i;

	for (i = k; i >= 1; i--)
		s += pow((double)i, -theta);
	return s;
}

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Zipf: the share of the hottest K blocks is H(K)/H(n), exactly (rejection-inversion
 * samples the true distribution). Checked on ranks (no scattering) and on blocks. */
static void t_zipf(void)
{
	static const double thetas[] = { 0.8, 1.2 };
	static unsigned cnt[10000];
	const uint64_t n = 10000, draws = 200000;
	unsigned t, i;
	struct rng r;

	rng_seed(&r, 6);
	for (t = 0; t < 2; t++) {
		char text[128];
		const struct job_def *d;
		struct job_offgen g;
		static const uint64_t ks[] = { 1, 2, 10, 100, 1000 };
		uint64_t k;

		snprintf(text, sizeof(text), "[a]\nrw=randread\nrandom_distribution=zipf:%g:0\n",
			 thetas[t]);
		d = job(text);
		if (!d || job_offgen_init(&g, d, JOB_READ, n, &r))
			continue;
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < draws; i++) {
			uint64_t b = job_offgen_next(&g, &r);	/* center 0: block = rank */

			CHECK(b < n);
			if (b < n)
				cnt[b]++;
		}
		for (k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
			double want = harmonic(ks[k], thetas[t]) / harmonic(n, thetas[t]), got = 0;

			for (i = 0; i < ks[k]; i++)
				got += cnt[i];
			got /= (double)draws;
			/* sd of a share p over 200k draws is under 0.0012 */
			if (fabs(got - want) > 0.006) {
				fprintf(stderr, "zipf %g: top %llu share %.4f, formula %.4f\n",
					thetas[t], (unsigned long long)ks[k], got, want);
				test_failed_checks++;
				test_failed_in_current++;
			}
		}
		/* scattered over the file (no center): the hottest blocks by count hold
		 * the same share */
		snprintf(text, sizeof(text), "[a]\nrw=randread\nrandom_distribution=zipf:%g\n",
			 thetas[t]);
		d = job(text);
		if (!d || job_offgen_init(&g, d, JOB_READ, n, &r))
			continue;
		CHECK(g.scatter);
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < draws; i++)
			cnt[job_offgen_next(&g, &r)]++;
		{
			double want = harmonic(10, thetas[t]) / harmonic(n, thetas[t]), got = 0;
			uint64_t hot = 0;

			for (i = 0; i < n; i++)	/* the hottest block is not block 0 */
				if (cnt[i] > cnt[hot])
					hot = i;
			qsort(cnt, n, sizeof(cnt[0]), cmp_desc);
			for (i = 0; i < 10; i++)
				got += cnt[i];
			CHECK_NEAR(got / (double)draws, want, 0.006);
			CHECK(hot != 0);
		}
	}
}

/* pareto:h puts a share 1-h of the draws on the hottest h of the ranks (80/20). */
static void t_pareto(void)
{
	const struct job_def *d = job("[a]\nrw=randread\nrandom_distribution=pareto:0.2\n");
	const uint64_t n = 10000, draws = 100000;
	struct job_offgen g;
	unsigned long hot = 0, i;
	struct rng r;

	rng_seed(&r, 7);
	if (!d || job_offgen_init(&g, d, JOB_READ, n, &r))
		return;
	for (i = 0; i < draws; i++) {
		uint64_t k = job_offgen_rank(&g, &r);

		CHECK(k < n);
		hot += k < n / 5;
	}
	CHECK_NEAR(hot / (double)draws, 0.80, 0.01);
	for (i = 0; i < 1000; i++)
		CHECK(job_offgen_next(&g, &r) < n);
}

/* fio's normal: the mean of 12 uniform draws, centred on the middle, sd n/12 when the
 * deviation is 0; normal:10 widens it by a uniform deviation of width 10% of n. */
static void t_normal(void)
{
	static const struct {
		const char *spec;
		double sd;
	} cases[] = {
		{ "normal", 1.0 / 12 },
		{ "normal:10", 0.0881917104 },	/* sqrt(1/144 + 0.1^2/12) */
	};
	const uint64_t n = 100000, draws = 100000;
	unsigned c, i;
	struct rng r;

	rng_seed(&r, 8);
	for (c = 0; c < 2; c++) {
		char text[128];
		const struct job_def *d;
		struct job_offgen g;
		double sum = 0, sq = 0, mean, sd;

		snprintf(text, sizeof(text), "[a]\nrw=randread\nrandom_distribution=%s\n",
			 cases[c].spec);
		d = job(text);
		if (!d || job_offgen_init(&g, d, JOB_READ, n, &r))
			continue;
		for (i = 0; i < draws; i++) {
			double x = (double)job_offgen_rank(&g, &r) / (double)n;

			sum += x;
			sq += x * x;
		}
		mean = sum / draws;
		sd = sqrt(sq / draws - mean * mean);
		CHECK_NEAR(mean, 0.5, 0.002);
		CHECK_NEAR(sd, cases[c].sd, 0.002);
		for (i = 0; i < 1000; i++)
			CHECK(job_offgen_next(&g, &r) < n);
	}
	/* a center moves the peak there, unscattered */
	{
		const struct job_def *d =
			job("[a]\nrw=randread\nrandom_distribution=normal:0:0.25\n");
		struct job_offgen g;
		unsigned long near = 0;

		if (!d || job_offgen_init(&g, d, JOB_READ, n, &r))
			return;
		for (i = 0; i < draws; i++) {
			uint64_t b = job_offgen_next(&g, &r);

			near += b >= n / 4 - n / 12 && b < n / 4 + n / 12;
		}
		CHECK_NEAR(near / (double)draws, 0.68, 0.02);	/* about one sd each side */
	}
}

/* zoned:60/10:30/20:8/30:2/40: 60% of the draws in the first 10% of the blocks, ... */
static void t_zoned(void)
{
	const struct job_def *d =
		job("[a]\nrw=randread\nrandom_distribution=zoned:60/10:30/20:8/30:2/40\n");
	static const double share[] = { 0.60, 0.30, 0.08, 0.02 };
	static const uint64_t edge[] = { 0, 1000, 3000, 6000, 10000 };
	unsigned long cnt[4] = { 0 }, i, z;
	const uint64_t n = 10000, draws = 100000;
	struct job_offgen g;
	struct rng r;

	rng_seed(&r, 9);
	if (!d || job_offgen_init(&g, d, JOB_WRITE, n, &r))
		return;
	for (i = 0; i < draws; i++) {
		uint64_t b = job_offgen_next(&g, &r);

		CHECK(b < n);
		for (z = 0; z < 4; z++)
			if (b >= edge[z] && b < edge[z + 1])
				cnt[z]++;
	}
	for (z = 0; z < 4; z++)
		CHECK_NEAR(cnt[z] / (double)draws, share[z], 0.01);
	/* within a zone, uniform: both halves of the first zone about equal */
	{
		unsigned long lo = 0, hi = 0;

		for (i = 0; i < draws; i++) {
			uint64_t b = job_offgen_next(&g, &r);

			lo += b < 500;
			hi += b >= 500 && b < 1000;
		}
		CHECK_NEAR(lo / (double)(lo + hi), 0.5, 0.02);
	}
	/* fewer blocks than zones: still inside */
	CHECK_EQ_U64(job_offgen_init(&g, d, JOB_READ, 3, &r), 0);
	for (i = 0; i < 1000; i++)
		CHECK(job_offgen_next(&g, &r) < 3);
}

int main(void)
{
	RUN(t_bs_fixed_and_range);
	RUN(t_bssplit);
	RUN(t_bs_room);
	RUN(t_rwmix);
	RUN(t_blocks);
	RUN(t_perm);
	RUN(t_random_map);
	RUN(t_zipf);
	RUN(t_pareto);
	RUN(t_normal);
	RUN(t_zoned);
	job_list_free(&t_list);
	return test_done();
}
