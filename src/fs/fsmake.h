/* fsmake.h - file systems made for the battery's matrix (--fs): the sparse image and the
 * loop device over it, mkfs, mount and unmount, the checks before a block device is wiped
 * (--destroy-data-on), and what a killed run left behind (--cleanup).
 *
 * Ours is what carries our mark and nothing else: a loop device whose name field
 * (lo_file_name) is FSMAKE_LOOP_MARK followed by the owner's pid, a scratch directory
 * holding the file FSMAKE_MARK_FILE with the owner's pid, a mount whose mount point is
 * FSMAKE_MNT_PREFIX<n> inside such a directory. A loop device is set up with autoclear:
 * it goes by itself when its file system is unmounted or when the process that set it up
 * dies before mounting it.
 * Linux only (HAVE_LOOP_MOUNT); elsewhere the calls return -ENOSYS. Functions return 0
 * or -errno; none is thread-safe with another on the same path. fsmake_undo is
 * async-signal-safe (system calls only) when in_signal is set. */
#ifndef IOB_FS_FSMAKE_H
#define IOB_FS_FSMAKE_H

#include <stddef.h>
#include <stdint.h>

#define FSMAKE_LOOP_MARK	"iobattery-battery:"
#define FSMAKE_MARK_FILE	".iobattery-battery"
#define FSMAKE_MNT_PREFIX	"mnt-"

/* A file system we know how to make. */
struct fsmake_type {
	const char *name;		/* "ext4" (the mount type) */
	const char *mkfs;		/* "mkfs.ext4" */
	const char *force;		/* its option to write over an old signature */
	const char *quiet;		/* its option for no progress output */
	const char *package;		/* Debian package that has mkfs */
	uint64_t min_bytes;		/* the smallest device mkfs accepts */
};

/* The type called name, or NULL. */
const struct fsmake_type *fsmake_type(const char *name);
/* The known types as words for a message: "ext2, ext3, ext4, xfs or btrfs". */
const char *fsmake_type_names(void);
/* The path of t's mkfs (PATH, then /sbin and /usr/sbin) into path. 0 or -ENOENT. */
int fsmake_find(const struct fsmake_type *t, char *path, size_t len);

/* Create path (which must not exist) as a sparse file of bytes, marked as ours (xattr
 * where the file system has them). 0 or -errno (the file is removed on failure). */
int fsmake_image(const char *path, uint64_t bytes);
/* Attach file to a free loop device with autoclear and our mark: its path into dev and
 * an open descriptor of it into *fd, which keeps it attached until the caller closes it
 * (after mounting). The device does direct I/O on the file where the file's file system
 * allows it, so that the page cache under the image does not answer its reads; *dio
 * says whether it does. 0 or -errno. */
int fsmake_loop_attach(const char *file, char *dev, size_t len, int *fd, int *dio);
/* Close the descriptor fsmake_loop_attach gave (-1 is allowed): the device stays while
 * a mount holds it, and goes now when none does. */
void fsmake_loop_release(int fd);
/* Run t's mkfs (the program at mkfs) on dev with opts (words split on blanks; may be
 * NULL). 0, or -EIO with mkfs's last lines of output in msg. */
int fsmake_mkfs(const struct fsmake_type *t, const char *mkfs, const char *dev,
		const char *opts, char *msg, size_t len);
/* Check t's mkfs option words against its tool's grammar before anything is made:
 * 0, or -EINVAL with the reason in why for an unknown option, a word mkfs would take as
 * a device, or an option that names a file or device (an external log or journal, a
 * root directory, an undo file). Pure (fsopts.c). */
int fsmake_mkfs_opts_check(const struct fsmake_type *t, const char *opts, char *why,
			   size_t len);
/* The same for mount's comma-separated options (logdev=, journal_path=, device= ... and
 * any value with a '/' are refused). */
int fsmake_mount_opts_check(const char *opts, char *why, size_t len);
/* Make the directory dir (mode 0700) and mount dev there as type with the mount options
 * opts (mount(8)'s words: noatime, sync ... become flags, the rest goes to the file
 * system). 0 or -errno with a reason in msg. */
int fsmake_mount(const char *dev, const char *dir, const char *type, const char *opts,
		 char *msg, size_t len);
/* Undo: is_mount, unmount path (retried while busy, then detached lazily); else detach
 * the loop device path. A mount or device that is gone already is fine. 0 or -errno. */
int fsmake_undo(const char *path, int is_mount, int in_signal);

/* May the block device dev be wiped? Refused (-EINVAL, -EBUSY, -ENOTBLK with the reason
 * in why) when it is not a block device, is mounted (itself or a partition), is held (a
 * holder in sysfs, swap, an exclusive opener), or, unless force, holds a partition table
 * or a file-system signature. 0 when it may. */
int fsmake_device_check(const char *dev, int force, char *why, size_t len);
/* The device's size in bytes. 0 or -errno. */
int fsmake_device_size(const char *dev, uint64_t *bytes);

/* 1 when a file in dir opens with O_DIRECT (a file made and removed here), else 0. */
int fsmake_has_direct(const char *dir);
/* Write back the file system holding dir (syncfs, else sync), so that one step's dirty
 * data and deferred work (discards) do not land in the next one's time. 0 or -errno. */
int fsmake_sync(const char *dir);

/* What fsmake_leftovers found and did, one call per thing. */
typedef void (*fsmake_report_fn)(void *arg, const char *what, const char *path, int err);
/* Find what a killed battery left, and remove it when apply: mounts at our mount points
 * (in scratch directories with our mark), loop devices with our mark, and our scratch
 * directories under dir (NULL: only those of the mounts found). Skips anything whose
 * owner is still running. Returns how many things were found, or -errno. */
int fsmake_leftovers(const char *dir, int apply, fsmake_report_fn fn, void *arg);
/* Write the mark file into the scratch directory dir (with this process's pid).
 * 0 or -errno. */
int fsmake_mark_dir(const char *dir);

#endif
