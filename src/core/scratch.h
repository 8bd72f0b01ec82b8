/* scratch.h - where the tool may write, and how everything it made is removed.
 *
 * Safety rules (DESIGN.md 1.5): the tool only writes, truncates or deletes files it created,
 * inside a directory it created with mkdtemp, or a file the user named on the command line
 * that did not exist before (or was made by iobattery earlier, marked with an xattr).
 * Nothing here follows a symlink it did not make.
 *
 * Signals: sig_install() catches SIGINT and SIGTERM. The first signal only sets a flag that
 * every I/O loop polls (sig_stop_requested()); the loop ends, the phase is marked
 * incomplete, the caller cleans up normally and exits 130. A second signal removes every
 * registered path at once (async-signal-safe calls only) and _exit(130)s.
 * The registry and the flag are the only global mutable state in the program. */
#ifndef IOB_CORE_SCRATCH_H
#define IOB_CORE_SCRATCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

extern volatile sig_atomic_t sig_stop_flag;

/* Install the SIGINT/SIGTERM handlers. Returns 0 or -errno. Call once from main. */
int sig_install(void);

/* Nonzero once SIGINT or SIGTERM arrived (holds the signal number), or -1 after
 * sig_stop_peer(). Cheap: one load. */
static inline int sig_stop_requested(void)
{
	return sig_stop_flag;
}
/* Stop every loop as a first signal does, because another rank of a multi-rank run
 * failed (comm.h); a signal that comes later still counts as the first. */
static inline void sig_stop_peer(void)
{
	if (!sig_stop_flag)
		sig_stop_flag = -1;
}
/* 1 when a real signal arrived (not sig_stop_peer). */
static inline int sig_stop_signalled(void)
{
	return sig_stop_flag > 0;
}

/* Under mpirun: the launcher sends SIGTERM and SIGKILL a second later, so the first
 * signal also unlinks every registered file at once (directories still go the normal
 * way, after the loops end). Call before threads start. */
void sig_unlink_on_first(void);

/* Register a path that must be removed if the process is killed by a second signal,
 * or by cleanup_run_all(). is_dir: remove it recursively (it must be ours).
 * Returns a slot >= 0 or -ENOSPC when the registry (64 slots) is full.
 * Not thread-safe: call from the main thread before starting workers. */
int cleanup_register(const char *path, int is_dir);

/* What a slot undoes. A second signal undoes every slot in the reverse order of
 * registration: a mount before the loop device under it, both before the directory that
 * holds them. */
enum cleanup_kind {
	CLEANUP_FILE,		/* unlink(2) */
	CLEANUP_DIR,		/* remove the tree (scratch_rmtree) */
	CLEANUP_MOUNT,		/* unmount the file system mounted at path (lazily when busy) */
	CLEANUP_LOOP,		/* detach the loop device path (/dev/loopN) */
};
/* Register path with what undoing it means. Same returns as cleanup_register. */
int cleanup_register_kind(const char *path, enum cleanup_kind kind);
/* Forget a slot (the file is kept, e.g. dd's of= after a successful run). */
void cleanup_unregister(int slot);
/* Remove the path in slot now and forget it. Returns 0 or -errno. */
int cleanup_remove(int slot);

/* A private scratch directory: PARENT/iobattery.XXXXXX (mkdtemp, mode 0700), registered
 * for removal. */
struct scratch;

/* Create it under parent (which must exist, be a directory and writable).
 * Returns 0 and *out (owned by the caller, free with scratch_destroy) or -errno. */
int scratch_create(const char *parent, struct scratch **out);
/* Use dir, a scratch directory another process of this run created (a multi-rank run's
 * shared directory), without ever removing it: scratch_destroy only frees. Returns 0
 * and *out, -ENOTDIR, or -errno when it cannot be seen. */
int scratch_adopt(const char *dir, struct scratch **out);
/* The directory's absolute path; valid until scratch_destroy. */
const char *scratch_dir(const struct scratch *s);
/* buf = dir + "/" + name. Returns 0 or -ENAMETOOLONG. */
int scratch_path(const struct scratch *s, const char *name, char *buf, size_t len);
/* Remove the whole tree (never following symlinks, never leaving the directory) and free.
 * Returns 0 or the first -errno met (the rest is still attempted). NULL is allowed. */
int scratch_destroy(struct scratch *s);

/* Keep the directory and what is in it (iozone -w): forget it and free s. NULL is
 * allowed. */
void scratch_keep(struct scratch *s);
/* Remove a directory tree we created, without following symlinks. 0 or -errno. */
int scratch_rmtree(const char *path);

/* Free space check: 0 when at least need bytes (plus 1% and 16 MiB of slack) are free for
 * an unprivileged writer in the file system holding dir (or when the file system keeps no
 * block count, as ramfs), -ENOSPC when not, -errno on error.
 * *avail (may be NULL) receives the free bytes. */
int space_check(const char *dir, uint64_t need, uint64_t *avail);
/* The file system holding dir: its device number (st_dev) into *dev and its size in
 * bytes into *size. 0 or -errno (both untouched then). Thread-safe. */
int space_fs_id(const char *dir, uint64_t *dev, uint64_t *size);

/* Mark an open file as made by iobattery (user xattr), so that later runs may overwrite it.
 * Returns 0 or -errno (e.g. -ENOTSUP on a file system without user xattrs). */
int mark_created(int fd);
/* 1 when path carries our mark, 0 when not (or it cannot tell), -errno on stat errors.
 * Does not follow a symlink. */
int is_marked(const char *path);
/* What to add to a refusal to overwrite: "" where files can be marked, else a note that
 * this build cannot mark them (no xattr: --posix-only, a BSD), so that every existing
 * file needs --overwrite. Static string. */
const char *mark_hint(void);

#endif
