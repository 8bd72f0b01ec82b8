/* bonnie_io.c - Bonnie++'s I/O block: per-character output, block output, rewrite,
 * per-character input, block input and random seeks, on a data set split into files
 * of at most 1 GiB. With -c N every phase runs N copies at once, each on its own data
 * set (one worker each; seeks: `seekers` workers per copy).
 * Not thread-safe as a whole; the per-phase loops run on the runner's workers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "observe/cache.h"
#include "comm/comm.h"
#include "core/err.h"
#include "core/rng.h"
#include "fs/scratch.h"
#include "stats/result.h"
#include "workload/bonnie/bonnie.h"
#include "workload/bonnie/bonnie_int.h"
#include "runner/runner.h"
#include "runner/vhook.h"

#define GIB (1ull << 30)

/* One copy's data set. */
struct bio_set {
	int fd[BONNIE_MAX_FILES];
	void *buf;			/* chunk bytes, page aligned */
	struct ioctx io;		/* the copy's requests (its worker thread's) */
	uint64_t t_written, t_closed;	/* last write returned; fsync and close returned */
	int sync_failed;		/* the phase's closing fsync failed (its message says) */
};

struct bio {
	const struct bonnie_cfg *c;
	const struct engine *e;
	const char *dir;
	unsigned nf;			/* files per data set */
	uint64_t size;			/* bytes per data set */
	uint64_t char_bytes;
	struct bio_set *set;		/* c->copies */
	unsigned char *pattern;		/* chunk bytes 'a'..'p' repeated: the per-char output */
	uint64_t seed;
	struct vhook *vh;		/* --verify: the block phases' writes are stamped */
};

static uint64_t file_len(const struct bio *b, unsigned j)
{
	uint64_t left = b->size - (uint64_t)j * GIB;

	return left < GIB ? left : GIB;
}

