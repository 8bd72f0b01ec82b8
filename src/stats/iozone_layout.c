/* iozone_layout.c - iozone's passes, columns, report titles and throughput words, and a
 * run's rows as a matrix with its cache cliff. See iozone_layout.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "stats/iozone_layout.h"
#include "stats/result.h"
#include "stats/result_keys.h"

/* Widths are iozone's: the header is printed "%16s%8s%9s%9s%8s%10s%8s %9s%9s %9s %9s..."
 * and each test prints its values "%9lld" (record rewrite and stride " %9lld"); the two
 * rows of a column do not always have the same width, so readers split on blanks. */
static const struct iozone_pass_info passes[IOZ_NPASS] = {
	[IOZ_WRITE] = { "write", 0, 0, 0, 0, "", "write", 9, 9, "Writer report", "Writer",
			"initial writers", 2, " \t", " \t" },
	[IOZ_REWRITE] = { "rewrite", 0, 1, 0, 0, "", "rewrite", 9, 9, "Re-writer report",
			  "Re-writer", "rewriters", 2, " \t", " \t" },
	[IOZ_READ] = { "read", 1, 0, 1, 0, "", "read", 8, 9, "Reader report", "Reader",
		       "readers", 2, " \t\t", " \t\t" },
	[IOZ_REREAD] = { "reread", 1, 1, 1, 0, "", "reread", 10, 9, "Re-Reader report",
			 "Re-Reader", "re-readers", 0, " \t", " \t" },
	[IOZ_RANDOM_READ] = { "random_read", 2, 0, 1, 0, "random", "read", 8, 9,
			      "Random read report", "Random read", "random readers", 0, " \t",
			      " \t" },
	[IOZ_RANDOM_WRITE] = { "random_write", 2, 0, 0, 0, "random", "write", 10, 9,
			       "Random write report", "Random write", "random writers", 0,
			       " \t", " \t" },
	[IOZ_BKWD_READ] = { "bkwd_read", 3, 0, 1, 0, "bkwd", "read", 9, 9,
			    "Backward read report", "Backward read", "reverse readers", 0, " \t",
			    " \t" },
	[IOZ_RECORD_REWRITE] = { "record_rewrite", 4, 0, 0, 0, "record", "rewrite", 10, 10,
				 "Record rewrite report", "Record rewrite", NULL, 0, NULL, NULL },
	[IOZ_STRIDE_READ] = { "stride_read", 5, 0, 1, 0, "stride", "read", 10, 10,
			      "Stride read report", "Stride read", "stride readers", 0, " \t",
			      " \t" },
	[IOZ_FWRITE] = { "fwrite", 6, 0, 0, 1, "", "fwrite", 9, 9, "Fwrite report", "Fwrite",
			 "fwriters", 2, " \t", " \t\t" },
	[IOZ_FREWRITE] = { "frewrite", 6, 1, 0, 1, "", "frewrite", 9, 9, "Re-Fwrite report",
			   "Re-Fwrite", NULL, 0, NULL, NULL },
	[IOZ_FREAD] = { "fread", 7, 0, 1, 1, "", "fread", 9, 9, "Fread report", "Fread",
			"freaders", 2, " \t", " \t\t" },
	[IOZ_FREREAD] = { "freread", 7, 1, 1, 1, "", "freread", 9, 9, "Re-Fread report",
			  "Re-Fread", NULL, 0, NULL, NULL },
	[IOZ_PWRITE] = { "pwrite", 9, 0, 0, 0, "", "pwrite", 8, 9, "Pwrite report", "Pwrite",
			 "pwrite writers", 0, " \t", " \t" },
	[IOZ_REPWRITE] = { "repwrite", 9, 1, 0, 0, "", "repwrite", 9, 9, "Re-Pwrite report",
			   "Re-Pwrite", NULL, 0, NULL, NULL },
	[IOZ_PREAD] = { "pread", 10, 0, 1, 0, "", "pread", 8, 8, "Pread report", "Pread",
			"pread readers", 0, " \t", " \t" },
	[IOZ_REPREAD] = { "repread", 10, 1, 1, 0, "", "repread", 10, 9, "Re-Pread report",
			  "Re-Pread", NULL, 0, NULL, NULL },
	[IOZ_RANDOM_MIX] = { "random_mix", 8, 0, 1, 0, NULL, NULL, 0, 0, NULL, "Random mix",
			     "mixed workload", 0, " \t", " \t" },
};

/* iozone's throughput mode runs the tests in this order (its throughput_test). */
const int iozone_tput_order[] = {
	IOZ_WRITE, IOZ_REWRITE, IOZ_READ, IOZ_REREAD, IOZ_BKWD_READ, IOZ_STRIDE_READ,
	IOZ_RANDOM_READ, IOZ_RANDOM_MIX, IOZ_RANDOM_WRITE, IOZ_PWRITE, IOZ_PREAD, IOZ_FWRITE,
	IOZ_FREAD, -1,
};

