/* job_opts.c - the job options iobattery implements: names and aliases as fio spells
 * them, and what each value means. Generic kinds (bool, counts, sizes, times, strings)
 * store through offsetof; the others have their own handler. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/job/job_int.h"

#define JO_OFF(f)	offsetof(struct job_def, f)

int job_opt_bad(struct job_pstate *ps, const char *val, const char *why)
{
	return job_perr(ps, "invalid '%s=%s': %s", ps->optname, val ? val : "", why);
}

/* ---- values with one part per direction (read,write,trim) ---- */

#define JO_PARTS 3

/* Split val as fio splits bs=, rate= and bsrange=: at each step the first ',' or, when
 * none and more_seps, the first ':' or else '-'. buf receives the parts (NUL-separated);
 * part[i] is NULL for an empty part. Returns the number of parts, or -EINVAL when there
 * are more than JO_PARTS. */
static int jo_split(const char *val, bool more_seps, char *buf, size_t blen,
		    char *part[JO_PARTS])
{
	char *p;
	int n = 0;

	if (strlen(val) >= blen)
		return -EINVAL;
	strcpy(buf, val);
	p = buf;
	for (;;) {
		char *sep = strchr(p, ',');

		if (!sep && more_seps) {
			sep = strchr(p, ':');
			if (!sep)
				sep = strchr(p, '-');
		}
		if (n == JO_PARTS)
			return -EINVAL;
		if (sep)
			*sep = '\0';
		part[n++] = *p ? p : NULL;
		if (!sep)
			return n;
		p = sep + 1;
	}
}

/* For each direction: which part sets it. fio: an empty part leaves a direction alone;
 * a non-empty last part also sets the directions after it. idx[d] = part or -1. */
static int jo_spread(char *part[JO_PARTS], int n, int idx[JO_PARTS])
{
	int d, any = 0;

	for (d = 0; d < JO_PARTS; d++)
		idx[d] = -1;
	for (d = 0; d < n; d++)
		if (part[d]) {
			idx[d] = d;
			any = 1;
		}
	if (n > 0 && part[n - 1])
		for (d = n; d < JO_PARTS; d++)
			idx[d] = n - 1;
	return any ? 0 : -EINVAL;
}

/* Per-direction sizes (bs, ba, rate) or counts (rate_iops) from min to max (0: none):
 * the directions the value names get their new value in field, the others keep theirs. */
static int jo_ddir(struct job_pstate *ps, struct job_def *d, const char *val, uint64_t min,
		   uint64_t max, uint64_t field[JOB_DDIRS])
{
	char buf[256], *part[JO_PARTS];
	uint64_t v[JO_PARTS];
	int idx[JO_PARTS], n, i;
	char why[JOB_WHY_LEN];

	if (!val || !*val)
		return job_opt_bad(ps, val, "a value is required");
	n = jo_split(val, true, buf, sizeof(buf), part);
	if (n < 0)
		return job_opt_bad(ps, val, "at most three values (read,write,trim)");
	if (jo_spread(part, n, idx))
		return job_opt_bad(ps, val, "a value is required");
	for (i = 0; i < JO_PARTS; i++) {
		if (idx[i] < 0)
			continue;
		if (job_parse_size(part[idx[i]], d->kb_base, &v[i], NULL, why, sizeof(why)))
			return job_opt_bad(ps, val, why);
		if (v[i] < min) {
			snprintf(why, sizeof(why), "must be at least %llu",
				(unsigned long long)min);
			return job_opt_bad(ps, val, why);
		}
		if (max && v[i] > max) {
			snprintf(why, sizeof(why), "must be at most %llu", (unsigned long long)max);
			return job_opt_bad(ps, val, why);
		}
	}
	for (i = 0; i < JOB_DDIRS; i++)
		if (idx[i] >= 0)
			field[i] = v[i];
	return 0;
}

static int jo_bs(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		 const char *val)
{
	(void)o;
	return jo_ddir(ps, d, val, 1, 0, d->bs_opt);
}

static int jo_ba(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		 const char *val)
{
	(void)o;
	return jo_ddir(ps, d, val, 1, 0, d->ba_opt);
}

static int jo_rate(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	(void)o;
	/* '-' would split the value as a range: rate=-1 was write and trim at 1 B/s */
	if (val && strchr(val, '-'))
		return job_opt_bad(ps, val, "a rate is a positive number (no '-')");
	return jo_ddir(ps, d, val, 0, 0, d->rate);
}

