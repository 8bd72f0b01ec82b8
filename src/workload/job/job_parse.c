/* job_parse.c - fio's job-file grammar (sections, comments, include) and fio-style
 * command lines, into a job_list: each section's option lines are collected, sorted by
 * fio's option priority, substituted and applied to a copy of the [global] defaults. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/rfile.h"
#include "workload/job/job_int.h"

/* One option line of the section being read. */
struct jp_line {
	char *text;		/* "name=value" or "name", comments and blanks cut */
	char *file;		/* where it was read (NULL: command line) */
	unsigned line;
	int prio;
	size_t seq;
};

struct jp_sect {
	char *name;
	unsigned line;		/* of the header */
	bool global;
	size_t n, cap;
	struct jp_line *v;
};

static void jp_sect_reset(struct jp_sect *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].text);
		free(s->v[i].file);
	}
	free(s->v);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

/* ---- messages ---- */

static void jp_place(const struct job_pstate *ps, char *buf, size_t len)
{
	if (ps->file && ps->section)
		snprintf(buf, len, "job: '%s' line %u, section [%s]", ps->file, ps->line,
			 ps->section);
	else if (ps->file)
		snprintf(buf, len, "job: '%s' line %u", ps->file, ps->line);
	else if (ps->line)
		snprintf(buf, len, "job: command line argument %u, section [%s]", ps->line,
			 ps->section ? ps->section : "global");
	else
		snprintf(buf, len, "job: command line, section [%s]",
			 ps->section ? ps->section : "global");
}

int job_perr(struct job_pstate *ps, const char *fmt, ...)
{
	char place[512], msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jp_place(ps, place, sizeof(place));
	if (ps->err && ps->errlen)
		snprintf(ps->err, ps->errlen, "%s: %s", place, msg);
	else
		err_msg("%s: %s", place, msg);
	return -EINVAL;
}

void job_pwarn(struct job_pstate *ps, const char *fmt, ...)
{
	char place[512], msg[768], all[1300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jp_place(ps, place, sizeof(place));
	snprintf(all, sizeof(all), "%s: %s", place, msg);
	if (ps->ctx && ps->ctx->warn)
		ps->ctx->warn(ps->ctx->warn_arg, all);
	else
		err_msg("%s", all);
}

/* ---- the list ---- */

void job_list_init(struct job_list *l)
{
	memset(l, 0, sizeof(*l));
}

void job_list_free(struct job_list *l)
{
	size_t i, k;

	for (i = 0; i < l->njobs; i++)
		job_def_clear(&l->jobs[i]);
	free(l->jobs);
	for (i = 0; i < l->nsects; i++) {
		for (k = 0; k < l->sects[i].nopts; k++) {
			free(l->sects[i].opts[k].name);
			free(l->sects[i].opts[k].value);
		}
		free(l->sects[i].opts);
		free(l->sects[i].name);
	}
	free(l->sects);
	l->jobs = NULL;
	l->sects = NULL;
	l->njobs = l->nsects = 0;
}

/* Grow v (n used of *cap) to hold one more element. 0 or -ENOMEM. */
static int jp_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t nc;
	void *nv;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	nv = realloc(*v, nc * size);
	if (!nv)
		return -ENOMEM;
	memset((char *)nv + *cap * size, 0, (nc - *cap) * size);
	*v = nv;
	*cap = nc;
	return 0;
}

/* Record an applied option for the dump. */
static int jp_record(struct job_sect *s, const char *name, const char *value, size_t *cap)
{
	struct job_optrec *r;

	if (jp_grow((void **)&s->opts, cap, s->nopts, sizeof(*s->opts)))
		return -ENOMEM;
	r = &s->opts[s->nopts];
	r->name = strdup(name);
	r->value = value ? strdup(value) : NULL;
	if (!r->name || (value && !r->value)) {
		free(r->name);
		free(r->value);
		return -ENOMEM;
	}
	s->nopts++;
	return 0;
}

