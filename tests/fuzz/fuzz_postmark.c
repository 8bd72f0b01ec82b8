/* fuzz_postmark.c - PostMark's command language (postmark_lang.c): one command a line,
 * executed on one configuration ("show" and "help" print to /dev/null; run and load are
 * only parsed). */
#include "fuzz.h"
#include "workload/postmark/postmark.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_config c, copy;
	char *s = fuzz_str(data, size), *v[257], err[256];
	int n = fuzz_split(s, v, 256);

	pm_config_init(&c);
	for (int i = 0; i < n; i++) {
		char *arg = NULL;

		if (pm_exec(&c, v[i], fuzz_null(), &arg, err, sizeof(err)) == PM_ACT_QUIT) {
			free(arg);
			break;
		}
		free(arg);
	}
	pm_show(&c, fuzz_null());
	if (pm_config_copy(&copy, &c) == 0)
		pm_config_free(&copy);
	pm_config_free(&c);
	free(s);
	return 0;
}
