/* fuzz_result_check.c - the result checker (stats/result_check.h, iobattery verify
 * --result): any bytes are refused with a reason or checked, never trusted; a run that
 * loads and is written again carries a digest the checker accepts. */
#include <errno.h>

#include "fuzz.h"
#include "stats/result.h"
#include "stats/result_check.h"
#include "stats/result_json.h"

static void count(void *arg, const char *figure, const char *why)
{
	FUZZ_ASSERT(figure && *figure && why && *why);
	(*(unsigned *)arg)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_check rc;
	char err[512] = "", *s, *d;
	unsigned said = 0;
	struct run *r;
	int st;

	st = result_check_text((const char *)data, size, &rc, count, &said, err, sizeof(err));
	FUZZ_ASSERT(st == 0 || st == 1 || st == -EINVAL || st == -ENOMEM);
	if (st == -EINVAL)
		FUZZ_ASSERT(err[0] != '\0');
	if (st >= 0)
		FUZZ_ASSERT(said == rc.bad && (st == 1) == (rc.bad > 0));
	s = fuzz_str(data, size);
	r = result_json_load(s, err, sizeof(err));
	free(s);
	if (!r)
		return 0;
	d = result_json_dump(r);
	FUZZ_ASSERT(d != NULL);
	st = result_check_text(d, strlen(d), &rc, NULL, NULL, err, sizeof(err));
	if (st < 0)
		fprintf(stderr, "fuzz: a written run is not a result: %s\n", err);
	FUZZ_ASSERT(st >= 0 && rc.digest == 1);
	free(d);
	run_free(r);
	return 0;
}
