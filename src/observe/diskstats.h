/* diskstats.h - the block devices behind a path and their I/O counters, with the figures
 * sysstat's `iostat -dx` prints computed between two snapshots.
 *
 * Three layers:
 *  - the device set (diskstats_find): the device a path lives on and the stack below it
 *    (a partition's whole disk, a loop device's backing file's device, the members of a
 *    device-mapper or md device from /sys/block/X/slaves), each with its queue facts;
 *  - snapshots (diskstats_read): the counters of every device of a set from one read of
 *    /proc/diskstats, kept in fixed arrays (no allocation per read but the amortised
 *    growth of one text buffer);
 *  - figures (diskstats_compute): a pure function from two counter sets and an interval,
 *    so tests feed fixed snapshots.
 * Linux only (HAVE_DISKSTATS); elsewhere diskstats_find and diskstats_read return -ENOSYS
 * and say why in set->reason. The parse and compute functions work everywhere.
 * A set is owned by its caller and not shared: one thread at a time per set. The pure
 * functions are thread-safe. */
#ifndef IOB_OBSERVE_DISKSTATS_H
#define IOB_OBSERVE_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

#define DISKSTATS_MAX_DEVS	16	/* devices in one set (the top and its stack) */
#define DISKSTATS_MAX_DEPTH	8	/* layers followed below the top */
#define DISKSTATS_NAME_LEN	40
#define DISKSTATS_SECTOR	512u	/* diskstats sectors are 512 bytes on every device */

/* One device's counters as /proc/diskstats prints them after major, minor and name
 * (the same as /sys/block/X/stat). Field numbers are those of the kernel's
 * Documentation/admin-guide/iostats. Ticks are milliseconds, printed by the kernel as
 * 32-bit unsigned numbers that wrap. */
struct diskstats_counters {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;	/* fields 4-7 */
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;	/* fields 8-11 */
	uint64_t in_flight, io_ticks, time_in_queue;		/* fields 12-14 */
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;	/* fields 15-18, 4.18+ */
	uint64_t fl_ios, fl_ticks;				/* fields 19-20, 5.5+ */
	unsigned nfields;	/* numbers after the name: 4 (old partition line), 11, 15, 17;
				 * 0 when the device was not found */
};

/* How a device of a set was reached. */
enum diskstats_role {
	DISKSTATS_TOP,		/* the device the path lives on */
	DISKSTATS_DISK,		/* the whole disk of a partition above it */
	DISKSTATS_MEMBER,	/* a member (slave) of a dm or md device above it */
	DISKSTATS_BACKING,	/* the device holding a loop device's backing file */
};

/* Queue facts of a device (of its whole disk for a partition), from /sys/block/X/queue;
 * -1 / 0 / "" where unknown. */
struct diskstats_queue {
	int write_cache;	/* 1 "write back" (volatile cache), 0 "write through" */
	int fua;		/* 1 when the device honours FUA writes */
	int rotational;		/* 1 spinning, 0 not */
	char scheduler[24];	/* the selected I/O scheduler ("mq-deadline", "none") */
	unsigned logical_block;	/* bytes */
	unsigned physical_block;
};

struct diskstats_dev {
	unsigned major, minor;
	char name[DISKSTATS_NAME_LEN];	/* kernel name, as in /proc/diskstats ("sda1") */
	char alias[DISKSTATS_NAME_LEN];	/* device-mapper name ("vg-root"), "" if none */
	enum diskstats_role role;
	int parent;			/* index of the device it was reached from; -1: top */
	unsigned depth;			/* 0 for the top */
	int partition;			/* 1 for a partition */
	struct diskstats_queue queue;
};

/* The devices behind one path. Fill with diskstats_find, release with diskstats_close. */
struct diskstats_set {
	unsigned ndev;			/* 0: none (see reason) */
	struct diskstats_dev dev[DISKSTATS_MAX_DEVS];
	unsigned left_out;		/* devices not kept (set full or stack too deep) */
	char fstype[32];		/* file system of the path when known ("ext4") */
	char reason[192];		/* why ndev is 0, or a note on a part of the stack */
	/* reader state, private */
	const char *diskstats_path;	/* "/proc/diskstats" unless a test set another */
	int fd;
	int fd_open;
	char *buf;
	size_t cap;
};

/* Counters of every device of a set at one instant. c[i] belongs to set->dev[i]. */
struct diskstats_snap {
	uint64_t t_ns;			/* clock_ns() just before the read */
	unsigned ndev;
	struct diskstats_counters c[DISKSTATS_MAX_DEVS];
};

