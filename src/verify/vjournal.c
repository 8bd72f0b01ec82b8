/* vjournal.c - the journal of acknowledged generations: append with a sync, load into a
 * sorted map. Format in vjournal.h and docs/methodology.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/crc32c.h"
#include "core/le.h"
#include "verify/vjournal.h"

static const unsigned char vj_magic[4] = { 'i', 'o', 'b', 'J' };
#define VJ_VERSION 1

struct vjournal {
	int fd;
	int owns_fd;
	int failed;
	uint64_t run_id;
	uint64_t off;		/* where the next record goes */
	uint32_t seq;		/* its sequence number */
	unsigned char *buf;
	size_t cap;
};

static int vj_sync(int fd)
{
#ifdef HAVE_FDATASYNC
	return fdatasync(fd) == 0 ? 0 : -errno;
#else
	return fsync(fd) == 0 ? 0 : -errno;
#endif
}

static int vj_pwrite_full(int fd, const unsigned char *p, size_t n, uint64_t off)
{
	ssize_t w;

	while (n) {
		w = pwrite(fd, p, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Bytes read (fewer than n only at the end of the file) or -errno. */
static ssize_t vj_pread_full(int fd, unsigned char *p, size_t n, uint64_t off)
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

/* The record CRC is seeded with the run id, so a record of another run's journal fails. */
static uint32_t rec_crc(uint64_t run_id, const unsigned char *rec)
{
	unsigned char id[8];

	le_put64(id, run_id);
	return crc32c(crc32c(0, id, 8), rec, 28);
}

int vjournal_create_fd(struct vjournal **out, int fd, uint64_t run_id)
{
	unsigned char h[VJOURNAL_HDR_LEN] = { 0 };
	struct vjournal *j;
	int rc;

	*out = NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	memcpy(h, vj_magic, 4);
	le_put16(h + 4, VJ_VERSION);
	le_put16(h + 6, VJOURNAL_HDR_LEN);
	le_put32(h + 8, VJOURNAL_REC_LEN);
	le_put64(h + 16, run_id);
	le_put32(h + 28, crc32c(0, h, 28));
	rc = vj_pwrite_full(fd, h, sizeof(h), 0);
	if (!rc)
		rc = vj_sync(fd);
	if (rc) {
		free(j);
		return rc;
	}
	j->fd = fd;
	j->run_id = run_id;
	j->off = VJOURNAL_HDR_LEN;
	*out = j;
	return 0;
}

/* The directory of path, opened, synced and closed: 0 or -errno. */
static int vj_sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd, rc;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return -errno;
	rc = fsync(fd) == 0 ? 0 : -errno;
	if (close(fd) != 0 && !rc)
		rc = -errno;
	return rc;
}

int vjournal_create(struct vjournal **out, const char *path, uint64_t run_id)
{
	int fd, rc;

	*out = NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	rc = vjournal_create_fd(out, fd, run_id);
	if (!rc)
		rc = vj_sync_dir(path);
	if (rc) {
		vjournal_close(*out);
		*out = NULL;
		if (close(fd) != 0 && !rc)	/* the first error is the one reported */
			rc = -errno;
		unlink(path);
		return rc;
	}
	(*out)->owns_fd = 1;
	return 0;
}

int vjournal_ack(struct vjournal *j, const struct vjournal_rec *recs, size_t n)
{
	unsigned char *p;
	size_t i, need;
	int rc;

	if (j->failed)
		return -EIO;
	if (!n)
		return 0;
	if (n > SIZE_MAX / VJOURNAL_REC_LEN)
		return -ENOMEM;
	need = n * VJOURNAL_REC_LEN;
	if (need > j->cap) {
		p = realloc(j->buf, need);
		if (!p)
			return -ENOMEM;
		j->buf = p;
		j->cap = need;
	}
	for (i = 0, p = j->buf; i < n; i++, p += VJOURNAL_REC_LEN) {
		le_put64(p, recs[i].offset);
		le_put64(p + 8, recs[i].gen);
		le_put32(p + 16, recs[i].file_id);
		le_put32(p + 20, recs[i].len);
		le_put32(p + 24, j->seq + (uint32_t)i);
		le_put32(p + 28, rec_crc(j->run_id, p));
	}
	rc = vj_pwrite_full(j->fd, j->buf, need, j->off);
	if (!rc)
		rc = vj_sync(j->fd);
	if (rc) {
		j->failed = 1;
		return rc;
	}
	j->off += need;
	j->seq += (uint32_t)n;
	return 0;
}

int vjournal_close(struct vjournal *j)
{
	int rc = 0;

	if (!j)
		return 0;
	if (j->owns_fd && close(j->fd) != 0)
		rc = -errno;
	free(j->buf);
	free(j);
	return rc;
}

static int rec_cmp(const void *pa, const void *pb)
{
	const struct vjournal_rec *a = pa, *b = pb;

	if (a->file_id != b->file_id)
		return a->file_id < b->file_id ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	if (a->gen != b->gen)
		return a->gen < b->gen ? -1 : 1;
	return 0;
}

/* Sort and keep, per (file, offset), the record of the newest generation. */
static void map_compact(struct vjournal_map *m)
{
	size_t i, k = 0;

	if (m->n < 2)
		return;
	qsort(m->recs, m->n, sizeof(m->recs[0]), rec_cmp);
	for (i = 0; i < m->n; i++) {
		if (k && m->recs[k - 1].file_id == m->recs[i].file_id &&
		    m->recs[k - 1].offset == m->recs[i].offset)
			k--;	/* sorted by generation: the later one wins */
		m->recs[k++] = m->recs[i];
	}
	m->n = k;
}

static int map_push(struct vjournal_map *m, size_t *cap, const struct vjournal_rec *r)
{
	struct vjournal_rec *p;

	if (m->n == *cap) {
		map_compact(m);	/* a block acknowledged many times takes one slot */
		if (!*cap || m->n > *cap / 2) {
			*cap = *cap ? *cap * 2 : 1024;
			p = realloc(m->recs, *cap * sizeof(*p));
			if (!p)
				return -ENOMEM;
			m->recs = p;
		}
	}
	m->recs[m->n++] = *r;
	return 0;
}

/* Records from the chunk at b (n bytes, a multiple of the record length), the first of
 * sequence number *seq. */
static int load_chunk(struct vjournal_map *m, size_t *cap, const unsigned char *b, size_t n,
		      uint32_t *seq)
{
	struct vjournal_rec r;
	size_t i;
	int rc;

	for (i = 0; i < n; i += VJOURNAL_REC_LEN, (*seq)++) {
		const unsigned char *p = b + i;

		if (le_get32(p + 28) != rec_crc(m->run_id, p) || le_get32(p + 24) != *seq) {
			m->damaged++;
			continue;
		}
		r.offset = le_get64(p);
		r.gen = le_get64(p + 8);
		r.file_id = le_get32(p + 16);
		r.len = le_get32(p + 20);
		rc = map_push(m, cap, &r);
		if (rc)
			return rc;
		m->records++;
	}
	return 0;
}

int vjournal_load(int fd, struct vjournal_map *m)
{
	enum { CHUNK = 2048 * VJOURNAL_REC_LEN };
	unsigned char h[VJOURNAL_HDR_LEN], *b;
	uint64_t off = VJOURNAL_HDR_LEN;
	size_t cap = 0;
	uint32_t seq = 0;
	ssize_t got;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	got = vj_pread_full(fd, h, sizeof(h), 0);
	if (got < 0)
		return (int)got;
	if (got < VJOURNAL_HDR_LEN || memcmp(h, vj_magic, 4) || le_get16(h + 4) != VJ_VERSION ||
	    le_get16(h + 6) != VJOURNAL_HDR_LEN || le_get32(h + 8) != VJOURNAL_REC_LEN ||
	    le_get32(h + 28) != crc32c(0, h, 28))
		return -EBADMSG;
	m->run_id = le_get64(h + 16);
	b = malloc(CHUNK);
	if (!b)
		return -ENOMEM;
	for (;;) {
		got = vj_pread_full(fd, b, CHUNK, off);
		if (got < 0) {
			rc = (int)got;
			break;
		}
		rc = load_chunk(m, &cap, b, (size_t)got - (size_t)got % VJOURNAL_REC_LEN, &seq);
		if (rc)
			break;
		if ((size_t)got % VJOURNAL_REC_LEN)
			m->damaged++;	/* a torn last record */
		if (got < CHUNK)
			break;
		off += CHUNK;
	}
	free(b);
	if (rc) {
		vjournal_map_free(m);
		return rc;
	}
	map_compact(m);
	return 0;
}

/* Index of the first record not before (file_id, offset). */
static size_t lower_bound(const struct vjournal_map *m, uint32_t file_id, uint64_t offset)
{
	size_t lo = 0, hi = m->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->recs[mid].file_id < file_id ||
		    (m->recs[mid].file_id == file_id && m->recs[mid].offset < offset))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct vjournal_rec *vjournal_find(const struct vjournal_map *m, uint32_t file_id,
					 uint64_t offset)
{
	size_t i = lower_bound(m, file_id, offset);

	if (i < m->n && m->recs[i].file_id == file_id && m->recs[i].offset == offset)
		return &m->recs[i];
	return NULL;
}

const struct vjournal_rec *vjournal_next(const struct vjournal_map *m, uint32_t file_id,
					 uint64_t offset)
{
	size_t i = lower_bound(m, file_id, offset);

	return i < m->n && m->recs[i].file_id == file_id ? &m->recs[i] : NULL;
}

void vjournal_map_free(struct vjournal_map *m)
{
	free(m->recs);
	m->recs = NULL;
	m->n = 0;
}
