/* store_int.h - what the store's own files share; not for other modules. */
#ifndef IOB_STORE_STORE_INT_H
#define IOB_STORE_STORE_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

struct store {
	sqlite3 *db;
};

/* errbuf = "what: sqlite's message". */
void store_err(struct store *s, char *errbuf, size_t len, const char *what);
/* Run SQL without results. 0 or -EIO (sqlite's message in errbuf). */
int store_exec(struct store *s, const char *sql, char *errbuf, size_t len);

struct run;
/* The per-rank tables of a multi-rank run (store_ranks.c), after its rows are in.
 * 0 or -EIO (the reason in errbuf). */
int store_put_ranks(struct store *s, const struct run *run, int64_t run_id, char *errbuf,
		    size_t len);

#endif
