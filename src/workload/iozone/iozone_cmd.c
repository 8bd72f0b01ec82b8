/* iozone_cmd.c - `iobattery iozone`: iozone's letters, validated before anything is
 * created; the files in scratch directories made where the user pointed (-f, -F); the
 * matrix; the table (and -R blocks) through the formatters; -b's workbook. The
 * descriptor of the iozone workload (workload/iozone/) for the driver
 * (cmd/workload_cmd.c). */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "observe/sysinfo.h"
#include "core/units.h"
#include "engine/engine.h"
#include "output/iozone_out.h"
#include "runner/runner.h"
#include "stats/result.h"
#include "workload/iozone/iozone.h"
#include "workload/workload.h"

/* The config the driver allocates. */
struct iozone_cmd {
	struct iozone_cfg c;
	unsigned nw;				/* files: one per worker */
	char parent[IOZ_MAX_WORKERS][PATH_MAX];	/* the directory each file goes in */
	char name[IOZ_MAX_WORKERS][NAME_MAX + 1];
	struct scratch *sc[IOZ_MAX_WORKERS];	/* one per distinct parent */
	unsigned of[IOZ_MAX_WORKERS];		/* file i's scratch */
	unsigned nsc;
	const char *dirs[IOZ_MAX_WORKERS];
	const char *names[IOZ_MAX_WORKERS];
	int kept;
	int err;				/* the first failed repeat's -errno */
	char failed[PATH_MAX];			/* the file whose call failed */
};

static const char iozone_synopsis[] =
	"[-a | -A] [-s size] [-r reclen] [-n min -g max] [-y min -q max] [-z]\n"
	"         [-i test ...] [-I] [-e] [-c] [-o] [-w] [-+n] [-E] [-j stride] [-S kB -L B]\n"
	"         [-f file | -t N [-T] [-x] [-d us] [-+p pct] [-F file ...]] [-k N | -H N]\n"
	"         [-R] [-b file.xlsx] [-+x mult] [--format LIST] [--output-dir DIR]\n"
	"         [--quiet] [--label TEXT] [--engine NAME] [--repeat N] [--no-store]\n"
	"         [--no-space-check] [--no-device-probe] [--drop-cache]\n"
	"         [--verify | --verify-after-drop] [--verify-journal FILE | --report-to ADDR]\n"
	"         [--force]";

static const char iozone_help[] =
	"Run iozone's record-size by file-size matrix with iozone's letters and tables, and\n"
	"say which cells measured RAM rather than the device.\n"
	"\n"
	"iozone's options (sizes in kB, or with k, m, g):\n"
	"  -a         automatic grid: files 64 kB .. 512 MB, records 4 kB .. 16 MB, doubling;\n"
	"             files above 16 MB start at 64 kB records unless -z (126 cells)\n"
	"  -A         -a with every record size and tests 0 and 1 only\n"
	"  -s SIZE    file size (default 512 kB; repeatable); -r SIZE record size (4 kB)\n"
	"  -n -g      smallest and largest file of the grid; -y -q smallest and largest\n"
	"             record (they imply -a); -+x N the factor between sizes (2)\n"
	"  -i N       test, repeatable: 0 write/rewrite, 1 read/reread, 2 random read/write,\n"
	"             3 backward read, 4 record rewrite, 5 stride read, 6 fwrite/frewrite,\n"
	"             7 fread/freread, 8 random mix (-t only), 9 pwrite, 10 pread\n"
	"  -I         O_DIRECT;  -o O_SYNC writes;  -e fsync timed;  -c close timed\n"
	"  -+n        no re- passes;  -E  pwrite and pread columns;  -j N stride (17)\n"
	"  -w         keep the file;  -f FILE  the file (in a scratch directory beside it)\n"
	"  -t N       throughput mode: N workers, released together, stonewalling (-x off)\n"
	"  -T         threads (iobattery's workers are threads either way);  -d US delay\n"
	"  -F F1 ...  one file per worker (after -t);  -+p PCT readers in the random mix\n"
	"  -k N, -H N requests in flight (an asynchronous engine: --engine)\n"
	"  -R         iozone's report blocks on standard output;  -b FILE  an .xlsx workbook\n"
	"             (a new file: --force replaces a regular file, nothing else)\n"
	"  -S kB -L B processor cache and line size, as iozone prints them\n"
	"\n"
	"iobattery's options:\n"
	"  --format LIST      text (default), json, csv;  --output-dir DIR: files there\n"
	"  --quiet            no progress line;  --label TEXT: stored with the result\n"
	"  --engine NAME      the I/O engine (default psync);  --repeat N: the matrix N times\n"
	"  --no-store         do not save the run in the results store\n"
	"  --no-space-check   skip the free-space check before writing\n"
	"  --no-device-probe  do not measure the device alone (the RAM-speed marks then\n"
	"                     rest on the cache residency only)\n"
	"  --drop-cache       drop the file from the page cache before each read pass\n"
	"  --verify           write self-checking records (the write, record rewrite and\n"
	"                     pwrite tests) and read every one back after each cell's\n"
	"                     tests, before fwrite's (a phase of its own per cell)\n"
	"  --verify-after-drop  the same, dropping the file from the page cache first\n"
	"  --verify-journal FILE  record each record a sync made durable (a new file)\n"
	"  --report-to ADDR:PORT  send those records to 'iobattery fsync --listen'\n";

