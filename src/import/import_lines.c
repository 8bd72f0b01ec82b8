/* import_lines.c - line-driven readers for PostMark reports (verbose and terse, with the
 * `set` commands before them), dd's closing lines (BSD "bytes transferred in", GNU
 * "bytes (...) copied"), dd's "records in/out" and `time` output (BSD one line, bash's
 * real/user/sys lines, GNU time's "user system elapsed"). See import.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "import/import.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"

/* PostMark's report, field by field (counts and rates as printed). */
struct pm_report {
	double total_s, trans_s, tps;
	double created, created_alone, created_mixed, read, appended;
	double deleted, deleted_alone, deleted_mixed;
	double created_alone_s, deleted_alone_s;	/* "(N per second)" of the alone lines */
	double mib_read, mib_written, mib_read_s, mib_written_s;
	unsigned seen;			/* lines of the report seen */
	int mixed_seen;			/* the first "Mixed with" line was the created one */
	unsigned line;			/* where it began */
};

struct pm_settings {
	double size_low, size_high, number, transactions, rd, wr, bias_read, bias_create;
	double subdirs;
	int buffering;
	char version[32];
};

struct time_rec {
	int have;			/* bit 0 real, 1 user, 2 sys */
	double real, user, sys;
	unsigned line;
};

struct import_lines {
	const char *source;
	char cmd[512];			/* the latest command line seen ("$ dd ...") */
	unsigned cmd_line;
	struct pm_settings pm;
	struct pm_report rep;
	int in_report;
	int pm_done_line;		/* "Deleting files...Done" just seen */
	uint64_t recs_out;		/* latest "N+M records out", 0 none */
	unsigned recs_line;
	unsigned recs_pending;		/* "records out" lines not yet given a time record */
	struct row *dd_row;		/* the latest dd row, to attach a time record to */
	unsigned dd_line;
	struct time_rec t;
	struct import_psql psql;	/* psql's output after a psql command line */
};

static void pm_defaults(struct pm_settings *pm)
{
	/* PostMark 1.51's defaults, as its `show` prints them */
	memset(pm, 0, sizeof(*pm));
	pm->size_low = 500;
	pm->size_high = 10000;
	pm->number = 500;
	pm->transactions = 500;
	pm->rd = pm->wr = 512;
	pm->bias_read = pm->bias_create = 5;
	pm->buffering = 1;
}

struct import_lines *import_lines_new(const char *source)
{
	struct import_lines *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->source = source;
	pm_defaults(&s->pm);
	return s;
}

/* ---- PostMark ---------------------------------------------------------------------- */

static int pm_set(struct import_lines *s, const char *cmd)
{
	struct pm_settings *pm = &s->pm;
	char what[32], arg[32];
	double a, b;
	int n;

	n = sscanf(cmd, "set %31s %lf %lf", what, &a, &b);
	if (n >= 2 && !strcmp(what, "size")) {
		pm->size_low = a;
		pm->size_high = n == 3 ? b : a;
	} else if (n == 2 && !strcmp(what, "number")) {
		pm->number = a;
	} else if (n == 2 && !strcmp(what, "transactions")) {
		pm->transactions = a;
	} else if (n == 2 && !strcmp(what, "subdirectories")) {
		pm->subdirs = a;
	} else if (n == 2 && !strcmp(what, "read")) {
		pm->rd = a;
	} else if (n == 2 && !strcmp(what, "write")) {
		pm->wr = a;
	} else if (sscanf(cmd, "set bias %31s %lf", arg, &a) == 2) {
		if (!strcmp(arg, "read"))
			pm->bias_read = a;
		else
			pm->bias_create = a;
	} else if (sscanf(cmd, "set buffering %31s", arg) == 1) {
		pm->buffering = !strcmp(arg, "true");
	}
	return 1;	/* location, seed, report ...: understood, not a param */
}

