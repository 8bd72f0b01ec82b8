/* postmark_algo.c - PostMark's algorithm: a table of 2 * number slots, an initial pool of
 * number files, transactions that each pair a read or append with a create or delete,
 * and the final deletion. The random draws happen in PostMark's order:
 *   1. 2 * size_high draws for the data source (printable bytes 32..126);
 *   2. per create: the location (only with several), the subdirectory (only with more
 *      than one), then the size low + RND(high - low);
 *   3. per transaction: RND(10) against bias read, then files are picked by drawing
 *      RND(2 * number) until an occupied slot comes up; an append draws its length
 *      RND(high - size) + 1 when the file is below size_high; then RND(10) against bias
 *      create, a create as in 2, or a delete of a file picked as above.
 * A free slot for a create is the cursor's slot when free, else the first free slot. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "fs/scratch.h"
#include "runner/runner.h"
#include "stats/hist.h"
#include "workload/postmark/postmark.h"

static int dry_create(void *ctx, const struct pm_file *f, const char *src)
{
	(void)ctx; (void)f; (void)src;
	return 0;
}
static int dry_read(void *ctx, const struct pm_file *f)
{
	(void)ctx; (void)f;
	return 0;
}
static int dry_append(void *ctx, const struct pm_file *f, const char *src, uint32_t len)
{
	(void)ctx; (void)f; (void)src; (void)len;
	return 0;
}
static int dry_remove(void *ctx, const struct pm_file *f)
{
	(void)ctx; (void)f;
	return 0;
}

const struct pm_io pm_io_dry = { dry_create, dry_read, dry_append, dry_remove };

/* Decimal digits of v into the end of buf; returns the start. */
static char *put_u32(char *end, uint32_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

int pm_file_name(const struct pm_file *f, int subdirs, char *buf, size_t len)
{
	char tmp[32], *p = tmp + sizeof(tmp);
	size_t n;

	p = put_u32(p, f->id);
	if (subdirs) {
		*--p = '/';
		p = put_u32(p, f->sub);
		*--p = 's';
	}
	n = (size_t)(tmp + sizeof(tmp) - p);
	if (n + 1 > len)
		return -ENAMETOOLONG;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return (int)n;
}

/* Occupancy bitmaps: used[] has one bit per slot (bits past the table set, so never
 * free), full[] one bit per word of used[] that has no free slot. The first free slot is
 * then a scan of full[] (1 bit per 64 slots) and one word, instead of PostMark's walk of
 * the whole table; the slot found is the same. */
static void slot_take(struct pm_state *st, uint32_t i)
{
	uint32_t w = i / 64;

	st->used[w] |= 1ull << (i % 64);
	if (st->used[w] == ~0ull)
		st->full[w / 64] |= 1ull << (w % 64);
}

static void slot_free(struct pm_state *st, uint32_t i)
{
	uint32_t w = i / 64;

	st->used[w] &= ~(1ull << (i % 64));
	st->full[w / 64] &= ~(1ull << (w % 64));
}

static int bitmaps_init(struct pm_state *st)
{
	uint32_t nw = (st->ntab + 63) / 64, i;

	st->nfull = (nw + 63) / 64;
	st->used = calloc(st->nfull * 64, sizeof(*st->used));
	st->full = calloc(st->nfull, sizeof(*st->full));
	if (!st->used || !st->full)
		return -ENOMEM;
	for (i = st->ntab; i < st->nfull * 64 * 64; i++)
		slot_take(st, i);
	return 0;
}

int pm_state_init(struct pm_state *st, const struct pm_config *cfg, const struct pm_io *io,
		  void *io_ctx)
{
	uint32_t i, k, n;
	unsigned l;

	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->io = io;
	st->io_ctx = io_ctx;
	pm_mt_seed(&st->mt, cfg->seed);
	/* The source is 4096-aligned so that O_DIRECT writes from it can work. */
	n = cfg->size_high * 2;
	if (posix_memalign((void **)&st->source, 4096, n ? n : 1))
		goto nomem;
	for (i = 0; i < n; i++)
		st->source[i] = (char)(32 + pm_rnd(&st->mt, 95));
	st->ntab = cfg->number * 2;
	st->tab = calloc(st->ntab, sizeof(*st->tab));
	if (!st->tab || bitmaps_init(st) < 0)
		goto nomem;
	for (l = 0; l < cfg->nlocs; l++)
		st->weight_sum += cfg->locs[l].weight;
	if (cfg->nlocs > 1) {
		st->loc_index = malloc(st->weight_sum * sizeof(*st->loc_index));
		if (!st->loc_index)
			goto nomem;
		for (l = 0, k = 0; l < cfg->nlocs; l++)
			for (i = 0; i < cfg->locs[l].weight; i++)
				st->loc_index[k++] = l;
	}
	for (k = 0; k < PM_OP_N; k++) {
		st->op_w[k] = calloc(1, sizeof(struct worker));
		if (!st->op_w[k])
			goto nomem;
		hist_init(&st->op_w[k]->lat);
	}
	return 0;
nomem:
	pm_state_free(st);
	return -ENOMEM;
}

void pm_state_free(struct pm_state *st)
{
	unsigned k;

	free(st->source);
	free(st->tab);
	free(st->used);
	free(st->full);
	free(st->loc_index);
	for (k = 0; k < PM_OP_N; k++)
		free(st->op_w[k]);
	memset(st, 0, sizeof(*st));
}

static void note_err(struct pm_state *st, int err, enum pm_op op)
{
	if (!st->err) {
		st->err = err;
		st->err_op = op;
	}
}

static int64_t first_free(const struct pm_state *st)
{
	uint32_t k, w;

	for (k = 0; k < st->nfull; k++) {
		if (st->full[k] == ~0ull)
			continue;
		w = k * 64 + (uint32_t)__builtin_ctzll(~st->full[k]);
		return (int64_t)w * 64 + __builtin_ctzll(~st->used[w]);
	}
	return -1;
}

/* A free slot: the cursor's when free, else the first free one; -1 when full. */
static int64_t find_free(struct pm_state *st)
{
	int64_t i;

	if (st->next < st->ntab && !st->tab[st->next].size)
		return st->next++;
	i = first_free(st);
	if (i < 0 || i >= st->ntab)
		return -1;
	st->next = (uint32_t)i + 1;
	return i;
}

/* A random occupied slot (the caller knows one exists). */
static uint32_t find_used(struct pm_state *st)
{
	uint32_t i;

	do
		i = pm_rnd(&st->mt, st->ntab);
	while (!st->tab[i].size);
	return i;
}

/* One unit of the current stage (a file, a transaction) ended at t1: the runner's
 * record of it in the stage's worker (its ops and bytes are set by the caller after). */
static inline void stage_unit(struct pm_state *st, uint64_t t0, uint64_t t1)
{
	if (st->stage_w)
		worker_record(st->stage_w, t1 - t0, 0, t1);
}

static void create_one(struct pm_state *st)
{
	const struct pm_config *c = st->cfg;
	struct pm_file *f;
	int64_t slot = find_free(st);
	uint64_t t0;
	int r;

	if (slot < 0)
		return;
	slot_take(st, (uint32_t)slot);
	f = &st->tab[slot];
	f->loc = c->nlocs > 1 ? st->loc_index[pm_rnd(&st->mt, st->weight_sum)] : 0;
	f->sub = c->subdirs > 1 ? pm_rnd(&st->mt, c->subdirs) : 0;
	f->id = (uint32_t)++st->c.created;
	f->size = c->size_low + pm_rnd(&st->mt, c->size_high - c->size_low);
	t0 = op_begin();
	r = st->io->create(st->io_ctx, f, st->source);
	op_end(st->op_w[PM_OP_CREATE], t0, r);
	if (r < 0) {
		note_err(st, r, PM_OP_CREATE);
		if (r != -ENOSPC && r != -EDQUOT) {
			f->size = 0;	/* nothing was made: nothing to delete */
			slot_free(st, (uint32_t)slot);
		}
		return;
	}
	st->c.bytes_written += f->size;
}

static void delete_one(struct pm_state *st, uint32_t i)
{
	struct pm_file *f = &st->tab[i];
	uint64_t t0;
	int r;

	if (!f->size)
		return;
	t0 = op_begin();
	r = st->io->remove(st->io_ctx, f);
	op_end(st->op_w[PM_OP_DELETE], t0, r);
	if (r < 0) {
		note_err(st, r, PM_OP_DELETE);
		return;
	}
	f->size = 0;
	slot_free(st, i);
	st->c.deleted++;
}

static void read_one(struct pm_state *st, uint32_t i)
{
	const struct pm_file *f = &st->tab[i];
	uint64_t t0 = op_begin();
	int r = st->io->read(st->io_ctx, f);

	op_end(st->op_w[PM_OP_READ], t0, r);
	if (r < 0) {
		note_err(st, r, PM_OP_READ);
		return;
	}
	st->c.bytes_read += f->size;
	st->c.read++;
}

static void append_one(struct pm_state *st, uint32_t i)
{
	struct pm_file *f = &st->tab[i];
	uint32_t len;
	uint64_t t0;
	int r;

	if (f->size >= st->cfg->size_high)
		return;
	len = pm_rnd(&st->mt, st->cfg->size_high - f->size) + 1;
	t0 = op_begin();
	r = st->io->append(st->io_ctx, f, st->source, len);
	op_end(st->op_w[PM_OP_APPEND], t0, r);
	if (r < 0) {
		note_err(st, r, PM_OP_APPEND);
		return;
	}
	f->size += len;
	st->c.bytes_written += len;
	st->c.bytes_appended += len;
	st->c.appended++;
}

static void dots(struct pm_state *st, const char *s)
{
	if (st->dots) {
		fputs(s, st->dots);
		fflush(st->dots);
	}
}

void pm_create_pool(struct pm_state *st)
{
	uint64_t t0 = clock_ns(), t1;
	uint32_t i;

	dots(st, "Creating files...");
	for (i = 0; i < st->cfg->number && !st->err && !sig_stop_requested(); i++) {
		create_one(st);
		t1 = clock_ns();
		stage_unit(st, t0, t1);
		t0 = t1;
	}
	st->c.created_alone = st->c.created;
	dots(st, "Done\n");
}

uint64_t pm_transactions(struct pm_state *st)
{
	const struct pm_config *c = st->cfg;
	uint32_t i, tenth = c->transactions / 10;
	uint64_t t0, t1;

	dots(st, "Performing transactions");
	t0 = clock_ns();
	for (i = 0; i < c->transactions; i++) {
		if (st->err || sig_stop_requested())
			break;
		if (st->c.created == st->c.deleted) {
			st->c.out_of_files = 1;
			break;
		}
		if (c->bias_read != -1) {
			if (pm_rnd(&st->mt, 10) < (uint32_t)c->bias_read)
				read_one(st, find_used(st));
			else
				append_one(st, find_used(st));
		}
		if (c->bias_create != -1) {
			if (pm_rnd(&st->mt, 10) < (uint32_t)c->bias_create)
				create_one(st);
			else
				delete_one(st, find_used(st));
		}
		t1 = clock_ns();
		stage_unit(st, t0, t1);
		t0 = t1;
		st->c.transactions++;
		if (tenth && i % tenth == 0)
			dots(st, ".");
	}
	if (st->c.out_of_files)
		dots(st, "out of files!\n");
	else if (i == c->transactions)
		dots(st, "Done\n");
	else
		dots(st, "stopped\n");
	return st->c.transactions;
}

void pm_delete_all(struct pm_state *st)
{
	uint64_t before = st->c.deleted, t0 = clock_ns(), t1;
	uint32_t i;

	dots(st, "Deleting files...");
	for (i = 0; i < st->ntab; i++) {
		if (!st->tab[i].size)
			continue;
		delete_one(st, i);
		t1 = clock_ns();
		stage_unit(st, t0, t1);
		t0 = t1;
	}
	st->c.deleted_alone = st->c.deleted - before;
	dots(st, "Done\n");
}
