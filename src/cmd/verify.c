/* verify.c - `iobattery verify [--journal FILE] FILE...`: check files written earlier with
 * --verify, block by block (verify/verify.h). The blocks' headers carry the run id, the
 * block size and the file id, so no other argument is needed; with a journal of
 * acknowledged generations (--verify-journal, or the listener's) a block must hold at
 * least what was acknowledged, and a write in flight at a crash is accepted.
 * Exit status: 0 every block as written, 1 bad blocks, 2 bad input (a file that is not
 * a verified file, a journal that is none, a file that cannot be read).
 * `iobattery verify --result FILE...` checks result files instead (stats/result_check.h):
 * the digest and every summary figure re-derived; 1 names each figure that does not
 * follow. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/rfile.h"
#include "core/units.h"
#include "stats/result_check.h"
#include "verify/verify.h"

struct verify_cmd {
	const char *journal;
	int quiet;
	int result;
};

static const struct opt verify_opts_table[] = {
	{ "journal", 'j', OPT_STR, offsetof(struct verify_cmd, journal), "FILE",
	  "hold each block to the generation FILE says was acknowledged (a journal made by "
	  "--verify-journal or by 'iobattery fsync --listen')" },
	{ "quiet", 'q', OPT_FLAG, offsetof(struct verify_cmd, quiet), NULL,
	  "print only the files with bad blocks (with --result: the figures that do not "
	  "follow)" },
	{ "result", 'r', OPT_FLAG, offsetof(struct verify_cmd, result), NULL,
	  "the FILEs are result files (--format json): check the digest and re-derive every "
	  "summary figure from the data the result holds" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

static const char *rule_words(const struct verify_summary *s)
{
	if (s->journal)
		return "the journal's acknowledged generations";
	switch (s->gen_rule) {
	case VERIFY_GEN_UNIFORM:
		return "one generation (whole passes)";
	case VERIFY_GEN_MIN:
		return "a minimum generation";
	default:
		return "any generation";
	}
}

static void print_file(const char *path, const struct verify_summary *s, int quiet)
{
	char bl[32], sz[32];
	int k;

	if (quiet && !s->bad)
		return;
	printf("%s: %" PRIu64 " blocks of %s (%s), run %016" PRIx64 ", file %u, held to %s, "
	       "crc32c %s\n", path, s->blocks, units_fmt_bytes(bl, sizeof(bl), s->block_len),
	       units_fmt_bytes(sz, sizeof(sz), (double)s->size), s->run_id, s->file_id,
	       rule_words(s), s->crc_path);
	if (s->journal)
		printf("  journal: %" PRIu64 " records read, %" PRIu64 " damaged and skipped\n",
		       s->journal_records, s->journal_damaged);
	for (k = 0; k < VBLOCK_NCLASS; k++) {
		if (k == VBLOCK_OK || !s->count[k])
			continue;
		printf("  %s: %" PRIu64 " block%s, the first at offset %" PRIu64,
		       vblock_class_name((enum vblock_class)k), s->count[k],
		       s->count[k] == 1 ? "" : "s", s->first[k]);
		if (s->first_byte[k] != VERIFY_NONE && s->first_byte[k] != s->first[k])
			printf(" (first bad byte at %" PRIu64 ")", s->first_byte[k]);
		printf("%s\n", vblock_class_bad((enum vblock_class)k) ? "" : ": accepted");
	}
	if (s->bad)
		printf("%s: %" PRIu64 " bad block%s\n", path, s->bad, s->bad == 1 ? "" : "s");
	else
		printf("%s: ok\n", path);
}

static void say_figure(void *arg, const char *figure, const char *why)
{
	printf("%s: %s: %s\n", (const char *)arg, figure, why);
}

/* One result file: its exit status (0, 1, 2). */
static int check_result(const char *path, const struct verify_cmd *v)
{
	struct result_check rc;
	char err[256] = "";
	size_t len;
	char *text;
	int st;

	st = rfile_read(path, 0, 1u << 30, &text, &len);
	if (st < 0) {
		err_msg("verify: cannot read the result: '%s': %s", path, rfile_strerror(st));
		return EXIT_USAGE;
	}
	st = result_check_text(text, len, &rc, say_figure, (void *)path, err, sizeof(err));
	free(text);
	if (st < 0) {
		err_msg("verify: not a result iobattery wrote: '%s': %s", path,
			st == -ENOMEM ? strerror(ENOMEM) : err);
		return EXIT_USAGE;
	}
	if (st == 0 && !v->quiet)
		printf("%s: ok: digest matches, %u figures re-derived, every one follows\n",
		       path, rc.figures);
	else if (st)
		printf("%s: %u of %u figures do not follow%s\n", path, rc.bad, rc.figures,
		       rc.digest == 1 ? "" : rc.digest == 0 ? " (the digest differs)" :
		       " (no digest)");
	return st ? 1 : 0;
}

/* One file: its exit status (0, 1, 2). */
static int check_one(const char *path, const struct verify_cmd *v)
{
	struct verify_opts o = { .file_id = -1, .journal_path = v->journal };
	struct verify_summary s;
	int rc = verify_file(path, &o, &s);

	if (rc == 0 || rc == 1) {
		print_file(path, &s, v->quiet);
		return rc;
	}
	if (rc == -EINTR)
		return EXIT_SIGNAL;
	if (rc == -ENXIO)
		err_msg("verify: not a regular file: '%s': a FIFO, socket or device is not read",
			s.err_path ? s.err_path : path);
	else if (rc == -EBADMSG)
		err_msg("verify: not a journal of acknowledged generations: '%s'", s.err_path);
	else if (rc == -EINVAL && v->journal && s.err_path && !strcmp(s.err_path, path))
		err_msg("verify: no block of the journal's run in the file: '%s'", path);
	else if (rc == -EINVAL)
		err_msg("verify: not a file written with --verify: '%s'", path);
	else
		err_errno(rc, "verify: cannot check: '%s'", s.err_path ? s.err_path : path);
	return EXIT_USAGE;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_cmd v = { NULL, 0, 0 };
	struct opt_group g = { verify_opts_table, &v };
	char **ops = NULL;
	int n, i, st, worst = 0;

	n = opt_parse(&g, 1, argc, argv, &ops);
	if (n == -ECANCELED) {
		printf("usage: iobattery verify [OPTION]... FILE...\n"
		       "Check files written with --verify, block by block: every block's header\n"
		       "names its run, file, offset and generation, and a CRC32C covers it.\n"
		       "Bad blocks are named by class (corrupted, misdirected, stale, other-run,\n"
		       "zeroed, no-header, torn, missing) with a count and the first offset.\n"
		       "With --result, each FILE is a result (--format json): its digest over\n"
		       "the canonical JSON is checked and every summary figure re-derived\n"
		       "from the data it holds (rates, CPU shares, percentiles, repeats,\n"
		       "ranks); each figure that does not follow is named.\n"
		       "Exit status: 0 all as written, 1 bad blocks or figures, 2 bad input.\n\n"
		       "options:\n");
		opt_help(stdout, &g, 1);
		free(ops);
		return EXIT_OK;
	}
	if (n < 0) {
		free(ops);
		return EXIT_USAGE;
	}
	if (n == 0) {
		err_msg("verify: no file given: see 'iobattery verify --help'");
		free(ops);
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		st = v.result ? check_result(ops[i], &v) : check_one(ops[i], &v);
		if (st == EXIT_SIGNAL) {
			worst = st;
			break;
		}
		worst = st > worst ? st : worst;
	}
	free(ops);
	return worst;
}
