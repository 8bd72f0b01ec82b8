/* resolve.c - turning a command-line word into a run: a result file, a store id, a label
 * or a run id. See store.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static struct run *from_store(const char *spec, unsigned flags, char *why, size_t len)
{
	char path[4096];
	struct store *s;
	struct run *run = NULL;
	int64_t id;

	if (store_default_path(path, sizeof(path)) < 0) {
		snprintf(why, len, "not a file, and no store (HOME is not set)");
		return NULL;
	}
	if (access(path, F_OK) < 0) {
		snprintf(why, len, "no such file, and no store at '%.200s'", path);
		return NULL;
	}
	s = store_open(path, 0, why, len);
	if (!s)
		return NULL;
	id = all_digits(spec) ? strtoll(spec, NULL, 10) : 0;
	if (id > 0)
		run = store_get_flags(s, id, flags, why, len);
	if (!run && !all_digits(spec)) {
		id = store_find(s, spec);
		if (id > 0)
			run = store_get_flags(s, id, flags, why, len);
		else if (id == 0)
			snprintf(why, len, "no such file, and no run with this label or id in "
				 "the store");
		else
			snprintf(why, len, "store query failed");
	}
	store_close(s);
	return run;
}

struct run *results_load(const char *spec, int use_store)
{
	return results_load_flags(spec, use_store, 0);
}

struct run *results_load_flags(const char *spec, int use_store, unsigned flags)
{
	struct stat st;
	struct run *run;
	char why[512] = "";

	if (stat(spec, &st) == 0 || !use_store) {
		run = result_json_load_file_flags(spec, flags, why, sizeof(why));
		if (!run)
			err_msg("cannot load: '%s': %s", spec, why[0] ? why : "not a result file");
		return run;
	}
	run = from_store(spec, flags, why, sizeof(why));
	if (!run)
		err_msg("cannot load: '%s': %s", spec, why[0] ? why : "not found");
	return run;
}
