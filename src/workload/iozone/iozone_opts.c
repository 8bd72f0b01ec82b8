/* iozone_opts.c - iozone's letters and iobattery's long options into a config, and the
 * checks across them. Pure: no file, no global state (getopt is not used: it keeps its
 * position in globals). See iozone.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "workload/iozone/iozone.h"

void iozone_cfg_init(struct iozone_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->multiplier = 2;
	c->stride = IOZ_DEF_STRIDE;
	c->cache_kb = 1024;
	c->line_bytes = 32;
	c->repeats = 1;
}

static int fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* iozone's size: a number of kB, or with k, m, g (KiB, MiB, GiB). *kb: kilobytes. */
static int parse_kb(const char *what, const char *v, uint64_t *kb, char *err, size_t len)
{
	uint64_t b;
	int rc = units_parse_size(v, 1024, &b);

	if (rc == -ERANGE)
		return fail(err, len, "%s too large: '%s'", what, v);
	if (rc < 0)
		return fail(err, len, "bad %s: '%s': a number of kB, or with k, m or g", what, v);
	if (b % 1024)
		return fail(err, len, "bad %s: '%s': a whole number of kB", what, v);
	if (b == 0)
		return fail(err, len, "%s must be at least 1 kB: '%s'", what, v);
	/* 1 PiB: the space needed (x 256 workers) is then counted without wrapping */
	if (b / 1024 > IOZ_MAX_FILE_KB)
		return fail(err, len, "%s too large: '%s': at most 1 PiB", what, v);
	*kb = b / 1024;
	return 0;
}

/* A record size: a power of two from 1 kB to 16 MiB, as iozone's buffer allows. */
static int parse_rec(const char *what, const char *v, uint64_t *kb, char *err, size_t len)
{
	if (parse_kb(what, v, kb, err, len) < 0)
		return -EINVAL;
	if (!is_pow2(*kb))
		return fail(err, len, "%s not a power of two: '%s'", what, v);
	if (*kb > IOZ_MAX_REC_KB)
		return fail(err, len, "%s above 16 MiB, iozone's largest buffer: '%s'", what, v);
	return 0;
}

static int parse_uint(const char *what, const char *v, unsigned lo, unsigned hi,
		      unsigned *out, char *err, size_t len)
{
	uint64_t n;

	if (units_parse_u64(v, &n) < 0 || n < lo || n > hi)
		return fail(err, len, "bad %s: '%s': a whole number from %u to %u", what, v, lo,
			    hi);
	*out = (unsigned)n;
	return 0;
}

static int parse_test(struct iozone_cfg *c, const char *v, char *err, size_t len)
{
	unsigned t = 0;

	if (!strcmp(v, "11") || !strcmp(v, "12"))
		return fail(err, len, "test not supported: '-i %s': pwritev/preadv are not "
			    "measured here (use 9, pwrite, or 10, pread)", v);
	if (parse_uint("test number", v, 0, 10, &t, err, len) < 0)
		return fail(err, len, "no such test: '-i %s': use 0 to 10 (0 write, 1 read, "
			    "2 random, 3 backward, 4 record rewrite, 5 stride, 6 fwrite, "
			    "7 fread, 8 random mix, 9 pwrite, 10 pread)", v);
	c->tests |= 1u << t;
	return 0;
}

/* Letters that take a value. */
static int takes_value(char l)
{
	return strchr("srngyqiftbSLjkHd", l) != NULL;
}