static int jp_line_cmp(const void *a, const void *b)
{
	const struct jp_line *x = a, *y = b;

	if (x->prio != y->prio)
		return y->prio - x->prio;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* What fio's other verification options get said: where iobattery's check is. */
static const char *jp_verify_hint(const char *name)
{
	return strstr(name, "verify") ? " (iobattery's --verify, or verify=crc32c, stamps every "
					"block written and reads each back after the write "
					"steps)" : "";
}

/* One option line: substitute, split, find, apply, record. */
static int jp_apply_line(struct job_pstate *ps, struct job_def *d, struct jp_line *ln,
			 bool subst, struct job_sect *rec, size_t *rcap)
{
	char why[JOB_WHY_LEN], *text = NULL, *eq, *name, *val = NULL, *end;
	const struct job_optdef *o;
	int rc;

	ps->file = ln->file;
	ps->line = ln->line;
	if (subst) {
		rc = job_subst(ln->text, ps->ctx, &text, why, sizeof(why));
		if (rc == -EINVAL)
			return job_perr(ps, "%s in '%s'", why, ln->text);
		if (rc)
			return rc;
	} else if (!(text = strdup(ln->text))) {
		return -ENOMEM;
	}
	name = text;
	eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	for (end = name + strlen(name); end > name && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	rc = 0;
	ps->optname = name;
	if (!*name) {
		rc = job_perr(ps, "missing option name in '%s'", ln->text);
	} else if (!(o = job_opt_find(name)) &&
		   (rc = job_engine_opt(ps, d, name, val)) != -ENOENT) {
		if (!rc)	/* an option of an engine's */
			rc = jp_record(rec, name, val, rcap);
	} else if (!o) {
		rc = 0;
		if (!job_fio_has_option(name))
			rc = job_perr(ps, "unknown option '%s'", name);
		else if (!(ps->ctx->flags & JOB_PARSE_IGNORE_UNKNOWN))
			rc = job_perr(ps, "fio option '%s' is not implemented by iobattery%s",
				      name, jp_verify_hint(name));
		else {
			job_pwarn(ps, "fio option '%s' is not implemented by iobattery%s: ignored",
				  name, jp_verify_hint(name));
			rc = jp_record(rec, name, val, rcap);
		}
	} else {
		rc = job_opt_apply(ps, d, o, val);
		if (!rc)
			rc = jp_record(rec, o->name, val, rcap);
	}
	free(text);
	return rc;
}

/* Grow a list kept without a capacity by one element. 0 or -ENOMEM. */
static int jp_push(void **v, size_t n, size_t size)
{
	void *nv = realloc(*v, (n + 1) * size);

	if (!nv)
		return -ENOMEM;
	memset((char *)nv + n * size, 0, size);
	*v = nv;
	return 0;
}

/* fio's --showcmd prints, for a global section, every global option set so far: start
 * its record with those of the previous global section of this parse. */
static int jp_copy_globals(struct job_pstate *ps, struct job_sect *rec, size_t *rcap)
{
	struct job_list *l = ps->out;
	size_t i, k;
	int rc;

	for (i = l->nsects - 1; i-- > ps->first_sect;) {
		if (!l->sects[i].global)
			continue;
		for (k = 0; k < l->sects[i].nopts; k++) {
			rc = jp_record(rec, l->sects[i].opts[k].name, l->sects[i].opts[k].value,
				       rcap);
			if (rc)
				return rc;
		}
		break;
	}
	return 0;
}

/* Append a copy of the global defaults as a new job of section s. */
static int jp_new_job(struct job_pstate *ps, const struct jp_sect *s, const char *file,
		      struct job_def *job)
{
	if (job_def_copy(job, &ps->global))
		return -ENOMEM;
	free(job->name);
	job->name = NULL;
	if (job_strset(&job->section, s->name) ||
	    job_strset(&job->src, file ? file : "command line")) {
		job_def_clear(job);
		return -ENOMEM;
	}
	job->src_line = s->line;
	return 0;
}

/* Apply a finished section: to the global defaults, or to a new job copied from them.
 * file is the job file (NULL on the command line); sorted: fio's priority order and
 * substitution (job files), or the order given (command lines). */
static int jp_flush(struct job_pstate *ps, struct jp_sect *s, bool sorted, const char *file)
{
	struct job_list *l = ps->out;
	struct job_sect *rec;
	struct job_def job, *d = &ps->global;
	size_t i, rcap = 0;
	int rc = 0;

	if (!s->name)
		return 0;
	if (jp_push((void **)&l->sects, l->nsects, sizeof(*l->sects)))
		return -ENOMEM;
	rec = &l->sects[l->nsects];
	if (!(rec->name = strdup(s->name)))
		return -ENOMEM;
	rec->global = s->global;
	rec->job = -1;
	l->nsects++;
	if (s->global && (rc = jp_copy_globals(ps, rec, &rcap)))
		return rc;
	if (!s->global) {
		if (jp_new_job(ps, s, file, &job))
			return -ENOMEM;
		d = &job;
	}
	ps->section = s->name;
	if (sorted && s->n)
		qsort(s->v, s->n, sizeof(*s->v), jp_line_cmp);
	for (i = 0; i < s->n && !rc; i++)
		rc = jp_apply_line(ps, d, &s->v[i], sorted, rec, &rcap);
	if (s->global)
		return rc;
	if (!rc) {
		ps->file = file;
		ps->line = s->line;
		rc = job_def_finish(ps, d);
	}
	if (!rc && jp_push((void **)&l->jobs, l->njobs, sizeof(*l->jobs)))
		rc = -ENOMEM;
	if (rc) {
		job_def_clear(&job);
		return rc;
	}
	rec->job = (long)l->njobs;
	l->jobs[l->njobs++] = job;
	return 0;
}

static int jp_add_line(struct jp_sect *s, const char *text, size_t n, const char *file,
		       unsigned line)
{
	struct jp_line *ln;

	if (jp_grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v)))
		return -ENOMEM;
	ln = &s->v[s->n];
	ln->text = strndup(text, n);
	ln->file = file ? strdup(file) : NULL;
	if (!ln->text || (file && !ln->file)) {
		free(ln->text);
		free(ln->file);
		return -ENOMEM;
	}
	ln->line = line;
	ln->seq = s->n;
	{
		/* fio sorts by the priority of the option named before '=' */
		char name[64];
		size_t k = 0;

		while (k < n && k < sizeof(name) - 1 && text[k] != '=' &&
		       !isspace((unsigned char)text[k])) {
			name[k] = text[k];
			k++;
		}
		name[k] = '\0';
		ln->prio = job_opt_prio(name);
	}
	s->n++;
	return 0;
}

