/* vhook_check.c - the --verify options, the journal or listener the acknowledgements go
 * to, and the verification phase: every file the hook stamped read back and checked by
 * verify/verify.c, as a row of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "observe/cache.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "verify/verify.h"
#include "engine/engine.h"
#include "runner/runner.h"
#include "runner/vhook_int.h"
#include "stats/result.h"
#include "stats/result_keys.h"

const struct opt vhook_opt_table[] = {
	{ "verify", 0, OPT_FLAG, offsetof(struct vhook_cfg, on), NULL,
	  "write self-checking blocks and read every one back afterwards (a phase of its "
	  "own)" },
	{ "verify-after-drop", 0, OPT_FLAG, offsetof(struct vhook_cfg, after_drop), NULL,
	  "--verify, dropping each file from the page cache before it is read back" },
	{ "verify-journal", 0, OPT_STR, offsetof(struct vhook_cfg, journal), "FILE",
	  "--verify, recording each block a completed sync made durable in FILE (a new file "
	  "on another file system), for 'iobattery verify --journal' after a crash" },
	{ "report-to", 0, OPT_STR, offsetof(struct vhook_cfg, report_to), "ADDR:PORT",
	  "--verify, sending those records to 'iobattery fsync --listen' on another machine" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

int vhook_cfg_check(struct vhook_cfg *c, const struct engine *e, unsigned repeat,
		    const char *who)
{
	char dir[PATH_MAX];
	struct stat st;

	if (c->after_drop || c->journal || c->report_to)
		c->on = 1;
	if (!c->on)
		return 0;
	if (e && (e->flags & ENGINE_F_NOIO)) {
		err_msg("%s: --verify needs an engine that transfers data: '%s' does not", who,
			e->name);
		return -EINVAL;
	}
	if (c->journal && c->report_to) {
		err_msg("%s: --verify-journal and --report-to both given: the records go to one "
			"place", who);
		return -EINVAL;
	}
	if ((c->journal || c->report_to) && repeat > 1) {
		err_msg("%s: --%s records one run: use --repeat 1", who,
			c->journal ? "verify-journal" : "report-to");
		return -EINVAL;
	}
	if (c->report_to && vnet_addr_check(c->report_to, 0) < 0) {
		err_msg("%s: bad --report-to address: '%s': use HOST:PORT or [IPv6]:PORT", who,
			c->report_to);
		return -EINVAL;
	}
	if (!c->journal)
		return 0;
	if (lstat(c->journal, &st) == 0 || errno != ENOENT) {
		err_msg("%s: the journal exists: '%s': --verify-journal makes a new file", who,
			c->journal);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", c->journal);
	if (access(dirname(dir), W_OK | X_OK) < 0) {
		err_errno(-errno, "%s: cannot create the journal: '%s'", who, c->journal);
		return -EINVAL;
	}
	return 0;
}

int vhook_sink_open(struct vhook *h)
{
	int rc;

	if (h->cfg->journal) {
		rc = vjournal_create(&h->journal, h->cfg->journal, h->run_id);
		if (rc)
			err_errno(rc, "cannot create the journal: '%s'", h->cfg->journal);
		return rc;
	}
	if (h->cfg->report_to) {
		rc = vnet_connect(&h->net, h->cfg->report_to, h->run_id);
		if (rc == -EPROTO)
			err_msg("cannot reach the listener: '%s': the peer is not an iobattery "
				"listener ('iobattery fsync --listen')", h->cfg->report_to);
		else if (rc == -ETIMEDOUT)
			err_msg("cannot reach the listener: '%s': no answer within the time "
				"limit (10 s)", h->cfg->report_to);
		else if (rc)
			err_errno(rc, "cannot reach the listener: '%s'", h->cfg->report_to);
		return rc;
	}
	return 0;
}

int vhook_sink_close(struct vhook *h)
{
	int rc = 0;

	if (h->journal)
		rc = vjournal_close(h->journal);
	if (h->net)
		rc = vnet_close(h->net);
	h->journal = NULL;
	h->net = NULL;
	return rc;
}

/* --- the verification phase ---------------------------------------------------------- */

