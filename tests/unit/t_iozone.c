/* t_iozone.c - iozone's letters, its grid (cells exactly as iozone's auto_test makes
 * them), the passes of a cell, the stride and random orders, and the cache cliff. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/iozone/iozone.h"

static char err[320];

/* Parse a NULL-terminated list of words after "iozone". 0 or -EINVAL. */
static int parse(struct iozone_cfg *c, const char *const *words)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = (char *)"iozone";
	while (*words && argc < 63)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	iozone_cfg_init(c);
	return iozone_parse_args(c, argc, argv, err, sizeof(err));
}

#define P(c, ...) parse(c, (const char *const[]){ __VA_ARGS__, NULL })

static struct iozone_cellsz cells[IOZ_MAX_CELLS];

/* The -a grid: 126 cells, 14 file sizes 64 kB .. 512 MB; records 4 kB up to the file
 * (files up to 16 MB) and 64 kB .. 16 MB above it. */
static void t_auto_grid(void)
{
	struct iozone_cfg c;
	size_t n, i, per[20] = { 0 };
	uint64_t f;
	int k;

	CHECK(P(&c, "-a") == 0);
	n = iozone_grid(&c, cells, IOZ_MAX_CELLS);
	CHECK_EQ_U64(n, 126);
	CHECK_EQ_U64(cells[0].file_kb, 64);
	CHECK_EQ_U64(cells[0].rec_kb, 4);
	CHECK_EQ_U64(cells[n - 1].file_kb, 524288);
	CHECK_EQ_U64(cells[n - 1].rec_kb, 16384);
	for (i = 0; i < n; i++) {
		CHECK(cells[i].rec_kb <= cells[i].file_kb);
		for (k = 0, f = 64; f != cells[i].file_kb && k < 19; f *= 2, k++)
			;
		per[k]++;
		if (cells[i].file_kb > 16384)
			CHECK(cells[i].rec_kb >= 64);
		if (i)	/* ascending file sizes, then record sizes */
			CHECK(cells[i].file_kb > cells[i - 1].file_kb ||
			      cells[i].rec_kb > cells[i - 1].rec_kb);
	}
	/* 64k: 5 records, 128k: 6 ... 16M: 13, then 9 each for 32M .. 512M */
	for (k = 0; k < 9; k++)
		CHECK_EQ_U64(per[k], 5 + k);
	for (k = 9; k < 14; k++)
		CHECK_EQ_U64(per[k], 9);
	/* -z keeps the small records: 13 each above 16 MB */
	CHECK(P(&c, "-az") == 0);
	CHECK_EQ_U64(iozone_grid(&c, NULL, 0), 81 + 5 * 13);
}

static void t_grid_ranges(void)
{
	struct iozone_cfg c;
	size_t n, i;

	/* -a -g 8m: 64 kB .. 8 MB, every record up to the file: 5+6+...+12 */
	CHECK(P(&c, "-a", "-g", "8m") == 0);
	n = iozone_grid(&c, cells, IOZ_MAX_CELLS);
	CHECK_EQ_U64(n, 68);
	CHECK_EQ_U64(cells[n - 1].file_kb, 8192);
	CHECK_EQ_U64(cells[n - 1].rec_kb, 8192);
	/* -n 1m -g 16m -y 16k -q 1m: 5 files by 7 records, no crossover */
	CHECK(P(&c, "-n", "1m", "-g", "16m", "-y", "16k", "-q", "1m") == 0);
	CHECK(c.autom);
	n = iozone_grid(&c, cells, IOZ_MAX_CELLS);
	CHECK_EQ_U64(n, 35);
	for (i = 0; i < n; i++) {
		CHECK_EQ_U64(cells[i].file_kb, 1024u << (i / 7));
		CHECK_EQ_U64(cells[i].rec_kb, 16u << (i % 7));
	}
	/* no -a: one cell, iozone's 512 kB by 4 kB; -s and -r set it */
	CHECK(P(&c, "-i", "0") == 0);
	n = iozone_grid(&c, cells, IOZ_MAX_CELLS);
	CHECK_EQ_U64(n, 1);
	CHECK_EQ_U64(cells[0].file_kb, 512);
	CHECK_EQ_U64(cells[0].rec_kb, 4);
	CHECK(P(&c, "-s", "2g", "-r16m") == 0);
	CHECK_EQ_U64(iozone_grid(&c, cells, 1), 1);
	CHECK_EQ_U64(cells[0].file_kb, 2097152);
	CHECK_EQ_U64(cells[0].rec_kb, 16384);
	/* -a with one -s: that file size, every record up to it, no crossover */
	CHECK(P(&c, "-a", "-s", "64m") == 0);
	CHECK_EQ_U64(iozone_grid(&c, NULL, 0), 13);
	/* -+x 4 */
	CHECK(P(&c, "-a", "-g", "1m", "-+x", "4") == 0);
	CHECK_EQ_U64(iozone_grid(&c, NULL, 0), 3 + 4 + 5);
}

