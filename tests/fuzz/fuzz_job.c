/* fuzz_job.c - the fio job-file parser (workload/job/job_parse.c, job_parse_buf), with
 * includes refused (no file access), then --showcmd on what was parsed. */
#include "fuzz.h"
#include "workload/job/job.h"

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list l;
	char err[512];
	char *cmd;

	job_list_init(&l);
	l.ctx.flags |= JOB_PARSE_NO_INCLUDE;
	l.ctx.warn = quiet;
	l.ctx.pagesize = 4096;
	l.ctx.ncpus = 2;
	l.ctx.mb_memory = 1024;
	if (job_parse_buf((const char *)data, size, "fuzz.fio", &l, err, sizeof(err)) == 0) {
		cmd = job_showcmd(&l);
		free(cmd);
	}
	job_list_free(&l);
	return 0;
}