static int pm_params(struct row *w, const struct pm_settings *pm)
{
	return kv_set(&w->params, RK_PM_SIZE_LOW, "%.0f", pm->size_low) < 0 ||
	       kv_set(&w->params, RK_PM_SIZE_HIGH, "%.0f", pm->size_high) < 0 ||
	       kv_set(&w->params, RK_PM_NUMBER, "%.0f", pm->number) < 0 ||
	       kv_set(&w->params, RK_PM_TRANSACTIONS, "%.0f", pm->transactions) < 0 ||
	       kv_set(&w->params, RK_PM_READ_BLOCK, "%.0f", pm->rd) < 0 ||
	       kv_set(&w->params, RK_PM_WRITE_BLOCK, "%.0f", pm->wr) < 0 ||
	       kv_set(&w->params, RK_PM_BIAS_READ, "%.0f", pm->bias_read) < 0 ||
	       kv_set(&w->params, RK_PM_BIAS_CREATE, "%.0f", pm->bias_create) < 0 ||
	       kv_set(&w->params, RK_PM_SUBDIRECTORIES, "%.0f", pm->subdirs) < 0 ||
	       kv_set(&w->params, RK_PM_BUFFERING, "%s", pm->buffering ? "true" : "false") < 0 ||
	       /* PostMark has neither: every write is buffered, nothing is synced */
	       kv_set(&w->params, RK_PM_FSYNC, "false") < 0 ||
	       kv_set(&w->params, RK_PM_DIRECT, "false") < 0 ? -ENOMEM : 0;
}

static struct row *pm_row(struct run *run, const struct pm_settings *pm, const char *phase,
			  double rate, const char *unit, double secs)
{
	struct row *w = run_add_row(run, "postmark", phase);

	if (!w || str_set(&w->rate_unit, unit) < 0 || pm_params(w, pm) < 0)
		return NULL;
	w->rate = rate;
	w->elapsed_ns = units_dtou64(secs * 1e9, 1);
	return w;
}

/* Every number of a report is one PostMark can print: finite, not negative, bounded. */
static int pm_report_ok(const struct pm_report *r)
{
	const double v[] = { r->total_s, r->trans_s, r->tps, r->created, r->created_alone,
			     r->created_alone_s, r->created_mixed, r->read, r->appended,
			     r->deleted, r->deleted_alone, r->deleted_alone_s, r->deleted_mixed,
			     r->mib_read, r->mib_read_s, r->mib_written, r->mib_written_s };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!import_num_ok(v[i]))
			return 0;
	return 1;
}

static int pm_emit(struct import_lines *s, struct import_set *set, const char *key)
{
	const struct pm_report *r = &s->rep;
	struct run *run = run_new("postmark");
	struct row *w;
	int rc = -ENOMEM;

	s->in_report = 0;
	if (!run)
		return -ENOMEM;
	if (!pm_report_ok(r)) {
		run_free(run);
		memset(&s->rep, 0, sizeof(s->rep));
		return 0;	/* a figure PostMark cannot have printed: not a report */
	}
	if (str_set(&run->env.tool_version, s->pm.version[0] ? s->pm.version : "postmark") < 0)
		goto fail;
	run->env.rotational = run->env.virtualized = -1;
	w = pm_row(run, &s->pm, "transactions", r->tps, "tps", r->trans_s);
	if (!w || row_add_metric(w, RK_IMPORT_TOTAL_S, r->total_s, "s") < 0 ||
	    row_add_metric(w, RK_PM_FILES_CREATED, r->created, "files") < 0 ||
	    row_add_metric(w, RK_IMPORT_CREATED_ALONE, r->created_alone, "files") < 0 ||
	    row_add_metric(w, RK_IMPORT_CREATED_MIXED, r->created_mixed, "files") < 0 ||
	    row_add_metric(w, RK_PM_FILES_READ, r->read, "files") < 0 ||
	    row_add_metric(w, RK_PM_FILES_APPENDED, r->appended, "files") < 0 ||
	    row_add_metric(w, RK_PM_FILES_DELETED, r->deleted, "files") < 0 ||
	    row_add_metric(w, RK_IMPORT_DELETED_ALONE, r->deleted_alone, "files") < 0 ||
	    row_add_metric(w, RK_IMPORT_DELETED_MIXED, r->deleted_mixed, "files") < 0)
		goto fail;
	w->ops = units_dtou64(r->read + r->appended, 1);
	/* the stages `iobattery postmark` also reports: the pool's creation, the deletion */
	if (r->created_alone_s > 0) {
		w = pm_row(run, &s->pm, "create_alone", r->created_alone_s, "files/s",
			   r->created_alone / r->created_alone_s);
		if (!w)
			goto fail;
		w->ops = units_dtou64(r->created_alone, 1);
	}
	if (r->deleted_alone_s > 0) {
		w = pm_row(run, &s->pm, "delete_alone", r->deleted_alone_s, "files/s",
			   r->deleted_alone / r->deleted_alone_s);
		if (!w)
			goto fail;
		w->ops = units_dtou64(r->deleted_alone, 1);
	}
	w = pm_row(run, &s->pm, "data_read", r->mib_read_s, "MiB/s", r->total_s);
	if (!w)
		goto fail;
	w->bytes = units_dtou64(r->mib_read * 1048576.0, 1);
	w = pm_row(run, &s->pm, "data_written", r->mib_written_s, "MiB/s", r->total_s);
	if (!w)
		goto fail;
	w->bytes = units_dtou64(r->mib_written * 1048576.0, 1);
	rc = import_finish_run(run, key, s->source, r->line, "postmark report");
	if (rc < 0)
		goto fail;
	memset(&s->rep, 0, sizeof(s->rep));
	return import_set_add(set, run);
fail:
	run_free(run);
	return rc;
}

