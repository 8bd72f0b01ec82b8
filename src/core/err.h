/* err.h - messages in the project's one format:
 *   iobattery: what failed: 'subject': reason
 * lowercase, no full stop, on stderr. Thread-safe (one fprintf per message). */
#ifndef IOB_CORE_ERR_H
#define IOB_CORE_ERR_H

#include <stdio.h>

#define IOB_NAME "iobattery"

/* Exit statuses (see docs/methodology.md and the man page). */
#define EXIT_OK		0
#define EXIT_FAILED	1	/* a phase failed (I/O error, ENOSPC, ...) */
#define EXIT_USAGE	2	/* bad command line or input; nothing was written */
#define EXIT_SIGNAL	130	/* interrupted by SIGINT/SIGTERM; partial results marked */

/* Print "iobattery: " + formatted text + "\n" to stderr. */
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Like err_msg, then ": " + strerror(-neg_errno). neg_errno is a negative errno value. */
void err_errno(int neg_errno, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Text put before every message from now on ("rank 3 on db07: "); NULL or "" for none.
 * Call before threads start (not thread-safe). */
void err_set_prefix(const char *p);

#endif
