/* html_verdict.c - the report's first section: the answer for a database server
 * (stats/verdict.h). Several configurations: the sentence, the command that would decide
 * where the data cannot, and per aspect the leader, its lead with the 95% interval and
 * whether it is significant, beside each configuration's figure; then what each
 * configuration is (file system, mkfs and mount options, device, kernel). One
 * configuration: the aspects as figures beside documented reference points and what
 * limits each here. Then, for every run: what the fsync test found about the write
 * cache (flush_implausible, the wal_sync_method to set) and the steps skipped or left
 * out with their reasons. Every string escaped. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/html.h"
#include "output/html_int.h"
#include "output/numfmt.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/verdict.h"

static void value(FILE *f, const struct verdict_cell *x, const char *unit)
{
	char b[NUMFMT_LEN];

	if (!x->have) {
		fputs("<td class=\"nm\">-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\">");
	html_esc(f, numfmt(b, sizeof(b), x->s.mean, unit));
	if (x->s.n > 1) {
		fputs(" &plusmn; ", f);
		html_esc(f, numfmt(b, sizeof(b), x->s.half, unit));
	}
	if (x->p99_ns > 0) {
		fputs("<br><small>p99 ", f);
		html_esc(f, numfmt(b, sizeof(b), x->p99_ns, "ns"));
		fputs("</small>", f);
	}
	html_flags(f, x->flags);
	fputs("</td>", f);
}

/* The aspect's lead: who, by how much with its interval, and whether it decides. */
static void lead_cell(FILE *f, const struct verdict_aspect *x, const struct verdict *v)
{
	fputs("<td class=\"lead\">", f);
	if (x->leader < v->nconf) {
		html_esc(f, v->conf[x->leader]);
		fprintf(f, " %+.1f%%", x->lead_pct);
		if (x->have_ci)
			fprintf(f, "<br><small>[%+.1f%%, %+.1f%%]</small>", x->lo_pct, x->hi_pct);
		fputs("<br>", f);
	}
	fprintf(f, "<span class=\"%s\">", x->why == VERDICT_DECIDED ? "better" : "refused");
	html_esc(f, x->why == VERDICT_DECIDED ? "significant" : verdict_why_text(x->why));
	if (x->tested)
		fprintf(f, " (p = %.3f)", x->p);
	fputs("</span></td>", f);
}

/* Configurations as rows, aspects as columns (the 2005 posts' grouped table), each
 * configuration's figure; the last row the lead of each aspect and its test. */
