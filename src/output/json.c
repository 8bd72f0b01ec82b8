/* json.c - the JSON formatter: the whole run as one document at the end, written by the
 * model's own serialiser (stats/result_json.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/output.h"
#include "stats/result.h"
#include "stats/result_json.h"

static int json_begin(FILE *f, const struct run *run)
{
	(void)f;
	(void)run;
	return 0;
}

static int json_row(FILE *f, const struct run *run, const struct row *row)
{
	(void)f;
	(void)run;
	(void)row;
	return 0;
}

static int json_end(FILE *f, const struct run *run)
{
	char *s = result_json_dump(run);
	int rc = 0;

	if (!s)
		return -ENOMEM;
	errno = 0;
	if (fputs(s, f) == EOF || fputc('\n', f) == EOF)
		rc = errno ? -errno : -EIO;	/* the reason (ENOSPC), not only that it failed */
	free(s);
	return rc;
}

const struct out_fmt out_json = {
	.name = "json",
	.ext = "json",
	.begin = json_begin,
	.row = json_row,
	.end = json_end,
};
