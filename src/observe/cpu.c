/* cpu.c - process CPU time (getrusage) and whole-system busy time: /proc/stat on Linux
 * (HAVE_PROC_STAT), kern.cp_time on the BSDs (HAVE_KERN_CP_TIME, cpu_bsd.c, untested),
 * else unknown (0/0: the row says no system share). */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include "config.h"
#include "core/clock.h"
#include "observe/cpu.h"
#include "stats/result.h"

static uint64_t cpu_tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* The first "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal
 * (guest time is already inside user). Busy is everything but idle and iowait. */
static void cpu_read_stat(uint64_t *busy, uint64_t *total)
{
	unsigned long long v[8] = { 0 };
	char line[512];
	FILE *f;
	int n;

	*busy = 0;
	*total = 0;
#ifdef HAVE_KERN_CP_TIME
	if (cpu_bsd_cp_time(busy, total) == 0)
		return;
#endif
#ifdef HAVE_PROC_STAT
	f = fopen("/proc/stat", "r");
#else
	f = NULL;
#endif
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && strncmp(line, "cpu ", 4) == 0) {
		n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n >= 4) {
			*busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
			*total = *busy + v[3] + v[4];
		}
	}
	fclose(f);
}

void cpu_sample_now(struct cpu_sample *s)
{
	struct rusage ru;

	memset(s, 0, sizeof(*s));
	cpu_read_stat(&s->busy_ticks, &s->total_ticks);
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		s->user_ns = cpu_tv_ns(&ru.ru_utime);
		s->sys_ns = cpu_tv_ns(&ru.ru_stime);
	}
	s->wall_ns = clock_ns();
}

static uint64_t cpu_delta(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

void cpu_fill(struct row_cpu *out, const struct cpu_sample *a, const struct cpu_sample *b,
	      uint64_t ops)
{
	uint64_t wall = cpu_delta(a->wall_ns, b->wall_ns);
	uint64_t user = cpu_delta(a->user_ns, b->user_ns);
	uint64_t sys = cpu_delta(a->sys_ns, b->sys_ns);
	uint64_t dbusy = cpu_delta(a->busy_ticks, b->busy_ticks);
	uint64_t dtotal = cpu_delta(a->total_ticks, b->total_ticks);
#ifdef HAVE_KERN_CP_TIME
	long tck = cpu_bsd_tick_hz();	/* kern.cp_time counts statclock ticks */
#else
	long tck = sysconf(_SC_CLK_TCK);
#endif

	memset(out, 0, sizeof(*out));
	out->valid = 1;
	out->user_s = (double)user / 1e9;
	out->sys_s = (double)sys / 1e9;
	out->proc_pct = wall ? (double)(user + sys) / (double)wall * 100.0 : 0;
	out->sys_busy_pct = dtotal ? (double)dbusy / (double)dtotal * 100.0 : 0;
	out->sys_busy_s = tck > 0 ? (double)dbusy / (double)tck : 0;
	out->cpu_ns_per_op = ops ? (double)(user + sys) / (double)ops : 0;
	out->wall_s = (double)wall / 1e9;
	out->ops = ops;
}

unsigned cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