static int jo_rate_iops(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
			const char *val)
{
	uint64_t v[JOB_DDIRS] = { d->rate_iops[0], d->rate_iops[1], d->rate_iops[2] };
	int i;

	(void)o;
	if (val && strchr(val, '-'))
		return job_opt_bad(ps, val, "a rate is a positive number (no '-')");
	if (jo_ddir(ps, d, val, 0, UINT32_MAX, v))
		return -EINVAL;
	for (i = 0; i < JOB_DDIRS; i++)
		d->rate_iops[i] = (unsigned)v[i];
	return 0;
}

/* bsrange=LOW-HIGH[,LOW-HIGH[,LOW-HIGH]] (':' also separates low from high). */
static int jo_bsrange(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	char buf[256], *part[JO_PARTS];
	uint64_t r[JO_PARTS][2];
	int idx[JO_PARTS], n, i, k;
	char why[JOB_WHY_LEN];

	(void)o;
	if (!val || !*val)
		return job_opt_bad(ps, val, "a range LOW-HIGH is required");
	n = jo_split(val, false, buf, sizeof(buf), part);
	if (n < 0)
		return job_opt_bad(ps, val, "at most three ranges (read,write,trim)");
	if (jo_spread(part, n, idx))
		return job_opt_bad(ps, val, "a range LOW-HIGH is required");
	for (i = 0; i < n; i++) {
		char *lo = part[i], *hi;

		if (!lo)
			continue;
		hi = strchr(lo, '-');
		if (!hi)
			hi = strchr(lo, ':');
		if (!hi)
			return job_opt_bad(ps, val, "a range LOW-HIGH is required");
		*hi++ = '\0';
		for (k = 0; k < 2; k++) {
			if (job_parse_size(k ? hi : lo, d->kb_base, &r[i][k], NULL, why,
					   sizeof(why)))
				return job_opt_bad(ps, val, why);
			if (!r[i][k])
				return job_opt_bad(ps, val, "sizes must be at least 1");
		}
		if (r[i][0] > r[i][1]) {	/* fio swaps them */
			uint64_t t = r[i][0];

			r[i][0] = r[i][1];
			r[i][1] = t;
		}
	}
	for (i = 0; i < JOB_DDIRS; i++)
		if (idx[i] >= 0) {
			d->bsrange[i][0] = r[idx[i]][0];
			d->bsrange[i][1] = r[idx[i]][1];
		}
	return 0;
}

static int jo_rw(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		 const char *val)
{
	static const struct {
		const char *name;
		enum job_rw rw;
	} modes[] = {
		{ "read", JOB_RW_READ }, { "write", JOB_RW_WRITE },
		{ "randread", JOB_RW_RANDREAD }, { "randwrite", JOB_RW_RANDWRITE },
		{ "rw", JOB_RW_RW }, { "readwrite", JOB_RW_RW }, { "randrw", JOB_RW_RANDRW },
		{ "trim", JOB_RW_TRIM }, { "randtrim", JOB_RW_RANDTRIM },
		{ "trimwrite", JOB_RW_TRIMWRITE }, { "randtrimwrite", JOB_RW_RANDTRIMWRITE },
	};
	const char *colon;
	size_t n, i;
	char why[JOB_WHY_LEN];

	(void)o;
	if (!val)
		return job_opt_bad(ps, val, "a value is required");
	colon = strchr(val, ':');
	n = colon ? (size_t)(colon - val) : strlen(val);
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strlen(modes[i].name) == n && !strncmp(modes[i].name, val, n))
			break;
	if (i == sizeof(modes) / sizeof(modes[0]))
		return job_opt_bad(ps, val, "read, write, randread, randwrite, rw (readwrite), "
				   "randrw, trim, randtrim, trimwrite or randtrimwrite");
	d->rw = modes[i].rw;
	d->rw_seq_nr = 1;
	d->rw_seq_add = 0;
	if (!colon)
		return 0;
	if (job_rw_random(d->rw)) {
		uint64_t v;

		if (job_parse_plain(colon + 1,
			&v) || v < 1 || v > UINT32_MAX)
			return job_opt_bad(ps, val,
				   "a random mode takes :N, a new offset every N I/Os");
		d->rw_seq_nr = (unsigned)v;
	} else if (job_parse_ssize(colon + 1, d->kb_base, &d->rw_seq_add, why, sizeof(why))) {
		return job_opt_bad(ps, val, why);
	}
	return 0;
}

