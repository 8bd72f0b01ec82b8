/* import_util.c - what the import driver (import.c) and its readers (import_bonnie.c,
 * import_lines.c, import_psql.c) share: the set of imported runs, number checks and the
 * finishing of an imported run (import.h). It includes none of them. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/import.h"
#include "stats/result.h"
#include "stats/result_keys.h"

int import_set_add(struct import_set *set, struct run *run)
{
	struct run **nr;

	if (set->n == set->cap) {
		nr = realloc(set->runs, (set->cap ? set->cap * 2 : 8) * sizeof(*nr));
		if (!nr) {
			run_free(run);
			return -ENOMEM;
		}
		set->runs = nr;
		set->cap = set->cap ? set->cap * 2 : 8;
	}
	set->runs[set->n++] = run;
	return 0;
}

void import_set_free(struct import_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		run_free(set->runs[i]);
	free(set->runs);
	memset(set, 0, sizeof(*set));
}

int import_parse_num(const char *s, double *out)
{
	char *end;

	if (!isdigit((unsigned char)*s) && !(*s == '.' && isdigit((unsigned char)s[1])))
		return -EINVAL;
	*out = strtod(s, &end);
	if (*end)
		return -EINVAL;
	return import_num_ok(*out) ? 0 : -ERANGE;
}

int import_num_ok(double v)
{
	return v >= 0 && v <= 1e18;	/* false for NaN */
}

/* FNV-1a, 64 bits: a stable id for a record, so that importing twice is noticed. */
static uint64_t fnv1a(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

int import_finish_run(struct run *run, const char *key, const char *source,
		      unsigned lineno, const char *format)
{
	size_t i;

	run->flags |= RUN_IMPORTED;
	for (i = 0; i < run->nrows; i++)
		run->rows[i]->flags |= ROW_IMPORTED;
	free(run->id);
	run->id = str_printf("imp-%016llx", (unsigned long long)fnv1a(key));
	if (!run->id)
		return -ENOMEM;
	if (kv_set(&run->options, RK_IMPORT_IMPORTED_FROM, "%s:%u", source, lineno) < 0 ||
	    kv_set(&run->options, RK_IMPORT_IMPORTED_FORMAT, "%s", format) < 0)
		return -ENOMEM;
	if (!run->command_line && !(run->command_line = str_printf("(imported %s)", format)))
		return -ENOMEM;
	return 0;
}
