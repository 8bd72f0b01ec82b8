/* job_prepare.c - the job pipeline before any file is touched, written once for
 * `iobattery job` and the battery's job step: the plan, each thread's engine with its
 * options, the safety and size checks. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/job/job_check.h"
#include "workload/job/job_run.h"

/* Thread t's engine (in this build, able to run here) and its options, applied through
 * engine_opt_set as the job set them. 0 or -EINVAL with the message in err. */
static int resolve(struct job_thread *t, char *err, size_t errlen)
{
	const struct job_def *d = t->d;
	const struct engine *e = d->engine;
	const char *why;
	unsigned i;
	int rc;

	memset(&t->eo, 0, sizeof(t->eo));
	if (e->absent)
		return job_plan_err(d, err, errlen, "ioengine=%s is not available: %s", e->name,
				    e->absent);
	if (e->probe && (rc = e->probe()) < 0) {
		why = engine_hint(e, NULL, rc);
		return job_plan_err(d, err, errlen, "ioengine=%s cannot run here: %s%s%s; "
				    "ioengine=psync works everywhere", e->name, strerror(-rc),
				    why ? ": " : "", why ? why : "");
	}
	for (i = 0, rc = 0; i < d->neopt && !rc; i++)
		rc = engine_opt_set(e, &t->eo, d->eopt[i].name, d->eopt[i].value);
	if (rc)
		return job_plan_err(d, err, errlen, "an engine option of ioengine=%s cannot be "
				    "used: %s", e->name, strerror(-rc));
	t->e = e;
	return 0;
}

int job_prepare(struct job_plan *p, const struct job_list *l, const char *const *sect,
		unsigned nsect, const struct job_safety *sf, char *err, size_t errlen)
{
	unsigned i, k;
	int rc;

	rc = job_plan_build(p, l, sect, nsect, sf, err, errlen);
	if (rc < 0)
		return rc;
	for (i = 0; i < p->nthreads; i++) {
		struct job_thread *t = &p->threads[i];

		if ((rc = resolve(t, err, errlen)) < 0)
			return rc;
		/* the null engine touches no file: its files need no layout */
		if (!(t->e->flags & ENGINE_F_NOIO))
			for (k = 0; k < t->nfiles; k++)
				p->files[t->files[k].file].io = true;
	}
	return job_plan_check(p, sf, err, errlen);
}
