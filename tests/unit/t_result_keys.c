/* t_result_keys.c - the key tables against docs/results-schema.md, both ways (every key
 * of every table documented in its table's part of the page, every key the page lists
 * declared; kind, unit and comparability too where the page has those columns; the
 * convention is at the end of the page), one unit per name across all tables, the
 * tables against what the JSON serialiser really writes, and the lookups compare and
 * the report use.
 *
 * Given result files as arguments (tests/cli/result_keys_declared.sh does), it also
 * checks that every param and metric of their rows is declared for the row's workload,
 * metrics with the declared unit (a misspelt key in a writer fails there), and that
 * Bonnie rows have the rate unit stats/bonnie_layout.c gives their test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "observe/cache.h"
#include "stats/bonnie_layout.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_ceiling.h"
#include "stats/result_devlat.h"
#include "stats/result_json.h"
#include "stats/result_keys.h"
#include "test.h"
#include "sys_fill.h"

#define DOC "docs/results-schema.md"
#define MAXDOC 1024

/* One documented key: its part of the page and, in parts with units, the cells. */
struct doc_key {
	char table[32];
	char name[64];
	int has_cols;
	char kind[64], unit[32], cmp[16];
	int line;
	int seen;			/* matched by a table's key */
};

static struct doc_key doc[MAXDOC];
static size_t ndoc;

/* Trim blanks from both ends of s, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/* Split a table line "| a | b | c |" into up to max cells (trimmed, in place). */
static int cells(char *line, char **c, int max)
{
	int n = 0;
	char *p = strchr(line, '|'), *q;

	while (p && n < max) {
		q = strchr(p + 1, '|');
		if (!q)
			break;
		*q = '\0';
		c[n++] = trim(p + 1);
		p = q;
	}
	return n;
}

/* Read the page: markers "<!-- keys: NAME [units] -->" and "<!-- keys: end -->", and
 * inside a part, table lines whose first cell holds backticked names. */
static int doc_load(void)
{
	FILE *f = fopen(DOC, "r");
	char line[1024], table[32] = "", *c[8], *p, *q;
	int units = 0, lineno = 0, n;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strncmp(line, "<!-- keys: ", 11)) {
			char name[32] = "", w[16] = "";

			n = sscanf(line + 11, "%31s %15s", name, w);
			snprintf(table, sizeof(table), "%s", strcmp(name, "end") ? name : "");
			units = n == 2 && !strcmp(w, "units");
			continue;
		}
		if (!table[0] || line[0] != '|')
			continue;
		n = cells(line, c, 8);
		if (n < 2 || c[0][0] != '`')
			continue;
		for (p = c[0]; (p = strchr(p, '`')) && (q = strchr(p + 1, '`')); p = q + 1) {
			struct doc_key *d = &doc[ndoc];

			if (ndoc + 1 >= MAXDOC)
				break;
			memset(d, 0, sizeof(*d));
			snprintf(d->table, sizeof(d->table), "%s", table);
			snprintf(d->name, sizeof(d->name), "%.*s", (int)(q - p - 1), p + 1);
			d->line = lineno;
			if (units && n >= 5) {
				d->has_cols = 1;
				snprintf(d->kind, sizeof(d->kind), "%s", c[1]);
				snprintf(d->unit, sizeof(d->unit), "%s", c[2]);
				snprintf(d->cmp, sizeof(d->cmp), "%s", c[3]);
			}
			ndoc++;
		}
	}
	fclose(f);
	/* a page longer than the array would leave its last keys unread: say so */
	return ndoc + 1 >= MAXDOC ? -1 : 0;
}

static const char *kind_words(unsigned k, char *b, size_t len)
{
	b[0] = '\0';
	if (k & RK_FIELD)
		strncat(b, "field, ", len - strlen(b) - 1);
	if (k & RK_PARAM)
		strncat(b, "param, ", len - strlen(b) - 1);
	if (k & RK_METRIC)
		strncat(b, "metric, ", len - strlen(b) - 1);
	if (k & RK_OPTION)
		strncat(b, "option, ", len - strlen(b) - 1);
	if (strlen(b) >= 2)
		b[strlen(b) - 2] = '\0';
	return b;
}

static const char *cmp_word(enum rk_cmp c)
{
	return c == RK_CMP_DEFINES ? "method" : c == RK_CMP_VALUE ? "value" : "-";
}

/* Every key of every table is documented in its part, with matching columns. A name
 * declared twice in a table (a param and a metric) has a line per kind. */
