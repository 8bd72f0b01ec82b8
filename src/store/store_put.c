/* store_put.c - saving one run: the runs row (with the complete result as JSON), its
 * options, rows, params, metrics and histograms, all in one transaction, so that a crash
 * or a kill leaves the run either wholly stored or absent (SQLite's journal rolls back
 * an unfinished transaction when the database is next opened). See store.h. */
#include <errno.h>
#include "core/sqlite_dl.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"
#include "store/store.h"
#include "store/store_int.h"

/* Prepared statements of one save. */
struct put {
	struct store *s;
	sqlite3_stmt *run, *opt, *row, *param, *metric, *hist;
	struct store_sysput *sys;	/* system figures and series (store_series.c) */
	char *errbuf;
	size_t len;
};

static const char *const sql_run =
	"INSERT INTO runs (run_uid, schema_version, label, workload, command_line, date, host,"
	" tool_version, os, kernel, arch, cpu_model, ncpu, ram_bytes, target, fs_type,"
	" mount_opts, mount_point, device, device_model, rotational, scheduler, virtualized,"
	" status, incomplete, imported, error, result_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	" ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23,"
	" ?24, ?25, ?26, ?27, ?28)";
static const char *const sql_row =
	"INSERT INTO rows (run_id, seq, workload, phase, repeat, bytes, ops, elapsed_ns,"
	" buffered_ns, durable_ns, rate, rate_unit, cpu_user_s, cpu_sys_s, cpu_proc_pct,"
	" cpu_sys_busy_pct, lat_n, lat_mean_ns, lat_sd_ns, lat_min_ns, lat_p50_ns, lat_p90_ns,"
	" lat_p99_ns, lat_p999_ns, lat_max_ns, cache_pct, cache_dropped, flags, flag_names,"
	" error, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
	" ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)";

static void put_free(struct put *p)
{
	sqlite3_finalize(p->run);
	sqlite3_finalize(p->opt);
	sqlite3_finalize(p->row);
	sqlite3_finalize(p->param);
	sqlite3_finalize(p->metric);
	sqlite3_finalize(p->hist);
	store_sysput_end(p->sys);
}

static int prep(struct put *p, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(p->s->db, sql, -1, st, NULL) != SQLITE_OK) {
		store_err(p->s, p->errbuf, p->len, "cannot prepare");
		return -EIO;
	}
	return 0;
}

static int put_prepare(struct put *p)
{
	return prep(p, sql_run, &p->run) || prep(p, sql_row, &p->row) ||
	       prep(p, "INSERT INTO run_options (run_id, key, value) VALUES (?1, ?2, ?3)",
		    &p->opt) ||
	       prep(p, "INSERT OR REPLACE INTO row_params (row_id, key, value) "
		    "VALUES (?1, ?2, ?3)", &p->param) ||
	       prep(p, "INSERT INTO metrics (row_id, name, value, unit) VALUES (?1, ?2, ?3, ?4)",
		    &p->metric) ||
	       prep(p, "INSERT INTO histograms (row_id, n, sum_ns, min_ns, max_ns, buckets) "
		    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &p->hist) ||
	       store_sysput_begin(p->s, &p->sys, p->errbuf, p->len) ? -EIO : 0;
}

static int put_run(struct put *p, const struct run *r, const char *json)
{
	const struct env *e = &r->env;
	sqlite3_stmt *st = p->run;

	store_bind_text(st, 1, r->id);
	sqlite3_bind_int(st, 2, r->schema_version);
	store_bind_text(st, 3, r->label);
	store_bind_text(st, 4, r->workload);
	store_bind_text(st, 5, r->command_line);
	store_bind_text(st, 6, e->date);
	store_bind_text(st, 7, e->host);
	store_bind_text(st, 8, e->tool_version);
	store_bind_text(st, 9, e->os);
	store_bind_text(st, 10, e->kernel);
	store_bind_text(st, 11, e->arch);
	store_bind_text(st, 12, e->cpu_model);
	sqlite3_bind_int(st, 13, (int)e->ncpu);
	store_bind_u64(st, 14, e->ram_bytes);
	store_bind_text(st, 15, e->target);
	store_bind_text(st, 16, e->fs_type);
	store_bind_text(st, 17, e->mount_opts);
	store_bind_text(st, 18, e->mount_point);
	store_bind_text(st, 19, e->device);
	store_bind_text(st, 20, e->device_model);
	store_bind_tri(st, 21, e->rotational);
	store_bind_text(st, 22, e->scheduler);
	store_bind_tri(st, 23, e->virtualized);
	sqlite3_bind_int(st, 24, r->status);
	sqlite3_bind_int(st, 25, !!(r->flags & RUN_INCOMPLETE));
	sqlite3_bind_int(st, 26, !!(r->flags & RUN_IMPORTED));
	store_bind_text(st, 27, r->error);
	store_bind_text(st, 28, json);
	return store_step(p->s, st, p->errbuf, p->len, "cannot store the run");
}

