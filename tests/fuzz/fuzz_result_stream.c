/* fuzz_result_stream.c - the streaming result loader (stats/result_json_stream.c) against
 * the tree (result_json_load.c) on any text, from memory and from a file read a few bytes
 * at a time: where the stream gives a run, the tree gives one that dumps to the same
 * text; where the stream refuses a document, the tree refuses it too; the loaders of
 * result_json.h give the tree's run or the tree's message; and a run the tree gives,
 * dumped as the tool writes it, is always taken by the stream.
 * With RESULT_STREAM_MUST_TAKE set in the environment every input must be taken by the
 * stream as it is (tests/cli/result_stream.sh: the results the workloads write). */
#include <unistd.h>

#include "fuzz.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "stats/result_json_load.h"

static char dir[512], path[600];

static void remove_file(void)
{
	unlink(path);
	rmdir(dir);
}

/* The input as a file in a directory of the harness's own in $TMPDIR (default /tmp): one
 * file, rewritten for each input; both removed at exit (a run that aborts leaves them:
 * a test that expects it gives the harness a TMPDIR of its own). */
static const char *as_file(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	if (!path[0]) {
		snprintf(dir, sizeof(dir), "%s/iob-fuzz-stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		FUZZ_ASSERT(mkdtemp(dir) != NULL);
		snprintf(path, sizeof(path), "%s/result.json", dir);
		atexit(remove_file);
	}
	f = fopen(path, "wb");
	FUZZ_ASSERT(f != NULL);
	FUZZ_ASSERT(fwrite(data, 1, size, f) == size);
	FUZZ_ASSERT(fclose(f) == 0);
	return path;
}

/* a and b are the same run, or both none. */
static void same(struct run *a, struct run *b)
{
	char *da, *db;

	FUZZ_ASSERT(!a == !b);
	if (!a)
		return;
	da = result_json_dump(a);
	db = result_json_dump(b);
	FUZZ_ASSERT(da && db);
	if (strcmp(da, db) != 0)
		fprintf(stderr, "fuzz: the stream and the tree give different runs\n");
	FUZZ_ASSERT(strcmp(da, db) == 0);
	free(da);
	free(db);
}

/* The stream (st, with why) against the tree (tr). */
static void check(struct run *st, int why, struct run *tr)
{
	if (st)
		same(st, tr);
	else if (why == RJS_REFUSED)
		FUZZ_ASSERT(tr == NULL);
	else
		FUZZ_ASSERT(why == RJS_UNTAKEN);
	if (getenv("RESULT_STREAM_MUST_TAKE") && !st)
		fprintf(stderr, "fuzz: the stream does not take a result (why %d)\n", why);
	FUZZ_ASSERT(st || !getenv("RESULT_STREAM_MUST_TAKE"));
}

/* The loaders of result_json.h give the tree's run or its message. */
static void public(const char *s, const char *file, struct run *tr, const char *terr)
{
	char err[512] = "";
	struct run *r = result_json_load(s, err, sizeof(err));

	same(r, tr);
	FUZZ_ASSERT(r || strcmp(err, terr) == 0);
	run_free(r);
	r = result_json_load_file_flags(file, 0, err, sizeof(err));
	tr = rjl_tree_file(file, 0, (char[512]){ 0 }, 512);
	same(r, tr);
	run_free(r);
	run_free(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), terr[512] = "", *d;
	const char *file = as_file(data, size);
	size_t chunk = 1 + (size % 13);
	struct run *tr, *st, *back;
	int why = -1;

	for (unsigned flags = 0; flags <= RESULT_LOAD_NO_HIST; flags++) {
		tr = rjl_tree_text(s, flags, terr, sizeof(terr));
		st = rjs_load_text(s, flags, &why);
		check(st, why, tr);
		run_free(st);
		st = rjs_load_file(file, flags, size, chunk, &why);
		if (memchr(data, '\0', size))	/* the text ends at the NUL, the file not */
			FUZZ_ASSERT(st == NULL);
		else
			check(st, why, tr);
		run_free(st);
		if (tr && (d = result_json_dump(tr))) {
			back = rjs_load_text(d, flags, &why);
			FUZZ_ASSERT(back != NULL);
			same(back, tr);
			run_free(back);
			free(d);
		}
		if (flags == 0)
			public(s, file, tr, terr);
		run_free(tr);
	}
	free(s);
	return 0;
}
