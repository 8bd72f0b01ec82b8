/* vblock.c - the verified block format: template, header and stamps, the CRC by
 * linearity, and the checker. Layout in vblock.h and docs/methodology.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/crc32c.h"
#include "core/le.h"
#include "core/rng.h"
#include "verify/vblock.h"

static const unsigned char vblock_magic[4] = { 'i', 'o', 'b', 'V' };

/* header field offsets */
enum {
	H_MAGIC = 0, H_VERSION = 4, H_HDRLEN = 6, H_LEN = 8, H_UNIT = 12, H_DATA = 13,
	H_FLAGS = 14, H_RUN = 16, H_OFFSET = 24, H_GEN = 32, H_FILE = 40, H_BCRC = 56,
	H_HCRC = 60,
};
/* stamp field offsets */
enum { S_RUN = 0, S_OFFSET = 8, S_GEN = 16, S_FILE = 24, S_CRC = 28 };

struct vblock_ctx {
	struct vblock_geom g;
	uint32_t unit;		/* 1 << unit_shift */
	uint32_t nstamps;	/* stamped units after the first, at this length */
	uint32_t tmpl_reg;	/* CRC register R(~0, template) */
	uint32_t stamps_reg;	/* R(0, the stamps alone), the same for every block */
	struct crc32c_shift sh_body;	/* over the len - 64 bytes after the header */
	unsigned char *tmpl;
};

static const unsigned char vblock_zeros[4096];

/* R(reg, bytes): the CRC register update without the inversions (crc32c.h). */
static inline uint32_t reg_update(uint32_t reg, const void *p, size_t n)
{
	return ~crc32c(~reg, p, n);
}

/* Stamped units after the first for a block of len bytes: those whose 32-byte stamp fits. */
static uint32_t stamps_for(uint64_t len, uint32_t unit)
{
	return len >= VBLOCK_STAMP_LEN ? (uint32_t)((len - VBLOCK_STAMP_LEN) / unit) : 0;
}

static int all_zero(const unsigned char *p, size_t n)
{
	size_t k;

	for (; n; p += k, n -= k) {
		k = n < sizeof(vblock_zeros) ? n : sizeof(vblock_zeros);
		if (memcmp(p, vblock_zeros, k))
			return 0;
	}
	return 1;
}

/* Index of the first byte where a and b differ in n bytes, or VBLOCK_NO_BYTE. */
static uint64_t first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0, k;

	for (; i < n; i += k) {
		k = n - i < 256 ? n - i : 256;
		if (memcmp(a + i, b + i, k)) {
			while (a[i] == b[i])
				i++;
			return i;
		}
	}
	return VBLOCK_NO_BYTE;
}

/* Header bytes 0..55 for the block; the two CRC fields zero. */
static void put_header(unsigned char *h, const struct vblock_geom *g, size_t len,
		       uint32_t file_id, uint64_t offset, uint64_t gen)
{
	memcpy(h + H_MAGIC, vblock_magic, 4);
	le_put16(h + H_VERSION, VBLOCK_VERSION);
	le_put16(h + H_HDRLEN, VBLOCK_HDR_LEN);
	le_put32(h + H_LEN, (uint32_t)len);
	h[H_UNIT] = g->unit_shift;
	h[H_DATA] = g->data;
	le_put16(h + H_FLAGS, g->flags);
	le_put64(h + H_RUN, g->run_id);
	le_put64(h + H_OFFSET, offset);
	le_put64(h + H_GEN, gen);
	le_put32(h + H_FILE, file_id);
	memset(h + H_FILE + 4, 0, VBLOCK_HDR_LEN - H_FILE - 4);
}

static void put_stamp(unsigned char *s, uint64_t run_id, uint64_t unit_off, uint64_t gen,
		      uint32_t file_id)
{
	le_put64(s + S_RUN, run_id);
	le_put64(s + S_OFFSET, unit_off);
	le_put64(s + S_GEN, gen);
	le_put32(s + S_FILE, file_id);
	le_put32(s + S_CRC, crc32c(0, s, S_CRC));
}

uint64_t vblock_run_id(void)
{
	unsigned char b[8];
	struct timespec ts;
	uint64_t id = 0, x;
	size_t got = 0;
	ssize_t n;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd >= 0) {
		while (got < sizeof(b)) {
			n = read(fd, b + got, sizeof(b) - got);
			if (n > 0)
				got += (size_t)n;
			else if (n == 0 || errno != EINTR)
				break;
		}
		if (close(fd) != 0)
			got = 0;
		if (got == sizeof(b))
			id = le_get64(b);
	}
	if (!id) {
		struct rng r;

		clock_gettime(CLOCK_REALTIME, &ts);
		x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		rng_seed(&r, x ^ ((uint64_t)getpid() << 32));
		id = rng_next(&r);
	}
	return id ? id : 1;
}

