/* vhook.c - the verification hook in the request path: stamping writes, remembering what
 * a sync made durable, and the hook's life (start, attach, files, stop). The options and
 * the verification phase are in vhook_check.c. How blocks are laid out:
 *
 * A block is what one write put at one place: a write of len bytes at off is one block
 * (several of at most the template's length when it is longer), so the blocks of a file
 * written sequentially follow each other and the checker walks them by their headers'
 * lengths. Two rules keep every block at least VBLOCK_MIN_LEN bytes: a request split in
 * pieces gives its last two pieces the remainder so that neither is shorter; and a write
 * shorter than that which continues the file's last block is merged with it: that block
 * and the new bytes are written again as one (or two) blocks, from the block's start,
 * and the workload sees its own length done. O_APPEND descriptors are served by the hook
 * (their flag cleared; each WRITE goes to the end the engine's lseek reports), so that
 * the merge can write from the block's start. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "runner/ioctx.h"
#include "runner/runner.h"
#include "runner/vhook_int.h"

#define VH_ALIGN	4096	/* slot buffers: O_DIRECT-aligned */
#define VH_MIN_BLOCK	128	/* the template is at least this long (see split()) */
#define VH_EAGER	(64u << 20)	/* slot buffers prepared when a hook is attached */

static struct vh_fd *find_fd(struct vhook *h, int fd)
{
	size_t i;

	for (i = 0; i < h->nfds; i++)
		if (h->fds[i].fd == fd)
			return &h->fds[i];
	return NULL;
}

/* Record n acknowledged blocks (mutex held). A failure is kept for the row: the run goes
 * on, but nothing more is claimed. */
static void sink(struct vhook *h, const struct vjournal_rec *recs, size_t n)
{
	uint64_t t0 = clock_ns();
	int rc = 0;

	if (!n || h->sink_err)
		return;
	if (h->journal)
		rc = vjournal_ack(h->journal, recs, n);
	else if (h->net)
		rc = vnet_send(h->net, recs, n);
	if (rc)
		h->sink_err = rc;
	else
		h->acked += n;
	h->ack_ns += clock_ns() - t0;
}

