/* bench/verify_speed.c - what data verification costs on this machine (not a test).
 *
 *   bench/verify_speed [DIR] [SIZE_MB] [ROUNDS]
 *
 * 1. CRC32C in GB/s on each path this CPU has, at several buffer sizes (cached data).
 * 2. Per block, at 8 KiB and 1 MiB: vblock_stamp on a prepared buffer (what a --verify
 *    write does), the naive alternative (a CRC pass over the block), and vblock_check on
 *    a clean block (what the verification read does besides reading).
 * 3. Buffered sequential writes of SIZE_MB (default 256) to a new file in DIR (default
 *    /tmp), plain against stamped, in alternating order for ROUNDS pairs (default 5):
 *    the median of the per-pair time ratios is the overhead of --verify on the write
 *    phase, timed until the last write returned (the page cache, the worst case for the
 *    overhead since the disk is out of it) and, separately, including fdatasync. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/crc32c.h"
#include "core/rng.h"
#include "verify/vblock.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile uint32_t sink;

/* This process's user + system CPU time in ns. */
static uint64_t cpu_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* GB/s of fn over len bytes, the median of 5 runs of about 0.1 s each. */
static double crc_rate(crc32c_fn fn, const unsigned char *buf, size_t len)
{
	double r[5];
	uint64_t t0, t, iters, i;
	int k;

	for (k = 0; k < 5; k++) {
		iters = 0;
		t0 = clock_ns();
		do {
			for (i = 0; i < 64; i++)
				sink += fn(0, buf, len);
			iters += 64;
			t = clock_ns();
		} while (t - t0 < 100000000u && iters * len < (8ull << 30));
		r[k] = (double)iters * (double)len / (double)(t - t0);
	}
	return median(r, 5);
}

static void bench_crc(const unsigned char *buf)
{
	static const size_t sizes[] = { 64, 4096, 65536, 1u << 20 };
	crc32c_fn hw = crc32c_hw();
	size_t k;

	printf("crc32c: dispatching path %s\n", crc32c_path());
	printf("%-10s %12s %12s\n", "bytes", "software", hw ? crc32c_path() : "-");
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		printf("%-10zu %9.2f GB/s", sizes[k], crc_rate(crc32c_sw, buf, sizes[k]));
		if (hw)
			printf(" %9.2f GB/s", crc_rate(hw, buf, sizes[k]));
		printf("\n");
	}
}

/* ns per block: stamping, a full CRC pass, checking a clean block. */
static void bench_block(uint32_t len)
{
	struct vblock_geom g = { 0x1234567890abcdefull, len, VBLOCK_UNIT_SHIFT_DEFAULT,
				 VBLOCK_DATA_RANDOM, 0 };
	struct vblock_expect e = { 0, 0, 1, 0 };
	struct vblock_result r;
	struct vblock_ctx *c;
	unsigned char *b = malloc(len);
	uint64_t n = (256ull << 20) / len, i, t0, t1, t2, t3;

	if (!b || vblock_ctx_new(&c, &g)) {
		fprintf(stderr, "verify_speed: no memory\n");
		exit(1);
	}
	vblock_prepare(c, b, len);
	t0 = clock_ns();
	for (i = 0; i < n; i++)
		vblock_stamp(c, b, len, 1, i * len, 1);
	t1 = clock_ns();
	for (i = 0; i < n; i++)
		sink += crc32c(0, b, len);
	t2 = clock_ns();
	vblock_stamp(c, b, len, 1, 0, 1);
	for (i = 0; i < n; i++)
		sink += vblock_check(c, b, len, &e, &r);
	t3 = clock_ns();
	if (r.cls != VBLOCK_OK)
		fprintf(stderr, "verify_speed: clean block judged %s\n", vblock_class_name(r.cls));
	printf("block %8u: stamp %9.0f ns (%6.1f GB/s)  full crc %9.0f ns  check %9.0f ns"
	       " (%5.1f GB/s)\n", len, (double)(t1 - t0) / n, (double)n * len / (t1 - t0),
	       (double)(t2 - t1) / n, (double)(t3 - t2) / n, (double)n * len / (t3 - t2));
	vblock_ctx_free(c);
	free(b);
}

