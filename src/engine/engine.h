/* engine.h - the I/O engine interface.
 *
 * An engine issues I/O and nothing else. What it may do:
 *   - queue the requests it is given (submit) and hand back completed ones (reap);
 *   - keep per-thread state in *ctx (a ring, iocbs, a mapping table), indexed by a
 *     request's slot, which the runner assigns in [0, depth) and never reuses while the
 *     request is in flight;
 *   - implement metadata calls; a NULL pointer means the POSIX default (engine_meta.c).
 * What it may not do: read a clock, touch statistics, allocate per request, print, or
 * keep requests after they were reaped. The runner (runner/ioctx.h) owns every request,
 * times it from issue to completion and counts it; workloads never call an engine.
 *
 * A synchronous engine completes every request inside submit() (res set on return) and
 * has reap == NULL. An asynchronous one (ENGINE_F_ASYNC) completes them later, through
 * reap(). The flags are the one answer to "is this engine synchronous": callers (the job
 * workload's warnings, the runner) read them and never test an engine's name. Engines
 * are const tables listed in registry.c; engine_find() picks one by name. An engine's
 * functions are thread-safe across distinct ctx values; one ctx is used by one thread at
 * a time.
 *
 * An engine owns what only it knows: its aliases (fio's spellings that it serves: "sync"
 * for psync), its options (struct engine_optdef: io_uring's fixedbufs, sqthread_poll ...)
 * and its flags. Options are set by name with engine_opt_set() (or "io_uring:sqpoll,
 * fixedbufs" through engine_parse()) into a struct engine_opts, checked against the
 * engine before any I/O and handed to init: bit i of its flags is the engine's optdefs[i],
 * so the engine tests its own bits and parses nothing. The job workload accepts in a job
 * file every option an engine declares, and fio's name of every engine and alias.
 *
 * Adding an engine takes:
 *   1. src/engine/NAME.c: `const struct engine engine_NAME` with its name, summary,
 *      flags, aliases and optdefs, and its functions. When it needs a library or a system
 *      call configure probes, the implementation sits behind that HAVE_* and the
 *      descriptor, always defined, says instead why it is absent (.absent): job files
 *      and messages still know its name and options in a build without it;
 *   2. registry.c: its extern and its row in the table (two lines);
 *   3. only with a library: its probe in configure (HAVE_* into config.h, the library
 *      into config.mk), its line in core/features.c, and scripts/install-deps.
 * That is all the code needs: the job parser (ioengine=, the engine's options, its
 * warnings), `--engine` and its messages, and the conformance tests (tests/engine: the
 * matrix, then every declared option) read the registry. The --help texts that list
 * the engines are static: workload/common_opts.c (shell completion reads its --engine
 * line), bonnie's and job's help in workload/bonnie/bonnie_cmd.c and
 * workload/job/job_cmd.c; and so are ioengine's meanings in stats/result_keys_wl.c and
 * docs/results-schema.md, and docs/iobattery.1: name the engine there for users.
 * Adding an option to an engine: a row in its optdefs and the code that reads its bit
 * (the job's --help and docs/iobattery.1 list io_uring's options too). */
#ifndef IOB_ENGINE_ENGINE_H
#define IOB_ENGINE_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

enum engine_op {
	ENGINE_OP_READ,		/* read(fd) at the current position (pipes, devices) */
	ENGINE_OP_WRITE,	/* write(fd) at the current position */
	ENGINE_OP_PREAD,	/* pread(fd, off) */
	ENGINE_OP_PWRITE,	/* pwrite(fd, off) */
	ENGINE_OP_FSYNC,	/* fsync(fd) */
	ENGINE_OP_FDATASYNC,	/* fdatasync(fd) */
	ENGINE_OP_COPY_RANGE,	/* copy_file_range(fd -> fd_out), len bytes, positions advance */
	ENGINE_OP_SENDFILE,	/* sendfile(fd_out <- fd), len bytes at most */
	ENGINE_OP_DISCARD,	/* trim [off, off+len): BLKDISCARD on a block device (off and
				 * len multiples of its logical block), a punched hole
				 * (fallocate PUNCH_HOLE|KEEP_SIZE) in a regular file; res is
				 * len. Synchronous in every engine (engine_discard) */
	ENGINE_OP_COUNT
};

/* One request. The runner owns it (it lives in a worker's pool) and the buffer belongs to
 * the workload. res is set on completion: bytes transferred (0 at end of file) or -errno.
 * A short transfer is not an error: the workload decides what follows. */
