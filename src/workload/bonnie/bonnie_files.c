/* bonnie_files.c - Bonnie++'s file block: create, stat (and read, when files have data)
 * and delete number*1024 files, first in sequential order (names that begin with a
 * 7-digit number; stat and delete in readdir order), then in random order (names that
 * begin with random characters; stat random picks; delete in a random permutation).
 * Sizes are uniform in min..max; max -1 makes hard links and -2 symlinks to one target.
 * Files spread over `dirs` subdirectories. Each copy (-c) works in its own tree.
 * Not thread-safe as a whole; each copy's loop runs on one runner worker. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comm/comm.h"
#include "core/err.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "workload/bonnie/bonnie.h"
#include "workload/bonnie/bonnie_int.h"
#include "runner/runner.h"

#define NAME_MAX_LEN 24		/* 7 digits + up to 12 random characters + NUL */

struct bname {
	char s[NAME_MAX_LEN];
	uint32_t dir;
	uint32_t size;
};

struct bf_copy {
	char root[PATH_MAX];
	char target[PATH_MAX];		/* link target for max -1 / -2 */
	struct bname *names;		/* n */
	uint32_t *perm;			/* n: random stat picks, then delete order */
	unsigned char *buf;		/* file_chunk bytes */
	struct ioctx io;		/* the copy's requests and metadata calls */
	struct engine_req *rq;		/* its one request, reused */
	struct rng rng;
	uint64_t t_done, t_synced;	/* last operation returned; sync() returned */
};

struct bfile {
	const struct bonnie_cfg *c;
	const struct engine *e;
	uint32_t n;			/* files per copy */
	uint32_t per_dir;
	struct bf_copy *cp;
	int random;			/* names for the random-order tests */
};