/* A data line: "12715.55 megabytes read (10.43 megabytes per second)". */
static int pm_data(const char *l, const char *verb, double *amount, double *rate)
{
	char u1[16], u2[16], v[16];
	double scale;

	if (sscanf(l, "%lf %15s %15s (%lf %15s per second)", amount, u1, v, rate, u2) != 5 ||
	    strcmp(v, verb))
		return 0;
	if (!strcmp(u1, "bytes"))
		scale = 1.0 / 1048576;
	else if (!strcmp(u1, "kilobytes"))
		scale = 1.0 / 1024;
	else if (!strcmp(u1, "megabytes"))
		scale = 1;
	else if (!strcmp(u1, "gigabytes"))
		scale = 1024;
	else
		return 0;
	*amount *= scale;
	*rate *= scale;	/* PostMark scales the rate with the same unit */
	return 1;
}

/* One line of a verbose report; 1 understood, 0 not, <0 error. */
static int pm_report_line(struct import_lines *s, const char *l, unsigned lineno,
			  struct import_set *set)
{
	struct pm_report *r = &s->rep;
	double a, b;

	if (!strcmp(l, "Time:")) {
		memset(r, 0, sizeof(*r));
		r->line = lineno;
		s->in_report = 1;
		return 1;
	}
	if (!s->in_report)
		return 0;
	r->seen++;
	if (!strcmp(l, "Files:") || !strcmp(l, "Data:"))
		return 1;
	if (sscanf(l, "%lf seconds of transactions (%lf per second)", &a, &b) == 2) {
		r->trans_s = a;
		r->tps = b;
	} else if (sscanf(l, "%lf seconds total", &a) == 1 && strstr(l, "total")) {
		r->total_s = a;
	} else if (sscanf(l, "Creation alone: %lf files (%lf per second)", &a, &b) >= 1) {
		r->created_alone = a;
		r->created_alone_s = strstr(l, "per second") ? b : 0;
	} else if (sscanf(l, "Deletion alone: %lf files (%lf per second)", &a, &b) >= 1) {
		r->deleted_alone = a;
		r->deleted_alone_s = strstr(l, "per second") ? b : 0;
	} else if (sscanf(l, "Mixed with transactions: %lf files", &a) == 1) {
		if (r->mixed_seen++)
			r->deleted_mixed = a;
		else
			r->created_mixed = a;
	} else if (pm_data(l, "read", &a, &b)) {
		r->mib_read = a;
		r->mib_read_s = b;
	} else if (pm_data(l, "written", &a, &b)) {
		r->mib_written = a;
		r->mib_written_s = b;
		return pm_emit(s, set, l) < 0 ? -ENOMEM : 1;
	} else if (sscanf(l, "%lf created (", &a) == 1 && strstr(l, " created (")) {
		r->created = a;
	} else if (sscanf(l, "%lf read (", &a) == 1 && strstr(l, " read (")) {
		r->read = a;
	} else if (sscanf(l, "%lf appended (", &a) == 1) {
		r->appended = a;
	} else if (sscanf(l, "%lf deleted (", &a) == 1) {
		r->deleted = a;
	} else {
		return 0;
	}
	return 1;
}

/* Terse: total_s trans_s tps created/s alone/s mixed/s read/s appended/s deleted/s
 * alone/s mixed/s bytes_read/s bytes_written/s (rates, as PostMark's terse report). */
