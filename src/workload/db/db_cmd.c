/* db_cmd.c - `iobattery db`: the classic `time psql -f ptst.sql` on embedded SQLite (default),
 * on an existing PostgreSQL server (--pg CONNINFO) or on a throwaway one whose data
 * directory is made in a scratch directory on the target (--pg-local). The descriptor of
 * the db workload (workload/db/) for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/sqlite_dl.h"

#include "config.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/rfile.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/db/db.h"
#include "runner/runner.h"
#include "workload/workload.h"

#define DB_SCRIPT_MAX	(64u << 20)	/* a script file larger than this is refused */

struct db_opts {
	uint64_t rows;
	const char *script;
	int no_build;
	const char *pg;
	int pg_local;
	const char *pg_bindir;
	const char *journal_mode;
	const char *synchronous;
	unsigned page_size;
	const char *cache_size;
};

/* Everything one invocation holds, released by db_finish. */
struct db_job {
	struct scratch *sc;
	struct db_pgserver *srv;
	char path[4096];
	char err[1024];
};

/* The config the driver allocates. */
struct db_cmd {
	struct db_opts o;
	const char *dir;		/* the operand; default "." */
	long cache;			/* --cache-size as a number */
	char *script;			/* --script's text, owned */
	struct db_cfg cfg;
	struct db_job j;
};