static void t_tables_documented(void)
{
	const struct result_key_table *const *t;
	char kw[64];
	size_t i, j;

	CHECK(doc_load() == 0);
	CHECK(ndoc > 100);
	for (t = result_key_tables; *t; t++) {
		for (j = 0; j < (*t)->n; j++) {
			const struct result_key *k = &(*t)->keys[j];
			struct doc_key *other = NULL;
			int found = 0;

			kind_words(k->kind, kw, sizeof(kw));
			for (i = 0; i < ndoc; i++) {
				struct doc_key *d = &doc[i];

				if (strcmp(d->table, (*t)->name) || strcmp(d->name, k->name))
					continue;
				if (d->has_cols && strcmp(d->kind, kw)) {
					other = d;
					continue;
				}
				found = 1;
				d->seen = 1;
				if (d->has_cols && (strcmp(d->unit, *k->unit ? k->unit : "-") ||
						    strcmp(d->cmp, cmp_word(k->cmp)))) {
					fprintf(stderr, DOC ":%d: %s.%s: page says unit %s, "
						"compare %s; the table %s, %s\n", d->line,
						(*t)->name, k->name, d->unit, d->cmp,
						*k->unit ? k->unit : "-", cmp_word(k->cmp));
					CHECK(0);
				}
			}
			if (!found && other) {
				fprintf(stderr, DOC ":%d: %s.%s: page says kind %s, the table %s\n",
					other->line, (*t)->name, k->name, other->kind, kw);
				CHECK(0);
			} else if (!found) {
				fprintf(stderr, "key '%s' of table '%s' is not in " DOC "\n",
					k->name, (*t)->name);
				CHECK(0);
			}
		}
	}
	for (unsigned b = 0; b < 32; b++) {
		const char *n = result_flag_name(1u << b);
		int found = 0;

		for (i = 0; n && i < ndoc; i++)
			if (!strcmp(doc[i].table, "flags") && !strcmp(doc[i].name, n))
				found = doc[i].seen = 1;
		if (n && !found) {
			fprintf(stderr, "flag '%s' is not in " DOC "\n", n);
			CHECK(0);
		}
	}
}

/* Every key the page documents is in the table its part names. */
static void t_doc_declared(void)
{
	size_t i;

	for (i = 0; i < ndoc; i++) {
		if (doc[i].seen)
			continue;
		fprintf(stderr, DOC ":%d: '%s' is documented for table '%s', which has no "
			"such key\n", doc[i].line, doc[i].name, doc[i].table);
		CHECK(0);
	}
	/* every table has a part of the page */
	for (const struct result_key_table *const *t = result_key_tables; *t; t++) {
		int any = 0;

		for (i = 0; i < ndoc; i++)
			any |= !strcmp(doc[i].table, (*t)->name);
		CHECK(any);
	}
}

/* No two declarations of one name have different units; within a table a name is
 * declared once per kind. */
static void t_units_agree(void)
{
	const struct result_key_table *const *t, *const *u;
	size_t i, j;

	for (t = result_key_tables; *t; t++)
		for (i = 0; i < (*t)->n; i++) {
			const struct result_key *a = &(*t)->keys[i];

			CHECK(a->name && *a->name && a->unit && a->meaning && *a->meaning);
			CHECK(a->kind != 0);
			/* a key that names the method must say how a difference reads */
			CHECK(a->cmp != RK_CMP_DEFINES || a->differs);
			CHECK(a->cmp == RK_CMP_NONE || (a->kind & RK_PARAM));
			for (u = result_key_tables; *u; u++)
				for (j = 0; j < (*u)->n; j++) {
					const struct result_key *b = &(*u)->keys[j];

					if (a == b || strcmp(a->name, b->name))
						continue;
					if (strcmp(a->unit, b->unit)) {
						fprintf(stderr, "'%s': unit '%s' in %s, "
							"'%s' in %s\n", a->name, a->unit,
							(*t)->name, b->unit, (*u)->name);
						CHECK(0);
					}
					if (*t == *u)
						CHECK(!(a->kind & b->kind));
				}
		}
}

/* The member names the serialiser writes are exactly the field tables' keys. */
static void check_object(const json_t *o, const char *table)
{
	const struct result_key_table *t = result_key_table(table);
	const char *k;
	json_t *v;
	size_t i, nfields = 0;

	CHECK(t != NULL && json_is_object(o));
	if (!t || !json_is_object(o))
		return;
	json_object_foreach((json_t *)o, k, v) {
		const struct result_key *d = NULL;

		for (i = 0; i < t->n && !d; i++)
			if ((t->keys[i].kind & RK_FIELD) && !strcmp(t->keys[i].name, k))
				d = &t->keys[i];
		if (!d) {
			fprintf(stderr, "JSON member '%s' is not a field of table '%s'\n", k,
				table);
			CHECK(0);
		}
	}
	for (i = 0; i < t->n; i++)
		nfields += !!(t->keys[i].kind & RK_FIELD);
	CHECK_EQ_U64(json_object_size(o), nfields);
}

