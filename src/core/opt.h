/* opt.h - declarative long options. A subcommand describes its options in a table (name,
 * short letter, type, offsetof target, metavar, help); one parser fills the config, the
 * same table prints --help and records the effective options into a run.
 * Options may appear anywhere before "--"; other words are operands, kept in order. */
#ifndef IOB_CORE_OPT_H
#define IOB_CORE_OPT_H

#include <stddef.h>
#include <stdio.h>

struct kvlist;

enum opt_type {
	OPT_END = 0,
	OPT_FLAG,	/* int, set to 1 */
	OPT_STR,	/* const char *, points into argv */
	OPT_U64,	/* uint64_t, plain decimal */
	OPT_SIZE,	/* uint64_t, size with k/m/g/t suffix (units_parse_size, unit 1) */
	OPT_DOUBLE,	/* double */
	OPT_UINT,	/* unsigned, plain decimal */
};

struct opt {
	const char *name;	/* long name without "--"; NULL ends the table */
	int letter;		/* short option letter or 0 */
	enum opt_type type;
	size_t off;		/* offsetof(struct cfg, field) */
	const char *arg;	/* metavar for help, NULL for flags */
	const char *help;
};

/* A table and the struct it fills. */
struct opt_group {
	const struct opt *opts;
	void *base;
};

/* Parse argv[1..argc-1]. Operands (non-options, and everything after "--") are stored in
 * *operands (a NULL-terminated array owned by the caller, free() it; pointers into argv).
 * Returns the number of operands, or -EINVAL after printing one clear message.
 * "--help"/"-h" returns -ECANCELED (caller prints help, exits 0). */
int opt_parse(const struct opt_group *g, int ng, int argc, char **argv, char ***operands);
/* Print the option lines of every group. */
void opt_help(FILE *f, const struct opt_group *g, int ng);
/* Record every option's effective value into l as text ("bs" -> "1048576").
 * 0 or -ENOMEM. */
int opt_record(const struct opt_group *g, int ng, struct kvlist *l);

#endif
