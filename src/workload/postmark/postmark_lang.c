/* postmark_lang.c - PostMark's command language: "set NAME VALUE...", "show", "run",
 * "load", "help", "quit" (aliases "?" and "exit"), plus "set fsync" and "set direct".
 * Unlike PostMark, a bad value is an error (not a silent fallback), so that a script
 * stops at the line that is wrong. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/units.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/postmark/postmark.h"

#define PM_MAX_SIZE	(1u << 30)	/* the data source holds 2 * high bytes */
#define PM_MAX_SUBDIRS	1000000u
#define PM_MAX_WORDS	8

void pm_config_init(struct pm_config *c)
{
	memset(c, 0, sizeof(*c));
	c->size_low = 500;
	c->size_high = 10000;
	c->number = 500;
	c->transactions = 500;
	c->seed = 42;
	c->read_block = 512;
	c->write_block = 512;
	c->buffered = 1;
	c->bias_read = 5;
	c->bias_create = 5;
}

static void locs_clear(struct pm_config *c)
{
	unsigned i;

	for (i = 0; i < c->nlocs; i++)
		free(c->locs[i].path);
	c->nlocs = 0;
}

void pm_config_free(struct pm_config *c)
{
	locs_clear(c);
}

int pm_config_copy(struct pm_config *dst, const struct pm_config *src)
{
	unsigned i;

	*dst = *src;
	for (i = 0; i < src->nlocs; i++) {
		dst->locs[i].path = strdup(src->locs[i].path);
		if (!dst->locs[i].path) {
			dst->nlocs = i;
			pm_config_free(dst);
			return -ENOMEM;
		}
	}
	return 0;
}

struct words {
	char *w[PM_MAX_WORDS];
	int n;
};

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

/* Whole-string integer in [lo, hi]. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A byte count: digits with an optional k/m/g suffix, 1..PM_MAX_SIZE. */
static int parse_bytes(const char *s, uint32_t *out)
{
	uint64_t v;

	if (units_parse_size(s, 1, &v) < 0 || v < 1 || v > PM_MAX_SIZE)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

static int parse_bool(const char *s, int *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "on"))
		*out = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "off"))
		*out = 0;
	else
		return -EINVAL;
	return 0;
}