static int jo_rwmix(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		    const char *val)
{
	uint64_t v;
	unsigned own = o->id == JOB_OPT_RWMIXREAD ? JOB_READ : JOB_WRITE;
	char why[JOB_WHY_LEN];

	if (!val || !*val)
		return job_opt_bad(ps, val, "a percentage is required");
	if (job_parse_size(val, d->kb_base, &v, NULL, why, sizeof(why)))
		return job_opt_bad(ps, val, why);
	if (v > 100)
		return job_opt_bad(ps, val, "must be 0 to 100");
	d->rwmix[own] = (unsigned)v;
	d->rwmix[!own] = 100 - (unsigned)v;
	return 0;
}

/* size= and offset=: bytes or N% (of the file or device). */
static int jo_size_pct(struct job_pstate *ps, struct job_def *d, const char *val,
		       uint64_t *bytes, unsigned *pct, unsigned min_pct)
{
	size_t n = val ? strlen(val) : 0;
	char why[JOB_WHY_LEN];

	if (!n)
		return job_opt_bad(ps, val, "a value is required");
	if (val[n - 1] == 'z' || val[n - 1] == 'Z')
		return job_opt_bad(ps, val, "zone units need zonemode, which is not implemented");
	if (job_parse_size(val, d->kb_base, bytes, pct, why, sizeof(why)))
		return job_opt_bad(ps, val, why);
	if (*bytes == 0 && val[n - 1] == '%' && *pct < min_pct)
		return job_opt_bad(ps, val, "a percentage must be 1% to 100%");
	return 0;
}

static int jo_size(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	(void)o;
	return jo_size_pct(ps, d, val, &d->size, &d->size_pct, 1);
}

static int jo_offset(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val)
{
	(void)o;
	return jo_size_pct(ps, d, val, &d->offset, &d->offset_pct, 0);
}

/* filesize=SIZE or LOW-HIGH; startdelay=TIME or LOW-HIGH. */
static int jo_pair(struct job_pstate *ps, struct job_def *d, const char *val, bool time,
		   uint64_t out[2])
{
	char buf[256], *part[JO_PARTS];
	uint64_t v[2];
	int n, i;
	char why[JOB_WHY_LEN];

	if (!val || !*val)
		return job_opt_bad(ps, val, "a value is required");
	n = jo_split(val, true, buf, sizeof(buf), part);
	if (n < 0 || n > 2 || !part[0] || (n == 2 && !part[1]))
		return job_opt_bad(ps, val, "one value or a range LOW-HIGH");
	for (i = 0; i < n; i++) {
		int rc = time ? job_parse_time(part[i], 1000000, &v[i], why, sizeof(why))
			      : job_parse_size(part[i], d->kb_base, &v[i], NULL, why, sizeof(why));

		if (rc)
			return job_opt_bad(ps, val, why);
	}
	if (n == 1)
		v[1] = v[0];
	if (v[0] > v[1])
		return job_opt_bad(ps, val, "the low end is above the high end");
	out[0] = v[0];
	out[1] = v[1];
	return 0;
}

static int jo_filesize(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		       const char *val)
{
	uint64_t v[2] = { 0, 0 };

	(void)o;
	if (jo_pair(ps, d, val, false, v))
		return -EINVAL;
	if (!v[0])
		return job_opt_bad(ps, val, "must be at least 1");
	d->filesize[0] = v[0];
	d->filesize[1] = v[1];
	return 0;
}

static int jo_startdelay(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
			 const char *val)
{
	(void)o;
	return jo_pair(ps, d, val, true, d->startdelay);
}

int job_opt_word(const char *val, const char *const *words, int n)
{
	int i;

	for (i = 0; val && i < n; i++)
		if (!strcmp(val, words[i]))
			return i;
	return -1;
}

static int jo_sync(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		   const char *val)
{
	static const char *const w[] = { "none", "0", "sync", "1", "dsync" };
	static const enum job_sync m[] = { JOB_SYNC_NONE, JOB_SYNC_NONE, JOB_SYNC_SYNC,
					   JOB_SYNC_SYNC, JOB_SYNC_DSYNC };
	int i = job_opt_word(val, w, 5);

	(void)o;
	if (i < 0)
		return job_opt_bad(ps, val, "none, 0, sync, 1 or dsync");
	d->sync = m[i];
	return 0;
}

