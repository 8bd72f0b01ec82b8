/* job_fileops.h - fio's file-metadata engines (filecreate, filestat, filedelete;
 * dircreate, dirstat, dirdelete) for the job workload (job_fileops.c). */
#ifndef IOB_WORKLOAD_JOB_FILEOPS_H
#define IOB_WORKLOAD_JOB_FILEOPS_H

#include "workload/job/job_run.h"

/* ioengine=name when it is one of them, or falloc or ftruncate: sets d->xo.fileop or
 * d->xo.iometa and d->engine_name; 0. 1 when name is another engine (both then none). */
int job_fileop_engine(struct job_def *d, const char *name);
/* Appends ", filecreate, filestat, ..., falloc, ftruncate" (every name job_fileop_engine
 * takes) to the string in buf; what does not fit is left out. */
void job_fileop_names(char *buf, size_t len);
/* The thread's run: one timed call per file (per loop for filestat). 0 or -errno (the
 * error also in t->st). */
int job_fileops_run(struct job_thread *t, struct worker *w);

#endif
