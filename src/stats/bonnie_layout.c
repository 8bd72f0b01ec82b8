/* bonnie_layout.c - Bonnie++'s tests, CSV field positions and spellings, and the line
 * filled from a run. See bonnie_layout.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "stats/bonnie_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* The tests in CSV order, named as Bonnie++'s CSV header names their columns. */
static const struct {
	const char *name, *unit;
} tests[BT_COUNT] = {
	{ "putc", "K/sec" }, { "put_block", "K/sec" }, { "rewrite", "K/sec" },
	{ "getc", "K/sec" }, { "get_block", "K/sec" }, { "seeks", "seeks/s" },
	{ "seq_create", "files/s" }, { "seq_stat", "files/s" }, { "seq_del", "files/s" },
	{ "ran_create", "files/s" }, { "ran_stat", "files/s" }, { "ran_del", "files/s" },
};

const char *bonnie_test_name(enum bonnie_test t)
{
	return (unsigned)t < BT_COUNT ? tests[t].name : "?";
}

int bonnie_test_of(const char *name)
{
	int i;

	for (i = 0; name && i < BT_COUNT; i++)
		if (!strcmp(name, tests[i].name))
			return i;
	return -1;
}

const char *bonnie_test_unit(enum bonnie_test t)
{
	return (unsigned)t < BT_COUNT ? tests[t].unit : "";
}

int bonnie_test_is_char(enum bonnie_test t)
{
	return t == BT_PUTC || t == BT_GETC;
}

int bonnie_test_is_file(enum bonnie_test t)
{
	return t >= BT_FILE_FIRST && t < BT_COUNT;
}

/* ---- the generations ---------------------------------------------------------------- */

static const struct bonnie_csv_layout layouts[BONNIE_CSV_NGEN] = {
	[BONNIE_CSV_103] = {
		.format = "bonnie++ 1.03 csv", .nfields = 27, .min_fields = 27,
		.fmt = -1, .version = -1, .name = 0, .conc = -1, .seed = -1, .size = 1,
		.chunk = -1, .seeks = -1, .seekers = -1, .io = 2,
		.files = 14, .max_size = -1, .min_size = -1, .dirs = -1, .file_chunk = -1,
		.filepairs = 15, .iolat = -1, .filelat = -1, .char_syscall = 0,
	},
	[BONNIE_CSV_19X] = {
		.format = "bonnie++ 1.9x csv", .nfields = 48, .min_fields = 36,
		.fmt = 0, .version = 1, .name = 2, .conc = 3, .seed = 4, .size = 5,
		.chunk = 6, .seeks = -1, .seekers = -1, .io = 7,
		.files = 19, .max_size = 20, .min_size = 21, .dirs = 22, .file_chunk = 23,
		.filepairs = 24, .iolat = 36, .filelat = 42, .char_syscall = 1,
	},
	/* 2.00a leaves num_dirs (24) empty and writes the directory count, when above
	 * one, in the file_chunk_size column (25); see bonnie_csv.c */
	[BONNIE_CSV_198] = {
		.format = "bonnie++ 1.98 csv", .nfields = 50, .min_fields = 38,
		.fmt = 0, .version = 1, .name = 2, .conc = 3, .seed = 4, .size = 5,
		.chunk = 6, .seeks = 7, .seekers = 8, .io = 9,
		.files = 21, .max_size = 22, .min_size = 23, .dirs = 24, .file_chunk = 25,
		.filepairs = 26, .iolat = 38, .filelat = 44, .char_syscall = 1,
	},
};

const struct bonnie_csv_layout *bonnie_csv_layout(enum bonnie_csv_gen g)
{
	return (unsigned)g < BONNIE_CSV_NGEN ? &layouts[g] : NULL;
}

/* ---- spellings ------------------------------------------------------------------------ */

char *bonnie_fmt_lat(char *buf, size_t len, uint64_t ns)
{
	/* Bonnie++ keeps seconds as a double and switches unit above 99.999999 s and
	 * 0.099999 s, truncating */
	if (!ns)
		snprintf(buf, len, "%s", "");
	else if (ns > 99999999000ull)
		snprintf(buf, len, "%" PRIu64 "s", ns / 1000000000u);
	else if (ns > 99999000ull)
		snprintf(buf, len, "%" PRIu64 "ms", ns / 1000000u);
	else
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000u);
	return buf;
}

int bonnie_parse_lat(const char *s, double *ns)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	v = strtod(s, &end);
	if (!strcmp(end, "ns"))
		*ns = v;
	else if (!strcmp(end, "us"))
		*ns = v * 1e3;
	else if (!strcmp(end, "ms"))
		*ns = v * 1e6;
	else if (!strcmp(end, "s"))
		*ns = v * 1e9;
	else
		return -EINVAL;
	return 0;
}

