/* registry.c - the table of engines. Add an engine: one line here (behind its HAVE_*). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

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

int engine_open(const struct engine *e, void *ctx, const char *path, int flags, mode_t mode)
{
	int fd;

	if (e->open)
		return e->open(ctx, path, flags, mode);
	fd = open(path, flags | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int engine_close(const struct engine *e, void *ctx, int fd)
{
	if (e->close)
		return e->close(ctx, fd);
	return close(fd) < 0 ? -errno : 0;
}