static void t_bad_input(void)
{
	struct iozone_cfg c;

	CHECK(P(&c, "-s", "0") < 0 && strstr(err, "at least 1 kB"));
	CHECK(P(&c, "-r", "3k") < 0 && strstr(err, "power of two"));
	CHECK(P(&c, "-s", "64k", "-r", "1m") < 0 && strstr(err, "larger than the file"));
	CHECK(P(&c, "-i", "99") < 0 && strstr(err, "no such test"));
	CHECK(P(&c, "-n", "2m", "-g", "1m") < 0 && strstr(err, "minimum file size above"));
	CHECK(P(&c, "-t", "0") < 0 && strstr(err, "worker count"));
	CHECK(P(&c, "-i", "1") < 0 && strstr(err, "needs -i 0"));
	CHECK(P(&c, "-i", "0", "-i", "8") < 0 && strstr(err, "throughput mode"));
	CHECK(P(&c, "-t", "2", "-a") < 0);
	CHECK(P(&c, "-F", "a", "b") < 0 && strstr(err, "-t N before"));
	CHECK(P(&c, "-t", "2", "-F", "a") < 0 && strstr(err, "not enough file names"));
	CHECK(P(&c, "-k", "4", "-H", "4") < 0 && strstr(err, "exclusive"));
	CHECK(P(&c, "-q", "32m") < 0 && strstr(err, "16 MiB"));
	CHECK(P(&c, "-s") < 0 && strstr(err, "needs a value"));
	CHECK(P(&c, "-B") < 0 && strstr(err, "not supported"));
	CHECK(P(&c, "-+Q") < 0 && strstr(err, "not supported"));
	CHECK(P(&c, "--frobnicate") < 0 && strstr(err, "unknown option"));
	CHECK(P(&c, "junk") < 0 && strstr(err, "unexpected operand"));
	CHECK(P(&c, "-s", "1.5m") < 0);
	CHECK(P(&c, "-i", "11") < 0 && strstr(err, "not supported"));
}

static void t_letters(void)
{
	struct iozone_cfg c;
	int p[IOZ_NPASS + 1], n;

	CHECK(P(&c, "-aRIecow", "-i0", "-i", "1", "-+n", "-b", "x.xlsx", "-j", "5") == 0);
	CHECK(c.autom && c.excel && c.direct && c.fsync_timed && c.close_timed && c.osync);
	CHECK(c.keep && c.no_retest && c.xlsx && !strcmp(c.xlsx, "x.xlsx"));
	CHECK_EQ_U64(c.stride, 5);
	CHECK_EQ_U64(iozone_tests(&c), 3);
	n = iozone_passes(&c, p);
	CHECK_EQ_U64(n, 2);	/* write and read, no re- passes */
	CHECK(p[0] == IOZ_WRITE && p[1] == IOZ_READ && p[2] == -1);
	CHECK(P(&c, "-t", "4", "-F", "a", "b", "c", "d", "-s", "1m", "--format=json") == 0);
	CHECK_EQ_U64(c.nfiles, 4);
	CHECK(!strcmp(c.files[3], "d") && !strcmp(c.format, "json"));
	/* throughput mode's order: write rewrite read reread bkwd stride rand-read mix
	 * rand-write pwrite pread fwrite fread */
	n = iozone_passes(&c, p);
	CHECK_EQ_U64(n, 13);
	CHECK(p[4] == IOZ_BKWD_READ && p[7] == IOZ_RANDOM_MIX && p[12] == IOZ_FREAD);
	/* the default table: tests 0 .. 7 (13 columns), -E adds pwrite and pread */
	CHECK(P(&c, "-s", "1m") == 0);
	CHECK_EQ_U64(iozone_passes(&c, p), 13);
	CHECK(P(&c, "-E") == 0);
	CHECK_EQ_U64(iozone_passes(&c, p), 17);
	/* -A: -az with tests 0 and 1 */
	CHECK(P(&c, "-A") == 0);
	CHECK(c.autom && iozone_tests(&c) == 3);
	CHECK_EQ_U64(iozone_grid(&c, NULL, 0), 81 + 5 * 13);
	/* -k N: the stdio tests do not run, as in iozone */
	CHECK(P(&c, "-k", "8") == 0);
	CHECK_EQ_U64(iozone_passes(&c, p), 9);
	CHECK(P(&c, "--help") == 0 && c.help);
}

