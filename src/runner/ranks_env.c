/* ranks_env.c - every rank's environment (host, target, file system, device ...) to
 * rank 0, as text lines "key=value" in the order of env_fields[], so that a rank on
 * another file system or another kind of host is visible in the one result. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comm/comm.h"
#include "runner/ranks_int.h"
#include "stats/result.h"

/* The string fields of struct env, by offset. */
static const size_t env_fields[] = {
	offsetof(struct env, tool_version), offsetof(struct env, date),
	offsetof(struct env, host), offsetof(struct env, os), offsetof(struct env, kernel),
	offsetof(struct env, arch), offsetof(struct env, cpu_model),
	offsetof(struct env, target), offsetof(struct env, fs_type),
	offsetof(struct env, mount_opts), offsetof(struct env, mount_point),
	offsetof(struct env, device), offsetof(struct env, device_model),
	offsetof(struct env, scheduler),
};
#define NFIELDS (sizeof(env_fields) / sizeof(env_fields[0]))

static char **field(struct env *e, size_t i)
{
	return (char **)((char *)e + env_fields[i]);
}

/* One line per string field (newlines in values become spaces; "\x01" for NULL), then
 * the numbers. Caller frees. */
static char *env_text(struct env *e, size_t *len)
{
	size_t cap = 128, used = 0, i, k;
	char *s;

	for (i = 0; i < NFIELDS; i++)
		cap += (*field(e, i) ? strlen(*field(e, i)) : 1) + 1;
	s = malloc(cap);
	if (!s)
		return NULL;
	for (i = 0; i < NFIELDS; i++) {
		const char *v = *field(e, i) ? *field(e, i) : "\x01";

		for (k = 0; v[k]; k++)
			s[used++] = v[k] == '\n' ? ' ' : v[k];
		s[used++] = '\n';
	}
	used += (size_t)snprintf(s + used, cap - used, "%u %" PRIu64 " %d %d\n", e->ncpu,
				 e->ram_bytes, e->rotational, e->virtualized);
	*len = used;
	return s;
}

/* Parse one rank's text into e. 0 or -ENOMEM (a short text leaves fields NULL). */
static int env_parse(struct env *e, const char *s, size_t len)
{
	const char *end = s + len, *p = s;
	size_t i;

	memset(e, 0, sizeof(*e));
	e->rotational = e->virtualized = -1;
	for (i = 0; i < NFIELDS && p < end; i++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);

		if (!(n == 1 && *p == '\x01')) {
			char *v = malloc(n + 1);

			if (!v)
				return -ENOMEM;
			memcpy(v, p, n);
			v[n] = 0;
			*field(e, i) = v;
		}
		p += n + 1;
	}
	if (p < end) {
		char tail[96];
		size_t n = (size_t)(end - p);

		if (n > sizeof(tail) - 1)
			n = sizeof(tail) - 1;
		memcpy(tail, p, n);
		tail[n] = 0;
		if (sscanf(tail, "%u %" SCNu64 " %d %d", &e->ncpu, &e->ram_bytes, &e->rotational,
			   &e->virtualized) != 4)
			e->rotational = e->virtualized = -1;
	}
	return 0;
}

int ranks_merge_envs(struct run *run)
{
	unsigned n = comm_size(), r;
	size_t *lens = calloc(n, sizeof(*lens)), len = 0, off = 0;
	char *mine = env_text(&run->env, &len);
	void *all = NULL;
	int e;

	if (!lens)
		comm_abort(1);	/* the others wait in the gather */
	e = comm_gatherv(mine ? mine : "", mine ? len : 0, &all, lens);
	free(mine);
	if (e == 0 && comm_rank() == 0) {
		run->ranks = calloc(n, sizeof(*run->ranks));
		if (!run->ranks)
			e = -ENOMEM;
		for (r = 0; e == 0 && r < n; off += lens[r], r++) {
			struct run_rank *k = &run->ranks[r];

			k->rank = r;
			run->nranks = r + 1;
			e = env_parse(&k->env, (const char *)all + off, lens[r]);
			k->fs_differs = r && k->env.fs_type && run->ranks[0].env.fs_type &&
					strcmp(k->env.fs_type, run->ranks[0].env.fs_type) != 0;
		}
	}
	free(all);
	free(lens);
	return e;
}
