/* import_bonnie.c - Bonnie++ CSV lines of three generations (1.03, 1.9x, 1.98 as 2.00a
 * writes it), read at the field positions of stats/bonnie_layout.c, the table the CSV
 * writer uses too. "+++++" (a phase too quick for Bonnie++'s clock) becomes
 * ROW_NOT_MEASURED. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "import/import.h"
#include "stats/bonnie_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

#define MAX_FIELDS 64

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

static int is_plus(const char *s)
{
	return *s == '+' && strspn(s, "+") == strlen(s);
}

/* Which layout a split line has; NULL when it is not Bonnie++ CSV. */
static const struct bonnie_csv_layout *detect(char **f, unsigned n)
{
	uint64_t sz, ch;

	if (n >= 2 && is_version(f[0]) && is_version(f[1]))
		return bonnie_csv_layout(!strcmp(f[0], "1.98") || f[0][0] == '2' ?
					 BONNIE_CSV_198 : BONNIE_CSV_19X);
	if (n >= 2 && !is_version(f[0]) && f[0][0] &&
	    bonnie_parse_size_field(f[1], &sz, &ch) == 0)
		return bonnie_csv_layout(BONNIE_CSV_103);
	return NULL;
}

/* Is l the 1.03 layout (no version fields)? */
static int is_103(const struct bonnie_csv_layout *l)
{
	return l == bonnie_csv_layout(BONNIE_CSV_103);
}

int import_bonnie_shape(const char *line, unsigned *have, unsigned *want)
{
	char buf[4096], *f[MAX_FIELDS + 1];
	const struct bonnie_csv_layout *l;
	unsigned n;

	if (strlen(line) >= sizeof(buf) || strchr(line, ' ') || strchr(line, '\t'))
		return 0;
	strcpy(buf, line);
	n = split(buf, f, MAX_FIELDS);
	l = detect(f, n);
	/* a 1.03 line is only recognisable with enough fields: name,size,number,... */
	if (!l || (is_103(l) && n < 14))
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
	int rc;

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
	} else if ((rc = import_parse_num(rate, &v)) == 0) {
		w->rate = v;
	} else {
		snprintf(why, whylen, "%s: %s: '%s'", phase, rc == -ERANGE ? "out of range" :
			 "not a number", rate);
		return -EINVAL;
	}
	if (cpu && *cpu && !is_plus(cpu) && import_parse_num(cpu, &v) == 0) {
		w->cpu.valid = 1;
		w->cpu.proc_pct = v;
	}
	if (lat && *lat) {
		if (bonnie_parse_lat(lat, &ns) < 0 || !import_num_ok(ns)) {
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
static int fill_meta(struct run *run, const struct bonnie_csv_layout *l, char **f)
{
	char date[32];
	time_t t;
	struct tm tm;

	if (str_set(&run->env.host, f[l->name]) < 0)
		return -ENOMEM;
	if (is_103(l)) {
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

static int fill_rows(struct run *run, const struct bonnie_csv_layout *l, char **f, unsigned n,
		     char *why, size_t whylen)
{
	struct kvlist io = { 0 }, ch = { 0 }, files = { 0 };
	uint64_t size, chunk = 0;
	char spec[128];
	int rc = -ENOMEM, t;
	int lat = n >= l->nfields && l->iolat >= 0;

	if (!*f[l->size]) {
		/* -s 0 (the file tests only): the size and every byte-I/O field are empty */
		for (t = BT_IO_FIRST; t < BT_FILE_FIRST; t++)
			if (*f[l->io + 2 * (t - BT_IO_FIRST)]) {
				snprintf(why, whylen, "%s figure without a size: '%s'",
					 bonnie_test_name(t), f[l->io + 2 * (t - BT_IO_FIRST)]);
				return -EINVAL;
			}
		size = 0;
	} else if (bonnie_parse_size_field(f[l->size], &size, &chunk) < 0) {
		snprintf(why, whylen, "not a size: '%s'", f[l->size]);
		return -EINVAL;
	}
	if (l->chunk >= 0 && *f[l->chunk]) {
		const char *rest;

		if (bonnie_parse_num_suffix(f[l->chunk], 1, &chunk, &rest) < 0 || *rest) {
			snprintf(why, whylen, "not a chunk size: '%s'", f[l->chunk]);
			return -EINVAL;
		}
	}
	if (!chunk)
		chunk = BONNIE_DEF_CHUNK;
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
	if (l->max_size >= 0) {
		if (*f[l->max_size])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ":%s",
				 f[l->max_size]);
		if (*f[l->min_size])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ":%s",
				 f[l->min_size]);
		if (*f[l->dirs])
			snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "/%s",
				 f[l->dirs]);
	}
	if (kv_set(&files, RK_IMPORT_FILES_SPEC, "%s", spec) < 0 ||
	    kv_set(&files, RK_BONNIE_FILES, "%ld", strtol(f[l->files], NULL, 10)) < 0)
		goto out;
	for (t = 0; t < BT_COUNT; t++) {
		int file = bonnie_test_is_file(t);
		int k = file ? t - BT_FILE_FIRST : t - BT_IO_FIRST;
		int pair = (file ? l->filepairs : l->io) + 2 * k;

		rc = add_pair(run, bonnie_test_name(t), bonnie_test_unit(t), f[pair],
			      f[pair + 1], lat ? f[(file ? l->filelat : l->iolat) + k] : NULL,
			      file ? &files : bonnie_test_is_char(t) ? &ch : &io, why, whylen);
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
	const struct bonnie_csv_layout *l;
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
	if (!l || (is_103(l) && n < 14))
		goto out;
	rc = -EINVAL;
	if (n < l->min_fields || n > l->nfields) {
		snprintf(why, whylen, "%s line with %u fields (expected %u%s)", l->format, n,
			 l->nfields, l->min_fields != l->nfields ? " or without latencies" : "");
		goto out;
	}
	if (!is_103(l) && n != l->min_fields && n != l->nfields) {
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
