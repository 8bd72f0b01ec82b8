/* memlimit.c - the page cache's ceiling: RAM, or a smaller cgroup memory limit. See
 * memlimit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "observe/memlimit.h"
#include "observe/sysinfo.h"

#ifdef __linux__
/* The number in file path (a limit in bytes), or 0 for "max", a missing file or junk. */
static uint64_t read_limit(const char *path)
{
	FILE *f = fopen(path, "re");
	char buf[64];
	uint64_t v = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9')
		v = strtoull(buf, NULL, 10);
	fclose(f);
	return v;
}

/* The smallest limit in file name of the directories from root+cg up to root. */
static uint64_t walk(const char *root, const char *cg, const char *name)
{
	char dir[1024], path[1200], *slash;
	uint64_t best = 0, v;

	if (snprintf(dir, sizeof(dir), "%s%s", root, cg) >= (int)sizeof(dir))
		return 0;
	for (;;) {
		size_t n = strlen(dir);

		while (n > strlen(root) && dir[n - 1] == '/')
			dir[--n] = '\0';
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		v = read_limit(path);
		if (v && (!best || v < best))
			best = v;
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < strlen(root))
			break;
		*slash = '\0';
	}
	return best;
}

/* The limit of this process's cgroups (v2 and v1 memory), 0 when none. */
static uint64_t cgroup_limit(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[1024];
	uint64_t best = 0, v;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		c2[strcspn(c2, "\n")] = '\0';
		v = 0;
		if (c1[1] == ':') {		/* "0::/path": v2 */
			v = walk("/sys/fs/cgroup", c2 + 1, "memory.max");
			if (!v)
				v = walk("/sys/fs/cgroup/unified", c2 + 1, "memory.max");
		} else if (!strncmp(c1 + 1, "memory:", 7)) {
			v = walk("/sys/fs/cgroup/memory", c2 + 1, "memory.limit_in_bytes");
		}
		if (v && (!best || v < best))
			best = v;
	}
	fclose(f);
	return best;
}
#endif

uint64_t memlimit_cache_bytes(int *limited)
{
	uint64_t ram = sysinfo_ram(), lim = 0;

	if (limited)
		*limited = 0;
#ifdef __linux__
	lim = cgroup_limit();
#endif
	if (lim && (!ram || lim < ram)) {
		if (limited)
			*limited = 1;
		return lim;
	}
	return ram;
}
