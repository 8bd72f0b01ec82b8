/* result_sys_json.h - the JSON form of a row's "system" and "series" objects (jansson),
 * for result_json.c; docs/results-schema.md describes them. Dumping a loaded object gives
 * the same text back. Not for other modules. Thread-safe (no shared state). */
#ifndef IOB_STATS_RESULT_SYS_JSON_H
#define IOB_STATS_RESULT_SYS_JSON_H

#include <stddef.h>

#include <jansson.h>

struct row_sys;
struct row_series;

/* The object for s (json null when s is NULL); NULL on ENOMEM. New reference. */
json_t *rsys_to_json(const struct row_sys *s);
json_t *rseries_to_json(const struct row_series *s);

/* Read o (absent or null: *out NULL) into a new object *out (owned by the caller).
 * 0, or -EINVAL / -ENOMEM with the member at fault and why in err ("devices[1].name:
 * expected a string"). */
int rsys_from_json(const json_t *o, struct row_sys **out, char *err, size_t len);
int rseries_from_json(const json_t *o, struct row_series **out, char *err, size_t len);

#endif