static const char *const class_key[VBLOCK_NCLASS] = {
	RK_VERIFY_OK, RK_VERIFY_IN_FLIGHT, RK_VERIFY_CORRUPTED, RK_VERIFY_MISDIRECTED,
	RK_VERIFY_STALE, RK_VERIFY_OTHER_RUN, RK_VERIFY_ZEROED, RK_VERIFY_NO_HEADER,
	RK_VERIFY_TORN, RK_VERIFY_MISSING,
};
static const char *const first_key[VBLOCK_NCLASS] = {
	NULL, NULL, RK_VERIFY_FIRST_CORRUPTED, RK_VERIFY_FIRST_MISDIRECTED,
	RK_VERIFY_FIRST_STALE, RK_VERIFY_FIRST_OTHER_RUN, RK_VERIFY_FIRST_ZEROED,
	RK_VERIFY_FIRST_NO_HEADER, RK_VERIFY_FIRST_TORN, RK_VERIFY_FIRST_MISSING,
};

/* What the files add up to. */
struct vh_total {
	uint64_t bytes, blocks, bad, files, gone;
	uint64_t count[VBLOCK_NCLASS];
	uint64_t first[VBLOCK_NCLASS], first_byte[VBLOCK_NCLASS];
	const char *first_path[VBLOCK_NCLASS];
	const char *crc_path;
	uint64_t run_id;		/* the first file's blocks' (a copy's: its source's) */
	uint64_t tracked, untracked;	/* files held to their last writes, or not after
					 * tracking was asked for (vhook_track) */
	int err;			/* the first failure to read a file */
	const char *err_path;
};

static void total_add(struct vh_total *t, const struct verify_summary *s, const char *path)
{
	int k;

	t->bytes += s->size;
	t->blocks += s->blocks;
	t->bad += s->bad;
	for (k = 0; k < VBLOCK_NCLASS; k++) {
		t->count[k] += s->count[k];
		if (!t->first_path[k] && s->first[k] != VERIFY_NONE) {
			t->first[k] = s->first[k];
			t->first_byte[k] = s->first_byte[k];
			t->first_path[k] = path;
		}
	}
	t->crc_path = s->crc_path;
	if (!t->run_id)
		t->run_id = s->run_id;
}

/* The rule a file's blocks are held to. */
static void file_opts(const struct vhook *h, const struct vh_file *f, struct verify_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->file_id = -1;
	o->pattern = h->npattern ? h->pattern : NULL;
	o->npattern = h->npattern;
	if (f->gen == VHOOK_GEN_CHECK)
		return;		/* a copy: the first header says whose blocks these are */
	o->run_id = h->run_id;
	o->file_id = f->file_id;
	if (f->gen == VHOOK_GEN_COUNT) {
		o->gen_rule = VERIFY_GEN_ANY;
	} else {
		o->gen_rule = VERIFY_GEN_MIN;
		o->min_gen = f->gen;
	}
}

/* Check one file into t. 0, or -errno of the file (t->err set), -EINTR. */
static int check_file(struct vhook *h, const struct vh_file *f, const struct vjournal_map *j,
		      struct vh_total *t, struct worker *w)
{
	struct verify_summary s;
	struct verify_opts o;
	struct vjournal_map tm;
	struct stat st;
	int fd, rc;

	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT) {
		t->gone++;	/* the workload removed it (PostMark deletes files) */
		return 0;
	}
	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = -errno;
		goto fail;
	}
	t->files++;
	if (st.st_size == 0 && !f->stamped) {
		close(fd);
		return 0;
	}
	if (h->cfg->after_drop)
		(void)cache_drop(fd);	/* best effort: the row says it was asked */
	file_opts(h, f, &o);
	if (f->blk && f->gen != VHOOK_GEN_CHECK) {
		/* the generation of each block's last write: stricter than a journal's
		 * acknowledgements, and true in the run that wrote them (no crash since) */
		if ((rc = vhook_track_map(h, f, &tm)) < 0)
			goto fail;
		rc = verify_fd(fd, &o, &tm, &s);
		vjournal_map_free(&tm);
	} else {
		rc = verify_fd(fd, &o, f->gen == VHOOK_GEN_CHECK ? NULL : j, &s);
	}
	if (rc == -EINVAL && f->gen != VHOOK_GEN_CHECK) {
		/* not one valid block of this run and file: every block written is lost */
		memset(&s, 0, sizeof(s));
		s.size = (uint64_t)st.st_size;
		s.blocks = s.bad = s.count[VBLOCK_NO_HEADER] = f->stamped ? f->stamped : 1;
		for (int k = 0; k < VBLOCK_NCLASS; k++)
			s.first[k] = s.first_byte[k] = VERIFY_NONE;
		s.first[VBLOCK_NO_HEADER] = s.first_byte[VBLOCK_NO_HEADER] = 0;
		rc = 1;
	}
	if (close(fd) != 0 && rc >= 0)
		rc = -errno;
	if (rc < 0)
		goto fail;
	total_add(t, &s, f->path);
	t->tracked += f->blk != NULL;
	t->untracked += f->track_lost;
	worker_account(w, (int64_t)s.size);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (rc == -EINVAL)
		rc = -EBADMSG;	/* a copy whose blocks are no verified blocks */
	t->err = rc;
	t->err_path = f->path;
	return rc;
}

