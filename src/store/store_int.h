/* store_int.h - what the store's own files share; not for other modules. */
#ifndef IOB_STORE_STORE_INT_H
#define IOB_STORE_STORE_INT_H

#include <sqlite3.h>
#include <stddef.h>

struct store {
	sqlite3 *db;
};

/* errbuf = "what: sqlite's message". */
void store_err(struct store *s, char *errbuf, size_t len, const char *what);
/* Run SQL without results. 0 or -EIO (sqlite's message in errbuf). */
int store_exec(struct store *s, const char *sql, char *errbuf, size_t len);

#endif