/* ---- job files ---- */

static int jp_text(struct job_pstate *ps, const char *buf, size_t len, const char *name,
		   struct jp_sect *sect);

/* Read a whole regular file into a malloc'd buffer (core/rfile: a FIFO, a device or a
 * directory is refused at once, never waited on). 0 or -errno. */
static int jp_slurp(const char *path, char **out, size_t *outlen)
{
	return rfile_read(path, 0, 64u << 20, out, outlen);
}

/* include FILE: relative to the current directory first, then (as fio) to the directory
 * of the including file. */
static int jp_include(struct job_pstate *ps, const char *arg, struct jp_sect *sect)
{
	const char *parent = ps->file, *slash = parent ? strrchr(parent, '/') : NULL;
	char *path = NULL, *buf;
	size_t len;
	int rc;

	if (ps->ctx->flags & JOB_PARSE_NO_INCLUDE)
		return job_perr(ps, "include '%s': includes are not allowed here", arg);
	if (ps->depth >= JOB_INCLUDE_DEPTH)
		return job_perr(ps, "include '%s': nested more than %d deep", arg,
				JOB_INCLUDE_DEPTH);
	if (arg[0] != '/' && access(arg, F_OK) && slash) {
		size_t dl = (size_t)(slash - parent) + 1;

		path = malloc(dl + strlen(arg) + 1);
		if (!path)
			return -ENOMEM;
		memcpy(path, parent, dl);
		strcpy(path + dl, arg);
	} else if (!(path = strdup(arg))) {
		return -ENOMEM;
	}
	rc = jp_slurp(path, &buf, &len);
	if (rc == -ENOMEM) {
		free(path);
		return rc;
	}
	if (rc) {
		int e = -rc;

		free(path);
		return job_perr(ps, "include '%s': %s", arg, rfile_strerror(-e));
	}
	{
		const char *f = ps->file;
		unsigned line = ps->line;

		ps->depth++;
		rc = jp_text(ps, buf, len, path, sect);
		ps->depth--;
		if (!rc) {
			ps->file = f;
			ps->line = line;
		}
	}
	free(buf);
	free(path);
	return rc;
}

