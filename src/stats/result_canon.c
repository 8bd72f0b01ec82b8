/* result_canon.c - the canonical form of a result and its SHA-256 digest. Numbers: a real
 * is written as C's %.15g with '.0' added when it has neither '.' nor an exponent (and an
 * exponent without '+' or leading zeros), an integer in decimal; a real of 15 significant
 * digits reads back to a double that prints the same 15 digits again, so the writer (which
 * prints the run's full doubles with 15 digits) and a reader of the file agree. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result_canon.h"
#include "stats/result_keys.h"

#define CANON_FLAGS	(JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII | \
			 JSON_REAL_PRECISION(15))

char *result_canon_text(const json_t *doc)
{
	json_t *copy;
	char *s;

	if (!json_is_object(doc))
		return NULL;
	/* a shallow copy: the members are shared, only the top level loses "digest" */
	copy = json_copy((json_t *)doc);
	if (!copy)
		return NULL;
	json_object_del(copy, RK_RUN_DIGEST);
	s = json_dumps(copy, CANON_FLAGS);
	json_decref(copy);
	return s;
}

int result_canon_digest(const json_t *doc, char out[RESULT_DIGEST_LEN])
{
	char hex[SHA256_HEX_LEN];
	char *s;

	if (!json_is_object(doc))
		return -EINVAL;
	s = result_canon_text(doc);
	if (!s)
		return -ENOMEM;
	sha256_hex(s, strlen(s), hex);
	free(s);
	memcpy(out, RESULT_DIGEST_PREFIX, sizeof(RESULT_DIGEST_PREFIX) - 1);
	memcpy(out + sizeof(RESULT_DIGEST_PREFIX) - 1, hex, SHA256_HEX_LEN);
	return 0;
}
