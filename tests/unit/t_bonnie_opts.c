/* t_bonnie_opts.c - Bonnie++'s option letters and their checks. */
#include <string.h>

#include "test.h"
#include "workload/bonnie/bonnie.h"

static int parse(struct bonnie_cfg *c, const char *a0, const char *a1, const char *a2,
		 const char *a3)
{
	char *argv[6] = { (char *)"bonnie", (char *)a0, (char *)a1, (char *)a2, (char *)a3,
			  NULL };
	char err[256];
	int argc = 1;

	while (argc < 5 && argv[argc])
		argc++;
	bonnie_cfg_init(c);
	if (bonnie_parse_args(c, argc, argv, err, sizeof(err)) < 0)
		return -1;
	return bonnie_check(c, err, sizeof(err)) < 0 ? -2 : 0;
}

static void t_defaults(void)
{
	struct bonnie_cfg c;

	CHECK(parse(&c, "-u", "root", NULL, NULL) == 0);
	CHECK_EQ_U64(c.chunk, 8192);
	CHECK_EQ_U64(c.seeks, 8192);
	CHECK_EQ_U64(c.seekers, 5);
	CHECK_EQ_U64(c.nfiles, 16);
	CHECK_EQ_U64(c.char_mb, 3);
	CHECK(!c.size_set);
	CHECK(c.char_method == BONNIE_CHAR_SYSCALL);
}

static void t_seed_line(void)
{
	struct bonnie_cfg c;
	char *argv[] = { "bonnie", "-u", "root", "-s", "1024", "-r", "512", "-n", "5", "-d",
			 "/tmp", NULL };
	char err[256];

	bonnie_cfg_init(&c);
	CHECK(bonnie_parse_args(&c, 11, argv, err, sizeof(err)) == 0);
	CHECK_EQ_U64(c.size_mb, 1024);
	CHECK_EQ_U64(c.ram_mb, 512);
	CHECK_EQ_U64(c.nfiles, 5);
	CHECK(!strcmp(c.dir, "/tmp"));
	CHECK(!strcmp(c.user, "root"));
}

static void t_size_spec(void)
{
	struct bonnie_cfg c;

	CHECK(parse(&c, "-s", "2g:4k:1000:3", NULL, NULL) == 0);
	CHECK_EQ_U64(c.size_mb, 2048);
	CHECK_EQ_U64(c.chunk, 4096);
	CHECK_EQ_U64(c.seeks, 1000);
	CHECK_EQ_U64(c.seekers, 3);
	CHECK(parse(&c, "-s64:16384", NULL, NULL, NULL) == 0);
	CHECK_EQ_U64(c.size_mb, 64);
	CHECK_EQ_U64(c.chunk, 16384);
	CHECK(parse(&c, "-s", "64:1000", NULL, NULL) == -2);	/* not a power of two */
	CHECK(parse(&c, "-s", "64:128", NULL, NULL) == -2);	/* under 256 */
	CHECK(parse(&c, "-s", "64:2m", NULL, NULL) == -2);	/* over 1M */
	CHECK(parse(&c, "-s", "4k:8k", NULL, NULL) == -1);	/* size below the chunk */
	CHECK(parse(&c, "-s", "64x", NULL, NULL) == -1);
	CHECK(parse(&c, "-s", "64:8k:1:2:3", NULL, NULL) == -1);
	CHECK(parse(&c, "-s", "-5", NULL, NULL) == -1);
}

static void t_files_spec(void)
{
	struct bonnie_cfg c;

	CHECK(parse(&c, "-n", "1:2000:100:3:4096", NULL, NULL) == 0);
	CHECK_EQ_U64(c.nfiles, 1);
	CHECK_EQ_U64(c.max_size, 2000);
	CHECK_EQ_U64(c.min_size, 100);
	CHECK_EQ_U64(c.ndirs, 3);
	CHECK_EQ_U64(c.file_chunk, 4096);
	CHECK(parse(&c, "-n", "1:-1", NULL, NULL) == 0);
	CHECK(c.max_size == -1);
	CHECK(parse(&c, "-n", "1:-2", NULL, NULL) == 0);
	CHECK(c.max_size == -2);
	CHECK(parse(&c, "-n", "1:0:5", NULL, NULL) == -2);	/* max < min */
	CHECK(parse(&c, "-n", "1:-3", NULL, NULL) == -1);
	CHECK(parse(&c, "-n", "2q", NULL, NULL) == -1);
	CHECK(parse(&c, "-n", "0", "-s", "0") == -2);		/* nothing to do */
	CHECK(parse(&c, "-n", "0", NULL, NULL) == 0);		/* the size defaults later */
}

static void t_letters(void)
{
	struct bonnie_cfg c;

	CHECK(parse(&c, "-f", "-q", "-b", "-D") == 0);
	CHECK(c.skip_char && c.quiet && c.fsync_each && c.direct);
	CHECK(parse(&c, "-f5", NULL, NULL, NULL) == 0);
	CHECK(!c.skip_char);
	CHECK_EQ_U64(c.char_mb, 5);
	CHECK(parse(&c, "-qbD", NULL, NULL, NULL) == 0);
	CHECK(c.quiet && c.fsync_each && c.direct);
	CHECK(parse(&c, "-x", "3", "-c", "2") == 0);
	CHECK_EQ_U64(c.repeats, 3);
	CHECK_EQ_U64(c.copies, 2);
	CHECK(parse(&c, "-z", "42", "-m", "box") == 0);
	CHECK(c.seed_set && c.seed == 42 && !strcmp(c.machine, "box"));
	CHECK(parse(&c, "-p", "3", "-y", NULL) == 0);		/* accepted, no effect */
	CHECK(parse(&c, "-x", "0", NULL, NULL) == -1);
	CHECK(parse(&c, "-Q", NULL, NULL, NULL) == -1);
	CHECK(parse(&c, "operand", NULL, NULL, NULL) == -1);
	CHECK(parse(&c, "-d", NULL, NULL, NULL) == -1);		/* missing value */
}

static void t_long(void)
{
	struct bonnie_cfg c;

	CHECK(parse(&c, "--char-method", "putc", "--drop-cache", NULL) == 0);
	CHECK(c.char_method == BONNIE_CHAR_PUTC && c.drop_cache);
	CHECK(parse(&c, "--char-method=syscall", "--min-time=2.5", NULL, NULL) == 0);
	CHECK(c.char_method == BONNIE_CHAR_SYSCALL);
	CHECK_NEAR(c.min_time, 2.5, 1e-9);
	CHECK(parse(&c, "--format", "json", "--quiet", NULL) == 0);
	CHECK(!strcmp(c.format, "json") && c.long_quiet);
	CHECK(parse(&c, "--char-method", "bogus", NULL, NULL) == -1);
	CHECK(parse(&c, "--min-time", "x", NULL, NULL) == -1);
	CHECK(parse(&c, "--nope", NULL, NULL, NULL) == -1);
	CHECK(parse(&c, "--help", NULL, NULL, NULL) == 0 && c.help);
}

static void t_space(void)
{
	struct bonnie_cfg c;

	bonnie_cfg_init(&c);
	c.size_mb = 64;
	c.nfiles = 0;
	CHECK_EQ_U64(bonnie_space_needed(&c), 64ull << 20);
	c.copies = 2;
	CHECK_EQ_U64(bonnie_space_needed(&c), 128ull << 20);
}

int main(void)
{
	RUN(t_defaults);
	RUN(t_seed_line);
	RUN(t_size_spec);
	RUN(t_files_spec);
	RUN(t_letters);
	RUN(t_long);
	RUN(t_space);
	return test_done();
}
