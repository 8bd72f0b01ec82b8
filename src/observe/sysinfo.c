/* sysinfo.c - environment detection: host, OS, CPU, RAM, and the file system, mount and
 * block device behind a target path. Everything fails soft: what cannot be read stays
 * NULL / -1 / 0. Linux sources (HAVE_LINUX_PROCFS): /proc/cpuinfo, /proc/meminfo,
 * /proc/self/mountinfo, /sys/dev/block, /sys/block, /sys/class/dmi/id; BSD sources
 * (HAVE_SYSCTLBYNAME, HAVE_STATFS_FSTYPENAME: sysinfo_bsd.c, untested); everywhere
 * uname, gethostname, sysconf and /etc/os-release. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#endif
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "config.h"
#include "observe/procstat.h"
#include "observe/sysinfo.h"
#include "observe/sysinfo_int.h"
#include "stats/result.h"

/* 1 where the Linux /proc and /sys readers below may run; the code compiles everywhere. */
#ifdef HAVE_LINUX_PROCFS
#define SYSINFO_PROCFS 1
#else
#define SYSINFO_PROCFS 0
#endif

/* Replace *dst with a copy of s (NULL allowed). 0 or -ENOMEM. */
static int set_copy(char **dst, const char *s)
{
	char *c = NULL;

	if (s) {
		c = strdup(s);
		if (!c)
			return -ENOMEM;
	}
	free(*dst);
	*dst = c;
	return 0;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (*p && isspace((unsigned char)*p))
		p++;
	if (p != s)
		memmove(s, p, strlen(p) + 1);
}

/* The first line of a small file, trimmed, into buf. 0 or -errno (-ENODATA if empty). */
static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -ENODATA;
	}
	fclose(f);
	trim(buf);
	return buf[0] ? 0 : -ENODATA;
}

/* Value of the first "key<spaces>: value" line in /proc/cpuinfo, or NULL (malloc'd). */
static char *cpuinfo_value(const char *key, int *has_hypervisor, int *has_flags)
{
	FILE *f = SYSINFO_PROCFS ? fopen("/proc/cpuinfo", "re") : NULL;
	char line[4096];
	char *val = NULL;
	size_t klen = strlen(key);

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!val && strncmp(line, key, klen) == 0 &&
		    (isspace((unsigned char)line[klen]) || line[klen] == ':')) {
			trim(colon + 1);
			if (colon[1])
				val = strdup(colon + 1);
		}
		if (strncmp(line, "flags", 5) == 0 &&
		    (isspace((unsigned char)line[5]) || line[5] == ':')) {
			*has_flags = 1;
			if (strstr(colon, " hypervisor"))
				*has_hypervisor = 1;
		}
		if (val && *has_flags)
			break;
	}
	fclose(f);
	return val;
}

static int count_cpus(void)
{
	long n = -1;

#ifdef _SC_NPROCESSORS_ONLN
	n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
	return n > 0 ? (int)n : 0;
}

uint64_t sysinfo_ram(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (pages > 0 && psz > 0)
		return (uint64_t)pages * (uint64_t)psz;
#endif
#ifdef HAVE_SYSCTLBYNAME
	if (sysinfo_bsd_ram())
		return sysinfo_bsd_ram();
#endif
	{
		FILE *f = SYSINFO_PROCFS ? fopen("/proc/meminfo", "re") : NULL;
		char line[256];
		unsigned long long kb = 0;

		if (!f)
			return 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
				break;
		fclose(f);
		return (uint64_t)kb * 1024u;
	}
}

/* 1 when the DMI system vendor or product names a hypervisor, 0 when it names something
 * else, -1 when unreadable. */
static int dmi_virtualized(void)
{
	static const char *const vm[] = {
		"QEMU", "KVM", "VMware", "innotek", "VirtualBox", "Xen", "Microsoft Corporation",
		"Bochs", "Parallels", "Amazon EC2", "Google Compute Engine", "OpenStack",
		"DigitalOcean", "Hetzner vServer", "BHYVE", "Apple Virtualization", NULL,
	};
	static const char *const files[] = {
		"/sys/class/dmi/id/sys_vendor", "/sys/class/dmi/id/product_name", NULL,
	};
	char buf[256];
	int seen = 0;

#ifdef HAVE_SYSCTLBYNAME
	if (sysinfo_bsd_virtualized() >= 0)
		return sysinfo_bsd_virtualized();
#endif
	for (size_t i = 0; SYSINFO_PROCFS && files[i]; i++) {
		if (read_first_line(files[i], buf, sizeof(buf)) < 0)
			continue;
		seen = 1;
		for (size_t j = 0; vm[j]; j++)
			if (strstr(buf, vm[j]))
				return 1;
	}
	return seen ? 0 : -1;
}

