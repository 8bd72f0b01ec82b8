/* t_sampler.c - the sampling thread. Without arguments, the unit test: records are
 * contiguous, intervals add up to the whole run exactly (bytes, requests, wait-state
 * counts), start/stop from several threads, growth past the preallocated room, a path
 * without a block device, another process's wait states.
 *
 * With arguments, a tool for the CLI tests (tests/cli/diskstats_*.sh, waitstate_*.sh):
 *   t_sampler devices PATH            the device set behind PATH, one line per device
 *   t_sampler watch PATH SECONDS      iostat figures of PATH's top device over SECONDS
 *   t_sampler compute SECONDS A B     figures between two diskstats lines ("-" = zeros)
 *   t_sampler wait SECONDS PID...     wait-state counts of the PIDs over SECONDS
 *   t_sampler overhead SECONDS N      the sampler's own CPU at the defaults, N fsync threads
 * Exit 0, 1 on failure, 2 on bad arguments, 3 when PATH has no block device or the build
 * has no wait states. */
#define _XOPEN_SOURCE 700	/* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "test.h"
#include "observe/sampler.h"

static void nap_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Poll (no time limit: the test runner's timeout catches a hang) until n records. */
static void wait_records(struct sampler *s, unsigned n)
{
	while (sampler_count(s) < n)
		nap_ns(2000000);
}

static const char *tmpdir(void)
{
	return getenv("TESTS_TMP") ? getenv("TESTS_TMP") : "/tmp";
}

static void *stopper(void *arg)
{
	sampler_stop(arg);
	return NULL;
}

/* Records follow each other without a gap and the intervals add up to the whole. */
static void check_sums(struct sampler *s)
{
	const struct diskstats_set *set = sampler_devices(s);
	struct diskstats_figures f, whole;
	struct sampler_record r, prev;
	uint64_t bytes = 0, ios = 0;
	double secs = 0;
	unsigned n = sampler_count(s);

	for (unsigned i = 0; i < n; i++) {
		CHECK(sampler_get(s, i, &r) == 0);
		CHECK(r.t1_ns > r.t0_ns);
		if (i)
			CHECK(r.t0_ns == prev.t1_ns);
		prev = r;
		if (set->ndev && sampler_dev(s, i, 0, &f) == 0) {
			bytes += f.rd_bytes + f.wr_bytes;
			ios += f.rd_ios + f.wr_ios;
			secs += f.interval_s;
		}
	}
	CHECK(sampler_get(s, n, &r) == -ERANGE);
	if (set->ndev) {
		CHECK(sampler_dev(s, SAMPLER_WHOLE, 0, &whole) == 0);
		CHECK_EQ_U64(bytes, whole.rd_bytes + whole.wr_bytes);
		CHECK_EQ_U64(ios, whole.rd_ios + whole.wr_ios);
		CHECK_NEAR(secs, whole.interval_s, 1e-6);
		CHECK(sampler_dev(s, n, 0, &f) == -ERANGE);
		CHECK(sampler_dev(s, 0, set->ndev, &f) == -ENODEV);
	}
}

#ifdef HAVE_PROC_TASKS
/* Every interval's wait-state counts add up to the whole run's, key by key. */
static void check_wait_sums(struct sampler *s)
{
	static struct waitstate_acc acc;
	struct sampler_wait_count wc[WAITSTATE_MAX_KEYS];
	uint64_t sum[WAITSTATE_MAX_KEYS] = { 0 }, passes = 0;
	struct sampler_record r;
	unsigned n = sampler_count(s);
	int k;

	for (unsigned i = 0; i < n; i++) {
		k = sampler_wait(s, i, wc, WAITSTATE_MAX_KEYS);
		CHECK(k >= 0 && k <= WAITSTATE_MAX_KEYS);
		for (int j = 0; j < k && j < WAITSTATE_MAX_KEYS; j++)
			sum[wc[j].key] += wc[j].count;
		CHECK(sampler_get(s, i, &r) == 0);
		passes += r.wait_passes;
	}
	sampler_wait_totals(s, &acc);
	CHECK(acc.nkeys >= 1 && passes >= 1);
	CHECK_EQ_U64(passes, acc.passes);
	for (unsigned i = 0; i < acc.nkeys; i++)
		CHECK_EQ_U64(sum[i], acc.count[i]);
	k = sampler_wait(s, SAMPLER_WHOLE, wc, WAITSTATE_MAX_KEYS);
	CHECK(k >= 1 && (unsigned)k <= acc.nkeys);
	CHECK(sampler_wait(s, n, wc, 1) == -ERANGE);
	{
		struct waitstate_key key;

		CHECK(sampler_wait_key(s, 0, &key) == 0 && key.state != 0);
		CHECK(sampler_wait_key(s, acc.nkeys, &key) == -ERANGE);
	}
}
#endif

static void t_lifecycle(void)
{
	struct sampler_cfg cfg = { .path = tmpdir(), .interval_ns = 20000000,
				   .wait_interval_ns = 5000000, .want_stack = 1 };
	struct sampler *s = NULL;
	struct procstat_split cpu;
	uint64_t cpu_ns, wall_ns;
	pthread_t a, b;
	int rc;

	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (!s)
		return;
	sampler_self_cpu(s, &cpu_ns, &wall_ns);
	CHECK(cpu_ns == 0 && wall_ns == 0);	/* not before the stop */
	wait_records(s, 3);
	/* two threads stop it at once; one joins, both return */
	CHECK(pthread_create(&a, NULL, stopper, s) == 0);
	CHECK(pthread_create(&b, NULL, stopper, s) == 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CHECK(sampler_stop(s) == 0);
	CHECK(sampler_count(s) >= 4);	/* three and the last, partial one */
	check_sums(s);
#ifdef HAVE_PROC_TASKS
	check_wait_sums(s);
#endif
	rc = sampler_cpu(s, SAMPLER_WHOLE, &cpu);
	CHECK(rc == 0 || (rc == -EINVAL && cpu.total_ticks == 0));
	if (rc == 0)
		CHECK_NEAR(cpu.user + cpu.nice + cpu.system + cpu.idle + cpu.iowait + cpu.irq +
			   cpu.softirq + cpu.steal, 100.0, 1e-6);
	CHECK(sampler_cpu(s, 1000, &cpu) == -ERANGE);
	sampler_self_cpu(s, &cpu_ns, &wall_ns);
	CHECK(wall_ns > 0 && cpu_ns <= wall_ns);
	sampler_free(s);
	sampler_free(NULL);
}

static void t_growth(void)
{
	struct sampler_cfg cfg = { .path = tmpdir(), .interval_ns = 1000000, .no_wait = 1,
				   .records_hint = 1 };
	struct sampler *s = NULL;

	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (!s)
		return;
	wait_records(s, 150);
	sampler_stop(s);
	CHECK(sampler_count(s) >= 151);
	check_sums(s);
	{
		struct sampler_record r;

		CHECK(sampler_get(s, 0, &r) == 0 && r.wait_passes == 0 && r.wait_n == 0);
	}
	sampler_free(s);
}

static void t_no_device(void)
{
	struct sampler_cfg cfg = { .path = "/proc", .interval_ns = 10000000, .no_wait = 1 };
	struct diskstats_figures f;
	struct sampler *s = NULL;
	const struct diskstats_set *set;

	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (!s)
		return;
	set = sampler_devices(s);
	CHECK(set->ndev == 0 && set->reason[0] != '\0');
	printf("(/proc: %s)\n", set->reason);
	wait_records(s, 2);
	sampler_free(s);	/* stops it */

	cfg.path = NULL;
	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (!s)
		return;
	wait_records(s, 1);
	sampler_stop(s);
	CHECK(sampler_dev(s, 0, 0, &f) == -ENODEV);
	check_sums(s);
	sampler_free(s);
}

#ifdef HAVE_PROC_TASKS
static void t_other_pid(void)
{
	static struct waitstate_acc acc;
	struct sampler_cfg cfg = { .interval_ns = 10000000, .wait_interval_ns = 2000000,
				   .no_self = 1, .npids = 1 };
	struct sampler *s = NULL;
	pid_t child = fork();

	if (child == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	if (child <= 0)
		return;
	cfg.pids[0] = (int)child;
	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (s) {
		/* until the child has been seen asleep (it is, in pause, once it runs) */
		do {
			nap_ns(2000000);
			sampler_wait_totals(s, &acc);
		} while (!waitstate_count_state(&acc, 'S'));
		sampler_stop(s);
		sampler_wait_totals(s, &acc);
		CHECK(waitstate_count_state(&acc, 'S') >= 1);
		CHECK(waitstate_count_state(&acc, 'R') == 0 || acc.observations > 1);
		sampler_free(s);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}
#endif

/* The runner's additions: a device set given, a tick per record, spans, only the
 * threads listed. */
static unsigned ticks, tick_last;

static void count_tick(void *arg, struct sampler *s, unsigned rec)
{
	(void)arg;
	(void)s;
	ticks++;
	tick_last = rec;
}

static void *sleeper(void *arg)
{
	volatile int *stop = arg;

	while (!*stop)
		nap_ns(1000000);
	return NULL;
}

static void t_runner_parts(void)
{
	static struct diskstats_set set;
#ifdef HAVE_PROC_TASKS
	static struct waitstate_acc acc;
#endif
	struct sampler_cfg cfg = { .interval_ns = 10000000, .wait_interval_ns = 2000000,
				   .tick = count_tick };
	struct diskstats_figures a, b;
	struct procstat_split ca, cb;
	struct sampler *s = NULL;
	volatile int stop = 0;
	pthread_t th;
	unsigned n;

	diskstats_find(tmpdir(), &set);
	cfg.devices = &set;
	cfg.tids[0] = waitstate_tid();	/* this thread alone, not the sleeper */
	cfg.ntids = 1;
	CHECK(pthread_create(&th, NULL, sleeper, (void *)&stop) == 0);
	CHECK(sampler_start(&cfg, &s) == 0 && s);
	if (s) {
		CHECK(sampler_devices(s)->ndev == set.ndev);
		wait_records(s, 4);
		sampler_stop(s);
		n = sampler_count(s);
		/* one tick per record, the last one's too */
		CHECK(ticks == n && tick_last == n - 1);
		/* a span of every record is the whole run */
		CHECK(sampler_cpu_span(s, 0, n - 1, &ca) == sampler_cpu(s, SAMPLER_WHOLE, &cb));
		CHECK(ca.total_ticks == cb.total_ticks);
		if (set.ndev) {
			CHECK(sampler_dev_span(s, 0, n - 1, 0, &a) == 0);
			CHECK(sampler_dev(s, SAMPLER_WHOLE, 0, &b) == 0);
			CHECK(a.wr_bytes == b.wr_bytes && a.interval_s == b.interval_s);
		}
		CHECK(sampler_dev_span(s, 1, 0, 0, &a) != 0 && sampler_cpu_span(s, 0, n, &ca)
		      == -ERANGE);
#ifdef HAVE_PROC_TASKS
		/* one thread per pass: the sleeper is not counted */
		sampler_wait_totals(s, &acc);
		CHECK(acc.passes >= 1 && acc.observations == acc.passes);
#endif
		sampler_free(s);
	}
	stop = 1;
	pthread_join(th, NULL);
	diskstats_close(&set);
}

/* -- tool modes -- */

static int tool_devices(const char *path)
{
	struct diskstats_set set;
	int n = diskstats_find(path, &set);

	printf("reason %s\n", set.reason[0] ? set.reason : "-");
	printf("fstype %s\n", set.fstype[0] ? set.fstype : "-");
	for (unsigned i = 0; i < set.ndev; i++) {
		const struct diskstats_dev *d = &set.dev[i];

		printf("dev %u %s %u:%u %s %d part=%d wc=%d fua=%d rot=%d sched=%s lbs=%u "
		       "pbs=%u alias=%s\n", i, d->name, d->major, d->minor,
		       diskstats_role_name(d->role), d->parent, d->partition,
		       d->queue.write_cache, d->queue.fua, d->queue.rotational,
		       d->queue.scheduler[0] ? d->queue.scheduler : "-", d->queue.logical_block,
		       d->queue.physical_block, d->alias[0] ? d->alias : "-");
	}
	diskstats_close(&set);
	return n > 0 ? 0 : n == -ENODEV ? 3 : 1;
}

static void print_figures(const char *name, const struct diskstats_figures *f)
{
	printf("device %s\ninterval_s %.6f\n", name, f->interval_s);
	printf("r/s %.6f\nw/s %.6f\nd/s %.6f\nf/s %.6f\n", f->r_s, f->w_s, f->d_s, f->f_s);
	printf("rkB/s %.6f\nwkB/s %.6f\ndkB/s %.6f\n", f->rkb_s, f->wkb_s, f->dkb_s);
	printf("rrqm/s %.6f\nwrqm/s %.6f\ndrqm/s %.6f\n", f->rrqm_s, f->wrqm_s, f->drqm_s);
	printf("%%rrqm %.6f\n%%wrqm %.6f\n%%drqm %.6f\n", f->rrqm_pct, f->wrqm_pct, f->drqm_pct);
	printf("r_await %.6f\nw_await %.6f\nd_await %.6f\nf_await %.6f\n", f->r_await,
	       f->w_await, f->d_await, f->f_await);
	printf("rareq-sz %.6f\nwareq-sz %.6f\ndareq-sz %.6f\n", f->rareq_sz, f->wareq_sz,
	       f->dareq_sz);
	printf("aqu-sz %.6f\n%%util %.6f\n", f->aqu_sz, f->util_pct);
	printf("wr_bytes %llu\nrd_bytes %llu\n", (unsigned long long)f->wr_bytes,
	       (unsigned long long)f->rd_bytes);
}

static int tool_watch(const char *path, double secs)
{
	struct sampler_cfg cfg = { .path = path, .no_wait = 1 };
	struct diskstats_figures f;
	struct sampler *s;
	int rc;

	cfg.interval_ns = (uint64_t)(secs * 1e9);
	if (sampler_start(&cfg, &s) < 0)
		return 1;
	if (!sampler_devices(s)->ndev) {
		printf("reason %s\n", sampler_devices(s)->reason);
		sampler_free(s);
		return 3;
	}
	nap_ns(cfg.interval_ns);
	sampler_stop(s);
	rc = sampler_dev(s, SAMPLER_WHOLE, 0, &f);
	if (rc == 0)
		print_figures(sampler_devices(s)->dev[0].name, &f);
	sampler_free(s);
	return rc == 0 ? 0 : 1;
}

static int tool_compute(double secs, const char *la, const char *lb)
{
	struct diskstats_counters a, b;
	struct diskstats_figures f;
	unsigned mj, mn;
	char name[DISKSTATS_NAME_LEN];

	if (diskstats_parse_line(lb, &mj, &mn, name, sizeof(name), &b) < 0)
		return 2;
	if (strcmp(la, "-") == 0) {
		memset(&a, 0, sizeof(a));
		a.nfields = b.nfields;
	} else if (diskstats_parse_line(la, &mj, &mn, NULL, 0, &a) < 0) {
		return 2;
	}
	if (diskstats_compute(&a, &b, (uint64_t)(secs * 1e9), &f) < 0)
		return 1;
	print_figures(name, &f);
	return 0;
}

static int tool_wait(double secs, int argc, char **argv)
{
	static struct waitstate_acc acc;
	struct sampler_cfg cfg = { .no_self = 1, .want_stack = 1 };
	struct waitstate_src src;
	struct sampler *s;
	int rc;

	for (int i = 0; i < argc && cfg.npids < SAMPLER_MAX_PIDS; i++)
		cfg.pids[cfg.npids++] = atoi(argv[i]);
	memset(&src, 0, sizeof(src));
	rc = cfg.npids ? waitstate_open(&src, cfg.pids[0], 0, 0) : -EINVAL;
	waitstate_close(&src);
	if (rc == -ENOSYS) {
		printf("wait states are not available in this build\n");
		return 3;
	}
	cfg.interval_ns = (uint64_t)(secs * 1e9);
	if (sampler_start(&cfg, &s) < 0)
		return 1;
	nap_ns(cfg.interval_ns);
	sampler_stop(s);
	sampler_wait_totals(s, &acc);
	printf("passes %llu\nobservations %llu\nsleeping %llu\nhidden %d\nstacks %llu\n",
	       (unsigned long long)acc.passes, (unsigned long long)acc.observations,
	       (unsigned long long)acc.sleeping, waitstate_wchan_hidden(&acc),
	       (unsigned long long)acc.stack_read);
	for (unsigned i = 0; i < acc.nkeys; i++)
		printf("key %c %s %s %llu\n", acc.key[i].state,
		       acc.key[i].wchan[0] ? acc.key[i].wchan : "-",
		       acc.key[i].syscall[0] ? acc.key[i].syscall : "-",
		       (unsigned long long)acc.count[i]);
	sampler_free(s);
	return 0;
}

static volatile int load_stop;

/* A worker for the overhead figure: small writes, each made durable. */
static void *fsync_loop(void *arg)
{
	char buf[4096];
	int fd = *(int *)arg;

	memset(buf, 'x', sizeof(buf));
	while (!load_stop) {
		if (pwrite(fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf) || fsync(fd) < 0)
			break;
	}
	return NULL;
}

static int tool_overhead(double secs, int nthreads)
{
	struct sampler_cfg cfg = { .path = tmpdir(), .want_stack = 1 };
	pthread_t th[64];
	int fds[64];
	char dir[1024];
	struct sampler *s;
	uint64_t cpu_ns, wall_ns;

	snprintf(dir, sizeof(dir), "%.900s/iob-overhead.XXXXXX", tmpdir());
	if (!mkdtemp(dir) || nthreads > 64)
		return 1;
	for (int i = 0; i < nthreads; i++) {
		char p[1100];

		snprintf(p, sizeof(p), "%s/f%d", dir, i);
		fds[i] = open(p, O_RDWR | O_CREAT, 0600);
		if (fds[i] < 0 || unlink(p) < 0)
			return 1;
		pthread_create(&th[i], NULL, fsync_loop, &fds[i]);
	}
	if (sampler_start(&cfg, &s) < 0)
		return 1;
	nap_ns((uint64_t)(secs * 1e9));
	sampler_stop(s);
	load_stop = 1;
	for (int i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		close(fds[i]);
	}
	rmdir(dir);
	sampler_self_cpu(s, &cpu_ns, &wall_ns);
	printf("records %u threads %d sampler_cpu_ms %.3f wall_ms %.1f share_of_a_core %.4f%%\n",
	       sampler_count(s), nthreads + 1, cpu_ns / 1e6, wall_ns / 1e6,
	       wall_ns ? (double)cpu_ns / (double)wall_ns * 100.0 : 0.0);
	sampler_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "devices") == 0)
		return tool_devices(argv[2]);
	if (argc == 4 && strcmp(argv[1], "watch") == 0)
		return tool_watch(argv[2], atof(argv[3]));
	if (argc == 5 && strcmp(argv[1], "compute") == 0)
		return tool_compute(atof(argv[2]), argv[3], argv[4]);
	if (argc >= 4 && strcmp(argv[1], "wait") == 0)
		return tool_wait(atof(argv[2]), argc - 3, argv + 3);
	if (argc == 4 && strcmp(argv[1], "overhead") == 0)
		return tool_overhead(atof(argv[2]), atoi(argv[3]));
	if (argc != 1) {
		fprintf(stderr, "usage: t_sampler [devices PATH | watch PATH SECONDS | compute "
			"SECONDS A B | wait SECONDS PID... | overhead SECONDS N]\n");
		return 2;
	}
	RUN(t_lifecycle);
	RUN(t_growth);
	RUN(t_no_device);
	RUN(t_runner_parts);
#ifdef HAVE_PROC_TASKS
	RUN(t_other_pid);
#endif
	return test_done();
}
