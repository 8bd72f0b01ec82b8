/* affinity.c - see affinity.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/affinity.h"

#ifdef __linux__
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AFF_MAX	1024

/* The numbers of a list "0-3,8" as bits of set (below AFF_MAX). 0 or -EINVAL. */
static int aff_list(const char *s, unsigned char set[AFF_MAX / 8])
{
	memset(set, 0, AFF_MAX / 8);
	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo, i;

		if (end == s)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			hi = strtoul(s + 1, &end, 10);
			if (end == s + 1)
				return -EINVAL;
			s = end;
		}
		if (hi < lo || hi >= AFF_MAX)
			return -EINVAL;
		for (i = lo; i <= hi; i++)
			set[i / 8] |= (unsigned char)(1u << (i % 8));
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
		else if (*s)
			break;
	}
	return 0;
}

int affinity_set(const char *list, int pick)
{
	unsigned char set[AFF_MAX / 8];
	cpu_set_t cs;
	unsigned i, n = 0, k = 0;

	if (aff_list(list, set))
		return -EINVAL;
	for (i = 0; i < AFF_MAX; i++)
		n += (set[i / 8] >> (i % 8)) & 1;
	if (!n)
		return -EINVAL;
	CPU_ZERO(&cs);
	for (i = 0; i < AFF_MAX && i < CPU_SETSIZE; i++) {
		if (!((set[i / 8] >> (i % 8)) & 1))
			continue;
		if (pick < 0 || k++ == (unsigned)pick % n)
			CPU_SET(i, &cs);
	}
	return sched_setaffinity(0, sizeof(cs), &cs) ? -errno : 0;
}

int affinity_node_cpus(const char *nodes, char *out, size_t len)
{
	unsigned char set[AFF_MAX / 8];
	size_t o = 0;
	unsigned i;

	if (aff_list(nodes, set))
		return -EINVAL;
	out[0] = '\0';
	for (i = 0; i < AFF_MAX; i++) {
		char path[96], line[512];
		FILE *f;

		if (!((set[i / 8] >> (i % 8)) & 1))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", i);
		f = fopen(path, "re");
		if (!f)
			return -ENOENT;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;	/* a node without CPUs (memory only) */
		if (o + strlen(line) + 2 > len)
			return -ENAMETOOLONG;
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "," : "", line);
	}
	return o ? 0 : -ENOENT;
}

int affinity_mempolicy(const char *policy)
{
	/* the kernel's MPOL_* values (linux/mempolicy.h) */
	enum { POL_DEFAULT, POL_PREFERRED, POL_BIND, POL_INTERLEAVE, POL_LOCAL };
	unsigned long mask[AFF_MAX / (8 * sizeof(unsigned long))] = { 0 };
	unsigned char set[AFF_MAX / 8];
	const char *c = strchr(policy, ':');
	int mode;
	unsigned i;

	if (!strcmp(policy, "default"))
		mode = POL_DEFAULT;
	else if (!strcmp(policy, "local"))
		mode = POL_LOCAL;
	else if (c && !strncmp(policy, "prefer:", 7))
		mode = POL_PREFERRED;
	else if (c && !strncmp(policy, "bind:", 5))
		mode = POL_BIND;
	else if (c && !strncmp(policy, "interleave:", 11))
		mode = POL_INTERLEAVE;
	else
		return -EINVAL;
	if (c) {
		if (aff_list(c + 1, set))
			return -EINVAL;
		for (i = 0; i < AFF_MAX; i++)
			if ((set[i / 8] >> (i % 8)) & 1)
				mask[i / (8 * sizeof(unsigned long))] |=
					1ul << (i % (8 * sizeof(unsigned long)));
	}
#ifdef SYS_set_mempolicy
	if (syscall(SYS_set_mempolicy, mode, c ? mask : NULL,
		    c ? (unsigned long)AFF_MAX + 1 : 0ul))
		return -errno;
	return 0;
#else
	(void)mode;
	return -ENOSYS;
#endif
}

int affinity_ioprio(unsigned cls, unsigned level)
{
#ifdef SYS_ioprio_set
	/* IOPRIO_WHO_PROCESS (1) with 0: the calling thread */
	if (cls > 3 || level > 7)
		return -EINVAL;
	if (syscall(SYS_ioprio_set, 1, 0, (int)(cls << 13 | level)))
		return -errno;
	return 0;
#else
	(void)cls;
	(void)level;
	return -ENOSYS;
#endif
}

#else	/* not Linux */

int affinity_set(const char *list, int pick)
{
	(void)list;
	(void)pick;
	return -ENOSYS;
}

int affinity_node_cpus(const char *nodes, char *out, size_t len)
{
	(void)nodes;
	(void)out;
	(void)len;
	return -ENOSYS;
}

int affinity_mempolicy(const char *policy)
{
	(void)policy;
	return -ENOSYS;
}

int affinity_ioprio(unsigned cls, unsigned level)
{
	(void)cls;
	(void)level;
	return -ENOSYS;
}
#endif