static void t_json_fields(void)
{
	struct run *r = run_new("dd");
	struct row *w = r ? run_add_row(r, "dd", "write") : NULL;
	struct hist *h = malloc(sizeof(*h));
	json_error_t e;
	json_t *root;
	char *s;

	CHECK(w && h);
	if (!w || !h) {
		free(h);
		run_free(r);
		return;
	}
	hist_init(h);
	hist_add(h, 1000);
	w->cpu.valid = 1;
	row_set_lat(w, h);
	row_add_metric(w, RK_DD_BYTES_IN, 1, "B");
	sys_fill(w);
	/* block-layer latency with one class, a ceiling, the run's ceilings */
	w->devlat = row_devlat_new();
	if (w->devlat) {
		struct hist *d = malloc(sizeof(*d)), *q = malloc(sizeof(*q));

		if (d && q) {
			hist_init(d);
			hist_init(q);
			hist_add(d, 2000);
			hist_add(q, 100);
		}
		rdl_part_set(&w->devlat->op[RDL_READ].dev, d, 0, 0);
		rdl_part_set(&w->devlat->op[RDL_READ].queue, q, 0, 0);
	}
	w->ceiling = row_ceiling_new();
	r->env.ceilings = calloc(1, sizeof(*r->env.ceilings));
	s = result_json_dump(r);
	root = s ? json_loads(s, 0, &e) : NULL;
	CHECK(root != NULL);
	if (root) {
		json_t *row = json_array_get(json_object_get(root, RK_RUN_ROWS), 0);

		check_object(root, "run");
		check_object(json_object_get(root, RK_RUN_ENV), "env");
		check_object(row, "row");
		check_object(json_object_get(row, RK_ROW_CPU), "cpu");
		check_object(json_object_get(row, RK_ROW_LATENCY), "latency");
		check_object(json_array_get(json_object_get(row, RK_ROW_METRICS), 0), "metric");
		json_t *sys = json_object_get(row, RK_ROW_SYSTEM);
		json_t *ser = json_object_get(row, RK_ROW_SERIES);

		check_object(sys, "system");
		check_object(json_array_get(json_object_get(sys, RK_SYS_DEVICES), 0), "device");
		check_object(json_array_get(json_object_get(sys, RK_SYS_WAIT), 0), "wait");
		check_object(ser, "series");
		json_t *dl = json_object_get(row, RK_ROW_DEVICE_LATENCY);
		json_t *op = json_object_get(json_object_get(dl, RK_DL_OPS), "read");

		check_object(dl, "device_latency");
		check_object(op, "device_latency_op");
		check_object(json_object_get(op, RK_DL_DEVICE), "device_latency_part");
		check_object(json_object_get(row, RK_ROW_CEILING), "ceiling");
		check_object(json_object_get(json_object_get(root, RK_RUN_ENV), RK_ENV_CEILINGS),
			     "ceilings");
		check_object(json_array_get(json_object_get(ser, RK_SER_DEVICES), 0),
			     "series_device");
		json_decref(root);
	}
	free(s);
	run_free(r);
}

