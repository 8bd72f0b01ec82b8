/* fuzz_iozone.c - iozone's option letters and our long options (iozone_opts.c): one
 * argument a line, then the checks, the grid, the passes and the space estimate. */
#include "fuzz.h"
#include "workload/iozone/iozone.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iozone_cfg c;
	struct iozone_cellsz cells[64];
	int passes[64];
	char *s = fuzz_str(data, size), *v[66], err[256];
	int n;

	v[0] = "iozone";
	n = fuzz_split(s, v + 1, 64);
	iozone_cfg_init(&c);
	if (iozone_parse_args(&c, n + 1, v, err, sizeof(err)) == 0 &&
	    iozone_check(&c, err, sizeof(err)) == 0) {
		(void)iozone_grid(&c, cells, sizeof(cells) / sizeof(cells[0]));
		FUZZ_ASSERT(iozone_passes(&c, passes) < 64);
		(void)iozone_tests(&c);
		(void)iozone_space_needed(&c);
	}
	free(s);
	return 0;
}