static int pm_terse(struct import_lines *s, const char *l, unsigned lineno,
		    struct import_set *set)
{
	double v[13];
	struct pm_report *r = &s->rep;
	char extra;

	if (!s->pm_done_line ||
	    sscanf(l, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %c", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11],
		   &v[12], &extra) != 13)
		return 0;
	memset(r, 0, sizeof(*r));
	r->line = lineno;
	r->total_s = v[0];
	r->trans_s = v[1];
	r->tps = v[2];
	/* terse gives rates; counts are rate * time */
	r->created = v[3] * v[0];
	r->created_alone_s = v[4];
	r->deleted_alone_s = v[9];
	/* the alone stages' counts are not in the terse line: rate x (total - transactions)
	 * would only be a guess, so the counts stay 0 and the stage rows get no time */
	r->read = v[6] * v[1];
	r->appended = v[7] * v[1];
	r->deleted = v[8] * v[0];
	r->mib_read_s = v[11] / 1048576;
	r->mib_written_s = v[12] / 1048576;
	r->mib_read = r->mib_read_s * v[0];
	r->mib_written = r->mib_written_s * v[0];
	return pm_emit(s, set, l) < 0 ? -ENOMEM : 1;
}

/* ---- dd and time ------------------------------------------------------------------- */

/* The value of OPERAND= in the remembered command line, or NULL. */
static const char *cmd_operand(const struct import_lines *s, const char *op, char *buf,
			       size_t len)
{
	const char *p = s->cmd;
	size_t n = strlen(op);

	while ((p = strstr(p, op))) {
		if (p == s->cmd || p[-1] == ' ' || p[-1] == '"' || p[-1] == '\'') {
			size_t k = strcspn(p + n, " \"'&;|");

			if (k >= len)
				k = len - 1;
			memcpy(buf, p + n, k);
			buf[k] = '\0';
			return buf;
		}
		p += n;
	}
	return NULL;
}

static int dd_row_new(struct import_lines *s, struct import_set *set, double bytes,
		      double secs, unsigned lineno, const char *key)
{
	struct run *run = run_new("dd");
	struct row *w;
	char ifv[256], ofv[256], bsv[64], cv[64];
	const char *phase = "transfer";
	uint64_t bs;
	int has_cmd = s->cmd[0] && s->cmd_line + 12 > lineno;

	if (!import_num_ok(bytes) || !import_num_ok(secs)) {
		run_free(run);
		return 0;	/* negative, infinite or absurd: not a figure dd printed */
	}
	if (!run)
		return -ENOMEM;
	if (has_cmd) {
		if (cmd_operand(s, "of=", ofv, sizeof(ofv)) && !strcmp(ofv, "/dev/null"))
			phase = "read";
		else if (cmd_operand(s, "if=", ifv, sizeof(ifv)) &&
			 (!strcmp(ifv, "/dev/zero") || !strcmp(ifv, "/dev/urandom")))
			phase = "write";
		if (!(run->command_line = strdup(s->cmd)))
			goto nomem;
	}
	run->env.rotational = run->env.virtualized = -1;
	w = run_add_row(run, "dd", phase);
	if (!w || str_set(&w->rate_unit, "MB/s") < 0)
		goto nomem;
	if (has_cmd && cmd_operand(s, "bs=", bsv, sizeof(bsv)) &&
	    units_parse_dd(bsv, &bs) == 0 && kv_set(&w->params, RK_DD_BS, "%llu",
						      (unsigned long long)bs) < 0)
		goto nomem;
	if (has_cmd && cmd_operand(s, "conv=", cv, sizeof(cv)) &&
	    kv_set(&w->params, RK_DD_CONV, "%s", cv) < 0)
		goto nomem;
	if (has_cmd && cmd_operand(s, "oflag=", cv, sizeof(cv)) &&
	    kv_set(&w->params, RK_DD_OFLAG, "%s", cv) < 0)
		goto nomem;
	/* dd is buffered unless iflag= or oflag= says direct; what it wrote follows if= */
	if (has_cmd && kv_set(&w->params, RK_DD_DIRECT, "%s",
			      strstr(s->cmd, "flag=direct") ? "true" : "false") < 0)
		goto nomem;
	if (has_cmd && strcmp(phase, "transfer") &&
	    kv_set(&w->params, RK_DD_DATA, "%s", !strcmp(phase, "write") ?
		   (strstr(s->cmd, "urandom") ? "random" : "zero") : "file") < 0)
		goto nomem;
	w->bytes = units_dtou64(bytes, 0);
	w->elapsed_ns = units_dtou64(secs * 1e9, 1);
	w->rate = secs > 0 ? bytes / secs / 1e6 : 0;	/* MB/s = 10^6 bytes per second */
	if (s->recs_out && s->recs_line + 4 + 4 * s->recs_pending > lineno)
		w->ops = s->recs_out;
	if (s->recs_pending)
		s->recs_pending--;
	if (!s->recs_pending)
		s->recs_out = 0;
	if (import_finish_run(run, key, s->source, lineno, "dd output") < 0 ||
	    import_set_add(set, run) < 0)
		return -ENOMEM;
	s->dd_row = w;
	s->dd_line = lineno;
	return 1;
nomem:
	run_free(run);
	return -ENOMEM;
}

