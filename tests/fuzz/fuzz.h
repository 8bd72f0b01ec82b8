/* fuzz.h - what every harness in tests/fuzz/ shares. A harness is one file fuzz_NAME.c
 * that defines LLVMFuzzerTestOneInput (and, when it needs set-up, LLVMFuzzerInitialize);
 * it is linked either with libFuzzer (make fuzz: clang, ASan, UBSan) or with replay.c,
 * a plain main() that feeds it every file of its corpus (make check).
 * The helpers are static inline: each harness is one translation unit. Not thread-safe. */
#ifndef IOB_FUZZ_H
#define IOB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input as a NUL-terminated string (bytes after an inner NUL are cut off by the
 * callee, as a C string would be). Caller frees. Aborts when out of memory. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Split s in place at '\n' into at most max pieces (argv-like: v[n] = NULL). Returns n. */
static inline int fuzz_split(char *s, char **v, int max)
{
	int n = 0;

	while (n < max) {
		char *nl = strchr(s, '\n');

		v[n++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
	v[n] = NULL;
	return n;
}

/* A stream that discards what is written (formatters write to it). Opened once. */
static inline FILE *fuzz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

/* Abort (a finding) unless cond: what a harness checks beyond "no crash". */
#define FUZZ_ASSERT(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", __FILE__, __LINE__, \
			#cond); \
		abort(); \
	} \
} while (0)

#endif
