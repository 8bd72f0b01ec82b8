/* t_verify.c - whole files of verified blocks in a temp dir: clean files pass, each
 * injected damage is found, named and placed; files that are not ours are refused; the
 * journal's in-flight rule after a simulated crash. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "verify/verify.h"
#include "verify/vjournal.h"

#define L 65536u
#define RUNID 0x5eed5eed12345678ull

static char dir[4096];
static unsigned char *blk, *old;

static void path_of(char *p, size_t n, const char *name)
{
	snprintf(p, n, "%s/%s", dir, name);
}

static int put(int fd, const void *b, size_t n, uint64_t off)
{
	return pwrite(fd, b, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* A file of n blocks of len bytes, generation gen, written through ctx c. Returns fd. */
static int make_file(const char *name, struct vblock_ctx *c, unsigned n, uint32_t len,
		     uint64_t gen)
{
	char p[4200];
	unsigned i;
	int fd;

	path_of(p, sizeof(p), name);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0);
	for (i = 0; fd >= 0 && i < n; i++) {
		vblock_fill(c, blk, len, 3, (uint64_t)i * len, gen);
		CHECK(put(fd, blk, len, (uint64_t)i * len) == 0);
	}
	return fd;
}

static struct vblock_ctx *ctx(uint64_t run, uint32_t len, uint16_t flags)
{
	struct vblock_geom g = { run, len, VBLOCK_UNIT_SHIFT_DEFAULT, VBLOCK_DATA_RANDOM, flags,
				 NULL, 0 };
	struct vblock_ctx *c = NULL;

	CHECK(vblock_ctx_new(&c, &g) == 0);
	return c;
}

static int check_path(const char *name, const struct verify_opts *o, struct verify_summary *s)
{
	char p[4200];

	path_of(p, sizeof(p), name);
	return verify_file(p, o, s);
}

static void t_clean(void)
{
	struct vblock_ctx *c = ctx(RUNID, L, 0);
	struct verify_summary s;
	int fd;

	if (!c)
		return;
	fd = make_file("clean", c, 8, L, 1);
	/* a shorter last block */
	vblock_fill(c, blk, 10000, 3, 8 * L, 1);
	CHECK(put(fd, blk, 10000, 8 * L) == 0);
	CHECK(close(fd) == 0);
	CHECK_EQ_U64(check_path("clean", NULL, &s), 0);
	CHECK_EQ_U64(s.blocks, 9);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 9);
	CHECK_EQ_U64(s.bad, 0);
	CHECK_EQ_U64(s.size, 8 * L + 10000);
	CHECK_EQ_U64(s.run_id, RUNID);
	CHECK_EQ_U64(s.file_id, 3);
	CHECK_EQ_U64(s.block_len, L);
	CHECK_EQ_U64(s.gen_min, 1);
	CHECK_EQ_U64(s.gen_max, 1);
	CHECK(s.crc_path != NULL);
	CHECK_EQ_U64(s.first[VBLOCK_CORRUPTED], VERIFY_NONE);
	vblock_ctx_free(c);
}

/* Blocks of several sizes one after the other: each header gives the next step. */
static void t_mixed_sizes(void)
{
	static const uint32_t lens[] = { 4096, 8192, 200000, 512, 12345, 65536 };
	struct vblock_ctx *c = ctx(RUNID, 200000, 0);
	struct verify_summary s;
	uint64_t off = 0;
	size_t i;
	int fd;

	if (!c)
		return;
	fd = make_file("mixed", c, 0, L, 1);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		vblock_fill(c, blk, lens[i], 3, off, 1);
		CHECK(put(fd, blk, lens[i], off) == 0);
		off += lens[i];
	}
	CHECK(close(fd) == 0);
	CHECK_EQ_U64(check_path("mixed", NULL, &s), 0);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 6);
	vblock_ctx_free(c);
}

