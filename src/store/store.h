/* store.h - the results store: every run in one SQLite database
 * ($IOBATTERY_DB, else ~/.local/share/iobattery/results.db), so that runs can be listed,
 * shown, exported, deleted and compared by id or label later. Schema and migrations in
 * store.c (PRAGMA user_version); one transaction per run, so a run is either wholly in
 * the store or absent. docs/store-schema.md documents the tables for sqlite3 users.
 * A struct store is one connection: use it from one thread. */
#ifndef IOB_STORE_STORE_H
#define IOB_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct run;
struct store;

/* The schema version this code writes (PRAGMA user_version). */
#define STORE_SCHEMA_VERSION 5

/* The database path: $IOBATTERY_DB when set and not empty, else
 * $HOME/.local/share/iobattery/results.db. 0, or -ENOENT (no HOME) / -ENAMETOOLONG. */
int store_default_path(char *buf, size_t len);

/* May the default store be written where it is? 0, or -ENOENT (with the reason in
 * errbuf) when IOBATTERY_DB names a file in a directory that does not exist: only the
 * default store's own directory is ever made. Checked before any I/O. */
int store_check_place(char *errbuf, size_t len);

/* Open (create = 1: create the file, its directory and the schema when missing; 0: the
 * database must exist) and migrate. NULL with the reason in errbuf. Caller closes. */
struct store *store_open(const char *path, int create, char *errbuf, size_t len);
void store_close(struct store *s);

/* Insert run with its rows, params, metrics and histograms in one transaction. *id
 * receives the store id. Returns 0, -EEXIST when a run with the same run id is already
 * stored (its store id in *id), or -EIO with the reason in errbuf. */
int store_put(struct store *s, const struct run *run, int64_t *id, char *errbuf, size_t len);
/* The run stored under id as a new run (caller frees), or NULL: -ENOENT when there is no
 * such id (errbuf says so), else the reason in errbuf. */
struct run *store_get(struct store *s, int64_t id, char *errbuf, size_t len);
/* The same with result_json_load_flags' flags (RESULT_LOAD_NO_HIST). */
struct run *store_get_flags(struct store *s, int64_t id, unsigned flags, char *errbuf,
			    size_t len);
/* The id of the latest run with this label or run id (the text id of the run), 0 when
 * none, -EIO on error. */
int64_t store_find(struct store *s, const char *label_or_uid);
/* Every run labelled label, oldest first (store_label.c): the count (0: none) and in
 * *out a malloc'd array of new runs (caller frees each and the array), or -EIO / -EINVAL
 * / -ENOMEM with the reason in errbuf. flags: result_json_load_flags' (0: all of it). */
int store_get_label(struct store *s, const char *label, unsigned flags, struct run ***out,
		    char *errbuf, size_t len);
/* Delete run id and everything of it. 0, -ENOENT, -EIO. */
int store_delete(struct store *s, int64_t id, char *errbuf, size_t len);

/* One line per run, newest last: id, date, host, workload, label, rows, flags.
 * label and host (may be NULL) filter. Returns the number listed or -EIO. */
int store_list(struct store *s, FILE *f, const char *label, const char *host);

/* Save run into the default store (opened and closed here). 0, or -errno with the reason
 * in errbuf. What common_emit calls unless --no-store. */
int store_save_run(const struct run *run, char *errbuf, size_t len);

/* A run named on a command line: a result file (JSON) when spec is a path that exists,
 * else (use_store) a store id (digits) or a label or run id in the default store.
 * NULL after printing one message "iobattery: cannot load: 'SPEC': reason". */
struct run *results_load(const char *spec, int use_store);
/* The same with result_json_load_file_flags' flags (RESULT_LOAD_NO_HIST). */
struct run *results_load_flags(const char *spec, int use_store, unsigned flags);
/* Like results_load_flags, but a label (use_store, spec not a file) gives every run with
 * that label in the store (store_label.c). Returns the count (>= 1) with the runs in *out
 * (malloc'd; caller frees each and the array), or -errno after one message. */
int results_load_all(const char *spec, int use_store, unsigned flags, struct run ***out);

#endif
