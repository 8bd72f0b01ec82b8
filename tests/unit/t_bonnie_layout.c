/* t_bonnie_layout.c - the one Bonnie++ layout, seen from both sides: a line the writer
 * builds (bonnie_csv_format) is read back by the importer (import_bonnie_csv) with every
 * figure, %CPU, latency and block parameter in place; the layouts' positions are
 * consistent; the latency and size spellings read back what they write. */
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "output/bonnie_csv.h"
#include "stats/bonnie_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "test.h"

static const struct row *row_of(const struct run *r, const char *phase)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i]->phase, phase))
			return r->rows[i];
	return NULL;
}

static void full_line(struct bonnie_line *l)
{
	memset(l, 0, sizeof(*l));
	l->name = "box";
	l->concurrency = 2;
	l->seed = 42;
	l->size_mb = 2048;
	l->chunk = BONNIE_DEF_CHUNK;
	l->seeks = 1000;
	l->seekers = 3;
	l->nfiles = 4;
	l->max_size = 2000;
	l->min_size = 100;
	l->ndirs = 1;
	l->file_chunk = BONNIE_DEF_CHUNK;
	for (int t = 0; t < BT_COUNT; t++) {
		l->f[t].present = 1;
		l->f[t].rate = t == BT_SEEKS ? 345.6 : 1000.0 * (t + 1);
		l->f[t].cpu_pct = 10 + t;
		l->f[t].max_lat_ns = 1000000ull * (unsigned)(t + 1);
	}
}

static void t_round_trip(void)
{
	struct bonnie_line l;
	struct run *r = NULL;
	char buf[2048], why[256] = "";
	const struct row *w;

	full_line(&l);
	CHECK(bonnie_csv_format(&l, buf, sizeof(buf)) > 0);
	buf[strcspn(buf, "\n")] = '\0';
	CHECK(import_bonnie_csv(buf, "t", 1, &r, why, sizeof(why)) == 1);
	if (!r) {
		fprintf(stderr, "not imported: %s\n", why);
		return;
	}
	CHECK_EQ_U64(r->nrows, BT_COUNT);
	for (int t = 0; t < BT_COUNT; t++) {
		w = row_of(r, bonnie_test_name(t));
		CHECK(w != NULL);
		if (!w)
			continue;
		CHECK_NEAR(w->rate, t == BT_SEEKS ? 345.6 : 1000.0 * (t + 1), 0.05);
		CHECK(!strcmp(w->rate_unit, bonnie_test_unit(t)));
		CHECK(w->cpu.valid && w->cpu.proc_pct == 10 + t);
		CHECK(row_metric(w, RK_IMPORT_LATENCY_MAX) &&
		      row_metric(w, RK_IMPORT_LATENCY_MAX)->value == 1e6 * (t + 1));
	}
	w = row_of(r, "put_block");
	CHECK(w && !strcmp(kv_get(&w->params, RK_BONNIE_SIZE_MB), "2048"));
	CHECK(w && !strcmp(kv_get(&w->params, RK_BONNIE_SEEKS), "1000"));
	CHECK(w && !strcmp(kv_get(&w->params, RK_BONNIE_SEEKERS), "3"));
	w = row_of(r, "putc");
	CHECK(w && !strcmp(kv_get(&w->params, RK_BONNIE_CHAR_METHOD), "syscall"));
	w = row_of(r, "seq_create");
	CHECK(w && !strcmp(kv_get(&w->params, RK_IMPORT_FILES_SPEC), "4:2000:100"));
	CHECK(w && !strcmp(kv_get(&w->params, RK_BONNIE_FILES), "4"));
	CHECK(!strcmp(kv_get(&r->options, RK_BONNIE_CONCURRENCY), "2"));
	CHECK(!strcmp(kv_get(&r->options, RK_BONNIE_SEED), "42"));
	CHECK(!strcmp(r->env.host, "box"));
	run_free(r);
}

/* Every position of a generation is inside its line, and no two fields share one. */
static void t_layouts(void)
{
	for (int g = 0; g < BONNIE_CSV_NGEN; g++) {
		const struct bonnie_csv_layout *y = bonnie_csv_layout(g);
		int single[] = { y->fmt, y->version, y->name, y->conc, y->seed, y->size,
				 y->chunk, y->seeks, y->seekers, y->files, y->max_size,
				 y->min_size, y->dirs, y->file_chunk };
		char used[64] = { 0 };
		int n = (int)y->nfields, bad = 0;

		CHECK(y->min_fields <= y->nfields && y->nfields < 64);
		for (size_t i = 0; i < sizeof(single) / sizeof(single[0]); i++) {
			if (single[i] < 0)
				continue;
			bad |= single[i] >= n || used[single[i]]++;
		}
		for (int k = 0; k < 12; k++) {
			int io = y->io + k, fp = y->filepairs + k;

			bad |= io >= n || used[io]++ || fp >= n || used[fp]++;
		}
		for (int k = 0; k < 6 && y->iolat >= 0; k++)
			bad |= y->iolat + k >= n || used[y->iolat + k]++ ||
			       y->filelat + k >= n || used[y->filelat + k]++;
		for (int i = 0; i < n; i++)
			bad |= !used[i];	/* every field has a meaning */
		CHECK(!bad);
	}
	CHECK(bonnie_csv_layout(BONNIE_CSV_NGEN) == NULL);
}

static void t_spellings(void)
{
	char b[32];
	double ns;
	uint64_t size, chunk;

	CHECK(bonnie_parse_lat(bonnie_fmt_lat(b, sizeof(b), 2191000), &ns) == 0 && ns == 2191000);
	CHECK(bonnie_parse_lat("161ms", &ns) == 0 && ns == 161e6);
	CHECK(bonnie_parse_lat("12 parsecs", &ns) < 0);
	CHECK(bonnie_parse_size_field(bonnie_fmt_size_mb(b, sizeof(b), 3072), &size, &chunk) == 0);
	CHECK_EQ_U64(size, 3072ull << 20);
	CHECK(bonnie_parse_size_field("64M:4k", &size, &chunk) == 0 && chunk == 4096);
	CHECK(bonnie_parse_size_field("64Q", &size, &chunk) < 0);
	CHECK(!strcmp(bonnie_test_unit(BT_SEEKS), "seeks/s"));
	CHECK(!strcmp(bonnie_test_unit(BT_REWRITE), "K/sec"));
	CHECK(!strcmp(bonnie_test_unit(BT_RAN_STAT), "files/s"));
	CHECK(bonnie_test_is_char(BT_GETC) && !bonnie_test_is_char(BT_GET_BLOCK));
	CHECK(bonnie_test_is_file(BT_SEQ_CREATE) && !bonnie_test_is_file(BT_SEEKS));
}

int main(void)
{
	RUN(t_round_trip);
	RUN(t_layouts);
	RUN(t_spellings);
	return test_done();
}
