/* job_cmd.c - `iobattery job`: fio job files (`iobattery job FILE.fio [--section NAME]`)
 * or a fio-style command line (`iobattery job --rw=randread --bs=4k ...`), validated
 * before anything is created: the parser (workload/job/job.h), then job_prepare (the
 * plan, the engines, the safety checks: workload/job/job_run.h); then the layout in a
 * scratch directory, the steps, and fio's summary or fio's JSON. The descriptor of the
 * job workload for the driver (cmd/workload_cmd.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/common_opts.h"
#include "comm/comm.h"
#include "core/err.h"
#include "fs/scratch.h"
#include "core/units.h"
#include "engine/engine.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "runner/toolceil.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/job/job.h"
#include "workload/job/job_run.h"
#include "workload/workload.h"

#define JOB_CMD_MAX_SECT 64

struct job_cmd {
	struct job_list list;
	struct job_plan plan;
	struct job_safety sf;
	const char *sect[JOB_CMD_MAX_SECT];
	unsigned nsect;
	char **files;			/* job files (operands) */
	int nfiles;
	char **fio;			/* fio options of a command-line job */
	int nfio;
	bool ignore_unknown, showcmd, parse_only, planned;
	struct scratch *sc;
	int err;			/* what the run returned */
	struct job_null_kept nk;	/* the tool's own limit of the last unit asked */
};

/* the second option table (job_opts_x.c), in its own paragraph */
#define JOB_XOPTS_HELP \
	"Also: io_size, offset_increment, filename_format, zonemode=strided (zonesize,\n" \
	"  zonerange, zoneskip; zbd is refused), thinktime_blocks, exitall, exit_what,\n" \
	"  continue_on_error, unlink (a filename= file the job made is otherwise kept, and\n" \
	"  said), cpus_allowed, cpumask, cpus_allowed_policy, numa_cpu_nodes,\n" \
	"  numa_mem_policy, wait_for; the data written: scramble_buffers (on, as fio),\n" \
	"  refill_buffers, zero_buffers, buffer_pattern, buffer_compress_percentage,\n" \
	"  buffer_compress_chunk, dedupe_percentage, dedupe_mode; ioengine filecreate,\n" \
	"  filestat, filedelete, dircreate, dirstat, dirdelete (one timed metadata call\n" \
	"  per file or directory), falloc (fallocate per request) and ftruncate (a\n" \
	"  truncate to each write's offset); disable_lat,\n" \
	"  disable_clat, disable_slat, gtod_reduce, clat_percentiles=0 (fio's summary and\n" \
	"  JSON leave out what fio leaves out), lat_percentiles (fio's lat percentiles\n" \
	"  block and JSON); accepted without effect on what is measured:\n" \
	"  random_generator, io_submit_mode, fallocate,\n" \
	"  create_on_open, threads, openfiles, flow, latency_target (warned: not searched),\n" \
	"  ratemin (warned: not enforced), verify_backlog, verify_dump, verify_fatal;\n" \
	"  prio, prioclass (each thread's I/O priority); cmdprio_percentage,\n" \
	"  cmdprio_class, cmdprio, cmdprio_bssplit (a request's own, libaio and io_uring).\n"

static const char job_synopsis[] =
	"FILE.fio... [--section NAME]... [OPTION]...\n"
	"       iobattery job --name=NAME --rw=MODE --bs=SIZE --size=SIZE [FIO-OPTION]... "
	"[OPTION]...\n"
	"       [--verify | --verify-after-drop] [--verify-journal FILE | --report-to ADDR]";

