/* store_series.c - saving a row's system figures and time series into the tables of
 * schema 2 (row_system, row_devices, row_waits, series, series_devices; see
 * docs/store-schema.md), inside store_put's transaction. The columns are named as the
 * JSON keys, so the statements are built from the key tables of stats/result_sys.c. */
#include <errno.h>
#include <math.h>
#include "core/sqlite_dl.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"
#include "store/store_int.h"

struct store_sysput {
	struct store *s;
	sqlite3_stmt *sys, *dev, *wait, *ser, *serdev;
	char *errbuf;
	size_t len;
};

/* The number of comma-separated names in list. */
static unsigned names_in(const char *list)
{
	unsigned n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* "INSERT INTO table (lead, k1, k2 ..., tail) VALUES (?, ...)" for the n keys. */
static int build_sql(char *buf, size_t len, const char *table, const char *lead,
		     const struct rsys_key *k, unsigned n, const char *tail)
{
	unsigned cols = names_in(lead) + n + (tail ? names_in(tail) : 0), i;
	size_t off = (size_t)snprintf(buf, len, "INSERT INTO %s (%s", table, lead);

	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", %s", k[i].name);
	if (tail && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", %s", tail);
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, ") VALUES (?");
	for (i = 1; i < cols && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, ", ?");
	if (off < len)
		off += (size_t)snprintf(buf + off, len - off, ")");
	return off < len ? 0 : -ENAMETOOLONG;
}

static int prep(struct store_sysput *p, const char *table, const char *lead,
		const struct rsys_key *k, unsigned n, const char *tail, sqlite3_stmt **st)
{
	char sql[2048];

	if (build_sql(sql, sizeof(sql), table, lead, k, n, tail) < 0 ||
	    sqlite3_prepare_v2(p->s->db, sql, -1, st, NULL) != SQLITE_OK) {
		store_err(p->s, p->errbuf, p->len, "cannot prepare");
		return -EIO;
	}
	return 0;
}

void store_sysput_end(struct store_sysput *p)
{
	if (!p)
		return;
	sqlite3_finalize(p->sys);
	sqlite3_finalize(p->dev);
	sqlite3_finalize(p->wait);
	sqlite3_finalize(p->ser);
	sqlite3_finalize(p->serdev);
	free(p);
}

int store_sysput_begin(struct store *s, struct store_sysput **out, char *errbuf, size_t len)
{
	struct store_sysput *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p) {
		snprintf(errbuf, len, "out of memory");
		return -ENOMEM;
	}
	p->s = s;
	p->errbuf = errbuf;
	p->len = len;
	if (prep(p, "row_system", "row_id, devices_reason", rsys_keys, RS_N,
		 "wchan_hidden, interval_ns", &p->sys) ||
	    prep(p, "row_devices", "row_id, seq, name, role", rsys_dev_keys, RSD_N, NULL,
		 &p->dev) ||
	    prep(p, "row_waits", "row_id, seq, state, wchan, syscall, count, share_pct", NULL,
		 0, NULL, &p->wait) ||
	    prep(p, "series", "row_id, idx", rser_keys, RSE_N, NULL, &p->ser) ||
	    prep(p, "series_devices", "row_id, idx, device", rser_dev_keys, RSED_N, NULL,
		 &p->serdev)) {
		store_sysput_end(p);
		return -EIO;
	}
	*out = p;
	return 0;
}

static int put_sys(struct store_sysput *p, int64_t id, const struct row_sys *s,
		   const struct row_series *se)
{
	sqlite3_stmt *st = p->sys;
	char state[2] = "";
	int c = 1;

	sqlite3_bind_int64(st, c++, id);
	store_bind_text(st, c++, s->devices_reason);
	for (unsigned k = 0; k < RS_N; k++)
		store_bind_num(st, c++, s->v[k], rsys_keys[k].integer);
	if (s->wchan_hidden >= 0)
		sqlite3_bind_int(st, c, s->wchan_hidden);
	c++;
	if (se)
		sqlite3_bind_int64(st, c, (sqlite3_int64)se->interval_ns);
	if (store_step(p->s, st, p->errbuf, p->len, "cannot store the system figures") < 0)
		return -EIO;
	for (size_t d = 0; d < s->ndev; d++) {
		st = p->dev;
		c = 1;
		sqlite3_bind_int64(st, c++, id);
		sqlite3_bind_int64(st, c++, (sqlite3_int64)d);
		store_bind_text(st, c++, s->dev[d].name);
		store_bind_text(st, c++, s->dev[d].role);
		for (unsigned k = 0; k < RSD_N; k++)
			store_bind_num(st, c++, s->dev[d].v[k], rsys_dev_keys[k].integer);
		if (store_step(p->s, st, p->errbuf, p->len, "cannot store a device") < 0)
			return -EIO;
	}
	for (size_t w = 0; w < s->nwait; w++) {
		st = p->wait;
		state[0] = s->wait[w].state;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)w);
		store_bind_text(st, 3, state);
		store_bind_text(st, 4, s->wait[w].wchan);
		store_bind_text(st, 5, s->wait[w].syscall);
		store_bind_num(st, 6, s->wait[w].count, 1);
		store_bind_num(st, 7, s->wait[w].share_pct, 0);
		if (store_step(p->s, st, p->errbuf, p->len, "cannot store a wait state") < 0)
			return -EIO;
	}
	return 0;
}

static int put_series(struct store_sysput *p, int64_t id, const struct row_series *se)
{
	for (size_t i = 0; i < se->n; i++) {
		sqlite3_stmt *st = p->ser;
		int c = 1;

		sqlite3_bind_int64(st, c++, id);
		sqlite3_bind_int64(st, c++, (sqlite3_int64)i);
		for (unsigned k = 0; k < RSE_N; k++)
			store_bind_num(st, c++, se->v[k][i], rser_keys[k].integer);
		if (store_step(p->s, st, p->errbuf, p->len, "cannot store the series") < 0)
			return -EIO;
		for (size_t d = 0; d < se->ndev; d++) {
			st = p->serdev;
			c = 1;
			sqlite3_bind_int64(st, c++, id);
			sqlite3_bind_int64(st, c++, (sqlite3_int64)i);
			store_bind_text(st, c++, se->dev[d].name ? se->dev[d].name : "?");
			for (unsigned k = 0; k < RSED_N; k++)
				store_bind_num(st, c++, se->dev[d].v[k][i],
					       rser_dev_keys[k].integer);
			if (store_step(p->s, st, p->errbuf, p->len,
				       "cannot store the series") < 0)
				return -EIO;
		}
	}
	return 0;
}

int store_sysput_row(struct store_sysput *p, int64_t row_id, const struct row *w)
{
	if (w->sys && put_sys(p, row_id, w->sys, w->series) < 0)
		return -EIO;
	if (w->series && put_series(p, row_id, w->series) < 0)
		return -EIO;
	return 0;
}
