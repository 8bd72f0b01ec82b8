/* test.h - a tiny unit-test helper. Each tests/unit/t_NAME.c is its own program:
 *
 *	static void t_something(void) { CHECK(1 + 1 == 2); CHECK_EQ_U64(x, 4); }
 *	int main(void) { RUN(t_something); return test_done(); }
 *
 * It prints "ok"/"FAIL" lines and exits 0 when every check passed, 1 otherwise
 * (77 = skipped, by returning TEST_SKIP from main). */
#ifndef IOB_TEST_H
#define IOB_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#define TEST_SKIP 77

static int test_failed_checks;
static int test_failed_in_current;

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

#define CHECK_EQ_U64(a, b) do { \
	uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
	if (a_ != b_) { \
		fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", \
			__FILE__, __LINE__, #a, #b, a_, b_); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

/* |a - b| <= tol */
#define CHECK_NEAR(a, b, tol) do { \
	double a_ = (double)(a), b_ = (double)(b); \
	if (!(fabs(a_ - b_) <= (tol))) { \
		fprintf(stderr, "%s:%d: %s ~ %s failed: %.9g vs %.9g (tol %g)\n", \
			__FILE__, __LINE__, #a, #b, a_, b_, (double)(tol)); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

#define RUN(fn) do { \
	test_failed_in_current = 0; \
	fn(); \
	printf("%s %s\n", test_failed_in_current ? "FAIL" : "ok", #fn); \
} while (0)

static inline int test_done(void)
{
	return test_failed_checks ? 1 : 0;
}

#endif