static const char job_help[] =
	"Run fio job files, or a job given with fio's options on the command line, and print\n"
	"fio's summary (or fio's JSON with --format fio-json), then iobattery's own verdicts:\n"
	"page-cache residency of buffered reads, buffered and durable times of writes, the\n"
	"flags. Files are laid out with real data before the timed steps, in a scratch\n"
	"directory iobattery makes (removed at the end), or where filename= names them.\n"
	"\n"
	"fio's options: rw (read, write, randread, randwrite, rw, randrw, with :N; trim,\n"
	"  randtrim, trimwrite, randtrimwrite: BLKDISCARD on a device, punched holes in a\n"
	"  file), rwmixread, rwmixwrite, bs, bsrange, bssplit, ba, size, filesize, nrfiles,\n"
	"  filename, directory,\n"
	"  offset, iodepth, iodepth_batch_submit, iodepth_batch_complete_min, numjobs, thread,\n"
	"  ioengine (psync or sync, io_uring, libaio or its aliases aio and linuxaio, mmap,\n"
	"  null, and the file engines below; io_uring's fixedbufs, registerfiles,\n"
	"  sqthread_poll, sqthread_poll_cpu, hipri), direct, buffered, sync,\n"
	"  fsync, fdatasync, end_fsync, fsync_on_close, invalidate, runtime, time_based,\n"
	"  ramp_time, startdelay, loops, number_ios, rate, rate_iops, rate_process, thinktime,\n"
	"  random_distribution, randrepeat, randseed, norandommap, percentile_list,\n"
	"  group_reporting, stonewall, wait_for_previous, new_group, description, name,\n"
	"  write_bw_log, write_lat_log, write_iops_log, write_hist_log, log_avg_msec,\n"
	"  log_hist_msec, per_job_logs, log_offset, log_prio (fio's logs; never over an\n"
	"  existing file),\n"
	"  steadystate (ss), steadystate_duration (ss_dur), steadystate_ramp_time (ss_ramp),\n"
	"  kb_base, verify (a checksum: iobattery's --verify), do_verify=1, [global] sections,\n"
	"  include, ${VAR}. Any other fio option is an error.\n"
	JOB_XOPTS_HELP
	"\n"
	"iobattery's options:\n"
	"  --section NAME       run only that section (repeatable; globals still apply)\n"
	"  -d DIR               where files of jobs without directory= go (default .)\n"
	"  --overwrite          an existing file named by filename= may be written\n"
	"  --destroy-data-on DEV  filename= may be this block device: not mounted, no\n"
	"                       partitions, no file-system signature, not in use\n"
	"  --ignore-unknown     fio options iobattery lacks: warn and ignore, not fail\n"
	"  --no-layout          create files empty (sparse); jobs that read are refused\n"
	"  --no-space-check     skip the free-space check before laying out\n"
	"  --showcmd            print the jobs as fio --showcmd does and exit\n"
	"  --parse-only         check the jobs and exit\n"
	"  --format LIST        text (fio's summary, default), json (iobattery's model),\n"
	"                       fio-json (fio's --output-format=json), fio-json+ (json+:\n"
	"                       with the latency bins), csv\n"
	"  --output-format F    fio's spelling: normal (text), json (fio-json) or json+\n"
	"  --output-dir DIR     write iobattery-results.EXT files there\n"
	"  --quiet              no progress line;  --label TEXT: stored with the result\n"
	"  --repeat N           run the jobs N times;  --no-store: do not save the run\n"
	"  --no-device-latency  no block-layer latency (BPF) per step\n"
	"  --verify             every block written carries a header and a CRC32C and is read\n"
	"                       back after the steps (a verify row); writes of one bs on its\n"
	"                       grid; fio's verify=crc32c (or another checksum) does the same\n"
	"  --verify-after-drop  the same, dropping each file from the page cache first\n"
	"  --verify-journal FILE  record each block a sync made durable (a new file)\n"
	"  --report-to ADDR:PORT  send those records to 'iobattery fsync --listen'\n";

static void job_wl_init(void *cfg)
{
	struct job_cmd *c = cfg;

	job_list_init(&c->list);
}

static void job_wl_done(void *cfg)
{
	struct job_cmd *c = cfg;

	job_null_free(&c->nk);
	job_plan_free(&c->plan);
	job_list_free(&c->list);
	free(c->files);
	free(c->fio);
}