const struct iozone_pass_info *iozone_pass(int p)
{
	return p >= 0 && p < IOZ_NPASS ? &passes[p] : NULL;
}

int iozone_pass_of(const char *phase)
{
	int p;

	for (p = 0; phase && p < IOZ_NPASS; p++)
		if (!strcmp(passes[p].phase, phase))
			return p;
	return -1;
}

int iozone_pass_writes(int p)
{
	return p >= 0 && p < IOZ_NPASS && !passes[p].reads;
}

int iozone_is_row(const struct row *w)
{
	return w && w->workload && !strcmp(w->workload, IOZONE_WORKLOAD);
}

unsigned iozone_repeats(const struct run *run)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < run->nrows; i++)
		if (iozone_is_row(run->rows[i]) && run->rows[i]->repeat + 1 > n)
			n = run->rows[i]->repeat + 1;
	return n;
}

static uint64_t param_u64(const struct row *w, const char *key)
{
	const char *v = kv_get(&w->params, key);

	return v ? strtoull(v, NULL, 10) : 0;
}

/* Add v to the sorted set a[0..*n-1] (capacity cap). */
static void set_add(uint64_t *a, size_t *n, uint64_t v)
{
	size_t i, j;

	for (i = 0; i < *n && a[i] < v; i++)
		;
	if (i < *n && a[i] == v)
		return;
	for (j = *n; j > i; j--)
		a[j] = a[j - 1];
	a[i] = v;
	(*n)++;
}

static size_t set_index(const uint64_t *a, size_t n, uint64_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] == v)
			return i;
	return n;
}

int iozone_matrix_build(const struct run *run, unsigned rep, struct iozone_matrix *m)
{
	size_t i, n = 0, f, r;
	int p, found = 0;

	memset(m, 0, sizeof(*m));
	m->repeat = rep;
	for (i = 0; i < run->nrows; i++)
		n += iozone_is_row(run->rows[i]) && run->rows[i]->repeat == rep;
	if (!n)
		return 0;
	m->file_kb = calloc(n, sizeof(*m->file_kb));
	m->rec_kb = calloc(n, sizeof(*m->rec_kb));
	if (!m->file_kb || !m->rec_kb)
		goto nomem;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];

		if (!iozone_is_row(w) || w->repeat != rep || iozone_pass_of(w->phase) < 0)
			continue;
		set_add(m->file_kb, &m->nf, param_u64(w, RK_IOZ_FILE_KB));
		set_add(m->rec_kb, &m->nr, param_u64(w, RK_IOZ_RECLEN_KB));
	}
	m->cell = calloc((size_t)IOZ_NPASS * (m->nf ? m->nf : 1) * (m->nr ? m->nr : 1),
			 sizeof(*m->cell));
	if (!m->cell)
		goto nomem;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const struct metric *mk;

		p = iozone_pass_of(w->phase);
		if (!iozone_is_row(w) || w->repeat != rep || p < 0)
			continue;
		if (w->flags & (ROW_INCOMPLETE | ROW_FAILED))
			m->interrupted = 1;
		if (param_u64(w, RK_IOZ_WORKERS) > 1)
			m->workers = (unsigned)param_u64(w, RK_IOZ_WORKERS);
		f = set_index(m->file_kb, m->nf, param_u64(w, RK_IOZ_FILE_KB));
		r = set_index(m->rec_kb, m->nr, param_u64(w, RK_IOZ_RECLEN_KB));
		if (f >= m->nf || r >= m->nr)
			continue;
		iozone_at(m, p, f, r)->row = w;
		iozone_at(m, p, f, r)->kbps = (w->flags & (ROW_FAILED | ROW_NOT_MEASURED)) ?
					      -1 : w->rate;
		mk = row_metric(w, RK_IOZ_RAM_SPEED);
		iozone_at(m, p, f, r)->marked = mk && mk->value > 0;
		m->passes |= 1u << p;
		found++;
	}
	if (!found)	/* iozone rows, none of a known pass: nothing for the caller to free */
		iozone_matrix_free(m);
	return found;
nomem:
	iozone_matrix_free(m);
	return -ENOMEM;
}

void iozone_matrix_free(struct iozone_matrix *m)
{
	free(m->file_kb);
	free(m->rec_kb);
	free(m->cell);
	memset(m, 0, sizeof(*m));
}

