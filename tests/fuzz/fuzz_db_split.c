/* fuzz_db_split.c - the SQL statement splitter (db_split.c): quotes, dollar quotes,
 * comments. Every statement it returns is a part of the input. */
#include "fuzz.h"
#include "workload/db/db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct db_stmt *st = NULL;
	char *s = fuzz_str(data, size), err[256];
	int n = db_split(s, &st, err, sizeof(err));

	for (int i = 0; i < n; i++)
		FUZZ_ASSERT(st[i].sql && strlen(st[i].sql) <= size && st[i].line >= 1);
	if (n > 0)
		db_split_free(st, n);
	free(s);
	return 0;
}