/* The value of an option at argv[*i]: "--opt=VALUE" or "--opt VALUE". NULL when missing
 * (message printed). */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i], *eq = strchr(a, '=');

	if (eq)
		return eq + 1;
	if (*i + 1 >= argc) {
		err_msg("job: option '%s' needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/* Whether argv[i] is the iobattery option name (with or without "=VALUE"). */
static int is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

/* fio's --output-format words into our formats. 0 or -EINVAL. */
static int output_format(struct common_opts *co, const char *v)
{
	if (!strcmp(v, "normal"))
		co->format = "text";
	else if (!strcmp(v, "json"))
		co->format = "fio-json";
	else if (!strcmp(v, "json+"))
		co->format = "fio-json+";
	else if (!strcmp(v, "normal,json") || !strcmp(v, "json,normal"))
		co->format = "text,fio-json";
	else if (!strcmp(v, "normal,json+") || !strcmp(v, "json+,normal"))
		co->format = "text,fio-json+";
	else {
		err_msg("job: unsupported --output-format: '%s': use normal, json or json+", v);
		return -EINVAL;
	}
	return 0;
}

/* --verify and its companions at argv[*i] (--verify=VALUE is fio's verify=, not ours):
 * 1 taken, 0 not one of them, -EINVAL. */
static int verify_option(struct vhook_cfg *vc, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	int journal = is_opt(a, "--verify-journal");

	if (!strcmp(a, "--verify"))
		return vc->on = 1;
	if (!strcmp(a, "--verify-after-drop"))
		return vc->on = vc->after_drop = 1;
	if (!journal && !is_opt(a, "--report-to"))
		return 0;
	if (!(v = opt_value(argc, argv, i, journal ? "--verify-journal" : "--report-to")))
		return -EINVAL;
	if (!*v) {
		err_msg("job: empty %s: '%s'", journal ? "journal name" : "address", a);
		return -EINVAL;
	}
	vc->on = 1;
	if (journal)
		vc->journal = v;
	else
		vc->report_to = v;
	return 1;
}

/* One of iobattery's own options at argv[*i]: 1 taken, 0 not ours, -EINVAL. */
static int own_option(struct job_cmd *c, struct common_opts *co, int argc, char **argv, int *i)
{
	static const char *const valued[] = { "--section", "--destroy-data-on", "--format",
					      "--output-format", "--output-dir", "--label",
					      "--repeat" };
	const char *a = argv[*i], *v = NULL;
	size_t k;

	if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		return -ECANCELED;
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
		return co->quiet = 1;
	if (!strcmp(a, "--overwrite"))
		return c->sf.overwrite = true;
	if (!strcmp(a, "--ignore-unknown"))
		return c->ignore_unknown = true;
	if (!strcmp(a, "--no-layout"))
		return c->sf.no_layout = true;
	if (!strcmp(a, "--no-space-check"))
		return c->sf.no_space_check = true;
	if (!strcmp(a, "--showcmd"))
		return c->showcmd = true;
	if (!strcmp(a, "--parse-only"))
		return c->parse_only = true;
	if (!strcmp(a, "--no-store"))
		return co->no_store = 1;
	if (!strcmp(a, "--no-device-latency"))
		return co->no_devlat = 1;
	if (!strcmp(a, "-d")) {
		if (*i + 1 >= argc) {
			err_msg("job: option '-d' needs a directory");
			return -EINVAL;
		}
		c->sf.dir = argv[++*i];
		return 1;
	}
	for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
		if (is_opt(a, valued[k]))
			break;
	if (k == sizeof(valued) / sizeof(valued[0]))
		return 0;
	if (!(v = opt_value(argc, argv, i, valued[k])))
		return -EINVAL;
	switch (k) {
	case 0:
		if (c->nsect == JOB_CMD_MAX_SECT) {
			err_msg("job: too many --section options: '%s'", v);
			return -EINVAL;
		}
		c->sect[c->nsect++] = v;
		return 1;
	case 1:
		c->sf.destroy_dev = v;
		return 1;
	case 2:
		co->format = v;
		return 1;
	case 3:
		return output_format(co, v) < 0 ? -EINVAL : 1;
	case 4:
		co->output_dir = v;
		return 1;
	case 5:
		co->label = v;
		return 1;
	default: {
		uint64_t n;

		if (units_parse_u64(v, &n) < 0 || n < 1 || n > 1000000) {
			err_msg("job: bad value for --repeat: '%s': must be 1 or more", v);
			return -EINVAL;
		}
		co->repeat = (unsigned)n;
		return 1;
	}
	}
}

/* iobattery's options out of argv; the rest are job files or fio options. */
static int job_wl_parse(struct workload_ctx *x, int argc, char **argv, char ***ops)
{
	struct job_cmd *c = x->cfg;
	bool fio = false;
	int i, n = 0, rc;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));

	*ops = NULL;
	if (!rest)
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		rc = verify_option(&x->verify, argc, argv, &i);
		if (!rc)
			rc = own_option(c, x->co, argc, argv, &i);
		if (rc < 0) {
			free(rest);
			return rc;
		}
		if (rc)
			continue;
		if (!strncmp(argv[i], "--", 2))
			fio = true;
		rest[n++] = argv[i];
	}
	if (fio) {
		c->fio = rest;
		c->nfio = n;
	} else {
		c->files = rest;
		c->nfiles = n;
	}
	if (!n) {
		err_msg("job: no job file and no job options: see iobattery job --help");
		return -EINVAL;
	}
	return 0;
}

