/* store_devlat.c - a run's block-layer latency and ceilings in the store (schema 4:
 * row_device_latency_window, row_device_latency, row_ceilings; docs/store-schema.md),
 * after its rows are in, inside store_put's transaction. The tables are created where
 * they are missing first (STORE_DEVLAT_SQL), as the per-rank tables are. */
#include <errno.h>
#include <math.h>
#include "core/sqlite_dl.h"
#include <stdio.h>
#include <stdlib.h>

#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_devlat.h"
#include "store/store_int.h"

struct dput {
	struct store *s;
	sqlite3_stmt *win, *part, *ceil, *id;
	char *errbuf;
	size_t len;
};

/* [[bucket, count], ...] of h's non-empty buckets, malloc'd; NULL on ENOMEM. */
static char *buckets_text(const struct hist *h)
{
	size_t cap = 64, off = 0;
	char *s = malloc(cap), *t;

	if (!s)
		return NULL;
	off += (size_t)snprintf(s, cap, "[");
	for (unsigned i = 0; h && i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		if (cap - off < 48) {
			t = realloc(s, cap * 2);
			if (!t) {
				free(s);
				return NULL;
			}
			s = t;
			cap *= 2;
		}
		off += (size_t)snprintf(s + off, cap - off, "%s[%u,%llu]", off > 1 ? "," : "", i,
					(unsigned long long)h->b[i]);
	}
	snprintf(s + off, cap - off, "]");
	return s;
}

static int put_part(struct dput *p, int64_t row_id, const char *op, const char *kind,
		    const struct rdl_part *x)
{
	char *b = buckets_text(x->hist);
	int rc;

	if (!b)
		return -ENOMEM;
	sqlite3_bind_int64(p->part, 1, row_id);
	store_bind_text(p->part, 2, op);
	store_bind_text(p->part, 3, kind);
	store_bind_u64(p->part, 4, x->n);
	store_bind_num(p->part, 5, x->mean_ns, 0);
	store_bind_u64(p->part, 6, x->p50_ns);
	store_bind_u64(p->part, 7, x->p99_ns);
	store_bind_u64(p->part, 8, x->max_ns);
	store_bind_text(p->part, 9, b);
	rc = store_step(p->s, p->part, p->errbuf, p->len, "cannot store device latency");
	free(b);
	return rc;
}

static int put_devlat(struct dput *p, int64_t row_id, const struct row_devlat *d)
{
	sqlite3_bind_int64(p->win, 1, row_id);
	store_bind_text(p->win, 2, d->reason);
	store_bind_text(p->win, 3, d->devices);
	store_bind_u64(p->win, 4, d->requests);
	store_bind_u64(p->win, 5, d->unstamped);
	store_bind_num(p->win, 6, d->diskstats_requests, 1);
	store_bind_num(p->win, 7, d->diskstats_await_ms, 0);
	store_bind_num(p->win, 8, d->window_ns, 1);
	store_bind_u64(p->win, 9, d->unissued);
	if (store_step(p->s, p->win, p->errbuf, p->len, "cannot store device latency") < 0)
		return -EIO;
	for (unsigned i = 0; i < RDL_NOPS; i++) {
		if (!d->op[i].dev.n)
			continue;
		if (put_part(p, row_id, rdl_op_name(i), "device", &d->op[i].dev) < 0 ||
		    put_part(p, row_id, rdl_op_name(i), "queue", &d->op[i].queue) < 0)
			return -EIO;
	}
	return 0;
}

static int put_ceiling(struct dput *p, int64_t row_id, const struct row_ceiling *c)
{
	sqlite3_stmt *st = p->ceil;

	sqlite3_bind_int64(st, 1, row_id);
	store_bind_text(st, 2, ceil_kind_name(c->applies));
	store_bind_num(st, 3, c->rate_bytes_s, 0);
	store_bind_num(st, 4, c->rate_ops_s, 0);
	store_bind_num(st, 5, c->link_bytes_s, 0);
	store_bind_num(st, 6, c->memory_bytes_s, 0);
	store_bind_num(st, 7, c->tool_ops_s, 0);
	store_bind_num(st, 8, c->tool_bytes_s, 0);
	store_bind_text(st, 9, c->tool_settings[0] ? c->tool_settings : NULL);
	store_bind_num(st, 10, c->tool_cpu_ns_per_op, 0);
	return store_step(p->s, st, p->errbuf, p->len, "cannot store a ceiling");
}

static int prepare(struct dput *p)
{
	sqlite3 *db = p->s->db;

	if (sqlite3_prepare_v2(db, "INSERT INTO row_device_latency_window (row_id, reason,"
			       " devices, requests, unstamped, diskstats_requests,"
			       " diskstats_await_ms, window_ns, unissued) VALUES (?1, ?2, ?3, ?4,"
			       " ?5, ?6, ?7, ?8, ?9)", -1, &p->win, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO row_device_latency (row_id, op, kind, n, mean_ns,"
			       " p50_ns, p99_ns, max_ns, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
			       " ?7, ?8, ?9)", -1, &p->part, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO row_ceilings (row_id, applies, rate_bytes_s,"
			       " rate_ops_s, link_bytes_s, memory_copy_bytes_s, tool_ops_s,"
			       " tool_bytes_s, tool_settings, tool_cpu_ns_per_op) VALUES (?1, ?2,"
			       " ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)", -1, &p->ceil,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT id FROM rows WHERE run_id = ?1 AND seq = ?2", -1,
			       &p->id, NULL) != SQLITE_OK) {
		store_err(p->s, p->errbuf, p->len, "cannot prepare");
		return -EIO;
	}
	return 0;
}

int store_put_devlat(struct store *s, const struct run *run, int64_t run_id, char *errbuf,
		     size_t len)
{
	struct dput p = { s, NULL, NULL, NULL, NULL, errbuf, len };
	int rc = 0, any = 0;
	size_t i;

	for (i = 0; i < run->nrows; i++)
		any |= run->rows[i]->devlat || run->rows[i]->ceiling;
	if (!any)
		return 0;
	if (store_exec(s, STORE_DEVLAT_SQL, errbuf, len) < 0 || prepare(&p) < 0)
		rc = -EIO;
	for (i = 0; !rc && i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		int64_t row_id;

		if (!w->devlat && !w->ceiling)
			continue;
		sqlite3_bind_int64(p.id, 1, run_id);
		sqlite3_bind_int64(p.id, 2, (sqlite3_int64)i);
		if (sqlite3_step(p.id) != SQLITE_ROW) {
			store_err(s, errbuf, len, "cannot find a stored row");
			rc = -EIO;
			break;
		}
		row_id = sqlite3_column_int64(p.id, 0);
		sqlite3_reset(p.id);
		if (w->devlat)
			rc = put_devlat(&p, row_id, w->devlat);
		if (!rc && w->ceiling)
			rc = put_ceiling(&p, row_id, w->ceiling);
	}
	sqlite3_finalize(p.win);
	sqlite3_finalize(p.part);
	sqlite3_finalize(p.ceil);
	sqlite3_finalize(p.id);
	return rc < 0 ? -EIO : 0;
}
