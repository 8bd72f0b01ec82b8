/* registry.c - the table of engines. Add an engine: one line here (behind its HAVE_*). */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "engine/engine.h"

static const struct engine *const engines[] = {
	&engine_psync,
	&engine_null,
	NULL,
};

const struct engine *engine_find(const char *name)
{
	size_t i;

	for (i = 0; engines[i]; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const struct engine *const *engine_list(void)
{
	return engines;
}

char *engine_names(char *buf, size_t len)
{
	size_t i, used = 0;

	if (!len)
		return buf;
	buf[0] = 0;
	for (i = 0; engines[i]; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", engines[i]->name);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}
