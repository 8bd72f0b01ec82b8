/* err.c - the one message format: "iobattery: what failed: 'subject': reason". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/textsafe.h"

/* "rank 3 on db07: " on the ranks other than 0 of a multi-rank run (comm.c sets it). */
static char err_prefix[96];

void err_set_prefix(const char *p)
{
	snprintf(err_prefix, sizeof(err_prefix), "%s", p ? p : "");
}

/* Format into a local buffer, then write it with one fprintf so concurrent messages
 * from several threads do not interleave. */
__attribute__((format(printf, 3, 0)))
static void err_vemit(int with_errno, int neg_errno, const char *fmt, va_list ap)
{
	char msg[1024], *safe = NULL, *p;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* a message quotes what it was given (job-file text, file names): no control
	 * character of it reaches the terminal (ESC as \x1b, a newline as \x0a) */
	textsafe_utf8_trim(msg);
	if (textsafe_term_needed(msg) && !(safe = textsafe_term(msg)))
		for (p = msg; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
	if (with_errno)
		fprintf(stderr, IOB_NAME ": %s%s: %s\n", err_prefix, safe ? safe : msg,
			strerror(-neg_errno));
	else
		fprintf(stderr, IOB_NAME ": %s%s\n", err_prefix, safe ? safe : msg);
	free(safe);
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vemit(0, 0, fmt, ap);
	va_end(ap);
}

void err_errno(int neg_errno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vemit(1, neg_errno, fmt, ap);
	va_end(ap);
}
