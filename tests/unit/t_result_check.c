/* t_result_check.c - SHA-256 against FIPS 180-4's examples; the canonical form (sorted
 * keys, no white space, ASCII escapes, 15-digit reals, the digest left out) is the same
 * from a run in memory and from its file read back; a run built as a workload builds it
 * passes the check; each edited figure is named; a changed byte breaks the digest. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/sha256.h"
#include "stats/hist.h"
#include "stats/result.h"
#include "stats/result_canon.h"
#include "stats/result_check.h"
#include "stats/result_json.h"
#include "test.h"

static void t_sha256(void)
{
	char hex[SHA256_HEX_LEN];
	struct sha256 s;
	unsigned char d[SHA256_LEN], a[1003];
	int i;

	CHECK(!strcmp(sha256_hex("abc", 3, hex),
		      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	CHECK(!strcmp(sha256_hex("", 0, hex),
		      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	CHECK(!strcmp(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
				 hex),
		      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
	/* a million 'a', fed in pieces that straddle the blocks */
	memset(a, 'a', sizeof(a));
	sha256_init(&s);
	for (i = 0; i < 1000; i++)
		sha256_update(&s, a, i % 2 ? 997 : 1003);
	sha256_final(&s, d);
	CHECK(d[0] == 0xcd && d[1] == 0xc7 && d[2] == 0x6e && d[31] == 0xd0);
}

static void t_canon(void)
{
	json_t *a = json_loads("{\"b\": [1, 2.5, \"\\u00e9/\"], \"a\": {\"z\": null, "
			       "\"y\": true}, \"digest\": \"sha256:x\", \"r\": 0.1, "
			       "\"e\": 1e20}", 0, NULL);
	char *s;

	CHECK(a != NULL);
	if (!a)
		return;
	s = result_canon_text(a);
	CHECK(s && !strcmp(s, "{\"a\":{\"y\":true,\"z\":null},\"b\":[1,2.5,\"\\u00E9/\"],"
			      "\"e\":1e20,\"r\":0.1}"));
	free(s);
	CHECK(json_object_get(a, "digest") != NULL);	/* the document is not changed */
	json_decref(a);
	{
		json_t *one = json_integer(1);	/* not an object: no canonical text */

		CHECK(result_canon_text(one) == NULL);
		json_decref(one);
	}
}

/* A run as a workload makes it: figures that follow from their data. */
static struct run *made_run(void)
{
	struct run *r = run_new("dd");
	struct row *w[3];
	struct hist *h;
	int i, k;

	for (k = 0; k < 3; k++) {
		w[k] = run_add_row(r, "dd", "write");
		w[k]->repeat = (unsigned)k;
		kv_set(&w[k]->params, "bs", "65536");
		w[k]->bytes = 64ull << 20;
		w[k]->ops = 1024;
		w[k]->elapsed_ns = 1000000000ull + (uint64_t)k * 10000000;
		w[k]->rate = (double)w[k]->bytes / ((double)w[k]->elapsed_ns / 1e9) / 1e6;
		str_set(&w[k]->rate_unit, "MB/s");
		w[k]->cpu.valid = 1;
		w[k]->cpu.user_s = 0.01;
		w[k]->cpu.sys_s = 0.2;
		w[k]->cpu.wall_s = 1.05;
		w[k]->cpu.proc_pct = 0.21 / 1.05 * 100;
		w[k]->cpu.cpu_ns_per_op = 0.21e9 / 1024;
		h = malloc(sizeof(*h));
		hist_init(h);
		for (i = 0; i < 1024; i++)
			hist_add(h, 50000 + (uint64_t)i * 37);
		row_set_lat(w[k], h);
	}
	return r;
}

struct seen {
	char names[8][160];
	unsigned n;
};

static void note(void *arg, const char *figure, const char *why)
{
	struct seen *s = arg;

	(void)why;
	if (s->n < 8)
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", figure);
	s->n++;
}

static int named(const struct seen *s, const char *fig)
{
	for (unsigned i = 0; i < s->n && i < 8; i++)
		if (!strcmp(s->names[i], fig))
			return 1;
	return 0;
}

static int check(const char *text, struct seen *s, struct result_check *rc)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	return result_check_text(text, strlen(text), rc, note, s, err, sizeof(err));
}

static void t_passes_and_fails(void)
{
	struct run *r = made_run(), *r2;
	struct result_check rc;
	struct seen s;
	char err[256], *d, *p;

	d = result_json_dump(r);
	CHECK(d && strstr(d, "\"digest\": \"sha256:"));
	CHECK_EQ_U64(check(d, &s, &rc), 0);
	CHECK(rc.digest == 1 && rc.bad == 0 && rc.figures > 20);
	/* load and dump again: the same digest */
	r2 = result_json_load(d, err, sizeof(err));
	CHECK(r2 != NULL);
	if (r2) {
		char *d2 = result_json_dump(r2);

		CHECK(d2 && !strcmp(d, d2));
		free(d2);
		/* a figure edited in the model, the digest made again: named */
		r2->rows[1]->rate *= 1.01;
		r2->rows[2]->lat.p99_ns += 5000;
		r2->rows[0]->cpu.proc_pct = 50;
		d2 = result_json_dump(r2);
		CHECK_EQ_U64(check(d2, &s, &rc), 1);
		CHECK(rc.digest == 1 && rc.bad == 3);
		CHECK(named(&s, "rows[1] dd write: rate"));
		CHECK(named(&s, "rows[2] dd write: latency.p99_ns"));
		CHECK(named(&s, "rows[0] dd write: cpu.proc_pct"));
		free(d2);
		/* repeats that vary by more than 10% without the flag */
		r2 = (run_free(r2), result_json_load(d, err, sizeof(err)));
		r2->rows[2]->elapsed_ns *= 2;
		r2->rows[2]->rate /= 2;
		d2 = result_json_dump(r2);
		CHECK_EQ_U64(check(d2, &s, &rc), 1);
		CHECK(named(&s, "dd write repeat 0: flags"));
		free(d2);
		run_free(r2);
	}
	/* a byte of the file changed: the digest says so */
	p = strstr(d, "\"bytes\": 67108864");
	CHECK(p != NULL);
	if (p) {
		p[strlen("\"bytes\": 6710886")] = '5';
		CHECK_EQ_U64(check(d, &s, &rc), 1);
		CHECK(rc.digest == 0 && named(&s, "digest"));
		CHECK(named(&s, "rows[0] dd write: rate"));
	}
	free(d);
	run_free(r);
}

static void t_bad_input(void)
{
	struct result_check rc;
	struct seen s;

	CHECK_EQ_U64(check("", &s, &rc), (uint64_t)-EINVAL);
	CHECK_EQ_U64(check("[1,2]", &s, &rc), (uint64_t)-EINVAL);
	CHECK_EQ_U64(check("{\"tool\": \"other\"}", &s, &rc), (uint64_t)-EINVAL);
	CHECK_EQ_U64(check("{\"a\": 1, \"a\": 2}", &s, &rc), (uint64_t)-EINVAL);
	/* no digest: reported, not refused */
	CHECK_EQ_U64(check("{\"tool\": \"iobattery\", \"schema_version\": 1, \"id\": \"x\"}",
			   &s, &rc), 1);
	CHECK(rc.digest == -1 && named(&s, "digest"));
}

int main(void)
{
	RUN(t_sha256);
	RUN(t_canon);
	RUN(t_passes_and_fails);
	RUN(t_bad_input);
	return test_done();
}