/* Each damage at a known block of a 16-block file of generation 2. */
static void t_damage(void)
{
	struct vblock_ctx *c = ctx(RUNID, L, VBLOCK_F_PASS), *o = ctx(RUNID + 1, L, 0);
	struct verify_opts opt = { .file_id = -1 };
	struct verify_summary s;
	int fd;

	if (!c || !o)
		return;
	fd = make_file("damage", c, 16, L, 2);
	/* corrupted: bytes overwritten in blocks 2 and 12 */
	CHECK(put(fd, "XXXX", 4, 2 * L + 1000) == 0);
	CHECK(put(fd, "Y", 1, 12 * L + 7) == 0);
	/* other run: block 3 */
	vblock_fill(o, blk, L, 3, 3 * L, 2);
	CHECK(put(fd, blk, L, 3 * L) == 0);
	/* misdirected: block 9 copied onto block 5 */
	vblock_fill(c, blk, L, 3, 9 * L, 2);
	CHECK(put(fd, blk, L, 5 * L) == 0);
	/* stale: block 7 of generation 1 */
	vblock_fill(c, blk, L, 3, 7 * L, 1);
	CHECK(put(fd, blk, L, 7 * L) == 0);
	/* torn: the second half of block 11 from generation 1 */
	vblock_fill(c, old, L, 3, 11 * L, 1);
	CHECK(put(fd, old + L / 2, L / 2, 11 * L + L / 2) == 0);
	/* zeroed: block 13; no header: block 14 */
	memset(blk, 0, L);
	CHECK(put(fd, blk, L, 13 * L) == 0);
	memset(blk, 0xa5, L);
	CHECK(put(fd, blk, L, 14 * L) == 0);
	CHECK(close(fd) == 0);

	CHECK_EQ_U64(check_path("damage", NULL, &s), 1);
	CHECK_EQ_U64(s.gen_rule, VERIFY_GEN_UNIFORM);	/* the pass flag */
	CHECK_EQ_U64(s.blocks, 16);
	CHECK_EQ_U64(s.count[VBLOCK_CORRUPTED], 2);
	CHECK_EQ_U64(s.first[VBLOCK_CORRUPTED], 2 * L);
	CHECK_EQ_U64(s.first_byte[VBLOCK_CORRUPTED], 2 * L + 1000);
	CHECK_EQ_U64(s.count[VBLOCK_OTHER_RUN], 1);
	CHECK_EQ_U64(s.first[VBLOCK_OTHER_RUN], 3 * L);
	CHECK_EQ_U64(s.count[VBLOCK_MISDIRECTED], 1);
	CHECK_EQ_U64(s.first[VBLOCK_MISDIRECTED], 5 * L);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 1);
	CHECK_EQ_U64(s.first[VBLOCK_STALE], 7 * L);
	CHECK_EQ_U64(s.count[VBLOCK_TORN], 1);
	CHECK_EQ_U64(s.first[VBLOCK_TORN], 11 * L);
	CHECK_EQ_U64(s.first_byte[VBLOCK_TORN], 11 * L + L / 2);
	CHECK_EQ_U64(s.count[VBLOCK_ZEROED], 1);
	CHECK_EQ_U64(s.first[VBLOCK_ZEROED], 13 * L);
	CHECK_EQ_U64(s.count[VBLOCK_NO_HEADER], 1);
	CHECK_EQ_U64(s.first[VBLOCK_NO_HEADER], 14 * L);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 8);
	CHECK_EQ_U64(s.first[VBLOCK_OK], 0);
	CHECK_EQ_U64(s.bad, 8);
	CHECK_EQ_U64(s.gen_max, 2);

	/* any generation: block 7 passes; at least 3: every whole block is stale */
	opt.gen_rule = VERIFY_GEN_ANY;
	CHECK_EQ_U64(check_path("damage", &opt, &s), 1);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 0);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 9);
	opt.gen_rule = VERIFY_GEN_MIN;
	opt.min_gen = 3;
	CHECK_EQ_U64(check_path("damage", &opt, &s), 1);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 9);
	CHECK_EQ_U64(s.first[VBLOCK_STALE], 0);
	vblock_ctx_free(c);
	vblock_ctx_free(o);
}

/* Uniform rule, the newest generation late in the file: the earlier ones turn stale. */
static void t_uniform_late(void)
{
	struct vblock_ctx *c = ctx(RUNID, L, VBLOCK_F_PASS);
	struct verify_summary s;
	int fd;

	if (!c)
		return;
	fd = make_file("late", c, 6, L, 4);
	vblock_fill(c, blk, L, 3, 4 * L, 5);
	CHECK(put(fd, blk, L, 4 * L) == 0);
	CHECK(close(fd) == 0);
	CHECK_EQ_U64(check_path("late", NULL, &s), 1);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 5);
	CHECK_EQ_U64(s.first[VBLOCK_STALE], 0);
	CHECK_EQ_U64(s.first_byte[VBLOCK_STALE], 0);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 1);
	CHECK_EQ_U64(s.first[VBLOCK_OK], 4 * L);
	vblock_ctx_free(c);
}

