/* cleanup.h - the stop signals and the registry of what must be removed when the
 * process is stopped: the only global mutable state in the program (the signal handler
 * reads it). Below every floor: a file-system helper (fs/scratch.h, fs/fsmake.h)
 * registers its undo here through a callback, so this file knows none of them.
 *
 * Signals: sig_install() catches SIGINT and SIGTERM. The first signal only sets a flag that
 * every I/O loop polls (sig_stop_requested()); the loop ends, the phase is marked
 * incomplete, the caller cleans up normally and exits 130. A second signal removes every
 * registered path at once (async-signal-safe calls only) and _exit(130)s. */
#ifndef IOB_CORE_CLEANUP_H
#define IOB_CORE_CLEANUP_H

#include <signal.h>

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
/* Register a file or a directory (CLEANUP_FILE, CLEANUP_DIR). Same returns as
 * cleanup_register. */
int cleanup_register_kind(const char *path, enum cleanup_kind kind);
/* Forget a slot (the file is kept, e.g. dd's of= after a successful run). */
void cleanup_unregister(int slot);
/* What undoes a mount or a loop device (fs/fsmake.h's fsmake_undo): is_mount says which,
 * in_signal that it runs in the signal handler (async-signal-safe calls only). */
typedef int (*cleanup_undo_fn)(const char *path, int is_mount, int in_signal);
/* Register a mount (CLEANUP_MOUNT) or a loop device (CLEANUP_LOOP) with the function that
 * undoes it; the registry knows nothing of file systems (-EINVAL for another kind, or
 * for these two without undo). Same returns as cleanup_register. */
int cleanup_register_undo(const char *path, enum cleanup_kind kind, cleanup_undo_fn undo);
/* Remove the path in slot now and forget it. Returns 0 or -errno. */
int cleanup_remove(int slot);
/* Remove a directory tree we created, without following symlinks (entries examined
 * with fstatat(AT_SYMLINK_NOFOLLOW), directories opened O_NOFOLLOW). 0 or -errno. */
int cleanup_rmtree(const char *path);

#endif