/* Parse the job files or the fio options into c->list. 0 or -EINVAL after the message. */
static int parse_jobs(struct job_cmd *c)
{
	char err[1024];
	int i, rc = 0;

	if (c->ignore_unknown)
		c->list.ctx.flags |= JOB_PARSE_IGNORE_UNKNOWN;
	if (c->nfio) {
		/* job_parse_argv counts argv[0] as argument 1 */
		char **v = calloc((size_t)c->nfio + 1, sizeof(*v));

		if (!v)
			return -ENOMEM;
		v[0] = (char *)"job";
		memcpy(v + 1, c->fio, (size_t)c->nfio * sizeof(*v));
		rc = job_parse_argv(c->nfio, v + 1, &c->list, err, sizeof(err));
		free(v);
	}
	for (i = 0; i < c->nfiles && !rc; i++)
		rc = job_parse_file(c->files[i], &c->list, err, sizeof(err));
	if (rc) {
		err_msg("%s", err);
		return -EINVAL;
	}
	return 0;
}

/* What --verify changes in a job that runs: fixedbufs no longer covers its writes. */
static void verify_warnings(const struct job_plan *p)
{
	const struct job_def *last = NULL;
	char err[1024];
	unsigned i;

	for (i = 0; i < p->nthreads; i++) {
		const struct job_thread *t = &p->threads[i];
		const struct job_def *d = t->d;

		if (d == last || engine_opt_get(t->e, &t->eo, "fixedbufs", NULL) != 1 ||
		    !job_rw_writes(d->rw))
			continue;
		last = d;
		job_plan_err(d, err, sizeof(err), "fixedbufs with --verify: the writes go out "
			     "from the stamped buffers, which are not registered (reads stay "
			     "fixed)");
		err_msg("%s", err);
	}
}

