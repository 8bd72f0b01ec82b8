/* text_devlat.c - the block-layer latency of a phase in the text, after the system lines
 * (out_text_system calls it): a device: line with the devices and the request count,
 * then one line per operation that completed, each within 80 columns:
 *   device: vda, 120 requests; p50 / p99 / max of device time, then queue time:
 *     write 92: device 28.4 ms 52.2 ms 52.3 ms, queue 2.13 us 6.39 ms 6.42 ms
 *     flush 1: ...
 * Nothing for a row without the figures: the reason there are none was said once on
 * stderr and is in the JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "output/numfmt.h"
#include "output/output.h"
#include "stats/result.h"
#include "stats/result_devlat.h"

/* "28.4 ms 52.2 ms 52.3 ms" */
static void three(FILE *f, const struct rdl_part *p)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN], c[NUMFMT_LEN];

	fprintf(f, "%s %s %s", numfmt(a, sizeof(a), (double)p->p50_ns, "ns"),
		numfmt(b, sizeof(b), (double)p->p99_ns, "ns"),
		numfmt(c, sizeof(c), (double)p->max_ns, "ns"));
}

int out_text_devlat(FILE *f, const struct row *w)
{
	const struct row_devlat *d = w->devlat;
	int first = 1;

	if (!d || d->reason)
		return 0;
	fprintf(f, "  device: %s, %llu request%s", d->devices ? d->devices : "?",
		(unsigned long long)d->requests, d->requests == 1 ? "" : "s");
	if (d->unissued + d->unstamped)
		fprintf(f, " (%llu without times: not seen issued)",
			(unsigned long long)(d->unissued + d->unstamped));
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		const struct rdl_op_figs *o = &d->op[i];

		if (!o->dev.n)
			continue;
		if (first)
			fputs("; p50 / p99 / max of device time, then queue time:\n", f);
		fprintf(f, "    %s %llu: device ", rdl_op_name(i), (unsigned long long)o->dev.n);
		three(f, &o->dev);
		fputs(", queue ", f);
		three(f, &o->queue);
		fputc('\n', f);
		first = 0;
	}
	if (first)
		fputs(": none completed\n", f);
	return ferror(f) ? -EIO : 0;
}