static int pend_add(struct vh_file *f, const struct vjournal_rec *r)
{
	if (f->npend == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 256;
		struct vjournal_rec *p = realloc(f->pend, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->pend = p;
		f->cap = cap;
	}
	f->pend[f->npend++] = *r;
	return 0;
}

/* Lengths of the pieces of a region of n >= VBLOCK_MIN_LEN bytes, blocks of at most b
 * (b >= VH_MIN_BLOCK): all b but the last two, which share the remainder so that neither
 * is shorter than VBLOCK_MIN_LEN. Returns the number of pieces; the last two lengths go
 * to *pen (the one before last, b when there is no adjustment) and *last. */
static uint64_t split(uint64_t n, uint32_t b, uint64_t *pen, uint64_t *last)
{
	uint64_t k = (n + b - 1) / b, rem = n - (k - 1) * b;

	*pen = b;
	*last = rem;
	if (k > 1 && rem < VBLOCK_MIN_LEN) {
		*pen = b - (VBLOCK_MIN_LEN - rem);
		*last = VBLOCK_MIN_LEN;
	}
	return k;
}

/* A slot buffer of at least need bytes, holding the template at every multiple of the
 * block length. 0 or -ENOMEM. */
static int slot_buf(struct vhook *h, struct vh_slot *s, size_t need)
{
	size_t cap = (need + h->block - 1) / h->block * h->block, p;
	void *nb;

	if (cap <= s->cap)
		return 0;
	if (posix_memalign(&nb, VH_ALIGN, cap))
		return -ENOMEM;
	free(s->buf);
	s->buf = nb;
	s->cap = cap;
	for (p = 0; p < cap; p += h->block)
		vblock_prepare(h->ctx, s->buf + p, h->block);
	return 0;
}

/* Stamp the region [off, off + n) of file f, generation gen, into the slot's buffer. */
static void stamp_region(struct vhook *h, struct vh_slot *s, const struct vh_file *f,
			 uint64_t off, uint64_t n, uint64_t gen)
{
	uint64_t k = 0, i, pen, last, p = 0, pl;

	/* a piece off the grid last time wrote its header over template bytes */
	if (s->dirty)
		for (p = 0; p < s->cap; p += h->block)
			vblock_prepare(h->ctx, s->buf + p, h->block);
	s->dirty = 0;
	k = split(n, h->block, &pen, &last);
	for (i = 0, p = 0; i < k; i++, p += pl) {
		pl = i + 1 == k ? last : i + 2 == k ? pen : h->block;
		if (p % h->block == 0 && pl == h->block) {
			vblock_stamp(h->ctx, s->buf + p, (size_t)pl, f->file_id, off + p, gen);
		} else {
			vblock_fill(h->ctx, s->buf + p, (size_t)pl, f->file_id, off + p, gen);
			s->dirty |= p % h->block != 0;
		}
	}
}

/* Where a write of r lands and what it must write. Mutex held. *start: the region's
 * first byte (the last block's start when merging). */
static int place(struct ioctx *io, struct vh_fd *fe, struct engine_req *r, uint64_t *off,
		 uint64_t *start)
{
	struct vh_file *f = fe->f;
	int64_t pos;

	if (r->op == ENGINE_OP_PWRITE) {
		*off = r->off;
	} else {
		pos = ioctx_lseek(io, r->fd, 0, fe->append ? SEEK_END : SEEK_CUR);
		if (pos < 0)
			return (int)pos;
		*off = (uint64_t)pos;
	}
	*start = *off;
	if (r->len < VBLOCK_MIN_LEN) {
		if (!f->tail_len || f->tail_off + f->tail_len != *off)
			return -EINVAL;	/* nothing to merge with: too short for a header */
		*start = f->tail_off;
	}
	return 0;
}

int vhook_before(struct ioctx *io, struct engine_req *r)
{
	struct vhook *h = io->vh->h;
	struct vh_slot *s = &io->vh->slot[r->slot];
	struct vh_fd *fe;
	struct vh_file *f;
	uint64_t off = 0, start = 0, n, gen, k, pen, last;
	int rc;

	s->f = NULL;
	s->trk = 0;
	if ((r->op != ENGINE_OP_WRITE && r->op != ENGINE_OP_PWRITE) || !r->len)
		return 0;
	pthread_mutex_lock(&h->mu);
	fe = find_fd(h, r->fd);
	if (!fe || fe->f->gen == VHOOK_GEN_CHECK) {
		pthread_mutex_unlock(&h->mu);
		return 0;
	}
	f = fe->f;
	rc = place(io, fe, r, &off, &start);
	if (rc) {
		pthread_mutex_unlock(&h->mu);
		return rc;
	}
	n = off + r->len - start;
	gen = f->gen == VHOOK_GEN_COUNT ? ++f->count : f->gen;
	k = split(n, h->block, &pen, &last);
	s->tail_len = last;		/* the file's last block, once the write has landed */
	f->stamped += k;
	s->dsync = fe->dsync;
	/* with the generation, under the same lock: "issued later" is "newer" */
	vhook_track_issue(h, f, s, start, n);
	pthread_mutex_unlock(&h->mu);
	rc = 0;
	if (start != off && r->op == ENGINE_OP_WRITE)
		rc = (int)ioctx_lseek(io, r->fd, (int64_t)start, SEEK_SET);
	if (rc >= 0)
		rc = slot_buf(h, s, (size_t)n);
	if (rc < 0) {
		pthread_mutex_lock(&h->mu);
		vhook_track_undo(f, s, start, n);
		pthread_mutex_unlock(&h->mu);
		return rc;
	}
	stamp_region(h, s, f, start, n, gen);
	s->saved = r->buf;
	s->f = f;
	s->off = start;
	s->len = r->len;
	s->gen = gen;
	r->buf = s->buf;
	r->len = (size_t)n;
	if (r->op == ENGINE_OP_PWRITE)
		r->off = start;
	return 0;
}

/* The blocks of a completed stamped write that landed whole, noted or acknowledged. */
static void wrote(struct vhook *h, struct vh_slot *s, uint64_t done)
{
	uint64_t k, pen, last, i, p = 0, pl;
	struct vjournal_rec rec;

	if (!h->journal && !h->net)
		return;
	k = split(done, h->block, &pen, &last);
	pthread_mutex_lock(&h->mu);
	for (i = 0; i < k; i++, p += pl) {
		pl = i + 1 == k ? last : i + 2 == k ? pen : h->block;
		if (p + pl > done)
			break;
		rec.offset = s->off + p;
		rec.gen = s->gen;
		rec.file_id = s->f->file_id;
		rec.len = (uint32_t)pl;
		if (s->dsync)
			sink(h, &rec, 1);
		else if (pend_add(s->f, &rec) < 0 && !h->sink_err)
			h->sink_err = -ENOMEM;
	}
	pthread_mutex_unlock(&h->mu);
}

/* A write of region bytes landed: it may now be the file's last block. */
static void tail(struct vhook *h, struct vh_slot *s, uint64_t region)
{
	struct vh_file *f = s->f;
	uint64_t end = s->off + region;

	pthread_mutex_lock(&h->mu);
	if (end >= f->tail_off + f->tail_len) {
		f->tail_off = end - s->tail_len;
		f->tail_len = s->tail_len;
	}
	pthread_mutex_unlock(&h->mu);
}

void vhook_after(struct ioctx *io, struct engine_req *r)
{
	struct vhook *h = io->vh->h;
	struct vh_slot *s = &io->vh->slot[r->slot];
	struct vh_fd *fe;
	uint64_t region, pre;

	if (s->f) {
		region = r->len;
		pre = region - s->len;		/* bytes of the merged block before the write */
		r->buf = s->saved;
		r->len = s->len;
		if (r->op == ENGINE_OP_PWRITE)
			r->off = s->off + pre;
		if (s->trk) {
			pthread_mutex_lock(&h->mu);
			vhook_track_done(s->f, s, region, r->res);
			pthread_mutex_unlock(&h->mu);
		}
		if (r->res > 0) {
			if ((uint64_t)r->res == region) {
				tail(h, s, region);
				wrote(h, s, region);
			}
			/* the workload sees its own bytes: those past the merged block's start */
			r->res = (uint64_t)r->res > pre ? r->res - (int64_t)pre : 0;
		}
		s->f = NULL;
		return;
	}
	if ((r->op != ENGINE_OP_FSYNC && r->op != ENGINE_OP_FDATASYNC) || r->res != 0 ||
	    (!h->journal && !h->net))
		return;
	pthread_mutex_lock(&h->mu);
	fe = find_fd(h, r->fd);
	if (fe && fe->f->npend) {
		sink(h, fe->f->pend, fe->f->npend);
		fe->f->npend = 0;
	}
	pthread_mutex_unlock(&h->mu);
}

void vhook_forget_fd(struct ioctx *io, int fd)
{
	struct vhook *h = io->vh->h;
	struct vh_fd *fe;

	pthread_mutex_lock(&h->mu);
	fe = find_fd(h, fd);
	if (fe)
		*fe = h->fds[--h->nfds];
	pthread_mutex_unlock(&h->mu);
}

void vhook_detach(struct ioctx *io)
{
	unsigned i;

	if (!io->vh)
		return;
	for (i = 0; i < io->vh->nslot; i++)
		free(io->vh->slot[i].buf);
	free(io->vh->slot);
	free(io->vh);
	io->vh = NULL;
}

int vhook_attach(struct vhook *h, struct ioctx *io)
{
	struct vhook_io *v;
	unsigned i;

	if (!h || io->vh)
		return 0;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->h = h;
	v->nslot = io->depth + 1;
	v->slot = calloc(v->nslot, sizeof(*v->slot));
	if (!v->slot) {
		free(v);
		return -ENOMEM;
	}
	io->vh = v;
	/* the pool's buffers of one block each, prepared now rather than in the first
	 * timed writes (up to VH_EAGER bytes; the rest when first used) */
	for (i = 0; i < io->depth && (uint64_t)(i + 1) * h->block <= VH_EAGER; i++)
		if (slot_buf(h, &v->slot[i], h->block) < 0)
			break;
	return 0;
}

/* The file with id file_id, made when new (mutex held). NULL on ENOMEM. */
static struct vh_file *file_get(struct vhook *h, uint32_t file_id, const char *path)
{
	struct vh_file *f;
	size_t i;

	for (i = h->nfiles; i > 0; i--)	/* the newest first: reopens are usually recent */
		if (h->files[i - 1]->file_id == file_id)
			return h->files[i - 1];
	if (h->nfiles == h->fcap) {
		size_t cap = h->fcap ? h->fcap * 2 : 16;
		struct vh_file **p = realloc(h->files, cap * sizeof(*p));

		if (!p)
			return NULL;
		h->files = p;
		h->fcap = cap;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return NULL;
	}
	f->file_id = file_id;
	h->files[h->nfiles++] = f;
	return f;
}

int vhook_file(struct ioctx *io, int fd, const char *path, uint32_t file_id, uint64_t gen)
{
	struct vhook *h;
	struct vh_file *f;
	struct vh_fd *fe;
	int fl;

	if (!io->vh)
		return 0;
	h = io->vh->h;
	if (fd < 0 || (fl = fcntl(fd, F_GETFL)) < 0)
		return -EBADF;
	/* the hook serves O_APPEND itself, so that a merge can write from a block's start */
	if ((fl & O_APPEND) && fcntl(fd, F_SETFL, fl & ~O_APPEND) < 0)
		return -errno;
	pthread_mutex_lock(&h->mu);
	f = file_get(h, file_id, path);
	fe = find_fd(h, fd);
	if (!fe && f && h->nfds == h->dcap) {
		size_t cap = h->dcap ? h->dcap * 2 : 16;
		struct vh_fd *p = realloc(h->fds, cap * sizeof(*p));

		if (p) {
			h->fds = p;
			h->dcap = cap;
		}
	}
	if (!f || (!fe && h->nfds == h->dcap)) {
		pthread_mutex_unlock(&h->mu);
		return -ENOMEM;
	}
	if (!fe)
		fe = &h->fds[h->nfds++];
	fe->fd = fd;
	fe->f = f;
	fe->append = (fl & O_APPEND) != 0;
	fe->dsync = (fl & (O_DSYNC | O_SYNC)) != 0;
	f->gen = gen;
	pthread_mutex_unlock(&h->mu);
	return 0;
}

/* vhook_start and vhook_start_pattern: pat is NULL for the other data modes. */
static int vh_start(struct vhook **out, struct runner *rc, uint32_t block_len,
		    enum vblock_data data, const unsigned char *pat, size_t n, unsigned flags)
{
	struct vblock_geom g;
	struct vhook *h;
	int err;

	*out = NULL;
	if (!vhook_cfg_on(rc->verify))
		return 0;
	if (data == VBLOCK_DATA_PATTERN && (!pat || !n || n > VHOOK_PATTERN_MAX))
		return -EINVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (pat) {
		memcpy(h->pattern, pat, n);
		h->npattern = (uint32_t)n;
	}
	h->cfg = rc->verify;
	h->rc = rc;
	h->run_id = vblock_run_id();
	h->block = block_len < VH_MIN_BLOCK ? VH_MIN_BLOCK : block_len;
	memset(&g, 0, sizeof(g));
	g.run_id = h->run_id;
	g.len = h->block;
	g.unit_shift = (flags >> 8) & 0xff ? (uint8_t)((flags >> 8) & 0xff)
					   : VBLOCK_UNIT_SHIFT_DEFAULT;
	g.data = (uint8_t)data;
	g.flags = (flags & VHOOK_F_PASSES) ? VBLOCK_F_PASS : 0;
	g.pattern = h->npattern ? h->pattern : NULL;
	g.npattern = h->npattern;
	if ((err = pthread_mutex_init(&h->mu, NULL)) != 0) {
		free(h);
		return -err;
	}
	err = vblock_ctx_new(&h->ctx, &g);
	if (!err)
		err = vhook_sink_open(h);
	if (err) {
		vhook_stop(h);
		return err;
	}
	*out = h;
	return 0;
}

int vhook_start(struct vhook **out, struct runner *rc, uint32_t block_len,
		enum vblock_data data, unsigned flags)
{
	return vh_start(out, rc, block_len, data, NULL, 0, flags);
}

int vhook_start_pattern(struct vhook **out, struct runner *rc, uint32_t block_len,
			const unsigned char *pat, size_t n, unsigned flags)
{
	return vh_start(out, rc, block_len, VBLOCK_DATA_PATTERN, pat, n, flags);
}

int vhook_stop(struct vhook *h)
{
	size_t i;
	int rc = 0;

	if (!h)
		return 0;
	rc = vhook_sink_close(h);
	vhook_mark_rows(h);	/* the rows made after the verify row too */
	for (i = 0; i < h->nfiles; i++) {
		vhook_track_free(h->files[i]);
		free(h->files[i]->path);
		free(h->files[i]->pend);
		free(h->files[i]);
	}
	free(h->files);
	free(h->fds);
	vblock_ctx_free(h->ctx);
	pthread_mutex_destroy(&h->mu);
	free(h);
	return rc;
}

uint64_t vhook_run_id(const struct vhook *h)
{
	return h ? h->run_id : 0;
}

uint32_t vhook_block(const struct vhook *h)
{
	return h ? h->block : 0;
}
