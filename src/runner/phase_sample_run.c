/* phase_sample_run.c - the run's side of sampling: the options, the target's device set
 * found once, what cannot be read said once, a database server's processes, and the
 * live view of the phase running now. See phase_sample.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/err.h"
#include "observe/procstat.h"
#include "observe/waitstate.h"
#include "runner/phase_sample_int.h"
#include "runner/runner.h"
#include "stats/result.h"

/* Say once, at the start of the run, which figures this system cannot give; find_rc is
 * what finding the device set returned. A build without a source (-ENOSYS) and a target
 * without a block device (-ENODEV) are not news: the rows say so. */
static void obs_say_missing(struct runner_obs *ro, int find_rc)
{
	struct procstat_reader r;
	struct procstat_cpu c;
	struct diskstats_snap snap;
	struct waitstate_src src;
	int rc;

	procstat_init(&r);
	rc = procstat_read_cpu(&r, &c);
	if (rc < 0 && rc != -ENOSYS)
		err_errno(rc, "no CPU split and page-cache figures: cannot read: '/proc/stat'");
	procstat_close(&r);
	if (ro->set.ndev) {
		rc = diskstats_read(&ro->set, &snap);
		if (rc < 0 && rc != -ENOSYS)
			err_errno(rc, "no device figures: cannot read: '/proc/diskstats'");
		diskstats_close(&ro->set);
	} else if (find_rc < 0 && find_rc != -ENOSYS && find_rc != -ENODEV &&
		   (strstr(ro->set.reason, "/proc") || strstr(ro->set.reason, "/sys"))) {
		err_msg("no device figures: %s", ro->set.reason);
	}
	rc = waitstate_open(&src, 0, 0, 0);
	if (rc < 0 && rc != -ENOSYS)
		err_errno(rc == -ESRCH ? -ENOENT : rc,
			  "no wait states: cannot read: '/proc/self/task'");
	waitstate_close(&src);
}

int runner_obs_new(const struct obs_opts *o, const char *target, struct runner_obs **out)
{
	struct runner_obs *ro = calloc(1, sizeof(*ro));
	int rc = 0;

	*out = NULL;
	if (!ro)
		return -ENOMEM;
	ro->o = *o;
	if (!ro->o.interval_ns)
		ro->o.interval_ns = SAMPLER_INTERVAL_NS;
	if (!ro->o.wait_ns)
		ro->o.wait_ns = SAMPLER_WAIT_NS;
	/* the base: I / 2^k, the smallest such of at least 100 ms */
	ro->base_ns = ro->o.interval_ns;
	ro->factor = 1;
	if (!ro->o.min_base_ns)
		ro->o.min_base_ns = OBS_MIN_BASE_NS;
	while (ro->base_ns / 2 >= ro->o.min_base_ns && ro->base_ns % 2 == 0) {
		ro->base_ns /= 2;
		ro->factor *= 2;
	}
	pthread_mutex_init(&ro->mu, NULL);
	if (target)
		rc = diskstats_find(target, &ro->set);
	else
		diskstats_init(&ro->set);
	if (!ro->o.quiet)
		obs_say_missing(ro, rc);
	diskstats_close(&ro->set);
	*out = ro;
	return 0;
}

void runner_obs_free(struct runner_obs *ro)
{
	if (!ro)
		return;
	diskstats_close(&ro->set);
	pthread_mutex_destroy(&ro->mu);
	free(ro);
}

int runner_obs_target(struct runner *rc, const char *path, const char *why_none)
{
	struct runner_obs *ro = rc ? rc->obs : NULL;
	int n = 0;

	if (!ro)
		return 0;
	diskstats_close(&ro->set);
	if (path) {
		n = diskstats_find(path, &ro->set);
	} else {
		diskstats_init(&ro->set);
		snprintf(ro->set.reason, sizeof(ro->set.reason), "%s",
			 why_none ? why_none : "no device to watch");
	}
	diskstats_close(&ro->set);
	return n < 0 ? n : 0;
}

/* The first line of datadir/postmaster.pid: the postmaster's pid, or 0. */
static int obs_postmaster(const char *datadir)
{
	char path[PATH_MAX + 32], buf[32];
	ssize_t n;
	int fd, pid = 0;

	snprintf(path, sizeof(path), "%s/postmaster.pid", datadir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		pid = atoi(buf);
	}
	if (close(fd) < 0)
		return 0;
	return pid > 0 ? pid : 0;
}

int runner_obs_server(struct runner *rc, const char *datadir)
{
	struct runner_obs *ro = rc ? rc->obs : NULL;

	if (!ro)
		return 0;
	if (!obs_postmaster(datadir)) {
		ro->datadir[0] = '\0';
		return -ENOENT;
	}
	snprintf(ro->datadir, sizeof(ro->datadir), "%s", datadir);
	return 0;
}