/* "corrupted 1 (first at offset 8192 of 'f', byte 8200); torn 2 (...)" */
static char *bad_text(const struct vh_total *t)
{
	char buf[1024], one[PATH_MAX + 128];
	size_t k, used, room;

	buf[0] = 0;
	for (k = 0; k < VBLOCK_NCLASS; k++) {
		if (!vblock_class_bad((enum vblock_class)k) || !t->count[k])
			continue;
		if (t->first_byte[k] != VERIFY_NONE && t->first_byte[k] != t->first[k])
			snprintf(one, sizeof(one), "%s%s %" PRIu64 " (first at offset %" PRIu64
				 " of '%s', byte %" PRIu64 ")", buf[0] ? "; " : "",
				 vblock_class_name((enum vblock_class)k), t->count[k], t->first[k],
				 t->first_path[k], t->first_byte[k]);
		else
			snprintf(one, sizeof(one), "%s%s %" PRIu64 " (first at offset %" PRIu64
				 " of '%s')", buf[0] ? "; " : "",
				 vblock_class_name((enum vblock_class)k), t->count[k], t->first[k],
				 t->first_path[k]);
		used = strlen(buf);
		room = sizeof(buf) - used;
		if (snprintf(buf + used, room, "%s", one) >= (int)room)
			break;	/* the rest would not fit: the first classes are kept whole */
	}
	return str_printf("bad blocks: %s", buf);
}

void vhook_mark_rows(struct vhook *h)
{
	struct runner *rc = h->rc;
	size_t i;

	for (i = 0; h->workload && i < rc->run->nrows; i++) {
		struct row *r = rc->run->rows[i];

		if (r->repeat == rc->repeat && r->workload && !strcmp(r->workload, h->workload) &&
		    !kv_get(&r->params, RK_VERIFY))
			kv_set(&r->params, RK_VERIFY, "true");
	}
}