static void aspects_table(FILE *f, const struct verdict *v)
{
	size_t c;
	int a;

	fputs("<div class=\"scroll\"><table class=\"verdict\"><thead><tr><th>configuration"
	      "</th>", f);
	for (a = 0; a < VERDICT_NASPECTS; a++) {
		if (v->a[a].why == VERDICT_NO_DATA)
			continue;
		fprintf(f, "<th data-aspect=\"%d\" title=\"", a);
		html_esc(f, verdict_aspect_means(a));
		fputs("\">", f);
		html_esc(f, v->a[a].name);
		fputs("<br><small>", f);
		html_esc(f, v->a[a].higher_better ? "higher is better" : "lower is better");
		fputs("</small></th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (c = 0; c < v->nconf; c++) {
		fputs("<tr data-conf=\"", f);
		html_esc(f, v->conf[c]);
		fputs("\"><th class=\"conf\">", f);
		html_esc(f, v->conf[c]);
		fputs("</th>", f);
		for (a = 0; a < VERDICT_NASPECTS; a++)
			if (v->a[a].why != VERDICT_NO_DATA)
				value(f, verdict_at(v, c, a), v->a[a].unit);
		fputs("</tr>\n", f);
	}
	fputs("<tr class=\"lead\"><th>leads by (95% interval)</th>", f);
	for (a = 0; a < VERDICT_NASPECTS; a++)
		if (v->a[a].why != VERDICT_NO_DATA)
			lead_cell(f, &v->a[a], v);
	fputs("</tr>\n</tbody></table></div>\n", f);
}

/* What each configuration is: a row per configuration. */
static void conf_table(FILE *f, const struct verdict *v)
{
	size_t c;

	fputs("<div class=\"scroll\"><table class=\"confs\"><thead><tr><th>configuration</th>"
	      "<th>file system</th><th>mkfs options</th><th>mount options</th><th>device</th>"
	      "<th>kernel</th></tr></thead><tbody>\n", f);
	for (c = 0; c < v->nconf; c++) {
		const struct run *r = v->conf_run[c];
		const struct row *w = NULL;
		size_t i;

		for (i = 0; r && i < r->nrows && !w; i++) {
			const char *k = kv_get(&r->rows[i]->params, RK_ROW_FS_CONFIG);

			if (k && strstr(v->conf[c], k))
				w = r->rows[i];
		}
		fputs("<tr class=\"conf\"><th>", f);
		html_esc(f, v->conf[c]);
		fputs("</th><td>", f);
		html_esc(f, w ? kv_get(&w->params, RK_ROW_FS) : r->env.fs_type);
		fputs("</td><td><code class=\"nowrap\">", f);
		html_esc(f, w ? kv_get(&w->params, RK_ROW_MKFS_OPTIONS) : "");
		fputs("</code></td><td><code class=\"nowrap\">", f);
		html_esc(f, w ? kv_get(&w->params, RK_ROW_MOUNT_OPTIONS) : r->env.mount_opts);
		fputs("</code></td><td>", f);
		html_esc(f, r->env.device);
		if (r->env.device_model) {
			fputs(" (", f);
			html_esc(f, r->env.device_model);
			fputs(")", f);
		}
		if (w)
			fputs(" <small>a loop device over a file on it</small>", f);
		fputs("</td><td>", f);
		html_esc(f, r->env.kernel);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* One configuration: each aspect beside the reference points and what limits it. */
static void place_table(FILE *f, const struct verdict *v)
{
	char lim[160];
	size_t k;
	int a, n;

	fputs("<div class=\"scroll\"><table class=\"place\"><thead><tr><th>aspect</th>"
	      "<th>here</th><th>reference points</th><th>what limits it here</th></tr>"
	      "</thead><tbody>\n", f);
	for (a = 0; a < VERDICT_NASPECTS; a++) {
		const struct verdict_cell *x = verdict_at(v, 0, a);

		if (!x->have)
			continue;
		fprintf(f, "<tr data-aspect=\"%d\"><td><b>", a);
		html_esc(f, v->a[a].name);
		fputs("</b><br><small>", f);
		html_esc(f, x->figure);
		fputs("</small></td>", f);
		value(f, x, v->a[a].unit);
		fputs("<td><ul class=\"refs\">", f);
		for (k = 0, n = 0; verdict_refs[k].aspect >= 0; k++) {
			char b[NUMFMT_LEN];

			if (verdict_refs[k].aspect != a || !v->a[a].unit ||
			    strcmp(v->a[a].unit, verdict_refs[k].unit))
				continue;	/* only beside points of its own unit */
			n++;
			fputs("<li>", f);
			html_esc(f, numfmt(b, sizeof(b), verdict_refs[k].value,
					   verdict_refs[k].unit));
			fputs(": ", f);
			html_esc(f, verdict_refs[k].what);
			fputs(" <small>(", f);
			html_esc(f, verdict_refs[k].source);
			fputs(")</small></li>", f);
		}
		fputs(n ? "</ul></td><td>" : "<li>none documented</li></ul></td><td>", f);
		html_esc(f, verdict_limit(v, 0, a, lim, sizeof(lim)));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The fastest one-write method of row d's configuration whose figure carries no
 * untrusted flag, or NULL. */
static const struct row *trusted_best(const struct run *run, const struct row *d)
{
	const char *conf = kv_get(&d->params, RK_ROW_FS_CONFIG), *c, *t;
	const struct row *best = NULL;
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		c = kv_get(&w->params, RK_ROW_FS_CONFIG);
		t = kv_get(&w->params, RK_FSYNC_TEST);
		if (strcmp(w->workload, "fsync") || w->repeat != d->repeat || !t ||
		    strcmp(t, "one_write") || (w->flags & flag_untrusted_mask()) ||
		    !(w->rate > 0) || (conf && (!c || strcmp(c, conf))))
			continue;
		if (!best || w->rate > best->rate)
			best = w;
	}
	return best;
}

/* 1 when the one-write test of method (its phase "METHOD_1w") is in the comma-separated
 * list of flagged phases. */
static int listed(const char *list, const char *method)
{
	size_t n = strlen(method);
	const char *p;

	for (p = list; (p = strstr(p, method)); p += n)
		if ((p == list || p[-1] == ',') && !strncmp(p + n, "_1w", 3) &&
		    (p[n + 3] == ',' || p[n + 3] == '\0'))
			return 1;
	return 0;
}

/* The fsync test's findings: write cache, implausible flushes, what to set. */
static void durability(FILE *f, const struct run *run, const char *name)
{
	size_t i;

	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *wc, *im, *wal, *sq, *conf;

		if (strcmp(w->workload, "fsync") || strcmp(w->phase, "durability") || w->repeat)
			continue;
		wc = kv_get(&w->params, RK_FSYNC_WRITE_CACHE);
		im = kv_get(&w->params, RK_FSYNC_IMPLAUSIBLE);
		wal = kv_get(&w->params, RK_FSYNC_WAL_SYNC_METHOD);
		sq = kv_get(&w->params, RK_FSYNC_SQLITE_SYNCHRONOUS);
		conf = kv_get(&w->params, RK_ROW_FS_CONFIG);
		fputs("<li class=\"durability\"><b>", f);
		html_esc(f, conf ? conf : name);
		fputs("</b>: write cache ", f);
		html_esc(f, wc ? wc : "unknown");
		if (w->flags & ROW_FLUSH_IMPLAUSIBLE) {
			fputs("; <span class=\"flag\" data-flag=\"flush_implausible\">"
			      "flush_implausible</span>: ", f);
			html_esc(f, im ? im : "a method");
			fputs(" finished faster than the device can make data durable, so a "
			      "volatile cache acknowledged it: a power cut can lose those "
			      "commits", f);
		}
		if (wal && im && listed(im, wal)) {
			const struct row *b = trusted_best(run, w);
			char n[NUMFMT_LEN];

			fputs("; the fastest method, ", f);
			html_esc(f, wal);
			fputs(", is one of those, so its speed is no reason to choose it", f);
			if (b) {
				fputs("; the fastest method whose flush is plausible is <code>", f);
				html_esc(f, kv_get(&b->params, RK_FSYNC_METHOD));
				fputs("</code> (", f);
				html_esc(f, numfmt(n, sizeof(n), b->rate, b->rate_unit));
				fputs(")", f);
			}
		} else if (wal) {
			fputs("; set PostgreSQL's <code>wal_sync_method = ", f);
			html_esc(f, wal);
			fputs("</code> (the fastest durable method here)", f);
		}
		if (sq) {
			fputs("; for SQLite <code>PRAGMA synchronous = ", f);
			html_esc(f, sq);
			fputs("</code>", f);
		}
		if (w->note) {
			fputs(" (", f);
			html_esc(f, w->note);
			fputs(")", f);
		}
		fputs(".</li>\n", f);
	}
}

/* Steps the battery skipped (the plan's stepN lines) and rows left out with a note. */
static void skipped(FILE *f, const struct run *run, const char *name)
{
	const char *late = kv_get(&run->options, RK_BAT_LATE);
	size_t i;

	for (i = 0; i < run->options.n; i++) {
		const struct kv *o = &run->options.v[i];

		if (strncmp(o->key, "step", 4) || !o->value || !strstr(o->value, "skipped"))
			continue;
		fputs("<li class=\"skipped\">", f);
		html_esc(f, name);
		fputs(": ", f);
		html_esc(f, o->value);
		fputs("</li>\n", f);
	}
	for (i = 0; late && i < run->nrows; i++)
		if (!strcmp(run->rows[i]->phase, "skipped"))
			late = NULL;	/* its rows below say it, per configuration */
	if (late) {
		fputs("<li class=\"skipped\">", f);
		html_esc(f, name);
		fputs(": dropped for the budget: ", f);
		html_esc(f, late);
		fputs("</li>\n", f);
	}
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *c = kv_get(&w->params, RK_ROW_FS_CONFIG);

		if (!(w->flags & ROW_NOT_MEASURED) || (run->flags & RUN_IMPORTED) ||
		    strcmp(w->phase, "skipped"))
			continue;
		fputs("<li class=\"skipped\">", f);
		html_esc(f, c ? c : name);
		fputs(": ", f);
		html_esc(f, w->workload);
		fputs(" skipped: ", f);
		html_esc(f, w->note ? w->note : "no reason recorded");
		fputs("</li>\n", f);
	}
}

int html_verdict_section(FILE *f, const struct report *r)
{
	struct verdict v;
	char name[160];
	size_t i;
	int rc = verdict_build(r->runs, r->names, r->n, &v);

	if (rc < 0)
		return rc;
	fputs("<section class=\"summary\" id=\"verdict\"><h2>For a database server</h2>\n", f);
	if (v.nconf >= 2) {
		fputs("<p class=\"answer\"><b>", f);
		html_esc(f, v.sentence);
		fputs("</b></p>\n", f);
		if (v.command[0]) {
			fputs("<p>What would decide it: <code>", f);
			html_esc(f, v.command);
			fputs("</code></p>\n", f);
		}
		aspects_table(f, &v);
		conf_table(f, &v);
	} else if (v.nconf == 1) {
		fputs("<p>One configuration: its figures for each aspect a database cares about, "
		      "beside documented reference points (docs/methodology.md, \"Reference "
		      "points\"), and what limits each here.</p>\n", f);
		place_table(f, &v);
	}
	fputs("<ul class=\"facts\">\n", f);
	for (i = 0; i < r->n; i++) {
		html_run_name_buf(name, sizeof(name), r, i);
		durability(f, r->runs[i], name);
		skipped(f, r->runs[i], name);
	}
	fputs("</ul>\n</section>\n", f);
	verdict_free(&v);
	return ferror(f) ? -EIO : 0;
}
