/* import_psql.c - psql in a paste: after a `psql ... -f FILE` command line (usually
 * `time psql -d perftst -f ptst.sql`), the command tags psql prints (CREATE TABLE,
 * INSERT 0 500000, DELETE 38462, VACUUM ...) and the result tables of its queries are
 * collected; the `time` record that follows makes them one db run: a script_total row
 * with time's real as the elapsed time, user and sys as CPU, the statements counted and
 * the tags kept, as `iobattery db` reports a script. See import.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The first words of the command tags psql prints. */
static const char *const tag_words[] = {
	"ALTER", "ANALYZE", "BEGIN", "CHECKPOINT", "CLUSTER", "COMMENT", "COMMIT", "COPY",
	"CREATE", "DELETE", "DO", "DROP", "GRANT", "INSERT", "LOCK", "MOVE", "FETCH",
	"REINDEX", "REVOKE", "ROLLBACK", "SELECT", "SET", "TRUNCATE", "UPDATE", "VACUUM", NULL,
};

/* "INSERT 0 500000", "DROP TABLE", "VACUUM": a known first word, then upper-case words
 * and numbers only. */
static int is_tag(const char *l)
{
	const char *const *w;
	size_t n = strcspn(l, " ");

	for (w = tag_words; *w; w++)
		if (strlen(*w) == n && !strncmp(l, *w, n))
			break;
	if (!*w)
		return 0;
	for (l += n; *l; l++)
		if (!isupper((unsigned char)*l) && !isdigit((unsigned char)*l) && *l != ' ')
			return 0;
	return 1;
}

/* A line of a query's result table: "a | b", "----+----" (1), or its end "(6 rows)",
 * "(1 row)" (2, the count in *rows). 0 otherwise. */
static int is_result_line(const char *l, unsigned long *rows)
{
	char w[8];

	if (strstr(l, " | ") || (l[0] == '-' && strchr(l, '+')) || !strncmp(l, "---", 3))
		return 1;
	if (sscanf(l, "(%lu %7[a-z])", rows, w) == 2 && (!strcmp(w, "rows") || !strcmp(w, "row")))
		return 2;
	return 0;
}

static void add_tag(struct import_psql *p, const char *tag)
{
	size_t len = strlen(p->tags), n = strlen(tag);

	if (len + n + 3 < sizeof(p->tags))
		snprintf(p->tags + len, sizeof(p->tags) - len, "%s%s", len ? "; " : "", tag);
	else
		p->truncated = 1;
	p->ntags++;
}

void import_psql_command(struct import_psql *p, const char *cmd, unsigned lineno)
{
	const char *f;
	size_t n;

	memset(p, 0, sizeof(*p));
	if (strncmp(cmd, "psql ", 5) && strncmp(cmd, "time psql ", 10))
		return;
	p->active = 1;
	p->line = lineno;
	f = strstr(cmd, " -f ");
	if (f) {
		f += 4;
		while (*f == ' ')
			f++;
		n = strcspn(f, " ;&|");
		snprintf(p->script, sizeof(p->script), "%.*s", (int)n, f);
	}
}

int import_psql_line(struct import_psql *p, const char *l)
{
	unsigned long rows;
	char tag[40];
	int k;

	if (!p->active)
		return 0;
	k = is_result_line(l, &rows);
	if (k == 2) {
		/* psql prints no tag for a query that returns rows: its count stands for it */
		snprintf(tag, sizeof(tag), "SELECT %lu", rows);
		add_tag(p, tag);
	}
	if (k)
		return 1;
	if (!is_tag(l))
		return 0;
	add_tag(p, l);
	return 1;
}

int import_psql_emit(struct import_psql *p, struct import_set *set, const char *source,
		     const char *cmd, const double t[3], unsigned lineno)
{
	struct run *run;
	struct row *w;
	char key[3000];

	if (!p->active || !p->ntags)
		return 0;
	p->active = 0;
	run = run_new("db");
	if (!run)
		return -ENOMEM;
	run->env.rotational = run->env.virtualized = -1;
	w = run_add_row(run, "db", "script_total");
	if (!w || str_set(&run->command_line, cmd) < 0 ||
	    kv_set(&run->options, RK_DB_ENGINE, "postgresql") < 0 ||
	    (p->script[0] && kv_set(&run->options, RK_DB_SCRIPT, "%s", p->script) < 0) ||
	    kv_set(&w->params, RK_DB_ENGINE, "postgresql") < 0 ||
	    (p->script[0] && kv_set(&w->params, RK_DB_SCRIPT, "%s", p->script) < 0) ||
	    kv_set(&w->params, RK_DB_STATEMENTS, "%u", p->ntags) < 0 ||
	    kv_set(&w->params, RK_ROW_DETAIL, "%u statements", p->ntags) < 0 ||
	    kv_set(&w->params, RK_IMPORT_TAGS, "%s%s", p->tags, p->truncated ? "; ..." : "") < 0 ||
	    row_add_metric(w, RK_IMPORT_REAL_S, t[0], "s") < 0 ||
	    !(w->note = str_printf("time psql -f: %u statements, command tags %s%s; the "
				   "statements were not timed one by one", p->ntags, p->tags,
				   p->truncated ? "; ..." : "")))
		goto nomem;
	w->ops = p->ntags;
	w->rate = NAN;		/* a script has a time, not a rate (as db's script_total) */
	w->elapsed_ns = (uint64_t)(t[0] * 1e9 + 0.5);
	w->cpu.valid = 1;
	w->cpu.user_s = t[1];
	w->cpu.sys_s = t[2];
	w->cpu.proc_pct = t[0] > 0 ? (t[1] + t[2]) / t[0] * 100 : 0;
	snprintf(key, sizeof(key), "psql %u %u %.3f %.3f %.3f %s %s", p->line, lineno, t[0], t[1],
		 t[2], cmd, p->tags);
	if (import_finish_run(run, key, source, p->line, "psql output") < 0)
		goto nomem;
	return import_set_add(set, run) < 0 ? -ENOMEM : 1;
nomem:
	run_free(run);
	return -ENOMEM;
}