/* dd's closing line: BSD "N bytes transferred in S secs (R bytes/sec)" or GNU
 * "N bytes (...) copied, S s, R MB/s" (older GNU: "S seconds"). */
static int dd_closing(struct import_lines *s, const char *l, unsigned lineno,
		      struct import_set *set)
{
	double bytes, secs;
	const char *p;

	if (sscanf(l, "%lf bytes transferred in %lf secs", &bytes, &secs) == 2)
		return dd_row_new(s, set, bytes, secs, lineno, l);
	if (sscanf(l, "%lf bytes", &bytes) == 1 && (p = strstr(l, " copied, ")) &&
	    sscanf(p, " copied, %lf", &secs) == 1)
		return dd_row_new(s, set, bytes, secs, lineno, l);
	return 0;
}

/* A dd that printed only "records out" (GNU dd before 2006), timed by `time`: bytes are
 * records * bs when the command line names bs, the elapsed time is time's real. */
static int dd_from_records(struct import_lines *s, struct import_set *set)
{
	char bsv[64], key[700];
	uint64_t bs;
	int rc;

	if (!s->cmd[0] || s->cmd_line + 12 <= s->recs_line || !strstr(s->cmd, "dd ") ||
	    !cmd_operand(s, "bs=", bsv, sizeof(bsv)) || units_parse_dd(bsv, &bs) < 0)
		return 0;
	snprintf(key, sizeof(key), "dd %u %llu %.3f %s", s->recs_line,
		 (unsigned long long)s->recs_out, s->t.real, s->cmd);
	rc = dd_row_new(s, set, (double)s->recs_out * (double)bs, s->t.real, s->recs_line, key);
	if (rc == 1 && str_set(&s->dd_row->note, "elapsed time from `time` (real), which "
			       "includes starting the process") < 0)
		return -ENOMEM;
	return rc;
}

