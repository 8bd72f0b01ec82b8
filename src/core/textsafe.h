/* textsafe.h - text from data (labels, host names, ids, file names, imported mail) made
 * safe for where it goes: valid UTF-8 for JSON and the store (an invalid byte is kept as
 * the character of its Latin-1 reading, U+0080..U+00FF, so no run is lost and no byte
 * dropped), cut without splitting a character, and escaped for a terminal (no control
 * character of a hostile file reaches it). Pure; thread-safe. */
#ifndef IOB_CORE_TEXTSAFE_H
#define IOB_CORE_TEXTSAFE_H

#include <stddef.h>

/* 1 when s is valid UTF-8 (no overlong form, no surrogate, nothing past U+10FFFF). */
int textsafe_utf8_valid(const char *s);
/* A copy of s (malloc'd, caller frees; NULL on ENOMEM) where every byte that is not part
 * of a valid UTF-8 sequence is replaced by the UTF-8 form of U+00XX, XX being the byte:
 * "caf\xe9" becomes "café". Valid text is copied unchanged. */
char *textsafe_utf8_fix(const char *s);
/* The length of the longest prefix of s[0..len) that ends on a character boundary: what
 * a cut at len bytes may keep. Cut in place with textsafe_utf8_trim (buf NUL-terminated). */
size_t textsafe_utf8_cut(const char *s, size_t len);
void textsafe_utf8_trim(char *buf);

/* 1 when s holds a byte or character a terminal would act on: C0 controls (tab and
 * newline included: a label must not make lines), DEL, C1 controls (U+0080..U+009F,
 * either as UTF-8 or as raw bytes), or bytes that are not UTF-8. */
int textsafe_term_needed(const char *s);
/* A copy of s with each of those written as \xNN (a byte) or \u00NN (a C1 character),
 * e.g. "a\x1b[2Jb" for ESC [ 2 J. malloc'd, caller frees; NULL on ENOMEM. */
char *textsafe_term(const char *s);

#endif
