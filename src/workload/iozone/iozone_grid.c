/* iozone_grid.c - the (file size, record size) cells of iozone's grid, the passes of a
 * cell, and the access orders of the stride and random tests. Pure; see iozone.h.
 *
 * The grid (iozone's auto_test): file sizes from the minimum, times the multiplier, up
 * to the maximum; for each, the record sizes likewise, never above the file. Files above
 * 16 MiB start at 64 KiB records (iozone's crossover) unless -z, or unless the sizes
 * were given with -s, -r, -y or -q. -a alone: 64 KiB .. 512 MiB by 4 KiB .. 16 MiB,
 * 126 cells. */
#include <string.h>

#include "core/rng.h"
#include "workload/iozone/iozone.h"

/* Sizes from lo times mult up to hi, into out (capacity cap). Returns the count. */
static size_t range(uint64_t lo, uint64_t hi, unsigned mult, uint64_t *out, size_t cap)
{
	size_t n = 0;
	uint64_t v;

	for (v = lo; v && v <= hi && n < cap; v *= mult) {
		out[n++] = v;
		if (v > UINT64_MAX / mult)
			break;
	}
	return n;
}

static size_t list_or_range(const uint64_t *list, unsigned nlist, int autom, int lo_set,
			    uint64_t lo_v, int hi_set, uint64_t hi_v, uint64_t def_lo,
			    uint64_t def_hi, uint64_t def_single, unsigned mult, uint64_t *out,
			    size_t cap)
{
	uint64_t lo, hi;
	size_t i;

	if (!autom || nlist > 1) {
		if (!nlist) {
			out[0] = def_single;
			return 1;
		}
		for (i = 0; i < nlist && i < cap; i++)
			out[i] = list[i];
		return i;
	}
	lo = nlist ? list[0] : def_lo;
	hi = nlist ? list[0] : def_hi;
	if (lo_set)
		lo = lo_v;
	if (hi_set)
		hi = hi_v;
	return range(lo, hi, mult, out, cap);
}

size_t iozone_grid(const struct iozone_cfg *c, struct iozone_cellsz *out, size_t max)
{
	uint64_t files[128], recs[128];
	size_t nf, nr, f, r, n = 0;
	int cross;

	nf = list_or_range(c->sizes_kb, c->nsizes, c->autom, c->n_set, c->min_kb, c->g_set,
			   c->max_kb, IOZ_AUTO_MIN_KB, IOZ_AUTO_MAX_KB,
			   c->workers ? IOZ_TPUT_DEF_FILE_KB : IOZ_DEF_FILE_KB, c->multiplier,
			   files, 128);
	nr = list_or_range(c->recs_kb, c->nrecs, c->autom, c->y_set, c->min_rec_kb, c->q_set,
			   c->max_rec_kb, IOZ_AUTO_MIN_REC_KB, IOZ_MAX_REC_KB, IOZ_DEF_REC_KB,
			   c->multiplier, recs, 128);
	/* iozone skips the small records of big files only for its own default grid */
	cross = c->autom && !c->nocross && !c->nsizes && !c->nrecs && !c->y_set && !c->q_set;
	for (f = 0; f < nf; f++)
		for (r = 0; r < nr; r++) {
			if (recs[r] > files[f])
				continue;
			if (cross && files[f] > IOZ_CROSSOVER_KB && recs[r] < IOZ_LARGE_REC_KB)
				continue;
			if (out && n < max)
				out[n] = (struct iozone_cellsz){ files[f], recs[r] };
			n++;
		}
	return n;
}

int iozone_passes(const struct iozone_cfg *c, int *out)
{
	/* table mode: iozone's func[] order, each test with its re- pass */
	static const int table[] = {
		IOZ_WRITE, IOZ_REWRITE, IOZ_READ, IOZ_REREAD, IOZ_RANDOM_READ,
		IOZ_RANDOM_WRITE, IOZ_BKWD_READ, IOZ_RECORD_REWRITE, IOZ_STRIDE_READ,
		IOZ_FWRITE, IOZ_FREWRITE, IOZ_FREAD, IOZ_FREREAD, IOZ_PWRITE, IOZ_REPWRITE,
		IOZ_PREAD, IOZ_REPREAD, -1,
	};
	const int *order = c->workers ? iozone_tput_order : table;
	unsigned t = iozone_tests(c);
	int n = 0, k;

	for (k = 0; order[k] >= 0; k++) {
		const struct iozone_pass_info *p = iozone_pass(order[k]);

		if (!(t & (1u << p->test)))
			continue;
		if (p->retest && c->no_retest)
			continue;
		/* as iozone: the stdio tests do not run with its POSIX async I/O */
		if (p->stdio && c->depth)
			continue;
		out[n++] = order[k];
	}
	out[n] = -1;
	return n;
}

void iozone_stride_order(uint64_t n, uint64_t stride, uint64_t *out)
{
	uint64_t i, r = 0, wraps = 0;

	/* iozone's rule, in records: read r; when the next start (r + stride) would reach
	 * the last record, start again at the number of wraps so far, else go on by
	 * stride. */
	for (i = 0; i < n; i++) {
		out[i] = r;
		if (r + 1 + stride >= n - 1 || n <= 1) {
			wraps++;
			r = n <= stride ? 0 : wraps % n;
		} else {
			r += stride;
		}
	}
}

void iozone_random_order(uint64_t n, uint64_t seed, uint64_t *out)
{
	struct rng g;
	uint64_t i, j, t;

	for (i = 0; i < n; i++)
		out[i] = i;
	rng_seed(&g, seed);
	/* Fisher-Yates: every record exactly once */
	for (i = n; i > 1; i--) {
		j = rng_below(&g, i);
		t = out[i - 1];
		out[i - 1] = out[j];
		out[j] = t;
	}
}

uint64_t iozone_space_needed(const struct iozone_cfg *c)
{
	struct iozone_cellsz cells[IOZ_MAX_CELLS];
	size_t n = iozone_grid(c, cells, IOZ_MAX_CELLS), i;
	uint64_t big = 0;

	for (i = 0; i < n && i < IOZ_MAX_CELLS; i++)
		if (cells[i].file_kb > big)
			big = cells[i].file_kb;
	return big * 1024 * (c->workers ? c->workers : 1);
}
