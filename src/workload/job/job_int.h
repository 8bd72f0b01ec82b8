/* job_int.h - what the job parser's files share: the parse state, the option table,
 * number parsing with fio's units, substitution. Not for use outside src/workload/job. */
#ifndef IOB_WORKLOAD_JOB_INT_H
#define IOB_WORKLOAD_JOB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job/job.h"

#define JOB_WHY_LEN	160

/* Where the parser is, for messages, and where it writes them. */
struct job_pstate {
	struct job_list *out;
	const struct job_pctx *ctx;
	char *err;
	size_t errlen;
	const char *file;	/* NULL on the command line */
	unsigned line;		/* line, or argument index on the command line */
	const char *section;	/* NULL before the first section */
	unsigned depth;		/* include nesting */
	const char *optname;	/* the option as written, for messages */
	size_t first_sect;	/* out->sects before this parse */
	struct job_def global;	/* defaults for the jobs below */
};

/* Write the message "job: <place>: <fmt...>" into ps->err (or print it) and return
 * -EINVAL. */
int job_perr(struct job_pstate *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same place and text as a warning through ps->ctx->warn (or stderr). */
void job_pwarn(struct job_pstate *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- job_units.c: numbers as fio writes them ---- */

/* A size: blanks, then digits and a suffix (see job.h), or 0x and hex digits, or (when
 * pct is not NULL) digits and '%' (0..100, stored in *pct with *out = 0). Returns 0 or
 * -EINVAL with the reason in why. */
int job_parse_size(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct, char *why,
		   size_t wl);
/* A time in microseconds; def_mult is the unit of a bare number (1000000 for seconds,
 * 1 for microseconds). Returns 0 or -EINVAL with the reason in why. */
int job_parse_time(const char *s, uint64_t def_mult, uint64_t *out, char *why, size_t wl);
/* Decimal digits only (blanks first allowed), whole string. 0 or -EINVAL. */
int job_parse_plain(const char *s, uint64_t *out);
/* A decimal floating-point number, whole string (blanks first allowed). 0 or -EINVAL. */
int job_parse_double(const char *s, double *out);
/* A signed size (rw=read:-8k). 0 or -EINVAL with the reason. */
int job_parse_ssize(const char *s, unsigned kb_base, int64_t *out, char *why, size_t wl);

/* ${VAR}, $pagesize, $mb_memory and $ncpus in one option line, then fio's arithmetic on
 * the value when a keyword was replaced. *out is malloc'd (caller frees). Returns 0,
 * -EINVAL (why says what could not be evaluated) or -ENOMEM. */
int job_subst(const char *line, const struct job_pctx *ctx, char **out, char *why, size_t wl);
/* Integer arithmetic as bc evaluates it with scale 0: + - * / % ^, parentheses, unary
 * minus. Returns 0 or -EINVAL (syntax, division by zero, overflow). */
int job_calc(const char *expr, int64_t *out);

/* ---- job_opts.c: the option table ---- */

enum job_kind {
	JK_BOOL,	/* 0 or 1, a value required (fio's bool) */
	JK_SET,		/* bare, or 0 or 1 (fio's "string set") */
	JK_UINT,	/* unsigned with size units, min..max */
	JK_U64,		/* uint64_t with size units */
	JK_TIME,	/* uint64_t microseconds */
	JK_STR,		/* owned string */
	JK_SPECIAL,	/* its own handler */
};

struct job_optdef {
	const char *name;
	const char *alias;
	enum job_opt_id id;
	enum job_kind kind;
	int prio;		/* applied before (higher) or after (lower) the others */
	size_t off;		/* offsetof(struct job_def, field) for generic kinds */
	uint64_t min, max;	/* JK_UINT, JK_U64, JK_TIME (max 0: none) */
	uint64_t unit;		/* JK_TIME: microseconds of a bare number */
	int (*fn)(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val);
};

/* job_perr "invalid 'NAME=val': why" for the option being applied. -EINVAL. */
int job_opt_bad(struct job_pstate *ps, const char *val, const char *why);
/* The index of val in words (exact match), or -1. */
int job_opt_word(const char *val, const char *const *words, int n);
/* job_opts_lists.c: bssplit, random_distribution, percentile_list. */
int job_opt_bssplit(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		    const char *val);
int job_opt_dist(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		 const char *val);
int job_opt_pctl(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		 const char *val);

/* The option named name (or its alias), or NULL. */
const struct job_optdef *job_opt_find(const char *name);
/* The priority fio gives the option named name (kb_base 1, filename -1, others 0). */
int job_opt_prio(const char *name);
/* Apply one option (val NULL when bare). 0 or -EINVAL after job_perr. */
int job_opt_apply(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val);

/* ---- job_engine.c: ioengine= and the engines' own options ---- */

/* ioengine=NAME: any engine or alias of the registry (engine_lookup), in this build or
 * not (job_prepare refuses an absent one); fio's engines iobattery lacks are refused by
 * name. The handler of the option table's ioengine row. 0 or -EINVAL after job_perr. */
int job_opt_ioengine(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val);
/* An option some engine declares (engine_option_owner): checked as fio checks it (a flag
 * bare or 0/1, a number in the optdef's range) and kept in d->eopt. -ENOENT (no message)
 * when no engine has an option called name; 0; or -EINVAL after job_perr. */
int job_engine_opt(struct job_pstate *ps, struct job_def *d, const char *name,
		   const char *val);
/* Once the job is complete: the warnings about an engine that will not do what the job
 * asks (read from its flags), then its engine options: another engine's is refused when
 * the job's own section set it, dropped when inherited. 0 or -EINVAL after job_perr. */
int job_engine_finish(struct job_pstate *ps, struct job_def *d);

/* Whether fio 3.33 has an option (or engine option) of that name; of an engine. */
bool job_fio_has_option(const char *name);
bool job_fio_has_engine(const char *name);

/* ---- job_def.c: defaults, copies, the finishing checks ---- */

void job_def_defaults(struct job_def *d);
/* Deep copy; dst is overwritten. 0 or -ENOMEM. */
int job_def_copy(struct job_def *dst, const struct job_def *src);
void job_def_clear(struct job_def *d);
/* fio's fix-ups and the checks that need the whole job (size against bs, rate and
 * rate_iops, engine warnings). 0 or -EINVAL after job_perr. */
int job_def_finish(struct job_pstate *ps, struct job_def *d);
/* strdup into *dst (freeing the old one). 0 or -ENOMEM. */
int job_strset(char **dst, const char *s);

#endif