static int jo_rate_process(struct job_pstate *ps, struct job_def *d,
			   const struct job_optdef *o, const char *val)
{
	static const char *const w[] = { "linear", "poisson" };
	int i = job_opt_word(val, w, 2);

	(void)o;
	if (i < 0)
		return job_opt_bad(ps, val, "linear or poisson");
	d->rate_process = i ? JOB_RATE_POISSON : JOB_RATE_LINEAR;
	return 0;
}

static int jo_kb_base(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	static const char *const w[] = { "1024", "1000" };
	int i = job_opt_word(val, w, 2);

	(void)o;
	if (i < 0)
		return job_opt_bad(ps, val, "1024 or 1000");
	d->kb_base = i ? 1000 : 1024;
	return 0;
}

static int jo_buffered(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		       const char *val)
{
	(void)o;
	if (!val || (strcmp(val, "0") && strcmp(val, "1")))
		return job_opt_bad(ps, val, "must be 0 or 1");
	d->direct = val[0] == '0';
	return 0;
}

static int jo_flag(struct job_pstate *ps, const char *val, bool *out);

/* fio's verify=: a checksum turns on iobattery's --verify for the run, whose blocks carry
 * iobattery's header and CRC32C (not fio's): said once where it is set. */
static int jo_verify(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		     const char *val)
{
	static const char *const sums[] = {
		"md5", "crc64", "crc32", "crc32c-intel", "crc32c", "crc16", "crc7", "sha1",
		"sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash",
		"meta",
	};
	const char *v = val;

	(void)o;
	while (v && isspace((unsigned char)*v))
		v++;
	if (v && !strcmp(v, "0")) {
		d->verify = false;
		return 0;
	}
	if (v && (!strcmp(v, "pattern") || !strcmp(v, "null")))
		return job_perr(ps, "'%s=%s': fio's %s verification is not implemented: "
				"iobattery's --verify (or verify=crc32c) stamps every block "
				"written with a header and a CRC32C and reads it back", ps->optname,
				val, !strcmp(v, "null") ? "pretend" : "pattern");
	if (job_opt_word(v, sums, (int)(sizeof(sums) / sizeof(sums[0]))) < 0)
		return job_opt_bad(ps, val, "0 or a checksum: md5, crc64, crc32, crc32c, "
				   "crc32c-intel, crc16, crc7, sha1, sha256, sha512, sha3-224, "
				   "sha3-256, sha3-384, sha3-512, xxhash, meta");
	job_pwarn(ps, "verify=%s is served by iobattery's --verify: every block the run writes "
		  "carries iobattery's header and CRC32C (not fio's %s header) and is read "
		  "back after the write steps", v, v);
	d->verify = true;
	return 0;
}

/* fio's do_verify: 0 writes the verify data (stamped blocks) without reading them back
 * for this job (job_verify.c: no verify row unless another job asks for one). */
static int jo_do_verify(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
			const char *val)
{
	bool on;

	(void)o;
	if (!val)
		return job_perr(ps, "'%s' needs a value (%s=1)", ps->optname, ps->optname);
	if (jo_flag(ps, val, &on))
		return -EINVAL;
	d->xo.no_do_verify = !on;
	return 0;
}

#define GEN(nm, al, idv, k, f, mn, mx)	{ nm, al, idv, k, 0, JO_OFF(f), mn, mx, 0, NULL }
#define TIME(nm, al, idv, f, unit, mx)	{ nm, al, idv, JK_TIME, 0, JO_OFF(f), 0, mx, unit, NULL }
#define SPEC(nm, al, idv, fn)		{ nm, al, idv, JK_SPECIAL, 0, 0, 0, 0, 0, fn }