struct engine_req {
	int op;			/* enum engine_op */
	int fd;
	int fd_out;		/* COPY_RANGE and SENDFILE only */
	unsigned slot;		/* index in the pool, [0, depth): for the engine's own arrays */
	void *buf;
	size_t len;
	uint64_t off;		/* PREAD/PWRITE/DISCARD only */
	int64_t res;
	uint64_t t_issue;	/* runner: clock_ns when submitted (engines do not touch it) */
	uint64_t user;		/* free for the workload (a block number, a file index) */
	uint16_t ioprio;	/* PREAD/PWRITE on an asynchronous engine: the request's
				 * I/O priority (class << 13 | level); 0: the thread's */
};

#define ENGINE_F_ASYNC		(1u << 0)	/* completions come from reap() */
#define ENGINE_F_ALIGNED	(1u << 1)	/* buffers must be aligned (O_DIRECT) */
#define ENGINE_F_NOIO		(1u << 2)	/* transfers no data (null): no data checks */
#define ENGINE_F_DIRECT_ASYNC	(1u << 3)	/* asynchronous only on O_DIRECT files: a
						 * buffered file completes inside submit
						 * (Linux AIO); see engine_async_honest */
#define ENGINE_F_MAPPED		(1u << 4)	/* data moves through a mapping of the file:
						 * always the page cache, O_DIRECT has no
						 * effect (mmap) */

/* One option an engine takes, by fio's name. An engine lists its options in optdefs
 * (terminated by a { NULL } row, at most ENGINE_OPT_MAX); the index of a row is its bit
 * in struct engine_opts.flags and its slot in val[]. */
struct engine_optdef {
	const char *name;	/* fio's spelling ("sqthread_poll"); job files use it */
	const char *alias;	/* a short form engine_parse also takes ("sqpoll"), or NULL */
	int takes_value;	/* 0: a flag (bare: on; a boolean value); 1: "name=N", an
				 * integer in [min, max] */
	long min, max;
	const char *meaning;	/* one line: what it changes */
};

#define ENGINE_OPT_MAX	16

/* Options set for one engine: bit i of flags is that engine's optdefs[i]; val[i] its
 * value when it takes one. Zeroed: none. */
struct engine_opts {
	unsigned flags;
	long val[ENGINE_OPT_MAX];
};

struct engine {
	const char *name;
	const char *summary;
	unsigned flags;
	/* fio's other names for what this engine does, NULL-terminated ("sync" for psync:
	 * read/write after lseek is measured as pread/pwrite), or NULL. */
	const char *const *aliases;
	const struct engine_optdef *optdefs;	/* its options, or NULL: none */
	/* Why this build lacks the engine ("not in this build: configure found no
	 * liburing ..."), or NULL. An absent engine has name, flags, aliases and optdefs
	 * only; engine_find and engine_list skip it. */
	const char *absent;
	/* Can it run here? 0, or -errno with the reason (e.g. -ENOSYS); engine_hint() turns
	 * it into a sentence. NULL: always. */
	int (*probe)(void);
	/* Per-thread setup for up to depth requests in flight, with options o (never NULL;
	 * only bits of its own optdefs set). 0 or -errno. NULL: no state (ctx stays NULL). exit()
	 * frees it; it is called with nothing in flight. */
	int (*init)(void **ctx, unsigned depth, const struct engine_opts *o);
	void (*exit)(void *ctx);
	/* Queue n requests (n <= depth - in flight). Returns how many were accepted (sync
	 * engines: all, each with res set), or -errno when none could be. */
	int (*submit)(void *ctx, struct engine_req **reqs, unsigned n);
	/* Async only: wait for at least min completions (0: do not wait), store up to max
	 * pointers in done. Returns the count or -errno. NULL for sync engines. */
	int (*reap)(void *ctx, struct engine_req **done, unsigned min, unsigned max);
	/* One-byte-at-a-time path for Bonnie's per-character phases: the same contract as
	 * write(2)/read(2) at the current position, so psync can point them at the system
	 * calls themselves and the call costs nothing over a direct one. NULL: the runner
	 * makes a WRITE/READ request per call. */
	ssize_t (*cwrite)(int fd, const void *buf, size_t len);
	ssize_t (*cread)(int fd, void *buf, size_t len);
	/* Register the workload's I/O buffers (io_uring's fixedbufs): requests whose buffer
	 * lies inside one of them use it as a registered buffer, the others go as usual.
	 * Replaces an earlier set; n == 0 drops it. Nothing may be in flight. The buffers
	 * must stay mapped until replaced or exit(). 0 or -errno. NULL: nothing to do. */
	int (*regbufs)(void *ctx, const struct iovec *iov, unsigned n);
	/* A sentence explaining err (from probe, init, or a request's res) under options o
	 * (NULL: none), or NULL when there is nothing to add to strerror. */
	const char *(*hint)(const struct engine_opts *o, int err);