static int check_dir(const char *path, char *err, size_t len)
{
	struct stat sb;

	if (stat(path, &sb) < 0)
		return fail(err, len, "location does not exist: '%s': %s", path,
			    strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return fail(err, len, "location is not a directory: '%s'", path);
	if (access(path, W_OK | X_OK) < 0)
		return fail(err, len, "location is not writable: '%s': %s", path,
			    strerror(errno));
	return 0;
}

/* set location [+|-]PATH [WEIGHT]: the last word is a weight when it is a number. */
static int set_location(struct pm_config *c, char *path, char *err, size_t len)
{
	char *sp, op = 0;
	long weight = 1;
	unsigned i;
	int r;

	if (!path || !*path)
		return fail(err, len, "set location needs a directory");
	if (*path == '+' || *path == '-')
		op = *path++;
	sp = strrchr(path, ' ');
	if (sp && parse_int(sp + 1, LONG_MIN, LONG_MAX, &weight) == 0) {
		if (weight < 1 || weight > 1000)
			return fail(err, len, "location weight must be 1..1000: '%s'", sp + 1);
		*sp = '\0';
	}
	if (!*path)
		return fail(err, len, "set location needs a directory");
	if (op == '-') {
		for (i = 0; i < c->nlocs; i++)
			if (!strcmp(c->locs[i].path, path))
				break;
		if (i == c->nlocs)
			return fail(err, len, "no such location: '%s'", path);
		free(c->locs[i].path);
		memmove(&c->locs[i], &c->locs[i + 1], (c->nlocs - i - 1) * sizeof(c->locs[0]));
		c->nlocs--;
		return PM_ACT_NONE;
	}
	r = check_dir(path, err, len);
	if (r < 0)
		return r;
	if (!op)
		locs_clear(c);
	if (c->nlocs == PM_MAX_LOCS)
		return fail(err, len, "too many locations (at most %d)", PM_MAX_LOCS);
	c->locs[c->nlocs].path = strdup(path);
	if (!c->locs[c->nlocs].path)
		return fail(err, len, "out of memory");
	c->locs[c->nlocs++].weight = (unsigned)weight;
	return PM_ACT_NONE;
}

static int set_count(const char *what, const char *s, long max, uint32_t *out, char *err,
		     size_t len)
{
	long v;

	if (!s || parse_int(s, 1, max, &v) < 0)
		return fail(err, len, "%s must be a whole number from 1 to %ld: '%s'", what, max,
			    s ? s : "");
	*out = (uint32_t)v;
	return PM_ACT_NONE;
}

static int set_bias(const char *what, const char *s, int *out, char *err, size_t len)
{
	long v;

	if (!s || parse_int(s, -1, 10, &v) < 0)
		return fail(err, len, "bias %s must be 0..10, or -1 to disable: '%s'", what,
			    s ? s : "");
	*out = (int)v;
	return PM_ACT_NONE;
}

static int set_size(struct pm_config *c, struct words *ws, char *err, size_t len)
{
	uint32_t lo, hi;

	if (ws->n < 3 || ws->n > 4)
		return fail(err, len, "set size needs LOW [HIGH] in bytes");
	if (parse_bytes(ws->w[2], &lo) < 0)
		return fail(err, len, "invalid file size: '%s'", ws->w[2]);
	hi = lo;
	if (ws->n == 4 && parse_bytes(ws->w[3], &hi) < 0)
		return fail(err, len, "invalid file size: '%s'", ws->w[3]);
	if (lo > hi)
		return fail(err, len, "low file size %u is above high %u", lo, hi);
	c->size_low = lo;
	c->size_high = hi;
	return PM_ACT_NONE;
}

static int one_value_setting(const char *k)
{
	static const char *const names[] = { "number", "transactions", "seed",
					     "subdirectories", "read", "write", "buffering",
					     "fsync", "direct", "report" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(k, names[i]))
			return 1;
	return 0;
}

static int exec_set(struct pm_config *c, struct words *ws, char *err, size_t len)
{
	const char *k = ws->n > 1 ? ws->w[1] : "", *v = ws->n > 2 ? ws->w[2] : NULL;
	uint32_t b;

	if (!strcmp(k, "size"))
		return set_size(c, ws, err, len);
	if (!strcmp(k, "bias")) {
		const char *which = v ? v : "";
		const char *val = ws->n > 3 ? ws->w[3] : NULL;

		if (!strcmp(which, "read"))
			return set_bias("read", val, &c->bias_read, err, len);
		if (!strcmp(which, "create"))
			return set_bias("create", val, &c->bias_create, err, len);
		return fail(err, len, "set bias needs 'read' or 'create': '%s'", which);
	}
	if (!one_value_setting(k))
		return fail(err, len, "unknown setting: 'set %s' (try 'help')", k);
	if (ws->n != 3)
		return fail(err, len, "set %s needs one value", k);
	if (!strcmp(k, "number"))
		return set_count("number of files", v, PM_MAX_NUMBER, &c->number, err, len);
	if (!strcmp(k, "transactions"))
		return set_count("transactions", v, PM_MAX_INT, &c->transactions, err, len);
	if (!strcmp(k, "seed"))
		return set_count("seed", v, PM_MAX_INT, &c->seed, err, len);
	if (!strcmp(k, "subdirectories"))
		return set_count("subdirectories", v, PM_MAX_SUBDIRS, &c->subdirs, err, len);
	if (!strcmp(k, "read") || !strcmp(k, "write")) {
		if (parse_bytes(v, &b) < 0)
			return fail(err, len, "invalid %s block size: '%s'", k, v);
		*(k[0] == 'r' ? &c->read_block : &c->write_block) = b;
		return PM_ACT_NONE;
	}
	if (!strcmp(k, "buffering") || !strcmp(k, "fsync") || !strcmp(k, "direct")) {
		int *dst = k[0] == 'b' ? &c->buffered : k[0] == 'f' ? &c->fsync : &c->direct;

		if (parse_bool(v, dst) < 0)
			return fail(err, len, "set %s needs true or false: '%s'", k, v);
		return PM_ACT_NONE;
	}
	if (!strcmp(k, "report")) {
		if (!strcmp(v, "terse"))
			c->terse = 1;
		else if (!strcmp(v, "verbose"))
			c->terse = 0;
		else
			return fail(err, len, "set report needs terse or verbose: '%s'", v);
		return PM_ACT_NONE;
	}
	return fail(err, len, "unknown setting: 'set %s' (try 'help')", k);
}

static const struct {
	const char *name, *help;
} helps[] = {
	{ "set size", "LOW [HIGH]: file sizes in bytes, uniform in [LOW, HIGH)" },
	{ "set number", "N: files in the initial pool" },
	{ "set seed", "N: seed of the random generator (same seed, same operations)" },
	{ "set transactions", "N: transactions to run" },
	{ "set location", "[+|-]DIR [WEIGHT]: where the files go; + adds, - removes" },
	{ "set subdirectories", "N: spread the files over N subdirectories" },
	{ "set read", "BYTES: read block size" },
	{ "set write", "BYTES: write block size" },
	{ "set buffering", "true|false: C-library-style buffered I/O or one call per block" },
	{ "set bias read", "-1..10: chance in ten of a read rather than an append" },
	{ "set bias create", "-1..10: chance in ten of a create rather than a delete" },
	{ "set report", "terse|verbose: report format" },
	{ "set fsync", "true|false: fsync each created or appended file before closing" },
	{ "set direct", "true|false: open files with O_DIRECT" },
	{ "run", "[FILE]: run the benchmark once (FILE: append the report there)" },
	{ "load", "FILE: read commands from FILE" },
	{ "show", "print the current settings" },
	{ "help", "[COMMAND]: this list" },
	{ "quit", "leave" },
};

static void exec_help(const char *what, FILE *out)
{
	size_t i, n = sizeof(helps) / sizeof(helps[0]), len = what ? strlen(what) : 0;
	int hits = 0;

	for (i = 0; len && i < n; i++)
		if (!strncmp(helps[i].name, what, len)) {
			fprintf(out, "%s %s\n", helps[i].name, helps[i].help);
			hits++;
		}
	for (i = 0; !hits && i < n; i++)
		fprintf(out, "%s %s\n", helps[i].name, helps[i].help);
}

/* PostMark's size display: bytes, kilobytes or megabytes (1024-based). */
static const char *fmt_size(char *buf, size_t len, uint32_t v)
{
	if (v >= 1048576u)
		snprintf(buf, len, "%.2f megabytes", v / 1048576.0);
	else if (v >= 1024u)
		snprintf(buf, len, "%.2f kilobytes", v / 1024.0);
	else
		snprintf(buf, len, "%u bytes", v);
	return buf;
}

void pm_show(const struct pm_config *c, FILE *out)
{
	char a[64], b[64], cwd[PATH_MAX];
	unsigned i;

	fprintf(out, "Current configuration is:\n");
	fprintf(out, "The base number of files is %u\n", c->number);
	fprintf(out, "Transactions: %u\n", c->transactions);
	if (c->size_low != c->size_high)
		fprintf(out, "Files range between %s and %s in size\n",
			fmt_size(a, sizeof(a), c->size_low), fmt_size(b, sizeof(b), c->size_high));
	else
		fprintf(out, "Files are %s in size\n", fmt_size(a, sizeof(a), c->size_low));
	if (!c->nlocs)
		fprintf(out, "Working directory: %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : ".");
	else
		fprintf(out, "Working director%s: \n", c->nlocs > 1 ? "ies" : "y");
	for (i = 0; i < c->nlocs; i++)
		fprintf(out, "\t%s (weight=%u)\n", c->locs[i].path, c->locs[i].weight);
	if (c->subdirs)
		fprintf(out, "%u subdirector%s will be used\n", c->subdirs,
			c->subdirs == 1 ? "y" : "ies");
	fprintf(out, "Block sizes are: read=%s, write=%s\n", fmt_size(a, sizeof(a), c->read_block),
		fmt_size(b, sizeof(b), c->write_block));
	fprintf(out, "Biases are: read/append=%d, create/delete=%d\n", c->bias_read,
		c->bias_create);
	fprintf(out, "%s Unix buffered file I/O\n", c->buffered ? "Using" : "Not using");
	fprintf(out, "Random number generator seed is %u\n", c->seed);
	fprintf(out, "Report format is %s.\n", c->terse ? "terse" : "verbose");
	fprintf(out, "Each created or appended file is %sfsynced before closing\n",
		c->fsync ? "" : "not ");
	fprintf(out, "Direct I/O (O_DIRECT) is %s\n", c->direct ? "on" : "off");
}

int pm_config_record(const struct pm_config *c, struct kvlist *l)
{
	char buf[64];
	size_t used = 0;
	unsigned i;
	int r = 0;

	r |= kv_set(l, RK_PM_SIZE_LOW, "%u", c->size_low);
	r |= kv_set(l, RK_PM_SIZE_HIGH, "%u", c->size_high);
	r |= kv_set(l, RK_PM_NUMBER, "%u", c->number);
	r |= kv_set(l, RK_PM_TRANSACTIONS, "%u", c->transactions);
	r |= kv_set(l, RK_PM_SEED, "%u", c->seed);
	r |= kv_set(l, RK_PM_SUBDIRECTORIES, "%u", c->subdirs);
	r |= kv_set(l, RK_PM_READ_BLOCK, "%u", c->read_block);
	r |= kv_set(l, RK_PM_WRITE_BLOCK, "%u", c->write_block);
	r |= kv_set(l, RK_PM_BUFFERING, "%s", c->buffered ? "true" : "false");
	r |= kv_set(l, RK_PM_BIAS_READ, "%d", c->bias_read);
	r |= kv_set(l, RK_PM_BIAS_CREATE, "%d", c->bias_create);
	r |= kv_set(l, RK_PM_REPORT, "%s", c->terse ? "terse" : "verbose");
	r |= kv_set(l, RK_PM_FSYNC, "%s", c->fsync ? "true" : "false");
	r |= kv_set(l, RK_PM_DIRECT, "%s", c->direct ? "true" : "false");
	buf[0] = '\0';
	for (i = 0; i < c->nlocs && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%u", i ? "," : "",
					 c->locs[i].weight);
	r |= kv_set(l, RK_PM_LOCATION_WEIGHTS, "%s", c->nlocs ? buf : "1");
	r |= kv_set(l, RK_PM_LOCATIONS, "%u", c->nlocs ? c->nlocs : 1);
	return r ? -ENOMEM : 0;
}

/* Split line (modified in place) into blank-separated words. */
static void split(char *line, struct words *ws)
{
	char *p = line, *end = line + strlen(line);

	while (end > line && isspace((unsigned char)end[-1]))
		*--end = '\0';
	ws->n = 0;
	while (*p && ws->n < PM_MAX_WORDS) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		ws->w[ws->n] = p;
		ws->n++;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
}

/* The text of line from the word that split() put at w (in buf) to the end, trailing
 * blanks removed, copied over buf from w on; NULL when there is no such word. */
static char *after_words(const char *line, char *buf, char *w)
{
	size_t off, n;

	if (!w)
		return NULL;
	off = (size_t)(w - buf);
	n = strlen(line + off);
	memmove(w, line + off, n + 1);
	while (n && isspace((unsigned char)w[n - 1]))
		w[--n] = '\0';
	return w;
}

int pm_exec(struct pm_config *c, const char *line, FILE *out, char **arg, char *err,
	    size_t errlen)
{
	char buf[4096], *cmd;
	struct words ws;
	size_t len;
	int r;

	*arg = NULL;
	err[0] = '\0';
	len = strlen(line);
	if (len >= sizeof(buf))
		return fail(err, errlen, "line too long (%zu characters)", len);
	memcpy(buf, line, len + 1);
	split(buf, &ws);
	if (ws.n == 0 || ws.w[0][0] == '#')
		return PM_ACT_NONE;
	cmd = ws.w[0];
	if (!strcmp(cmd, "set")) {
		/* set location keeps its path whole (it may hold blanks). */
		if (ws.n > 1 && !strcmp(ws.w[1], "location"))
			return set_location(c, after_words(line, buf, ws.n > 2 ? ws.w[2] : NULL),
					    err, errlen);
		return exec_set(c, &ws, err, errlen);
	}
	if (!strcmp(cmd, "run") || !strcmp(cmd, "load")) {
		if (cmd[0] == 'l' && ws.n != 2)
			return fail(err, errlen, "load needs one file name");
		if (ws.n > 2)
			return fail(err, errlen, "%s takes at most one file name", cmd);
		if (ws.n == 2) {
			*arg = strdup(ws.w[1]);
			if (!*arg)
				return fail(err, errlen, "out of memory");
		}
		return cmd[0] == 'r' ? PM_ACT_RUN : PM_ACT_LOAD;
	}
	if (!strcmp(cmd, "show")) {
		pm_show(c, out);
		return PM_ACT_NONE;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "?")) {
		exec_help(ws.n > 1 ? after_words(line, buf, ws.w[1]) : NULL, out);
		return PM_ACT_NONE;
	}
	if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
		return PM_ACT_QUIT;
	r = fail(err, errlen, "unknown command: '%s' (try 'help')", cmd);
	return r;
}
