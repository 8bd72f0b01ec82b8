/* fuzz_store_resolve.c - the store resolver (store/resolve.c): a command-line word as a
 * result file, a store id, a label or a run id, in a store of two runs made at start in
 * a temporary directory (the current directory while fuzzing, holding one result file).
 * Words with a '/' are skipped: they could name any file on the machine. Then the same
 * word as a label and a host filter of the listing. */
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "core/err.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

static char fuzz_dir[] = "/tmp/iob-fuzz-store.XXXXXX";
static struct store *fuzz_st;

static void fuzz_cleanup(void)
{
	store_close(fuzz_st);
	if (chdir("/") == 0) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz: cannot remove '%s'\n", fuzz_dir);
	}
}

static void add_run(const char *label, const char *id)
{
	struct run *r = run_new("dd");
	struct row *w = r ? run_add_row(r, "dd", "write") : NULL;
	char err[256];
	int64_t sid;

	if (!w || str_set(&r->label, label) || str_set(&r->id, id) || str_set(&r->env.host, "h"))
		abort();
	w->bytes = 1 << 20;
	w->elapsed_ns = 1000000;
	w->rate = 1048.576;
	if (str_set(&w->rate_unit, "MB/s") || store_put(fuzz_st, r, &sid, err, sizeof(err)) < 0)
		abort();
	run_free(r);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[4096], err[256];
	FILE *f;
	struct run *r;
	char *d;

	(void)argc;
	(void)argv;
	if (!mkdtemp(fuzz_dir) || chdir(fuzz_dir) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/results.db", fuzz_dir);
	setenv("IOBATTERY_DB", path, 1);
	fuzz_st = store_open(path, 1, err, sizeof(err));
	if (!fuzz_st)
		abort();
	add_run("base", "host-20240101T000000Z-1");
	add_run("new", "host-20240102T000000Z-2");
	r = run_new("dd");
	d = r ? result_json_dump(r) : NULL;
	f = fopen("a.json", "w");
	if (!d || !f || fputs(d, f) < 0 || fclose(f) != 0)
		abort();
	free(d);
	run_free(r);
	atexit(fuzz_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct run *r;

	if (!fuzz_st)
		LLVMFuzzerInitialize(NULL, NULL);
	if (!strchr(s, '/') && *s) {
		r = results_load(s, 1);
		run_free(r);
		(void)store_find(fuzz_st, s);
		store_list(fuzz_st, fuzz_null(), s, NULL);
		store_list(fuzz_st, fuzz_null(), NULL, s);
	}
	free(s);
	return 0;
}