static void iozone_wl_init(void *cfg)
{
	iozone_cfg_init(&((struct iozone_cmd *)cfg)->c);
}

static int iozone_wl_parse(struct workload_ctx *x, int argc, char **argv, char ***ops)
{
	struct iozone_cfg *c = &((struct iozone_cmd *)x->cfg)->c;
	struct common_opts *co = x->co;
	char err[320];

	*ops = NULL;
	if (iozone_parse_args(c, argc, argv, err, sizeof(err)) < 0) {
		err_msg("iozone: %s", err);
		return -EINVAL;
	}
	if (c->help)
		return -ECANCELED;
	COMMON_TAKE_LONG_OPTS(co, x, c);
	return 0;
}

/* Split path into its directory and its name. 0 or -EINVAL after a message. */
static int split_path(const char *path, char *dir, char *name)
{
	char a[PATH_MAX], b[PATH_MAX];
	const char *base;

	if (strlen(path) >= sizeof(a)) {
		err_msg("iozone: file name too long: '%s'", path);
		return -EINVAL;
	}
	snprintf(a, sizeof(a), "%s", path);
	snprintf(b, sizeof(b), "%s", path);
	base = basename(b);
	if (!*base || !strcmp(base, "/") || !strcmp(base, ".") || !strcmp(base, "..") ||
	    strlen(base) > NAME_MAX || path[strlen(path) - 1] == '/') {
		err_msg("iozone: not a file name: '%s'", path);
		return -EINVAL;
	}
	snprintf(dir, PATH_MAX, "%s", dirname(a));
	snprintf(name, NAME_MAX + 1, "%s", base);
	return 0;
}

static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		err_errno(-errno, "iozone: cannot use directory: '%s'", dir);
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_msg("iozone: not a directory: '%s'", dir);
		return -EINVAL;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		err_errno(-errno, "iozone: cannot write in directory: '%s'", dir);
		return -EINVAL;
	}
	return 0;
}

/* The files: -F names, -f's, or iozone.tmp (table mode) / iozone.DUMMY.i here. */
static int place_files(struct iozone_cmd *b)
{
	struct iozone_cfg *c = &b->c;
	unsigned i;

	b->nw = c->workers ? c->workers : 1;
	for (i = 0; i < b->nw; i++) {
		const char *p = c->nfiles ? c->files[i] : c->file ? c->file : "iozone.tmp";

		if (split_path(p, b->parent[i], b->name[i]) < 0 || check_dir(b->parent[i]) < 0)
			return -EINVAL;
		if (c->workers && !c->nfiles) {
			char base[NAME_MAX + 1];	/* -f's name (not the buffer written) */

			snprintf(base, sizeof(base), "%s", c->file ? b->name[i] : "iozone");
			snprintf(b->name[i], sizeof(b->name[i]), "%.*s.DUMMY.%u", NAME_MAX - 20,
				 base, i);
		}
	}
	return 0;
}

