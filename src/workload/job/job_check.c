/* job_check.c - the safety and size checks of a job plan (job_check.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/job/job_check.h"
#include "comm/comm.h"
#include "fs/devsafe.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "workload/job/job_run.h"

/* The first job using file i, for messages. */
static const struct job_def *file_user(const struct job_plan *p, unsigned i)
{
	unsigned t, k;

	for (t = 0; t < p->nthreads; t++)
		for (k = 0; k < p->threads[t].nfiles; k++)
			if (p->threads[t].files[k].file == i)
				return p->threads[t].d;
	return NULL;
}

/* 1 when [0, len) of the open file fd has a hole (a never-written range). */
static int has_hole(int fd, uint64_t len)
{
#ifdef SEEK_HOLE
	off_t h = lseek(fd, 0, SEEK_HOLE);

	return h >= 0 && (uint64_t)h < len;
#else
	(void)fd;
	(void)len;
	return 0;
#endif
}

/* The directory holding path, into buf. */
static const char *dir_of(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s", path);
	return dirname(buf);
}

/* An existing regular file: may it be written, is it long enough, does it hold holes
 * where it is read? 0 or -EINVAL. */
static int check_regular(struct job_file *f, const struct job_def *d,
			 const struct job_safety *sf, char *err, size_t errlen)
{
	char a[32], b[32];
	int fd, hole;

	if (f->written && !sf->overwrite && is_marked(f->path) != 1)
		return job_plan_err(d, err, errlen, "refusing to write a file iobattery did not "
				    "create: '%s': use --overwrite", f->path);
	if (f->need > f->have && !f->written)
		return job_plan_err(d, err, errlen, "'%s' is shorter (%s) than the region read "
				    "(%s): reading past its end measures nothing", f->path,
				    units_fmt_bytes(a, sizeof(a), (double)f->have),
				    units_fmt_bytes(b, sizeof(b), (double)f->need));
	if (!f->read)
		return 0;
	fd = open(f->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return job_plan_err(d, err, errlen, "cannot read '%s': %s", f->path,
				    strerror(errno));
	hole = has_hole(fd, f->have < f->need ? f->have : f->need);
	close(fd);
	if (hole)
		return job_plan_err(d, err, errlen, "'%s' has holes (never-written blocks) in the "
				    "region read: reading them measures nothing; write it first",
				    f->path);
	return 0;
}

/* One file of the plan that is not in the scratch directory. 0 or -EINVAL. */
static int check_file(struct job_plan *p, unsigned i, const struct job_safety *sf, char *err,
		      size_t errlen)
{
	struct job_file *f = &p->files[i];
	const struct job_def *d = file_user(p, i);
	char dbuf[PATH_MAX], why[256];
	struct stat st;
	int rc;

	if (lstat(f->path, &st) < 0) {
		if (errno != ENOENT)
			return job_plan_err(d, err, errlen, "cannot use '%s': %s", f->path,
					    strerror(errno));
		if (access(dir_of(f->path, dbuf, sizeof(dbuf)), W_OK | X_OK) < 0)
			return job_plan_err(d, err, errlen, "cannot create '%s' in '%s': %s",
					    f->path, dbuf, strerror(errno));
		return 0;	/* a named new file */
	}
	if (S_ISLNK(st.st_mode))
		return job_plan_err(d, err, errlen, "refusing to follow a symbolic link: '%s'",
				    f->path);
	if (S_ISBLK(st.st_mode)) {
		if (!sf->destroy_dev)
			return job_plan_err(d, err, errlen, "refusing to use the block device "
					    "'%s': its data would be destroyed; name it with "
					    "--destroy-data-on %s", f->path, f->path);
		rc = devsafe_check(f->path, sf->destroy_dev, &f->have, why, sizeof(why));
		if (rc < 0)
			return job_plan_err(d, err, errlen, "refusing to write the device '%s': %s",
					    f->path, why);
		f->device = f->exists = true;
		if (f->need > f->have)
			return job_plan_err(d, err, errlen, "the region (%llu bytes) is larger "
					    "than the device '%s' (%llu bytes)",
					    (unsigned long long)f->need, f->path,
					    (unsigned long long)f->have);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return job_plan_err(d, err, errlen, "not a regular file or block device: '%s'",
				    f->path);
	f->have = (uint64_t)st.st_size;
	f->exists = true;
	return 0;	/* check_regular once the regions are sized */
}

/* --shared-file: rank r's region of a file all ranks use is the r-th of as many as there
 * are ranks (IOR's segmented layout): a size the job gives (size=, filesize=) is each
 * rank's, one taken from an existing file (its length, size=N%) is shared out, in whole
 * blocks of minbs. */
static void segment(struct job_tfile *r, const struct job_def *d, const struct job_file *f,
		    uint64_t minbs)
{
	uint64_t n = comm_size();

	if (!f->shared)
		return;
	if (f->exists && (d->size_pct || (!d->size && !d->filesize[0])))
		r->len = r->len / n / minbs * minbs;
	r->off += comm_rank() * r->len;
}

/* pct percent of n, rounded down, without the overflow of n * pct: floor(n * pct / 100). */
static uint64_t pct_of(uint64_t n, unsigned pct)
{
	return n / 100 * pct + n % 100 * pct / 100;
}

/* Threads whose regions had no size take it from the existing file or device (minus
 * offset), or from size=N% / offset=N% of it; a shared file's region becomes this
 * rank's segment. 0 or -EINVAL. */
static int size_threads(struct job_plan *p, char *err, size_t errlen)
{
	unsigned t, k;

	for (t = 0; t < p->nthreads; t++) {
		struct job_thread *th = &p->threads[t];
		const struct job_def *d = th->d;

		th->size = 0;
		for (k = 0; k < th->nfiles; k++) {
			struct job_tfile *r = &th->files[k];
			const struct job_file *f = &p->files[r->file];
			uint64_t have = f->have, minbs;

			minbs = d->bs[JOB_READ].min < d->bs[JOB_WRITE].min ? d->bs[JOB_READ].min
									    : d->bs[JOB_WRITE].min;
			if (job_rw_trims(d->rw) && d->bs[JOB_TRIM].min < minbs)
				minbs = d->bs[JOB_TRIM].min;
			/* fio: N% of the length, multiplied before dividing; an offset is
			 * rounded up to the smallest block size (so O_DIRECT still works) and
			 * a size in percent stops at the end of the file */
			if (d->offset_pct)
				r->off = (pct_of(have, d->offset_pct) + minbs - 1) / minbs * minbs;
			if (d->size_pct) {
				r->len = pct_of(have, d->size_pct) / th->nfiles;
				if (f->exists && r->len > have - (r->off < have ? r->off : have))
					r->len = r->off < have ? have - r->off : 0;
			} else if (!r->len && f->exists) {
				r->len = have > r->off ? (have - r->off) : 0;
			}
			if ((d->size_pct || d->offset_pct) && !f->exists)
				return job_plan_err(d, err, errlen, "size or offset in percent "
						    "needs an existing file or device: '%s'",
						    f->path);
			if (!r->len && !f->exists)
				return job_plan_err(d, err, errlen, "size= is required: '%s' "
						    "does not exist to take it from", f->path);
			segment(r, d, f, minbs);
			if (r->len < minbs)
				return job_plan_err(d, err, errlen, "the region of '%s' (%llu "
						    "bytes) is smaller than the block size %llu",
						    f->path,
						    (unsigned long long)r->len,
						    (unsigned long long)minbs);
			th->size += r->len;
		}
		if (d->size && d->size < th->size)
			th->size = d->size;
	}
	return 0;
}

/* The bytes to lay out, per file system (by the directory they go to). 0 or -EINVAL. */
static int check_space(struct job_plan *p, const struct job_safety *sf, char *err,
		       size_t errlen)
{
	const char *done[64];
	unsigned nd = 0, i, j;
	char dbuf[PATH_MAX], a[32], b[32];

	if (sf->no_space_check || sf->no_layout)
		return 0;
	for (i = 0; i < p->nfiles && nd < 64; i++) {
		const struct job_file *f = &p->files[i];
		const char *dir = f->in_scratch ? (p->scratch_parent ? p->scratch_parent : ".")
						: dir_of(f->path, dbuf, sizeof(dbuf));
		uint64_t need = 0, avail = 0;
		char *dcopy;

		if (f->device)
			continue;
		for (j = 0; j < nd; j++)
			if (!strcmp(done[j], dir))
				break;
		if (j < nd)
			continue;
		dcopy = strdup(dir);
		if (!dcopy)
			return -ENOMEM;
		done[nd++] = dcopy;
		for (j = i; j < p->nfiles; j++) {
			const struct job_file *g = &p->files[j];
			char b2[PATH_MAX];
			const char *gd = g->in_scratch ? (p->scratch_parent ? p->scratch_parent :
							  ".") : dir_of(g->path, b2, sizeof(b2));

			if (g->io && !g->device && !strcmp(gd, dcopy) && g->need > g->have)
				need += g->need - g->have;
		}
		if (need && space_check(dcopy, need, &avail) == -ENOSPC) {
			int rc = job_plan_err(file_user(p, i), err, errlen, "the files do not fit: "
					      "'%s': they need %s, %s free", dcopy,
					      units_fmt_bytes(a, sizeof(a), (double)need),
					      units_fmt_bytes(b, sizeof(b), (double)avail));

			for (j = 0; j < nd; j++)
				free((char *)done[j]);
			return rc;
		}
	}
	for (j = 0; j < nd; j++)
		free((char *)done[j]);
	return 0;
}

/* The trims of the threads on file i against granularity g (a device's discard
 * granularity): offsets, block sizes and alignment multiples of it. 0 or -EINVAL. */
static int trim_aligned(const struct job_plan *p, unsigned i, uint64_t g, char *err,
			size_t errlen)
{
	unsigned t, k, s;

	for (t = 0; t < p->nthreads; t++) {
		const struct job_thread *th = &p->threads[t];
		const struct job_bs *b = &th->d->bs[JOB_TRIM];
		uint64_t bad = 0;
		const char *what = NULL;

		if (!job_rw_trims(th->d->rw))
			continue;
		for (k = 0; k < th->nfiles; k++)
			if (th->files[k].file == i && th->files[k].off % g) {
				bad = th->files[k].off;
				what = "offset";
			}
		if (b->min % g || b->ba % g) {
			bad = b->min % g ? b->min : b->ba;
			what = b->min % g ? "bs" : "blockalign";
		}
		for (s = 0; s < b->nsplit; s++)
			if (b->split[s].bs % g) {
				bad = b->split[s].bs;
				what = "bssplit";
			}
		if (what)
			return job_plan_err(th->d, err, errlen, "cannot trim the device '%s': "
					    "%s=%llu is not a multiple of its discard granularity "
					    "(%llu bytes)", p->files[i].path, what,
					    (unsigned long long)bad, (unsigned long long)g);
	}
	return 0;
}

/* Can file i be trimmed (BLKDISCARD on a device, a punched hole in a file)? An existing
 * file is asked directly (engine_discard_probe changes nothing in it), a new one through
 * an unnamed O_TMPFILE in its directory (where the file system has none, the first trim
 * says it). Records the method for the rows. 0 or -EINVAL. */
static int check_trim(struct job_plan *p, unsigned i, char *err, size_t errlen)
{
	struct job_file *f = &p->files[i];
	const struct job_def *d = file_user(p, i);
	struct engine_discard_info di;
	char dbuf[PATH_MAX], subj[PATH_MAX + 16];
	const char *dir;
	int fd, rc;

	/* a scratch file has no path yet: its directory is what is asked */
	snprintf(subj, sizeof(subj), "'%s'", f->path);

	if (f->device || f->exists) {
		fd = open(f->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return job_plan_err(d, err, errlen, "cannot open '%s' to trim it: %s",
					    f->path, strerror(errno));
	} else {
		dir = f->in_scratch ? (p->scratch_parent ? p->scratch_parent : ".")
				    : dir_of(f->path, dbuf, sizeof(dbuf));
#ifdef O_TMPFILE
		fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
		fd = -1;
#endif
		if (fd < 0)
			return 0;
		if (f->in_scratch)
			snprintf(subj, sizeof(subj), "files in '%s'", dir);
	}
	rc = engine_discard_probe(fd, &di);
	close(fd);
	f->trim_kind = di.kind;
	snprintf(f->trim_fs, sizeof(f->trim_fs), "%s", di.fstype);
	if (rc == -ENOSYS)
		return job_plan_err(d, err, errlen, "cannot trim %s: this iobattery was built "
				    "without %s", subj, f->device ? "BLKDISCARD" :
				    "fallocate(FALLOC_FL_PUNCH_HOLE)");
	if (rc < 0 && f->device)
		return job_plan_err(d, err, errlen, "cannot trim the device '%s': it does not "
				    "support discard (its queue/discard_max_bytes is %s)", f->path,
				    di.max_bytes || rc != -EOPNOTSUPP ? strerror(-rc) : "0");
	if (rc < 0)
		return job_plan_err(d, err, errlen, "cannot trim %s: the file system%s%s%s does "
				    "not punch holes (fallocate FALLOC_FL_PUNCH_HOLE): %s", subj,
				    di.fstype[0] ? " (" : "", di.fstype, di.fstype[0] ? ")" : "",
				    strerror(-rc));
	return f->device ? trim_aligned(p, i, di.granularity, err, errlen) : 0;
}

/* write_iolog: each thread's log (NAME, NAME.CLONE, then .RANK as job_thread.c names
 * it) is a new file in a directory we may write, checked before anything is made (it was
 * refused only when the thread started, after the layout). */
static int check_iologs(const struct job_plan *p, char *err, size_t errlen)
{
	char path[4096], dbuf[PATH_MAX];
	struct stat st;
	unsigned t;

	for (t = 0; t < p->nthreads; t++) {
		const struct job_def *d = p->threads[t].d;

		if (!d->write_iolog)
			continue;
		if (d->numjobs > 1)
			snprintf(path, sizeof(path), "%s.%u", d->write_iolog, p->threads[t].clone);
		else
			snprintf(path, sizeof(path), "%s", d->write_iolog);
		if (comm_multi())
			snprintf(path + strlen(path), sizeof(path) - strlen(path), ".%u",
				 comm_rank());
		if (lstat(path, &st) == 0)
			return job_plan_err(d, err, errlen, "write_iolog: the request log "
					    "exists: '%s': a new file is written (remove it or "
					    "name another)", path);
		if (access(dir_of(path, dbuf, sizeof(dbuf)), W_OK | X_OK) < 0)
			return job_plan_err(d, err, errlen, "write_iolog: cannot write the request "
					    "log: '%s': %s", path, strerror(errno));
	}
	return 0;
}

int job_plan_check(struct job_plan *p, const struct job_safety *sf, char *err,
		   size_t errlen)
{
	const char *parent = p->scratch_parent ? p->scratch_parent : ".";
	struct stat st;
	unsigned i, t, k;
	int rc;

	if (p->need_scratch && !sf->names_only) {
		if (stat(parent, &st) < 0 || !S_ISDIR(st.st_mode))
			return job_plan_err(NULL, err, errlen, "not a directory: '%s'", parent);
		if (access(parent, W_OK | X_OK) < 0)
			return job_plan_err(NULL, err, errlen, "cannot write in directory: "
					    "'%s': %s", parent, strerror(errno));
	}
	if ((rc = check_iologs(p, err, errlen)) < 0)
		return rc;
	for (i = 0; i < p->nfiles; i++)
		if (!p->files[i].in_scratch && (rc = check_file(p, i, sf, err, errlen)) < 0)
			return rc;
	if ((rc = size_threads(p, err, errlen)) < 0)
		return rc;
	for (i = 0; i < p->nfiles; i++) {
		p->files[i].need = p->files[i].total = 0;
		p->files[i].lo = UINT64_MAX;
	}
	for (t = 0; t < p->nthreads; t++)
		for (k = 0; k < p->threads[t].nfiles; k++) {
			const struct job_tfile *r = &p->threads[t].files[k];
			struct job_file *f = &p->files[r->file];
			/* shared: the last rank's segment ends (size - rank) lengths on */
			uint64_t segs = f->shared ? comm_size() - comm_rank() : 1;
			uint64_t all = r->off + segs * r->len;

			if (f->need < r->off + r->len)
				f->need = r->off + r->len;
			if (f->total < all)
				f->total = all;
			if (f->lo > r->off)
				f->lo = r->off;
		}
	for (i = 0; i < p->nfiles; i++) {
		struct job_file *f = &p->files[i];

		if (f->exists && !f->device &&
		    (rc = check_regular(f, file_user(p, i), sf, err, errlen)) < 0)
			return rc;
		if (f->device && f->need > f->have)
			return job_plan_err(file_user(p, i), err, errlen, "the region is larger "
					    "than the device '%s'", f->path);
		if (sf->no_layout && f->read && !f->exists)
			return job_plan_err(file_user(p, i), err, errlen, "--no-layout leaves '%s' "
					    "unwritten, and reading never-written blocks measures "
					    "nothing", f->path);
		if (f->trimmed && f->io && (rc = check_trim(p, i, err, errlen)) < 0)
			return rc;
	}
	return check_space(p, sf, err, errlen);
}
