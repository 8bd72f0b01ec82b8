/* flags.h - the one table of row flags (enum row_flag in stats/result.h): each flag's
 * name (as JSON, CSV, the text and the report write it), what it means (the report's
 * legend, the text's lines, docs/results-schema.md) and whether a figure carrying it
 * may decide a verdict (stats/verdict.h). Every reader of flags takes its words from
 * here, so a flag has one name everywhere. Static data; thread-safe. */
#ifndef IOB_STATS_FLAGS_H
#define IOB_STATS_FLAGS_H

struct flag_info {
	unsigned bit;		/* one ROW_* bit */
	const char *name;	/* snake_case: "writeback_pending" */
	const char *meaning;	/* one line, no full stop */
	int untrusted;		/* 1: the figure is not the device's steady speed and never
				 * decides a verdict */
};

/* Every flag, in legend order (what matters most to a reader first), ended by
 * { 0, NULL, NULL, 0 }. A new ROW_* bit gets its line here (tests/unit/t_flags.c checks
 * that every bit of enum row_flag has one). */
extern const struct flag_info flag_table[];

/* The entry of one bit, or NULL for a bit without a name. */
const struct flag_info *flag_info_of(unsigned bit);
/* The bit called name, or 0. */
unsigned flag_of_name(const char *name);
/* The OR of every bit whose figures may not decide a verdict. */
unsigned flag_untrusted_mask(void);
/* How many entries flag_table holds (without the terminator). */
unsigned flag_count(void);

#endif
