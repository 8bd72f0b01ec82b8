/* store_bind.c - binding values to the store's prepared statements and stepping them:
 * what store_put.c, store_series.c and store_ranks.c share. See store_int.h. */
#include <errno.h>
#include <math.h>
#include "core/sqlite_dl.h"
#include <stdint.h>

#include "store/store_int.h"

void store_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

void store_bind_u64(sqlite3_stmt *st, int i, uint64_t v)
{
	sqlite3_bind_int64(st, i, v > INT64_MAX ? INT64_MAX : (sqlite3_int64)v);
}

void store_bind_tri(sqlite3_stmt *st, int i, int v)
{
	if (v < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int(st, i, v);
}

void store_bind_num(sqlite3_stmt *st, int i, double v, int integer)
{
	if (!isfinite(v))
		sqlite3_bind_null(st, i);
	else if (integer)
		sqlite3_bind_int64(st, i, v >= 9.2e18 ? INT64_MAX :
				   v <= -9.2e18 ? INT64_MIN : (sqlite3_int64)llround(v));
	else
		sqlite3_bind_double(st, i, v);
}

int store_step(struct store *s, sqlite3_stmt *st, char *errbuf, size_t len, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE) {
		store_err(s, errbuf, len, what);
		return -EIO;
	}
	return 0;
}
