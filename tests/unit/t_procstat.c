/* t_procstat.c - the CPU split of /proc/stat's cpu line on fixed samples against shares
 * worked by hand (guest inside user, counters that go back, no ticks), /proc/meminfo
 * gauges, and real readings where the system has them. */
#include <errno.h>
#include <string.h>

#include "config.h"
#include "test.h"
#include "observe/procstat.h"

static void t_parse_cpu(void)
{
	struct procstat_cpu c;

	CHECK(procstat_parse_cpu("cpu  54563 68 30759 107962 3466 0 502 53 7 1\n"
				 "cpu0 27508 43 10627 59643 780 0 29 25 0 0\n", &c) == 0);
	CHECK(c.nfields == 10 && c.user == 54563 && c.nice == 68 && c.system == 30759);
	CHECK(c.idle == 107962 && c.iowait == 3466 && c.irq == 0 && c.softirq == 502);
	CHECK(c.steal == 53 && c.guest == 7 && c.guest_nice == 1);
	/* an old kernel's four numbers */
	CHECK(procstat_parse_cpu("cpu 1 2 3 4\n", &c) == 0 && c.nfields == 4 && c.idle == 4);
	CHECK(c.iowait == 0 && c.steal == 0);
	CHECK(procstat_parse_cpu("cpu0 1 2 3 4\n", &c) == -EINVAL && c.nfields == 0);
	CHECK(procstat_parse_cpu("cpu 1 2 3\n", &c) == -EINVAL);
	CHECK(procstat_parse_cpu("", &c) == -EINVAL);
}

static void t_split(void)
{
	struct procstat_cpu a, b;
	struct procstat_split s;

	/* deltas: user 100 (guest 4 of it), nice 0, system 50, idle 790, iowait 40, irq 5,
	 * softirq 5, steal 10 -> 1000 ticks in all */
	CHECK(procstat_parse_cpu("cpu  100 10 50 800 20 5 5 10 4 0", &a) == 0);
	CHECK(procstat_parse_cpu("cpu  200 10 100 1590 60 10 10 20 8 0", &b) == 0);
	CHECK(procstat_split(&a, &b, &s) == 0);
	CHECK_EQ_U64(s.total_ticks, 1000);
	CHECK_NEAR(s.user, 10.0, 1e-12);
	CHECK_NEAR(s.nice, 0.0, 1e-12);
	CHECK_NEAR(s.system, 5.0, 1e-12);
	CHECK_NEAR(s.idle, 79.0, 1e-12);
	CHECK_NEAR(s.iowait, 4.0, 1e-12);
	CHECK_NEAR(s.irq, 0.5, 1e-12);
	CHECK_NEAR(s.softirq, 0.5, 1e-12);
	CHECK_NEAR(s.steal, 1.0, 1e-12);
	CHECK_NEAR(s.guest, 0.4, 1e-12);
	CHECK_NEAR(s.user + s.nice + s.system + s.idle + s.iowait + s.irq + s.softirq + s.steal,
		   100.0, 1e-9);

	/* idle went back (a CPU went offline): it counts 0, the rest share the total */
	CHECK(procstat_parse_cpu("cpu  200 10 100 700 60 10 10 20 8 0", &b) == 0);
	CHECK(procstat_split(&a, &b, &s) == 0);
	CHECK_EQ_U64(s.total_ticks, 210);
	CHECK(s.idle == 0);
	CHECK_NEAR(s.user, 100.0 / 210.0 * 100.0, 1e-9);

	/* no tick between the samples, or a sample missing */
	CHECK(procstat_split(&a, &a, &s) == -EINVAL && s.user == 0 && s.total_ticks == 0);
	memset(&b, 0, sizeof(b));
	CHECK(procstat_split(&a, &b, &s) == -EINVAL);
}

static void t_meminfo(void)
{
	static const char text[] =
		"MemTotal:       24683584 kB\n"
		"MemFree:        23360536 kB\n"
		"MemAvailable:   24252340 kB\n"
		"Buffers:           25772 kB\n"
		"SwapCached:          999 kB\n"
		"Cached:          1041568 kB\n"
		"Dirty:              1176 kB\n"
		"Writeback:             8 kB\n"
		"WritebackTmp:        777 kB\n";
	struct procstat_mem m;

	CHECK(procstat_parse_meminfo(text, &m) == 5);
	CHECK_EQ_U64(m.mem_free, 23360536ull * 1024);
	CHECK_EQ_U64(m.mem_available, 24252340ull * 1024);
	CHECK_EQ_U64(m.cached, 1041568ull * 1024);	/* not SwapCached */
	CHECK_EQ_U64(m.dirty, 1176ull * 1024);
	CHECK_EQ_U64(m.writeback, 8ull * 1024);	/* not WritebackTmp */
	CHECK(m.have == (PROCSTAT_HAVE_FREE | PROCSTAT_HAVE_AVAILABLE | PROCSTAT_HAVE_CACHED |
			 PROCSTAT_HAVE_DIRTY | PROCSTAT_HAVE_WRITEBACK));
	/* a kernel before 3.14 has no MemAvailable */
	CHECK(procstat_parse_meminfo("MemFree: 10 kB\nDirty: 2 kB\n", &m) == 2);
	CHECK(!(m.have & PROCSTAT_HAVE_AVAILABLE) && m.dirty == 2048 && m.mem_free == 10240);
	CHECK(procstat_parse_meminfo("nothing here\n", &m) == 0 && m.have == 0);
}

static void t_real(void)
{
	struct procstat_reader r;
	struct procstat_cpu a, b;
	struct procstat_mem m;

	procstat_init(&r);
#ifdef HAVE_PROC_STAT
	CHECK(procstat_read_cpu(&r, &a) == 0 && a.nfields >= 4);
	/* spin until the system's tick counters move: the split needs ticks */
	do
		CHECK(procstat_read_cpu(&r, &b) == 0);
	while (b.user + b.nice + b.system + b.idle + b.iowait + b.irq + b.softirq + b.steal ==
	       a.user + a.nice + a.system + a.idle + a.iowait + a.irq + a.softirq + a.steal);
	{
		struct procstat_split s;

		CHECK(procstat_split(&a, &b, &s) == 0 && s.total_ticks > 0);
	}
	CHECK(procstat_read_mem(&r, &m) >= 3);
	CHECK(m.mem_free > 0 && (m.have & PROCSTAT_HAVE_DIRTY));
#else
	CHECK(procstat_read_cpu(&r, &a) == -ENOSYS);
	CHECK(procstat_read_mem(&r, &m) == -ENOSYS);
	(void)b;
#endif
	CHECK(procstat_close(&r) == 0);
	CHECK(procstat_close(&r) == 0);
}

int main(void)
{
	RUN(t_parse_cpu);
	RUN(t_split);
	RUN(t_meminfo);
	RUN(t_real);
	return test_done();
}