void iozone_cliff_find(const struct iozone_matrix *m, struct iozone_cliff *c)
{
	static const int order[] = { IOZ_READ, IOZ_REREAD, IOZ_FREAD, IOZ_PREAD,
				     IOZ_RANDOM_READ };
	double best[128], res[128];
	uint64_t kb[128];
	size_t k, f, r, n = 0;

	memset(c, 0, sizeof(*c));
	c->pass = -1;
	c->hi_res = c->lo_res = -1;
	for (k = 0; k < sizeof(order) / sizeof(order[0]) && c->pass < 0; k++)
		if (m->passes & (1u << order[k]))
			c->pass = order[k];
	if (c->pass < 0)
		return;
	/* per file size: the best rate over the record sizes, and that cell's residency */
	for (f = 0; f < m->nf && n < 128; f++) {
		best[n] = -1;
		res[n] = -1;
		for (r = 0; r < m->nr; r++) {
			const struct iozone_cell *x = iozone_at(m, c->pass, f, r);

			if (x->row && x->kbps > best[n]) {
				best[n] = x->kbps;
				res[n] = x->row->cache_pct;
			}
		}
		if (best[n] > 0)
			kb[n++] = m->file_kb[f];
	}
	if (!n)
		return;
	c->from_kb = kb[0];
	c->to_kb = kb[n - 1];
	/* the cliff: the largest fall of the rate between consecutive sizes, when it is
	 * 2x or more */
	for (f = 1, k = 0; f < n; f++)
		if (best[f - 1] / best[f] > c->ratio) {
			c->ratio = best[f - 1] / best[f];
			k = f;
		}
	c->found = c->ratio >= 2.0;
	/* else where the file stops fitting: the first size read mostly from the device
	 * after one read mostly from RAM (residency when the read began) */
	for (f = 1; f < n && !c->found; f++)
		if (res[f - 1] >= 50 && res[f] >= 0 && res[f] < 50) {
			c->found = 1;
			k = f;
		}
	if (!c->found) {
		c->ratio = 0;
		return;
	}
	c->from_kb = kb[k - 1];
	c->to_kb = kb[k];
	c->hi_kbps = best[k - 1];
	c->lo_kbps = best[k];
	c->ratio = best[k - 1] / best[k];
	c->hi_res = res[k - 1];
	c->lo_res = res[k];
}

/* Does the page cache explain the fall of c? The larger file was read mostly from the
 * device (under half resident when its read began) while the smaller was not, or -
 * residency unknown - the larger file is around what the page cache holds (RAM or the
 * cgroup's memory limit: at least half of it). A fall between two files both resident,
 * or both far below the cache's size, is the CPU's caches. */
static int cliff_is_page_cache(const struct iozone_cliff *c, uint64_t cache_bytes)
{
	if (c->lo_res >= 0)
		return c->lo_res < 50 && (c->hi_res < 0 || c->hi_res >= c->lo_res);
	return !cache_bytes || c->to_kb * 1024ull * 2 >= cache_bytes;
}

char *iozone_cliff_line(char *buf, size_t len, const struct iozone_cliff *c,
			uint64_t cache_bytes)
{
	char a[32], b[32], fa[32], fb[32], cb[32];
	const char *what = c->pass >= 0 ? iozone_pass(c->pass)->phase : "reads";

	if (cache_bytes)
		units_fmt_bytes(cb, sizeof(cb), (double)cache_bytes);
	if (c->pass < 0) {
		snprintf(buf, len, "cache cliff: no read test in this run");
		return buf;
	}
	units_fmt_bytes(fa, sizeof(fa), (double)c->from_kb * 1024.0);
	units_fmt_bytes(fb, sizeof(fb), (double)c->to_kb * 1024.0);
	if (!c->found) {
		int past = cache_bytes && c->to_kb * 1024ull > cache_bytes;

		snprintf(buf, len, "cache cliff: none: %s rates stay within 2x from %s to %s%s%s%s",
			 what, fa, fb, cache_bytes ? (past ? ", past the page cache's size (about "
						       : "; all of it fits in the page cache "
							 "(about ") : "",
			 cache_bytes ? cb : "", cache_bytes ? (past ? ")" :
			 "): use -g above that size to reach the device") : "");
		return buf;
	}
	units_fmt_si(a, sizeof(a), c->hi_kbps * 1024.0, "B/s");
	units_fmt_si(b, sizeof(b), c->lo_kbps * 1024.0, "B/s");
	if (!cliff_is_page_cache(c, cache_bytes)) {
		/* both files were read from RAM: the fall is the CPU's caches, not the edge of
		 * the page cache, and is named so */
		snprintf(buf, len, "no cache cliff: %s rates fall from %s to %s between %s and "
			 "%s with both files in the page cache%s%s%s: a CPU-cache effect, not "
			 "the disk",
			 what, a, b, fa, fb, cache_bytes ? " (it holds about " : "",
			 cache_bytes ? cb : "", cache_bytes ? ")" : "");
		return buf;
	}
	snprintf(buf, len, "cache cliff: %s rates fall from %s to %s between %s and %s"
		 "%s%s%s", what, a, b, fa, fb,
		 cache_bytes ? ": the page cache holds about " : "", cache_bytes ? cb : "",
		 cache_bytes ? " here" : "");
	if (c->hi_res >= 0 && c->lo_res >= 0) {
		size_t n = strlen(buf);

		snprintf(buf + n, len > n ? len - n : 0, " (%.0f%% of the smaller file was in "
			 "the cache when its read began, %.0f%% of the larger)", c->hi_res,
			 c->lo_res);
	}
	return buf;
}
