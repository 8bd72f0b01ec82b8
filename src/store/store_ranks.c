/* store_ranks.c - the per-rank tables of a run measured by several ranks (run_ranks,
 * row_ranks; docs/store-schema.md), inside the run's transaction. The result JSON in
 * runs.result_json holds the same, so store_get needs nothing from here. */
#include <errno.h>
#include <math.h>
#include "core/sqlite_dl.h"
#include <stdint.h>
#include <stdio.h>

#include "stats/result.h"
#include "stats/result_keys.h"
#include "store/store_int.h"

static int put_run_ranks(struct store *s, const struct run *run, int64_t run_id,
			 sqlite3_stmt *st, char *errbuf, size_t len)
{
	size_t i;

	for (i = 0; i < run->nranks; i++) {
		const struct run_rank *k = &run->ranks[i];

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, (int)k->rank);
		store_bind_text(st, 3, k->env.host);
		store_bind_text(st, 4, k->env.target);
		store_bind_text(st, 5, k->env.fs_type);
		store_bind_text(st, 6, k->env.device);
		store_bind_text(st, 7, k->env.device_model);
		store_bind_text(st, 8, k->env.kernel);
		sqlite3_bind_int(st, 9, k->fs_differs);
		if (store_step(s, st, errbuf, len, "cannot store the ranks") < 0)
			return -EIO;
	}
	return 0;
}

static int put_row_ranks(struct store *s, const struct row *w, int64_t row_id,
			 sqlite3_stmt *st, char *errbuf, size_t len)
{
	size_t i;

	for (i = 0; i < w->nranks; i++) {
		const struct row_rank *k = &w->ranks[i];

		sqlite3_bind_int64(st, 1, row_id);
		sqlite3_bind_int(st, 2, (int)k->rank);
		sqlite3_bind_int(st, 3, k->present);
		store_bind_u64(st, 4, k->start_ns);
		store_bind_u64(st, 5, k->stop_ns);
		store_bind_u64(st, 6, k->bytes);
		store_bind_u64(st, 7, k->ops);
		store_bind_u64(st, 8, k->elapsed_ns);
		if (isfinite(k->rate))
			sqlite3_bind_double(st, 9, k->rate);
		else
			sqlite3_bind_null(st, 9);
		store_bind_u64(st, 10, k->stonewall_bytes);
		sqlite3_bind_int(st, 11, (int)k->flags);
		if (store_step(s, st, errbuf, len, "cannot store the ranks") < 0)
			return -EIO;
	}
	return 0;
}

int store_put_ranks(struct store *s, const struct run *run, int64_t run_id, char *errbuf,
		    size_t len)
{
	sqlite3_stmt *rr = NULL, *wr = NULL, *id = NULL;
	size_t i;
	int rc = 0;

	if (!run->nranks)
		return 0;
	if (store_exec(s, STORE_RANKS_SQL, errbuf, len) < 0)
		return -EIO;
	if (sqlite3_prepare_v2(s->db, "INSERT INTO run_ranks (run_id, rank, host, target, fs_type,"
			       " device, device_model, kernel, fs_differs) VALUES (?1, ?2, ?3,"
			       " ?4, ?5, ?6, ?7, ?8, ?9)", -1, &rr, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "INSERT INTO row_ranks (row_id, rank, present, start_ns,"
			       " stop_ns, bytes, ops, elapsed_ns, rate, stonewall_bytes, flags)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", -1, &wr,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, "SELECT id FROM rows WHERE run_id = ?1 AND seq = ?2", -1,
			       &id, NULL) != SQLITE_OK) {
		store_err(s, errbuf, len, "cannot prepare");
		rc = -EIO;
	}
	if (!rc)
		rc = put_run_ranks(s, run, run_id, rr, errbuf, len);
	for (i = 0; !rc && i < run->nrows; i++) {
		if (!run->rows[i]->nranks)
			continue;
		sqlite3_bind_int64(id, 1, run_id);
		sqlite3_bind_int64(id, 2, (sqlite3_int64)i);
		if (sqlite3_step(id) != SQLITE_ROW) {
			store_err(s, errbuf, len, "cannot find a stored row");
			rc = -EIO;
			break;
		}
		rc = put_row_ranks(s, run->rows[i], sqlite3_column_int64(id, 0), wr, errbuf, len);
		sqlite3_reset(id);
	}
	sqlite3_finalize(rr);
	sqlite3_finalize(wr);
	sqlite3_finalize(id);
	return rc;
}