/* The parent pid of pid from /proc/PID/stat, or 0. */
static int obs_ppid(const char *pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd, ppid = 0;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	if (close(fd) < 0 || n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	return ppid;
}

unsigned obs_server_pids(const char *datadir, int *pids, unsigned max)
{
	int pm = obs_postmaster(datadir);
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	if (!pm || !max)
		return 0;
	pids[n++] = pm;
	/* the postmaster's children: its backends and background processes */
	d = opendir("/proc");
	if (!d)
		return n;
	while (n < max && (e = readdir(d)))
		if (isdigit((unsigned char)e->d_name[0]) && obs_ppid(e->d_name) == pm)
			pids[n++] = atoi(e->d_name);
	closedir(d);
	return n;
}

/* ---- the live view ---- */

static void view_waits(struct sampler *sp, struct obs_view *v)
{
	struct sampler_wait_count wc[WAITSTATE_MAX_KEYS];
	struct waitstate_key key;
	uint64_t total = 0;
	int n = sampler_wait(sp, SAMPLER_WHOLE, wc, WAITSTATE_MAX_KEYS);

	v->nwait = 0;
	if (n > WAITSTATE_MAX_KEYS)
		n = WAITSTATE_MAX_KEYS;
	for (int i = 0; i < n; i++)
		total += wc[i].count;
	for (unsigned k = 0; k < OBS_VIEW_WAITS && total; k++) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (wc[i].count && (best < 0 || wc[i].count > wc[best].count))
				best = i;
		if (best < 0 || sampler_wait_key(sp, wc[best].key, &key) < 0)
			break;
		v->wait[k].state = key.state;
		snprintf(v->wait[k].wchan, sizeof(v->wait[k].wchan), "%s", key.wchan);
		snprintf(v->wait[k].syscall, sizeof(v->wait[k].syscall), "%s", key.syscall);
		v->wait[k].share = 100.0 * (double)wc[best].count / (double)total;
		wc[best].count = 0;
		v->nwait++;
	}
}

void obs_view_update(struct phase_obs *o, struct sampler *sp, unsigned rec,
		     const struct obs_bin *sl)
{
	const struct diskstats_set *set = sampler_devices(sp);
	struct diskstats_figures f;
	struct procstat_split cs;
	struct sampler_record r;
	struct waitstate_acc *acc;
	struct obs_view *v = &o->view;

	if (sampler_get(sp, rec, &r) < 0)
		return;
	if (set->ndev && sampler_dev(sp, rec, 0, &f) == 0) {
		__atomic_store_n(&o->live.util_x10, (uint64_t)(f.util_pct * 10 + 0.5),
				 __ATOMIC_RELAXED);
		__atomic_or_fetch(&o->live.have, PROGRESS_LIVE_UTIL, __ATOMIC_RELAXED);
	}
	if (!__atomic_load_n(&o->ro->want_view, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&o->mu);
	snprintf(v->phase, sizeof(v->phase), "%s", o->ph->name ? o->ph->name : "");
	v->active = 1;
	v->seq++;
	v->interval_s = (double)(r.t1_ns - r.t0_ns) / 1e9;
	v->ops += (uint64_t)(sl->ops > 0 ? sl->ops : 0);
	v->bytes += (uint64_t)(sl->bytes > 0 ? sl->bytes : 0);
	v->ops_s = v->interval_s > 0 ? (double)sl->ops / v->interval_s : 0;
	v->bytes_s = v->interval_s > 0 ? (double)sl->bytes / v->interval_s : 0;
	v->p50_ns = hist_percentile(o->slice, 50);
	v->p99_ns = hist_percentile(o->slice, 99);
	v->max_ns = o->slice->n ? o->slice->max : 0;
	v->ndev = 0;
	snprintf(v->devices_reason, sizeof(v->devices_reason), "%s", set->reason);
	for (unsigned d = 0; d < set->ndev && v->ndev < OBS_VIEW_DEVS; d++) {
		if (sampler_dev(sp, rec, d, &f) < 0)
			continue;
		snprintf(v->dev[v->ndev].name, sizeof(v->dev[0].name), "%s", set->dev[d].name);
		v->dev[v->ndev].util = f.util_pct;
		v->dev[v->ndev].aqu = f.aqu_sz;
		v->dev[v->ndev].r_s = f.r_s;
		v->dev[v->ndev].w_s = f.w_s;
		v->dev[v->ndev].rkb_s = f.rkb_s;
		v->dev[v->ndev].wkb_s = f.wkb_s;
		v->dev[v->ndev].r_await = f.r_await;
		v->dev[v->ndev].w_await = f.w_await;
		v->ndev++;
	}
	v->cpu_ok = sampler_cpu(sp, rec, &cs) == 0;
	v->usr = cs.user + cs.nice;
	v->sys = cs.system + cs.irq + cs.softirq;
	v->iowait = cs.iowait;
	v->steal = cs.steal;
	v->idle = cs.idle;
	v->mem_ok = r.mem_ok;
	v->dirty = r.mem.dirty;
	v->writeback = r.mem.writeback;
	view_waits(sp, v);
	acc = malloc(sizeof(*acc));
	if (acc) {
		sampler_wait_totals(sp, acc);
		v->wchan_hidden = waitstate_wchan_hidden(acc);
		free(acc);
	}
	pthread_mutex_unlock(&o->mu);
}

void runner_obs_view(struct runner_obs *ro, struct obs_view *v)
{
	struct phase_obs *o;

	memset(v, 0, sizeof(*v));
	if (!ro)
		return;
	__atomic_store_n(&ro->want_view, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&ro->mu);
	o = ro->cur;
	if (o) {
		pthread_mutex_lock(&o->mu);
		*v = o->view;
		pthread_mutex_unlock(&o->mu);
		snprintf(v->phase, sizeof(v->phase), "%s", o->ph->name ? o->ph->name : "");
		snprintf(v->workload, sizeof(v->workload), "%s",
			 o->ph->rc->run && o->ph->rc->run->workload ? o->ph->rc->run->workload :
			 "");
		v->active = 1;
		v->elapsed_ns = clock_ns() - o->ph->t0;
	}
	pthread_mutex_unlock(&ro->mu);
}