static void t_lookup(void)
{
	const struct result_key_table *t[16];
	const struct result_key *k, *p;
	struct row w;
	size_t n;

	k = result_key_find("dd", RK_PARAM, RK_DD_BS);
	CHECK(k && k->cmp == RK_CMP_DEFINES && !strcmp(k->unit, "B"));
	CHECK(result_key_find("dd", RK_METRIC, RK_DD_BS) == NULL);
	CHECK(result_key_find("dd", RK_PARAM, "no_such_key") == NULL);
	/* the shared tables are in every workload's scope */
	k = result_key_find("bonnie", RK_PARAM, RK_IMPORT_FILES_SPEC);
	CHECK(k && k->cmp == RK_CMP_NONE);
	k = result_key_find("cp", RK_PARAM, RK_ROW_DETAIL);
	CHECK(k && k->cmp == RK_CMP_NONE && (k->roles & RK_ROLE_LABEL));
	/* a name that is a param and a metric: two declarations */
	k = result_key_find("postmark", RK_PARAM, RK_PM_TRANSACTIONS);
	p = result_key_find("postmark", RK_METRIC, RK_PM_TRANSACTIONS);
	CHECK(k && p && k != p);
	/* a family */
	k = result_key_find("bonnie", RK_METRIC, "copy12_rate");
	CHECK(k && !strcmp(k->name, RK_BONNIE_COPY_RATE));
	CHECK(result_key_find("bonnie", RK_METRIC, "copy0_rate") == NULL);
	CHECK(result_key_find("bonnie", RK_METRIC, "copy_rate") == NULL);
	CHECK(result_key_find("bonnie", RK_METRIC, "copy1_rates") == NULL);
	/* scopes: own table first, then import and row; an unknown workload sees all */
	n = result_key_scope("cp", t, 16);
	CHECK(n == 3 && !strcmp(t[0]->name, "cp") && !strcmp(t[1]->name, "import") &&
	      !strcmp(t[2]->name, "row"));
	n = result_key_scope("fio", t, 16);
	CHECK(n > 10 && !strcmp(t[0]->name, "dd"));
	CHECK(result_key_find("fio", RK_PARAM, RK_BONNIE_CHAR_METHOD) != NULL);
	/* the data-set size role: bytes for dd and cp, MiB for bonnie */
	memset(&w, 0, sizeof(w));
	w.workload = "bonnie";
	kv_set(&w.params, RK_BONNIE_SIZE_MB, "64");
	CHECK(result_key_role_param(&w, RK_ROLE_DATA_SIZE, &k) &&
	      result_key_unit_bytes(k->unit) == 1048576.0);
	kv_free(&w.params);
	w.workload = "dd";
	kv_set(&w.params, RK_DD_SIZE, "4096");
	CHECK(result_key_role_param(&w, RK_ROLE_DATA_SIZE, &k) &&
	      result_key_unit_bytes(k->unit) == 1.0);
	kv_free(&w.params);
	w.workload = "postmark";
	CHECK(result_key_role_param(&w, RK_ROLE_DATA_SIZE, NULL) == NULL);
	/* flags both ways */
	CHECK(result_flag_of(result_flag_name(ROW_TOO_FAST)) == ROW_TOO_FAST);
	CHECK(result_flag_of("no_such_flag") == 0 && result_flag_meaning(1u << 31) == NULL);
}

/* The cache verdict observe/cache.c writes holds the mark the text output looks for. */
static void t_cache_mark(void)
{
	static const double pct[] = { 0, 12, 50, 97, 100 };
	struct row w;
	char buf[160];

	memset(&w, 0, sizeof(w));
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		w.note = cache_verdict(buf, sizeof(buf), pct[i], (int)i & 1);
		CHECK(result_note_states_cache(&w));
	}
	w.note = "O_DIRECT: the page cache was bypassed (3% of the data was resident)";
	CHECK(!result_note_states_cache(&w));
	w.note = NULL;
	CHECK(!result_note_states_cache(&w));
}

/* Every param and metric of the rows of result file path is declared for its workload. */
static int check_file(const char *path)
{
	char err[512];
	struct run *r = result_json_load_file(path, err, sizeof(err));
	int bad = 0;

	if (!r) {
		fprintf(stderr, "%s: %s\n", path, err);
		return 1;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = r->rows[i];
		int t = w->workload && !strcmp(w->workload, "bonnie") ? bonnie_test_of(w->phase)
								       : -1;

		/* the workload spells Bonnie's rate units itself: they must be the layout's */
		if (t >= 0 && (!w->rate_unit || strcmp(w->rate_unit, bonnie_test_unit(t)))) {
			fprintf(stderr, "%s: bonnie %s: rate_unit '%s', the layout says '%s'\n",
				path, w->phase, w->rate_unit ? w->rate_unit : "",
				bonnie_test_unit(t));
			bad = 1;
		}
		for (size_t j = 0; j < w->params.n; j++)
			if (!result_key_find(w->workload, RK_PARAM, w->params.v[j].key)) {
				fprintf(stderr, "%s: %s %s: param '%s' is in no key table\n", path,
					w->workload, w->phase, w->params.v[j].key);
				bad = 1;
			}
		for (size_t j = 0; j < w->nmetrics; j++) {
			const struct metric *m = &w->metrics[j];
			const struct result_key *k = result_key_find(w->workload, RK_METRIC,
								     m->name);
			const char *unit = k && !strcmp(k->unit, RK_UNIT_RATE) ? w->rate_unit :
					   k ? k->unit : NULL;

			if (!k)
				fprintf(stderr, "%s: %s %s: metric '%s' is in no key table\n", path,
					w->workload, w->phase, m->name);
			else if (!unit || strcmp(unit, m->unit))
				fprintf(stderr, "%s: %s %s: metric '%s' in '%s', declared '%s'\n",
					path, w->workload, w->phase, m->name, m->unit,
					unit ? unit : "?");
			bad |= !k || !unit || strcmp(unit, m->unit);
		}
	}
	run_free(r);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			bad |= check_file(argv[i]);
		printf("%s %d result files\n", bad ? "FAIL" : "ok", argc - 1);
		return bad;
	}
	RUN(t_tables_documented);
	RUN(t_doc_declared);
	RUN(t_units_agree);
	RUN(t_json_fields);
	RUN(t_lookup);
	RUN(t_cache_mark);
	return test_done();
}