static void fill_row(struct vhook *h, struct row *row, const struct vh_total *t)
{
	int k;

	row->ops = t->blocks;
	row->cpu.cpu_ns_per_op = t->blocks ? (row->cpu.user_s + row->cpu.sys_s) * 1e9 /
						     (double)t->blocks : 0;
	row->rate = row->elapsed_ns ? (double)t->bytes / ((double)row->elapsed_ns / 1e9) / 1e6
				    : 0;
	str_set(&row->rate_unit, "MB/s");
	kv_set(&row->params, RK_VERIFY, "true");
	kv_set(&row->params, RK_VERIFY_RUN_ID, "%016" PRIx64,
	       h->nfiles && h->files[0]->gen == VHOOK_GEN_CHECK && t->run_id ? t->run_id
									: h->run_id);
	kv_set(&row->params, RK_VERIFY_BLOCK, "%u", (unsigned)h->block);
	kv_set(&row->params, RK_VERIFY_AFTER_DROP, "%s", h->cfg->after_drop ? "true" : "false");
	kv_set(&row->params, RK_VERIFY_CRC_PATH, "%s", t->crc_path ? t->crc_path : "?");
	if (t->tracked || t->untracked)
		kv_set(&row->params, RK_VERIFY_GENERATIONS, "%s",
		       t->untracked ? "any" : "last-write");
	if (h->cfg->journal)
		kv_set(&row->params, RK_VERIFY_JOURNAL, "%s", h->cfg->journal);
	else if (h->cfg->report_to)
		kv_set(&row->params, RK_VERIFY_JOURNAL, "%s", h->cfg->report_to);
	kv_set(&row->params, RK_ROW_DETAIL, "read back%s",
	       h->cfg->after_drop ? ", cache dropped" : "");
	row_add_metric(row, RK_VERIFY_BLOCKS, (double)t->blocks, "blocks");
	row_add_metric(row, RK_VERIFY_BAD_BLOCKS, (double)t->bad, "blocks");
	row_add_metric(row, RK_VERIFY_FILES, (double)t->files, "files");
	row_add_metric(row, RK_VERIFY_FILES_GONE, (double)t->gone, "files");
	for (k = 0; k < VBLOCK_NCLASS; k++) {
		if (k != VBLOCK_OK && !t->count[k])
			continue;
		row_add_metric(row, class_key[k], (double)t->count[k], "blocks");
		if (first_key[k])
			row_add_metric(row, first_key[k], (double)t->first[k], "B");
	}
	if (h->journal || h->net || h->cfg->journal || h->cfg->report_to) {
		row_add_metric(row, RK_VERIFY_ACKED, (double)h->acked, "records");
		row_add_metric(row, RK_VERIFY_ACK_S, (double)h->ack_ns / 1e9, "s");
	}
}

/* The newest acknowledgements of the local journal, for the check. 0 (m->n may be 0) or
 * -errno. */
static int load_journal(struct vhook *h, struct vjournal_map *m)
{
	int fd, rc;

	memset(m, 0, sizeof(*m));
	if (!h->journal)
		return 0;
	fd = open(h->cfg->journal, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = vjournal_load(fd, m);
	if (close(fd) != 0 && !rc)
		rc = -errno;
	return rc;
}

int vhook_verify(struct vhook *h, struct runner *rc, const char *workload)
{
	struct vjournal_map jm;
	struct vh_total t;
	struct phase ph;
	struct row *row;
	uint64_t expect = 0;
	size_t i;
	int err, k;

	if (!h)
		return 0;
	memset(&t, 0, sizeof(t));
	for (k = 0; k < VBLOCK_NCLASS; k++)
		t.first[k] = t.first_byte[k] = VERIFY_NONE;
	h->workload = workload;
	vhook_mark_rows(h);
	if ((err = load_journal(h, &jm)) < 0) {
		err_errno(err, "%s: cannot read the journal back: '%s'", workload, h->cfg->journal);
		return err;
	}
	for (i = 0; i < h->nfiles; i++)
		expect += h->files[i]->stamped * h->block;
	if ((err = phase_begin(&ph, rc, "verify", 1, "B", expect)) < 0) {
		vjournal_map_free(&jm);
		return err;
	}
	worker_start(&ph.w[0]);
	for (i = 0, err = 0; i < h->nfiles && !err; i++)
		err = sig_stop_requested() ? -EINTR :
		      check_file(h, h->files[i], h->journal ? &jm : NULL, &t, &ph.w[0]);
	vjournal_map_free(&jm);
	row = phase_end(&ph, workload);
	if (!row)
		return -ENOMEM;
	fill_row(h, row, &t);
	if (t.err && t.err != -EINTR) {
		row->flags |= ROW_FAILED;
		free(row->error);
		row->error = str_printf("cannot check '%s': %s", t.err_path,
					t.err == -EBADMSG ? "not written with --verify"
							  : strerror(-t.err));
	} else if (t.bad) {
		row->flags |= ROW_FAILED;
		free(row->error);
		row->error = bad_text(&t);
	} else if (h->sink_err) {
		row->flags |= ROW_FAILED;
		free(row->error);
		row->error = str_printf("acknowledgements stopped after %" PRIu64 " records: %s",
					h->acked, strerror(-h->sink_err));
	}
	if (row->flags & ROW_FAILED && row->error)
		err_msg("%s: verify failed: %s", workload, row->error);
	if (t.err)
		return t.err;
	return t.bad ? 1 : 0;
}
