/* sysinfo_bsd.c - sysinfo's BSD sources: RAM (hw.physmem), the CPU model (hw.model), a
 * hypervisor (kern.vm_guest), and a path's file system, mount point, mount options and
 * device from statfs's f_fstypename, f_mntonname, f_flags and f_mntfromname.
 * UNTESTED: written for FreeBSD (most of it also fits NetBSD's statvfs-era names, OpenBSD
 * and macOS) and compiled only where configure finds the interfaces (HAVE_SYSCTLBYNAME,
 * HAVE_STATFS_FSTYPENAME); no Linux build compiles it, so no test here has run it. Every
 * call fails soft, as the Linux readers do. See sysinfo_int.h. */
#include "config.h"

#if defined(HAVE_SYSCTLBYNAME) || defined(HAVE_STATFS_FSTYPENAME)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "observe/sysinfo_int.h"
#include "stats/result.h"
#endif

#ifdef HAVE_SYSCTLBYNAME
#include <sys/sysctl.h>

uint64_t sysinfo_bsd_ram(void)
{
	unsigned long mem = 0;
	size_t len = sizeof(mem);

	if (sysctlbyname("hw.physmem", &mem, &len, NULL, 0) < 0)
		return 0;
	return (uint64_t)mem;
}

char *sysinfo_bsd_cpu_model(void)
{
	char buf[256];
	size_t len = sizeof(buf) - 1;

	if (sysctlbyname("hw.model", buf, &len, NULL, 0) < 0 || !len)
		return NULL;
	buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = '\0';
	return buf[0] ? strdup(buf) : NULL;
}

int sysinfo_bsd_virtualized(void)
{
	char buf[64];
	size_t len = sizeof(buf) - 1;

	/* FreeBSD: "none" on bare metal, else the hypervisor ("kvm", "vmware", "xen" ...) */
	if (sysctlbyname("kern.vm_guest", buf, &len, NULL, 0) < 0 || !len)
		return -1;
	buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = '\0';
	return strcmp(buf, "none") != 0;
}
#endif /* HAVE_SYSCTLBYNAME */

#ifdef HAVE_STATFS_FSTYPENAME
#include <sys/param.h>
#include <sys/mount.h>

/* "rw,noatime,softupdates" from the mount flags the system defines. */
static void mount_flags(char *buf, size_t len, unsigned long long fl)
{
	static const struct {
		unsigned long long bit;
		const char *name;
	} names[] = {
#ifdef MNT_NOATIME
		{ MNT_NOATIME, "noatime" },
#endif
#ifdef MNT_SYNCHRONOUS
		{ MNT_SYNCHRONOUS, "sync" },
#endif
#ifdef MNT_ASYNC
		{ MNT_ASYNC, "async" },
#endif
#ifdef MNT_NOEXEC
		{ MNT_NOEXEC, "noexec" },
#endif
#ifdef MNT_NOSUID
		{ MNT_NOSUID, "nosuid" },
#endif
#ifdef MNT_SOFTDEP
		{ MNT_SOFTDEP, "softupdates" },
#endif
#ifdef MNT_SUJ
		{ MNT_SUJ, "journaled-softupdates" },
#endif
#ifdef MNT_GJOURNAL
		{ MNT_GJOURNAL, "gjournal" },
#endif
#ifdef MNT_LOCAL
		{ MNT_LOCAL, "local" },
#endif
		{ 0, NULL },
	};
	size_t i;

#ifdef MNT_RDONLY
	snprintf(buf, len, "%s", fl & MNT_RDONLY ? "ro" : "rw");
#else
	snprintf(buf, len, "rw");
#endif
	for (i = 0; names[i].name; i++)
		if (fl & names[i].bit)
			snprintf(buf + strlen(buf), len - strlen(buf), ",%s", names[i].name);
}

/* "/dev/ada0p2" -> "ada0p2"; NULL for a source that is no device (a ZFS dataset
 * "zroot/ROOT/default", "tmpfs", "map -hosts"). */
static const char *dev_name(const char *from)
{
	return strncmp(from, "/dev/", 5) ? NULL : from + 5;
}

int sysinfo_bsd_target(struct env *env, const char *path)
{
	struct statfs sf;
	char opts[256];
	const char *d;
	int rc = 0;

	if (statfs(path, &sf) < 0)
		return 0;	/* fails soft: the fields stay unknown */
	mount_flags(opts, sizeof(opts), (unsigned long long)sf.f_flags);
	rc |= str_set(&env->fs_type, sf.f_fstypename);
	rc |= str_set(&env->mount_point, sf.f_mntonname);
	rc |= str_set(&env->mount_opts, opts);
	d = dev_name(sf.f_mntfromname);
	if (d)
		rc |= str_set(&env->device, d);
	return rc ? -ENOMEM : 0;
}

int sysinfo_bsd_device_of(const char *path, char *buf, size_t len)
{
	struct statfs sf;
	const char *d;

	if (statfs(path, &sf) < 0)
		return -errno;
	d = dev_name(sf.f_mntfromname);
	if (!d)
		return -ENODEV;
	snprintf(buf, len, "%s", d);
	return 0;
}
#endif /* HAVE_STATFS_FSTYPENAME */