static int geom_ok(const struct vblock_geom *g)
{
	return g->run_id && g->len >= VBLOCK_MIN_LEN && g->len <= VBLOCK_MAX_LEN &&
	       g->unit_shift >= VBLOCK_UNIT_SHIFT_MIN && g->unit_shift <= VBLOCK_UNIT_SHIFT_MAX &&
	       g->data <= VBLOCK_DATA_PATTERN && !(g->flags & ~VBLOCK_F_PASS);
}

/* The template: the run's generator (rng.c, seeded with the run id), its 64-bit outputs
 * stored little-endian one after the other, with the header and every stamp's bytes
 * zeroed; or all zeros. Stamp bytes are zeroed even where a unit is too short to hold a
 * stamp, so the template of a shorter length is a prefix of a longer one. */
static void make_template(unsigned char *t, const struct vblock_geom *g, uint32_t unit)
{
	unsigned char w[8];
	struct rng r;
	size_t i, len = g->len;

	if (g->data == VBLOCK_DATA_RANDOM) {
		rng_seed(&r, g->run_id);
		for (i = 0; i + 8 <= len; i += 8)
			le_put64(t + i, rng_next(&r));
		if (i < len) {
			le_put64(w, rng_next(&r));
			memcpy(t + i, w, len - i);
		}
	} else if (g->data == VBLOCK_DATA_PATTERN && g->pattern && g->npattern) {
		for (i = 0; i < len; i++)
			t[i] = g->pattern[i % g->npattern];
	}			/* zero data (or a pattern not given): calloc'd */
	memset(t, 0, VBLOCK_HDR_LEN);
	for (i = unit; i < len; i += unit)
		memset(t + i, 0, len - i < VBLOCK_STAMP_LEN ? len - i : VBLOCK_STAMP_LEN);
}

/* R(0, S), S the block with zeros everywhere but in the stamps. A stamp ends in the CRC
 * of its first 28 bytes, and a message followed by its own CRC leaves the same register
 * whatever the message: R(0, stamp) is one constant for every valid stamp, so S's
 * register is the same for every block of the context and is found once, here, from any
 * valid stamps. The shifts run over the zeros between them. */
static uint32_t stamps_reg(const struct vblock_ctx *c)
{
	unsigned char st[VBLOCK_STAMP_LEN];
	uint64_t end = VBLOCK_HDR_LEN, a;
	uint32_t reg = 0, u;
	struct crc32c_shift sh;

	put_stamp(st, c->g.run_id, 0, 0, 0);
	for (u = 1; u <= c->nstamps; u++) {
		a = (uint64_t)u * c->unit;
		if (u <= 2)	/* the gap before stamp 1 follows the header, then all equal */
			crc32c_shift_init(&sh, a - end);
		reg = reg_update(crc32c_shift(&sh, reg), st, VBLOCK_STAMP_LEN);
		end = a + VBLOCK_STAMP_LEN;
	}
	crc32c_shift_init(&sh, c->g.len - end);
	return crc32c_shift(&sh, reg);
}

int vblock_ctx_new(struct vblock_ctx **out, const struct vblock_geom *g)
{
	struct vblock_ctx *c;

	*out = NULL;
	if (!geom_ok(g))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->tmpl = calloc(1, g->len);
	if (!c->tmpl) {
		free(c);
		return -ENOMEM;
	}
	c->g = *g;
	c->g.pattern = NULL;	/* only the template holds it */
	c->g.npattern = 0;
	c->unit = 1u << g->unit_shift;
	make_template(c->tmpl, g, c->unit);
	c->tmpl_reg = ~crc32c(0, c->tmpl, g->len);
	c->nstamps = stamps_for(g->len, c->unit);
	crc32c_shift_init(&c->sh_body, g->len - VBLOCK_HDR_LEN);
	c->stamps_reg = stamps_reg(c);
	*out = c;
	return 0;
}

void vblock_ctx_free(struct vblock_ctx *c)
{
	if (c) {
		free(c->tmpl);
		free(c);
	}
}

const struct vblock_geom *vblock_ctx_geom(const struct vblock_ctx *c)
{
	return &c->g;
}

void vblock_prepare(const struct vblock_ctx *c, void *buf, size_t len)
{
	memcpy(buf, c->tmpl, len <= c->g.len ? len : c->g.len);
}