static const struct opt db_opt_table[] = {
	{ "rows", 'n', OPT_U64, offsetof(struct db_cmd, o.rows), "N",
	  "rows the build phase inserts, one statement each (default 1000000)" },
	{ "script", 'f', OPT_STR, offsetof(struct db_cmd, o.script), "FILE",
	  "run this SQL file as the timed script instead of the classic one" },
	{ "no-build", 0, OPT_FLAG, offsetof(struct db_cmd, o.no_build), NULL,
	  "skip the build phase (CREATE TABLE test1 + the inserts)" },
	{ "pg", 0, OPT_STR, offsetof(struct db_cmd, o.pg), "CONNINFO",
	  "use an existing PostgreSQL server (libpq connection string)" },
	{ "pg-local", 0, OPT_FLAG, offsetof(struct db_cmd, o.pg_local), NULL,
	  "start a throwaway PostgreSQL server with its data in DIR" },
	{ "pg-bindir", 0, OPT_STR, offsetof(struct db_cmd, o.pg_bindir), "DIR",
	  "where initdb and postgres are (default: pg_config --bindir)" },
	{ "journal-mode", 0, OPT_STR, offsetof(struct db_cmd, o.journal_mode), "MODE",
	  "SQLite PRAGMA journal_mode (default delete)" },
	{ "synchronous", 0, OPT_STR, offsetof(struct db_cmd, o.synchronous), "LEVEL",
	  "SQLite PRAGMA synchronous: off, normal, full, extra (default full)" },
	{ "page-size", 0, OPT_UINT, offsetof(struct db_cmd, o.page_size), "BYTES",
	  "SQLite PRAGMA page_size (default 4096)" },
	{ "cache-size", 0, OPT_STR, offsetof(struct db_cmd, o.cache_size), "N",
	  "SQLite PRAGMA cache_size: pages, or -KiB (default -2000)" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static int one_of(const char *v, const char *const *set)
{
	for (; *set; set++)
		if (!strcasecmp(v, *set))
			return 1;
	return 0;
}

/* Check the options; print one message and return -EINVAL on a bad one. */
static int db_check(const struct db_opts *o, long *cache)
{
	static const char *const jm[] = { "delete", "truncate", "persist", "memory", "wal",
					  "off", NULL };
	static const char *const sy[] = { "off", "normal", "full", "extra", NULL };
	char *end;

	if (o->rows == 0 || o->rows > 2147483647u) {
		/* anumber is an INTEGER column and build_data() loops over an INTEGER */
		err_msg("invalid --rows: '%llu': must be from 1 to 2147483647",
			(unsigned long long)o->rows);
		return -EINVAL;
	}
	if (o->pg && o->pg_local) {
		err_msg("--pg and --pg-local exclude each other");
		return -EINVAL;
	}
	if (!one_of(o->journal_mode, jm)) {
		err_msg("invalid --journal-mode: '%s': use delete, truncate, persist, memory, "
			"wal or off", o->journal_mode);
		return -EINVAL;
	}
	if (!one_of(o->synchronous, sy)) {
		err_msg("invalid --synchronous: '%s': use off, normal, full or extra",
			o->synchronous);
		return -EINVAL;
	}
	if (o->page_size < 512 || o->page_size > 65536 || (o->page_size & (o->page_size - 1))) {
		err_msg("invalid --page-size: '%u': a power of two from 512 to 65536",
			o->page_size);
		return -EINVAL;
	}
	errno = 0;
	*cache = strtol(o->cache_size, &end, 10);
	if (errno || end == o->cache_size || *end) {
		err_msg("invalid --cache-size: '%s': a whole number", o->cache_size);
		return -EINVAL;
	}
#ifndef HAVE_LIBPQ
	if (o->pg || o->pg_local) {
		err_msg("--pg and --pg-local need libpq: this iobattery was built without libpq");
		return -EINVAL;
	}
#endif
	return 0;
}

/* Read the whole script file (a regular file, no NUL byte) into a new string, and check
 * that it splits. */
static int db_load_script(const char *path, char **out)
{
	struct db_stmt *v;
	char err[256], *buf;
	size_t len, nul;
	unsigned line = 1;
	int n;

	n = rfile_read(path, RFILE_PIPES, DB_SCRIPT_MAX, &buf, &len);
	if (n == -EFBIG) {
		err_msg("the script is too large: '%s': over 64 MiB", path);
		return -EINVAL;
	}
	if (n < 0) {
		err_msg("cannot %s the script: '%s': %s", n == -ENOENT || n == -EACCES ? "open" :
			"read", path, rfile_strerror(n));
		return -EINVAL;
	}
	/* a NUL byte would end the text there and drop the rest silently */
	nul = strlen(buf);
	if (nul != len) {
		for (size_t i = 0; i < nul; i++)
			line += buf[i] == '\n';
		err_msg("bad script: '%s': a NUL byte at line %u", path, line);
		free(buf);
		return -EINVAL;
	}
	n = db_split(buf, &v, err, sizeof(err));
	if (n <= 0) {
		err_msg("bad script: '%s': %s", path, n == 0 ? "no SQL statement in it" : err);
		free(buf);
		return -EINVAL;
	}
	db_split_free(v, n);
	*out = buf;
	return 0;
}

/* Make the scratch directory, and the server for --pg-local; fill cfg. Returns 0, or
 * an exit status after printing why. */
static int db_setup(struct db_job *j, const struct db_opts *o, const char *dir,
		    struct db_cfg *cfg)
{
	int rc;

	if (o->pg) {
		cfg->kind = DB_PG;
		cfg->conninfo = o->pg;
		return 0;
	}
	rc = scratch_create(dir, &j->sc);
	if (rc < 0) {
		err_errno(rc, "cannot make a scratch directory: '%s'", dir);
		return EXIT_USAGE;
	}
	cfg->device_path = scratch_dir(j->sc);
	if (!o->pg_local) {
		cfg->kind = DB_SQLITE;
		if (scratch_path(j->sc, "perftst.sqlite", j->path, sizeof(j->path)) < 0) {
			err_msg("path too long: '%s'", scratch_dir(j->sc));
			return EXIT_USAGE;
		}
		cfg->sqlite_path = j->path;
		return 0;
	}
	cfg->kind = DB_PG;
	rc = db_pgserver_start(scratch_dir(j->sc), o->pg_bindir, &j->srv, j->err,
			       sizeof(j->err));
	if (rc < 0) {
		if (rc == -EINTR)
			return EXIT_SIGNAL;
		err_msg("cannot start a throwaway postgresql server: %s", j->err);
		return EXIT_FAILED;
	}
	cfg->server = j->srv;
	cfg->conninfo = db_pgserver_conninfo(j->srv);
	cfg->size_dir = db_pgserver_datadir(j->srv);
	return 0;
}

/* Stop the server and remove the scratch directory. 0 or -errno. */
static int db_finish(struct db_job *j)
{
	int rc = 0, r;

	if (j->srv) {
		r = db_pgserver_stop(j->srv);
		if (r < 0) {
			err_errno(r, "cannot stop the throwaway postgresql server");
			rc = r;
		}
		j->srv = NULL;
	}
	if (j->sc) {
		char d[4096];

		snprintf(d, sizeof(d), "%s", scratch_dir(j->sc));
		r = scratch_destroy(j->sc);
		if (r < 0) {
			err_errno(r, "cannot remove the scratch directory: '%s'", d);
			rc = rc ? rc : r;
		}
		j->sc = NULL;
	}
	return rc;
}

/* For --pg on this machine: describe the file system of the server's data directory. */
static void db_pg_env(struct run *run)
{
	const char *d = kv_get(&run->options, RK_DB_PG_DATA_DIRECTORY);
	struct stat st;

	if (d && stat(d, &st) == 0 && S_ISDIR(st.st_mode))
		sysinfo_fill(&run->env, d);
}

/* Record what the results need besides the options; hide a password of --pg. */
static void db_record(struct run *run, const struct db_opts *o)
{
	const struct sqlite_dl *q;
	char e[256];
	size_t k;

	if (o->pg) {
		db_redact(run->command_line);
		for (k = 0; k < run->options.n; k++)
			if (!strcmp(run->options.v[k].key, "pg"))
				db_redact(run->options.v[k].value);
	}
	kv_set(&run->options, RK_DB_ENGINE, "%s", o->pg || o->pg_local ? "postgresql" : "sqlite");
	if (!o->pg && !o->pg_local && (q = sqlite_dl_load(e, sizeof(e))))
		kv_set(&run->options, RK_DB_SQLITE_VERSION, "%s", q->libversion());
}

static void db_init(void *cfg)
{
	struct db_cmd *d = cfg;

	d->o = (struct db_opts){ .rows = 1000000, .journal_mode = "delete",
				 .synchronous = "full", .page_size = 4096,
				 .cache_size = "-2000" };
	d->dir = ".";
	d->cache = -2000;
	d->cfg.script_name = "seed";
}

static int db_operands(struct workload_ctx *x, char **ops, int n)
{
	struct db_cmd *d = x->cfg;

	if (n > 1) {
		err_msg("too many operands: '%s': see 'iobattery db --help'", ops[1]);
		return -EINVAL;
	}
	if (n == 1)
		d->dir = ops[0];
	return db_check(&d->o, &d->cache);
}

static int db_validate(struct workload_ctx *x)
{
	struct db_cmd *d = x->cfg;
	struct db_cfg *cfg = &d->cfg;

	if (d->o.script && db_load_script(d->o.script, &d->script) < 0)
		return -EINVAL;
	cfg->script_name = d->o.script ? d->o.script : "seed";
	cfg->script = d->script;
	cfg->rows = d->o.rows;
	cfg->no_build = d->o.no_build;
	cfg->sqlite = (struct db_sqlite_opts){ d->o.journal_mode, d->o.synchronous,
					       d->o.page_size, d->cache };
	x->target = d->o.pg ? "." : d->dir;
	return 0;
}

static int db_wl_record(struct workload_ctx *x, struct run *run)
{
	db_record(run, &((struct db_cmd *)x->cfg)->o);
	return 0;
}

static int db_wl_setup(struct workload_ctx *x, struct runner *rc)
{
	struct db_cmd *d = x->cfg;

	(void)rc;
	return db_setup(&d->j, &d->o, d->dir, &d->cfg);
}

/* SQLite: each repeat starts from a new database file. */
static int db_next_repeat(struct workload_ctx *x, struct runner *rc)
{
	struct db_cmd *d = x->cfg;

	(void)rc;
	return d->cfg.kind == DB_SQLITE ? db_sqlite_remove(d->cfg.sqlite_path) : 0;
}

static int db_wl_run(struct workload_ctx *x, struct runner *rc)
{
	return db_run(rc, &((struct db_cmd *)x->cfg)->cfg);
}

/* Stop the server, remove the scratch directory; for --pg, the server's file system. */
static int db_teardown(struct workload_ctx *x, struct run *run)
{
	struct db_cmd *d = x->cfg;
	int r = db_finish(&d->j);

	if (d->o.pg)
		db_pg_env(run);
	return r;
}

static void db_done(void *cfg)
{
	free(((struct db_cmd *)cfg)->script);
}

const struct workload workload_db = {
	.name = "db",
	.summary = "the classic SQL script on SQLite or PostgreSQL, statements timed",
	.synopsis = "[OPTIONS] [DIR]",
	.help = "\n"
		"Build a table of N rows with single-row inserts, then run the classic SQL\n"
		"script of the 2005 mailing-list tests (CREATE TABLE AS, INSERT..SELECT,\n"
		"DELETE, JOIN, UPDATE, VACUUM, DROP) and time every statement, as\n"
		"`time psql -f ptst.sql` did. The database lives in a scratch directory\n"
		"made in DIR (default: the current directory).\n\n",
	.opts = db_opt_table,
	.cfg_size = sizeof(struct db_cmd),
	.init = db_init,
	.operands = db_operands,
	.validate = db_validate,
	.record = db_wl_record,
	.setup = db_wl_setup,
	.next_repeat = db_next_repeat,
	.run = db_wl_run,
	.teardown = db_teardown,
	.done = db_done,
};