/* The first header damaged: geometry from the next; a file cut inside its last block. */
static void t_first_header_and_cut(void)
{
	struct vblock_ctx *c = ctx(RUNID, L, 0);
	struct verify_summary s;
	int fd;

	if (!c)
		return;
	fd = make_file("cut", c, 4, L, 1);
	memset(blk, 0, 4096);
	CHECK(put(fd, blk, 4096, 0) == 0);
	CHECK(ftruncate(fd, 3 * L + 5000) == 0);
	CHECK(close(fd) == 0);
	CHECK_EQ_U64(check_path("cut", NULL, &s), 1);
	CHECK_EQ_U64(s.block_len, L);
	CHECK_EQ_U64(s.count[VBLOCK_TORN], 1);
	CHECK_EQ_U64(s.first_byte[VBLOCK_TORN], 0);
	CHECK_EQ_U64(s.count[VBLOCK_MISSING], 1);
	CHECK_EQ_U64(s.first[VBLOCK_MISSING], 3 * L);
	CHECK_EQ_U64(s.first_byte[VBLOCK_MISSING], 3 * L + 5000);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 2);
	vblock_ctx_free(c);
}

static void t_not_ours(void)
{
	struct verify_summary s;
	char p[4200];
	int fd;

	fd = make_file("empty", NULL, 0, L, 0);
	CHECK(fd >= 0 && close(fd) == 0);
	CHECK_EQ_U64(check_path("empty", NULL, &s), (uint64_t)-EINVAL);
	fd = make_file("junk", NULL, 0, L, 0);
	memset(blk, 'j', L);
	CHECK(put(fd, blk, L, 0) == 0 && put(fd, blk, 100, L) == 0);
	CHECK(close(fd) == 0);
	CHECK_EQ_U64(check_path("junk", NULL, &s), (uint64_t)-EINVAL);
	/* a directory is refused as one (core/rfile), not read as a file that is not ours */
	CHECK_EQ_U64(verify_file(dir, NULL, &s), (uint64_t)-EISDIR);
	path_of(p, sizeof(p), "absent");
	CHECK_EQ_U64(verify_file(p, NULL, &s), (uint64_t)-ENOENT);
	CHECK(s.err_path && !strcmp(s.err_path, p));
}

/* A crash after blocks 0 and 1 were rewritten (generation 2) and acknowledged, with
 * blocks 2 and 3 rewritten but not yet synced, block 8 never acknowledged and block 9
 * acknowledged by the journal but gone with the end of the file. */
