/* fuzz_bonnie.c - Bonnie++'s option letters and our long options (bonnie_opts.c): one
 * argument a line, then the checks and the space estimate. */
#include "fuzz.h"
#include "workload/bonnie/bonnie.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bonnie_cfg c;
	char *s = fuzz_str(data, size), *v[34], err[256];
	int n;

	v[0] = "bonnie";
	n = fuzz_split(s, v + 1, 32);
	bonnie_cfg_init(&c);
	if (bonnie_parse_args(&c, n + 1, v, err, sizeof(err)) == 0 &&
	    bonnie_check(&c, err, sizeof(err)) == 0)
		(void)bonnie_space_needed(&c);
	free(s);
	return 0;
}