static const struct job_optdef job_opts[] = {
	SPEC("rw", "readwrite", JOB_OPT_RW, jo_rw),
	SPEC("rwmixread", NULL, JOB_OPT_RWMIXREAD, jo_rwmix),
	SPEC("rwmixwrite", NULL, JOB_OPT_RWMIXWRITE, jo_rwmix),
	SPEC("bs", "blocksize", JOB_OPT_BS, jo_bs),
	SPEC("bsrange", "blocksize_range", JOB_OPT_BSRANGE, jo_bsrange),
	SPEC("bssplit", NULL, JOB_OPT_BSSPLIT, job_opt_bssplit),
	SPEC("ba", "blockalign", JOB_OPT_BA, jo_ba),
	SPEC("size", NULL, JOB_OPT_SIZE, jo_size),
	SPEC("filesize", NULL, JOB_OPT_FILESIZE, jo_filesize),
	GEN("nrfiles", "nr_files", JOB_OPT_NRFILES, JK_UINT, nrfiles, 1, 1u << 20),
	{ "filename", NULL, JOB_OPT_FILENAME, JK_STR, -1, JO_OFF(filename), 0, 0, 0, NULL },
	GEN("directory", NULL, JOB_OPT_DIRECTORY, JK_STR, directory, 0, 0),
	SPEC("offset", "fileoffset", JOB_OPT_OFFSET, jo_offset),
	GEN("iodepth", NULL, JOB_OPT_IODEPTH, JK_UINT, iodepth, 1, JOB_IODEPTH_MAX),
	GEN("iodepth_batch", "iodepth_batch_submit", JOB_OPT_IODEPTH_BATCH, JK_UINT,
	    iodepth_batch, 0, JOB_IODEPTH_MAX),
	GEN("iodepth_batch_complete_min", "iodepth_batch_complete",
	    JOB_OPT_IODEPTH_BATCH_COMPLETE_MIN, JK_UINT, iodepth_batch_complete_min, 0,
	    JOB_IODEPTH_MAX),
	GEN("iodepth_batch_complete_max", NULL, JOB_OPT_IODEPTH_BATCH_COMPLETE_MAX, JK_UINT,
	    iodepth_batch_complete_max, 0, JOB_IODEPTH_MAX),
	GEN("numjobs", NULL, JOB_OPT_NUMJOBS, JK_UINT, numjobs, 1, JOB_NUMJOBS_MAX),
	GEN("thread", NULL, JOB_OPT_THREAD, JK_SET, thread, 0, 0),
	SPEC("ioengine", NULL, JOB_OPT_IOENGINE, job_opt_ioengine),
	GEN("direct", NULL, JOB_OPT_DIRECT, JK_BOOL, direct, 0, 0),
	SPEC("buffered", NULL, JOB_OPT_BUFFERED, jo_buffered),
	SPEC("sync", NULL, JOB_OPT_SYNC, jo_sync),
	GEN("fsync", NULL, JOB_OPT_FSYNC, JK_UINT, fsync, 0, UINT32_MAX),
	GEN("fdatasync", NULL, JOB_OPT_FDATASYNC, JK_UINT, fdatasync, 0, UINT32_MAX),
	GEN("end_fsync", NULL, JOB_OPT_END_FSYNC, JK_BOOL, end_fsync, 0, 0),
	GEN("fsync_on_close", NULL, JOB_OPT_FSYNC_ON_CLOSE, JK_BOOL, fsync_on_close, 0, 0),
	TIME("runtime", "timeout", JOB_OPT_RUNTIME, runtime, 1000000, 0),
	GEN("time_based", NULL, JOB_OPT_TIME_BASED, JK_SET, time_based, 0, 0),
	TIME("ramp_time", NULL, JOB_OPT_RAMP_TIME, ramp_time, 1000000, 0),
	SPEC("startdelay", NULL, JOB_OPT_STARTDELAY, jo_startdelay),
	GEN("loops", NULL, JOB_OPT_LOOPS, JK_UINT, loops, 0, UINT32_MAX),
	GEN("number_ios", NULL, JOB_OPT_NUMBER_IOS, JK_U64, number_ios, 0, 0),
	SPEC("rate", NULL, JOB_OPT_RATE, jo_rate),
	SPEC("rate_iops", NULL, JOB_OPT_RATE_IOPS, jo_rate_iops),
	SPEC("rate_process", NULL, JOB_OPT_RATE_PROCESS, jo_rate_process),
	TIME("thinktime", NULL, JOB_OPT_THINKTIME, thinktime, 1, UINT32_MAX),
	SPEC("random_distribution", NULL, JOB_OPT_RANDOM_DISTRIBUTION, job_opt_dist),
	GEN("randrepeat", NULL, JOB_OPT_RANDREPEAT, JK_BOOL, randrepeat, 0, 0),
	GEN("randseed", NULL, JOB_OPT_RANDSEED, JK_U64, randseed, 0, 0),
	GEN("norandommap", NULL, JOB_OPT_NORANDOMMAP, JK_SET, norandommap, 0, 0),
	SPEC("percentile_list", NULL, JOB_OPT_PERCENTILE_LIST, job_opt_pctl),
	GEN("group_reporting", NULL, JOB_OPT_GROUP_REPORTING, JK_SET, group_reporting, 0, 0),
	GEN("stonewall", "wait_for_previous", JOB_OPT_STONEWALL, JK_SET, stonewall, 0, 0),
	GEN("new_group", NULL, JOB_OPT_NEW_GROUP, JK_SET, new_group, 0, 0),
	GEN("description", NULL, JOB_OPT_DESCRIPTION, JK_STR, description, 0, 0),
	GEN("name", NULL, JOB_OPT_NAME, JK_STR, name, 0, 0),
	{ "kb_base", NULL, JOB_OPT_KB_BASE, JK_SPECIAL, 1, 0, 0, 0, 0, jo_kb_base },
	GEN("invalidate", NULL, JOB_OPT_INVALIDATE, JK_BOOL, invalidate, 0, 0),
	GEN("write_iolog", NULL, JOB_OPT_WRITE_IOLOG, JK_STR, write_iolog, 0, 0),
	SPEC("verify", NULL, JOB_OPT_VERIFY, jo_verify),
	SPEC("do_verify", NULL, JOB_OPT_DO_VERIFY, jo_do_verify),
};

