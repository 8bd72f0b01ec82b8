/* import_bonnie.c - Bonnie++ CSV lines of three generations:
 *   1.03   name,size,12 I/O fields,files,12 file fields                    (27 fields)
 *   1.9x   fmt,version,name,concurrency,seed,size,chunk,12 I/O,files,max,min,dirs,
 *          file_chunk,12 file fields,6 I/O latencies,6 file latencies      (48 fields)
 *   1.98   (written by 2.00a) as 1.9x with seeks,seekers after chunk      (50 fields)
 * The field order was learnt from Bonnie++'s own bon_csv2txt; the code is ours.
 * "+++++" (a phase too quick for Bonnie++'s clock) becomes ROW_NOT_MEASURED. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/import.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define MAX_FIELDS 64

struct layout {
	const char *format;
	unsigned nfields;	/* what the version writes */
	unsigned min_fields;	/* without the latency columns */
	int name, conc, seed, size, chunk, seeks, seekers;	/* -1 = absent */
	unsigned io, files, file_extra, filepairs, iolat, filelat;
	int char_syscall;	/* 1: per-char is a system call per byte (1.9x+) */
};

static const struct layout lay_103 = {
	"bonnie++ 1.03 csv", 27, 27, 0, -1, -1, 1, -1, -1, -1, 2, 14, 0, 15, 0, 0, 0,
};
static const struct layout lay_19x = {
	"bonnie++ 1.9x csv", 48, 36, 2, 3, 4, 5, 6, -1, -1, 7, 19, 4, 24, 36, 42, 1,
};
static const struct layout lay_198 = {
	"bonnie++ 1.98 csv", 50, 38, 2, 3, 4, 5, 6, 7, 8, 9, 21, 4, 26, 38, 44, 1,
};

/* The six I/O and six file figures, in CSV order, named as Bonnie++'s CSV header names
 * them (and as `iobattery bonnie` names its rows). */
static const struct {
	const char *phase, *unit;
	int is_char;
} io_phases[6] = {
	{ "putc", "K/sec", 1 }, { "put_block", "K/sec", 0 },
	{ "rewrite", "K/sec", 0 }, { "getc", "K/sec", 1 },
	{ "get_block", "K/sec", 0 }, { "seeks", "seeks/s", 0 },
}, file_phases[6] = {
	{ "seq_create", "files/s", 0 }, { "seq_stat", "files/s", 0 },
	{ "seq_del", "files/s", 0 }, { "ran_create", "files/s", 0 },
	{ "ran_stat", "files/s", 0 }, { "ran_del", "files/s", 0 },
};

/* Split a copy of line at commas; fields point into buf. Returns the count. */
static unsigned split(char *buf, char **f, unsigned max)
{
	unsigned n = 0;
	char *p = buf;

	f[n++] = p;
	while ((p = strchr(p, ',')) && n < max) {
		*p++ = '\0';
		f[n++] = p;
	}
	return p ? max + 1 : n;
}

