/* t_bonnie_csv.c - the Bonnie++ 2.00a CSV line and the table's text pieces, against
 * lines the real Bonnie++ 2.00a wrote. */
#include <errno.h>
#include <string.h>

#include "test.h"
#include "output/bonnie_csv.h"
#include "workload/bonnie/bonnie.h"

static void base(struct bonnie_line *l)
{
	memset(l, 0, sizeof(*l));
	l->name = "h";
	l->concurrency = 1;
	l->seed = 1796033667;
	l->chunk = BONNIE_DEF_CHUNK;
	l->seeks = BONNIE_DEF_SEEKS;
	l->seekers = BONNIE_DEF_SEEKERS;
	l->ndirs = 1;
	l->file_chunk = BONNIE_DEF_CHUNK;
}

static void fig(struct bonnie_line *l, int t, double rate, double cpu, uint64_t lat)
{
	l->f[t].present = 1;
	l->f[t].rate = rate;
	l->f[t].cpu_pct = cpu;
	l->f[t].max_lat_ns = lat;
}

static void t_io_only(void)
{
	struct bonnie_line l;
	char buf[1024];

	base(&l);
	l.size_mb = 64;
	l.seeks = 1000;
	l.seekers = 3;
	fig(&l, BT_PUTC, 3733.9, 99.7, 5042000);
	fig(&l, BT_PUT_BLOCK, 1267855.6, 99, 292000);
	fig(&l, BT_REWRITE, 2932113.8, 99, 114000);
	fig(&l, BT_GETC, 5536.2, 99, 808000);
	fig(&l, BT_GET_BLOCK, 2373945, 99, 118000);
	fig(&l, BT_SEEKS, 124.34, 5, 92000);
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "1.98,2.00a,h,1,1796033667,64M,,1000,3,3733,99,1267855,99,"
		      "2932113,99,5536,99,2373945,99,124.3,5,,,,,,,,,,,,,,,,,,5042us,292us,"
		      "114us,808us,118us,92us,,,,,,\n"));
	l.plus_for_short = 1;
	l.f[BT_PUT_BLOCK].shortrun = 1;
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, ",3733,99,+++++,+++,2932113,") != NULL);
	CHECK(bonnie_csv_format(&l, buf, 20) == -ENOSPC);
}

static void t_files_only(void)
{
	struct bonnie_line l;
	char buf[1024];
	int t;

	base(&l);
	l.seed = 1796033801;
	l.nfiles = 2;
	l.ndirs = 4;
	for (t = BT_SEQ_CREATE; t < BT_COUNT; t++)
		fig(&l, t, 16384, 98, 288000);
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(!strcmp(buf, "1.98,2.00a,h,1,1796033801,,,,,,,,,,,,,,,,,2,,,,4,16384,98,"
		      "16384,98,16384,98,16384,98,16384,98,16384,98,,,,,,,288us,288us,288us,"
		      "288us,288us,288us\n"));
	l.ndirs = 1;
	l.max_size = 2000;
	l.min_size = 100;
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, ",,2,2000,100,,,16384,") != NULL);
	l.max_size = -1;
	l.min_size = 0;
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, ",,2,link,,,,16384,") != NULL);
	l.max_size = 3000;
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, ",,2,3000,,,,16384,") != NULL);
}

static void t_pieces(void)
{
	struct bonnie_line l;
	char b[64];

	CHECK(!strcmp(bonnie_fmt_lat(b, sizeof(b), 2191000), "2191us"));
	CHECK(!strcmp(bonnie_fmt_lat(b, sizeof(b), 161000000), "161ms"));
	CHECK(!strcmp(bonnie_fmt_lat(b, sizeof(b), 120000000000ull), "120s"));
	CHECK(!strcmp(bonnie_fmt_lat(b, sizeof(b), 0), ""));
	CHECK(!strcmp(bonnie_fmt_kps(b, sizeof(b), 3798.4), "3798k"));
	CHECK(!strcmp(bonnie_fmt_kps(b, sizeof(b), 331), " 331k"));
	CHECK(!strcmp(bonnie_fmt_kps(b, sizeof(b), 98.3 * 1024), "98.3m"));
	CHECK(!strcmp(bonnie_fmt_kps(b, sizeof(b), 119 * 1024 + 100), " 119m"));
	CHECK(!strcmp(bonnie_fmt_kps(b, sizeof(b), 2.5 * 1048576), " 2.5g"));
	base(&l);
	l.size_mb = 64;
	CHECK(!strcmp(bonnie_fmt_size_label(b, sizeof(b), &l), "64M"));
	l.size_mb = 31 * 1024;
	CHECK(!strcmp(bonnie_fmt_size_label(b, sizeof(b), &l), "31G"));
	l.size_mb = 64;
	l.chunk = 4096;
	CHECK(!strcmp(bonnie_fmt_size_label(b, sizeof(b), &l), "64M:4k"));
	l.seeks = 1000;
	CHECK(!strcmp(bonnie_fmt_size_label(b, sizeof(b), &l), "64M:4k::1000"));
	l.chunk = 8192;
	CHECK(!strcmp(bonnie_fmt_size_label(b, sizeof(b), &l), "64M:::1000"));
	l.nfiles = 1;
	l.max_size = 2000;
	l.min_size = 100;
	l.ndirs = 3;
	CHECK(!strcmp(bonnie_fmt_files_label(b, sizeof(b), &l), "1:2000:100/3"));
	l.max_size = -2;
	l.min_size = 0;
	l.ndirs = 1;
	CHECK(!strcmp(bonnie_fmt_files_label(b, sizeof(b), &l), "1:symlink"));
	CHECK(bonnie_test_of("seeks") == BT_SEEKS);
	CHECK(bonnie_test_of("nope") == -1);
	CHECK(!strcmp(bonnie_test_name(BT_RAN_DEL), "ran_del"));
}

int main(void)
{
	RUN(t_io_only);
	RUN(t_files_only);
	RUN(t_pieces);
	return test_done();
}
