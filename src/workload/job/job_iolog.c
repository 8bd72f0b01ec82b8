/* job_iolog.c - fio's write_iolog: the requests a thread issued, one line each, in fio's
 * version 3 format ("fio version 3 iolog", then "FILE add", "FILE open", "MS FILE read
 * OFFSET LENGTH" per request, "FILE close"; --wearout's round appends "FILE open", its
 * requests and "FILE close" again): an output the user asked for, written with stdio.
 * Only a job with write_iolog pays for it (a branch per request otherwise). */
#include <errno.h>
#include <stdio.h>

#include "workload/job/job_run.h"

/* The log of the first round (created: never one that was there), or the same file again,
 * its end (it must exist: "r+" creates nothing). NULL with errno set on failure. */
static FILE *ji_file(const char *path, bool append)
{
	FILE *f;
	int e;

	if (!append)
		return fopen(path, "wx");
	f = fopen(path, "r+");
	if (f && fseeko(f, 0, SEEK_END) != 0) {
		e = errno;
		(void)fclose(f);	/* nothing written through it: its result adds nothing */
		errno = e;
		return NULL;
	}
	return f;
}

FILE *job_iolog_open(const char *path, const char *const *files, unsigned n, bool append,
		     int *err)
{
	FILE *f = ji_file(path, append);
	unsigned i;

	if (!f) {
		*err = -errno;
		return NULL;
	}
	if (!append) {
		fputs("fio version 3 iolog\n", f);
		for (i = 0; i < n; i++)
			fprintf(f, "%s add\n", files[i]);
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s open\n", files[i]);
	return f;
}

void job_iolog_io(FILE *f, uint64_t ms, const char *file, unsigned dir, uint64_t off,
		  uint64_t len)
{
	static const char *const op[JOB_NDIR] = { "read", "write", "trim", "sync" };

	fprintf(f, "%llu %s %s %llu %llu\n", (unsigned long long)ms, file, op[dir],
		(unsigned long long)off, (unsigned long long)len);
}

int job_iolog_close(FILE *f, const char *const *files, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s close\n", files[i]);
	if (ferror(f)) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}