/* CRC32C of the block with its two CRC fields (bytes 56..63) read as zeros. */
static uint32_t block_crc(const unsigned char *b, size_t len)
{
	uint32_t c = crc32c(0, b, H_BCRC);

	c = crc32c(c, vblock_zeros, VBLOCK_HDR_LEN - H_BCRC);
	return crc32c(c, b + VBLOCK_HDR_LEN, len - VBLOCK_HDR_LEN);
}

/* The block is template ^ H ^ S, where H is zero but for the header (its CRC fields
 * zero) and S zero but for the stamps, so by linearity
 *	R(~0, block) = R(~0, template) ^ R(0, H) ^ R(0, S)
 * R(0, H) is the header's register shifted over the rest of the block; the other two are
 * the context's constants. A block's CRC costs one 64-byte CRC and one shift. */
static uint32_t block_crc_fast(const struct vblock_ctx *c, const unsigned char *b)
{
	uint32_t reg = crc32c_shift(&c->sh_body, reg_update(0, b, VBLOCK_HDR_LEN));

	return ~(c->tmpl_reg ^ reg ^ c->stamps_reg);
}

void vblock_stamp(const struct vblock_ctx *c, void *buf, size_t len, uint32_t file_id,
		  uint64_t offset, uint64_t gen)
{
	unsigned char *b = buf;
	uint32_t u, m = stamps_for(len, c->unit);
	uint64_t a;

	if (len < VBLOCK_MIN_LEN || len > c->g.len)
		return;
	put_header(b, &c->g, len, file_id, offset, gen);
	le_put64(b + H_BCRC, 0);
	for (u = 1; u <= m; u++) {
		a = (uint64_t)u * c->unit;
		put_stamp(b + a, c->g.run_id, offset + a, gen, file_id);
	}
	le_put32(b + H_BCRC, len == c->g.len ? block_crc_fast(c, b) : block_crc(b, len));
	le_put32(b + H_HCRC, crc32c(0, b, H_HCRC));
}

void vblock_fill(const struct vblock_ctx *c, void *buf, size_t len, uint32_t file_id,
		 uint64_t offset, uint64_t gen)
{
	vblock_prepare(c, buf, len);
	vblock_stamp(c, buf, len, file_id, offset, gen);
}

int vblock_header_parse(const void *buf, size_t len, struct vblock_header *h)
{
	const unsigned char *b = buf;

	if (len < VBLOCK_HDR_LEN || memcmp(b + H_MAGIC, vblock_magic, 4) ||
	    le_get16(b + H_VERSION) != VBLOCK_VERSION || le_get16(b + H_HDRLEN) != VBLOCK_HDR_LEN ||
	    le_get32(b + H_HCRC) != crc32c(0, b, H_HCRC))
		return -EINVAL;
	h->geom.len = le_get32(b + H_LEN);
	h->geom.unit_shift = b[H_UNIT];
	h->geom.data = b[H_DATA];
	h->geom.flags = le_get16(b + H_FLAGS);
	h->geom.run_id = le_get64(b + H_RUN);
	h->offset = le_get64(b + H_OFFSET);
	h->gen = le_get64(b + H_GEN);
	h->file_id = le_get32(b + H_FILE);
	h->block_crc = le_get32(b + H_BCRC);
	return geom_ok(&h->geom) ? 0 : -EINVAL;
}

static const char *const vblock_names[VBLOCK_NCLASS] = {
	"ok", "in-flight", "corrupted", "misdirected", "stale", "other-run", "zeroed",
	"no-header", "torn", "missing",
};

const char *vblock_class_name(enum vblock_class cls)
{
	return (unsigned)cls < VBLOCK_NCLASS ? vblock_names[cls] : "unknown";
}

int vblock_class_bad(enum vblock_class cls)
{
	return cls != VBLOCK_OK && cls != VBLOCK_INFLIGHT;
}

static enum vblock_class done(struct vblock_result *r, enum vblock_class cls, uint64_t bad)
{
	r->cls = cls;
	r->bad_byte = bad;
	return cls;
}

/* A whole block of generation gen: stale below min_gen; above it, in flight when
 * min_gen is an acknowledged generation. */
static enum vblock_class judge_whole(const struct vblock_expect *e, struct vblock_result *r)
{
	if (r->gen < e->min_gen)
		return done(r, VBLOCK_STALE, 0);
	if ((e->flags & VBLOCK_EXP_INFLIGHT) && r->gen > e->min_gen)
		return done(r, VBLOCK_INFLIGHT, VBLOCK_NO_BYTE);
	return done(r, VBLOCK_OK, VBLOCK_NO_BYTE);
}

