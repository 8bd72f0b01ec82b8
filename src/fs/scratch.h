/* scratch.h - where the tool may write, and how everything it made is removed.
 *
 * Safety rules (DESIGN.md 1.5): the tool only writes, truncates or deletes files it created,
 * inside a directory it created with mkdtemp, or a file the user named on the command line
 * that did not exist before (or was made by iobattery earlier, marked with an xattr).
 * Nothing here follows a symlink it did not make. The stop signals and the cleanup
 * registry are core/cleanup.h (included here, as every user of a scratch directory
 * polls the stop flag). */
#ifndef IOB_FS_SCRATCH_H
#define IOB_FS_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

#include "core/cleanup.h"

/* A private scratch directory: PARENT/iobattery.XXXXXX (mkdtemp, mode 0700), registered
 * for removal. */
struct scratch;

/* Create it under parent (which must exist, be a directory and writable), marked with its
 * owner (scratch_mark_owner), after removing what killed runs of this machine left in
 * parent (scratch_sweep). Returns 0 and *out (owned by the caller, free with
 * scratch_destroy) or -errno. */
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

/* scratch_sweep.c: mark the directory dir with its owner (an extended attribute: this
 * machine's boot, the pid namespace, the pid, the host name). 0, or -ENOTSUP where the
 * owner cannot be told (no /proc, no xattr), -errno where the file system keeps none. */
int scratch_mark_owner(const char *dir);
/* This machine's boot and this process's pid namespace ("BOOT-ID pid:[N]") into buf: two
 * processes with one such id may ask after each other's pid (kill(pid, 0)). 0, or
 * -errno ("" in buf) where it cannot be told (no /proc). */
int scratch_machine_id(char *buf, size_t len);
/* Take the mark off dir (a directory kept for the user: no sweep may remove it). */
void scratch_unmark_owner(const char *dir);
/* Remove the scratch directories iobattery.XXXXXX in parent that a process of this boot
 * and pid namespace left when it died (a rank SIGKILLed in an MPI run), by their mark:
 * never one without the mark, of another machine, boot or namespace, of a process that
 * is alive (or a zombie), of another user, or with a mount inside (the battery's:
 * `battery --cleanup`). Each removal is said on stderr. Returns how many were removed,
 * or -errno when parent cannot be read; 0 where no mark is written. */
int scratch_sweep(const char *parent);

/* Keep the directory and what is in it (iozone -w): its owner's mark taken off, forget
 * it and free s. NULL is allowed. */
void scratch_keep(struct scratch *s);

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
