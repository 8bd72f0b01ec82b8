/* store_label.c - every run of a label, for `compare --group-by label`: the repeats of
 * one configuration spread over several stored runs. See store.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "stats/result.h"
#include "stats/result_json.h"
#include "store/store.h"
#include "store/store_int.h"

/* Append run to *v (size *n). 0 or -ENOMEM (run freed). */
static int push(struct run ***v, size_t *n, struct run *run)
{
	struct run **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv) {
		run_free(run);
		return -ENOMEM;
	}
	nv[(*n)++] = run;
	*v = nv;
	return 0;
}

int store_get_label(struct store *s, const char *label, unsigned flags, struct run ***out,
		    char *errbuf, size_t len)
{
	sqlite3_stmt *st;
	struct run **v = NULL, *run;
	size_t n = 0, i;
	int rc;

	*out = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT result_json FROM runs WHERE label = ?1 ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK) {
		store_err(s, errbuf, len, "query failed");
		return -EIO;
	}
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!sqlite3_column_text(st, 0))
			continue;
		run = result_json_load_flags((const char *)sqlite3_column_text(st, 0), flags,
					     errbuf, len);
		if (!run || push(&v, &n, run) < 0) {
			rc = run ? -ENOMEM : -EINVAL;
			goto fail;
		}
	}
	if (rc != SQLITE_DONE) {
		store_err(s, errbuf, len, "query failed");
		rc = -EIO;
		goto fail;
	}
	sqlite3_finalize(st);
	*out = v;
	return (int)n;
fail:
	sqlite3_finalize(st);
	for (i = 0; i < n; i++)
		run_free(v[i]);
	free(v);
	return rc;
}

int results_load_all(const char *spec, int use_store, unsigned flags, struct run ***out)
{
	char path[4096], why[512] = "";
	struct stat st;
	struct store *s;
	struct run *one;
	int n;

	*out = NULL;
	if (use_store && stat(spec, &st) < 0 && store_default_path(path, sizeof(path)) == 0 &&
	    access(path, F_OK) == 0) {
		s = store_open(path, 0, why, sizeof(why));
		if (!s) {
			err_msg("cannot load: '%s': %s", spec, why);
			return -EIO;
		}
		n = store_get_label(s, spec, flags, out, why, sizeof(why));
		store_close(s);
		if (n < 0) {
			err_msg("cannot load: '%s': %s", spec, why[0] ? why : "store query failed");
			return n;
		}
		if (n > 0)
			return n;
	}
	/* a result file, a store id or a run id: one run */
	one = results_load_flags(spec, use_store, flags);
	if (!one)
		return -EINVAL;
	if (push(out, &(size_t){ 0 }, one) < 0)
		return -ENOMEM;
	return 1;
}
