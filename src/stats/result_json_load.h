/* result_json_load.h - the two ways a result document becomes a run, for the loaders of
 * result_json.h and their tests: as one tree (result_json_load.c, jansson: the document's
 * first problem named with where it is) and as a stream (result_json_stream.c: each row
 * parsed and taken into the run on its own, so that no tree of the whole document is
 * held). Both give the same run for a document both take. Thread-safe: no shared state. */
#ifndef IOB_STATS_RESULT_JSON_LOAD_H
#define IOB_STATS_RESULT_JSON_LOAD_H

#include <stddef.h>

#include <jansson.h>

struct run;

#define RESULT_JSON_MAX_BYTES	(1u << 30)	/* a result file larger than this is refused */

/* The tree: the whole text (or file) parsed, then read into a new run (caller frees with
 * run_free). NULL with the reason in errbuf. flags: RESULT_LOAD_* (result_json.h). */
struct run *rjl_tree_text(const char *text, unsigned flags, char *errbuf,
			  unsigned long errlen);
struct run *rjl_tree_file(const char *path, unsigned flags, char *errbuf,
			  unsigned long errlen);

/* Pieces of the tree's reading for the stream. rjl_row: o, row i of the document (any
 * JSON value), appended to r; rjl_head: every member of the run but its rows, from root
 * (a document with or without "rows"), and the checks that make it a result of ours.
 * 0, or -1 with the reason in err (len bytes). */
int rjl_row(struct run *r, const json_t *o, size_t i, unsigned flags, char *err, size_t len);
int rjl_head(const json_t *root, struct run *r, unsigned flags, char *err, size_t len);

/* What the stream made of a document (*why of rjs_load_*). */
enum rjs_why {
	RJS_TAKEN = 0,		/* a run came back */
	RJS_REFUSED,		/* malformed or not a result: the tree refuses it too */
	RJS_UNTAKEN,		/* a form the stream leaves to the tree (a top-level member
				 * twice, deep nesting, a NUL byte, a read error, a file
				 * larger than max, out of memory) */
};

/* The stream: the text, or the regular file at path (at most max bytes, read chunk bytes
 * at a time: 0 for 64 KiB, less to test the joins), into a new run (caller frees with
 * run_free). NULL when it gives no run, with why (when not NULL) saying which of enum
 * rjs_why; the reason itself is the tree's to give. */
struct run *rjs_load_text(const char *text, unsigned flags, int *why);
struct run *rjs_load_file(const char *path, unsigned flags, size_t max, size_t chunk,
			  int *why);

#endif
