/* text_verdict.c - the verdict for a database server in the terminal (verdict_out.h):
 * what the battery's text, `iobattery report` and `iobattery compare` print first.
 * Lines at most VERDICT_COLS columns; the sentence wrapped at words. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/numfmt.h"
#include "output/output.h"
#include "output/verdict_out.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/verdict.h"

#define VERDICT_COLS 96

/* text after first, wrapped at spaces to VERDICT_COLS columns, the lines after the
 * first indented as deep as first. */
static void wrap(FILE *f, const char *first, const char *text)
{
	size_t in = strlen(first), col = 0, w;
	int lines = 0;
	const char *p = text;

	while (*p) {
		while (*p == ' ')
			p++;
		for (w = 0; p[w] && p[w] != ' '; w++)
			;
		if (!w)
			break;
		if (col && col + 1 + w > VERDICT_COLS) {
			fputc('\n', f);
			col = 0;
		}
		if (!col) {
			if (lines++)
				fprintf(f, "%*s", (int)in, "");
			else
				fputs(first, f);
			col = in;
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
	}
	if (col)
		fputc('\n', f);
}

/* "1.20 k ops/s +-30 p99 3.1 ms [short]" */
static char *figure(char *buf, size_t len, const struct verdict_cell *x, const char *unit)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];
	size_t n;
	unsigned i;

	if (!x->have) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* byte rates in the text's one family (--units), as the tables print them */
	n = (size_t)snprintf(buf, len, "%s", out_text_rate(a, sizeof(a), x->s.mean, unit));
	if (x->s.n > 1 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " +-%s",
				      out_text_rate(b, sizeof(b), x->s.half, unit));
	if (x->p99_ns > 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " p99 %s",
				      numfmt(b, sizeof(b), x->p99_ns, "ns"));
	for (i = 0; flag_table[i].name && n < len; i++)
		if ((x->flags & flag_table[i].bit) && flag_table[i].bit != ROW_IMPORTED)
			n += (size_t)snprintf(buf + n, len - n, " [%s]", flag_table[i].name);
	return buf;
}

static void several(FILE *f, const struct verdict *v)
{
	char line[1024], fig[160];
	size_t c, n;
	int a;

	fputs("verdict for a database server:\n", f);
	wrap(f, "  ", v->sentence);
	if (v->command[0]) {
		fputs("  what would decide it:\n", f);
		wrap(f, "    ", v->command);
	}
	static const char *const no[] = {
		[VERDICT_DECIDED] = "yes", [VERDICT_NO_DATA] = "no (not measured)",
		[VERDICT_ONE_CONF] = "no (one config only)",
		[VERDICT_UNTRUSTED] = "no (flagged figures)", [VERDICT_SINGLE] = "no (single runs)",
		[VERDICT_OVERLAP] = "no (intervals overlap)",
	};
	int w = 5;

	for (c = 0; c < v->nconf; c++)
		if ((int)strlen(v->conf[c]) > w)
			w = (int)strlen(v->conf[c]);
	w = w > 22 ? 22 : w;
	fprintf(f, "  %-19s %-*s %8s  %-18s %s\n", "aspect", w, "leads", "by", "95% interval",
		"significant?");
	for (a = 0; a < VERDICT_NASPECTS; a++) {
		const struct verdict_aspect *x = &v->a[a];
		char ci[48] = "-";

		if (x->why == VERDICT_NO_DATA)
			continue;
		if (x->have_ci)
			snprintf(ci, sizeof(ci), "[%+.0f%%, %+.0f%%]", x->lo_pct, x->hi_pct);
		if (x->leader < v->nconf)
			fprintf(f, "  %-19s %-*.*s %+7.1f%%  %-18s %s\n", x->name, w, w,
				v->conf[x->leader], x->lead_pct, ci, no[x->why]);
		else
			fprintf(f, "  %-19s %-*s %8s  %-18s %s\n", x->name, w, "-", "-", "-",
				no[x->why]);
		for (c = 0, n = 0; c < v->nconf && n < sizeof(line); c++)
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %s", c ? "; " : "",
					      v->conf[c], figure(fig, sizeof(fig),
								 verdict_at(v, c, a), x->unit));
		wrap(f, "      ", line);
	}
}

static void one(FILE *f, const struct verdict *v)
{
	char fig[160], lim[160], b[NUMFMT_LEN];
	size_t k;
	int a;

	fputs("for a database server (one configuration; reference points: "
	      "docs/methodology.md):\n", f);
	for (a = 0; a < VERDICT_NASPECTS; a++) {
		const struct verdict_cell *x = verdict_at(v, 0, a);

		if (!x->have)
			continue;
		fprintf(f, "  %-20s %s\n", v->a[a].name, figure(fig, sizeof(fig), x,
								 v->a[a].unit));
		for (k = 0; verdict_refs[k].aspect >= 0; k++) {
			char line[512];

			if (verdict_refs[k].aspect != a || !v->a[a].unit ||
			    strcmp(v->a[a].unit, verdict_refs[k].unit))
				continue;	/* only beside points of its own unit */
			out_text_rate(b, sizeof(b), verdict_refs[k].value, verdict_refs[k].unit);
			snprintf(line, sizeof(line), "%s: %s", b, verdict_refs[k].what);
			wrap(f, "      beside ", line);
		}
		wrap(f, "      limited by ", verdict_limit(v, 0, a, lim, sizeof(lim)));
	}
}

int out_text_verdict(FILE *f, struct run *const *runs, const char *const *names, size_t n)
{
	struct verdict v;
	int rc = verdict_build(runs, names, n, &v);

	if (rc < 0)
		return rc;
	if (v.nconf >= 2)
		several(f, &v);
	else if (v.nconf == 1 && n == 1 && runs[0]->workload &&
		 (!strcmp(runs[0]->workload, "battery") || !strcmp(runs[0]->workload, "run")))
		one(f, &v);
	if (v.nconf >= 1)
		fputc('\n', f);
	verdict_free(&v);
	return ferror(f) ? -EIO : 0;
}
