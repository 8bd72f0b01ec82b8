/* result_sys.c - the system figures of a row and its series: keys, allocation and the
 * flags they call for. See result_sys.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "stats/result_keys.h"
#include "stats/result_sys.h"

const struct rsys_key rsys_dev_keys[RSD_N] = {
	[RSD_RD_BYTES] = { RK_DEV_RD_BYTES, 1 }, [RSD_WR_BYTES] = { RK_DEV_WR_BYTES, 1 },
	[RSD_R_S] = { RK_DEV_R_S, 0 }, [RSD_W_S] = { RK_DEV_W_S, 0 },
	[RSD_RKB_S] = { RK_DEV_RKB_S, 0 }, [RSD_WKB_S] = { RK_DEV_WKB_S, 0 },
	[RSD_RRQM_S] = { RK_DEV_RRQM_S, 0 }, [RSD_WRQM_S] = { RK_DEV_WRQM_S, 0 },
	[RSD_R_AWAIT] = { RK_DEV_R_AWAIT, 0 }, [RSD_W_AWAIT] = { RK_DEV_W_AWAIT, 0 },
	[RSD_AQU_SZ] = { RK_DEV_AQU_SZ, 0 }, [RSD_RAREQ_SZ] = { RK_DEV_RAREQ_SZ, 0 },
	[RSD_WAREQ_SZ] = { RK_DEV_WAREQ_SZ, 0 }, [RSD_UTIL] = { RK_DEV_UTIL, 0 },
	[RSD_D_S] = { RK_DEV_D_S, 0 }, [RSD_DKB_S] = { RK_DEV_DKB_S, 0 },
	[RSD_D_AWAIT] = { RK_DEV_D_AWAIT, 0 }, [RSD_F_S] = { RK_DEV_F_S, 0 },
	[RSD_F_AWAIT] = { RK_DEV_F_AWAIT, 0 },
};

const struct rsys_key rsys_keys[RS_N] = {
	[RS_WL_READ] = { RK_SYS_WL_READ, 1 }, [RS_WL_WRITTEN] = { RK_SYS_WL_WRITTEN, 1 },
	[RS_WRITE_AMP] = { RK_SYS_WRITE_AMP, 0 },
	[RS_CPU_USER] = { RK_SYS_CPU_USER, 0 }, [RS_CPU_NICE] = { RK_SYS_CPU_NICE, 0 },
	[RS_CPU_SYSTEM] = { RK_SYS_CPU_SYSTEM, 0 }, [RS_CPU_IOWAIT] = { RK_SYS_CPU_IOWAIT, 0 },
	[RS_CPU_IRQ] = { RK_SYS_CPU_IRQ, 0 }, [RS_CPU_SOFTIRQ] = { RK_SYS_CPU_SOFTIRQ, 0 },
	[RS_CPU_STEAL] = { RK_SYS_CPU_STEAL, 0 }, [RS_CPU_IDLE] = { RK_SYS_CPU_IDLE, 0 },
	[RS_DIRTY0] = { RK_SYS_DIRTY_START, 1 }, [RS_DIRTY1] = { RK_SYS_DIRTY_END, 1 },
	[RS_WB0] = { RK_SYS_WB_START, 1 }, [RS_WB1] = { RK_SYS_WB_END, 1 },
	[RS_CACHED0] = { RK_SYS_CACHED_START, 1 }, [RS_CACHED1] = { RK_SYS_CACHED_END, 1 },
	[RS_WAIT_PASSES] = { RK_SYS_WAIT_PASSES, 1 }, [RS_WAIT_OBS] = { RK_SYS_WAIT_OBS, 1 },
	[RS_SAMPLER_CPU_S] = { RK_SYS_SAMPLER_CPU_S, 0 },
};

const struct rsys_key rser_keys[RSE_N] = {
	[RSE_T_NS] = { RK_SER_T_NS, 1 }, [RSE_OPS] = { RK_SER_OPS, 1 },
	[RSE_BYTES] = { RK_SER_BYTES, 1 }, [RSE_P50] = { RK_SER_P50, 1 },
	[RSE_P99] = { RK_SER_P99, 1 }, [RSE_MAX] = { RK_SER_MAX, 1 },
	[RSE_CPU_USER] = { RK_SER_CPU_USR, 0 }, [RSE_CPU_SYSTEM] = { RK_SER_CPU_SYS, 0 },
	[RSE_CPU_IOWAIT] = { RK_SER_CPU_IOWAIT, 0 }, [RSE_CPU_STEAL] = { RK_SER_CPU_STEAL, 0 },
	[RSE_CPU_IDLE] = { RK_SER_CPU_IDLE, 0 }, [RSE_DIRTY] = { RK_SER_DIRTY, 1 },
	[RSE_WB] = { RK_SER_WB, 1 }, [RSE_TEMP_C] = { RK_SER_TEMP_C, 0 },
};

const struct rsys_key rser_dev_keys[RSED_N] = {
	[RSED_UTIL] = { RK_DEV_UTIL, 0 }, [RSED_AQU] = { RK_DEV_AQU_SZ, 0 },
	[RSED_R_S] = { RK_DEV_R_S, 0 }, [RSED_W_S] = { RK_DEV_W_S, 0 },
	[RSED_RKB_S] = { RK_DEV_RKB_S, 0 }, [RSED_WKB_S] = { RK_DEV_WKB_S, 0 },
	[RSED_R_AWAIT] = { RK_DEV_R_AWAIT, 0 }, [RSED_W_AWAIT] = { RK_DEV_W_AWAIT, 0 },
};

static void nan_fill(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = NAN;
}

struct row_sys *row_sys_new(void)
{
	struct row_sys *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	nan_fill(s->v, RS_N);
	s->wchan_hidden = -1;
	return s;
}

static void sys_free_devs(struct row_sys *s)
{
	for (size_t i = 0; i < s->ndev; i++) {
		free(s->dev[i].name);
		free(s->dev[i].role);
	}
	free(s->dev);
	s->dev = NULL;
	s->ndev = 0;
}

static void sys_free_waits(struct row_sys *s)
{
	for (size_t i = 0; i < s->nwait; i++) {
		free(s->wait[i].wchan);
		free(s->wait[i].syscall);
	}
	free(s->wait);
	s->wait = NULL;
	s->nwait = 0;
}

int row_sys_set_devs(struct row_sys *s, size_t n)
{
	sys_free_devs(s);
	if (!n)
		return 0;
	s->dev = calloc(n, sizeof(*s->dev));
	if (!s->dev)
		return -ENOMEM;
	s->ndev = n;
	for (size_t i = 0; i < n; i++)
		nan_fill(s->dev[i].v, RSD_N);
	return 0;
}

int row_sys_set_waits(struct row_sys *s, size_t n)
{
	sys_free_waits(s);
	if (!n)
		return 0;
	s->wait = calloc(n, sizeof(*s->wait));
	if (!s->wait)
		return -ENOMEM;
	s->nwait = n;
	return 0;
}

void row_sys_free(struct row_sys *s)
{
	if (!s)
		return;
	free(s->devices_reason);
	sys_free_devs(s);
	sys_free_waits(s);
	free(s);
}

struct row_series *row_series_new(size_t n, size_t ndev)
{
	struct row_series *s = calloc(1, sizeof(*s));
	size_t k, d;

	if (!s)
		return NULL;
	s->n = n;
	s->dev = ndev ? calloc(ndev, sizeof(*s->dev)) : NULL;
	if (ndev && !s->dev) {
		free(s);
		return NULL;
	}
	s->ndev = ndev;
	for (k = 0; k < RSE_N; k++) {
		s->v[k] = malloc((n ? n : 1) * sizeof(double));
		if (!s->v[k])
			goto nomem;
		nan_fill(s->v[k], n);
	}
	for (d = 0; d < ndev; d++)
		for (k = 0; k < RSED_N; k++) {
			s->dev[d].v[k] = malloc((n ? n : 1) * sizeof(double));
			if (!s->dev[d].v[k])
				goto nomem;
			nan_fill(s->dev[d].v[k], n);
		}
	return s;
nomem:
	row_series_free(s);
	return NULL;
}

void row_series_free(struct row_series *s)
{
	if (!s)
		return;
	for (size_t k = 0; k < RSE_N; k++)
		free(s->v[k]);
	for (size_t d = 0; d < s->ndev; d++) {
		free(s->dev[d].name);
		for (size_t k = 0; k < RSED_N; k++)
			free(s->dev[d].v[k]);
	}
	free(s->dev);
	free(s);
}

/* ---- flags ---- */