/* Write size bytes in blocks of len to a new file: mode 0 plain, 1 stamped, 2 stamped
 * plus a full CRC per block (the naive way). *buffered: ns until the last write returned,
 * *cpu: CPU ns spent until then; returns ns including fdatasync. */
static uint64_t write_file(const char *path, const struct vblock_ctx *c, unsigned char *b,
			   uint32_t len, uint64_t size, int mode, uint64_t *buffered,
			   uint64_t *cpu)
{
	uint64_t off, t0, t1, t2, c0 = cpu_ns();
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		fprintf(stderr, "verify_speed: open: '%s': %s\n", path, strerror(errno));
		exit(1);
	}
	t0 = clock_ns();
	for (off = 0; off < size; off += len) {
		if (mode >= 1)
			vblock_stamp(c, b, len, 1, off, 1);
		if (mode == 2)
			sink += crc32c(0, b, len);
		if (pwrite(fd, b, len, (off_t)off) != (ssize_t)len) {
			fprintf(stderr, "verify_speed: write: '%s': %s\n", path, strerror(errno));
			exit(1);
		}
	}
	t1 = clock_ns();
	*cpu = cpu_ns() - c0;
	if (fdatasync(fd) != 0 || close(fd) != 0) {
		fprintf(stderr, "verify_speed: sync: '%s': %s\n", path, strerror(errno));
		exit(1);
	}
	t2 = clock_ns();
	if (unlink(path) != 0)
		fprintf(stderr, "verify_speed: unlink: '%s': %s\n", path, strerror(errno));
	*buffered = t1 - t0;
	return t2 - t0;
}

static void bench_write(const char *dir, uint32_t len, uint64_t size, int rounds)
{
	struct vblock_geom g = { 0x1234567890abcdefull, len, VBLOCK_UNIT_SHIFT_DEFAULT,
				 VBLOCK_DATA_RANDOM, 0 };
	double rb[64], rd[64], rc[64], rn[64], gbs[64];
	uint64_t pb, pd, pc, sb, sd, sc, nb, nc;
	struct vblock_ctx *c;
	unsigned char *b = malloc(len);
	char path[4096];
	int k;

	if (!b || vblock_ctx_new(&c, &g)) {
		fprintf(stderr, "verify_speed: no memory\n");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/iob-verify-speed.%ld", dir, (long)getpid());
	vblock_prepare(c, b, len);
	write_file(path, c, b, len, size, 0, &pb, &pc);	/* warm-up */
	for (k = 0; k < rounds && k < 64; k++) {
		if (k % 2) {
			sd = write_file(path, c, b, len, size, 1, &sb, &sc);
			pd = write_file(path, c, b, len, size, 0, &pb, &pc);
		} else {
			pd = write_file(path, c, b, len, size, 0, &pb, &pc);
			sd = write_file(path, c, b, len, size, 1, &sb, &sc);
		}
		write_file(path, c, b, len, size, 2, &nb, &nc);
		rb[k] = (double)sb / (double)pb;
		rd[k] = (double)sd / (double)pd;
		rc[k] = (double)sc / (double)pc;
		rn[k] = (double)nb / (double)pb;
		gbs[k] = (double)size / (double)pb;
	}
	printf("write bs=%u, %d pairs of %llu MiB, plain %.2f GB/s buffered; stamped/plain:"
	       " buffered %.4f, CPU %.4f, with fdatasync %.4f; naive full-CRC/plain buffered"
	       " %.4f\n", len, k, (unsigned long long)(size >> 20), median(gbs, k),
	       median(rb, k), median(rc, k), median(rd, k), median(rn, k));
	vblock_ctx_free(c);
	free(b);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	uint64_t size = (argc > 2 ? strtoull(argv[2], NULL, 10) : 256) << 20;
	int rounds = argc > 3 ? atoi(argv[3]) : 5;
	unsigned char *buf = malloc(1u << 20);
	struct rng r;

	if (!buf || !size || rounds < 1) {
		fprintf(stderr, "usage: verify_speed [DIR] [SIZE_MB] [ROUNDS]\n");
		return 2;
	}
	rng_seed(&r, 1);
	rng_fill(&r, buf, 1u << 20);
	bench_crc(buf);
	bench_block(8192);
	bench_block(1u << 20);
	bench_write(dir, 1u << 20, size, rounds);
	bench_write(dir, 8192, size, rounds);
	free(buf);
	return 0;
}
