/* import.h - readers for what the classic tools printed: Bonnie++ CSV lines (1.03, 1.9x
 * and 2.0x), PostMark reports (verbose and terse), dd's closing lines (BSD and GNU), psql's
 * command tags and the output of `time` (BSD one-line, bash three-line, GNU time); a time
 * record after a dd or a psql belongs to that run. Each record becomes a
 * run of the results model marked RUN_IMPORTED, its rows ROW_IMPORTED; Bonnie++'s "+++++"
 * becomes a row flagged ROW_NOT_MEASURED (never a zero).
 * Input may be quoted mail ("> " prefixes are removed) and Bonnie++ CSV lines wrapped at
 * 80 columns are joined back. Lines that cannot be read are reported with their line
 * number and skipped. Not thread-safe per set; separate sets are independent. */
#ifndef IOB_IMPORT_IMPORT_H
#define IOB_IMPORT_IMPORT_H

#include <stddef.h>
#include <stdio.h>

struct run;

/* The runs read so far. */
struct import_set {
	struct run **runs;		/* owned */
	size_t n, cap;
	unsigned skipped;		/* lines reported as unreadable */
	unsigned reported;		/* messages printed (capped) */
	int verbose;			/* print the skipped lines (else only counted) */
};

/* At most this many "line N" messages per file; the rest are counted. */
#define IMPORT_MAX_REPORTS 20

/* Read text (NUL-terminated; source names it in messages and in the runs) and append
 * every record found to set. Unreadable lines that look like a record, or that stand
 * alone in a file of records, are reported on diag (may be NULL) as
 *   iobattery: import: 'SOURCE' line N: REASON
 * Returns the number of runs added (0 when none), or -ENOMEM. */
int import_text(struct import_set *set, const char *text, const char *source, FILE *diag);
/* import_text on a file's contents. -errno when it cannot be read (reason on diag). */
int import_file(struct import_set *set, const char *path, FILE *diag);
/* Take ownership of run (append it). 0 or -ENOMEM (run freed). */
int import_set_add(struct import_set *set, struct run *run);
void import_set_free(struct import_set *set);

/* ---- the readers (import_*.c); lines are already unquoted and NUL-terminated ---- */

/* Parse one Bonnie++ CSV line. Returns 1 and a new run in *out; 0 when the line is not a
 * Bonnie++ CSV line at all; -EINVAL when it is one but broken (reason in why), -ENOMEM. */
int import_bonnie_csv(const char *line, const char *source, unsigned lineno,
		      struct run **out, char *why, size_t whylen);
/* When line looks like the start of a Bonnie++ CSV line: 1, with the number of fields it
 * has and the least number its version writes (so that the caller can join a line wrapped by a
 * mailer); else 0. */
int import_bonnie_shape(const char *line, unsigned *have, unsigned *want);

/* A small line-driven reader: feed lines, collect runs. */
struct import_lines;
struct import_lines *import_lines_new(const char *source);
/* Feed one line (lineno for messages). Returns 1 when the line was understood as part of
 * a PostMark, dd or time record, 0 when not, -ENOMEM. Finished runs go to set. */
int import_lines_feed(struct import_lines *s, const char *line, unsigned lineno,
		      struct import_set *set);
/* Flush a record still open at the end; frees s. Returns 0 or -ENOMEM. */
int import_lines_end(struct import_lines *s, struct import_set *set);

/* psql's output (import_psql.c), fed by the line reader: after a psql command line the
 * command tags and query results it printed, until the time record that ends them. */
struct import_psql {
	int active;			/* a psql command line seen, its output being read */
	unsigned line;			/* the command's line */
	char script[256];		/* its -f FILE */
	char tags[2048];		/* the command tags, "; " between them */
	unsigned ntags;
	int truncated;			/* more tags than tags[] holds */
};
/* A command line was seen: start collecting when it runs psql, else stop. */
void import_psql_command(struct import_psql *p, const char *cmd, unsigned lineno);
/* 1 when line is psql's (a command tag or a line of a result table) while collecting,
 * else 0. */
int import_psql_line(struct import_psql *p, const char *line);
/* The time record t = { real, user, sys } (seconds) ends the psql output: when tags were
 * collected, add a db run to set and return 1; 0 when nothing was collected; -ENOMEM.
 * cmd is the command line, lineno the time record's line. */
int import_psql_emit(struct import_psql *p, struct import_set *set, const char *source,
		     const char *cmd, const double t[3], unsigned lineno);

/* Shared helpers (import.c). */
/* Mark run and rows imported; set id "imp-" + 16 hex digits of a hash of key. 0/-ENOMEM. */
int import_finish_run(struct run *run, const char *key, const char *source,
		      unsigned lineno, const char *format);
/* Parse a decimal number with optional fraction, whole string. 0, -EINVAL, or -ERANGE
 * when it fails import_num_ok. */
int import_parse_num(const char *s, double *out);
/* 1 when v is a figure a legacy tool can have printed: finite, not negative, at most
 * 1e18 (what the loader accepts); else 0. Every number a reader takes is checked so. */
int import_num_ok(double v);

#endif