enum unit_state { US_NONE, US_GOOD, US_ZERO, US_BAD };

/* What unit u of the block holds, from its stamp alone (the header for unit 0): a valid
 * stamp of this block (its generation in *gen), zeros, something else, or nothing to
 * judge (a tail too short for a stamp, zero as the template is there). want_file NULL:
 * any file id. */
static int unit_stamp(const struct vblock_ctx *c, const unsigned char *b, size_t len, uint32_t u,
		      const struct vblock_expect *e, const struct vblock_result *r,
		      const uint32_t *want_file, uint64_t *gen)
{
	uint64_t a = (uint64_t)u * c->unit;
	size_t end = len - a < c->unit ? len : a + c->unit;
	const unsigned char *s = b + a;

	if (u == 0) {
		*gen = r->hdr.gen;
		return r->have_header ? US_GOOD : all_zero(b, end) ? US_ZERO : US_BAD;
	}
	if (end - a < VBLOCK_STAMP_LEN)
		return all_zero(s, end - a) ? US_NONE : US_BAD;
	if (all_zero(s, end - a))
		return US_ZERO;
	if (le_get32(s + S_CRC) != crc32c(0, s, S_CRC) || le_get64(s + S_RUN) != c->g.run_id ||
	    le_get64(s + S_OFFSET) != e->offset + a ||
	    (want_file && le_get32(s + S_FILE) != *want_file))
		return US_BAD;
	*gen = le_get64(s + S_GEN);
	return US_GOOD;
}

/* First byte of unit u (stamp state st) that differs from the block (e->offset, gen,
 * file), as an offset in the block; VBLOCK_NO_BYTE when it all agrees. */
static uint64_t unit_diff(const struct vblock_ctx *c, const unsigned char *b, size_t len,
			  uint32_t u, int st, const struct vblock_expect *e, uint64_t gen,
			  uint32_t file)
{
	uint64_t a = (uint64_t)u * c->unit, d;
	size_t end = len - a < c->unit ? len : a + c->unit, ps;
	unsigned char want[VBLOCK_HDR_LEN];

	if (st == US_BAD && u == 0) {
		/* the CRC fields as they would be if the rest of the block is right */
		put_header(want, &c->g, len, file, e->offset, gen);
		le_put32(want + H_BCRC, block_crc(b, len));
		le_put32(want + H_HCRC, crc32c(0, want, H_HCRC));
		d = first_diff(b, want, VBLOCK_HDR_LEN);
		if (d != VBLOCK_NO_BYTE)
			return d;
	}
	if (u > 0 && end - a < VBLOCK_STAMP_LEN) {
		d = first_diff(b + a, vblock_zeros, end - a);
		return d == VBLOCK_NO_BYTE ? d : a + d;
	}
	if (st == US_BAD && u > 0) {
		put_stamp(want, c->g.run_id, e->offset + a, gen, file);
		d = first_diff(b + a, want, VBLOCK_STAMP_LEN);
		if (d != VBLOCK_NO_BYTE)
			return a + d;
	}
	ps = a + (u ? VBLOCK_STAMP_LEN : VBLOCK_HDR_LEN);
	if (ps >= end)
		return VBLOCK_NO_BYTE;
	d = first_diff(b + ps, c->tmpl + ps, end - ps);
	return d == VBLOCK_NO_BYTE ? d : ps + d;
}

/* The CRC disagrees or the header is gone: judge unit by unit. Pass one finds the
 * generations the stamps hold; pass two compares every unit with what that generation's
 * write put there. Damage anywhere makes the block corrupted; otherwise zeros or older
 * generations beside newer ones make it torn. */
static enum vblock_class scan_units(const struct vblock_ctx *c, const unsigned char *b,
				    size_t len, const struct vblock_expect *e,
				    struct vblock_result *r)
{
	uint32_t u, n = (uint32_t)((len + c->unit - 1) / c->unit), file = e->file_id;
	const uint32_t *want = (e->flags & VBLOCK_EXP_ANY_FILE) ? NULL : &e->file_id;
	uint64_t g = 0, bad = VBLOCK_NO_BYTE, old = VBLOCK_NO_BYTE, d, zeros = 0, good = 0;
	int st;