char *bonnie_fmt_size_mb(char *buf, size_t len, uint64_t mb)
{
	if (mb && mb % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "G", mb / 1024);
	else
		snprintf(buf, len, "%" PRIu64 "M", mb);
	return buf;
}

int bonnie_parse_num_suffix(const char *s, uint64_t unit, uint64_t *out, const char **rest)
{
	char *end;
	unsigned long long v;
	uint64_t mul = unit;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (*end) {
	case 'K': case 'k': mul = 1024; end++; break;
	case 'M': case 'm': mul = 1024 * 1024; end++; break;
	case 'G': case 'g': mul = 1024ull * 1024 * 1024; end++; break;
	case 'T': case 't': mul = 1024ull * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (units_mul_u64(v, mul, out) < 0)	/* "99999999999T" must not wrap */
		return -ERANGE;
	*rest = end;
	return 0;
}

int bonnie_parse_size_field(const char *s, uint64_t *size, uint64_t *chunk)
{
	const char *rest;

	*chunk = 0;
	if (bonnie_parse_num_suffix(s, 1024 * 1024, size, &rest) < 0)
		return -EINVAL;
	if (*rest == ':' && bonnie_parse_num_suffix(rest + 1, 1, chunk, &rest) < 0)
		return -EINVAL;
	return *rest ? -EINVAL : 0;
}

/* ---- the line from a run ----------------------------------------------------------- */

static uint64_t kv_u64(const struct kvlist *kv, const char *key, uint64_t def)
{
	const char *v = kv_get(kv, key);

	return v ? strtoull(v, NULL, 10) : def;
}

static int64_t kv_i64(const struct kvlist *kv, const char *key, int64_t def)
{
	const char *v = kv_get(kv, key);

	return v ? strtoll(v, NULL, 10) : def;
}

/* The parameters of each block come from its rows' params (so that a quick battery,
 * whose run options are not Bonnie's, still has them). */
static void params_from_row(struct bonnie_line *l, const struct row *w, int t)
{
	const struct kvlist *p = &w->params;

	if (!bonnie_test_is_file(t) && !l->size_mb) {
		l->size_mb = kv_u64(p, RK_BONNIE_SIZE_MB, 0);
		l->chunk = (uint32_t)kv_u64(p, RK_BONNIE_CHUNK, BONNIE_DEF_CHUNK);
		l->seeks = (uint32_t)kv_u64(p, RK_BONNIE_SEEKS, BONNIE_DEF_SEEKS);
		l->seekers = (uint32_t)kv_u64(p, RK_BONNIE_SEEKERS, BONNIE_DEF_SEEKERS);
	} else if (bonnie_test_is_file(t) && !l->nfiles) {
		l->nfiles = (uint32_t)kv_u64(p, RK_BONNIE_FILES, 0);
		l->max_size = (int32_t)kv_i64(p, RK_BONNIE_MAX_SIZE, 0);
		l->min_size = (int32_t)kv_i64(p, RK_BONNIE_MIN_SIZE, 0);
		l->ndirs = (uint32_t)kv_u64(p, RK_BONNIE_DIRS, 1);
		l->file_chunk = (uint32_t)kv_u64(p, RK_BONNIE_FILE_CHUNK, BONNIE_DEF_CHUNK);
	}
}

int bonnie_line_from_run(struct bonnie_line *l, const struct run *run, unsigned repeat)
{
	size_t i;
	int found = 0;

	memset(l, 0, sizeof(*l));
	l->name = kv_get(&run->options, RK_BONNIE_MACHINE);
	if (!l->name || !*l->name)
		l->name = run->env.host ? run->env.host : "localhost";
	l->concurrency = (unsigned)kv_u64(&run->options, RK_BONNIE_CONCURRENCY, 1);
	l->seed = kv_u64(&run->options, RK_BONNIE_SEED, 0);
	l->chunk = BONNIE_DEF_CHUNK;
	l->seeks = BONNIE_DEF_SEEKS;
	l->seekers = BONNIE_DEF_SEEKERS;
	l->ndirs = 1;
	l->file_chunk = BONNIE_DEF_CHUNK;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		int t;

		if (w->repeat != repeat || !w->workload || strcmp(w->workload, "bonnie") ||
		    !w->phase)
			continue;
		t = bonnie_test_of(w->phase);
		if (t < 0)
			continue;
		params_from_row(l, w, t);
		if (w->flags & (ROW_FAILED | ROW_NOT_MEASURED))
			continue;
		l->f[t].present = 1;
		l->f[t].shortrun = !!(w->flags & ROW_SHORT);
		l->f[t].rate = w->rate;
		l->f[t].cpu_pct = w->cpu.valid ? w->cpu.proc_pct : 0;
		l->f[t].max_lat_ns = w->lat.valid ? w->lat.max_ns : 0;
		found++;
	}
	return found;
}
