/* features.c - the one list of what this build has, from configure's HAVE_* macros in
 * config.h: `iobattery --version` prints it, and tests read it to skip (exit 77) what the
 * binary lacks. Add a line to the table when configure gains a probe. See features.h. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/features.h"

/* One macro per feature: 1 when configure defined HAVE_X. */
#ifdef HAVE_LIBURING
#define F_URING 1
#else
#define F_URING 0
#endif
#ifdef HAVE_LIBAIO
#define F_LIBAIO 1
#else
#define F_LIBAIO 0
#endif
#ifdef HAVE_MMAP
#define F_MMAP 1
#else
#define F_MMAP 0
#endif
#ifdef HAVE_LIBPQ
#define F_LIBPQ 1
#else
#define F_LIBPQ 0
#endif
#ifdef HAVE_MPI
#define F_MPI 1
#else
#define F_MPI 0
#endif
#ifdef HAVE_NCURSES
#define F_NCURSES 1
#else
#define F_NCURSES 0
#endif
#ifdef HAVE_XLSXWRITER
#define F_XLSX 1
#else
#define F_XLSX 0
#endif
#ifdef HAVE_CACHESTAT
#define F_CACHESTAT 1
#else
#define F_CACHESTAT 0
#endif
#ifdef HAVE_MINCORE
#define F_MINCORE 1
#else
#define F_MINCORE 0
#endif
#ifdef HAVE_COPY_FILE_RANGE
#define F_CFR 1
#else
#define F_CFR 0
#endif
#ifdef HAVE_SENDFILE
#define F_SENDFILE 1
#else
#define F_SENDFILE 0
#endif
#ifdef HAVE_FIEMAP
#define F_FIEMAP 1
#else
#define F_FIEMAP 0
#endif
#ifdef HAVE_XATTR
#define F_XATTR 1
#else
#define F_XATTR 0
#endif
#ifdef HAVE_SYNCFS
#define F_SYNCFS 1
#else
#define F_SYNCFS 0
#endif
#ifdef HAVE_O_DIRECT
#define F_ODIRECT 1
#else
#define F_ODIRECT 0
#endif
#ifdef HAVE_POSIX_FADVISE
#define F_FADVISE 1
#else
#define F_FADVISE 0
#endif
#ifdef HAVE_FDATASYNC
#define F_FDATASYNC 1
#else
#define F_FDATASYNC 0
#endif
#ifdef HAVE_DISKSTATS
#define F_DISKSTATS 1
#else
#define F_DISKSTATS 0
#endif
#ifdef HAVE_DEVSTAT
#define F_DEVSTAT 1
#else
#define F_DEVSTAT 0
#endif
#ifdef HAVE_PROC_STAT
#define F_PROCSTAT 1
#else
#define F_PROCSTAT 0
#endif
#ifdef HAVE_KERN_CP_TIME
#define F_CPTIME 1
#else
#define F_CPTIME 0
#endif
#ifdef HAVE_PROC_TASKS
#define F_WAITSTATE 1
#else
#define F_WAITSTATE 0
#endif
#ifdef HAVE_LINUX_PROCFS
#define F_PROCFS 1
#else
#define F_PROCFS 0
#endif
#ifdef HAVE_STATFS_FSTYPENAME
#define F_FSTYPENAME 1
#else
#define F_FSTYPENAME 0
#endif
#ifdef HAVE_SYSCTLBYNAME
#define F_SYSCTL 1
#else
#define F_SYSCTL 0
#endif
#if defined(HAVE_CRC32C_SSE42) || defined(HAVE_CRC32C_ARMV8)
#define F_CRC32C_HW 1
#else
#define F_CRC32C_HW 0
#endif
#ifdef HAVE_PUNCH_HOLE
#define F_PUNCH 1
#else
#define F_PUNCH 0
#endif
#ifdef HAVE_BLKDISCARD
#define F_BLKDISCARD 1
#else
#define F_BLKDISCARD 0
#endif
#ifdef IOB_POSIX_ONLY
#define F_POSIX_ONLY 1
#else
#define F_POSIX_ONLY 0
#endif