/* "1m2.345s" or "62.345s" or "1:02.34" into seconds. */
static int parse_hms(const char *t, double *out)
{
	double m, sec;
	char c;

	if (sscanf(t, "%lfm%lfs%c", &m, &sec, &c) == 2 ||
	    sscanf(t, "%lf:%lf%c", &m, &sec, &c) == 2) {
		*out = m * 60 + sec;
		return import_num_ok(m) && import_num_ok(sec) ? 0 : -EINVAL;
	}
	if (sscanf(t, "%lfs%c", &sec, &c) == 1) {
		*out = sec;
		return import_num_ok(sec) ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* The command's name for a time record without dd ("psql" from "time psql -d ..."). */
static void cmd_name(const struct import_lines *s, char *buf, size_t len)
{
	const char *p = strstr(s->cmd, "time ");

	snprintf(buf, len, "command");
	if (!p)
		return;
	p += 5;
	while (*p == ' ')
		p++;
	if (*p && sscanf(p, "%63[A-Za-z0-9_.+-]", buf) != 1)
		snprintf(buf, len, "command");
}

static int time_emit(struct import_lines *s, struct import_set *set, unsigned lineno)
{
	struct time_rec *t = &s->t;
	struct run *run;
	struct row *w = NULL;
	char name[64], key[700];
	int rc;

	if (t->have != 7)
		return 0;
	t->have = 0;
	if (t->real > RJ_MAX_SECS || t->user > RJ_MAX_SECS || t->sys > RJ_MAX_SECS ||
	    (t->real > 0 && (t->user + t->sys) / t->real * 100 > RJ_MAX_PCT))
		return 0;	/* figures no time(1) printed: not its output */
	if (s->psql.active && s->psql.ntags) {
		/* psql's command tags, then `time` of the psql */
		rc = import_psql_emit(&s->psql, set, s->source, s->cmd,
				      (const double[3]){ t->real, t->user, t->sys }, t->line);
		if (rc != 0)
			return rc;
	}
	if (s->dd_row && s->dd_line + 4 > t->line && !s->dd_row->cpu.valid) {
		w = s->dd_row;	/* dd's closing line, then `time` of the same command */
	} else if (s->recs_pending && s->recs_line + 12 > t->line &&
		   dd_from_records(s, set) == 1) {
		/* records only (old GNU dd; two in parallel print two): time's real is the
		 * elapsed time */
		w = s->dd_row;
	} else {
		run = run_new("time");
		if (!run)
			return -ENOMEM;
		run->env.rotational = run->env.virtualized = -1;
		cmd_name(s, name, sizeof(name));
		if ((s->cmd[0] && !(run->command_line = strdup(s->cmd))) ||
		    !(w = run_add_row(run, "time", name))) {
			run_free(run);
			return -ENOMEM;
		}
		w->elapsed_ns = units_dtou64(t->real * 1e9, 1);
		snprintf(key, sizeof(key), "time %u %.3f %.3f %.3f %s", t->line, t->real,
			 t->user, t->sys, s->cmd);
		if (import_finish_run(run, key, s->source, t->line, "time output") < 0 ||
		    import_set_add(set, run) < 0)
			return -ENOMEM;
	}
	w->cpu.valid = 1;
	w->cpu.user_s = t->user;
	w->cpu.sys_s = t->sys;
	w->cpu.proc_pct = t->real > 0 ? (t->user + t->sys) / t->real * 100 : 0;
	if (row_add_metric(w, RK_IMPORT_REAL_S, t->real, "s") < 0)
		return -ENOMEM;
	(void)lineno;
	return 1;
}

/* time output: BSD "71.82 real 0.68 user 8.83 sys", bash "real 0m24.270s" (and user,
 * sys lines), GNU "0.68user 8.83system 1:11.82elapsed 12%CPU ...". */
static int time_line(struct import_lines *s, const char *l, unsigned lineno,
		     struct import_set *set)
{
	struct time_rec *t = &s->t;
	char word[16], val[32], el[32];
	double a, b, c;
	int end = 0;

	/* the words after the last number count only through %n: sscanf's count does not */
	if ((sscanf(l, "%lf real %lf user %lf sys%n", &a, &b, &c, &end) == 3 ||
	     sscanf(l, "%lfreal %lf user %lf sys%n", &a, &b, &c, &end) == 3) && end > 0 &&
	    import_num_ok(a) && import_num_ok(b) && import_num_ok(c)) {
		t->real = a;
		t->user = b;
		t->sys = c;
		t->have = 7;
		t->line = lineno;
		return time_emit(s, set, lineno);
	}
	if (sscanf(l, "%lfuser %lfsystem %31selapsed", &b, &c, el) == 3) {
		char *e = strstr(el, "elapsed");

		if (!e)
			return 0;	/* GNU time's third figure ends in "elapsed" */
		*e = '\0';
		if (parse_hms(el, &a) < 0 || !import_num_ok(b) || !import_num_ok(c))
			return 0;
		t->real = a;
		t->user = b;
		t->sys = c;
		t->have = 7;
		t->line = lineno;
		return time_emit(s, set, lineno);
	}
	if (sscanf(l, "%15s %31s", word, val) != 2 || parse_hms(val, &a) < 0)
		return 0;
	if (!strcmp(word, "real")) {
		t->have = 1;
		t->real = a;
		t->line = lineno;
	} else if (!strcmp(word, "user") && (t->have & 1)) {
		t->have |= 2;
		t->user = a;
	} else if (!strcmp(word, "sys") && (t->have & 3) == 3) {
		t->have |= 4;
		t->sys = a;
		return time_emit(s, set, lineno);
	} else {
		return 0;
	}
	return 1;
}

/* bonnie++'s progress lines and the headings of its text table: the CSV line carries
 * the figures, so these are known and skipped quietly. */
static int bonnie_noise(const char *l)
{
	static const char *const pre[] = {
		"Writing ", "Rewriting", "Reading ", "start 'em", "Create files",
		"Stat files", "Delete files", "Version ", "Concurrency", "Machine ",
		"Latency ", "files ", "files:max", "Name:Size", "Using uid", "--", NULL,
	};
	const char *const *p;

	for (p = pre; *p; p++)
		if (!strncmp(l, *p, strlen(*p)))
			return 1;
	return 0;
}

/* After a one-word shell prompt ("bash-3.00$ ", "-bash-3.00$ ", "host% "), or NULL. */
static const char *prompt_end(const char *l)
{
	size_t n = strcspn(l, " ");

	if (n < 2 || n > 64 || l[n] != ' ' || !strchr("$#%>", l[n - 1]))
		return NULL;
	return l + n + 1;
}

static int misc_line(struct import_lines *s, const char *l, unsigned lineno)
{
	unsigned long long full, part;
	char dir[8];
	const char *c = l, *p;

	if (bonnie_noise(l))
		return 1;
	/* "N+M records out", or without the partial count (older dd's, Solaris) */
	if (sscanf(l, "%llu+%llu records %7s", &full, &part, dir) == 3 ||
	    (sscanf(l, "%llu records %7s", &full, dir) == 2 && (part = 0, 1))) {
		if (!strcmp(dir, "out")) {
			s->recs_out = full + part;
			s->recs_line = lineno;
			s->recs_pending++;
		}
		return 1;
	}
	if (!strncmp(l, "PostMark v", 10)) {
		/* keep "postmark 1.51" of "PostMark v1.51 : 8/14/01" */
		snprintf(s->pm.version, sizeof(s->pm.version), "postmark %.*s",
			 (int)strcspn(l + 10, " :"), l + 10);
		return 1;
	}
	if (!strncmp(c, "pm>", 3))
		c += 3;
	if (!strncmp(c, "set ", 4)) {
		if (c == l + 3 || !strncmp(l, "set ", 4))
			return pm_set(s, c);
	}
	if (!strcmp(c, "run") || !strcmp(c, "quit") || !strcmp(c, "show") || !*c ||
	    !strncmp(l, "Creating files...", 17) || !strncmp(l, "Performing transactions", 23) ||
	    !strncmp(l, "Reading configuration from file", 31))
		return 1;
	if (!strncmp(l, "Deleting files...", 17)) {
		s->pm_done_line = 1;
		return 1;
	}
	/* a command line: "$ time dd ...", "# dd ...", "time bash -c ...", or after a
	 * prompt "[root@host ~]# time dd ..." */
	if ((p = strstr(l, "]# ")) || (p = strstr(l, "]$ ")))
		l = p + 3;
	else if ((*l == '$' || *l == '#') && l[1] == ' ')
		l += 2;
	else if ((p = prompt_end(l)))
		l = p;		/* "bash-3.00$ time psql ...", "host% dd ..." */
	if (!strncmp(l, "time ", 5) || !strncmp(l, "dd ", 3) || !strncmp(l, "bonnie", 6) ||
	    !strncmp(l, "postmark", 8) || !strncmp(l, "psql ", 5) || !strncmp(l, "cp ", 3)) {
		size_t n = strlen(l);

		if (n >= sizeof(s->cmd))
			n = sizeof(s->cmd) - 1;
		memcpy(s->cmd, l, n);
		s->cmd[n] = '\0';
		s->cmd_line = lineno;
		import_psql_command(&s->psql, s->cmd, lineno);
		if (!strstr(l, "postmark"))
			pm_defaults(&s->pm);
		return 1;
	}
	return 0;
}

int import_lines_feed(struct import_lines *s, const char *line, unsigned lineno,
		      struct import_set *set)
{
	int rc, was_done = s->pm_done_line;

	if (import_psql_line(&s->psql, line))
		return 1;
	rc = pm_report_line(s, line, lineno, set);
	if (rc == 0)
		rc = pm_terse(s, line, lineno, set);
	if (rc == 0)
		rc = dd_closing(s, line, lineno, set);
	if (rc == 0)
		rc = time_line(s, line, lineno, set);
	if (rc == 0)
		rc = misc_line(s, line, lineno);
	if (was_done)
		s->pm_done_line = 0;
	return rc;
}

int import_lines_end(struct import_lines *s, struct import_set *set)
{
	(void)set;
	free(s);
	return 0;
}