	/* Metadata and namespace calls; NULL means the POSIX default. Each returns 0 (an fd
	 * for openat, an offset for lseek) or -errno. dirfd may be AT_FDCWD. */
	int (*openat)(void *ctx, int dirfd, const char *path, int flags, mode_t mode);
	int (*close)(void *ctx, int fd);
	int (*fstat)(void *ctx, int fd, struct stat *st);
	int (*fstatat)(void *ctx, int dirfd, const char *path, struct stat *st, int flags);
	int (*unlinkat)(void *ctx, int dirfd, const char *path, int flags);
	int (*mkdirat)(void *ctx, int dirfd, const char *path, mode_t mode);
	int (*renameat)(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
	int (*linkat)(void *ctx, int odirfd, const char *opath, int ndirfd, const char *npath);
	int (*symlinkat)(void *ctx, const char *target, int dirfd, const char *path);
	int (*ftruncate)(void *ctx, int fd, uint64_t len);
	/* Allocate [off, off+len) (posix_fallocate semantics: blocks really reserved). */
	int (*fallocate)(void *ctx, int fd, uint64_t off, uint64_t len);
	int64_t (*lseek)(void *ctx, int fd, int64_t off, int whence);
	/* Flush the file system holding fd (syncfs), or every file system when fd < 0
	 * (sync(2), as Bonnie++ calls it). */
	int (*syncfs)(void *ctx, int fd);
};

/* The engine called name (its own name, not an alias) in this build, or NULL. */
const struct engine *engine_find(const char *name);
/* The engine called name or one of its aliases, in this build or not (then e->absent
 * says why), or NULL: for parsers of fio's files, which know every engine's options and
 * flags before they refuse one that is absent. */
const struct engine *engine_lookup(const char *name);
/* Why an engine of that name is not in this build ("io_uring" without liburing), or NULL
 * when the name is in this build or not one iobattery knows. Static string. */
const char *engine_absent(const char *name);
/* e's option called name, by fio's spelling only (not the short alias), or NULL. */
const struct engine_optdef *engine_optdef_find(const struct engine *e, const char *name);
/* The first engine of the registry (in this build or not) with an option called name
 * (fio's spelling), or NULL: which engine an option belongs to. */
const struct engine *engine_option_owner(const char *name);
/* Set option name (fio's spelling or its alias) to value (NULL or "" for a flag: on;
 * flags take 1/0, yes/no, true/false, on/off; others an integer in the optdef's range)
 * in o for engine e. 0, -ENOENT when e has no such option, -EINVAL for a bad value.
 * Thread-safe. */
int engine_opt_set(const struct engine *e, struct engine_opts *o, const char *name,
		   const char *value);
/* Is option name (fio's spelling) set in o for engine e? 1 (its value into *value when
 * value is not NULL: 1 for a flag), 0 when not set, -ENOENT when e has no such option. */
int engine_opt_get(const struct engine *e, const struct engine_opts *o, const char *name,
		   long *value);
/* 0 when o sets only options of e, else -EINVAL (ioctx_init_opts checks it). */
int engine_opts_check(const struct engine *e, const struct engine_opts *o);
/* "name[:opt[=value],...]" (e.g. "io_uring:sqpoll,fixedbufs"): the engine into *e and
 * its options into *o (zeroed first). 0 or -errno with a message into err (errlen
 * bytes): unknown engine (-ENOENT), unknown option or bad value (-EINVAL). */
int engine_parse(const char *spec, const struct engine **e, struct engine_opts *o,
		 char *err, size_t errlen);
/* The options in o for e as "sqthread_poll,fixedbufs" (empty for none; in the order of
 * e's optdefs) into buf, for the record of a run. Returns buf. */
char *engine_opts_str(const struct engine *e, const struct engine_opts *o, char *buf,
		      size_t len);
/* The table of engines in this build, terminated by NULL; for --help and listings. */
const struct engine *const *engine_list(void);
/* "psync, null" - the names of the engines in this build, comma-separated, into buf.
 * Returns buf. */
char *engine_names(char *buf, size_t len);
/* "psync, sync, io_uring, ..." - every name engine_lookup knows (in this build or not),
 * each followed by those of its aliases that keep accepts (NULL: all), comma-separated,
 * into buf. Returns buf. */
char *engine_spellings(char *buf, size_t len, bool (*keep)(const char *alias));

/* Metadata calls through the engine, falling back to the POSIX default when the engine
 * leaves the pointer NULL (engine_meta.c). Thread-safe as the engine is. The runner's
 * ioctx_* wrappers are what workloads use. */
int engine_openat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags,
		  mode_t mode);
