/* fuzz_import_lines.c - the line-driven readers (import_lines.c: PostMark reports, dd's
 * closing lines, time output) on their own. */
#include "fuzz.h"
#include "fuzz_out.h"
#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_set set = { 0 };
	struct import_lines *l = import_lines_new("fuzz");
	char *s = fuzz_str(data, size), *v[1025];
	int n = fuzz_split(s, v, 1024);

	if (!l)
		abort();
	for (int i = 0; i < n; i++)
		if (import_lines_feed(l, v[i], (unsigned)i + 1, &set) < 0)
			break;
	import_lines_end(l, &set);
	for (size_t i = 0; i < set.n; i++)
		fuzz_outputs(set.runs[i]);
	import_set_free(&set);
	free(s);
	return 0;
}
