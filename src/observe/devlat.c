/* devlat.c - load the block-layer latency program and read its histograms per phase
 * window. See devlat.h; the program is devlat.bpf.c, its skeleton made at build time by
 * mk/bpf.sh (only with HAVE_BPF). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "config.h"
#include "core/clock.h"
#include "observe/devlat.h"
#include "observe/devlat_abi.h"
#include "stats/hist.h"
#include "stats/result_devlat.h"

_Static_assert(DEVLAT_NBUCKETS == HIST_NBUCKETS && DEVLAT_NOPS == RDL_NOPS &&
	       DEVLAT_READ == RDL_READ && DEVLAT_WRITE_FUA == RDL_WRITE_FUA &&
	       DEVLAT_FLUSH == RDL_FLUSH && DEVLAT_OTHER == RDL_OTHER,
	       "the program's classes and histogram must be stats/hist.h's and the model's");

unsigned devlat_pick(const struct diskstats_set *set, unsigned *idx, unsigned max)
{
	unsigned n = 0, i, j;

	for (i = 0; i < set->ndev && n < max; i++) {
		const struct diskstats_dev *d = &set->dev[i];
		int members = 0;

		if (d->partition || d->role == DISKSTATS_BACKING)
			continue;
		for (j = 0; j < set->ndev; j++)
			if (set->dev[j].parent == (int)i && set->dev[j].role == DISKSTATS_MEMBER)
				members = 1;
		for (j = 0; j < n && !members; j++) {	/* once each */
			const struct diskstats_dev *o = &set->dev[idx[j]];

			if (o->major == d->major && o->minor == d->minor)
				members = 1;
		}
		if (!members)
			idx[n++] = i;
	}
	return n;
}

#ifdef HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core/dlib.h"

/* libbpf is opened when a run first loads the program (core/dlib.h), so that no command
 * pays for it (and libelf, zlib) at start. The skeleton's own wrappers call libbpf by
 * name; devlat.c calls its table instead and uses of the skeleton only its layout and
 * create_skeleton, whose one libbpf call, on running out of memory before anything is
 * opened, frees what it made as libbpf would. */
static void skel_free_unopened(struct bpf_object_skeleton *s)
{
	if (!s)
		return;
	free(s->maps);
	free(s->progs);
	free(s);
}
#define bpf_object__destroy_skeleton(s) skel_free_unopened(s)
#include "devlat.skel.h"
#undef bpf_object__destroy_skeleton

#define LB_FUNCTIONS(X) \
	X(open_skeleton, bpf_object__open_skeleton, int, (struct bpf_object_skeleton *, \
	  const struct bpf_object_open_opts *)) \
	X(load_skeleton, bpf_object__load_skeleton, int, (struct bpf_object_skeleton *)) \
	X(attach_skeleton, bpf_object__attach_skeleton, int, (struct bpf_object_skeleton *)) \
	X(destroy_skeleton, bpf_object__destroy_skeleton, void, \
	  (struct bpf_object_skeleton *)) \
	X(set_print, libbpf_set_print, libbpf_print_fn_t, (libbpf_print_fn_t)) \
	X(program_fd, bpf_program__fd, int, (const struct bpf_program *)) \
	X(info_by_fd, bpf_obj_get_info_by_fd, int, (int, void *, __u32 *))
#define LB_FIELD(f, sym, ret, args) ret (*f)args;
#define LB_ENTRY(f, sym, ret, args) { #sym, offsetof(struct libbpf_fns, f) },
struct libbpf_fns { LB_FUNCTIONS(LB_FIELD) };
static const struct dlib_sym lb_syms[] = { LB_FUNCTIONS(LB_ENTRY) };

struct devlat {
	void *lib;			/* libbpf's handle (dlib_close) */
	struct libbpf_fns lb;
	struct devlat_bpf *skel;
	unsigned ndev;
	char names[DEVLAT_MAX_DEVS][DISKSTATS_NAME_LEN];
	uint64_t t0;
	uint64_t ios0, ticks0;		/* the devices' diskstats at the window's start */
	uint64_t run_ns0, runs0;	/* the programs' own run time and runs then */
	int ds_ok;
};

