/* job_test.h - helpers shared by the job parser's unit tests: parse a snippet named
 * "t.fio" with fixed keyword values ($pagesize 4096, $ncpus 3, $mb_memory 1000),
 * capture warnings, check messages. */
#ifndef IOB_JOB_TEST_H
#define IOB_JOB_TEST_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "workload/job/job.h"

static char t_warnings[4096];

static inline void t_warn(void *arg, const char *msg)
{
	(void)arg;
	strncat(t_warnings, msg, sizeof(t_warnings) - strlen(t_warnings) - 2);
	strcat(t_warnings, "\n");
}

/* Parse text (named "t.fio") with flags; returns the rc, err holds the message. */
static inline int parse(const char *text, unsigned flags, struct job_list *l, char *err,
			size_t len)
{
	job_list_init(l);
	l->ctx.flags = flags | JOB_PARSE_NO_INCLUDE;
	l->ctx.warn = t_warn;
	l->ctx.pagesize = 4096;
	l->ctx.ncpus = 3;
	l->ctx.mb_memory = 1000;
	t_warnings[0] = '\0';
	return job_parse_buf(text, strlen(text), "t.fio", l, err, len);
}

/* The error message a text gives (rc must be -EINVAL). */
static inline const char *parse_err(const char *text)
{
	static char err[512];
	struct job_list l;
	int rc = parse(text, 0, &l, err, sizeof(err));

	if (rc != -EINVAL) {
		fprintf(stderr, "expected -EINVAL for <%s>, got %d\n", text, rc);
		test_failed_checks++;
		test_failed_in_current++;
		err[0] = '\0';
	}
	job_list_free(&l);
	return err;
}

#define CHECK_ERR(text, want) do { \
	const char *e_ = parse_err(text); \
	if (!strstr(e_, (want))) { \
		fprintf(stderr, "%s:%d: error for <%s> is '%s', lacks '%s'\n", __FILE__, \
			__LINE__, (text), e_, (want)); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) { \
		fprintf(stderr, "%s:%d: '%s' != '%s'\n", __FILE__, __LINE__, \
			a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
		test_failed_checks++; test_failed_in_current++; \
	} \
} while (0)

/* Parse a one-job text and return the job (static copy of the list). */
static struct job_list t_list;

static inline const struct job_def *one(const char *text)
{
	char err[512];
	int rc;

	job_list_free(&t_list);
	rc = parse(text, 0, &t_list, err, sizeof(err));
	if (rc || t_list.njobs < 1) {
		fprintf(stderr, "parse of <%s> failed: %d %s\n", text, rc, err);
		test_failed_checks++;
		test_failed_in_current++;
		return NULL;
	}
	return &t_list.jobs[0];
}

#endif
