/* verify.c - walk a file of verified blocks, judge each, count per class; the same
 * against a journal of acknowledged generations. See verify.h for the rules. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/crc32c.h"
#include "core/rfile.h"
#include "fs/scratch.h"
#include "verify/verify.h"

#define WIN_MIN (4u << 20)	/* read window: at least 4 MiB, at least two blocks */
#define SCAN_STEP 512		/* where a first header may start: the smallest sector */

struct walk {
	int fd;
	uint64_t size;
	unsigned char *win;	/* bytes [wpos, wpos + wlen) of the file */
	size_t cap, wlen;
	uint64_t wpos;
	struct vblock_ctx *ctx;
	const unsigned char *pattern;	/* verify_opts.pattern: VBLOCK_DATA_PATTERN's */
	uint32_t npattern;
	uint64_t run_id;
	uint32_t file_id;
	enum verify_gen_rule rule;
	uint64_t min_gen;
	const struct vjournal_map *j;
	/* VERIFY_GEN_UNIFORM: blocks below the newest generation seen so far are stale */
	uint64_t max_gen, at_max, first_at_max, stale_n, stale_first;
};

/* Bytes read (fewer than n only at the end of the file) or -errno. */
static ssize_t pread_full(int fd, unsigned char *p, size_t n, uint64_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fd, p + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Make [pos, pos + n) readable at w->win + (pos - w->wpos), n <= size - pos. Keeps what
 * the window already holds from pos on and reads the rest in one go. 0 or -errno
 * (-EIO when the file ends early: it shrank while being read). */
static int win_get(struct walk *w, uint64_t pos, size_t n)
{
	size_t keep = 0;
	unsigned char *p;
	ssize_t got;

	if (pos >= w->wpos && pos + n <= w->wpos + w->wlen)
		return 0;
	if (n > w->cap) {
		size_t cap = n + WIN_MIN;

		p = realloc(w->win, cap);
		if (!p)
			return -ENOMEM;
		w->win = p;
		w->cap = cap;
	}
	if (pos >= w->wpos && pos < w->wpos + w->wlen) {
		keep = (size_t)(w->wpos + w->wlen - pos);
		memmove(w->win, w->win + (pos - w->wpos), keep);
	}
	w->wpos = pos;
	w->wlen = keep;
	got = pread_full(w->fd, w->win + keep, w->cap - keep, pos + keep);
	if (got < 0)
		return (int)got;
	w->wlen += (size_t)got;
	return w->wlen >= n ? 0 : -EIO;
}

static const unsigned char *win_at(const struct walk *w, uint64_t pos)
{
	return w->win + (pos - w->wpos);
}

/* The first valid header (of run want_run unless 0, of file want_file unless < 0) on a
 * SCAN_STEP boundary within VERIFY_SCAN_MAX. 0 and *h, -EINVAL none, or -errno. */
static int find_first(struct walk *w, uint64_t want_run, int64_t want_file,
		      struct vblock_header *h)
{
	uint64_t p, end = w->size < VERIFY_SCAN_MAX ? w->size : VERIFY_SCAN_MAX;
	int rc;

	for (p = 0; p < end && w->size - p >= VBLOCK_HDR_LEN; p += SCAN_STEP) {
		rc = win_get(w, p, VBLOCK_HDR_LEN);
		if (rc)
			return rc;
		if (vblock_header_parse(win_at(w, p), VBLOCK_HDR_LEN, h) == 0 &&
		    (!want_run || h->geom.run_id == want_run) &&
		    (want_file < 0 || h->file_id == (uint64_t)want_file))
			return 0;
	}
	return -EINVAL;
}

/* A context for geometry g (the run's), replacing the walk's. 0 or -errno. */
static int use_ctx(struct walk *w, const struct vblock_geom *hg)
{
	struct vblock_ctx *c;
	struct vblock_geom g = *hg;
	int rc;

	if (g.data == VBLOCK_DATA_PATTERN) {
		g.pattern = w->pattern;
		g.npattern = w->npattern;
	}
	rc = vblock_ctx_new(&c, &g);

	if (rc)
		return rc;
	vblock_ctx_free(w->ctx);
	w->ctx = c;
	return 0;
}

static void tally(struct walk *w, struct verify_summary *s, uint64_t pos,
		  const struct vblock_result *r)
{
	enum vblock_class k = r->cls;

	s->blocks++;
	s->count[k]++;
	if (s->first[k] == VERIFY_NONE) {
		s->first[k] = pos;
		s->first_byte[k] = r->bad_byte == VBLOCK_NO_BYTE ? VERIFY_NONE : pos + r->bad_byte;
	}
	if (k != VBLOCK_OK && !(k == VBLOCK_INFLIGHT && r->gen))
		return;
	if (!s->gen_max || r->gen < s->gen_min)
		s->gen_min = r->gen;
	s->gen_max = r->gen > s->gen_max ? r->gen : s->gen_max;
	if (k != VBLOCK_OK || w->rule != VERIFY_GEN_UNIFORM)
		return;
	if (!w->at_max || r->gen > w->max_gen) {
		if (w->at_max) {
			w->stale_n += w->at_max;
			w->stale_first = w->first_at_max < w->stale_first ? w->first_at_max
									  : w->stale_first;
		}
		w->max_gen = r->gen;
		w->at_max = 1;
		w->first_at_max = pos;
	} else if (r->gen == w->max_gen) {
		w->at_max++;
	} else {
		w->stale_n++;
		w->stale_first = pos < w->stale_first ? pos : w->stale_first;
	}
}

/* VERIFY_GEN_UNIFORM, at the end: the blocks found ok below the newest generation are
 * stale; the first of them is its block's first bad byte (the whole block is old). */
static void uniform_finish(struct walk *w, struct verify_summary *s)
{
	if (w->rule != VERIFY_GEN_UNIFORM || !w->at_max)
		return;
	s->count[VBLOCK_OK] -= w->stale_n;
	s->count[VBLOCK_STALE] += w->stale_n;
	s->first[VBLOCK_OK] = w->first_at_max;
	if (w->stale_n && w->stale_first < s->first[VBLOCK_STALE])
		s->first[VBLOCK_STALE] = s->first_byte[VBLOCK_STALE] = w->stale_first;
	s->gen_min = s->gen_max = w->max_gen;
}

/* Judge the block at pos; *len: the walk's stride in, the block's length out. */
static int walk_block(struct walk *w, struct verify_summary *s, uint64_t pos, uint64_t *len)
{
	struct vblock_expect e = { pos, w->min_gen, w->file_id, 0 };
	const struct vjournal_rec *jr;
	struct vblock_header h;
	struct vblock_result r;
	uint64_t avail = w->size - pos, n = *len;
	int rc;

	rc = win_get(w, pos, avail < VBLOCK_HDR_LEN ? (size_t)avail : VBLOCK_HDR_LEN);
	if (rc)
		return rc;
	if (avail >= VBLOCK_HDR_LEN && vblock_header_parse(win_at(w, pos), avail, &h) == 0 &&
	    h.geom.run_id == w->run_id && h.offset == pos && h.file_id == w->file_id) {
		n = *len = h.geom.len;
		if (n > avail) {	/* the file ends inside this block */
			memset(&r, 0, sizeof(r));
			r.cls = VBLOCK_MISSING;
			r.bad_byte = avail;
			tally(w, s, pos, &r);
			*len = avail;
			return 0;
		}
		if (n > vblock_ctx_geom(w->ctx)->len && (rc = use_ctx(w, &h.geom)) != 0)
			return rc;
	}
	n = n < avail ? n : avail;
	rc = win_get(w, pos, (size_t)n);
	if (rc)
		return rc;
	if (w->j) {
		jr = vjournal_find(w->j, w->file_id, pos);
		e.min_gen = jr ? jr->gen : 0;
		e.flags = VBLOCK_EXP_INFLIGHT;
	}
	vblock_check(w->ctx, win_at(w, pos), (size_t)n, &e, &r);
	tally(w, s, pos, &r);
	*len = n;
	return 0;
}

/* Journal records of this file past its end: acknowledged blocks that are missing. */
static void journal_tail(struct walk *w, struct verify_summary *s)
{
	const struct vjournal_rec *jr = vjournal_next(w->j, w->file_id, w->size);
	struct vblock_result r;

	memset(&r, 0, sizeof(r));
	r.cls = VBLOCK_MISSING;
	r.bad_byte = 0;
	for (; jr && jr < w->j->recs + w->j->n && jr->file_id == w->file_id; jr++)
		tally(w, s, jr->offset, &r);
}

static void summary_init(struct verify_summary *s)
{
	int k;

	memset(s, 0, sizeof(*s));
	for (k = 0; k < VBLOCK_NCLASS; k++)
		s->first[k] = s->first_byte[k] = VERIFY_NONE;
	s->crc_path = crc32c_path();
}

static int file_size(int fd, uint64_t *size)
{
	struct stat st;
	off_t cur, end;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return -EINVAL;
	cur = lseek(fd, 0, SEEK_CUR);
	end = lseek(fd, 0, SEEK_END);
	if (cur < 0 || end < 0 || lseek(fd, cur, SEEK_SET) < 0)
		return -errno;
	*size = (uint64_t)end;
	return 0;
}

static int walk_all(struct walk *w, struct verify_summary *s, uint64_t stride)
{
	uint64_t pos, len;
	int rc;

	for (pos = 0; pos < w->size; pos += len) {
		if (sig_stop_requested())
			return -EINTR;
		len = stride;
		rc = walk_block(w, s, pos, &len);
		if (rc)
			return rc;
		stride = len ? len : stride;
	}
	if (w->j)
		journal_tail(w, s);
	uniform_finish(w, s);
	return 0;
}

int verify_fd(int fd, const struct verify_opts *o, const struct vjournal_map *j,
	      struct verify_summary *out)
{
	static const struct verify_opts defaults = { .file_id = -1 };
	struct walk w = { .fd = fd, .stale_first = VERIFY_NONE };
	struct vblock_header h;
	uint64_t want_run;
	int rc, k;

	o = o ? o : &defaults;
	summary_init(out);
	want_run = o->run_id ? o->run_id : j ? j->run_id : 0;
	if (o->run_id && j && o->run_id != j->run_id)
		return -EINVAL;
	w.pattern = o->pattern;
	w.npattern = o->npattern;
	rc = file_size(fd, &w.size);
	if (!rc)
		rc = find_first(&w, want_run, o->file_id, &h);
	if (!rc)
		rc = use_ctx(&w, &h.geom);
	if (rc)
		goto out;
	out->size = w.size;
	out->run_id = w.run_id = h.geom.run_id;
	out->file_id = w.file_id = h.file_id;
	out->block_len = h.geom.len;
	out->unit_shift = h.geom.unit_shift;
	out->data = h.geom.data;
	out->flags = h.geom.flags;
	w.j = j;
	w.rule = o->gen_rule;
	if (w.rule == VERIFY_GEN_AUTO)
		w.rule = (h.geom.flags & VBLOCK_F_PASS) ? VERIFY_GEN_UNIFORM : VERIFY_GEN_ANY;
	if (j)
		w.rule = VERIFY_GEN_ANY;	/* the journal decides */
	w.min_gen = w.rule == VERIFY_GEN_MIN ? o->min_gen : 0;
	out->gen_rule = w.rule;
	if (j) {
		out->journal = 1;
		out->journal_records = j->records;
		out->journal_damaged = j->damaged;
	}
	rc = walk_all(&w, out, h.geom.len);
	if (!rc) {
		for (k = 0; k < VBLOCK_NCLASS; k++)
			if (vblock_class_bad((enum vblock_class)k))
				out->bad += out->count[k];
		rc = out->bad ? 1 : 0;
	}
out:
	vblock_ctx_free(w.ctx);
	free(w.win);
	return rc;
}

int verify_file(const char *path, const struct verify_opts *o, struct verify_summary *out)
{
	struct vjournal_map map, *jm = NULL;
	int fd, jfd, rc;

	summary_init(out);
	out->err_path = path;
	if (o && o->journal_path) {
		/* core/rfile: a FIFO or a device is refused at once, never waited on */
		jfd = rfile_open(o->journal_path, 0);
		if (jfd < 0) {
			out->err_path = o->journal_path;
			return jfd == -EINVAL ? -ENXIO : jfd;
		}
		rc = vjournal_load(jfd, &map);
		if (close(jfd) != 0 && !rc) {
			rc = -errno;
			vjournal_map_free(&map);
		}
		if (rc) {
			out->err_path = o->journal_path;
			return rc;
		}
		jm = &map;
	}
	fd = rfile_open(path, RFILE_BLOCKDEV);
	if (fd < 0) {
		rc = fd == -EINVAL ? -ENXIO : fd;
	} else {
		rc = verify_fd(fd, o, jm, out);
		if (close(fd) != 0 && rc >= 0)
			rc = -errno;
	}
	if (jm)
		vjournal_map_free(jm);
	out->err_path = path;
	return rc;
}
