/* output.c - the formatter table and the begin/rows/end driver. */
#include <errno.h>
#include <string.h>

#include "output/output.h"
#include "output/termsafe.h"
#include "stats/result.h"

static const struct out_fmt *const out_fmts[] = {
	&out_text,
	&out_json,
	&out_csv,
	&out_fio_json,
	&out_fio_json_plus,
	NULL,
};

const struct out_fmt *out_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; out_fmts[i]; i++)
		if (strcmp(out_fmts[i]->name, name) == 0)
			return out_fmts[i];
	return NULL;
}

int out_write(const struct out_fmt *fmt, FILE *f, const struct run *run)
{
	struct run *safe = NULL;
	int rc = 0;

	if (!fmt || !f || !run)
		return -EINVAL;
	/* text is read on terminals: control characters from data are escaped first */
	if (fmt == &out_text && (safe = termsafe_copy(run, &rc)) != NULL)
		run = safe;
	if (rc < 0)
		return rc;
	if (fmt->begin)
		rc = fmt->begin(f, run);
	for (size_t i = 0; rc >= 0 && i < run->nrows; i++)
		if (fmt->row)
			rc = fmt->row(f, run, run->rows[i]);
	if (rc >= 0 && fmt->end)
		rc = fmt->end(f, run);
	errno = 0;
	/* a formatter knows only that the stream failed (-EIO); the flush says why */
	if (fflush(f) != 0 && (rc >= 0 || rc == -EIO))
		rc = errno ? -errno : -EIO;
	if (ferror(f) && rc >= 0)
		rc = -EIO;
	run_free(safe);
	return rc < 0 ? rc : 0;
}