	if (r->have_header && want == NULL) {
		file = r->hdr.file_id;
		want = &file;
	}
	for (u = 0; u < n; u++) {
		if (unit_stamp(c, b, len, u, e, r, want, &g) != US_GOOD)
			continue;
		if (!good++) {
			r->gen = r->gen_lo = r->gen_hi = g;
			if (!want) {
				file = le_get32(b + (uint64_t)u * c->unit + S_FILE);
				want = &file;
			}
		}
		r->gen_lo = g < r->gen_lo ? g : r->gen_lo;
		r->gen_hi = g > r->gen_hi ? g : r->gen_hi;
	}
	if (r->have_header)
		r->gen = r->hdr.gen;
	else if (!good)
		return done(r, VBLOCK_NO_HEADER, 0);
	for (u = 0; u < n && bad == VBLOCK_NO_BYTE; u++) {
		st = unit_stamp(c, b, len, u, e, r, want, &g);
		if (st == US_ZERO) {
			zeros++;
			old = old != VBLOCK_NO_BYTE ? old : (uint64_t)u * c->unit;
			continue;
		}
		if (st == US_GOOD && g < r->gen_hi && old == VBLOCK_NO_BYTE)
			old = (uint64_t)u * c->unit;
		d = unit_diff(c, b, len, u, st, e, st == US_GOOD ? g : r->gen, file);
		if (d != VBLOCK_NO_BYTE)
			bad = d;
	}
	if (bad != VBLOCK_NO_BYTE)
		return done(r, VBLOCK_CORRUPTED, bad);
	if (zeros || r->gen_lo != r->gen_hi) {
		if ((e->flags & VBLOCK_EXP_INFLIGHT) && r->gen_lo >= e->min_gen &&
		    (!zeros || !e->min_gen))
			return done(r, VBLOCK_INFLIGHT, VBLOCK_NO_BYTE);
		return done(r, VBLOCK_TORN, old);
	}
	/* every unit is right, yet the CRC is not: the CRC field itself */
	return done(r, VBLOCK_CORRUPTED, H_BCRC);
}

/* Every stamp names the header's run, file and generation and its own unit's offset.
 * The block CRC alone cannot tell: a stamp ends in its own CRC, and a message followed by
 * its CRC leaves the same register whatever the message, so one whole stamp swapped for
 * another (a unit of an older generation) leaves the block CRC as it was. */
static int stamps_match(const struct vblock_ctx *c, const unsigned char *b, size_t len,
			const struct vblock_header *h)
{
	uint32_t u, m = stamps_for(len, c->unit);
	const unsigned char *s;
	uint64_t a;

	for (u = 1; u <= m; u++) {
		a = (uint64_t)u * c->unit;
		s = b + a;
		if (le_get64(s + S_GEN) != h->gen || le_get64(s + S_OFFSET) != h->offset + a ||
		    le_get64(s + S_RUN) != h->geom.run_id || le_get32(s + S_FILE) != h->file_id)
			return 0;
	}
	return 1;
}

enum vblock_class vblock_check(const struct vblock_ctx *c, const void *buf, size_t len,
			       const struct vblock_expect *e, struct vblock_result *r)
{
	const unsigned char *b = buf;
	const struct vblock_header *h = &r->hdr;

	memset(r, 0, sizeof(*r));
	r->bad_byte = VBLOCK_NO_BYTE;
	if (len > c->g.len)
		return done(r, VBLOCK_CORRUPTED, c->g.len);
	if (len < VBLOCK_HDR_LEN || vblock_header_parse(b, len, &r->hdr) != 0) {
		if (!all_zero(b, len))
			return len < VBLOCK_HDR_LEN ? done(r, VBLOCK_NO_HEADER, 0)
						    : scan_units(c, b, len, e, r);
		if ((e->flags & VBLOCK_EXP_INFLIGHT) && e->min_gen == 0)
			return done(r, VBLOCK_INFLIGHT, VBLOCK_NO_BYTE);
		return done(r, VBLOCK_ZEROED, 0);
	}
	r->have_header = 1;
	r->gen = r->gen_lo = r->gen_hi = h->gen;
	if (h->geom.run_id != c->g.run_id)
		return done(r, VBLOCK_OTHER_RUN, 0);
	if (h->offset != e->offset ||
	    (!(e->flags & VBLOCK_EXP_ANY_FILE) && h->file_id != e->file_id))
		return done(r, VBLOCK_MISDIRECTED, 0);
	if (h->geom.len != len || h->geom.unit_shift != c->g.unit_shift ||
	    h->geom.data != c->g.data)
		return done(r, VBLOCK_CORRUPTED, H_LEN);
	if (block_crc(b, len) == h->block_crc && stamps_match(c, b, len, h))
		return judge_whole(e, r);
	return scan_units(c, b, len, e, r);
}
