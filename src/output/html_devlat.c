/* html_devlat.c - the report's block-layer latency: for every row with figures (of every
 * run, the first repeat of each), a table of the tool's own latency beside the device
 * time and queue time per request class (p50, p99, max), so a reader sees how much of the
 * time the application waited the device took. Nothing when no row has the figures. */
#include <stdio.h>

#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/result.h"
#include "stats/result_devlat.h"

static void cell3(FILE *f, uint64_t a, uint64_t b, uint64_t c)
{
	char x[NUMFMT_LEN], y[NUMFMT_LEN], z[NUMFMT_LEN];

	fprintf(f, "<td>%s</td><td>%s</td><td>%s</td>", numfmt(x, sizeof(x), (double)a, "ns"),
		numfmt(y, sizeof(y), (double)b, "ns"), numfmt(z, sizeof(z), (double)c, "ns"));
}

static void one_row(FILE *f, const struct report *r, size_t i, const struct row *w)
{
	const struct row_devlat *d = w->devlat;
	int first = 1;

	for (unsigned k = 0; k < RDL_NOPS; k++) {
		const struct rdl_op_figs *o = &d->op[k];

		if (!o->dev.n)
			continue;
		fputs("<tr><td>", f);
		if (first) {
			if (r->n > 1) {
				html_run_name(f, r, i);
				fputc(' ', f);
			}
			html_col_name(f, w);
			fputs(" (", f);
			html_esc(f, d->devices ? d->devices : "");
			fputs(")</td>", f);
			if (w->lat.valid)
				cell3(f, w->lat.p50_ns, w->lat.p99_ns, w->lat.max_ns);
			else
				fputs("<td colspan=\"3\">-</td>", f);
		} else {
			fputs("</td><td colspan=\"3\"></td>", f);
		}
		fprintf(f, "<td>%s</td><td>%llu</td>", rdl_op_name(k),
			(unsigned long long)o->dev.n);
		cell3(f, o->dev.p50_ns, o->dev.p99_ns, o->dev.max_ns);
		cell3(f, o->queue.p50_ns, o->queue.p99_ns, o->queue.max_ns);
		fputs("</tr>\n", f);
		first = 0;
	}
}

void html_devlat_section(FILE *f, const struct report *r)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < r->n && !any; i++)
		for (j = 0; j < r->runs[i]->nrows && !any; j++)
			any = r->runs[i]->rows[j]->devlat && !r->runs[i]->rows[j]->devlat->reason;
	if (!any)
		return;
	fputs("<h2 id=\"device-latency\">Device latency</h2>\n<p>The tool's latency per call "
	      "beside the block layer's own times for the same phase (a BPF program on the "
	      "block tracepoints): device time from a request's issue to the driver to its "
	      "completion, queue time from its insertion into the I/O scheduler to its "
	      "issue, per request class, for every request of the target's devices in the "
	      "phase's window.</p>\n<table><tr><th rowspan=\"2\">figure</th>"
	      "<th colspan=\"3\">tool latency</th><th rowspan=\"2\">class</th>"
	      "<th rowspan=\"2\">requests</th><th colspan=\"3\">device time</th>"
	      "<th colspan=\"3\">queue time</th></tr>\n<tr><th>p50</th><th>p99</th><th>max</th>"
	      "<th>p50</th><th>p99</th><th>max</th><th>p50</th><th>p99</th><th>max</th></tr>\n",
	      f);
	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->runs[i]->nrows; j++) {
			const struct row *w = r->runs[i]->rows[j];

			if (w->devlat && !w->devlat->reason && !w->repeat)
				one_row(f, r, i, w);
		}
	fputs("</table>\n", f);
}