/* "PRETTY_NAME" from /etc/os-release, unquoted, or NULL (malloc'd). */
static char *os_release_name(void)
{
	FILE *f = fopen("/etc/os-release", "re");
	char line[512];
	char *val = NULL;

	if (!f)
		f = fopen("/usr/lib/os-release", "re");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *v;
		size_t n;

		if (strncmp(line, "PRETTY_NAME=", 12) != 0)
			continue;
		v = line + 12;
		trim(v);
		n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		if (*v)
			val = strdup(v);
		break;
	}
	fclose(f);
	return val;
}

static int fill_host(struct env *env)
{
	struct utsname u;
	char buf[HOST_NAME_MAX + 1];
	char date[32];
	time_t now = time(NULL);
	struct tm tm;
	int hyper = 0, flags = 0, dmi, rc = 0;
	char *model, *pretty;

	rc |= set_copy(&env->tool_version, IOB_VERSION);
	if (gmtime_r(&now, &tm) && strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm))
		rc |= set_copy(&env->date, date);
	if (gethostname(buf, sizeof(buf)) == 0) {
		buf[sizeof(buf) - 1] = '\0';
		rc |= set_copy(&env->host, buf);
	}
	if (uname(&u) == 0) {
		pretty = os_release_name();
		if (pretty) {
			char *os = NULL;

			if (asprintf(&os, "%s (%s)", u.sysname, pretty) < 0)
				os = NULL;
			free(pretty);
			if (!os)
				return -ENOMEM;
			free(env->os);
			env->os = os;
		} else {
			rc |= set_copy(&env->os, u.sysname);
		}
		rc |= set_copy(&env->kernel, u.release);
		rc |= set_copy(&env->arch, u.machine);
	}
	model = cpuinfo_value("model name", &hyper, &flags);
	if (!model)
		model = cpuinfo_value("Model", &hyper, &flags);
	if (!model)
		model = cpuinfo_value("cpu model", &hyper, &flags);
#ifdef HAVE_SYSCTLBYNAME
	if (!model)
		model = sysinfo_bsd_cpu_model();
#endif
	if (model) {
		free(env->cpu_model);
		env->cpu_model = model;
	}
	env->ncpu = (unsigned)count_cpus();
	env->ram_bytes = sysinfo_ram();
	dmi = dmi_virtualized();
	if (hyper || dmi == 1)
		env->virtualized = 1;
	else if (flags || dmi == 0)
		env->virtualized = 0;
	else
		env->virtualized = -1;
	return rc ? -ENOMEM : 0;
}

