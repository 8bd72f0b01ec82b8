/* t_sysinfo.c - environment detection fails soft and fills what it can: version, date
 * in ISO 8601 UTC, target path; on Linux the file system of "/" and of /proc. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "observe/sysinfo.h"
#include "stats/result.h"
#include "test.h"

static void env_clear(struct env *e)
{
	char **s[] = { &e->tool_version, &e->date, &e->host, &e->os, &e->kernel, &e->arch,
		       &e->cpu_model, &e->target, &e->fs_type, &e->mount_opts, &e->mount_point,
		       &e->device, &e->device_model, &e->scheduler };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		free(*s[i]);
		*s[i] = NULL;
	}
}

static void t_fill(void)
{
	struct env e;

	memset(&e, 0, sizeof(e));
	CHECK(sysinfo_fill(&e, ".") == 0);
	CHECK(e.tool_version && strcmp(e.tool_version, IOB_VERSION) == 0);
	CHECK(e.date && strlen(e.date) == 20 && e.date[10] == 'T' && e.date[19] == 'Z');
	CHECK(e.target && e.target[0] == '/');
	CHECK(e.rotational >= -1 && e.rotational <= 1);
	CHECK(e.virtualized >= -1 && e.virtualized <= 1);
#ifdef __linux__
	CHECK(e.kernel != NULL && e.arch != NULL);
	CHECK(e.ncpu > 0);
	CHECK(e.ram_bytes > 0 && e.ram_bytes == sysinfo_ram());
#endif
#ifdef HAVE_LINUX_PROCFS	/* not in a --posix-only build: the target stays unknown */
	CHECK(e.fs_type != NULL && e.mount_point != NULL && e.mount_opts != NULL);
#else
	CHECK(e.fs_type == NULL && e.device == NULL);
#endif
	/* a second fill replaces the strings (no leak, no crash) */
	CHECK(sysinfo_fill(&e, "/proc") == 0);
#ifdef HAVE_LINUX_PROCFS
	CHECK(e.fs_type && strcmp(e.fs_type, "proc") == 0);
	CHECK(e.mount_point && strcmp(e.mount_point, "/proc") == 0);
	CHECK(e.device == NULL && e.scheduler == NULL && e.rotational == -1);
#endif
	env_clear(&e);
	CHECK(sysinfo_fill(&e, "/nonexistent/dir/x") == 0);
	CHECK(e.target != NULL);
	env_clear(&e);
	CHECK(sysinfo_fill(&e, NULL) == 0);
	CHECK(e.target == NULL);
	env_clear(&e);
}

static void t_device_of(void)
{
	char buf[64];

	CHECK(sysinfo_device_of("/nonexistent/x", buf, sizeof(buf)) < 0);
	CHECK(buf[0] == '\0');
	CHECK(sysinfo_device_of("/proc", buf, sizeof(buf)) < 0);	/* no block device */
	if (sysinfo_device_of(".", buf, sizeof(buf)) == 0)
		CHECK(buf[0] != '\0' && strchr(buf, '/') == NULL);
}

int main(void)
{
	RUN(t_fill);
	RUN(t_device_of);
	return test_done();
}