static void t_orders(void)
{
	uint64_t o[64], seen[64];
	size_t i;

	/* stride 17 over 64 records: 0 17 34 51, then start again at 1: 1 18 35 ... */
	iozone_stride_order(64, 17, o);
	CHECK(o[0] == 0 && o[1] == 17 && o[2] == 34 && o[3] == 51 && o[4] == 1 && o[5] == 18);
	/* stride larger than the file: always wraps */
	iozone_stride_order(8, 17, o);
	for (i = 0; i < 8; i++)
		CHECK(o[i] < 8);
	/* random: every record exactly once, the same order for the same seed */
	iozone_random_order(64, 7, o);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 64; i++)
		seen[o[i]]++;
	for (i = 0; i < 64; i++)
		CHECK_EQ_U64(seen[i], 1);
	memcpy(seen, o, sizeof(o));
	iozone_random_order(64, 7, o);
	CHECK(memcmp(seen, o, sizeof(o)) == 0);
	for (i = 0; i < 64 && o[i] == i; i++)
		;
	CHECK(i < 64);	/* shuffled */
}

/* A run with read rows: 10 GB/s up to 16 MB, 1 GB/s above. */
static void t_cliff(void)
{
	struct run *run = run_new("iozone");
	struct iozone_matrix m;
	struct iozone_cliff cl;
	char line[400];
	uint64_t kb;

	for (kb = 4096; kb <= 65536; kb *= 2) {
		struct row *w = run_add_row(run, "iozone", "read");

		kv_set(&w->params, RK_IOZ_FILE_KB, "%llu", (unsigned long long)kb);
		kv_set(&w->params, RK_IOZ_RECLEN_KB, "1024");
		w->rate = kb <= 16384 ? 1e7 : 1e6;
		w->cache_pct = kb <= 16384 ? 100 : 10;
	}
	CHECK(iozone_matrix_build(run, 0, &m) == 5);
	CHECK_EQ_U64(m.nf, 5);
	CHECK_EQ_U64(m.nr, 1);
	iozone_cliff_find(&m, &cl);
	CHECK(cl.found && cl.pass == IOZ_READ);
	CHECK_EQ_U64(cl.from_kb, 16384);
	CHECK_EQ_U64(cl.to_kb, 32768);
	CHECK_NEAR(cl.ratio, 10, 1e-9);
	iozone_cliff_line(line, sizeof(line), &cl, 24ull << 20);
	CHECK(strstr(line, "between 16 MiB and 32 MiB") != NULL);
	CHECK(strstr(line, "page cache holds about 24 MiB") != NULL);
	iozone_matrix_free(&m);
	/* no fall: no cliff, and it says so */
	run->rows[3]->rate = run->rows[4]->rate = 1e7;
	run->rows[3]->cache_pct = run->rows[4]->cache_pct = 100;
	CHECK(iozone_matrix_build(run, 0, &m) == 5);
	iozone_cliff_find(&m, &cl);
	CHECK(!cl.found);
	CHECK(strstr(iozone_cliff_line(line, sizeof(line), &cl, 0), "none") != NULL);
	iozone_matrix_free(&m);
	/* a fall between two files both read from RAM (100% resident) far below the page
	 * cache's size is the CPU's caches: not called the cache cliff */
	run->rows[3]->rate = run->rows[4]->rate = 1e6;
	CHECK(iozone_matrix_build(run, 0, &m) == 5);
	iozone_cliff_find(&m, &cl);
	CHECK(cl.found);
	iozone_cliff_line(line, sizeof(line), &cl, 8ull << 30);
	CHECK(strncmp(line, "no cache cliff: ", 16) == 0);
	CHECK(strstr(line, "CPU-cache effect") != NULL);
	/* residency unknown: the page cache explains a fall only around its size */
	for (size_t i = 0; i < run->nrows; i++)
		run->rows[i]->cache_pct = -1;
	iozone_matrix_free(&m);
	CHECK(iozone_matrix_build(run, 0, &m) == 5);
	iozone_cliff_find(&m, &cl);
	CHECK(strstr(iozone_cliff_line(line, sizeof(line), &cl, 8ull << 30), "CPU-cache") != NULL);
	CHECK(strncmp(iozone_cliff_line(line, sizeof(line), &cl, 48ull << 20), "cache cliff: ",
		      13) == 0);
	iozone_matrix_free(&m);
	run_free(run);
}

int main(void)
{
	RUN(t_auto_grid);
	RUN(t_grid_ranges);
	RUN(t_bad_input);
	RUN(t_letters);
	RUN(t_orders);
	RUN(t_cliff);
	return test_done();
}