/* A section header "[name]" (the line already stripped). */
static int jp_header(struct job_pstate *ps, const char *p, size_t n, struct jp_sect *sect)
{
	if (n < 3 || p[n - 1] != ']')
		return job_perr(ps, "section header '%.*s' lacks its closing ']'", (int)n, p);
	if (n - 2 > JOB_NAME_MAX)
		return job_perr(ps, "section name longer than %d characters", JOB_NAME_MAX);
	sect->name = strndup(p + 1, n - 2);
	if (!sect->name)
		return -ENOMEM;
	sect->line = ps->line;
	sect->global = !strncmp(sect->name, "global", 6);
	return 0;
}

/* Cut a line as fio does: leading blanks and control characters, everything from the
 * first ';' or '#', trailing blanks. Returns the start; *n its length. */
static const char *jp_strip(const char *p, size_t *n)
{
	const char *end = p + *n, *c;

	while (p < end && (isspace((unsigned char)*p) || iscntrl((unsigned char)*p)))
		p++;
	for (c = p; c < end; c++)
		if (*c == ';' || *c == '#')
			break;
	end = c;
	while (end > p && (isspace((unsigned char)end[-1]) || iscntrl((unsigned char)end[-1])))
		end--;
	*n = (size_t)(end - p);
	return p;
}

/* The lines of one file or buffer. At the top (depth 0) headers start sections, which
 * are flushed as they end; in an included file only option lines may appear. */
static int jp_text(struct job_pstate *ps, const char *buf, size_t len, const char *name,
		   struct jp_sect *sect)
{
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;
	int rc;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *s;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		ps->file = name;
		ps->line = lineno;
		if (memchr(p, '\0', n))
			return job_perr(ps, "NUL byte in a job file");
		s = jp_strip(p, &n);
		p = nl ? nl + 1 : end;
		if (!n)
			continue;
		if (s[0] == '[') {
			if (ps->depth)
				return job_perr(ps, "no sections in an included file");
			rc = jp_flush(ps, sect, true, name);
			jp_sect_reset(sect);
			ps->section = NULL;
			ps->file = name;
			ps->line = lineno;
			if (!rc)
				rc = jp_header(ps, s, n, sect);
			if (rc)
				return rc;
			ps->section = sect->name;
			continue;
		}
		if (!sect->name)
			return job_perr(ps, "'%.*s' outside of a [section]", (int)n, s);
		if (n > 7 && !strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			char arg[4096];
			const char *a = s + 7;
			size_t an = n - 7;

			while (an && isspace((unsigned char)*a)) {
				a++;
				an--;
			}
			if (an >= sizeof(arg))
				return job_perr(ps, "include file name too long");
			memcpy(arg, a, an);
			arg[an] = '\0';
			rc = jp_include(ps, arg, sect);
		} else if (n == 7 && !strncmp(s, "include", 7)) {
			rc = job_perr(ps, "include needs a file name");
		} else {
			rc = jp_add_line(sect, s, n, name, lineno);
		}
		if (rc)
			return rc;
	}
	return 0;
}

