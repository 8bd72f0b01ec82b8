/* bonnie_opts.c - Bonnie++'s option letters and our long options, parsed into a
 * struct bonnie_cfg; the checks that need no file system. Pure: no I/O, no globals
 * (getopt(3) is not used because its state is global). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "workload/bonnie/bonnie.h"

void bonnie_cfg_init(struct bonnie_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->dir = ".";
	c->chunk = BONNIE_DEF_CHUNK;
	c->seeks = BONNIE_DEF_SEEKS;
	c->seekers = BONNIE_DEF_SEEKERS;
	c->nfiles = BONNIE_DEF_FILES;
	c->ndirs = 1;
	c->file_chunk = BONNIE_DEF_CHUNK;
	c->repeats = 1;
	c->copies = 1;
	c->char_mb = BONNIE_DEF_CHAR_MB;
	c->char_method = BONNIE_CHAR_SYSCALL;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Parse a signed decimal number with an optional one-letter multiplier from mult
 * ("" for none; e.g. "kKmMgG" with the powers given in pow). Whole string. */
static int parse_num(const char *s, const char *mult, const unsigned *pow, long long lo,
		     long long hi, long long *out)
{
	char *end;
	long long v;
	const char *m;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno)
		return -EINVAL;
	if (*end) {
		m = strchr(mult, *end);
		if (!m || end[1] || v < 0)
			return -EINVAL;
		if (pow[m - mult] && v > (hi >> pow[m - mult]))
			return -EINVAL;
		v <<= pow[m - mult];
	}
	if (v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Split s at ':' into up to max fields (copied into f[][32]); returns the count or -1. */
static int split_fields(const char *s, char f[][32], int max)
{
	int n = 0;
	const char *p = s, *q;

	for (;;) {
		size_t l;

		if (n == max)
			return -1;
		q = strchr(p, ':');
		l = q ? (size_t)(q - p) : strlen(p);
		if (l >= 32)
			return -1;
		memcpy(f[n], p, l);
		f[n][l] = '\0';
		n++;
		if (!q)
			return n;
		p = q + 1;
	}
}

int bonnie_parse_size(struct bonnie_cfg *c, const char *s, char *err, size_t errlen)
{
	/* in KiB: k K m M g G t T */
	static const unsigned kb_pow[] = { 0, 0, 10, 10, 20, 20, 30, 30 };
	/* k=1 m=1024 g=1024^2 t=1024^3 KiB */
	static const unsigned ck_pow[] = { 0, 10, 10, 20, 20 };	/* b k K m M */
	char f[4][32];
	long long v;
	int n = split_fields(s, f, 4);

	if (n < 0)
		return fail(err, errlen, "bad size: '%s': expected "
			    "size[:chunk[:seeks[:seekers]]]", s);
	if (n > 1 && f[1][0]) {
		if (parse_num(f[1], "bkKmM", ck_pow, 1, 1ll << 30, &v) < 0)
			return fail(err, errlen, "bad chunk size: '%s': not a number of bytes "
				    "(suffix k for KiB)", f[1]);
		c->chunk = (uint32_t)v;
	}
	/* k (KiB) is accepted so that a size below the chunk can be said, and refused */
	if (parse_num(f[0], "kKmMgGtT", kb_pow, 0, 1ll << 50, &v) < 0)
		return fail(err, errlen, "bad size: '%s': not a number of MiB (suffix g for GiB)",
			    f[0]);
	if (f[0][0] && f[0][strlen(f[0]) - 1] >= '0' && f[0][strlen(f[0]) - 1] <= '9') {
		/* a bare number is MiB: checked, or 2^44 MiB would wrap to nothing */
		if (v > (1ll << 50) >> 10)
			return fail(err, errlen, "bad size: '%s': too large (at most %lluM)",
				    f[0], 1ull << 40);
		v <<= 10;
	}
	if (v && (uint64_t)v * 1024 < c->chunk)
		return fail(err, errlen, "size smaller than the chunk: '%s': the chunk is %u bytes",
			    f[0], c->chunk);
	if (v % 1024)
		return fail(err, errlen, "bad size: '%s': a whole number of MiB", f[0]);
	c->size_mb = (uint64_t)v / 1024;
	c->size_set = 1;
	if (n > 2 && f[2][0]) {
		if (parse_num(f[2], "", NULL, 1, INT_MAX, &v) < 0)
			return fail(err, errlen, "bad number of seeks: '%s'", f[2]);
		c->seeks = (uint32_t)v;
	}
	if (n > 3 && f[3][0]) {
		if (parse_num(f[3], "", NULL, 1, 1024, &v) < 0)
			return fail(err, errlen, "bad number of seekers: '%s': 1 to 1024", f[3]);
		c->seekers = (uint32_t)v;
	}
	return 0;
}

int bonnie_parse_files(struct bonnie_cfg *c, const char *s, char *err, size_t errlen)
{
	static const unsigned sz_pow[] = { 10, 10, 20, 20 };	/* k K m M */
	char f[5][32];
	long long v;
	int n = split_fields(s, f, 5);

	if (n < 0)
		return fail(err, errlen, "bad file test: '%s': expected "
			    "number[:max[:min[:dirs[:chunk]]]]", s);
	if (parse_num(f[0], "", NULL, 0, 1 << 20, &v) < 0)
		return fail(err, errlen, "bad number of files: '%s': a count of 1024 files", f[0]);
	c->nfiles = (uint32_t)v;
	if (n > 1 && f[1][0]) {
		if (parse_num(f[1], "kKmM", sz_pow, -2, 1 << 30, &v) < 0)
			return fail(err, errlen, "bad maximum file size: '%s'", f[1]);
		c->max_size = (int32_t)v;
	}
	if (n > 2 && f[2][0]) {
		if (parse_num(f[2], "kKmM", sz_pow, 0, 1 << 30, &v) < 0)
			return fail(err, errlen, "bad minimum file size: '%s'", f[2]);
		c->min_size = (int32_t)v;
	}
	if (n > 3 && f[3][0]) {
		if (parse_num(f[3], "", NULL, 0, 100000, &v) < 0)
			return fail(err, errlen, "bad number of directories: '%s'", f[3]);
		c->ndirs = v ? (uint32_t)v : 1;
	}
	if (n > 4 && f[4][0]) {
		if (parse_num(f[4], "bkKmM", (const unsigned[]){ 0, 10, 10, 20, 20 }, 1,
			      1 << 30, &v) < 0)
			return fail(err, errlen, "bad file chunk size: '%s'", f[4]);
		c->file_chunk = (uint32_t)v;
	}
	return 0;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int bonnie_check(const struct bonnie_cfg *c, char *err, size_t errlen)
{
	uint64_t bytes;

	if (!is_pow2(c->chunk) || c->chunk < 256 || c->chunk > (1u << 20))
		return fail(err, errlen, "bad chunk size: '%u': must be a power of two from 256 "
			    "to 1048576", c->chunk);
	if (!is_pow2(c->file_chunk) || c->file_chunk < 256 || c->file_chunk > (1u << 20))
		return fail(err, errlen, "bad file chunk size: '%u': must be a power of two from "
			    "256 to 1048576", c->file_chunk);
	if (units_mul_u64(c->size_mb, 1048576ull, &bytes) < 0 ||
	    units_mul_u64(bytes, c->copies ? c->copies : 1, &bytes) < 0 ||
	    bytes > (uint64_t)INT64_MAX || c->size_mb > BONNIE_MAX_SIZE_MB)
		return fail(err, errlen, "bad size: '%lluM': too large (at most %lluM in all "
			    "copies)", (unsigned long long)c->size_mb, BONNIE_MAX_SIZE_MB);
	if (c->char_mb > BONNIE_MAX_SIZE_MB)
		return fail(err, errlen, "bad per-char size: '%lluM': too large",
			    (unsigned long long)c->char_mb);
	if (c->size_set && c->size_mb && c->size_mb * 1048576ull < c->chunk)
		return fail(err, errlen, "size smaller than the chunk: '%lluM': the chunk is %u "
			    "bytes", (unsigned long long)c->size_mb, c->chunk);
	if (c->max_size >= 0 && c->max_size < c->min_size)
		return fail(err, errlen, "bad file sizes: '%d:%d': the maximum is below the "
			    "minimum", c->max_size, c->min_size);
	if (c->max_size < 0 && c->min_size)
		return fail(err, errlen, "bad file sizes: '%d:%d': links have no minimum size",
			    c->max_size, c->min_size);
	if (c->repeats < 1)
		return fail(err, errlen, "bad number of runs: '%u': at least 1", c->repeats);
	if (c->copies < 1 || c->copies > 64)
		return fail(err, errlen, "bad concurrency: '%u': 1 to 64", c->copies);
	if (c->seekers > c->seeks)
		return fail(err, errlen, "bad seekers: '%u': more seekers than seeks (%u)",
			    c->seekers, c->seeks);
	if (c->size_set && !c->size_mb && !c->nfiles)
		return fail(err, errlen, "nothing to do: '-s 0 -n 0': both test blocks skipped");
	if (c->min_time < 0 || c->min_time > 3600)
		return fail(err, errlen, "bad minimum time: '%g': 0 to 3600 seconds", c->min_time);
	return 0;
}

uint64_t bonnie_space_needed(const struct bonnie_cfg *c)
{
	uint64_t need = units_mul_sat(c->size_mb, 1048576ull);
	uint64_t nf = (uint64_t)c->nfiles * BONNIE_FILE_UNIT, files;

	/* the per-char file lives apart from the data set and is removed before the
	 * block phases; count it once */
	if (!c->skip_char && c->char_mb > c->size_mb)
		need = units_mul_sat(c->char_mb, 1048576ull);
	/* every small file costs a block at least, its data rounded up to 4 KiB pages */
	if (c->max_size > 0)
		files = units_mul_sat(nf, ((uint64_t)c->max_size + 4095) / 4096 * 4096);
	else
		files = nf * 4096 / 8;
	if (units_add_u64(need, files, &need) < 0)
		return UINT64_MAX;
	return units_mul_sat(need, c->copies);
}

/* Long options: name, takes an argument. */
static int parse_long(struct bonnie_cfg *c, const char *name, const char *val, char *err,
		      size_t errlen)
{
	char *end;

	if (!strcmp(name, "char-method")) {
		if (!strcmp(val, "syscall"))
			c->char_method = BONNIE_CHAR_SYSCALL;
		else if (!strcmp(val, "putc"))
			c->char_method = BONNIE_CHAR_PUTC;
		else
			return fail(err, errlen, "bad --char-method: '%s': syscall or putc", val);
	} else if (!strcmp(name, "min-time")) {
		errno = 0;
		c->min_time = strtod(val, &end);
		if (end == val || *end || errno || !(c->min_time >= 0))
			return fail(err, errlen, "bad --min-time: '%s': seconds", val);
	} else if (!strcmp(name, "verify-journal")) {
		c->verify_journal = val;
	} else if (!strcmp(name, "report-to")) {
		c->report_to = val;
	} else if (!strcmp(name, "format")) {
		c->format = val;
	} else if (!strcmp(name, "output-dir")) {
		c->output_dir = val;
	} else if (!strcmp(name, "label")) {
		c->label = val;
	} else if (!strcmp(name, "engine")) {
		c->engine = val;
	} else if (!strcmp(name, "repeat")) {
		/* The common --repeat is Bonnie's -x. */
		long long v;

		if (parse_num(val, "", NULL, 1, 1000000, &v) < 0)
			return fail(err, errlen, "bad value for --repeat: '%s'", val);
		c->repeats = (unsigned)v;
	} else {
		return fail(err, errlen, "unknown option: '--%s'", name);
	}
	return 0;
}

static int long_flag(struct bonnie_cfg *c, const char *name)
{
	if (!strcmp(name, "drop-cache"))
		c->drop_cache = 1;
	else if (!strcmp(name, "no-space-check"))
		c->no_space_check = 1;
	else if (!strcmp(name, "quiet"))
		c->long_quiet = 1;
	else if (!strcmp(name, "no-store"))
		c->no_store = 1;
	else if (!strcmp(name, "verify"))
		c->verify = 1;
	else if (!strcmp(name, "verify-after-drop"))
		c->verify_after_drop = 1;
	else if (!strcmp(name, "help"))
		c->help = 1;
	else
		return 0;
	return 1;
}

static int parse_u(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
	long long v;

	if (parse_num(s, "", NULL, lo, hi, &v) < 0)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* One letter with its argument (NULL for flags; for -f, NULL when none was attached). */
static int parse_letter(struct bonnie_cfg *c, int l, const char *a, char *err, size_t errlen)
{
	static const unsigned mb_pow[] = { 0, 0, 10, 10 };
	long long v;
	unsigned u;

	switch (l) {
	case 'd': c->dir = a; break;
	case 's': return bonnie_parse_size(c, a, err, errlen);
	case 'n': return bonnie_parse_files(c, a, err, errlen);
	case 'm': c->machine = a; break;
	case 'r':
		if (parse_num(a, "mMgG", mb_pow, 0, 1ll << 40, &v) < 0)
			return fail(err, errlen, "bad RAM size: '%s': MiB (suffix g for GiB)", a);
		c->ram_mb = (uint64_t)v;
		c->ram_set = 1;
		break;
	case 'x':
		if (parse_u(a, 1, 100000, &u) < 0)
			return fail(err, errlen, "bad number of runs: '%s': 1 or more", a);
		c->repeats = u;
		break;
	case 'c':
		if (parse_u(a, 1, 64, &u) < 0)
			return fail(err, errlen, "bad concurrency: '%s': 1 to 64", a);
		c->copies = u;
		break;
	case 'u': c->user = a; break;
	case 'g': c->group = a; break;
	case 'q': c->quiet = 1; break;
	case 'b': c->fsync_each = 1; break;
	case 'D': c->direct = 1; break;
	case 'f':
		if (!a) {
			c->skip_char = 1;
			break;
		}
		if (parse_num(a, "mMgG", mb_pow, 1, 1ll << 30, &v) < 0)
			return fail(err, errlen, "bad per-char size: '%s': MiB", a);
		c->char_mb = (uint64_t)v;
		c->skip_char = 0;
		break;
	case 'z':
		if (parse_num(a, "", NULL, 0, LLONG_MAX, &v) < 0)
			return fail(err, errlen, "bad seed: '%s': a number", a);
		c->seed = (uint64_t)v;
		c->seed_set = 1;
		break;
	case 'Z': c->randfile = a; break;
	case 'p': case 'y': break;	/* semaphores: we synchronise copies ourselves */
	default:
		return fail(err, errlen, "unknown option: '-%c': see 'iobattery bonnie --help'", l);
	}
	return 0;
}

/* Letters that take an argument; 'f' and 'y' take one only when attached. */
#define ARG_LETTERS "dsnmrxcugzZp"

static int parse_short(struct bonnie_cfg *c, int argc, char **argv, int *i, char *err,
		       size_t errlen)
{
	const char *p = argv[*i] + 1;

	while (*p) {
		int l = *p++;
		const char *a = NULL;

		if (l == 'h') {
			c->help = 1;
			continue;
		}
		if (strchr(ARG_LETTERS, l)) {
			if (*p) {
				a = p;
			} else if (*i + 1 < argc) {
				a = argv[++*i];
			} else {
				return fail(err, errlen,
					    "missing value: '-%c': it takes an argument", l);
			}
			return parse_letter(c, l, a, err, errlen);
		}
		if (l == 'f' || l == 'y')
			return parse_letter(c, l, *p ? p : NULL, err, errlen);
		if (parse_letter(c, l, NULL, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}

int bonnie_parse_args(struct bonnie_cfg *c, int argc, char **argv, char *err, size_t errlen)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (s[0] == '-' && s[1] == '-' && s[2]) {
			char name[64];
			const char *eq = strchr(s + 2, '=');
			size_t nl = eq ? (size_t)(eq - s - 2) : strlen(s + 2);

			if (nl >= sizeof(name))
				return fail(err, errlen, "unknown option: '%s'", s);
			memcpy(name, s + 2, nl);
			name[nl] = '\0';
			if (!eq && long_flag(c, name))
				continue;
			if (eq) {
				if (parse_long(c, name, eq + 1, err, errlen) < 0)
					return -EINVAL;
			} else if (i + 1 < argc) {
				if (parse_long(c, name, argv[i + 1], err, errlen) < 0)
					return -EINVAL;
				i++;
			} else {
				if (parse_long(c, name, "", err, errlen) < 0)
					return -EINVAL;
				return fail(err, errlen, "missing value: '--%s'", name);
			}
		} else if (s[0] == '-' && s[1] && s[1] != '-') {
			if (parse_short(c, argc, argv, &i, err, errlen) < 0)
				return -EINVAL;
		} else {
			return fail(err, errlen,
				    "unexpected operand: '%s': bonnie takes options only", s);
		}
	}
	return 0;
}