static int job_wl_validate(struct workload_ctx *x)
{
	struct job_cmd *c = x->cfg;
	char err[1024];
	int rc;

	if (parse_jobs(c) < 0)
		return -EINVAL;
	if (c->showcmd || c->parse_only)
		return 0;
	c->sf.shared_file = x->co->shared_file && comm_multi();
	rc = job_prepare(&c->plan, &c->list, c->sect, c->nsect, &c->sf, err, sizeof(err));
	c->planned = true;
	if (rc == -ENOMEM) {
		err_errno(rc, "job: cannot plan the run");
		return -EINVAL;
	}
	if (rc == -EINTR) {
		err_msg("job: interrupted while planning the run: nothing was made");
		return -EINTR;
	}
	if (rc < 0) {
		err_msg("%s", err);
		return -EINVAL;
	}
	/* the log files (write_*_log): refused up front where a file is in the way */
	if ((rc = job_logs_check(&c->plan, err, sizeof(err))) < 0) {
		err_msg("%s", err);
		return -EINVAL;
	}
	/* fio's verify= in a job asks for iobattery's check of the whole run */
	if (job_verify_asked(&c->plan))
		x->verify.on = 1;
	/* each rank's check would read the other ranks' segments as foreign blocks */
	if (vhook_cfg_on(&x->verify) && c->sf.shared_file) {
		err_msg("job: --verify does not check a --shared-file: each rank would read "
			"the other ranks' segments as foreign blocks (use a file per rank)");
		return -EINVAL;
	}
	if (vhook_cfg_on(&x->verify) &&
	    (rc = job_verify_plan(&c->plan, &c->sf, err, sizeof(err))) < 0) {
		if (rc == -ENOMEM)
			err_errno(rc, "job: cannot plan the run");
		else
			err_msg("%s", err);
		return -EINVAL;
	}
	if (vhook_cfg_on(&x->verify))
		verify_warnings(&c->plan);
	x->target = c->plan.scratch_parent ? c->plan.scratch_parent :
		    c->plan.nfiles && !c->plan.files[0].in_scratch ? c->plan.files[0].path : ".";
	return 0;
}

/* --showcmd and --parse-only end here; everything else is one measurement. */
static int job_wl_session(struct workload_ctx *x, char **ops, int n)
{
	struct job_cmd *c = x->cfg;

	(void)ops;
	(void)n;
	if (c->showcmd) {
		char *s = job_showcmd(&c->list);

		if (!s) {
			err_errno(-ENOMEM, "job: cannot print the jobs");
			return EXIT_FAILED;
		}
		fputs(s, stdout);
		free(s);
		return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
	}
	if (c->parse_only)
		return EXIT_OK;
	return x->drv->measure(x);
}

static int job_wl_record(struct workload_ctx *x, struct run *run)
{
	struct job_cmd *c = x->cfg;
	char *g = job_rows_global_options(&c->list), buf[2048] = "";
	size_t n = 0;
	unsigned i;
	int rc = 0;

	for (i = 0; i < c->nsect; i++)
		n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s",
				      i ? "," : "", c->sect[i]);
	if (c->nsect)
		rc |= kv_set(&run->options, RK_JOB_SECTION, "%s", buf);
	for (i = 0, n = 0, buf[0] = '\0'; i < (unsigned)c->nfiles; i++)
		n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0, "%s%s",
				      i ? "," : "", c->files[i]);
	if (c->nfiles)
		rc |= kv_set(&run->options, RK_JOB_FILES, "%s", buf);
	rc |= opt_record(&(struct opt_group){ vhook_opt_table, &x->verify }, 1, &run->options);
	rc |= kv_set(&run->options, RK_JOB_OVERWRITE, "%d", c->sf.overwrite);
	rc |= kv_set(&run->options, RK_JOB_NO_LAYOUT, "%d", c->sf.no_layout);
	if (c->sf.destroy_dev)
		rc |= kv_set(&run->options, RK_JOB_DESTROY_DATA_ON, "%s", c->sf.destroy_dev);
	if (c->sf.dir)
		rc |= kv_set(&run->options, RK_JOB_DIRECTORY, "%s", c->sf.dir);
	if (g)
		rc |= kv_set(&run->options, RK_JOB_GLOBAL_OPTIONS, "%s", g);
	free(g);
	return rc ? -ENOMEM : 0;
}