const struct row_sys_dev *row_sys_disk(const struct row *w)
{
	const struct row_sys *s = w->sys;

	if (!s || !s->ndev)
		return NULL;
	/* a partition's whole disk comes right after it (observe/diskstats.h's walk order) */
	if (s->ndev > 1 && s->dev[1].role && !strcmp(s->dev[1].role, "disk"))
		return &s->dev[1];
	return &s->dev[0];
}

/* A rate in bytes per second: "MB/s", "MiB/s", "K/sec", "kB/s", "GB/s", "B/s" ... */
static int byte_rate(const char *u)
{
	static const char *const pre[] = { "B/", "kB/", "KB/", "KiB/", "K/", "MB/", "MiB/",
					   "GB/", "GiB/" };

	for (size_t i = 0; u && i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(u, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* device_idle: a byte rate the device did not deliver. A read phase whose residency was
 * checked (cache_pct, and not found inflated) and whose device read under a tenth of the
 * bytes, or a write phase timed until its data was durable whose device wrote under a
 * tenth (a buffered write timed before writeback is the business of writeback_pending). */
static int device_idle(const struct row *w, const struct row_sys *s)
{
	const struct row_sys_dev *d = s->ndev ? &s->dev[0] : NULL;	/* none: left below */
	double rd = s->v[RS_WL_READ], wr = s->v[RS_WL_WRITTEN], lim;
	int durable_inside = w->durable_ns && w->durable_ns <= w->elapsed_ns;

	if (!s->ndev || (w->flags & (ROW_CACHE_INFLATED | ROW_TOO_FAST | ROW_NOT_MEASURED |
				     ROW_FAILED)) ||
	    !isfinite(w->rate) || !byte_rate(w->rate_unit) || w->bytes < RSYS_MIN_BYTES)
		return 0;
	lim = RSYS_IDLE_SHARE * (double)w->bytes;
	if (isnan(rd) || isnan(wr))	/* direction unknown: only a durable claim */
		return durable_inside && d->v[RSD_RD_BYTES] + d->v[RSD_WR_BYTES] < lim;
	if (wr >= rd && wr > 0)
		return durable_inside && d->v[RSD_WR_BYTES] < lim;
	return w->cache_pct >= 0 && d->v[RSD_RD_BYTES] < lim;
}

/* writeback_pending: the dirty and writeback gauges grew by over a tenth of the bytes a
 * buffered write phase wrote. The gauges are the whole system's, so a phase that made
 * its data durable before it ended, or whose device wrote nine tenths of its bytes
 * meanwhile, is not judged by them (another writer may have raised them). */
static int writeback_pending(const struct row *w, const struct row_sys *s)
{
	double wr = s->v[RS_WL_WRITTEN], rd = s->v[RS_WL_READ], grew;

	if (isnan(wr) || wr < RSYS_PENDING_MIN || (!isnan(rd) && rd > wr) ||
	    (w->durable_ns && w->durable_ns <= w->elapsed_ns))
		return 0;
	if (s->ndev && s->dev[0].v[RSD_WR_BYTES] >= (1 - RSYS_PENDING_SHARE) * wr)
		return 0;
	grew = (s->v[RS_DIRTY1] + s->v[RS_WB1]) - (s->v[RS_DIRTY0] + s->v[RS_WB0]);
	return isfinite(grew) && grew > RSYS_PENDING_SHARE * wr;
}

unsigned row_sys_flags(const struct row *w)
{
	const struct row_sys *s = w->sys;
	unsigned f = 0;

	if (!s)
		return 0;
	if (s->v[RS_CPU_STEAL] > RSYS_STEAL_PCT)
		f |= ROW_STEAL;
	if (device_idle(w, s))
		f |= ROW_DEVICE_IDLE;
	if (writeback_pending(w, s))
		f |= ROW_WRITEBACK_PENDING;
	return f;
}

void result_sys_flag_run(struct run *run)
{
	for (size_t i = 0; i < run->nrows; i++)
		run->rows[i]->flags |= row_sys_flags(run->rows[i]);
}