const struct job_optdef *job_opt_find(const char *name)
{
	const struct job_optdef *o;
	size_t i;

	for (i = 0; i < sizeof(job_opts) / sizeof(job_opts[0]); i++)
		if (!strcmp(job_opts[i].name, name) ||
		    (job_opts[i].alias && !strcmp(job_opts[i].alias, name)))
			return &job_opts[i];
	o = job_logs_opt_find(name);	/* the logs' and steady state's rows */
	return o ? o : job_xopt_find(name);	/* then the second table's */
}

int job_opt_prio(const char *name)
{
	const struct job_optdef *o = job_opt_find(name);

	if (!o)	/* an engine's options: fio applies them after the others of a section */
		return engine_option_owner(name) ? -1 : 0;
	return o->prio;
}

/* 0 or 1 (fio's bool), also the value of a "string set" flag. */
static int jo_flag(struct job_pstate *ps, const char *val, bool *out)
{
	const char *v = val;

	while (v && isspace((unsigned char)*v))
		v++;
	if (!v || (strcmp(v, "0") && strcmp(v, "1")))
		return job_opt_bad(ps, val, "must be 0 or 1");
	*out = v[0] == '1';
	return 0;
}

static int jo_generic(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		      const char *val)
{
	char *base = (char *)d + o->off;
	uint64_t v;
	char why[JOB_WHY_LEN];

	switch (o->kind) {
	case JK_SET:
		if (!val) {
			*(bool *)base = true;
			return 0;
		}
		return jo_flag(ps, val, (bool *)base);
	case JK_BOOL:
		if (!val)
			return job_perr(ps, "'%s' needs a value (%s=1)", ps->optname, ps->optname);
		return jo_flag(ps, val, (bool *)base);
	case JK_STR:
		while (val && isspace((unsigned char)*val))
			val++;
		if (!val || !*val)
			return job_opt_bad(ps, val, "a value is required");
		return job_strset((char **)base, val) ? -ENOMEM : 0;
	case JK_TIME:
		if (!val || !*val)
			return job_opt_bad(ps, val, "a time is required");
		if (job_parse_time(val, o->unit, &v, why, sizeof(why)))
			return job_opt_bad(ps, val, why);
		break;
	default:
		if (!val || !*val)
			return job_opt_bad(ps, val, "a number is required");
		if (job_parse_size(val, d->kb_base, &v, NULL, why, sizeof(why)))
			return job_opt_bad(ps, val, why);
		break;
	}
	if (v < o->min) {
		snprintf(why, sizeof(why), "must be at least %llu", (unsigned long long)o->min);
		return job_opt_bad(ps, val, why);
	}
	if (o->max && v > o->max) {
		snprintf(why, sizeof(why), "must be at most %llu", (unsigned long long)o->max);
		return job_opt_bad(ps, val, why);
	}
	if (o->kind == JK_UINT)
		*(unsigned *)base = (unsigned)v;
	else
		*(uint64_t *)base = v;
	return 0;
}

int job_opt_apply(struct job_pstate *ps, struct job_def *d, const struct job_optdef *o,
		  const char *val)
{
	int rc = o->kind == JK_SPECIAL ? o->fn(ps, d, o, val) : jo_generic(ps, d, o, val);

	if (!rc && o->id < JOB_OPT_COUNT)	/* the logs' and ss options have no bit */
		d->set |= 1ull << o->id;
	else if (!rc)
		job_xopt_mark(d, o);
	return rc;
}
