/* fuzz_dd.c - dd's operands (workload/dd/dd_cmd.c through the workload's operands hook):
 * one operand a line; nothing is opened (validate is not called). */
#include "fuzz.h"
#include "core/err.h"
#include "workload/workload.h"

extern const struct workload workload_dd;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct workload *w = &workload_dd;
	struct workload_ctx x;
	char *s = fuzz_str(data, size), *v[33];
	int n = fuzz_split(s, v, 32);

	memset(&x, 0, sizeof(x));
	x.w = w;
	x.cfg = calloc(1, w->cfg_size);
	if (!x.cfg)
		abort();
	if (w->init)
		w->init(x.cfg);
	w->operands(&x, v, n);
	if (w->done)
		w->done(x.cfg);
	free(x.cfg);
	free(s);
	return 0;
}