/* Undo mountinfo's octal escapes (\040 for space ...) in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Is mount point mp a path prefix of path (both absolute)? */
static int path_under(const char *path, const char *mp)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	return strncmp(path, mp, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* Append the comma-separated options of add that opts does not hold yet. */
static void merge_opts(char *opts, size_t len, char *add)
{
	char *save = NULL, *t;

	for (t = strtok_r(add, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t tl = strlen(t), ol = strlen(opts);
		const char *p = opts;
		int dup = 0;

		while (!dup && (p = strstr(p, t)) != NULL) {
			dup = (p == opts || p[-1] == ',') && (p[tl] == ',' || p[tl] == '\0');
			p += tl;
		}
		if (dup || ol + 1 + tl + 1 > len)
			continue;
		opts[ol] = ',';
		memcpy(opts + ol + 1, t, tl + 1);
	}
}

struct mount_hit {
	unsigned maj, min;
	char mp[PATH_MAX];
	char fstype[64];
	char source[PATH_MAX];
	char opts[1024];
	int score;			/* 2: device matches; +length of mount point */
	size_t mplen;
};

/* Parse one mountinfo line; 0 when it parsed. Fields:
 * id parent maj:min root mountpoint opts [optional...] - fstype source superopts */
static int parse_mountinfo(char *line, struct mount_hit *m)
{
	char *save = NULL, *tok[6] = { 0 }, *fs, *src, *sopts;
	int i;

	for (i = 0; i < 6; i++) {
		tok[i] = strtok_r(i ? NULL : line, " \n", &save);
		if (!tok[i])
			return -1;
	}
	if (sscanf(tok[2], "%u:%u", &m->maj, &m->min) != 2)
		return -1;
	for (;;) {
		char *t = strtok_r(NULL, " \n", &save);

		if (!t)
			return -1;
		if (strcmp(t, "-") == 0)
			break;
	}
	fs = strtok_r(NULL, " \n", &save);
	src = strtok_r(NULL, " \n", &save);
	sopts = strtok_r(NULL, " \n", &save);
	if (!fs)
		return -1;
	unescape_octal(tok[4]);
	snprintf(m->mp, sizeof(m->mp), "%s", tok[4]);
	snprintf(m->fstype, sizeof(m->fstype), "%s", fs);
	snprintf(m->source, sizeof(m->source), "%s", src ? src : "");
	if (src)
		unescape_octal(m->source);
	snprintf(m->opts, sizeof(m->opts), "%s", tok[5]);
	if (sopts)
		merge_opts(m->opts, sizeof(m->opts), sopts);
	return 0;
}

/* Find the mount holding real path rp with device dev. Returns 0 and fills best. */
static int find_mount(const char *rp, dev_t dev, int have_dev, struct mount_hit *best)
{
	FILE *f = SYSINFO_PROCFS ? fopen("/proc/self/mountinfo", "re") : NULL;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	struct mount_hit *m;

	if (!f)
		return -ENOENT;		/* no mount table to read: the target stays unknown */
	m = malloc(sizeof(*m));
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	best->score = -1;
	while (getline(&line, &cap, f) > 0) {
		int score;

		if (parse_mountinfo(line, m) < 0 || !path_under(rp, m->mp))
			continue;
		m->mplen = strlen(m->mp);
		score = 0;
#ifdef __linux__
		if (have_dev && major(dev) == m->maj && minor(dev) == m->min)
			score = 1 << 20;
#else
		(void)dev;
		(void)have_dev;
#endif
		score += (int)m->mplen;
		/* later lines with the same score are mounts on top: prefer them */
		if (score >= best->score) {
			*best = *m;
			best->score = score;
			found = 1;
		}
	}
	free(line);
	free(m);
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* Resolve a /sys path (a block device or partition directory) to the whole disk's name. */
static int sys_disk_name(const char *sysdir, char *name, size_t len)
{
	char rp[PATH_MAX], part[PATH_MAX];
	struct stat st;
	char *slash;

	if (!realpath(sysdir, rp))
		return -errno;
	if (snprintf(part, sizeof(part), "%s/partition", rp) < (int)sizeof(part) &&
	    stat(part, &st) == 0) {
		slash = strrchr(rp, '/');
		if (slash && slash != rp)
			*slash = '\0';
	}
	slash = strrchr(rp, '/');
	if (!slash || !slash[1])
		return -ENOENT;
	snprintf(name, len, "%s", slash + 1);
	return 0;
}

/* Device name for major:minor, falling back to the mount source ("/dev/sda1"). */
static int device_name(unsigned maj, unsigned min, const char *source, char *name,
		       size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
	if (sys_disk_name(path, name, len) == 0)
		return 0;
	if (source && strncmp(source, "/dev/", 5) == 0) {
		char rp[PATH_MAX];
		const char *base;

		/* /dev/mapper/x and /dev/disk/by-... are links to /dev/dm-N, /dev/sdX */
		base = realpath(source, rp) ? strrchr(rp, '/') + 1 : strrchr(source, '/') + 1;
		snprintf(path, sizeof(path), "/sys/class/block/%s", base);
		if (sys_disk_name(path, name, len) == 0)
			return 0;
	}
	return -ENOENT;
}

/* The bracketed entry of a scheduler line ("mq-deadline [none]" -> "none"). */
static int pick_scheduler(char *line, char *out, size_t len)
{
	char *a = strchr(line, '['), *b;

	if (!a) {
		if (!*line)
			return -ENOENT;
		if (snprintf(out, len, "%s", line) >= (int)len)	/* one entry, no brackets */
			return -ENAMETOOLONG;
		return 0;
	}
	b = strchr(a, ']');
	if (!b)
		return -ENOENT;
	*b = '\0';
	snprintf(out, len, "%s", a + 1);
	return 0;
}

/* The model of the device: "vendor model" from sysfs; a loop device's backing file; a
 * device-mapper name; or the driver (virtio has no model file). Empty when unknown. */
static void device_model(const char *disk, char *model, size_t len)
{
	char path[PATH_MAX], buf[256], vendor[128] = "", drv[PATH_MAX];

	model[0] = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", disk);
	if (read_first_line(path, drv, sizeof(drv)) == 0) {
		if (snprintf(model, len, "loop: %s", drv) >= (int)len)
			model[len - 1] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/device/vendor", disk);
	read_first_line(path, vendor, sizeof(vendor));
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", disk);
	if (read_first_line(path, buf, sizeof(buf)) == 0) {
		snprintf(model, len, "%.127s%s%.255s", vendor, *vendor ? " " : "", buf);
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/dm/name", disk);
	if (read_first_line(path, buf, sizeof(buf)) == 0) {
		snprintf(model, len, "device-mapper: %.255s", buf);
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/%s/device/driver", disk);
	if (realpath(path, drv)) {
		const char *d = strrchr(drv, '/') + 1;

		if (*vendor)
			snprintf(model, len, "%.127s (vendor %.127s)", d, vendor);
		else
			snprintf(model, len, "%.127s", d);
		return;
	}
	if (*vendor)
		snprintf(model, len, "%.127s", vendor);
}

static int fill_device(struct env *env, const char *disk)
{
	char path[PATH_MAX], buf[256], model[512];
	int rc = 0;

	rc |= set_copy(&env->device, disk);
	device_model(disk, model, sizeof(model));
	if (model[0])
		rc |= set_copy(&env->device_model, model);
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational", disk);
	if (read_first_line(path, buf, sizeof(buf)) == 0 && (buf[0] == '0' || buf[0] == '1'))
		env->rotational = buf[0] - '0';
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	if (read_first_line(path, buf, sizeof(buf)) == 0 &&
	    pick_scheduler(buf, model, sizeof(model)) == 0)
		rc |= set_copy(&env->scheduler, model);
	return rc ? -ENOMEM : 0;
}

static int fill_target(struct env *env, const char *target)
{
	char rp[PATH_MAX], disk[256];
	struct stat st;
	struct mount_hit *m;
	int have_dev, rc = 0;

	/* nothing of an earlier target may survive */
	set_copy(&env->fs_type, NULL);
	set_copy(&env->mount_opts, NULL);
	set_copy(&env->mount_point, NULL);
	set_copy(&env->device, NULL);
	set_copy(&env->device_model, NULL);
	set_copy(&env->scheduler, NULL);
	if (!realpath(target, rp))
		snprintf(rp, sizeof(rp), "%s", target);
	if (set_copy(&env->target, rp) < 0)
		return -ENOMEM;
	have_dev = stat(rp, &st) == 0;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	if (rp[0] == '/' && find_mount(rp, have_dev ? st.st_dev : 0, have_dev, m) == 0) {
		rc |= set_copy(&env->fs_type, m->fstype);
		rc |= set_copy(&env->mount_opts, m->opts);
		rc |= set_copy(&env->mount_point, m->mp);
		if (device_name(m->maj, m->min, m->source, disk, sizeof(disk)) == 0)
			rc |= fill_device(env, disk);
	}
#ifdef HAVE_STATFS_FSTYPENAME
	else if (rp[0] == '/')
		rc |= sysinfo_bsd_target(env, rp);
#endif
	free(m);
	return rc ? -ENOMEM : 0;
}

int sysinfo_fill(struct env *env, const char *target)
{
	int rc;

	env->rotational = -1;
	env->virtualized = -1;
	rc = fill_host(env);
	if (rc < 0)
		return rc;
	if (target && *target)
		return fill_target(env, target);
	return 0;
}

int sysinfo_device_of(const char *path, char *buf, unsigned long len)
{
	char rp[PATH_MAX];
	struct stat st;
	struct mount_hit *m;
	int rc;

	if (!buf || !len)
		return -EINVAL;
	buf[0] = '\0';
	if (!realpath(path, rp))
		return -errno;
	if (stat(rp, &st) < 0)
		return -errno;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = find_mount(rp, st.st_dev, 1, m);
	if (rc == 0)
		rc = device_name(m->maj, m->min, m->source, buf, len);
	free(m);
#ifdef HAVE_STATFS_FSTYPENAME
	if (rc == -ENOENT)
		rc = sysinfo_bsd_device_of(rp, buf, len);
#endif
	return rc;
}

/* Linux's magic numbers (linux/magic.h), written out: the header is not everywhere. */
#define SYSINFO_TMPFS_MAGIC	0x01021994L
#define SYSINFO_RAMFS_MAGIC	0x858458f6L

int sysinfo_memory_fs(const char *path, const char *fs_type)
{
#ifdef HAVE_LINUX_PROCFS
	struct statfs sf;

	if (path && statfs(path, &sf) == 0)
		return (long)sf.f_type == SYSINFO_TMPFS_MAGIC ||
		       (long)(unsigned)sf.f_type == SYSINFO_RAMFS_MAGIC;
#else
	(void)path;
#endif
	return fs_type && (!strcmp(fs_type, "tmpfs") || !strcmp(fs_type, "ramfs") ||
			   !strcmp(fs_type, "mfs"));
}

uint64_t sysinfo_mem_available(void)
{
	struct procstat_reader r;
	struct procstat_mem m;
	uint64_t v = 0;

	procstat_init(&r);
	if (procstat_read_mem(&r, &m) > 0 && (m.have & PROCSTAT_HAVE_AVAILABLE))
		v = m.mem_available;
	(void)procstat_close(&r);
	return v;
}
