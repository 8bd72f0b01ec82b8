/* job_units.c - fio's numbers: sizes with kb_base suffixes, times, floats, ${VAR} and
 * keyword substitution, and the integer arithmetic fio hands to bc. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "observe/sysinfo.h"
#include "workload/job/job_int.h"

static const char *ju_skip_blanks(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Digits of base 10 or 16 into *v. Returns the number of digits or -ERANGE. */
static int ju_digits(const char **sp, unsigned base, uint64_t *v)
{
	const char *s = *sp;
	uint64_t x = 0;
	int n = 0;

	for (;; s++, n++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (x > (UINT64_MAX - d) / base)
			return -ERANGE;
		x = x * base + d;
	}
	*sp = s;
	*v = x;
	return n;
}

/* The multiplier of a size suffix (already known non-empty or empty). fio matches
 * "kib".."pib" first (the inverted base), then any word starting with k..p (the kb_base
 * powers); we accept only the spellings fio documents: b, X, Xb, Xi, Xib. */
static int ju_size_mult(const char *suf, unsigned kb_base, uint64_t *mul)
{
	static const char powers[] = "kmgtp";
	char low[8];
	const char *p;
	size_t i, n = strlen(suf);
	uint64_t base, m = 1;
	unsigned pw;

	if (n == 0 || (n == 1 && (suf[0] == 'b' || suf[0] == 'B'))) {
		*mul = 1;
		return 0;
	}
	if (n > 3)
		return -EINVAL;
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)suf[i]);
	low[n] = '\0';
	p = strchr(powers, low[0]);
	if (!p || !low[0])
		return -EINVAL;
	pw = (unsigned)(p - powers) + 1;
	base = kb_base;
	if (!strcmp(low + 1, "ib"))
		base = kb_base == 1024 ? 1000 : 1024;
	else if (strcmp(low + 1, "") && strcmp(low + 1, "b") && strcmp(low + 1, "i"))
		return -EINVAL;
	while (pw--)
		m *= base;	/* at most 1024^5: no overflow */
	*mul = m;
	return 0;
}

int job_parse_size(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct, char *why,
		   size_t wl)
{
	const char *p = ju_skip_blanks(s);
	uint64_t v, mul;
	int n;

	if (*p == '-') {
		snprintf(why, wl, "must not be negative");
		return -EINVAL;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n = ju_digits(&p, 16, &v);
		if (n == -ERANGE) {
			snprintf(why, wl, "too large");
			return -EINVAL;
		}
		if (n <= 0 || *p) {
			snprintf(why, wl, "not a hexadecimal number (no suffix after one)");
			return -EINVAL;
		}
		*out = v;
		if (pct)
			*pct = 0;
		return 0;
	}
	n = ju_digits(&p, 10, &v);
	if (n == -ERANGE) {
		snprintf(why, wl, "too large");
		return -EINVAL;
	}
	if (n == 0) {
		snprintf(why, wl, "not a number");
		return -EINVAL;
	}
	if (*p == '.') {
		snprintf(why, wl, "not a whole number");
		return -EINVAL;
	}
	if (*p == '%') {
		if (!pct) {
			snprintf(why, wl, "a percentage is not allowed here");
			return -EINVAL;
		}
		if (p[1] || v > 100) {
			snprintf(why, wl, "a percentage must be 0%% to 100%%");
			return -EINVAL;
		}
		*pct = (unsigned)v;
		*out = 0;
		return 0;
	}
	if (ju_size_mult(p, kb_base ? kb_base : 1024, &mul)) {
		snprintf(why, wl, "unknown size suffix '%s'", p);
		return -EINVAL;
	}
	if (mul && v > UINT64_MAX / mul) {
		snprintf(why, wl, "too large");
		return -EINVAL;
	}
	*out = v * mul;
	if (pct)
		*pct = 0;
	return 0;
}

