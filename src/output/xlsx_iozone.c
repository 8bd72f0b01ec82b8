/* xlsx_iozone.c - iozone's -b as a real .xlsx workbook (libxlsxwriter): one sheet per
 * pass holding iozone's -R block (the title, record sizes across the top row, file
 * sizes down the first column, kB/s in the cells, a cell iozone skips left empty), the
 * cells that measured RAM filled light red, a sheet per repeat beyond the first, the
 * throughput mode's figures on one sheet, and an environment sheet. The library is
 * opened (core/dlib.h) when iozone -b is given, never at start-up. Without libxlsxwriter
 * at build time (HAVE_XLSXWRITER) it refuses with -ENOTSUP. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "core/dlib.h"
#include "output/iozone_out.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"

#ifdef HAVE_XLSXWRITER
#include <xlsxwriter.h>

#ifndef IOB_XLSX_SONAME
#define IOB_XLSX_SONAME "libxlsxwriter.so.4"
#endif

/* X(function) for every libxlsxwriter function used: each member has the type the header
 * gives the function (so a wrong call does not compile), and is looked up by name. */
#define XL_FUNCTIONS(X) \
	X(workbook_new) X(workbook_add_worksheet) X(workbook_add_format) X(workbook_close) \
	X(worksheet_write_string) X(worksheet_write_number) X(format_set_bold) \
	X(format_set_bg_color)

#define XL_MEMBER(fn) __typeof__(fn) *fn;
struct xl {
	XL_FUNCTIONS(XL_MEMBER)
};
#define XL_ENTRY(fn) { #fn, offsetof(struct xl, fn) },
static const struct dlib_sym xl_syms[] = { XL_FUNCTIONS(XL_ENTRY) };

#ifndef IOB_XLSX_PATH
#define IOB_XLSX_PATH NULL
#endif

/* The library into *x: 0 and *handle (dlib_close), or -errno with err set. */
static int xl_load(struct xl *x, void **handle, char *err, size_t len)
{
	return dlib_load_at(IOB_XLSX_SONAME, IOB_XLSX_PATH, "libxlsxwriter (for iozone -b)",
			    xl_syms, sizeof(xl_syms) / sizeof(xl_syms[0]), x, sizeof(*x), handle,
			    err, len);
}

int xlsx_iozone_available(void)
{
	struct xl x;
	void *h;
	char err[256];

	if (xl_load(&x, &h, err, sizeof(err)) < 0)
		return 0;
	dlib_close(h);
	return 1;
}

struct book {
	const struct xl *x;
	lxw_workbook *wb;
	lxw_format *bold, *ram;
};

static void pass_sheet(struct book *b, const struct iozone_matrix *m, int p, unsigned rep)
{
	const struct xl *x = b->x;
	char name[32];
	lxw_worksheet *ws;
	size_t f, r;

	snprintf(name, sizeof(name), rep ? "%s %u" : "%s", iozone_pass(p)->sheet, rep + 1);
	ws = x->workbook_add_worksheet(b->wb, name);
	if (!ws)
		return;
	x->worksheet_write_string(ws, 0, 0, iozone_pass(p)->report, b->bold);
	x->worksheet_write_string(ws, 1, 0, "kB \\ reclen kB", b->bold);
	for (r = 0; r < m->nr; r++)
		x->worksheet_write_number(ws, 1, (lxw_col_t)(r + 1), (double)m->rec_kb[r], b->bold);
	for (f = 0; f < m->nf; f++) {
		x->worksheet_write_number(ws, (lxw_row_t)(f + 2), 0, (double)m->file_kb[f],
					  b->bold);
		for (r = 0; r < m->nr; r++) {
			const struct iozone_cell *c = iozone_at(m, p, f, r);

			if (!c->row || c->kbps < 0)
				continue;	/* skipped or failed: empty, never 0 */
			x->worksheet_write_number(ws, (lxw_row_t)(f + 2), (lxw_col_t)(r + 1),
					       floor(c->kbps), c->marked ? b->ram : NULL);
		}
	}
	x->worksheet_write_string(ws, (lxw_row_t)(m->nf + 3), 0,
			       "kB/s (1024 bytes a second); red: the cell measured RAM, not "
			       "the device (see the Environment sheet)", NULL);
}

static void tput_sheet(struct book *b, const struct run *run)
{
	const struct xl *x = b->x;
	lxw_worksheet *ws = x->workbook_add_worksheet(b->wb, "Throughput");
	static const char *const cols[] = { "test", "repeat", "children see kB/s",
					    "parent sees kB/s", "min kB/s", "max kB/s",
					    "avg kB/s", "min xfer kB" };
	static const char *const keys[] = { "parent_rate", "min_rate", "max_rate", "avg_rate",
					    "min_xfer" };
	lxw_row_t next = 1, y;
	size_t i, k;

	if (!ws)
		return;
	for (k = 0; k < 8; k++)
		x->worksheet_write_string(ws, 0, (lxw_col_t)k, cols[k], b->bold);
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (iozone_pass_of(w->phase) < 0)
			continue;	/* a --verify row: no throughput test */
		y = next++;
		x->worksheet_write_string(ws, y, 0, w->phase ? w->phase : "", NULL);
		x->worksheet_write_number(ws, y, 1, w->repeat + 1, NULL);
		if (w->flags & ROW_FAILED)
			continue;
		x->worksheet_write_number(ws, y, 2, w->rate, NULL);
		for (k = 0; k < 5; k++) {
			const struct metric *m = row_metric(w, keys[k]);

			if (m)
				x->worksheet_write_number(ws, y, (lxw_col_t)(k + 3),
							  m->value, NULL);
		}
	}
}