/* Free space for each file system: the largest file times the workers on it. */
static int check_space(const struct iozone_cmd *b)
{
	uint64_t per = iozone_space_needed(&b->c) / b->nw, need, avail;
	unsigned i, k, n;
	char a[32], f[32];

	for (i = 0; i < b->nw; i++) {
		for (k = 0; k < i && strcmp(b->parent[k], b->parent[i]); k++)
			;
		if (k < i)
			continue;
		for (k = i, n = 0; k < b->nw; k++)
			n += !strcmp(b->parent[k], b->parent[i]);
		need = per * n + (i == 0 ? 64ull << 20 : 0);	/* and the device probe */
		if (space_check(b->parent[i], need, &avail) == -ENOSPC) {
			err_msg("iozone: the files do not fit: '%s': need %s, %s free",
				b->parent[i], units_fmt_bytes(a, sizeof(a), (double)need),
				units_fmt_bytes(f, sizeof(f), (double)avail));
			return -EINVAL;
		}
	}
	return 0;
}

static int check_engine(const struct iozone_cfg *c, const struct engine *e)
{
	const struct engine *const *l;
	char names[128] = "";

	if (!c->depth || (e->flags & ENGINE_F_ASYNC))
		return 0;
	for (l = engine_list(); *l; l++)
		if ((*l)->flags & ENGINE_F_ASYNC)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", (*l)->name);
	err_msg("iozone: -%c %u needs an asynchronous engine: '%s' completes one request at a "
		"time (%s%s)", c->async_copy ? 'H' : 'k', c->depth, e->name,
		names[0] ? "use --engine " : "this build has none",
		names[0] ? names : "");
	return -EINVAL;
}

/* -b FILE: a new file, or with --force a regular file to replace; never a device node,
 * a directory, a FIFO or a symbolic link (refused before any I/O). */
static int check_xlsx(const char *path, int force)
{
	char d[PATH_MAX], n[NAME_MAX + 1];
	struct stat st;

	if (!xlsx_iozone_available()) {
		err_msg("iozone: -b: spreadsheets are not built in: '%s': this iobattery was "
			"built without libxlsxwriter (-R prints the same blocks)", path);
		return -EINVAL;
	}
	if (split_path(path, d, n) < 0 || check_dir(d) < 0)
		return -EINVAL;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		err_errno(-errno, "iozone: -b: cannot use the spreadsheet's name: '%s'", path);
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("iozone: -b: not a regular file: '%s': the workbook is written to a new "
			"file", path);
		return -EINVAL;
	}
	if (!force) {
		err_msg("iozone: -b: refusing to overwrite an existing file: '%s': use --force",
			path);
		return -EEXIST;
	}
	return 0;
}

/* The record orders (random, stride) of the largest cell are held in memory: 16 bytes
 * a record, at most half of the RAM (a 16 TiB file of 4 kB records would need 64 GiB). */
static int check_memory(const struct iozone_cfg *c)
{
	struct iozone_cellsz *cells = calloc(IOZ_MAX_CELLS, sizeof(*cells));
	uint64_t most = 0;
	size_t n, i;
	char a[32];

	if (!cells)
		return -ENOMEM;
	n = iozone_grid(c, cells, IOZ_MAX_CELLS);
	for (i = 0; i < n && i < IOZ_MAX_CELLS; i++)
		if (cells[i].file_kb / cells[i].rec_kb > most)
			most = cells[i].file_kb / cells[i].rec_kb;
	free(cells);
	if (most > sysinfo_ram() / 2 / 16) {
		err_msg("iozone: too many records in one file: %llu: their order needs %s of "
			"memory, more than half of the RAM: use a larger -r or a smaller -s",
			(unsigned long long)most, units_fmt_bytes(a, sizeof(a), 16.0 * most));
		return -EINVAL;
	}
	return 0;
}

static int iozone_wl_validate(struct workload_ctx *x)
{
	struct iozone_cmd *b = x->cfg;

	if (check_engine(&b->c, x->eng) < 0 || check_memory(&b->c) < 0 || place_files(b) < 0 ||
	    (b->c.xlsx && check_xlsx(b->c.xlsx, b->c.xlsx_force) < 0) ||
	    (!b->c.no_space_check && check_space(b) < 0))
		return -EINVAL;
	x->target = b->parent[0];
	return 0;
}