/* The iostat -dx figures for one device over an interval. Rates per second, sizes in kB
 * (1024 bytes, as iostat's kB), times in ms. */
struct diskstats_figures {
	double interval_s;
	double r_s, w_s, d_s, f_s;		/* completed requests per second */
	double rkb_s, wkb_s, dkb_s;		/* kB per second */
	double rrqm_s, wrqm_s, drqm_s;		/* requests merged per second */
	double rrqm_pct, wrqm_pct, drqm_pct;	/* merged share of the requests */
	double r_await, w_await, d_await, f_await;	/* mean ms per request */
	double aqu_sz;				/* mean queue length */
	double rareq_sz, wareq_sz, dareq_sz;	/* mean request size, kB */
	double util_pct;			/* share of the interval with I/O in flight */
	uint64_t rd_ios, wr_ios, dc_ios, fl_ios;	/* differences over the interval */
	uint64_t rd_bytes, wr_bytes, dc_bytes;		/* sectors x 512 */
	int has_discard, has_flush;	/* both snapshots carried fields 15-18, 19-20 */
	int reset;			/* the counters went back (device re-registered): the
					 * first snapshot was taken as zero, as iostat does */
};

/* Figures between a (earlier) and b (later) over interval_ns, as sysstat 12.6+ computes
 * them (see docs/methodology.md, "Device figures"). Returns 0, or -EINVAL when
 * interval_ns is 0 or a snapshot is missing (nfields 0); out is zeroed then. Pure. */
int diskstats_compute(const struct diskstats_counters *a, const struct diskstats_counters *b,
		      uint64_t interval_ns, struct diskstats_figures *out);

/* Parse one /proc/diskstats line ("   8  0 sda 1 2 3 ...") into major, minor, name (up to
 * namelen - 1 characters) and counters. Returns 0 or -EINVAL. Pure. */
int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor, char *name,
			 size_t namelen, struct diskstats_counters *c);
/* Parse the text of a whole /proc/diskstats (len bytes, need not end in a newline) into
 * snap for the devices of set (matched by major:minor). Returns the number of devices
 * of the set found. snap->t_ns is left alone. Pure. */
unsigned diskstats_parse(const char *text, size_t len, const struct diskstats_set *set,
			 struct diskstats_snap *snap);

/* Fill set with the devices behind path (a file, directory or block device that exists):
 * the top device, then its stack depth first in the order found. set is initialised here.
 * Returns the number of devices (>= 1), or -errno with set->reason saying why in words:
 * -ENODEV for a file system without a block device (tmpfs, overlayfs, NFS, FUSE),
 * -ENOSYS where the build has no device statistics. set must be released with
 * diskstats_close in every case. Allocates nothing but the set's own read buffer later.
 * Not thread-safe per set. */
int diskstats_find(const char *path, struct diskstats_set *set);
/* The same with another sysfs root (for "/sys") and mountinfo file (for
 * "/proc/self/mountinfo"), for tests on a fake tree. */
int diskstats_find_at(const char *sysroot, const char *mountinfo, const char *path,
		      struct diskstats_set *set);
/* An empty set (no devices, nothing open), for diskstats_add_dev. */
void diskstats_init(struct diskstats_set *set);
/* Add the device major:minor (and its stack) to set (initialised by diskstats_init or
 * diskstats_find) as a top device, sysroot NULL for "/sys". For tests and for a caller
 * that knows the device. Returns the devices now in the set or -errno (-ENOENT when sysfs
 * has no such device). */
int diskstats_add_dev(const char *sysroot, unsigned major, unsigned minor,
		      struct diskstats_set *set);

/* Read the counters of the set's devices now (one read of /proc/diskstats; the file stays
 * open in the set). Returns the number of devices found (a device that vanished is left
 * with nfields 0), -ENODEV when the set is empty, or -errno when the file cannot be read
 * (-ENOSYS without device statistics). Allocates only when the text outgrows the buffer
 * (amortised doubling). */
int diskstats_read(struct diskstats_set *set, struct diskstats_snap *snap);
/* The counters of the device named name ("sda", as /proc/diskstats names it) now, in one
 * read of the file, for a caller without a set. 0, -ENOENT when the file does not list
 * it, -errno when the file cannot be read, -ENOSYS without device statistics.
 * Thread-safe (nothing shared). */
int diskstats_read_name(const char *name, struct diskstats_counters *out);
/* Close the file and free the buffer; the device list stays readable. 0 or -errno.
 * Idempotent. */
int diskstats_close(struct diskstats_set *set);

/* "top", "disk", "member", "backing". */
const char *diskstats_role_name(enum diskstats_role role);

#endif