static void t_journal(void)
{
	struct vjournal_rec rec[10];
	struct vblock_ctx *c = ctx(RUNID, L, 0);
	struct verify_opts opt = { .file_id = -1 };
	struct verify_summary s;
	struct vjournal *j, *j2;
	char jp[4200];
	unsigned i;
	int fd;

	if (!c)
		return;
	path_of(jp, sizeof(jp), "journal");
	CHECK(vjournal_create(&j, jp, RUNID) == 0);
	CHECK_EQ_U64(vjournal_create(&j2, jp, RUNID), (uint64_t)-EEXIST);
	CHECK(j2 == NULL);
	if (!j)
		return;
	fd = make_file("crash", c, 9, L, 1);
	for (i = 0; i < 10; i++)
		rec[i] = (struct vjournal_rec){ (uint64_t)i * L, 1, 3, L };
	CHECK(vjournal_ack(j, rec, 8) == 0);	/* blocks 0..7, generation 1 */
	CHECK(vjournal_ack(j, rec + 9, 1) == 0);	/* block 9 */
	rec[0].gen = rec[1].gen = 2;
	CHECK(vjournal_ack(j, rec, 2) == 0);	/* blocks 0 and 1 rewritten, synced */
	CHECK(vjournal_ack(j, rec, 0) == 0);
	CHECK(vjournal_close(j) == 0);
	/* the disk after the crash */
	vblock_fill(c, blk, L, 3, 0, 2);		/* 0: generation 2, acknowledged */
	CHECK(put(fd, blk, L, 0) == 0);
	/* 1: still generation 1 although 2 was acknowledged: lost */
	vblock_fill(c, blk, L, 3, 2 * L, 2);	/* 2: generation 2 landed unsynced */
	CHECK(put(fd, blk, L, 2 * L) == 0);
	vblock_fill(c, blk, L, 3, 3 * L, 2);	/* 3: half of generation 2 landed */
	CHECK(put(fd, blk, L / 2, 3 * L) == 0);
	memset(blk, 0, L);
	CHECK(put(fd, blk, L, 5 * L) == 0);	/* 5: acknowledged, now zeros */
	CHECK(put(fd, blk, L, 8 * L) == 0);	/* 8: never acknowledged, zeros */
	CHECK(close(fd) == 0);

	opt.journal_path = jp;
	CHECK_EQ_U64(check_path("crash", &opt, &s), 1);
	CHECK_EQ_U64(s.journal, 1);
	CHECK_EQ_U64(s.journal_records, 11);
	CHECK_EQ_U64(s.journal_damaged, 0);
	CHECK_EQ_U64(s.count[VBLOCK_OK], 4);		/* 0, 4, 6, 7 */
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 1);
	CHECK_EQ_U64(s.first[VBLOCK_STALE], 1 * L);
	CHECK_EQ_U64(s.count[VBLOCK_INFLIGHT], 3);	/* 2, 3, 8 */
	CHECK_EQ_U64(s.first[VBLOCK_INFLIGHT], 2 * L);
	CHECK_EQ_U64(s.count[VBLOCK_ZEROED], 1);
	CHECK_EQ_U64(s.first[VBLOCK_ZEROED], 5 * L);
	CHECK_EQ_U64(s.count[VBLOCK_MISSING], 1);
	CHECK_EQ_U64(s.first[VBLOCK_MISSING], 9 * L);
	CHECK_EQ_U64(s.bad, 3);
	/* without the journal the same file looks clean but for the zeros and the torn one */
	CHECK_EQ_U64(check_path("crash", NULL, &s), 1);
	CHECK_EQ_U64(s.count[VBLOCK_TORN], 1);
	CHECK_EQ_U64(s.count[VBLOCK_ZEROED], 2);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 0);

	vblock_ctx_free(c);
}

/* The journal t_journal left: newest generation per block; a torn tail and a damaged
 * record are skipped, and a damaged record's acknowledgement is lost with it. */
static void t_journal_map(void)
{
	struct verify_opts opt = { .file_id = -1 };
	struct verify_summary s;
	struct vjournal_map m;
	char jp[4200];
	int jfd;

	path_of(jp, sizeof(jp), "journal");
	opt.journal_path = jp;
	jfd = open(jp, O_RDWR);
	CHECK(jfd >= 0);
	CHECK(vjournal_load(jfd, &m) == 0);
	CHECK_EQ_U64(m.n, 9);
	CHECK(vjournal_find(&m, 3, 0) && vjournal_find(&m, 3, 0)->gen == 2);
	CHECK(vjournal_find(&m, 3, 2 * L) && vjournal_find(&m, 3, 2 * L)->gen == 1);
	CHECK(vjournal_find(&m, 3, 8 * L) == NULL);
	CHECK(vjournal_find(&m, 4, 0) == NULL);
	vjournal_map_free(&m);
	CHECK(put(jfd, "torn", 4, VJOURNAL_HDR_LEN + 11 * VJOURNAL_REC_LEN) == 0);
	CHECK(put(jfd, "\xff", 1, VJOURNAL_HDR_LEN + 10 * VJOURNAL_REC_LEN + 8) == 0);
	CHECK(vjournal_load(jfd, &m) == 0);
	CHECK_EQ_U64(m.records, 10);
	CHECK_EQ_U64(m.damaged, 2);
	vjournal_map_free(&m);
	CHECK(close(jfd) == 0);
	/* block 1's generation-2 record damaged: its loss can no longer be seen */
	CHECK_EQ_U64(check_path("crash", &opt, &s), 1);
	CHECK_EQ_U64(s.journal_damaged, 2);
	CHECK_EQ_U64(s.count[VBLOCK_STALE], 0);
}