static void flag_names(char *buf, size_t len, unsigned flags)
{
	size_t off = 0;
	unsigned bit;
	const char *n;

	buf[0] = '\0';
	for (bit = 1; bit && off < len; bit <<= 1) {
		if (!(flags & bit) || !(n = result_flag_name(bit)))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "", n);
	}
}

static int put_hist(struct put *p, int64_t row_id, const struct hist *h)
{
	char *buf, *nb;
	size_t cap = 4096, off = 0;
	unsigned i;
	int rc;

	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	off += (size_t)snprintf(buf, cap, "[");
	for (i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->b[i])
			continue;
		if (cap - off < 48) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		off += (size_t)snprintf(buf + off, cap - off, "%s[%u,%llu]", off > 1 ? "," : "",
					i, (unsigned long long)h->b[i]);
	}
	snprintf(buf + off, cap - off, "]");
	sqlite3_bind_int64(p->hist, 1, row_id);
	store_bind_u64(p->hist, 2, h->n);
	store_bind_u64(p->hist, 3, h->sum);
	if (h->n) {
		store_bind_u64(p->hist, 4, h->min);
		store_bind_u64(p->hist, 5, h->max);
	}
	sqlite3_bind_text(p->hist, 6, buf, -1, SQLITE_TRANSIENT);
	rc = store_step(p->s, p->hist, p->errbuf, p->len, "cannot store a histogram");
	free(buf);
	return rc;
}

static void bind_row(sqlite3_stmt *st, int64_t run_id, size_t seq, const struct row *w,
		     const char *flags)
{
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int64(st, 2, (int64_t)seq);
	store_bind_text(st, 3, w->workload);
	store_bind_text(st, 4, w->phase);
	sqlite3_bind_int(st, 5, (int)w->repeat);
	store_bind_u64(st, 6, w->bytes);
	store_bind_u64(st, 7, w->ops);
	store_bind_u64(st, 8, w->elapsed_ns);
	store_bind_u64(st, 9, w->buffered_ns);
	store_bind_u64(st, 10, w->durable_ns);
	sqlite3_bind_double(st, 11, w->rate);
	store_bind_text(st, 12, w->rate_unit);
	if (w->cpu.valid) {
		sqlite3_bind_double(st, 13, w->cpu.user_s);
		sqlite3_bind_double(st, 14, w->cpu.sys_s);
		sqlite3_bind_double(st, 15, w->cpu.proc_pct);
		sqlite3_bind_double(st, 16, w->cpu.sys_busy_pct);
	}
	if (w->lat.valid) {
		store_bind_u64(st, 17, w->lat.n);
		sqlite3_bind_double(st, 18, w->lat.mean_ns);
		sqlite3_bind_double(st, 19, w->lat.sd_ns);
		store_bind_u64(st, 20, w->lat.min_ns);
		store_bind_u64(st, 21, w->lat.p50_ns);
		store_bind_u64(st, 22, w->lat.p90_ns);
		store_bind_u64(st, 23, w->lat.p99_ns);
		store_bind_u64(st, 24, w->lat.p999_ns);
		store_bind_u64(st, 25, w->lat.max_ns);
	}
	if (w->cache_pct >= 0)
		sqlite3_bind_double(st, 26, w->cache_pct);
	sqlite3_bind_int(st, 27, w->cache_dropped);
	sqlite3_bind_int64(st, 28, (int64_t)w->flags);
	store_bind_text(st, 29, flags);
	store_bind_text(st, 30, w->error);
	store_bind_text(st, 31, w->note);
}