int engine_close(const struct engine *e, void *ctx, int fd);
int engine_fstat(const struct engine *e, void *ctx, int fd, struct stat *st);
int engine_fstatat(const struct engine *e, void *ctx, int dirfd, const char *path,
		   struct stat *st, int flags);
int engine_unlinkat(const struct engine *e, void *ctx, int dirfd, const char *path, int flags);
int engine_mkdirat(const struct engine *e, void *ctx, int dirfd, const char *path, mode_t mode);
int engine_renameat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		    int ndirfd, const char *npath);
int engine_linkat(const struct engine *e, void *ctx, int odirfd, const char *opath,
		  int ndirfd, const char *npath);
int engine_symlinkat(const struct engine *e, void *ctx, const char *target, int dirfd,
		     const char *path);
int engine_ftruncate(const struct engine *e, void *ctx, int fd, uint64_t len);
int engine_fallocate(const struct engine *e, void *ctx, int fd, uint64_t off, uint64_t len);
int64_t engine_lseek(const struct engine *e, void *ctx, int fd, int64_t off, int whence);
int engine_syncfs(const struct engine *e, void *ctx, int fd);

/* ENGINE_OP_DISCARD's one system call on fd (see enum engine_op): len, or -errno:
 * -EOPNOTSUPP where the device or file system cannot discard, -ENOSYS where the build
 * has no such call, -ENOTTY for a descriptor that is neither a block device nor a
 * regular file.
 * Every engine completes DISCARD through it, inside submit. Thread-safe. */
int64_t engine_discard(int fd, uint64_t off, size_t len);

#define ENGINE_DISCARD_BLKDEV	1	/* BLKDISCARD */
#define ENGINE_DISCARD_PUNCH	2	/* fallocate(PUNCH_HOLE|KEEP_SIZE) */

struct engine_discard_info {
	int kind;		/* ENGINE_DISCARD_*; 0 when neither applies */
	uint64_t granularity;	/* bytes: the device's discard_granularity (512 when it
				 * gives none), the file's st_blksize */
	uint64_t max_bytes;	/* a device's discard_max_bytes; 0 for a file */
	char fstype[32];	/* a file's file system ("ext4"), "" when unknown */
};

/* Can fd be trimmed, and how? Fills di. A block device: its queue's discard_max_bytes
 * and discard_granularity from sysfs (nothing is discarded). A regular file: punches a
 * hole past its end, which changes no byte and no size, to see whether the file system
 * takes the call (fd must be open for writing). Returns 0, -EOPNOTSUPP (a device whose
 * discard_max_bytes is 0 or unknown, a file system without punch hole), -ENOSYS (a build
 * without the call), -ENOTTY (another kind of file) or another -errno. Thread-safe. */
int engine_discard_probe(int fd, struct engine_discard_info *di);
/* "BLKDISCARD" or "fallocate(FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE)" for a kind of
 * engine_discard_info. Static string. */
const char *engine_discard_method(int kind);

/* 1 when requests on fd really run asynchronously with e, 0 when they complete inside
 * submit: a synchronous engine, or Linux AIO on a file without O_DIRECT (the job
 * workload warns, as fio does). Thread-safe. */
int engine_async_honest(const struct engine *e, int fd);
/* e's explanation of err under options o (see struct engine.hint), or NULL. */
const char *engine_hint(const struct engine *e, const struct engine_opts *o, int err);

/* Counts every engine_close, engine_ftruncate and engine_fallocate in the process. An
 * engine that caches per-fd state (a mapping, a registered file) keeps the count it saw
 * when it cached and looks again (fstat) once it changed: the fd number may now name
 * another file, or the file have another size. One relaxed atomic load; thread-safe. */
extern _Atomic unsigned long engine_epoch;
static inline unsigned long engine_epoch_now(void)
{
	return atomic_load_explicit(&engine_epoch, memory_order_relaxed);
}

/* The POSIX engine, which the others and the layout of files fall back to. The other
 * engines are declared in registry.c, beside their rows: reach them through
 * engine_find, engine_lookup or engine_list. */
extern const struct engine engine_psync;

#endif