/* More records than the map's first allocation, each block acknowledged three times:
 * the map compacts as it grows and keeps the newest generation of each. */
static void t_journal_many(void)
{
	enum { N = 1500 };
	static struct vjournal_rec rec[N];
	struct vjournal_map m;
	struct vjournal *j;
	char jp[4200];
	unsigned i, g, bad = 0;
	int jfd;

	path_of(jp, sizeof(jp), "journal-many");
	CHECK(vjournal_create(&j, jp, RUNID) == 0);
	if (!j)
		return;
	for (g = 1; g <= 3; g++) {
		for (i = 0; i < N; i++)
			rec[i] = (struct vjournal_rec){ (uint64_t)(i * 7919 % N) * L, g, 3, L };
		CHECK(vjournal_ack(j, rec, N / 2) == 0);
		CHECK(vjournal_ack(j, rec + N / 2, N - N / 2) == 0);
	}
	CHECK(vjournal_close(j) == 0);
	jfd = open(jp, O_RDONLY);
	CHECK(jfd >= 0 && vjournal_load(jfd, &m) == 0);
	CHECK(jfd < 0 || close(jfd) == 0);
	CHECK_EQ_U64(m.records, 3 * N);
	CHECK_EQ_U64(m.damaged, 0);
	CHECK_EQ_U64(m.run_id, RUNID);
	CHECK_EQ_U64(m.n, N);
	for (i = 0; i < N; i++) {
		const struct vjournal_rec *r = vjournal_find(&m, 3, (uint64_t)i * L);

		bad += !r || r->gen != 3 || r->len != L;
	}
	CHECK_EQ_U64(bad, 0);
	vjournal_map_free(&m);
}

static void t_journal_refused(void)
{
	struct vblock_ctx *c = ctx(RUNID, L, 0);
	struct verify_opts opt = { .file_id = -1 };
	struct verify_summary s;
	struct vjournal *j;
	char jp[4200], fp[4200];
	int fd;

	if (!c)
		return;
	fd = make_file("plain", c, 2, L, 1);
	CHECK(close(fd) == 0);
	path_of(fp, sizeof(fp), "plain");
	path_of(jp, sizeof(jp), "journal-other");
	CHECK(vjournal_create(&j, jp, RUNID + 7) == 0);
	CHECK(vjournal_close(j) == 0);
	opt.journal_path = jp;		/* another run's journal: no block of its run here */
	CHECK_EQ_U64(check_path("plain", &opt, &s), (uint64_t)-EINVAL);
	opt.journal_path = fp;		/* not a journal at all */
	CHECK_EQ_U64(check_path("plain", &opt, &s), (uint64_t)-EBADMSG);
	CHECK(s.err_path && !strcmp(s.err_path, fp));
	opt.journal_path = NULL;
	opt.run_id = RUNID + 1;		/* a run id the file does not hold */
	CHECK_EQ_U64(check_path("plain", &opt, &s), (uint64_t)-EINVAL);
	vblock_ctx_free(c);
}

static void cleanup(void)
{
	static const char *const names[] = { "clean", "mixed", "damage", "late", "cut", "empty",
					     "junk", "crash", "journal", "plain",
					     "journal-other", "journal-many" };
	char p[4200];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		path_of(p, sizeof(p), names[i]);
		unlink(p);
	}
	CHECK(rmdir(dir) == 0);
}

int main(void)
{
	const char *tmp = getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";

	snprintf(dir, sizeof(dir), "%s/iob-t_verify.XXXXXX", tmp);
	blk = malloc(1u << 20);
	old = malloc(1u << 20);
	if (!mkdtemp(dir) || !blk || !old) {
		fprintf(stderr, "t_verify: no temp dir or memory\n");
		return 1;
	}
	RUN(t_clean);
	RUN(t_mixed_sizes);
	RUN(t_damage);
	RUN(t_uniform_late);
	RUN(t_first_header_and_cut);
	RUN(t_not_ours);
	RUN(t_journal);
	RUN(t_journal_map);
	RUN(t_journal_many);
	RUN(t_journal_refused);
	cleanup();
	free(blk);
	free(old);
	return test_done();
}
