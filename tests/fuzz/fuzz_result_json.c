/* fuzz_result_json.c - the result loader (stats/result_json_load.c): any text either loads or
 * is refused with a reason; what loads dumps, loads again and dumps to the same text
 * (dump/load/dump round trip), and goes through every formatter, the comparison and
 * the report. */
#include "fuzz.h"
#include "fuzz_out.h"
#include "stats/result_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), err[512] = "";
	struct run *r = result_json_load(s, err, sizeof(err));
	struct run *r2;
	char *d1, *d2;

	free(s);
	if (!r) {
		FUZZ_ASSERT(err[0] != '\0');
		return 0;
	}
	d1 = result_json_dump(r);
	FUZZ_ASSERT(d1 != NULL);
	r2 = result_json_load(d1, err, sizeof(err));
	if (!r2)
		fprintf(stderr, "fuzz: a dumped run does not load: %s\n", err);
	FUZZ_ASSERT(r2 != NULL);
	d2 = result_json_dump(r2);
	FUZZ_ASSERT(d2 != NULL && strcmp(d1, d2) == 0);
	fuzz_outputs(r);
	free(d1);
	free(d2);
	run_free(r2);
	run_free(r);
	return 0;
}
