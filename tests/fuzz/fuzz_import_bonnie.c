/* fuzz_import_bonnie.c - the Bonnie++ CSV line reader (import_bonnie.c) on its own,
 * line by line, with the shape test that joins wrapped lines. */
#include "fuzz.h"
#include "fuzz_out.h"
#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), *v[65], why[256];
	int n = fuzz_split(s, v, 64);

	for (int i = 0; i < n; i++) {
		struct run *r = NULL;
		unsigned have, want;

		import_bonnie_shape(v[i], &have, &want);
		if (import_bonnie_csv(v[i], "fuzz", (unsigned)i + 1, &r, why, sizeof(why)) == 1) {
			FUZZ_ASSERT(r != NULL);
			fuzz_outputs(r);
			run_free(r);
		}
	}
	free(s);
	return 0;
}