static const struct feature table[] = {
	{ "io_uring", F_URING, "the io_uring engine (liburing)" },
	{ "libaio", F_LIBAIO, "the libaio engine (Linux native AIO)" },
	{ "mmap", F_MMAP, "the mmap engine" },
	{ "libpq", F_LIBPQ, "db --pg and --pg-local (PostgreSQL, loaded when used)" },
	{ "mpi", F_MPI, "runs across ranks with mpirun (iobattery-mpi.so, loaded by a launcher)" },
	{ "ncurses", F_NCURSES, "a live terminal view (--watch; loaded when used)" },
	{ "xlsxwriter", F_XLSX, "spreadsheet output (iozone -b; loaded when used)" },
	{ "cachestat", F_CACHESTAT, "page-cache residency by cachestat(2)" },
	{ "mincore", F_MINCORE, "page-cache residency by mincore(2)" },
	{ "copy_file_range", F_CFR, "cp --method copy_file_range" },
	{ "sendfile", F_SENDFILE, "cp --method sendfile" },
	{ "fiemap", F_FIEMAP, "shared extents (reflinks) by FIEMAP" },
	{ "xattr", F_XATTR, "extended-attribute marks on files iobattery made" },
	{ "syncfs", F_SYNCFS, "syncfs(2) of the target's file system" },
	{ "punch_hole", F_PUNCH, "job trims of files by fallocate(FALLOC_FL_PUNCH_HOLE)" },
	{ "blkdiscard", F_BLKDISCARD, "job trims of block devices by BLKDISCARD" },
	{ "o_direct", F_ODIRECT, "O_DIRECT (direct I/O)" },
	{ "posix_fadvise", F_FADVISE, "dropping a file from the page cache" },
	{ "fdatasync", F_FDATASYNC, "fdatasync(2) (else fsync)" },
	{ "diskstats", F_DISKSTATS, "device counters from /proc/diskstats and /sys/block" },
	{ "devstat", F_DEVSTAT, "device counters from devstat(3) (BSD, untested)" },
	{ "procstat", F_PROCSTAT, "system CPU and page-cache gauges from /proc" },
	{ "cp_time", F_CPTIME, "system CPU from kern.cp_time (BSD, untested)" },
	{ "waitstate", F_WAITSTATE, "thread wait states from /proc/PID/task" },
	{ "procfs_sysinfo", F_PROCFS, "CPU model, mounts and devices from /proc and /sys" },
	{ "statfs_fstypename", F_FSTYPENAME, "file system and device from statfs (BSD)" },
	{ "sysctl", F_SYSCTL, "RAM and CPU model from sysctl (BSD)" },
	{ "crc32c_hw", F_CRC32C_HW, "CRC32C instructions for --verify" },
	{ "posix_only", F_POSIX_ONLY, "built with ./configure --posix-only" },
	{ NULL, 0, NULL },
};

const struct feature *features_table(void)
{
	return table;
}

int features_have(const char *name)
{
	const struct feature *f;

	for (f = table; f->name; f++)
		if (!strcmp(f->name, name))
			return f->on;
	return -1;
}

int features_print(FILE *out)
{
	const struct feature *f;
	int pass;

	fprintf(out, "iobattery %s\n", IOB_VERSION);
	for (pass = 1; pass >= 0; pass--) {
		fputs(pass ? "built with:" : "built without:", out);
		for (f = table; f->name; f++)
			if (f->on == pass)
				fprintf(out, " %s", f->name);
		fputc('\n', out);
	}
	fputs("\nfeatures:\n", out);
	for (f = table; f->name; f++)
		fprintf(out, "  %-18s %-3s %s\n", f->name, f->on ? "yes" : "no", f->what);
	return ferror(out) ? -1 : 0;
}
