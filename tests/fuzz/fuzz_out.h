/* fuzz_out.h - every formatter, the comparison and the report on one run: what the
 * loader and the importers hand on must be printable by all of them without a crash, a
 * sanitizer report or a float-to-integer cast out of range. Static inline (one harness,
 * one translation unit). */
#ifndef IOB_FUZZ_OUT_H
#define IOB_FUZZ_OUT_H

#include "fuzz.h"
#include "output/bonnie_csv.h"
#include "output/html.h"
#include "output/iozone_out.h"
#include "output/output.h"
#include "stats/bonnie_layout.h"
#include "stats/compare.h"
#include "stats/result.h"

static inline void fuzz_outputs(struct run *run)
{
	static const char *const fmts[] = { "text", "json", "csv" };
	FILE *f = fuzz_null();
	struct run_groups g = { 0 };
	struct cmp_result cr = { 0 };
	struct bonnie_line l;
	struct run *const runs[2] = { run, run };
	const char *const names[2] = { "a", "b" };
	char buf[4096];
	unsigned r;

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		out_write(out_find(fmts[i]), f, run);
	out_text_table(f, run);
	if (csv_iozone_run(run))
		text_iozone_excel(f, run);
	out_text_repeats(f, run);
	for (r = 0; r < 4; r++)
		if (bonnie_line_from_run(&l, run, r))
			bonnie_csv_format(&l, buf, sizeof(buf));
	if (compare_group_run(run, &g) >= 0) {
		if (compare_groups(&g, &g, &cr) == 0)
			compare_result_free(&cr);
		compare_groups_free(&g);
	}
	html_report(f, runs, names, 2, "fuzz");
	fflush(f);
	clearerr(f);
}

#endif
