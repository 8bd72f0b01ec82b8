/* textsafe.c - UTF-8 checks and repairs, and terminal escaping (textsafe.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/textsafe.h"

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when s[0] does not start one
 * (an invalid, overlong, surrogate or truncated sequence). *cp gets the code point. */
static size_t seq_len(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0], v, min;
	size_t n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

int textsafe_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned cp;
	size_t n;

	while (*p) {
		n = seq_len(p, &cp);
		if (!n)
			return 0;
		p += n;
	}
	return 1;
}

char *textsafe_utf8_fix(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), o = 0, n;
	unsigned cp;
	char *out = malloc(len * 2 + 1);	/* each byte at most two */

	if (!out)
		return NULL;
	while (*p) {
		n = seq_len(p, &cp);
		if (n) {
			memcpy(out + o, p, n);
			o += n;
			p += n;
		} else {
			out[o++] = (char)(0xc0 | (*p >> 6));
			out[o++] = (char)(0x80 | (*p & 0x3f));
			p++;
		}
	}
	out[o] = '\0';
	return out;
}

/* The length a lead byte announces (2..4), or 0 for a byte that leads nothing. */
static size_t lead_len(unsigned char c)
{
	return c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 :
	       c >= 0xf0 && c <= 0xf4 ? 4 : 0;
}

/* Are the avail bytes at p (fewer than need - 1, up to a NUL) all continuation bytes? */
static int tail_only(const unsigned char *p, size_t avail, size_t need)
{
	size_t k;

	for (k = 0; k < avail && p[k]; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return k + 1 < need;
}

size_t textsafe_utf8_cut(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	unsigned cp;

	while (i < len && p[i]) {
		n = seq_len(p + i, &cp);
		if (!n && lead_len(p[i]) && tail_only(p + i + 1, len - i - 1, lead_len(p[i])))
			break;		/* a character the cut (or the end) split */
		if (!n)
			n = 1;		/* an invalid byte stands alone */
		if (i + n > len)
			break;
		i += n;
	}
	return i;
}

void textsafe_utf8_trim(char *buf)
{
	buf[textsafe_utf8_cut(buf, strlen(buf))] = '\0';
}

/* What to write for the character at p (n bytes, code point cp; n == 0: a stray byte):
 * the escape into esc and 1, or 0 to copy it. */
static int term_escape(const unsigned char *p, size_t n, unsigned cp, char esc[8])
{
	if (n == 0 || cp < 0x20 || cp == 0x7f) {
		snprintf(esc, 8, "\\x%02x", p[0]);
		return 1;
	}
	if (cp >= 0x80 && cp <= 0x9f) {
		snprintf(esc, 8, "\\u%04x", cp);
		return 1;
	}
	return 0;
}

int textsafe_term_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	unsigned cp = 0;
	size_t n;

	while (*p) {
		n = seq_len(p, &cp);
		if (term_escape(p, n, cp, esc))
			return 1;
		p += n;
	}
	return 0;
}

char *textsafe_term(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, n;
	unsigned cp = 0;
	char *out = malloc(strlen(s) * 6 + 1), esc[8];	/* "\u009b" for two bytes */

	if (!out)
		return NULL;
	while (*p) {
		n = seq_len(p, &cp);
		if (term_escape(p, n, cp, esc)) {
			memcpy(out + o, esc, strlen(esc));
			o += strlen(esc);
			p += n ? n : 1;
		} else {
			memcpy(out + o, p, n);
			o += n;
			p += n;
		}
	}
	out[o] = '\0';
	return out;
}