static int set_path(const struct bio *b, unsigned copy, unsigned j, char *buf, size_t len)
{
	/* several ranks in one directory: the rank keeps hosts with equal pids apart */
	int n = snprintf(buf, len, "%s/Bonnie.%ld.%u.%03u", b->dir, (long)getpid(),
			 copy + comm_rank() * b->c->copies, j);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void close_all(struct bio *b)
{
	unsigned k, j;

	for (k = 0; k < b->c->copies; k++)
		for (j = 0; j < b->nf; j++)
			if (b->set[k].fd[j] >= 0) {
				ioctx_close(&b->set[k].io, b->set[k].fd[j]);
				b->set[k].fd[j] = -1;
			}
}

/* Open files 0..nf-1 of every copy with flags (O_DIRECT added when direct); with --verify
 * and gen > 0 their writes are stamped with that generation. */
static int open_all(struct bio *b, unsigned nf, int flags, int direct, uint64_t gen)
{
	char path[PATH_MAX];
	unsigned k, j;
	int fd, rc;

#ifdef O_DIRECT
	if (direct)
		flags |= O_DIRECT;
#else
	if (direct)
		return -ENOTSUP;
#endif
	for (k = 0; k < b->c->copies; k++)
		for (j = 0; j < nf; j++) {
			rc = set_path(b, k, j, path, sizeof(path));
			if (rc < 0)
				return rc;
			fd = ioctx_open(&b->set[k].io, path, flags, 0600);
			if (fd < 0) {
				err_errno(fd, "cannot open: '%s'", path);
				close_all(b);
				return fd;
			}
			b->set[k].fd[j] = fd;
			if (gen && (rc = vhook_file(&b->set[k].io, fd, path,
						    k * BONNIE_MAX_FILES + j, gen)) < 0) {
				close_all(b);
				return rc;
			}
		}
	return 0;
}

/* End of a phase inside its time, as Bonnie++ 2.00a: fsync (write phases) and close
 * every file of the set; t_written and t_closed frame that tail so that the buffered
 * figure (until the last write returned) can be told from the durable one. */
static int finish_set(struct bio_set *s, unsigned nf, int do_sync, struct worker *w)
{
	unsigned j;
	int rc = 0, r;

	s->t_written = clock_ns();
	for (j = 0; j < nf; j++) {
		if (s->fd[j] < 0)
			continue;
		if (do_sync && (r = ioctx_sync(&s->io, s->fd[j], 0)) < 0 && !rc) {
			rc = r;
			s->sync_failed = 1;
		}
		if ((r = ioctx_close(&s->io, s->fd[j])) < 0 && !rc)
			rc = r;
		s->fd[j] = -1;
	}
	s->t_closed = clock_ns();
	w->t_last = s->t_closed;
	if (rc && !w->err)
		w->err = rc;
	return rc;
}

/* Residency of the data sets before a read phase, optionally dropping them first. */
static void read_prep(struct bio *b, unsigned nf, uint64_t bytes, double *pct, int *dropped)
{
	unsigned k, j;
	double sum = 0, p;
	uint64_t total = 0;

	*dropped = 0;
	for (k = 0; k < b->c->copies; k++)
		for (j = 0; j < nf; j++) {
			uint64_t l = file_len(b, j);

			if (l > bytes)
				l = bytes;
			if (b->c->drop_cache && cache_drop(b->set[k].fd[j]) == 0)
				*dropped = 1;
			if (cache_resident(b->set[k].fd[j], 0, l, &p) == 0) {
				sum += p * (double)l;
				total += l;
			}
		}
	*pct = total ? sum / (double)total : -1;
}

/* --- per-character output ------------------------------------------------------ */

/* Per-char phases time groups of `chunk` calls (one op each), as Bonnie++ does: a clock
 * read per byte would cost about 10% of a one-byte write(2). */
static unsigned group_len(const struct bio *b, uint64_t i)
{
	uint64_t left = b->char_bytes - i;

	return left < b->c->chunk ? (unsigned)left : b->c->chunk;
}

/* One write(2) per byte through the engine's per-character path (for psync the system
 * call itself, so a call costs what a direct one does), timed per group. */
static int putc_syscall(struct bio *b, struct bio_set *s, struct worker *w)
{
	uint64_t i, t0;
	unsigned g, n;
	int err;

	worker_start(w);
	for (i = 0; i < b->char_bytes; i += n) {
		n = group_len(b, i);
		if (sig_stop_requested())
			return -EINTR;
		t0 = op_begin();
		g = ioctx_cwrite_n(&s->io, s->fd[0], b->pattern, n, &err);
		op_end(w, t0, g == n ? (int64_t)n : err);
		if (g != n)
			return w->err;
	}
	return 0;
}

static int putc_stdio(struct bio *b, struct bio_set *s, struct worker *w)
{
	int fd = dup(s->fd[0]);		/* the FILE gets its own descriptor */
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	uint64_t i, t0;
	unsigned g;
	int rc = 0;

	if (!f) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	worker_start(w);
	for (i = 0; i < b->char_bytes && !rc; i += group_len(b, i)) {
		unsigned n = group_len(b, i);
		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		t0 = op_begin();
		for (g = 0; g < n; g++)
			putc_unlocked('a' + (int)(g & 15), f);
		rc = ferror(f) ? (errno ? -errno : -EIO) : 0;
		op_end(w, t0, rc ? rc : (int64_t)n);
	}
	if (fflush(f) == EOF && !rc)
		rc = errno ? -errno : -EIO;
	if (fclose(f) == EOF && !rc)
		rc = -errno;
	if (rc && !w->err)
		w->err = rc;
	return rc;
}

static int w_putc(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	int rc;

	ioctx_bind(&b->set[i].io, w);
	if (b->c->char_method == BONNIE_CHAR_PUTC)
		rc = putc_stdio(b, &b->set[i], w);
	else
		rc = putc_syscall(b, &b->set[i], w);
	return rc ? rc : finish_set(&b->set[i], 1, 1, w);
}

/* --- block output, rewrite, block input -------------------------------------------- */

/* Issue rq for its whole length: a short read or write (which a file system may return)
 * is continued with the rest, each call timed and counted. rq is as it was afterwards.
 * Returns rq->len, or the -errno of the call that failed, or 0 at end of file (a short
 * count then, which the callers treat as an error). */
static int64_t do_whole(struct ioctx *io, struct engine_req *rq)
{
	void *buf = rq->buf;
	uint64_t len = rq->len, off = rq->off, done = 0;
	int64_t n = 0;

	while (done < len) {
		n = ioctx_do_chain(io, rq);
		if (n <= 0)
			break;
		done += (uint64_t)n;
		rq->buf = (char *)buf + done;
		rq->len = len - done;
		rq->off = off + done;	/* ignored by the non-positional ops */
	}
	rq->buf = buf;
	rq->len = len;
	rq->off = off;
	if (n < 0)
		return n;
	rq->res = (int64_t)done;
	return (int64_t)done;
}

static int w_put_block(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	struct bio_set *s = &b->set[i];
	struct engine_req *rq;
	unsigned j;
	uint64_t off;
	int rc = 0;

	ioctx_bind(&s->io, w);
	rq = ioctx_get(&s->io);
	rq->op = ENGINE_OP_WRITE;
	rq->buf = s->buf;
	rq->len = b->c->chunk;
	worker_start(w);
	for (j = 0; j < b->nf && !rc; j++) {
		uint64_t l = file_len(b, j);

		rq->fd = s->fd[j];
		for (off = 0; off < l && !rc; off += b->c->chunk) {
			if (sig_stop_requested())
				rc = -EINTR;
			else if (do_whole(&s->io, rq) != (int64_t)b->c->chunk)
				rc = rq->res < 0 ? (int)rq->res : -EIO;
			else if (b->c->fsync_each)
				rc = ioctx_sync(&s->io, rq->fd, 0);
		}
	}
	ioctx_put(&s->io, rq);
	return rc ? rc : finish_set(s, b->nf, 1, w);
}

static int w_rewrite(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	struct bio_set *s = &b->set[i];
	struct engine_req *rq;
	unsigned char *p = s->buf;
	unsigned j;
	uint64_t off;
	int rc = 0;

	ioctx_bind(&s->io, w);
	rq = ioctx_get(&s->io);
	rq->buf = s->buf;
	rq->len = b->c->chunk;
	worker_start(w);
	for (j = 0; j < b->nf && !rc; j++) {
		uint64_t l = file_len(b, j);

		rq->fd = s->fd[j];
		for (off = 0; off < l && !rc; off += b->c->chunk) {
			if (sig_stop_requested()) {
				rc = -EINTR;
				break;
			}
			rq->op = ENGINE_OP_PREAD;
			rq->off = off;
			if (do_whole(&s->io, rq) != (int64_t)b->c->chunk) {
				rc = rq->res < 0 ? (int)rq->res : -EIO;
				break;
			}
			p[off / b->c->chunk % b->c->chunk]++;	/* dirty it */
			rq->op = ENGINE_OP_PWRITE;
			if (do_whole(&s->io, rq) != (int64_t)b->c->chunk)
				rc = rq->res < 0 ? (int)rq->res : -EIO;
			else if (b->c->fsync_each)
				rc = ioctx_sync(&s->io, rq->fd, 0);
		}
	}
	ioctx_put(&s->io, rq);
	return rc ? rc : finish_set(s, b->nf, 1, w);
}

/* One read(2) per byte through the engine's per-character path, timed per group. */
static int getc_syscall(struct bio *b, struct bio_set *s, struct worker *w)
{
	uint64_t i, t0;
	unsigned g, n;
	int err;

	worker_start(w);
	for (i = 0; i < b->char_bytes; i += n) {
		n = group_len(b, i);
		if (sig_stop_requested())
			return -EINTR;
		t0 = op_begin();
		g = ioctx_cread_n(&s->io, s->fd[0], s->buf, n, &err);
		/* end of file before the data set's end is an I/O error, as before */
		op_end(w, t0, g == n ? (int64_t)n : err < 0 ? err : -EIO);
		if (g != n)
			return w->err;
	}
	return 0;
}

static int getc_stdio(struct bio *b, struct bio_set *s, struct worker *w)
{
	int fd = dup(s->fd[0]);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	uint64_t i, t0;
	unsigned g;
	int rc = 0, ch = 0;

	if (!f) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	worker_start(w);
	for (i = 0; i < b->char_bytes && !rc; i += group_len(b, i)) {
		unsigned n = group_len(b, i);
		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		t0 = op_begin();
		for (g = 0; g < n && ch != EOF; g++)
			ch = getc_unlocked(f);
		rc = ch == EOF ? -EIO : 0;
		op_end(w, t0, rc ? rc : (int64_t)n);
	}
	fclose(f);
	if (rc && !w->err)
		w->err = rc;
	return rc;
}

static int w_getc(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	int rc;

	ioctx_bind(&b->set[i].io, w);
	if (b->c->char_method == BONNIE_CHAR_PUTC)
		rc = getc_stdio(b, &b->set[i], w);
	else
		rc = getc_syscall(b, &b->set[i], w);
	return rc ? rc : finish_set(&b->set[i], 1, 0, w);
}

static int w_get_block(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	struct bio_set *s = &b->set[i];
	struct engine_req *rq;
	unsigned j;
	uint64_t off;
	int rc = 0;

	ioctx_bind(&s->io, w);
	rq = ioctx_get(&s->io);
	rq->op = ENGINE_OP_READ;
	rq->buf = s->buf;
	rq->len = b->c->chunk;
	worker_start(w);
	for (j = 0; j < b->nf && !rc; j++) {
		uint64_t l = file_len(b, j);

		rq->fd = s->fd[j];
		for (off = 0; off < l && !rc; off += b->c->chunk) {
			if (sig_stop_requested())
				rc = -EINTR;
			else if (do_whole(&s->io, rq) != (int64_t)b->c->chunk)
				rc = rq->res < 0 ? (int)rq->res : -EIO;
		}
	}
	ioctx_put(&s->io, rq);
	return rc ? rc : finish_set(s, b->nf, 0, w);
}

/* --- random seeks -------------------------------------------------------------------- */

static int w_seeks(void *arg, unsigned i, struct worker *w)
{
	struct bio *b = arg;
	unsigned copy = i / b->c->seekers, me = i % b->c->seekers;
	struct bio_set *s = &b->set[copy];
	uint64_t nblk = b->size / b->c->chunk, per = GIB / b->c->chunk, k, n, t0, blk;
	unsigned char *buf;
	struct engine_req *rq;
	struct ioctx io;	/* each seeker thread its own */
	struct rng r;
	int rc = 0;

	/* the copy's buffer belongs to seeker 0; others use their own (no sharing) */
	if (posix_memalign((void **)&buf, 4096, b->c->chunk))
		return -ENOMEM;
	if ((rc = ioctx_init(&io, b->e, 1)) < 0 || (rc = vhook_attach(b->vh, &io)) < 0) {
		if (io.e)
			ioctx_exit(&io);
		free(buf);
		return rc;
	}
	ioctx_bind(&io, w);
	rq = ioctx_get(&io);
	rq->len = b->c->chunk;
	rq->buf = buf;
	rng_seed(&r, b->seed + i * 0x9e3779b97f4a7c15ull);
	n = b->c->seeks / b->c->seekers + (me < b->c->seeks % b->c->seekers);
	worker_start(w);
	for (k = 0; k < n; k++) {
		int64_t res;

		if (sig_stop_requested()) {
			rc = -EINTR;
			break;
		}
		blk = rng_below(&r, nblk);
		rq->fd = s->fd[blk / per];
		rq->off = (blk % per) * b->c->chunk;
		rq->op = ENGINE_OP_PREAD;
		/* a seek is one operation: the read and its write-back timed together */
		t0 = op_begin();
		res = ioctx_call(&io, rq);
		/* about one seek in ten dirties its block and writes it back */
		if (res == (int64_t)b->c->chunk && rng_below(&r, 10) == 0) {
			buf[k % b->c->chunk]++;
			rq->op = ENGINE_OP_PWRITE;
			ioctx_call(&io, rq);
			res = rq->res == (int64_t)b->c->chunk ? res + rq->res : rq->res;
		}
		if (res > 0 && res < (int64_t)b->c->chunk)
			res = -EIO;
		op_end(w, t0, res);
		if (res < 0) {
			rc = (int)res;
			break;
		}
	}
	free(buf);
	/* as Bonnie++'s seekers: each syncs the data set before it ends (within the time) */
	for (k = 0; !rc && k < b->nf; k++)
		rc = ioctx_sync(&io, s->fd[k], 0);
	ioctx_put(&io, rq);
	ioctx_exit(&io);
	return rc;
}

/* --- phases ------------------------------------------------------------------------- */

static int io_phase(struct bio *b, struct runner *rc, int t, unsigned nw, uint64_t expect,
		    int (*fn)(void *, unsigned, struct worker *), struct row **out)
{
	return bonnie_phase(rc, b->c, t, nw, "B", expect, fn, b, out);
}

static int set_up(struct bio *b, struct runner *rc, const struct bonnie_cfg *c,
		  const char *dir)
{
	unsigned k, j;
	int r;

	memset(b, 0, sizeof(*b));
	b->c = c;
	b->e = rc->eng;
	b->dir = dir;
	b->size = c->size_mb << 20;
	b->nf = (unsigned)((b->size + GIB - 1) / GIB);
	b->char_bytes = c->skip_char ? 0 : c->char_mb << 20;
	b->seed = c->seed;
	if (b->nf > BONNIE_MAX_FILES)
		return -EFBIG;
	/* Bonnie++ writes zeros; --verify's blocks are zeros with their headers */
	r = vhook_start(&b->vh, rc, (uint32_t)c->chunk, VBLOCK_DATA_ZERO, VHOOK_F_PASSES);
	if (r)
		return r;
	b->set = calloc(c->copies, sizeof(*b->set));
	b->pattern = malloc(c->chunk);
	if (!b->set || !b->pattern)
		return -ENOMEM;
	for (j = 0; j < c->chunk; j++)
		b->pattern[j] = (unsigned char)('a' + (j & 15));
	for (k = 0; k < c->copies; k++) {
		for (j = 0; j < BONNIE_MAX_FILES; j++)
			b->set[k].fd[j] = -1;
		if (posix_memalign(&b->set[k].buf, 4096, c->chunk))
			return -ENOMEM;
		memset(b->set[k].buf, 0, c->chunk);	/* zeros, as Bonnie++ writes */
		if ((r = ioctx_init(&b->set[k].io, b->e, 1)) < 0 ||
		    (r = vhook_attach(b->vh, &b->set[k].io)) < 0)
			return r;
	}
	return 0;
}

static void tear_down(struct bio *b)
{
	char path[PATH_MAX];
	unsigned k, j;

	free(b->pattern);
	b->pattern = NULL;
	if (!b->set) {
		vhook_stop(b->vh);
		b->vh = NULL;
		return;
	}
	close_all(b);
	for (k = 0; k < b->c->copies; k++) {
		if (b->set[k].io.e) {
			for (j = 0; j < b->nf; j++)
				if (set_path(b, k, j, path, sizeof(path)) == 0)
					(void)ioctx_unlink(&b->set[k].io, path);
			ioctx_exit(&b->set[k].io);
		}
		free(b->set[k].buf);
	}
	free(b->set);
	b->set = NULL;
	vhook_stop(b->vh);
	b->vh = NULL;
}

/* A write phase: open with flags, run, then time an fsync for the durable figure. */
static int write_phase(struct bio *b, struct runner *rc, int t, unsigned nf, int flags,
		       int direct, int (*fn)(void *, unsigned, struct worker *))
{
	struct row *row;
	uint64_t bytes = t == BT_PUTC ? b->char_bytes : b->size, ts;
	/* the per-char output is not stamped; block output is pass 1, rewrite pass 2 */
	int r = open_all(b, nf, flags, direct, t == BT_PUT_BLOCK ? 1 : t == BT_REWRITE ? 2 : 0);

	if (r < 0)
		return r;
	for (unsigned k = 0; k < b->c->copies; k++)
		b->set[k].sync_failed = 0;
	r = io_phase(b, rc, t, b->c->copies, bytes * b->c->copies, fn, &row);
	for (unsigned k = 0; row && r < 0 && k < b->c->copies; k++)
		if (b->set[k].sync_failed && row->error) {
			/* the data were written, the sync failed: say which (no durable figure) */
			char *e = str_printf("fsync: %s", row->error);

			if (e) {
				free(row->error);
				row->error = e;
			}
			break;
		}
	if (row && r == 0) {
		unsigned k;

		/* the rate is Bonnie++'s: until fsync and close returned */
		for (k = 0, ts = 0; k < b->c->copies; k++)
			if (b->set[k].t_closed - b->set[k].t_written > ts)
				ts = b->set[k].t_closed - b->set[k].t_written;
		row->durable_ns = row->elapsed_ns;
		row->buffered_ns = row->elapsed_ns > ts ? row->elapsed_ns - ts : 0;
	}
	close_all(b);
	return r;
}

static int read_phase(struct bio *b, struct runner *rc, int t, unsigned nf, int direct,
		      uint64_t bytes, int (*fn)(void *, unsigned, struct worker *))
{
	struct row *row;
	double pct;
	/* a seek's write-back rewrites a block of pass 2 */
	int dropped, r = open_all(b, nf, t == BT_SEEKS ? O_RDWR : O_RDONLY, direct,
				  t == BT_SEEKS ? 2 : 0);
	unsigned nw = t == BT_SEEKS ? b->c->copies * b->c->seekers : b->c->copies;

	if (r < 0)
		return r;
	read_prep(b, nf, bytes, &pct, &dropped);
	r = io_phase(b, rc, t, nw, bytes * b->c->copies, fn, &row);
	if (row)
		bonnie_row_cache(row, b->c, pct, dropped);
	close_all(b);
	return r;
}

int bonnie_io_tests(struct runner *rc, const struct bonnie_cfg *c, const char *dir)
{
	struct bio b;
	int r;

	r = set_up(&b, rc, c, dir);
	if (r < 0)
		goto out;
	if (b.char_bytes) {
		r = write_phase(&b, rc, BT_PUTC, 1, O_WRONLY | O_CREAT | O_TRUNC, 0, w_putc);
		if (r < 0)
			goto out;
	}
	r = write_phase(&b, rc, BT_PUT_BLOCK, b.nf, O_WRONLY | O_CREAT | O_TRUNC, c->direct,
			w_put_block);
	if (r < 0)
		goto out;
	r = write_phase(&b, rc, BT_REWRITE, b.nf, O_RDWR, c->direct, w_rewrite);
	if (r < 0)
		goto out;
	if (b.char_bytes) {
		uint64_t save = b.char_bytes;

		if (b.char_bytes > file_len(&b, 0))
			b.char_bytes = file_len(&b, 0);
		r = read_phase(&b, rc, BT_GETC, 1, 0, b.char_bytes, w_getc);
		b.char_bytes = save;
		if (r < 0)
			goto out;
	}
	r = read_phase(&b, rc, BT_GET_BLOCK, b.nf, c->direct, b.size, w_get_block);
	if (r < 0)
		goto out;
	r = read_phase(&b, rc, BT_SEEKS, b.nf, c->direct, b.size, w_seeks);
	/* --verify: every block read back, a row of its own; bad blocks fail that row */
	if (r == 0 && (r = vhook_verify(b.vh, rc, "bonnie")) > 0)
		r = 0;
out:
	tear_down(&b);
	return r;
}
