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

struct row;
struct store_sysput;
/* store_series.c: the statements that save rows' system figures and series, prepared
 * once per save. 0 and *out, or -EIO / -ENOMEM with the reason in errbuf (kept for the
 * later calls' errors too). */
int store_sysput_begin(struct store *s, struct store_sysput **out, char *errbuf, size_t len);
/* Save w's figures under row_id (nothing when it has none). 0 or -EIO. */
int store_sysput_row(struct store_sysput *p, int64_t row_id, const struct row *w);
void store_sysput_end(struct store_sysput *p);

#endif
