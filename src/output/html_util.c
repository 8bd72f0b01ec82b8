/* html_util.c - what every part of the report uses: HTML escaping, the flags' words
 * and marks, the columns' and runs' names, the cell lookup (html_int.h). The driver
 * (html.c) and its sections all include it; it includes none of them. */
#include <stdio.h>
#include <string.h>

#include "core/textsafe.h"
#include "output/html.h"
#include "output/html_int.h"
#include "stats/result.h"
#include "stats/result_keys.h"

void html_esc(FILE *f, const char *s)
{
	if (!s)
		return;
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: putc(*s, f); break;
		}
	}
}

/* The flags a cell shows, as short words, and their legend. */
const struct html_flag_word html_flag_words[] = {
	{ ROW_CACHE_INFLATED, "cache", "read largely from the page cache: RAM, not the disk" },
	{ ROW_SHORT, "short", "ran under 0.5 s: timing error may show" },
	{ ROW_INCONSISTENT, "inconsistent", "repeats vary by more than 10% (CV)" },
	{ ROW_INCOMPLETE, "incomplete", "interrupted: the figure covers part of the work" },
	{ ROW_FAILED, "failed", "the phase failed" },
	{ ROW_TOO_FAST, "offloaded", "faster than memory can copy (reflink or offload)" },
	{ ROW_IMPORTED, "imported", "read from an old tool's output, not measured here" },
	{ ROW_STEAL, "steal", "the hypervisor took over 5% of the CPU: the host decided" },
	{ ROW_DEVICE_IDLE, "device idle", "the device moved under 10% of the bytes: the page "
	  "cache answered" },
	{ ROW_WRITEBACK_PENDING, "dirty", "over 10% of the bytes written were still dirty at "
	  "the end: the page cache's rate" },
	{ 0, NULL, NULL },
};
#define NFLAGS (sizeof(html_flag_words) / sizeof(html_flag_words[0]) - 1)

void html_flags(FILE *f, unsigned flags)
{
	size_t i;

	for (i = 0; i < NFLAGS; i++)
		if ((flags & html_flag_words[i].bit) && html_flag_words[i].bit != ROW_IMPORTED)
			fprintf(f, " <span class=\"flag\" title=\"%s\">%s</span>",
				html_flag_words[i].meaning, html_flag_words[i].word);
}

const char *html_flag_mark(unsigned flags)
{
	if (flags & ROW_CACHE_INFLATED)
		return "(cache)";
	if (flags & ROW_INCONSISTENT)
		return "(inconsistent)";
	if (flags & ROW_SHORT)
		return "(short)";
	return NULL;
}

/* ---- columns: the figures across runs ------------------------------------------------ */

const struct row_group *html_cell(const struct report *r, size_t run, size_t col)
{
	return r->cells[run * r->ncols + col];
}

void html_col_name(FILE *f, const struct row *w)
{
	const char *d = kv_get(&w->params, RK_ROW_DETAIL);

	html_esc(f, w->workload);
	fputc(' ', f);
	html_esc(f, w->phase);
	if (d) {
		fputc(' ', f);
		html_esc(f, d);
	}
}

/* "A: ext4 tuned" - the run's letter and name (label, else the tool of an imported run,
 * else file system and device, else its id). Escaped. */
void html_run_name(FILE *f, const struct report *r, size_t i)
{
	char buf[160];

	html_run_name_buf(buf, sizeof(buf), r, i);
	html_esc(f, buf);
}

/* Same as html_run_name into a buffer (unescaped: svg.c escapes). */
void html_run_name_buf(char *buf, size_t len, const struct report *r, size_t i)
{
	const struct run *run = r->runs[i];
	char c = (char)('A' + (i % 26));

	if (run->label)
		snprintf(buf, len, "%c: %s", c, run->label);
	else if ((run->flags & RUN_IMPORTED) && run->env.tool_version)
		snprintf(buf, len, "%c: %s", c, run->env.tool_version);
	else if (run->env.fs_type)
		snprintf(buf, len, "%c: %s%s%s", c, run->env.fs_type, run->env.device ? " on " : "",
			 run->env.device ? run->env.device : "");
	else
		snprintf(buf, len, "%c: %s", c, run->id ? run->id : "?");
	textsafe_utf8_trim(buf);	/* a cut name must not end inside a character */
}