/* One letter with its value v (NULL for flags). */
static int letter(struct iozone_cfg *c, char l, const char *v, char *err, size_t len)
{
	uint64_t kb;

	switch (l) {
	case 'a': c->autom = 1; return 0;
	case 'A': c->autom = c->auto2 = c->nocross = 1; return 0;
	case 'I': c->direct = 1; return 0;
	case 'e': c->fsync_timed = 1; return 0;
	case 'c': c->close_timed = 1; return 0;
	case 'o': c->osync = 1; return 0;
	case 'w': c->keep = 1; return 0;
	case 'T': c->threads = 1; return 0;
	case 'x': c->no_stonewall = 1; return 0;
	case 'R': c->excel = 1; return 0;
	case 'z': c->nocross = 1; return 0;
	case 'E': c->extended = 1; return 0;
	case 'h': c->help = 1; return 0;
	case 's':
		if (c->nsizes >= IOZ_MAX_LIST)
			return fail(err, len, "too many -s sizes: at most %d", IOZ_MAX_LIST);
		if (parse_kb("file size", v, &kb, err, len) < 0)
			return -EINVAL;
		c->sizes_kb[c->nsizes++] = kb;
		return 0;
	case 'r':
		if (c->nrecs >= IOZ_MAX_LIST)
			return fail(err, len, "too many -r sizes: at most %d", IOZ_MAX_LIST);
		if (parse_rec("record size", v, &kb, err, len) < 0)
			return -EINVAL;
		c->recs_kb[c->nrecs++] = kb;
		return 0;
	case 'n':
		c->n_set = c->autom = 1;
		return parse_kb("minimum file size (-n)", v, &c->min_kb, err, len);
	case 'g':
		c->g_set = c->autom = 1;
		return parse_kb("maximum file size (-g)", v, &c->max_kb, err, len);
	case 'y':
		c->y_set = c->autom = 1;
		return parse_rec("minimum record size (-y)", v, &c->min_rec_kb, err, len);
	case 'q':
		c->q_set = c->autom = 1;
		return parse_rec("maximum record size (-q)", v, &c->max_rec_kb, err, len);
	case 'i': return parse_test(c, v, err, len);
	case 'f':
		if (!*v)
			return fail(err, len, "empty file name: '-f'");
		c->file = v;
		return 0;
	case 't': return parse_uint("worker count (-t)", v, 1, IOZ_MAX_WORKERS, &c->workers,
				    err, len);
	case 'b':
		if (!*v)
			return fail(err, len, "empty spreadsheet name: '-b'");
		c->xlsx = v;
		c->excel = 1;
		return 0;
	case 'S': return parse_uint("processor cache size (-S, kB)", v, 1, 1u << 30,
				    &c->cache_kb, err, len);
	case 'L': return parse_uint("cache line size (-L, bytes)", v, 1, 1u << 20,
				    &c->line_bytes, err, len);
	case 'j': return parse_uint("stride (-j, records)", v, 1, 1u << 30, &c->stride, err,
				    len);
	case 'k':
	case 'H':
		if (c->depth && c->async_copy != (l == 'H'))
			return fail(err, len, "-H and -k are exclusive");
		c->async_copy = l == 'H';
		return parse_uint(l == 'k' ? "async depth (-k)" : "async depth (-H)", v, 1,
				  IOZ_MAX_DEPTH, &c->depth, err, len);
	case 'd': return parse_uint("delay (-d, microseconds)", v, 0, 60000000u,
				    &c->delay_us, err, len);
	case 'V':
		return fail(err, len, "iozone option not supported: '-V': iozone's pattern "
			    "check is not measured here; --verify checks every record written "
			    "(a header and a CRC32C)");
	}
	return fail(err, len, "iozone option not supported: '-%c'", l);
}

/* "-+x VALUE", "-+n" ... */
static int plus_letter(struct iozone_cfg *c, char l, const char *v, char *err, size_t len)
{
	switch (l) {
	case 'n': c->no_retest = 1; return 0;
	case 'x': return parse_uint("multiplier (-+x)", v, 2, 1024, &c->multiplier, err, len);
	case 'p': return parse_uint("read share (-+p, percent)", v, 1, 100, &c->mix_read_pct,
				    err, len);
	case 'd':
		return fail(err, len, "iozone option not supported: '-+d': iozone's byte by "
			    "byte diagnostic check is not measured here; --verify checks every "
			    "record written (a header and a CRC32C)");
	}
	return fail(err, len, "iozone option not supported: '-+%c'", l);
}

static const struct {
	const char *name;
	int has_value;
} long_opts[] = {
	{ "format", 1 }, { "output-dir", 1 }, { "label", 1 }, { "engine", 1 },
	{ "repeat", 1 }, { "quiet", 0 }, { "no-store", 0 }, { "no-space-check", 0 },
	{ "no-device-probe", 0 }, { "drop-cache", 0 }, { "verify", 0 },
	{ "verify-after-drop", 0 }, { "verify-journal", 1 }, { "report-to", 1 }, { "help", 0 },
	{ "force", 0 },
};

static int long_opt(struct iozone_cfg *c, int k, const char *v, char *err, size_t len)
{
	switch (k) {
	case 0: c->format = v; return 0;
	case 1: c->output_dir = v; return 0;
	case 2: c->label = v; return 0;
	case 3: c->engine = v; return 0;
	case 4: return parse_uint("--repeat", v, 1, 1000, &c->repeats, err, len);
	case 5: c->long_quiet = 1; return 0;
	case 6: c->no_store = 1; return 0;
	case 7: c->no_space_check = 1; return 0;
	case 8: c->no_probe = 1; return 0;
	case 9: c->drop_cache = 1; return 0;
	case 10: c->verify = 1; return 0;
	case 11: c->verify = c->verify_after_drop = 1; return 0;
	case 12:
		if (!*v)
			return fail(err, len, "empty journal name: '--verify-journal'");
		c->verify = 1;
		c->verify_journal = v;
		return 0;
	case 13:
		if (!*v)
			return fail(err, len, "empty address: '--report-to'");
		c->verify = 1;
		c->report_to = v;
		return 0;
	case 15: c->xlsx_force = 1; return 0;
	default: c->help = 1; return 0;
	}
}

