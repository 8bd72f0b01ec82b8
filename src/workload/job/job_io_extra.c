/* job_io_extra.c - what a completion does only when fio's logs (job_logs.h), steady
 * state (job_ss.h) or lat_percentiles=1 on an asynchronous engine (the total latency's
 * histogram) are on: out of the I/O loop's own file so that the loop stays as it is
 * without them (one predictable branch per request in jw_account). */
#include "workload/job/job_io_int.h"
#include "workload/job/job_logs.h"
#include "workload/job/job_ss.h"

void __attribute__((noinline)) jw_extra(struct jw *j, const struct engine_req *r, unsigned d,
					uint64_t t1)
{
	struct job_stats *s = j->s;

	if (j->ramp_end)	/* ramp_time is not over: neither logged nor judged */
		return;
	if (s->lat_h)		/* lat_percentiles=1 on an asynchronous engine */
		hist_add(&s->lat_h[d], t1 - j->t_fill[r->slot]);
	if (j->tl) {
		struct job_tlog_req q = {
			.dir = d, .t = t1 > j->log_t0 ? t1 - j->log_t0 : 0,
			.clat = t1 - r->t_issue, .slat = UINT64_MAX, .bytes = (uint64_t)r->res,
			.bs = r->len, .off = r->off, .prio = r->ioprio,
		};

		q.lat = q.clat;
		if (j->async) {
			uint64_t tf = j->t_fill[r->slot];

			q.slat = r->t_issue - tf;
			q.lat = t1 - tf;
		}
		job_tlog_io(j->tl, &q);
	}
	if (t1 >= j->ss_next) {
		if (job_ss_tick(j->ss, t1, s->bytes[JOB_READ] + s->bytes[JOB_WRITE] +
				s->bytes[JOB_TRIM], s->ios[JOB_READ] + s->ios[JOB_WRITE] +
				s->ios[JOB_TRIM], s->clat[JOB_READ].sum + s->clat[JOB_WRITE].sum +
				s->clat[JOB_TRIM].sum, s->clat[JOB_READ].n + s->clat[JOB_WRITE].n +
				s->clat[JOB_TRIM].n))
			j->stop = true;	/* attained: the job ends here, as fio's */
		j->ss_next = job_ss_next(j->ss);
	}
}
