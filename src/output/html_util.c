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

/* The flags a cell shows, by their one name (stats/flags.h), the meaning as a title. */
void html_flags(FILE *f, unsigned flags)
{
	size_t i;

	for (i = 0; html_flag_words[i].name; i++) {
		if (!(flags & html_flag_words[i].bit) || html_flag_words[i].bit == ROW_IMPORTED)
			continue;
		fprintf(f, " <span class=\"flag\" data-flag=\"%s\" title=\"",
			html_flag_words[i].name);
		html_esc(f, html_flag_words[i].meaning);
		fprintf(f, "\">%s</span>", html_flag_words[i].name);
	}
}

const char *html_flag_mark(unsigned flags)
{
	if (flags & ROW_CACHE_INFLATED)
		return "(cache_inflated)";
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
	else if (kv_get(&run->options, "fs"))	/* several file systems: each row says which */
		snprintf(buf, len, "%c: %s --fs %s", c, run->workload ? run->workload : "battery",
			 kv_get(&run->options, "fs"));
	else if ((run->flags & RUN_IMPORTED) && run->env.tool_version)
		snprintf(buf, len, "%c: %s", c, run->env.tool_version);
	else if (run->env.fs_type)
		snprintf(buf, len, "%c: %s%s%s", c, run->env.fs_type, run->env.device ? " on " : "",
			 run->env.device ? run->env.device : "");
	else
		snprintf(buf, len, "%c: %s", c, run->id ? run->id : "?");
	textsafe_utf8_trim(buf);	/* a cut name must not end inside a character */
}
