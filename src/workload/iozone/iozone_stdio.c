/* iozone_stdio.c - iozone's tests 6 and 7 are the C library's buffered I/O itself:
 * fwrite/frewrite and fread/freread of whole records through a FILE whose buffer is one
 * record (iozone's setvbuf), each call timed on its own. The fsync of -e and of the
 * untimed end goes through the runner. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs/scratch.h"
#include "workload/iozone/iozone_int.h"

int ioz_stdio_open(struct ioz_pass *p, struct ioz_job *j)
{
	struct stat st;
	const char *how;

	/* as iozone: fwrite updates the file in place ("r+") when it exists, else makes
	 * it ("w+"); fread opens it read-only */
	if (j->reads)
		how = "r";
	else
		how = ioctx_stat(&j->io, j->path, &st) == 0 ? "r+" : "w+";
	free(j->sbuf);
	j->sbuf = malloc(p->rec);
	if (!j->sbuf)
		return -ENOMEM;
	j->fp = fopen(j->path, how);
	if (!j->fp)
		return ioz_fail(j, "fopen", errno ? -errno : -EIO);
	if (setvbuf(j->fp, j->sbuf, _IOFBF, p->rec) != 0) {
		fclose(j->fp);
		j->fp = NULL;
		return -ENOMEM;
	}
	return 0;
}

int ioz_stdio_close(struct ioz_job *j, int do_sync, uint64_t *sync_ns)
{
	uint64_t t0;
	int rc = 0;

	*sync_ns = 0;
	if (!j->fp)
		return 0;
	if (fflush(j->fp) == EOF)
		rc = ioz_fail(j, "fflush", errno ? -errno : -EIO);
	if (do_sync && !rc) {
		t0 = clock_ns();
		rc = ioctx_sync(&j->io, fileno(j->fp), 0);
		if (rc < 0)
			ioz_fail(j, "fsync after the test", rc);
		else
			*sync_ns = clock_ns() - t0;
	}
	if (fclose(j->fp) == EOF && !rc)
		rc = ioz_fail(j, "fclose", errno ? -errno : -EIO);
	j->fp = NULL;
	return rc;
}

/* -e: fflush and fsync inside the timer; -c: fclose inside it. */
static int stdio_tail(struct ioz_pass *p, struct ioz_job *j)
{
	int rc = 0;

	if (p->c->fsync_timed) {
		if (fflush(j->fp) == EOF)
			rc = ioz_fail(j, "fflush", errno ? -errno : -EIO);
		else if ((rc = ioctx_sync(&j->io, fileno(j->fp), 0)) < 0)
			ioz_fail(j, "fsync", rc);
	}
	if (p->c->close_timed) {
		if (fclose(j->fp) == EOF && !rc)
			rc = ioz_fail(j, "fclose", errno ? -errno : -EIO);
		j->fp = NULL;
	}
	return rc;
}

int ioz_stdio_loop(struct ioz_pass *p, struct ioz_job *j, struct worker *w)
{
	size_t rec = (size_t)p->rec;
	uint64_t i, t0;
	int rc = 0;

	worker_start(w);
	for (i = 0; i < p->nrec; i++) {
		size_t n;

		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		if (p->stonewall && ioz_stonewalled(p, j, w))
			break;
		t0 = op_begin();
		n = j->reads ? fread(j->buf, rec, 1, j->fp) : fwrite(j->buf, rec, 1, j->fp);
		if (n != 1) {
			rc = ioz_fail(j, j->reads ? "fread" : "fwrite",
				      ferror(j->fp) && errno ? -errno : -EIO);
			op_end(w, t0, rc);
			break;
		}
		op_end(w, t0, (int64_t)rec);
	}
	j->t_written = clock_ns();
	if (rc)
		return rc;
	ioz_finished(p, j, w);
	rc = stdio_tail(p, j);
	j->t_end = clock_ns();
	w->t_last = j->t_end;
	if (!j->stopped)
		ioz_count(j, w, j->t_end);
	if (rc && !w->err)
		w->err = rc;
	return rc;
}