static int iozone_wl_record(struct workload_ctx *x, struct run *run)
{
	return iozone_record_options(run, &((struct iozone_cmd *)x->cfg)->c);
}

static int iozone_wl_setup(struct workload_ctx *x, struct runner *rc)
{
	struct iozone_cmd *b = x->cfg;
	unsigned i, k;
	int e;

	for (i = 0; i < b->nw; i++) {
		for (k = 0; k < i && strcmp(b->parent[k], b->parent[i]); k++)
			;
		if (k < i) {
			b->of[i] = b->of[k];
		} else {
			e = scratch_create(b->parent[i], &b->sc[b->nsc]);
			if (e < 0) {
				err_errno(e, "iozone: cannot create a scratch directory in: '%s'",
					  b->parent[i]);
				return EXIT_FAILED;
			}
			b->of[i] = b->nsc++;
		}
		b->dirs[i] = scratch_dir(b->sc[b->of[i]]);
		b->names[i] = b->name[i];
	}
	if (iozone_probe(rc, &b->c, b->dirs[0]) < 0) {
		err_errno(-ENOMEM, "iozone: cannot start the run");
		return EXIT_FAILED;
	}
	return 0;
}

static int iozone_wl_run(struct workload_ctx *x, struct runner *rc)
{
	struct iozone_cmd *b = x->cfg;

	int r = iozone_run(rc, &b->c, b->dirs, b->names, b->failed, sizeof(b->failed));

	if (r < 0 && !b->err)
		b->err = r;
	return r;
}

static int iozone_wl_teardown(struct workload_ctx *x, struct run *run)
{
	struct iozone_cmd *b = x->cfg;
	unsigned i;
	/* -w keeps the files of a run that went well (a failed one removed its file) */
	int keep = b->c.keep && !sig_stop_requested() && !(run->flags & RUN_INCOMPLETE) &&
		   !b->err;

	iozone_mark(run);
	for (i = 0; i < b->nsc; i++) {
		if (keep) {
			err_msg("iozone: -w: kept the files in: '%s'", scratch_dir(b->sc[i]));
			scratch_keep(b->sc[i]);
		} else {
			scratch_destroy(b->sc[i]);
		}
		b->sc[i] = NULL;
	}
	b->kept = keep;
	return 0;
}

static void iozone_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	const struct iozone_cmd *b = x->cfg;
	size_t i;

	if (status == EXIT_SIGNAL) {
		err_msg("iozone: interrupted: '%s': files removed, the partial matrix is marked "
			"incomplete", b->parent[0]);
		return;
	}
	if (!err)
		return;
	for (i = run->nrows; i-- > 0;)
		if (run->rows[i]->flags & ROW_FAILED) {
			err_msg("iozone: %s failed: '%s': %s; the file was removed",
				run->rows[i]->phase, b->failed[0] ? b->failed : b->parent[0],
				run->rows[i]->error ? run->rows[i]->error : strerror(-err));
			return;
		}
	err_errno(err, "iozone: failed: '%s'", b->parent[0]);
}

/* The formats as asked, then -b's workbook. */
static int iozone_emit(struct workload_ctx *x, struct run *run)
{
	const struct iozone_cmd *b = x->cfg;
	int rc = x->drv->write(run, x->co, 0), e;

	if (b->c.xlsx) {
		e = xlsx_iozone_write(run, b->c.xlsx, b->c.xlsx_force);
		if (e < 0) {
			err_errno(e, "iozone: cannot write the spreadsheet: '%s'", b->c.xlsx);
			if (!rc)
				rc = e;
		}
	}
	return rc;
}

const struct workload workload_iozone = {
	.name = "iozone",
	.summary = "iozone's file-size by record-size matrix, letters and tables",
	.synopsis = iozone_synopsis,
	.help = iozone_help,
	.cfg_size = sizeof(struct iozone_cmd),
	.flags = WORKLOAD_F_VERIFY,
	.init = iozone_wl_init,
	.parse = iozone_wl_parse,
	.validate = iozone_wl_validate,
	.record = iozone_wl_record,
	.setup = iozone_wl_setup,
	.run = iozone_wl_run,
	.teardown = iozone_wl_teardown,
	.report = iozone_report,
	.emit = iozone_emit,
};