static int job_wl_setup(struct workload_ctx *x, struct runner *rc)
{
	struct job_cmd *c = x->cfg;
	char err[1024];
	int e;

	if (c->plan.need_scratch) {
		const char *parent = c->plan.scratch_parent ? c->plan.scratch_parent : ".";

		/* --shared-file: rank 0's directory, so that the ranks share its files */
		e = ranks_scratch_create(parent, c->sf.shared_file, &c->sc);
		if (e < 0) {
			err_errno(e, "job: cannot create a scratch directory in: '%s'", parent);
			return EXIT_FAILED;
		}
		if ((e = job_plan_place(&c->plan, scratch_dir(c->sc))) < 0) {
			err_errno(e, "job: cannot name the files in: '%s'", scratch_dir(c->sc));
			return EXIT_FAILED;
		}
	}
	/* --verify: one hook for every repeat, stamping the layout too */
	if ((e = job_verify_start(rc, &c->plan)) < 0)
		return EXIT_FAILED;
	e = job_layout(&c->plan, &c->sf, err, sizeof(err));
	if (e == -EINTR)
		return EXIT_SIGNAL;
	if (e < 0) {
		err_msg("%s", err);
		return EXIT_FAILED;
	}
	return 0;
}

static int job_wl_run(struct workload_ctx *x, struct runner *rc)
{
	struct job_cmd *c = x->cfg;

	c->err = job_run_steps(rc, &c->plan);
	/* the verify row: after every step of the repeat, of its files as they are */
	if (!c->err)
		c->err = job_verify_run(rc, &c->plan);
	return c->err;
}

static int job_wl_teardown(struct workload_ctx *x, struct run *run)
{
	struct job_cmd *c = x->cfg;
	int rc = job_verify_stop(&c->plan);

	(void)run;
	if (rc < 0)
		err_errno(rc, "job: cannot close the %s: '%s'",
			  x->verify.journal ? "journal" : "connection to the listener",
			  x->verify.journal ? x->verify.journal : x->verify.report_to);
	if (c->planned)
		job_layout_release(&c->plan, !sig_stop_requested());
	if (c->sc)
		ranks_scratch_destroy(c->sc, c->sf.shared_file);
	c->sc = NULL;
	return rc < 0 ? rc : 0;
}

static void job_wl_report(struct workload_ctx *x, const struct run *run, int err, int status)
{
	size_t i;

	(void)x;
	for (i = 0; i < run->nrows; i++) {
		const struct row *w = run->rows[i];
		const char *job = kv_get(&w->params, RK_JOB_JOB);

		/* the verify row's failure was said where it was found (vhook.h) */
		if ((w->flags & ROW_FAILED) && w->error && strcmp(w->phase, "aggregate") &&
		    strcmp(w->phase, "verify"))
			err_msg("job: %s failed: '%s': %s", w->phase, job ? job : "?", w->error);
	}
	if (err < 0 && err != -EINTR && !run->nrows)
		err_errno(err, "job: the run failed");
	if (status == EXIT_SIGNAL)
		err_msg("job: interrupted: files removed, partial results marked incomplete");
}

/* The tool's own limit of a row: its step again with the null engine (job_null.c). */
static int job_wl_tool_limit(struct workload_ctx *x, const struct row *w, struct toolceil *t,
			     char *words, size_t len)
{
	struct job_cmd *c = x->cfg;

	if (!c->planned)
		return 0;
	return job_null_limit(&c->plan, w, &c->nk, &t->ops_s, &t->cpu_ns_per_op, words, len);
}

const struct workload workload_job = {
	.name = "job",
	.summary = "fio job files and options: queue depth, threads, fio's output",
	.synopsis = job_synopsis,
	.help = job_help,
	.cfg_size = sizeof(struct job_cmd),
	.flags = WORKLOAD_F_VERIFY,
	.init = job_wl_init,
	.parse = job_wl_parse,
	.operands = NULL,
	.validate = job_wl_validate,
	.session = job_wl_session,
	.record = job_wl_record,
	.setup = job_wl_setup,
	.run = job_wl_run,
	.teardown = job_wl_teardown,
	.report = job_wl_report,
	.tool_limit = job_wl_tool_limit,
	.done = job_wl_done,
	.ranks = WL_RANKS_STONEWALL | WL_RANKS_WEAROUT | WL_RANKS_SHARED_FILE,
};