static void jp_state_init(struct job_pstate *ps, struct job_list *out, char *err,
			  size_t errlen)
{
	memset(ps, 0, sizeof(*ps));
	ps->out = out;
	ps->first_sect = out->nsects;
	ps->ctx = &out->ctx;
	ps->err = err;
	ps->errlen = errlen;
	job_def_defaults(&ps->global);
	if (err && errlen)
		err[0] = '\0';
}

int job_parse_buf(const char *buf, size_t len, const char *name, struct job_list *out,
		  char *err, size_t errlen)
{
	struct job_pstate ps;
	struct jp_sect sect = { 0 };
	int rc;

	jp_state_init(&ps, out, err, errlen);
	if (!name)
		name = "-";
	rc = jp_text(&ps, buf, len, name, &sect);
	if (!rc)
		rc = jp_flush(&ps, &sect, true, name);
	jp_sect_reset(&sect);
	ps.section = NULL;
	job_def_clear(&ps.global);
	if (rc == -ENOMEM && err && errlen)
		snprintf(err, errlen, "job: '%s': out of memory", name);
	return rc;
}

int job_parse_file(const char *path, struct job_list *out, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc = jp_slurp(path, &buf, &len);

	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "job: '%s': %s", path, rfile_strerror(rc));
		else
			err_msg("job: '%s': %s", path, rfile_strerror(rc));
		return rc;
	}
	rc = job_parse_buf(buf, len, path, out, err, errlen);
	free(buf);
	return rc;
}

/* ---- command lines ---- */

/* Whether "--name" without '=' takes the next argument as its value. */
static bool jp_wants_value(const char *name)
{
	const struct job_optdef *o = job_opt_find(name);

	return !o || o->kind != JK_SET;
}

int job_parse_argv(int argc, char *const argv[], struct job_list *out, char *err,
		   size_t errlen)
{
	struct job_pstate ps;
	struct jp_sect sect = { 0 };
	bool named = false;
	int i, rc = 0;

	jp_state_init(&ps, out, err, errlen);
	if (!(sect.name = strdup("global")))
		return -ENOMEM;
	sect.global = true;
	for (i = 0; i < argc && !rc; i++) {
		const char *a = argv[i], *eq;
		char *text;

		ps.line = (unsigned)i + 1;
		ps.section = sect.name;
		if (strncmp(a, "--", 2) || !a[2]) {
			rc = job_perr(&ps, "'%s' is not an option (--name=value)", a);
			break;
		}
		a += 2;
		eq = strchr(a, '=');
		if (!strncmp(a, "name=", 5) || !strcmp(a, "name")) {
			const char *nm = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);

			if (!nm || !*nm || strlen(nm) > JOB_NAME_MAX) {
				rc = job_perr(&ps, "--name needs a job name");
				break;
			}
			rc = jp_flush(&ps, &sect, false, NULL);
			jp_sect_reset(&sect);
			ps.section = NULL;
			if (!rc && !(sect.name = strdup(nm)))
				rc = -ENOMEM;
			ps.section = sect.name;
			sect.line = ps.line;
			named = true;
			continue;
		}
		if (!eq && jp_wants_value(a) && i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
			size_t n = strlen(a) + strlen(argv[i + 1]) + 2;

			text = malloc(n);
			if (!text) {
				rc = -ENOMEM;
				break;
			}
			snprintf(text, n, "%s=%s", a, argv[++i]);
		} else if (!(text = strdup(a))) {
			rc = -ENOMEM;
			break;
		}
		rc = jp_add_line(&sect, text, strlen(text), NULL, ps.line);
		free(text);
	}
	if (!rc)
		rc = jp_flush(&ps, &sect, false, NULL);
	jp_sect_reset(&sect);
	ps.section = NULL;
	if (!rc && !named) {
		/* no --name: the options make one job, "job" */
		sect.name = strdup("job");
		ps.line = 0;
		rc = sect.name ? jp_flush(&ps, &sect, false, NULL) : -ENOMEM;
		jp_sect_reset(&sect);
		ps.section = NULL;
	}
	job_def_clear(&ps.global);
	if (rc == -ENOMEM && err && errlen)
		snprintf(err, errlen, "job: command line: out of memory");
	return rc;
}
