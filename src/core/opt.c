/* opt.c - the declarative option parser. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/opt.h"
#include "core/units.h"
#include "core/kv.h"

static const struct opt *find_long(const struct opt_group *g, int ng, const char *name,
				   size_t len, void **base)
{
	int i;
	const struct opt *o;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++)
			if (strlen(o->name) == len && !strncmp(o->name, name, len)) {
				*base = g[i].base;
				return o;
			}
	return NULL;
}

static const struct opt *find_short(const struct opt_group *g, int ng, int c, void **base)
{
	int i;
	const struct opt *o;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++)
			if (o->letter == c) {
				*base = g[i].base;
				return o;
			}
	return NULL;
}

/* Store the value text for option o into the struct at base. 0 or -EINVAL. */
static int store(const struct opt *o, void *base, const char *val)
{
	char *p = (char *)base + o->off;
	uint64_t u;
	char *end;
	int rc = 0;

	switch (o->type) {
	case OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case OPT_STR:
		*(const char **)p = val;
		return 0;
	case OPT_U64:
	case OPT_UINT:
		rc = units_parse_u64(val, &u);
		if (!rc && o->type == OPT_UINT && u > UINT32_MAX)
			rc = -ERANGE;
		if (!rc) {
			if (o->type == OPT_U64)
				*(uint64_t *)p = u;
			else
				*(unsigned *)p = (unsigned)u;
		}
		break;
	case OPT_SIZE:
		rc = units_parse_size(val, 1, &u);
		if (!rc)
			*(uint64_t *)p = u;
		break;
	case OPT_DOUBLE:
		errno = 0;
		*(double *)p = strtod(val, &end);
		if (errno || end == val || *end)
			rc = -EINVAL;
		break;
	default:
		rc = -EINVAL;
	}
	if (rc) {
		err_msg("bad value for --%s: '%s': %s", o->name, val,
			rc == -ERANGE ? "out of range" : "not a valid number");
		return -EINVAL;
	}
	return 0;
}

int opt_parse(const struct opt_group *g, int ng, int argc, char **argv, char ***operands)
{
	char **ops = calloc((size_t)argc + 1, sizeof(*ops));
	int nops = 0, i, dashdash = 0;

	if (!ops)
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const struct opt *o;
		const char *val = NULL;
		void *base = NULL;

		if (dashdash || a[0] != '-' || !a[1]) {
			ops[nops++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			free(ops);
			return -ECANCELED;
		}
		if (a[1] == '-') {
			char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);

			o = find_long(g, ng, a + 2, len, &base);
			if (!o) {
				err_msg("unknown option: '%s'", a);
				goto bad;
			}
			if (eq) {
				if (o->type == OPT_FLAG) {
					err_msg("option takes no value: '--%s'", o->name);
					goto bad;
				}
				val = eq + 1;
			}
		} else {
			o = find_short(g, ng, a[1], &base);
			if (!o || (a[2] && o->type == OPT_FLAG)) {
				err_msg("unknown option: '%s'", a);
				goto bad;
			}
			if (a[2])
				val = a + 2;
		}
		if (o->type != OPT_FLAG && !val) {
			if (i + 1 >= argc) {
				err_msg("option needs a value: '--%s'", o->name);
				goto bad;
			}
			val = argv[++i];
		}
		if (store(o, base, val) < 0)
			goto bad;
	}
	ops[nops] = NULL;
	*operands = ops;
	return nops;
bad:
	free(ops);
	return -EINVAL;
}

void opt_help(FILE *f, const struct opt_group *g, int ng)
{
	int i;
	const struct opt *o;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++) {
			char left[64];

			if (o->letter)
				snprintf(left, sizeof(left), "-%c, --%s%s%s", o->letter, o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			else
				snprintf(left, sizeof(left), "    --%s%s%s", o->name,
					 o->arg ? " " : "", o->arg ? o->arg : "");
			fprintf(f, "  %-28s %s\n", left, o->help);
		}
}

int opt_record(const struct opt_group *g, int ng, struct kvlist *l)
{
	int i, rc = 0;
	const struct opt *o;

	for (i = 0; i < ng; i++)
		for (o = g[i].opts; o->name; o++) {
			const char *p = (const char *)g[i].base + o->off;

			switch (o->type) {
			case OPT_FLAG:
				rc = kv_set(l, o->name, "%s", *(const int *)p ? "true" : "false");
				break;
			case OPT_STR:
				if (*(const char *const *)p)
					rc = kv_set(l, o->name, "%s", *(const char *const *)p);
				break;
			case OPT_U64:
			case OPT_SIZE:
				rc = kv_set(l, o->name, "%" PRIu64, *(const uint64_t *)p);
				break;
			case OPT_UINT:
				rc = kv_set(l, o->name, "%u", *(const unsigned *)p);
				break;
			case OPT_DOUBLE:
				rc = kv_set(l, o->name, "%g", *(const double *)p);
				break;
			default:
				break;
			}
			if (rc)
				return rc;
		}
	return 0;
}