/* "--name", "--name=value" or "--name value". *i is advanced past what was used. */
static int parse_long(struct iozone_cfg *c, int argc, char **argv, int *i, char *err,
		      size_t len)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t n = eq ? (size_t)(eq - a) : strlen(a);
	size_t k;

	for (k = 0; k < sizeof(long_opts) / sizeof(long_opts[0]); k++) {
		if (strlen(long_opts[k].name) != n || strncmp(long_opts[k].name, a, n))
			continue;
		if (!long_opts[k].has_value) {
			if (eq)
				return fail(err, len, "option takes no value: '%s'", argv[*i]);
			return long_opt(c, (int)k, NULL, err, len);
		}
		if (eq)
			return long_opt(c, (int)k, eq + 1, err, len);
		if (*i + 1 >= argc)
			return fail(err, len, "option needs a value: '--%s'", long_opts[k].name);
		(*i)++;
		return long_opt(c, (int)k, argv[*i], err, len);
	}
	return fail(err, len, "unknown option: '%s'", argv[*i]);
}

/* -F: as iozone, the next -t names (so -t must come first). */
static int parse_files(struct iozone_cfg *c, int argc, char **argv, int *i, char *err,
		       size_t len)
{
	unsigned k;

	if (c->file)
		return fail(err, len, "-f and -F are exclusive");
	if (!c->workers)
		return fail(err, len, "-F needs -t N before it (one file name per worker)");
	if (*i + (int)c->workers >= argc)
		return fail(err, len, "not enough file names after -F for %u workers",
			    c->workers);
	for (k = 0; k < c->workers; k++) {
		const char *v = argv[++(*i)];

		if (!*v)
			return fail(err, len, "empty file name after -F");
		c->files[k] = v;
	}
	c->nfiles = c->workers;
	return 0;
}

/* One "-xyz" word: bundled flags, the last letter may take a value. */
static int parse_word(struct iozone_cfg *c, int argc, char **argv, int *i, char *err,
		      size_t len)
{
	const char *a = argv[*i] + 1, *v;
	int plus;

	if (!*a)
		return fail(err, len, "unexpected operand: '-'");
	for (; *a; a++) {
		char l;

		plus = *a == '+';
		if (plus && !*++a)
			return fail(err, len, "incomplete option: '-+'");
		l = *a;
		if (!plus && l == 'F') {
			if (a[1])
				return fail(err, len, "-F takes the file names as separate words");
			return parse_files(c, argc, argv, i, err, len);
		}
		if ((plus && (l == 'x' || l == 'p')) || (!plus && takes_value(l))) {
			if (a[1]) {
				v = a + 1;
			} else if (*i + 1 < argc) {
				v = argv[++(*i)];
			} else {
				return fail(err, len, "option needs a value: '-%s%c'",
					    plus ? "+" : "", l);
			}
			return plus ? plus_letter(c, l, v, err, len) : letter(c, l, v, err, len);
		}
		if (plus ? plus_letter(c, l, NULL, err, len) : letter(c, l, NULL, err, len))
			return -EINVAL;
	}
	return 0;
}

int iozone_parse_args(struct iozone_cfg *c, int argc, char **argv, char *err, size_t errlen)
{
	int i;

	if (!err || !errlen)
		return -EINVAL;
	err[0] = '\0';
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int rc;

		if (!a || a[0] != '-')
			return fail(err, errlen, "unexpected operand: '%s'", a ? a : "");
		if (a[1] == '-')
			rc = parse_long(c, argc, argv, &i, err, errlen);
		else
			rc = parse_word(c, argc, argv, &i, err, errlen);
		if (rc < 0)
			return rc;
		if (c->help)
			return 0;
	}
	return iozone_check(c, err, errlen);
}

unsigned iozone_tests(const struct iozone_cfg *c)
{
	if (c->tests)
		return c->tests;
	if (c->auto2)
		return 1u << 0 | 1u << 1;
	if (c->workers)	/* iozone's throughput mode runs all it has */
		return 0x7ffu & ~(1u << 4);
	/* table mode: 0..7 (iozone's mix does nothing there), pwrite/pread with -E */
	return 0xffu | (c->extended ? (1u << 9 | 1u << 10) : 0);
}

/* The tests whose file must exist: each needs one that writes the whole file before it,
 * in the running order. */
