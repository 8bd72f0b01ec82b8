/* text_system.c - what the system did during a phase, in a few indented lines after the
 * phase's own text: the device's util, await and queue, write amplification, CPU iowait
 * and steal, the commonest wait states, the flags from these figures in words, and the
 * device's temperature over the phase where the series holds it (sustained). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "stats/result.h"
#include "stats/result_sys.h"

#define TEXT_CPU_MATTERS	1.0	/* iowait and steal shown from this share up */
#define TEXT_WAITS		3	/* wait states shown */
#define TEXT_WAIT_MIN		1.0	/* ... with at least this share */
#define TEXT_HIDDEN_MIN		10	/* "hidden" said from this many observations */
#define TEXT_TEMPS		8	/* temperature readings shown */

static void dev_part(FILE *f, const struct row_sys *s)
{
	const struct row_sys_dev *d = &s->dev[0];
	const double *v = d->v;

	fprintf(f, "%s util %.0f%%", d->name ? d->name : "?", v[RSD_UTIL]);
	if (v[RSD_R_S] > 0)
		fprintf(f, " r_await %.2f ms", v[RSD_R_AWAIT]);
	if (v[RSD_W_S] > 0)
		fprintf(f, " w_await %.2f ms", v[RSD_W_AWAIT]);
	fprintf(f, " aqu-sz %.2f", v[RSD_AQU_SZ]);
	if (s->ndev > 1)
		fprintf(f, " (%zu more below)", s->ndev - 1);
}

static void cpu_part(FILE *f, const struct row_sys *s)
{
	double io = s->v[RS_CPU_IOWAIT], st = s->v[RS_CPU_STEAL];

	if (io >= TEXT_CPU_MATTERS)
		fprintf(f, "; iowait %.0f%%", io);
	if (st >= TEXT_CPU_MATTERS)
		fprintf(f, "; steal %.0f%%", st);
}

static void waits_line(FILE *f, const struct row_sys *s)
{
	size_t shown = 0;
	int hidden;

	for (size_t i = 0; i < s->nwait && shown < TEXT_WAITS; i++) {
		const struct row_sys_wait *w = &s->wait[i];

		if (!(w->share_pct >= TEXT_WAIT_MIN))
			continue;
		fprintf(f, "%s%c", shown ? ", " : "  waits: ", w->state);
		if (w->wchan && *w->wchan)
			fprintf(f, " %s", w->wchan);
		if (w->syscall && *w->syscall)
			fprintf(f, " (%s)", w->syscall);
		fprintf(f, " %.0f%%", w->share_pct);
		shown++;
	}
	hidden = s->wchan_hidden == 1 && s->v[RS_WAIT_OBS] >= TEXT_HIDDEN_MIN;
	if (hidden)
		fputs(shown ? ", wait channels hidden" : "  waits: wait channels hidden", f);
	if (shown || hidden)
		fputc('\n', f);
}

static void flag_lines(FILE *f, const struct row *w, const struct row_sys *s)
{
	const struct row_sys_dev *d = s->ndev ? &s->dev[0] : NULL;

	if (w->flags & ROW_STEAL)
		fprintf(f, "  steal: the hypervisor took %.0f%% of the CPU time; the figure "
			"depends on the host\n", s->v[RS_CPU_STEAL]);
	if ((w->flags & ROW_DEVICE_IDLE) && d && w->bytes)
		fprintf(f, "  device idle: %s moved %.1f%% of the phase's bytes: the page cache "
			"answered, not the device\n", d->name ? d->name : "the device",
			100.0 * (d->v[RSD_RD_BYTES] + d->v[RSD_WR_BYTES]) / (double)w->bytes);
	if (w->flags & ROW_WRITEBACK_PENDING) {
		double grew = s->v[RS_DIRTY1] + s->v[RS_WB1] - s->v[RS_DIRTY0] - s->v[RS_WB0];

		/* the gauges count whole pages of the whole system (a 500-byte file dirties a
		 * 4 KiB page, and its inode and directory too): a growth above the bytes
		 * written is not a share of them */
		if (grew <= s->v[RS_WL_WRITTEN])
			fprintf(f, "  writeback pending: %.0f%% of the bytes written were still "
				"dirty when the phase ended\n", 100.0 * grew / s->v[RS_WL_WRITTEN]);
		else
			fprintf(f, "  writeback pending: the dirty and writeback pages grew by "
				"%.0f kB, more than the %.0f kB written (whole pages and metadata "
				"count, system-wide): still dirty when the phase ended\n",
				grew / 1024, s->v[RS_WL_WRITTEN] / 1024);
	}
}

/* The device's temperature over the phase (sustained's series): up to TEXT_TEMPS readings
 * evenly through it, each with its time. */
static void temp_line(FILE *f, const struct row *w)
{
	const struct row_series *se = w->series;
	size_t i, n = 0, k, shown = 0, last = (size_t)-1;

	for (i = 0; se && i < se->n; i++)
		n += isfinite(se->v[RSE_TEMP_C][i]) != 0;
	if (!n)
		return;
	fprintf(f, "  temperature:");
	for (k = 0; k < TEXT_TEMPS && k < se->n; k++) {
		/* k-th of TEXT_TEMPS points from the first interval to the last */
		i = se->n <= TEXT_TEMPS ? k : k * (se->n - 1) / (TEXT_TEMPS - 1);
		if (i == last || !isfinite(se->v[RSE_TEMP_C][i]))
			continue;
		last = i;
		fprintf(f, "%s %.1f C at %.2f s", shown++ ? "," : "", se->v[RSE_TEMP_C][i],
			se->v[RSE_T_NS][i] / 1e9);
	}
	fprintf(f, " (%zu readings, one an interval)\n", n);
}

int out_text_system(FILE *f, const struct row *w, const char *label)
{
	const struct row_sys *s = w->sys;

	if (!s) {
		temp_line(f, w);
		return ferror(f) ? -EIO : 0;
	}
	fprintf(f, "  system%s%s: ", label ? " " : "", label ? label : "");
	if (s->ndev)
		dev_part(f, s);
	else
		fprintf(f, "no device figures (%s)", s->devices_reason ? s->devices_reason :
			"no block device");
	if (isfinite(s->v[RS_WRITE_AMP]) && s->v[RS_WL_WRITTEN] >= RSYS_MIN_BYTES)
		fprintf(f, "; write amplification %.2f", s->v[RS_WRITE_AMP]);
	cpu_part(f, s);
	fputc('\n', f);
	waits_line(f, s);
	flag_lines(f, w, s);
	temp_line(f, w);
	out_text_devlat(f, w);
	return ferror(f) ? -EIO : 0;
}
