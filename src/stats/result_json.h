/* result_json.h - the JSON form of a run (jansson), beside the model it serialises.
 * docs/results-schema.md describes the document; its member names are the keys of
 * stats/result_keys.h. The JSON formatter (output/json.c), the store, compare, report
 * and import all read and write results through these three functions.
 * Thread-safe: no shared state (each call has its own jansson objects). */
#ifndef IOB_STATS_RESULT_JSON_H
#define IOB_STATS_RESULT_JSON_H

/* The ranges a loaded figure must lie in (docs/results-schema.md, "Ranges"): wide enough
 * for any real measurement, narrow enough that every formatter can print them. An
 * importer keeps to them too, so that what it makes loads again. */
#define RJ_MAX_FIG	1e18		/* rates, ns per op, metric magnitudes */
#define RJ_MAX_NS	9.2e18		/* mean and deviation of latencies (< 2^63) */
#define RJ_MAX_SECS	1e12		/* CPU seconds */
#define RJ_MAX_PCT	1e6		/* process %CPU (passes 100 with threads) */

struct run;

/* The run as a JSON text (indented by 2, reals with 15 significant digits), malloc'd:
 * the caller frees it. NULL on ENOMEM. Dumping a loaded run gives the loaded text back. */
char *result_json_dump(const struct run *run);
/* Parse a text written by result_json_dump into a new run (caller frees with run_free).
 * NULL with the reason in errbuf (errlen bytes) when it is not a result of ours, is
 * malformed, or has a newer schema_version than this version reads. */
struct run *result_json_load(const char *text, char *errbuf, unsigned long errlen);
/* The same for a result file at path; NULL with the reason (also "cannot open") in
 * errbuf. */
struct run *result_json_load_file(const char *path, char *errbuf, unsigned long errlen);
/* result_json_load_file_flags flags */
#define RESULT_LOAD_NO_HIST	1u	/* no latency histograms, the rows' nor the block
					 * layer's (each keeps its percentiles; the block
					 * layer's are checked as ever): for readers that
					 * never merge them (compare, the report) */
/* The same with flags, from a file and from a text. */
struct run *result_json_load_file_flags(const char *path, unsigned flags, char *errbuf,
					unsigned long errlen);
struct run *result_json_load_flags(const char *text, unsigned flags, char *errbuf,
				   unsigned long errlen);

#endif