static void env_sheet(struct book *b, const struct run *run)
{
	const struct xl *x = b->x;
	lxw_worksheet *ws = x->workbook_add_worksheet(b->wb, "Environment");
	const struct env *e = &run->env;
	const char *const kv[][2] = {
		{ "command line", run->command_line }, { "tool", e->tool_version },
		{ "date", e->date }, { "host", e->host }, { "os", e->os },
		{ "kernel", e->kernel }, { "cpu", e->cpu_model }, { "target", e->target },
		{ "file system", e->fs_type }, { "mount options", e->mount_opts },
		{ "device", e->device }, { "device model", e->device_model },
		{ "scheduler", e->scheduler },
	};
	lxw_row_t y = 0;
	size_t i;

	if (!ws)
		return;
	x->worksheet_write_string(ws, y++, 0, "The top row of each sheet is record sizes, the "
			       "left column file sizes (kB); values in kB/s", NULL);
	for (i = 0; i < sizeof(kv) / sizeof(kv[0]); i++, y++) {
		x->worksheet_write_string(ws, y, 0, kv[i][0], b->bold);
		x->worksheet_write_string(ws, y, 1, kv[i][1] ? kv[i][1] : "", NULL);
	}
	x->worksheet_write_string(ws, y, 0, "ram bytes", b->bold);
	x->worksheet_write_number(ws, y++, 1, (double)e->ram_bytes, NULL);
	for (i = 0; i < run->options.n; i++, y++) {
		x->worksheet_write_string(ws, y, 0, run->options.v[i].key, b->bold);
		x->worksheet_write_string(ws, y, 1, run->options.v[i].value ?
				       run->options.v[i].value : "", NULL);
	}
}

/* The workbook at path. 0 or -errno (that of the failed write where the library left it
 * in errno, else -EIO). */
static int book_write(const struct run *run, const char *path)
{
	struct iozone_matrix m;
	struct book b;
	struct xl x;
	const char *w = kv_get(&run->options, "workers");
	unsigned rep, reps = iozone_repeats(run);
	void *h;
	char err[256];
	int p, n;

	if ((n = xl_load(&x, &h, err, sizeof(err))) < 0)
		return n;
	b.x = &x;
	b.wb = x.workbook_new(path);
	if (!b.wb) {
		dlib_close(h);
		return -EIO;
	}
	b.bold = x.workbook_add_format(b.wb);
	b.ram = x.workbook_add_format(b.wb);
	x.format_set_bold(b.bold);
	x.format_set_bg_color(b.ram, 0xFFC7CE);
	if (w && strtoul(w, NULL, 10) > 1) {
		tput_sheet(&b, run);
	} else {
		for (rep = 0; rep < reps; rep++) {
			n = iozone_matrix_build(run, rep, &m);
			if (n < 0) {
				x.workbook_close(b.wb);
				dlib_close(h);
				return n;
			}
			for (p = 0; p < IOZ_NPASS; p++)
				if ((m.passes & (1u << p)) && iozone_pass(p)->report)
					pass_sheet(&b, &m, p, rep);
			iozone_matrix_free(&m);
		}
	}
	env_sheet(&b, run);
	/* the zip is written here; the library reports a system error from errno */
	errno = 0;
	n = x.workbook_close(b.wb) != LXW_NO_ERROR ? (errno ? -errno : -EIO) : 0;
	dlib_close(h);
	return n;
}

/* Move the finished tmp to path: only where nothing is (link fails on anything that
 * appeared since the check), or with replace over a regular file, never over a device
 * node, a directory, a FIFO or a symbolic link. 0 or -errno (-EEXIST, -EINVAL). */
static int put_in_place(const char *tmp, const char *path, int replace)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return -errno;
		if (link(tmp, path) == 0)
			return unlink(tmp) < 0 ? -errno : 0;
		if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
			return -errno;
		/* a file system without hard links: check again, then rename */
		if (lstat(path, &st) == 0)
			return -EEXIST;
	} else if (!S_ISREG(st.st_mode)) {
		return -EINVAL;
	} else if (!replace) {
		return -EEXIST;
	}
	return rename(tmp, path) < 0 ? -errno : 0;
}

int xlsx_iozone_write(const struct run *run, const char *path, int replace)
{
	char tmp[PATH_MAX];
	int fd, rc;

	/* written beside path and renamed when it is whole and on stable storage, so that
	 * a failure leaves nothing half-written (and an older workbook as it was) */
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	rc = close(fd) < 0 ? -errno : 0;
	if (!rc)
		rc = book_write(run, tmp);
	if (!rc && (fd = open(tmp, O_WRONLY | O_CLOEXEC)) < 0)
		rc = -errno;
	if (!rc) {
		if (fsync(fd) < 0 || fchmod(fd, 0644) < 0)
			rc = -errno;
		if (close(fd) < 0 && !rc)
			rc = -errno;
	}
	if (!rc)
		rc = put_in_place(tmp, path, replace);
	if (rc < 0)
		unlink(tmp);
	return rc;
}

#else

int xlsx_iozone_available(void)
{
	return 0;
}

int xlsx_iozone_write(const struct run *run, const char *path, int replace)
{
	(void)run;
	(void)path;
	return -ENOTSUP;
}

#endif