static int put_row(struct put *p, int64_t run_id, size_t seq, const struct row *w)
{
	char flags[256];
	int64_t row_id;
	size_t i;
	int rc;

	flag_names(flags, sizeof(flags), w->flags);
	bind_row(p->row, run_id, seq, w, flags);
	if (store_step(p->s, p->row, p->errbuf, p->len, "cannot store a row") < 0)
		return -EIO;
	row_id = sqlite3_last_insert_rowid(p->s->db);
	for (i = 0; i < w->params.n; i++) {
		sqlite3_bind_int64(p->param, 1, row_id);
		store_bind_text(p->param, 2, w->params.v[i].key);
		store_bind_text(p->param, 3, w->params.v[i].value);
		if (store_step(p->s, p->param, p->errbuf, p->len, "cannot store a param") < 0)
			return -EIO;
	}
	for (i = 0; i < w->nmetrics; i++) {
		sqlite3_bind_int64(p->metric, 1, row_id);
		store_bind_text(p->metric, 2, w->metrics[i].name);
		sqlite3_bind_double(p->metric, 3, w->metrics[i].value);
		store_bind_text(p->metric, 4, w->metrics[i].unit);
		if (store_step(p->s, p->metric, p->errbuf, p->len, "cannot store a metric") < 0)
			return -EIO;
	}
	if (w->lat.valid && w->lat.hist && (rc = put_hist(p, row_id, w->lat.hist)) < 0)
		return rc;
	return store_sysput_row(p->sys, row_id, w);
}

static int put_all(struct put *p, const struct run *run, const char *json, int64_t *id)
{
	size_t i;
	int rc;

	if ((rc = put_run(p, run, json)) < 0)
		return rc;
	*id = sqlite3_last_insert_rowid(p->s->db);
	for (i = 0; i < run->options.n; i++) {
		sqlite3_bind_int64(p->opt, 1, *id);
		store_bind_text(p->opt, 2, run->options.v[i].key);
		store_bind_text(p->opt, 3, run->options.v[i].value);
		rc = store_step(p->s, p->opt, p->errbuf, p->len, "cannot store an option");
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < run->nrows; i++)
		if ((rc = put_row(p, *id, i, run->rows[i])) < 0)
			return rc;
	if ((rc = store_put_devlat(p->s, run, *id, p->errbuf, p->len)) < 0)
		return rc;
	return store_put_ranks(p->s, run, *id, p->errbuf, p->len);	/* several ranks */
}

/* The store id of the run with this run id, 0 when none, -EIO on error. */
static int64_t find_uid(struct store *s, const char *uid)
{
	sqlite3_stmt *st;
	int64_t id = 0;
	int rc;

	if (sqlite3_prepare_v2(s->db, "SELECT id FROM runs WHERE run_uid = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	else if (rc != SQLITE_DONE)
		id = -EIO;
	sqlite3_finalize(st);
	return id;
}

int store_put(struct store *s, const struct run *run, int64_t *id, char *errbuf, size_t len)
{
	struct put p = { s, NULL, NULL, NULL, NULL, NULL, NULL, NULL, errbuf, len };
	char *json;
	int rc;

	json = result_json_dump(run);
	if (!json) {
		snprintf(errbuf, len, "out of memory");
		return -ENOMEM;
	}
	if (store_exec(s, "BEGIN IMMEDIATE", errbuf, len) < 0) {
		free(json);
		return -EIO;
	}
	*id = run->id ? find_uid(s, run->id) : 0;
	if (*id > 0) {
		snprintf(errbuf, len, "already stored as id %lld", (long long)*id);
		rc = -EEXIST;
	} else if (*id < 0) {
		store_err(s, errbuf, len, "query failed");
		rc = -EIO;
	} else {
		rc = put_prepare(&p);
		if (rc == 0)
			rc = put_all(&p, run, json, id);
	}
	put_free(&p);
	free(json);
	if (rc == 0 && store_exec(s, "COMMIT", errbuf, len) == 0)
		return 0;
	(void)sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc ? rc : -EIO;
}