static int check_tests(const struct iozone_cfg *c, char *err, size_t len)
{
	unsigned t = iozone_tests(c);
	int k;

	if (!c->workers && (t & (1u << 8)))
		return fail(err, len, "-i 8 (random mix) runs only in throughput mode (-t N), "
			    "as in iozone");
	if (c->workers && (t & (1u << 4)))
		return fail(err, len, "-i 4 (record rewrite) has no throughput mode (-t), as in "
			    "iozone");
	if (t & (1u << 0))
		return 0;
	for (k = 1; k <= 10; k++) {
		int ok = k == 4 || k == 6 || k == 9 || (k == 7 && (t & (1u << 6))) ||
			 (k == 10 && (t & (1u << 9 | 1u << 6)));

		if ((t & (1u << k)) && !ok)
			return fail(err, len, "-i %d needs -i 0 (the write test makes the file "
				    "the other tests read)", k);
	}
	return 0;
}

/* --verify stamps what goes through the engine: the write, record rewrite and pwrite
 * tests (random write and the mix come with the write test); fwrite's are the C
 * library's. */
static int check_verify(const struct iozone_cfg *c, char *err, size_t len)
{
	unsigned t = iozone_tests(c), k;
	char given[64] = "";

	size_t cells;

	if (!c->verify)
		return 0;
	/* a journal (or a listener) holds one run id: each cell's check has its own */
	cells = iozone_grid(c, NULL, 0);
	if ((c->verify_journal || c->report_to) && cells > 1)
		return fail(err, len, "%s records the blocks of one cell: '%s': the grid has %zu "
			    "cells (give -s and -r once)", c->verify_journal ? "--verify-journal" :
			    "--report-to", c->verify_journal ? c->verify_journal : c->report_to,
			    cells);
	if (t & (1u << 0 | 1u << 4 | 1u << 9))
		return 0;
	for (k = 0; k < IOZONE_NTESTS; k++)
		if (t & (1u << k))
			snprintf(given + strlen(given), sizeof(given) - strlen(given), "%s-i %u",
				 given[0] ? " " : "", k);
	return fail(err, len, "--verify has nothing to check: '%s': fwrite goes through the C "
		    "library, whose writes carry no header (add -i 0 or -i 9)", given);
}

int iozone_check(const struct iozone_cfg *c, char *err, size_t len)
{
	struct iozone_cellsz first;
	uint64_t fmin = UINT64_MAX, rmin = UINT64_MAX;
	unsigned k;

	if (c->n_set && c->g_set && c->min_kb > c->max_kb)
		return fail(err, len, "minimum file size above the maximum: '-n %llu' with "
			    "'-g %llu' (kB)", (unsigned long long)c->min_kb,
			    (unsigned long long)c->max_kb);
	if (c->y_set && c->q_set && c->min_rec_kb > c->max_rec_kb)
		return fail(err, len, "minimum record size above the maximum: '-y %llu' with "
			    "'-q %llu' (kB)", (unsigned long long)c->min_rec_kb,
			    (unsigned long long)c->max_rec_kb);
	if (c->workers && c->autom)
		return fail(err, len, "-a with -t: throughput mode measures one file size and "
			    "record size (-s, -r)");
	if (c->workers && (c->nsizes > 1 || c->nrecs > 1))
		return fail(err, len, "-t measures one file size and one record size: give -s "
			    "and -r once");
	if (c->nfiles && c->nfiles < c->workers)
		return fail(err, len, "not enough file names after -F for %u workers",
			    c->workers);
	if (c->file && c->nfiles)
		return fail(err, len, "-f and -F are exclusive");
	if (check_tests(c, err, len) < 0 || check_verify(c, err, len) < 0)
		return -EINVAL;
	for (k = 0; k < c->nsizes; k++)
		fmin = c->sizes_kb[k] < fmin ? c->sizes_kb[k] : fmin;
	for (k = 0; k < c->nrecs; k++)
		rmin = c->recs_kb[k] < rmin ? c->recs_kb[k] : rmin;
	if (c->n_set && c->nsizes < 2)
		fmin = c->min_kb;
	if (c->y_set && c->nrecs < 2)
		rmin = c->min_rec_kb;
	if (fmin == UINT64_MAX)
		fmin = c->autom ? IOZ_AUTO_MIN_KB : IOZ_DEF_FILE_KB;
	if (rmin == UINT64_MAX)
		rmin = c->autom ? IOZ_AUTO_MIN_REC_KB : IOZ_DEF_REC_KB;
	/* as iozone: the smallest record must fit the smallest file */
	if (rmin > fmin || iozone_grid(c, &first, 1) == 0)
		return fail(err, len, "record size larger than the file size: %llu kB records, "
			    "%llu kB file", (unsigned long long)rmin, (unsigned long long)fmin);
	if (iozone_grid(c, NULL, 0) > IOZ_MAX_CELLS)
		return fail(err, len, "the grid has %zu cells: at most %d",
			    iozone_grid(c, NULL, 0), IOZ_MAX_CELLS);
	return 0;
}