/* libbpf's own messages would go to stderr: the caller says why in its words */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Kernels before 5.11 pass (queue, request) to block_rq_insert and block_rq_issue. */
static int rq_is_second(void)
{
	struct utsname u;
	unsigned a = 0, b = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &a, &b) != 2)
		return 0;
	return a < 5 || (a == 5 && b < 11);
}

/* Completed requests and their ticks (ms) of the devices now; 0 or -errno. */
static int ds_read(struct devlat *d, uint64_t *ios, uint64_t *ticks)
{
	struct diskstats_counters c;

	*ios = *ticks = 0;
	for (unsigned i = 0; i < d->ndev; i++) {
		int rc = diskstats_read_name(d->names[i], &c);

		if (rc < 0)
			return rc;
		*ios += c.rd_ios + c.wr_ios + c.dc_ios + c.fl_ios;
		*ticks += c.rd_ticks + c.wr_ticks + c.dc_ticks + c.fl_ticks;
	}
	return 0;
}

static int open_fail(struct devlat *d, int rc, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	devlat_close(d);
	return rc;
}

int devlat_open(const struct diskstats_set *set, struct devlat **out, char *why, size_t len)
{
	unsigned idx[DEVLAT_MAX_DEVS], n = devlat_pick(set, idx, DEVLAT_MAX_DEVS), i;
	struct devlat *d;
	int rc;

	*out = NULL;
	if (!n) {
		snprintf(why, len, "no block device behind the target");
		return -ENODEV;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		snprintf(why, len, "no kernel BTF (/sys/kernel/btf/vmlinux)");
		return -ENOTSUP;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	rc = dlib_load(IOB_BPF_SONAME, "libbpf (for the block-layer latency)", lb_syms,
		       sizeof(lb_syms) / sizeof(lb_syms[0]), &d->lb, sizeof(d->lb), &d->lib,
		       why, len);
	if (rc < 0) {
		devlat_close(d);
		return rc;
	}
	d->lb.set_print(quiet_print);
	if (!(d->skel = calloc(1, sizeof(*d->skel))) ||
	    (rc = devlat_bpf__create_skeleton(d->skel)) < 0 ||
	    (rc = d->lb.open_skeleton(d->skel->skeleton, NULL)) < 0)
		return open_fail(d, rc < 0 ? rc : -ENOMEM, why, len,
				 "cannot open the BPF program: %s",
				 strerror(rc < 0 ? -rc : ENOMEM));
	for (i = 0; i < n; i++) {
		const struct diskstats_dev *dv = &set->dev[idx[i]];

		d->skel->rodata->devs[i] = DEVLAT_MKDEV(dv->major, dv->minor);
		snprintf(d->names[i], sizeof(d->names[i]), "%s", dv->name);
	}
	d->ndev = n;
	d->skel->rodata->ndevs = n;
	d->skel->rodata->rq_second = rq_is_second();
	rc = d->lb.load_skeleton(d->skel->skeleton);
	if (rc < 0)
		return open_fail(d, rc, why, len, "the kernel refused the BPF program: %s%s",
				 strerror(-rc), geteuid() ? " (not root)" : "");
	rc = d->lb.attach_skeleton(d->skel->skeleton);
	if (rc < 0)
		return open_fail(d, rc, why, len,
				 "cannot attach to the block tracepoints: %s", strerror(-rc));
	*out = d;
	return 0;
}

void devlat_close(struct devlat *d)
{
	if (!d)
		return;
	if (d->skel && d->skel->skeleton)
		d->lb.destroy_skeleton(d->skel->skeleton);
	free(d->skel);
	dlib_close(d->lib);
	free(d);
}

/* The three programs' run time and runs, as the kernel counts them while
 * kernel.bpf_stats_enabled is 1 (0 and 0 otherwise). */
static void prog_stats(struct devlat *d, uint64_t *ns, uint64_t *runs)
{
	struct bpf_program *p[] = { d->skel->progs.devlat_insert, d->skel->progs.devlat_issue,
				    d->skel->progs.devlat_complete };

	*ns = *runs = 0;
	for (unsigned i = 0; i < 3; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (d->lb.info_by_fd(d->lb.program_fd(p[i]), &info, &len) == 0) {
			*ns += info.run_time_ns;
			*runs += info.run_cnt;
		}
	}
}

void devlat_begin(struct devlat *d)
{
	struct devlat_bpf__bss *b = d->skel->bss;

	__atomic_store_n(&b->enabled, 0, __ATOMIC_SEQ_CST);
	memset(b->hist, 0, sizeof(b->hist));
	memset(b->sum, 0, sizeof(b->sum));
	memset(b->maxv, 0, sizeof(b->maxv));
	memset(b->count, 0, sizeof(b->count));
	b->lost = 0;
	b->unissued = 0;
	d->ds_ok = ds_read(d, &d->ios0, &d->ticks0) == 0;
	prog_stats(d, &d->run_ns0, &d->runs0);
	d->t0 = clock_ns();
	__atomic_store_n(&b->enabled, 1, __ATOMIC_SEQ_CST);
}

/* The diskstats figures of the window into r. */
static void ds_window(struct devlat *d, struct row_devlat *r)
{
	uint64_t ios, ticks;

	if (!d->ds_ok || ds_read(d, &ios, &ticks) < 0 || ios < d->ios0)
		return;
	r->diskstats_requests = (double)(ios - d->ios0);
	/* ticks are printed as 32-bit numbers that wrap (diskstats.h) */
	if (ios > d->ios0)
		r->diskstats_await_ms = (double)((ticks - d->ticks0) & 0xffffffffull) /
					(double)(ios - d->ios0);
}

static char *names_joined(const struct devlat *d)
{
	size_t len = 1, off = 0;
	char *s;

	for (unsigned i = 0; i < d->ndev; i++)
		len += strlen(d->names[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (unsigned i = 0; i < d->ndev; i++)
		off += (size_t)snprintf(s + off, len - off, "%s%s", i ? "," : "", d->names[i]);
	return s;
}

struct row_devlat *devlat_end(struct devlat *d)
{
	struct devlat_bpf__bss *b = d->skel->bss;
	struct row_devlat *r = row_devlat_new();
	uint64_t t1;

	__atomic_store_n(&b->enabled, 0, __ATOMIC_SEQ_CST);
	t1 = clock_ns();
	if (!r)
		return NULL;
	ds_window(d, r);
	r->window_ns = (double)(t1 - d->t0);
	{
		uint64_t ns, runs;

		prog_stats(d, &ns, &runs);
		if (runs > d->runs0)	/* counted only with kernel.bpf_stats_enabled=1 */
			r->program_ns = (double)(ns - d->run_ns0);
	}
	r->devices = names_joined(d);
	r->unstamped = b->lost;
	r->unissued = b->unissued;
	for (unsigned c = 0; c < RDL_NOPS; c++) {
		for (unsigned k = 0; k < 2; k++) {
			struct rdl_part *p = k ? &r->op[c].queue : &r->op[c].dev;
			struct hist *h;

			if (!b->count[c])
				continue;
			h = malloc(sizeof(*h));
			if (!h) {
				row_devlat_free(r);
				return NULL;
			}
			hist_init(h);
			for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
				h->b[i] = b->hist[c][k][i];
				h->n += h->b[i];
			}
			rdl_part_set(p, h, b->sum[c][k], b->maxv[c][k]);
		}
		r->requests += r->op[c].dev.n;
	}
	r->requests += r->unissued + r->unstamped;
	return r;
}

#else /* !HAVE_BPF */

int devlat_open(const struct diskstats_set *set, struct devlat **out, char *why, size_t len)
{
	(void)set;
	*out = NULL;
	snprintf(why, len, "built without BPF (clang, bpftool, libbpf: scripts/install-deps)");
	return -ENOSYS;
}

void devlat_close(struct devlat *d)
{
	(void)d;
}

void devlat_begin(struct devlat *d)
{
	(void)d;
}

struct row_devlat *devlat_end(struct devlat *d)
{
	(void)d;
	return NULL;
}

#endif
