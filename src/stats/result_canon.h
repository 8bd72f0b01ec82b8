/* result_canon.h - the canonical form of a result document and the digest over it
 * (docs/methodology.md, "Self-checking results"). The canonical form is the document
 * without its top-level "digest" member, with sorted keys, no white space, every string
 * escaped to ASCII and every real written with 15 significant digits: the same text
 * whether it is made from the run in memory (the writer) or from the file read back
 * (iobattery verify --result). Thread-safe: no shared state. */
#ifndef IOB_STATS_RESULT_CANON_H
#define IOB_STATS_RESULT_CANON_H

#include <jansson.h>

#include "core/sha256.h"

#define RESULT_DIGEST_PREFIX	"sha256:"
/* "sha256:" and 64 hex digits and a NUL */
#define RESULT_DIGEST_LEN	(sizeof(RESULT_DIGEST_PREFIX) - 1 + SHA256_HEX_LEN)

/* The canonical text of doc (an object), malloc'd; the caller frees it. NULL on ENOMEM
 * or when doc is not an object. doc is not changed. */
char *result_canon_text(const json_t *doc);
/* The digest of doc's canonical text into out ("sha256:" and 64 hex digits). 0, or
 * -ENOMEM / -EINVAL (not an object). */
int result_canon_digest(const json_t *doc, char out[RESULT_DIGEST_LEN]);

#endif