int job_parse_ssize(const char *s, unsigned kb_base, int64_t *out, char *why, size_t wl)
{
	const char *p = ju_skip_blanks(s);
	uint64_t v;
	int neg = 0;
	int rc;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	rc = job_parse_size(p, kb_base, &v, NULL, why, wl);
	if (rc)
		return rc;
	if (v > (uint64_t)INT64_MAX) {
		snprintf(why, wl, "too large");
		return -EINVAL;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int job_parse_time(const char *s, uint64_t def_mult, uint64_t *out, char *why, size_t wl)
{
	static const struct {
		const char *suf;
		uint64_t mul;
	} sufs[] = {
		{ "us", 1 }, { "usec", 1 }, { "ms", 1000 }, { "msec", 1000 },
		{ "s", 1000000 }, { "m", 60000000 }, { "h", 3600000000ull },
		{ "d", 86400000000ull },
	};
	const char *p = ju_skip_blanks(s);
	char low[8];
	uint64_t v, mul = 0;
	size_t i, n;
	int nd;

	if (*p == '-') {
		snprintf(why, wl, "must not be negative");
		return -EINVAL;
	}
	nd = ju_digits(&p, 10, &v);
	if (nd == -ERANGE) {
		snprintf(why, wl, "too large");
		return -EINVAL;
	}
	if (nd == 0) {
		snprintf(why, wl, "not a number");
		return -EINVAL;
	}
	if (*p == '.') {
		snprintf(why, wl, "not a whole number (write 1500ms for 1.5s)");
		return -EINVAL;
	}
	n = strlen(p);
	if (n == 0) {
		mul = def_mult;
	} else if (n < sizeof(low)) {
		for (i = 0; i <= n; i++)
			low[i] = (char)tolower((unsigned char)p[i]);
		for (i = 0; i < sizeof(sufs) / sizeof(sufs[0]); i++)
			if (!strcmp(low, sufs[i].suf))
				mul = sufs[i].mul;
	}
	if (!mul) {
		if (n < sizeof(low) && !strcmp(low, "sec"))
			snprintf(why, wl, "unknown time suffix 'sec' (fio reads it as "
				 "microseconds): write 's'");
		else
			snprintf(why, wl, "unknown time suffix '%s' (us, ms, s, m, h or d)", p);
		return -EINVAL;
	}
	if (v > UINT64_MAX / mul) {
		snprintf(why, wl, "too large");
		return -EINVAL;
	}
	*out = v * mul;
	return 0;
}

int job_parse_plain(const char *s, uint64_t *out)
{
	const char *p = ju_skip_blanks(s);
	uint64_t v;

	if (ju_digits(&p, 10, &v) <= 0 || *p)
		return -EINVAL;
	*out = v;
	return 0;
}

int job_parse_double(const char *s, double *out)
{
	const char *p = ju_skip_blanks(s), *q;
	char *end;
	double v;

	if (!*p)
		return -EINVAL;
	/* decimal notation only: no hex floats, inf or nan */
	for (q = p; *q; q++)
		if (!strchr("0123456789.eE+-", *q))
			return -EINVAL;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || *end || errno || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* ---- substitution ---- */

struct ju_buf {
	char *s;
	size_t len, cap;
};

static int ju_put(struct ju_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *ns;

		while (b->len + n + 1 > cap)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* ${VAR}: the first '}' after "${" closes the name; unset is empty (as fio). */
static int ju_env(const char *in, struct ju_buf *b)
{
	const char *p = in, *last = strrchr(in, '}');	/* none after it: no rescans */

	while (*p) {
		const char *close;

		if (p[0] == '$' && p[1] == '{' && last && p + 2 <= last &&
		    (close = strchr(p + 2, '}'))) {
			size_t n = (size_t)(close - (p + 2));
			char name[256];
			const char *v = NULL;

			if (n < sizeof(name)) {
				memcpy(name, p + 2, n);
				name[n] = '\0';
				v = n ? getenv(name) : NULL;
			}
			if (v && ju_put(b, v, strlen(v)))
				return -ENOMEM;
			p = close + 1;
			continue;
		}
		if (ju_put(b, p, 1))
			return -ENOMEM;
		p++;
	}
	if (!b->s)
		return ju_put(b, "", 0);
	return 0;
}

static uint64_t ju_keyword_value(const struct job_pctx *ctx, unsigned i)
{
	long v;

	switch (i) {
	case 0:
		if (ctx && ctx->pagesize)
			return ctx->pagesize;
		v = sysconf(_SC_PAGESIZE);
		return v > 0 ? (uint64_t)v : 4096;
	case 1:
		if (ctx && ctx->mb_memory)
			return ctx->mb_memory;
		return sysinfo_ram() / (1024 * 1024);
	default:
		if (ctx && ctx->ncpus)
			return ctx->ncpus;
#ifdef _SC_NPROCESSORS_CONF
		v = sysconf(_SC_NPROCESSORS_CONF);
#else
		v = sysconf(_SC_NPROCESSORS_ONLN);
#endif
		return v > 0 ? (uint64_t)v : 1;
	}
}

/* Replace every keyword occurrence, keyword by keyword as fio does. Sets *hit. */
static int ju_keywords(struct ju_buf *b, const struct job_pctx *ctx, int *hit)
{
	static const char *const words[] = { "$pagesize", "$mb_memory", "$ncpus" };
	unsigned i;

	/* one pass per keyword, the value looked up once: linear in the line (a number
	 * cannot form a keyword, so this is fio's repeated replacement) */
	for (i = 0; i < 3; i++) {
		size_t wl = strlen(words[i]), nl;
		struct ju_buf nb = { 0 };
		const char *from = b->s, *at;
		char num[32];

		if (!strstr(b->s, words[i]))
			continue;
		snprintf(num, sizeof(num), "%llu", (unsigned long long)ju_keyword_value(ctx, i));
		nl = strlen(num);
		while ((at = strstr(from, words[i]))) {
			if (ju_put(&nb, from, (size_t)(at - from)) || ju_put(&nb, num, nl)) {
				free(nb.s);
				return -ENOMEM;
			}
			from = at + wl;
		}
		if (ju_put(&nb, from, strlen(from))) {
			free(nb.s);
			return -ENOMEM;
		}
		free(b->s);
		*b = nb;
		*hit = 1;
	}
	return 0;
}

int job_subst(const char *line, const struct job_pctx *ctx, char **out, char *why, size_t wl)
{
	struct ju_buf b = { 0 };
	int hit = 0, rc;
	char *eq;
	int64_t v;

	rc = ju_env(line, &b);
	if (!rc)
		rc = ju_keywords(&b, ctx, &hit);
	if (rc) {
		free(b.s);
		return rc;
	}
	/* fio evaluates the value only when a keyword was replaced, the line holds an
	 * operator and no quote */
	eq = strchr(b.s, '=');
	if (hit && eq && strpbrk(b.s, "+-*/") && !strchr(b.s, '\'')) {
		char num[32];

		if (job_calc(eq + 1, &v)) {
			snprintf(why, wl, "cannot evaluate '%s'", eq + 1);
			free(b.s);
			return -EINVAL;
		}
		snprintf(num, sizeof(num), "%lld", (long long)v);
		eq[1] = '\0';
		b.len = (size_t)(eq + 1 - b.s);
		if (ju_put(&b, num, strlen(num))) {
			free(b.s);
			return -ENOMEM;
		}
	}
	*out = b.s;
	return 0;
}

/* ---- integer arithmetic, recursive descent:
 *   expr := term (('+'|'-') term)*
 *   term := power (('*'|'/'|'%') power)*
 *   power := unary ('^' power)?          (right-associative, as bc)
 *   unary := '-' unary | '(' expr ')' | digits
 * bc gives unary minus a higher precedence than '^' ("-2^2" is 4); so do we. */

struct ju_calc {
	const char *p;
	int err;
};

static void jc_blank(struct ju_calc *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static int64_t jc_expr(struct ju_calc *c, unsigned depth);

static int64_t jc_unary(struct ju_calc *c, unsigned depth)
{
	uint64_t v;
	int64_t x;

	jc_blank(c);
	if (depth > 64) {
		c->err = 1;
		return 0;
	}
	if (*c->p == '-') {
		c->p++;
		x = jc_unary(c, depth + 1);
		if (x == INT64_MIN)
			c->err = 1;
		return c->err ? 0 : -x;
	}
	if (*c->p == '(') {
		c->p++;
		x = jc_expr(c, depth + 1);
		jc_blank(c);
		if (*c->p != ')')
			c->err = 1;
		else
			c->p++;
		return x;
	}
	if (ju_digits(&c->p, 10, &v) <= 0 || v > (uint64_t)INT64_MAX) {
		c->err = 1;
		return 0;
	}
	return (int64_t)v;
}

static int64_t jc_power(struct ju_calc *c, unsigned depth)
{
	int64_t b = jc_unary(c, depth), e, r = 1;

	jc_blank(c);
	if (c->err || *c->p != '^')
		return b;
	c->p++;
	e = jc_power(c, depth + 1);
	if (c->err)
		return 0;
	/* |b| <= 1 never overflows (and would loop e times); bc's integer b^-e is 0
	 * unless |b| is 1 */
	if (b == 1 || b == 0)
		return e == 0 ? 1 : e > 0 ? b : b == 1 ? 1 : 0;
	if (b == -1)
		return (e % 2) ? -1 : 1;
	if (e < 0)
		return 0;
	while (e--) {
		if (__builtin_mul_overflow(r, b, &r)) {
			c->err = 1;
			return 0;
		}
	}
	return r;
}

static int64_t jc_term(struct ju_calc *c, unsigned depth)
{
	int64_t a = jc_power(c, depth), b;

	for (;;) {
		char op;

		jc_blank(c);
		op = *c->p;
		if (c->err || (op != '*' && op != '/' && op != '%'))
			return a;
		c->p++;
		b = jc_power(c, depth);
		if (c->err)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(a, b, &a))
				c->err = 1;
		} else if (b == 0 || (a == INT64_MIN && b == -1)) {
			c->err = 1;
		} else {
			a = op == '/' ? a / b : a % b;	/* C truncates toward zero, as bc */
		}
	}
}

static int64_t jc_expr(struct ju_calc *c, unsigned depth)
{
	int64_t a = jc_term(c, depth), b;

	for (;;) {
		char op;

		jc_blank(c);
		op = *c->p;
		if (c->err || (op != '+' && op != '-'))
			return a;
		c->p++;
		b = jc_term(c, depth);
		if (c->err)
			return 0;
		if (op == '+' ? __builtin_add_overflow(a, b, &a) : __builtin_sub_overflow(a, b, &a))
			c->err = 1;
	}
}

int job_calc(const char *expr, int64_t *out)
{
	struct ju_calc c = { expr, 0 };
	int64_t v = jc_expr(&c, 0);

	jc_blank(&c);
	if (c.err || *c.p)
		return -EINVAL;
	*out = v;
	return 0;
}
