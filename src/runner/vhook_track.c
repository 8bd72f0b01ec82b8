/* vhook_track.c - the generation each block must hold (vhook_track in vhook.h): a table
 * per file of the generation of each block's last write, kept in the request path, and
 * turned into the map the check holds the file to.
 *
 * Why "completed with no other write of that block in flight when it was issued": two
 * writes of one block that overlap in time (several threads on one file, or one thread's
 * queue) may land in either order, even mixed, so neither is the one the block must
 * hold. A write issued while none other of the block is in flight lands after every
 * earlier one; once it completes, the block holds its generation or a newer one's (a
 * later write, overlapping or not). So the table records only such writes, and the check
 * fails a block below it (stale: the storage lost a write it acknowledged) and accepts a
 * newer or newer-torn one (in flight, as with a journal). Generations rise in the order
 * writes are issued (vhook_before assigns them under the hook's mutex, with the count of
 * writes in flight), which is what makes "newer" mean "issued later". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runner/ioctx.h"
#include "runner/vhook_int.h"

/* The blocks of [start, start + n) in f's table, or 0 when the write is off the grid:
 * the blocks the hook makes of it must be the grid's (one block of grid bytes, or a run
 * of them when the grid is the hook's block length and the request is split). */
static int track_range(const struct vhook *h, const struct vh_file *f, uint64_t start,
		       uint64_t n, uint64_t *k0, uint64_t *k1)
{
	if (start % f->grid || n % f->grid || (n != f->grid && f->grid != h->block))
		return 0;
	*k0 = start / f->grid;
	*k1 = (start + n) / f->grid;
	return *k1 <= f->nblk;
}

void vhook_track_free(struct vh_file *f)
{
	free(f->blk);
	f->blk = NULL;
	f->nblk = 0;
}

void vhook_track_issue(struct vhook *h, struct vh_file *f, struct vh_slot *s, uint64_t start,
		       uint64_t n)
{
	uint64_t k0, k1, k;
	int clean = 1;

	s->trk = s->clean = 0;
	if (!f->blk)
		return;
	if (!track_range(h, f, start, n, &k0, &k1)) {
		/* the workload broke its rule: this file is held to any generation */
		h->tracked -= f->nblk;
		vhook_track_free(f);
		f->track_lost = 1;
		return;
	}
	for (k = k0; k < k1; k++)
		clean &= f->blk[k].busy++ == 0;
	s->trk = 1;
	s->clean = clean;
}

void vhook_track_undo(struct vh_file *f, struct vh_slot *s, uint64_t start, uint64_t n)
{
	uint64_t k;

	if (!s->trk)
		return;
	s->trk = 0;
	if (!f->blk)
		return;
	for (k = start / f->grid; k < (start + n) / f->grid && k < f->nblk; k++)
		if (f->blk[k].busy)
			f->blk[k].busy--;
}

void vhook_track_done(struct vh_file *f, struct vh_slot *s, uint64_t region, int64_t done)
{
	uint64_t k, k0, k1;

	if (!s->trk)
		return;
	s->trk = 0;
	if (!f->blk)
		return;	/* tracking was given up meanwhile */
	k0 = s->off / f->grid;
	k1 = (s->off + region) / f->grid;
	for (k = k0; k < k1 && k < f->nblk; k++) {
		if (f->blk[k].busy)
			f->blk[k].busy--;
		if (done < 0 || (uint64_t)done != region)
			f->blk[k].gen = 0;	/* what a failed or short write left: unknown */
		else if (s->clean)
			f->blk[k].gen = s->gen;
	}
}

int vhook_track(struct ioctx *io, uint32_t file_id, uint32_t grid, uint64_t size)
{
	struct vhook *h;
	struct vh_file *f = NULL;
	uint64_t n;
	size_t i;
	int rc = 1;

	if (!io->vh)
		return 0;
	h = io->vh->h;
	if (grid < VBLOCK_MIN_LEN || grid > h->block)
		return -EINVAL;
	n = size / grid;
	pthread_mutex_lock(&h->mu);
	for (i = 0; i < h->nfiles && !f; i++)
		if (h->files[i]->file_id == file_id)
			f = h->files[i];
	if (!f) {
		rc = -EINVAL;
	} else if (f->blk && f->grid == grid && f->nblk == n) {
		rc = 1;			/* tracked already (a thread reopening the file) */
	} else if (f->blk || f->track_lost || size % grid ||
		   h->tracked + n > VHOOK_TRACK_MAX) {
		/* a second grid, a file that is not whole blocks, or too large a table */
		h->tracked -= f->nblk;
		vhook_track_free(f);
		f->track_lost = 1;
		rc = 0;
	} else if (!(f->blk = calloc(n ? n : 1, sizeof(*f->blk)))) {
		f->track_lost = 1;
		rc = -ENOMEM;
	} else {
		f->grid = grid;
		f->nblk = n;
		h->tracked += n;
	}
	pthread_mutex_unlock(&h->mu);
	return rc;
}

int vhook_track_map(const struct vhook *h, const struct vh_file *f, struct vjournal_map *m)
{
	uint64_t k;
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	m->run_id = h->run_id;
	m->recs = malloc((f->nblk ? f->nblk : 1) * sizeof(*m->recs));
	if (!m->recs)
		return -ENOMEM;
	for (k = 0; k < f->nblk; k++) {
		if (!f->blk[k].gen)
			continue;	/* nothing known: the block is held to no generation */
		m->recs[n].offset = k * f->grid;
		m->recs[n].gen = f->blk[k].gen;
		m->recs[n].file_id = f->file_id;
		m->recs[n].len = f->grid;
		n++;
	}
	m->n = n;
	m->records = n;
	return 0;
}
