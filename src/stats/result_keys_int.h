/* result_keys_int.h - what the key-table files of the result schema share
 * (result_keys.c: the shared tables and the lookups; result_keys_wl.c: each workload's own
 * table). Not for other modules: they use stats/result_keys.h. */
#ifndef IOB_STATS_RESULT_KEYS_INT_H
#define IOB_STATS_RESULT_KEYS_INT_H

#include "stats/result_keys.h"

#define N_(a)	(sizeof(a) / sizeof((a)[0]))

/* A fixed field of the document. */
#define FIELD(n, u, m)			{ n, u, RK_FIELD, RK_CMP_NONE, NULL, 0, m }
/* A param (kinds may add RK_OPTION), with its comparability and compare's words. */
#define PARAM(n, u, k, c, why, m)	{ n, u, RK_PARAM | (k), c, why, 0, m }
#define PARAM_R(n, u, k, c, why, r, m)	{ n, u, RK_PARAM | (k), c, why, r, m }
#define METRIC(n, u, m)			{ n, u, RK_METRIC, RK_CMP_NONE, NULL, 0, m }
#define OPTION(n, u, m)			{ n, u, RK_OPTION, RK_CMP_NONE, NULL, 0, m }
/* A table of key array k, named n, for workload wl (NULL: shared). */
#define TABLE(v, n, wl, k)	const struct result_key_table v = { n, wl, k, N_(k) }

/* result_keys_wl.c: each workload's own table, in result_key_tables' order. */
extern const struct result_key_table rk_dd_table;
extern const struct result_key_table rk_cp_table;
extern const struct result_key_table rk_bonnie_table;
extern const struct result_key_table rk_postmark_table;
extern const struct result_key_table rk_db_table;
extern const struct result_key_table rk_fsync_table;
extern const struct result_key_table rk_iozone_table;
extern const struct result_key_table rk_job_table;
extern const struct result_key_table rk_import_table;
extern const struct result_key_table rk_battery_table;
extern const struct result_key_table rk_sustained_table;

#endif
