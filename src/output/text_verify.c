/* text_verify.c - the text of a --verify phase (runner/vhook_check.c makes the row). */
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* Class metrics in the order vblock.h lists the classes, with their words. */
static const struct {
	const char *count, *first, *words;
} classes[] = {
	{ RK_VERIFY_IN_FLIGHT, NULL, "in flight (accepted)" },	/* or an overlapped write */
	{ RK_VERIFY_CORRUPTED, RK_VERIFY_FIRST_CORRUPTED, "corrupted" },
	{ RK_VERIFY_MISDIRECTED, RK_VERIFY_FIRST_MISDIRECTED, "misdirected" },
	{ RK_VERIFY_STALE, RK_VERIFY_FIRST_STALE, "stale (lost write)" },
	{ RK_VERIFY_OTHER_RUN, RK_VERIFY_FIRST_OTHER_RUN, "another run's (lost write)" },
	{ RK_VERIFY_ZEROED, RK_VERIFY_FIRST_ZEROED, "zeroed (lost write)" },
	{ RK_VERIFY_NO_HEADER, RK_VERIFY_FIRST_NO_HEADER, "no header (lost write)" },
	{ RK_VERIFY_TORN, RK_VERIFY_FIRST_TORN, "torn" },
	{ RK_VERIFY_MISSING, RK_VERIFY_FIRST_MISSING, "missing" },
};

static double metric(const struct row *w, const char *name)
{
	const struct metric *m = row_metric(w, name);

	return m ? m->value : 0;
}

int text_verify_row(FILE *f, const struct run *run, const struct row *w)
{
	const char *crc = kv_get(&w->params, RK_VERIFY_CRC_PATH);
	const char *id = kv_get(&w->params, RK_VERIFY_RUN_ID);
	const char *drop = kv_get(&w->params, RK_VERIFY_AFTER_DROP);
	const char *gens = kv_get(&w->params, RK_VERIFY_GENERATIONS);
	double files = metric(w, RK_VERIFY_FILES), bad = metric(w, RK_VERIFY_BAD_BLOCKS);
	char t[32], b[32];
	size_t i;

	(void)run;
	fprintf(f, "%s verify: %.0f blocks in %.0f file%s (%s) read back in %s, %.1f MB/s: ",
		w->workload ? w->workload : "?", metric(w, RK_VERIFY_BLOCKS), files,
		files == 1 ? "" : "s", units_fmt_bytes(b, sizeof(b), (double)w->bytes),
		units_fmt_ns(t, sizeof(t), (double)w->elapsed_ns), w->rate);
	if (bad)
		fprintf(f, "%.0f bad\n", bad);
	else
		fputs(w->flags & ROW_FAILED ? "not all checked\n" : "all as written\n", f);
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		double n = metric(w, classes[i].count);

		if (!n)
			continue;
		fprintf(f, "  %s: %.0f block%s", classes[i].words, n, n == 1 ? "" : "s");
		if (classes[i].first)
			fprintf(f, ", the first at offset %.0f", metric(w, classes[i].first));
		fputc('\n', f);
	}
	if (metric(w, RK_VERIFY_FILES_GONE))
		fprintf(f, "  files removed by the workload, not checked: %.0f\n",
			metric(w, RK_VERIFY_FILES_GONE));
	if (row_metric(w, RK_VERIFY_ACKED))
		fprintf(f, "  acknowledged generations recorded: %.0f (in %.3f s) to %s\n",
			metric(w, RK_VERIFY_ACKED), metric(w, RK_VERIFY_ACK_S),
			kv_get(&w->params, RK_VERIFY_JOURNAL) ?
			kv_get(&w->params, RK_VERIFY_JOURNAL) : "?");
	fprintf(f, "  run id %s, crc32c path %s%s%s\n", id ? id : "?", crc ? crc : "?",
		drop && !strcmp(drop, "true") ? ", read after dropping the page cache" : "",
		!gens ? "" : !strcmp(gens, "last-write") ? ", each block held to its last write" :
		", held to any generation of the run (too many blocks to track)");
	return out_text_extras(f, w);
}
