/* engtest.h - helpers for the engine tests (tests/engine/t_*.c): a scratch directory,
 * a checked condition that names the engine variant under test, a worker to count in,
 * and the byte pattern written and read back. Header-only, one program each. */
#ifndef IOB_TESTS_ENGTEST_H
#define IOB_TESTS_ENGTEST_H

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "engine/engine.h"
#include "runner/ioctx.h"
#include "stats/hist.h"

/* The variant under test, printed with every failed check. */
static const char *eng_cur = "";

#define VCHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: [%s] check failed: %s\n", __FILE__, __LINE__, \
			eng_cur, #cond); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

#define VEQ(a, b) do { \
	int64_t a_ = (int64_t)(a), b_ = (int64_t)(b); \
	if (a_ != b_) { \
		fprintf(stderr, "%s:%d: [%s] %s == %s failed: %lld != %lld\n", __FILE__, \
			__LINE__, eng_cur, #a, #b, (long long)a_, (long long)b_); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

static char eng_dir[PATH_MAX];

/* Make the scratch directory under $TESTS_TMP (or TMPDIR, /tmp). 0 or -1. */
static int eng_mkdir(const char *name)
{
	const char *t = getenv("TESTS_TMP");

	if (!t)
		t = getenv("TMPDIR");
	if (!t)
		t = "/tmp";
	snprintf(eng_dir, sizeof(eng_dir), "%s/iob-%s.XXXXXX", t, name);
	return mkdtemp(eng_dir) ? 0 : -1;
}

/* Remove what the tests left in the scratch directory (one level of subdirectories),
 * then the directory. */
static void eng_rmdir(void)
{
	DIR *d = opendir(eng_dir);
	struct dirent *de;
	char p[PATH_MAX + 256];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", eng_dir, de->d_name);
		if (unlink(p) < 0 && rmdir(p) < 0) {
			DIR *s = opendir(p);
			struct dirent *se;
			char q[PATH_MAX + 512];

			while (s && (se = readdir(s))) {
				snprintf(q, sizeof(q), "%s/%s", p, se->d_name);
				(void)unlink(q);
			}
			if (s)
				closedir(s);
			(void)rmdir(p);
		}
	}
	closedir(d);
	(void)rmdir(eng_dir);
}

/* dst = eng_dir/name */
static char *eng_path(char *dst, size_t len, const char *name)
{
	int n = snprintf(dst, len, "%s/%s", eng_dir, name);

	if (n < 0 || (size_t)n >= len)
		dst[0] = 0;	/* an empty path fails loudly in the test */
	return dst;
}

/* The byte at offset j of block blk of the data with seed s. */
static inline unsigned char eng_byte(unsigned blk, unsigned j, unsigned s)
{
	return (unsigned char)(blk * 131u + j * 7u + s * 29u + (j >> 8));
}

static void eng_fill(unsigned char *p, size_t len, unsigned blk, unsigned s)
{
	size_t j;

	for (j = 0; j < len; j++)
		p[j] = eng_byte(blk, (unsigned)j, s);
}

/* 1 when p holds block blk of seed s. */
static int eng_same(const unsigned char *p, size_t len, unsigned blk, unsigned s)
{
	size_t j;

	for (j = 0; j < len; j++)
		if (p[j] != eng_byte(blk, (unsigned)j, s))
			return 0;
	return 1;
}

static void eng_worker(struct worker *w)
{
	memset(w, 0, sizeof(*w));
	hist_init(&w->lat);
}

#endif