static const char alnum[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

static void make_names(struct bfile *f, struct bf_copy *cp, int random)
{
	uint32_t i;
	const struct bonnie_cfg *c = f->c;

	for (i = 0; i < f->n; i++) {
		struct bname *nm = &cp->names[i];
		char rnd[13];
		unsigned k, len = (unsigned)rng_below(&cp->rng, 13);

		for (k = 0; k < len; k++)
			rnd[k] = alnum[rng_below(&cp->rng, sizeof(alnum) - 1)];
		rnd[len] = '\0';
		if (random)
			snprintf(nm->s, sizeof(nm->s), "%s%07u", rnd, (unsigned)i);
		else
			snprintf(nm->s, sizeof(nm->s), "%07u%s", (unsigned)i, rnd);
		nm->dir = i / f->per_dir;
		nm->size = 0;
		if (c->max_size > 0)
			nm->size = (uint32_t)c->min_size + (uint32_t)rng_below(&cp->rng,
				(uint64_t)(c->max_size - c->min_size) + 1);
	}
}

static int dir_path(const struct bfile *f, const struct bf_copy *cp, uint32_t d, char *buf,
		    size_t len)
{
	int n = f->c->ndirs > 1 ? snprintf(buf, len, "%s/%05u", cp->root, (unsigned)d)
				: snprintf(buf, len, "%s", cp->root);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int file_path(const struct bfile *f, const struct bf_copy *cp, const struct bname *nm,
		     char *buf, size_t len)
{
	int n = f->c->ndirs > 1 ? snprintf(buf, len, "%s/%05u/%s", cp->root,
					   (unsigned)nm->dir, nm->s)
				: snprintf(buf, len, "%s/%s", cp->root, nm->s);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* fsync the directory holding path (-b). 0 or -errno. */
static int sync_dir_of(struct bf_copy *cp, const char *path)
{
	char d[PATH_MAX];
	char *sl;
	int fd, rc, rc2;

	snprintf(d, sizeof(d), "%s", path);
	sl = strrchr(d, '/');
	if (!sl)
		return 0;
	*sl = '\0';
	fd = ioctx_open(&cp->io, d, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	rc = ioctx_sync(&cp->io, fd, 0);
	rc2 = ioctx_close(&cp->io, fd);
	return rc ? rc : rc2;
}

/* Create one file (or link); returns bytes written (0 for none) or -errno. */
static int64_t create_one(struct bfile *f, struct bf_copy *cp, const char *path, uint32_t size)
{
	const struct bonnie_cfg *c = f->c;
	struct engine_req *rq = cp->rq;
	int64_t done = 0;
	int fd, rc;

	if (c->max_size == -1)
		return ioctx_link(&cp->io, cp->target, path);
	if (c->max_size == -2)
		return ioctx_symlink(&cp->io, cp->target, path);
	fd = ioctx_open(&cp->io, path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return fd;
	rq->op = ENGINE_OP_WRITE;
	rq->buf = cp->buf;
	rq->fd = fd;
	while ((uint64_t)done < size) {
		rq->len = size - done < c->file_chunk ? size - done : c->file_chunk;
		if (ioctx_call(&cp->io, rq) <= 0) {
			done = rq->res < 0 ? rq->res : -EIO;
			break;
		}
		done += rq->res;
	}
	if (done >= 0 && c->fsync_each && (rc = ioctx_sync(&cp->io, fd, 0)) < 0)
		done = rc;
	if ((rc = ioctx_close(&cp->io, fd)) < 0 && done >= 0)
		done = rc;
	if (done >= 0 && c->fsync_each && (rc = sync_dir_of(cp, path)) < 0)
		done = rc;
	return done;
}

/* stat one file, reading its data when it has some; bytes read or -errno. */
static int64_t stat_one(struct bfile *f, struct bf_copy *cp, int dfd, const char *name)
{
	struct engine_req *rq = cp->rq;
	struct stat st;
	int64_t done = 0;
	int fd, rc;

	if ((rc = ioctx_fstatat(&cp->io, dfd, name, &st, 0)) < 0)
		return rc;
	if (f->c->max_size <= 0 || !st.st_size)
		return 0;
	fd = ioctx_openat(&cp->io, dfd, name, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	rq->op = ENGINE_OP_READ;
	rq->buf = cp->buf;
	rq->len = f->c->file_chunk;
	rq->fd = fd;
	while (ioctx_call(&cp->io, rq) > 0)
		done += rq->res;
	if (rq->res < 0)
		done = rq->res;
	if ((rc = ioctx_close(&cp->io, fd)) < 0 && done >= 0)
		done = rc;
	return done;
}

/* Creates and deletes end with sync() inside their time, as Bonnie++ 2.00a's do. */
static int end_sync(struct bf_copy *cp, struct worker *w)
{
	int rc;

	cp->t_done = clock_ns();
	rc = ioctx_syncfs(&cp->io, -1);
	cp->t_synced = clock_ns();
	w->t_last = cp->t_synced;
	return rc;
}

static int w_create(void *arg, unsigned k, struct worker *w)
{
	struct bfile *f = arg;
	struct bf_copy *cp = &f->cp[k];
	char path[PATH_MAX];
	uint32_t i;

	ioctx_bind(&cp->io, w);
	worker_start(w);
	for (i = 0; i < f->n; i++) {
		uint64_t t0;
		int64_t res;

		if (sig_stop_requested())
			return -EINTR;
		if (file_path(f, cp, &cp->names[i], path, sizeof(path)) < 0)
			return -ENAMETOOLONG;
		t0 = op_begin();
		res = create_one(f, cp, path, cp->names[i].size);
		op_end(w, t0, res);
		if (res < 0)
			return (int)res;
	}
	return end_sync(cp, w);
}

/* Walk every directory in readdir order; del: unlink instead of stat. */
static int walk_dirs(struct bfile *f, struct bf_copy *cp, struct worker *w, int del)
{
	char path[PATH_MAX];
	uint32_t d, nd = f->c->ndirs > 1 ? f->c->ndirs : 1;

	for (d = 0; d < nd; d++) {
		struct dirent *de;
		DIR *dp;
		int dfd, pass;

		if (dir_path(f, cp, d, path, sizeof(path)) < 0)
			return -ENAMETOOLONG;
		/* unlinking while reading may hide entries: a second pass takes the rest */
		for (pass = 0; pass < (del ? 2 : 1); pass++) {
			dp = opendir(path);
			if (!dp)
				return -errno;
			dfd = dirfd(dp);
			while ((de = readdir(dp))) {
				uint64_t t0;
				int64_t res;

				if (de->d_name[0] == '.' || !strcmp(de->d_name, "target"))
					continue;
				if (sig_stop_requested()) {
					closedir(dp);
					return -EINTR;
				}
				t0 = op_begin();
				if (del)
					res = ioctx_unlinkat(&cp->io, dfd, de->d_name, 0);
				else
					res = stat_one(f, cp, dfd, de->d_name);
				if (del && !res && f->c->fsync_each)
					res = ioctx_sync(&cp->io, dfd, 0);
				op_end(w, t0, res);
				if (res < 0) {
					closedir(dp);
					return (int)res;
				}
			}
			closedir(dp);
		}
	}
	return 0;
}

static int w_seq_stat(void *arg, unsigned k, struct worker *w)
{
	struct bfile *f = arg;

	ioctx_bind(&f->cp[k].io, w);
	worker_start(w);
	return walk_dirs(f, &f->cp[k], w, 0);
}

static int w_seq_del(void *arg, unsigned k, struct worker *w)
{
	struct bfile *f = arg;

	int rc;

	ioctx_bind(&f->cp[k].io, w);
	worker_start(w);
	rc = walk_dirs(f, &f->cp[k], w, 1);
	return rc ? rc : end_sync(&f->cp[k], w);
}

static int w_ran_stat(void *arg, unsigned k, struct worker *w)
{
	struct bfile *f = arg;
	struct bf_copy *cp = &f->cp[k];
	char path[PATH_MAX];
	uint32_t i;

	ioctx_bind(&cp->io, w);
	worker_start(w);
	for (i = 0; i < f->n; i++) {
		const struct bname *nm = &cp->names[cp->perm[i]];
		uint64_t t0;
		int64_t res;

		if (sig_stop_requested())
			return -EINTR;
		if (file_path(f, cp, nm, path, sizeof(path)) < 0)
			return -ENAMETOOLONG;
		t0 = op_begin();
		res = stat_one(f, cp, AT_FDCWD, path);
		op_end(w, t0, res);
		if (res < 0)
			return (int)res;
	}
	return 0;
}

static int w_ran_del(void *arg, unsigned k, struct worker *w)
{
	struct bfile *f = arg;
	struct bf_copy *cp = &f->cp[k];
	char path[PATH_MAX];
	uint32_t i;

	ioctx_bind(&cp->io, w);
	worker_start(w);
	for (i = 0; i < f->n; i++) {
		uint64_t t0;
		int64_t res;

		if (sig_stop_requested())
			return -EINTR;
		if (file_path(f, cp, &cp->names[cp->perm[i]], path, sizeof(path)) < 0)
			return -ENAMETOOLONG;
		t0 = op_begin();
		res = ioctx_unlink(&cp->io, path);
		if (!res && f->c->fsync_each)
			res = sync_dir_of(cp, path);
		op_end(w, t0, res);
		if (res < 0)
			return (int)res;
	}
	return end_sync(cp, w);
}

/* Directories and the link target of every copy. */
static int make_tree(struct bfile *f)
{
	char path[PATH_MAX];
	unsigned k;
	uint32_t d;
	int fd, rc;

	for (k = 0; k < f->c->copies; k++) {
		struct bf_copy *cp = &f->cp[k];

		if ((rc = ioctx_mkdir(&cp->io, cp->root, 0700)) < 0 && rc != -EEXIST)
			return rc;
		for (d = 0; f->c->ndirs > 1 && d < f->c->ndirs; d++) {
			if (dir_path(f, cp, d, path, sizeof(path)) < 0)
				return -ENAMETOOLONG;
			if ((rc = ioctx_mkdir(&cp->io, path, 0700)) < 0 && rc != -EEXIST)
				return rc;
		}
		if (f->c->max_size < 0) {
			fd = ioctx_open(&cp->io, cp->target, O_WRONLY | O_CREAT | O_EXCL, 0600);
			if (fd < 0)
				return fd;
			if ((rc = ioctx_close(&cp->io, fd)) < 0)
				return rc;
		}
	}
	return 0;
}

static int set_up(struct bfile *f, struct runner *rc, const struct bonnie_cfg *c,
		  const char *dir)
{
	unsigned k;
	int r;

	memset(f, 0, sizeof(*f));
	f->c = c;
	f->e = rc->eng;
	f->n = c->nfiles * BONNIE_FILE_UNIT;
	f->per_dir = (f->n + (c->ndirs ? c->ndirs : 1) - 1) / (c->ndirs ? c->ndirs : 1);
	f->cp = calloc(c->copies, sizeof(*f->cp));
	if (!f->cp)
		return -ENOMEM;
	for (k = 0; k < c->copies; k++) {
		struct bf_copy *cp = &f->cp[k];

		/* several ranks in one directory: each rank's copies get their own numbers */
		if (snprintf(cp->root, sizeof(cp->root), "%s/Bonnie.files.%u", dir,
			     k + comm_rank() * c->copies) >=
		    (int)sizeof(cp->root))
			return -ENAMETOOLONG;
		if (snprintf(cp->target, sizeof(cp->target), "%s/target", cp->root) >=
		    (int)sizeof(cp->target))
			return -ENAMETOOLONG;
		cp->names = calloc(f->n, sizeof(*cp->names));
		cp->perm = calloc(f->n, sizeof(*cp->perm));
		cp->buf = malloc(c->file_chunk);
		if (!cp->names || !cp->perm || !cp->buf)
			return -ENOMEM;
		memset(cp->buf, 'b', c->file_chunk);
		rng_seed(&cp->rng, c->seed * 131 + k + 7);
		if ((r = ioctx_init(&cp->io, f->e, 1)) < 0)
			return r;
		cp->rq = ioctx_get(&cp->io);
	}
	return make_tree(f);
}

static void tear_down(struct bfile *f)
{
	unsigned k;

	if (!f->cp)
		return;
	for (k = 0; k < f->c->copies; k++) {
		struct bf_copy *cp = &f->cp[k];

		if (cp->root[0])
			cleanup_rmtree(cp->root);
		free(cp->names);
		free(cp->perm);
		free(cp->buf);
		if (cp->io.e) {
			ioctx_put(&cp->io, cp->rq);
			ioctx_exit(&cp->io);
		}
	}
	free(f->cp);
}

/* perm = random picks (with repetition) for stat, or a permutation for delete. */
static void fill_perm(struct bfile *f, int permutation)
{
	unsigned k;
	uint32_t i, j, t;

	for (k = 0; k < f->c->copies; k++) {
		struct bf_copy *cp = &f->cp[k];

		for (i = 0; i < f->n; i++)
			cp->perm[i] = permutation ? i : (uint32_t)rng_below(&cp->rng, f->n);
		for (i = f->n; permutation && i > 1; i--) {
			j = (uint32_t)rng_below(&cp->rng, i);
			t = cp->perm[i - 1];
			cp->perm[i - 1] = cp->perm[j];
			cp->perm[j] = t;
		}
	}
}

static int file_phase(struct bfile *f, struct runner *rc, int t,
		      int (*fn)(void *, unsigned, struct worker *))
{
	struct row *row;
	uint64_t ts = 0;
	unsigned k;
	int r;

	for (k = 0; k < f->c->copies; k++)
		f->cp[k].t_done = f->cp[k].t_synced = 0;
	r = bonnie_phase(rc, f->c, t, f->c->copies, "files", (uint64_t)f->n * f->c->copies,
			 fn, f, &row);
	if (row && r == 0 && t != BT_SEQ_STAT && t != BT_RAN_STAT) {
		for (k = 0; k < f->c->copies; k++)
			if (f->cp[k].t_synced - f->cp[k].t_done > ts)
				ts = f->cp[k].t_synced - f->cp[k].t_done;
		row->durable_ns = row->elapsed_ns;
		row->buffered_ns = row->elapsed_ns > ts ? row->elapsed_ns - ts : 0;
	}
	return r;
}

static int names_for(struct bfile *f, int random)
{
	unsigned k;

	for (k = 0; k < f->c->copies; k++)
		make_names(f, &f->cp[k], random);
	return 0;
}

int bonnie_file_tests(struct runner *rc, const struct bonnie_cfg *c, const char *dir)
{
	struct bfile f;
	int r;

	r = set_up(&f, rc, c, dir);
	if (r < 0) {
		err_errno(r, "cannot prepare the file tests: '%s'", dir);
		goto out;
	}
	names_for(&f, 0);
	if ((r = file_phase(&f, rc, BT_SEQ_CREATE, w_create)) < 0 ||
	    (r = file_phase(&f, rc, BT_SEQ_STAT, w_seq_stat)) < 0 ||
	    (r = file_phase(&f, rc, BT_SEQ_DEL, w_seq_del)) < 0)
		goto out;
	/* as Bonnie++, the random tests start in fresh directories */
	for (unsigned k = 0; k < c->copies; k++)
		cleanup_rmtree(f.cp[k].root);
	r = make_tree(&f);
	if (r < 0) {
		err_errno(r, "cannot prepare the random file tests: '%s'", dir);
		goto out;
	}
	names_for(&f, 1);
	if ((r = file_phase(&f, rc, BT_RAN_CREATE, w_create)) < 0)
		goto out;
	fill_perm(&f, 0);
	if ((r = file_phase(&f, rc, BT_RAN_STAT, w_ran_stat)) < 0)
		goto out;
	fill_perm(&f, 1);
	r = file_phase(&f, rc, BT_RAN_DEL, w_ran_del);
out:
	tear_down(&f);
	return r;
}