static int is_version(const char *s)
{
	/* "1.93c", "1.98", "2.00a": digit '.' digits [letter] */
	if (!isdigit((unsigned char)s[0]) || s[1] != '.' || !isdigit((unsigned char)s[2]))
		return 0;
	for (s += 2; isdigit((unsigned char)*s); s++)
		;
	if (isalpha((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* digits with an optional binary suffix; a bare number is multiplied by unit. */
static int parse_num_suffix(const char *s, uint64_t unit, uint64_t *out, const char **rest)
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
	*out = v * mul;
	*rest = end;
	return 0;
}

/* A Bonnie++ size "1G", "300M", "64M:4k": bytes in *size, the chunk (bytes, 0 when not
 * given) in *chunk. A bare size is megabytes and a bare chunk bytes, as -s takes them. */
static int parse_size(const char *s, uint64_t *size, uint64_t *chunk)
{
	const char *rest;

	*chunk = 0;
	if (parse_num_suffix(s, 1024 * 1024, size, &rest) < 0)
		return -EINVAL;
	if (*rest == ':' && parse_num_suffix(rest + 1, 1, chunk, &rest) < 0)
		return -EINVAL;
	return *rest ? -EINVAL : 0;
}

/* A latency "33802us", "161ms", "1s", "250ns": ns in *ns. 0, or -EINVAL. */
static int parse_latency(const char *s, double *ns)
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

static int is_plus(const char *s)
{
	return *s == '+' && strspn(s, "+") == strlen(s);
}

/* Which layout a split line has; NULL when it is not Bonnie++ CSV. */
static const struct layout *detect(char **f, unsigned n)
{
	uint64_t sz, ch;

	if (n >= 2 && is_version(f[0]) && is_version(f[1]))
		return !strcmp(f[0], "1.98") || f[0][0] == '2' ? &lay_198 : &lay_19x;
	if (n >= 2 && !is_version(f[0]) && f[0][0] && parse_size(f[1], &sz, &ch) == 0)
		return &lay_103;
	return NULL;
}

int import_bonnie_shape(const char *line, unsigned *have, unsigned *want)
{
	char buf[4096], *f[MAX_FIELDS + 1];
	const struct layout *l;
	unsigned n;

	if (strlen(line) >= sizeof(buf) || strchr(line, ' ') || strchr(line, '\t'))
		return 0;
	strcpy(buf, line);
	n = split(buf, f, MAX_FIELDS);
	l = detect(f, n);
	/* a 1.03 line is only recognisable with enough fields: name,size,number,... */
	if (!l || (l == &lay_103 && n < 14))
		return 0;
	*have = n;
	*want = l->min_fields;
	return 1;
}

/* Add one figure pair (rate, %CPU) as a row. Empty rate: phase not run, no row. */
static int add_pair(struct run *run, const char *phase, const char *unit, const char *rate,
		    const char *cpu, const char *lat, struct kvlist *params, char *why,
		    size_t whylen)
{
	struct row *w;
	double v, ns;
	size_t i;

	if (!*rate)
		return 0;
	w = run_add_row(run, "bonnie", phase);
	if (!w || str_set(&w->rate_unit, unit) < 0)
		return -ENOMEM;
	for (i = 0; i < params->n; i++)
		if (kv_set(&w->params, params->v[i].key, "%s", params->v[i].value) < 0)
			return -ENOMEM;
	if (is_plus(rate)) {
		w->flags |= ROW_NOT_MEASURED;
		if (str_set(&w->note, "bonnie++ printed +++++: the phase was too quick for "
			    "its clock; no figure") < 0)
			return -ENOMEM;
	} else if (import_parse_num(rate, &v) == 0) {
		w->rate = v;
	} else {
		snprintf(why, whylen, "%s: not a number: '%s'", phase, rate);
		return -EINVAL;
	}
	if (cpu && *cpu && !is_plus(cpu) && import_parse_num(cpu, &v) == 0) {
		w->cpu.valid = 1;
		w->cpu.proc_pct = v;
	}
	if (lat && *lat) {
		if (parse_latency(lat, &ns) < 0) {
			snprintf(why, whylen, "%s: not a latency: '%s'", phase, lat);
			return -EINVAL;
		}
		/* Bonnie++ keeps only the slowest operation */
		if (row_add_metric(w, RK_IMPORT_LATENCY_MAX, ns, "ns") < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The run's environment and options from the identity fields. */
static int fill_meta(struct run *run, const struct layout *l, char **f)
{
	char date[32];
	time_t t;
	struct tm tm;

	if (str_set(&run->env.host, f[l->name]) < 0)
		return -ENOMEM;
	if (l == &lay_103) {
		if (str_set(&run->env.tool_version, "bonnie++ 1.0x") < 0)
			return -ENOMEM;
	} else {
		if (!(run->env.tool_version = str_printf("bonnie++ %s", f[1])))
			return -ENOMEM;
		if (kv_set(&run->options, RK_BONNIE_CONCURRENCY, "%s", f[l->conc]) < 0 ||
		    kv_set(&run->options, RK_BONNIE_SEED, "%s", f[l->seed]) < 0)
			return -ENOMEM;
		/* unless -z was given, the seed is the start time (time(NULL)) */
		t = (time_t)strtoll(f[l->seed], NULL, 10);
		if (t > 0 && gmtime_r(&t, &tm) &&
		    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm) &&
		    str_set(&run->env.date, date) < 0)
			return -ENOMEM;
	}
	run->env.rotational = -1;
	run->env.virtualized = -1;
	return 0;
}

static int fill_rows(struct run *run, const struct layout *l, char **f, unsigned n,
		     char *why, size_t whylen)
{
	struct kvlist io = { 0 }, ch = { 0 }, files = { 0 };
	uint64_t size, chunk = 0;
	char spec[128];
	int rc = -ENOMEM, i;
	int lat = n >= l->nfields && l->iolat;

	if (parse_size(f[l->size], &size, &chunk) < 0) {
		snprintf(why, whylen, "not a size: '%s'", f[l->size]);
		return -EINVAL;
	}
	if (l->chunk >= 0 && *f[l->chunk]) {
		const char *rest;

		if (parse_num_suffix(f[l->chunk], 1, &chunk, &rest) < 0 || *rest) {
			snprintf(why, whylen, "not a chunk size: '%s'", f[l->chunk]);
			return -EINVAL;
		}
	}
	if (!chunk)
		chunk = 8192;	/* Bonnie++'s default chunk in every version */
	/* the params `iobattery bonnie` gives its rows: size in MiB, the chunk, buffered
	 * (Bonnie++ before -D existed, or without it), the per-character method */
	if (kv_set(&io, RK_BONNIE_SIZE_MB, "%llu", (unsigned long long)(size >> 20)) < 0 ||
	    kv_set(&io, RK_BONNIE_CHUNK, "%llu", (unsigned long long)chunk) < 0 ||
	    kv_set(&io, RK_BONNIE_DIRECT, "0") < 0 ||
	    kv_set(&ch, RK_BONNIE_SIZE_MB, "%llu", (unsigned long long)(size >> 20)) < 0 ||
	    kv_set(&ch, RK_BONNIE_CHUNK, "%llu", (unsigned long long)chunk) < 0 ||
	    kv_set(&ch, RK_BONNIE_CHAR_METHOD, "%s", l->char_syscall ? "syscall" : "putc") < 0)
		goto out;
	if (l->seeks >= 0 && *f[l->seeks] && *f[l->seekers] &&
	    (kv_set(&io, RK_BONNIE_SEEKS, "%s", f[l->seeks]) < 0 ||
	     kv_set(&io, RK_BONNIE_SEEKERS, "%s", f[l->seekers]) < 0))
		goto out;
	/* files spec as Bonnie++ prints it: number[:max[:min]][/dirs] */
	snprintf(spec, sizeof(spec), "%s", f[l->files]);
	if (l->file_extra) {
		if (*f[l->files + 1])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ":%s",
				 f[l->files + 1]);
		if (*f[l->files + 2])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ":%s",
				 f[l->files + 2]);
		if (*f[l->files + 3])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "/%s",
				 f[l->files + 3]);
	}
	if (kv_set(&files, RK_IMPORT_FILES_SPEC, "%s", spec) < 0 ||
	    kv_set(&files, RK_BONNIE_FILES, "%ld", strtol(f[l->files], NULL, 10)) < 0)
		goto out;
	for (i = 0; i < 6; i++) {
		rc = add_pair(run, io_phases[i].phase, io_phases[i].unit, f[l->io + 2 * i],
			      f[l->io + 2 * i + 1], lat ? f[l->iolat + i] : NULL,
			      io_phases[i].is_char ? &ch : &io, why, whylen);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < 6; i++) {
		rc = add_pair(run, file_phases[i].phase, file_phases[i].unit,
			      f[l->filepairs + 2 * i], f[l->filepairs + 2 * i + 1],
			      lat ? f[l->filelat + i] : NULL, &files, why, whylen);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	kv_free(&io);
	kv_free(&ch);
	kv_free(&files);
	return rc;
}

int import_bonnie_csv(const char *line, const char *source, unsigned lineno,
		      struct run **out, char *why, size_t whylen)
{
	char *buf, *f[MAX_FIELDS + 1];
	const struct layout *l;
	struct run *run = NULL;
	unsigned n;
	int rc;

	*out = NULL;
	if (strchr(line, ' ') || strchr(line, '\t') || !strchr(line, ','))
		return 0;
	buf = strdup(line);
	if (!buf)
		return -ENOMEM;
	n = split(buf, f, MAX_FIELDS);
	l = detect(f, n);
	rc = 0;
	if (!l || (l == &lay_103 && n < 14))
		goto out;
	rc = -EINVAL;
	if (n < l->min_fields || n > l->nfields) {
		snprintf(why, whylen, "%s line with %u fields (expected %u%s)", l->format, n,
			 l->nfields, l->min_fields != l->nfields ? " or without latencies" : "");
		goto out;
	}
	if (l != &lay_103 && n != l->min_fields && n != l->nfields) {
		snprintf(why, whylen, "%s line with %u fields", l->format, n);
		goto out;
	}
	rc = -ENOMEM;
	run = run_new("bonnie");
	if (!run)
		goto out;
	rc = fill_meta(run, l, f);
	if (rc == 0)
		rc = fill_rows(run, l, f, n, why, whylen);
	if (rc == 0)
		rc = import_finish_run(run, line, source, lineno, l->format);
	if (rc < 0)
		goto out;
	*out = run;
	run = NULL;
	rc = 1;
out:
	if (run)
		run_free(run);
	free(buf);
	return rc;
}
