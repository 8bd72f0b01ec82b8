/* fuzz_import.c - import_text, the whole import path (src/import/): quoted mail, joined
 * Bonnie++ lines, every reader; each run it makes must dump as JSON that loads again,
 * and go through every formatter. */
#include "fuzz.h"
#include "fuzz_out.h"
#include "import/import.h"
#include "stats/result_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_set set = { 0 };
	char *s = fuzz_str(data, size), err[512];
	size_t i;

	import_text(&set, s, "fuzz", NULL);
	for (i = 0; i < set.n; i++) {
		char *d = result_json_dump(set.runs[i]);
		struct run *back;

		FUZZ_ASSERT(d != NULL);
		back = result_json_load(d, err, sizeof(err));
		if (!back)
			fprintf(stderr, "fuzz: an imported run does not load: %s\n", err);
		FUZZ_ASSERT(back != NULL);
		run_free(back);
		free(d);
		fuzz_outputs(set.runs[i]);
	}
	import_set_free(&set);
	free(s);
	return 0;
}
