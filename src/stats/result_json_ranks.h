/* result_json_ranks.h - the JSON of a multi-rank run's extra members: the top level's and
 * each row's "ranks" arrays (docs/results-schema.md, "Several ranks"). Written only when
 * the run has ranks, so the document of a single process is unchanged. Used by
 * result_json.c only. Thread-safe: no shared state. */
#ifndef IOB_STATS_RESULT_JSON_RANKS_H
#define IOB_STATS_RESULT_JSON_RANKS_H

#include <stddef.h>

#include <jansson.h>

struct env;
struct row;
struct run;

/* Add the "ranks" member to o (a run's or a row's object) when there are ranks.
 * Returns the number of failures (0: fine). */
int result_json_ranks_run(json_t *o, const struct run *r);
int result_json_ranks_row(json_t *o, const struct row *w);
/* Read them back. 0, or -1 with the reason in err (len bytes). */
int result_json_ranks_run_load(const json_t *o, struct run *r, char *err, size_t len);
int result_json_ranks_row_load(const json_t *o, struct row *w, char *err, size_t len);

/* From result_json.c: an environment object, and one read back into e (-1 with the
 * reason in err). */
json_t *result_json_env(const struct env *e, int *bad);
int result_json_env_load(const json_t *o, struct env *e, char *err, size_t len);

#endif
