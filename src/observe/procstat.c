/* procstat.c - /proc/stat's cpu line into the iostat CPU split; /proc/meminfo gauges. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "observe/procstat.h"

/* Skip blanks; parse an unsigned decimal number. Returns the end or NULL. */
static const char *ps_number(const char *p, uint64_t *v)
{
	uint64_t x = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++)
		x = x * 10u + (uint64_t)(*p - '0');
	*v = x;
	return p;
}

int procstat_parse_cpu(const char *text, struct procstat_cpu *out)
{
	uint64_t *f[10] = { &out->user, &out->nice, &out->system, &out->idle, &out->iowait,
			    &out->irq, &out->softirq, &out->steal, &out->guest,
			    &out->guest_nice };
	const char *p = text;
	unsigned n = 0;

	memset(out, 0, sizeof(*out));
	if (strncmp(p, "cpu ", 4) != 0)
		return -EINVAL;
	p += 4;
	while (n < 10) {
		const char *q = ps_number(p, f[n]);

		if (!q)
			break;
		p = q;
		n++;
	}
	if (n < 4) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	out->nfields = n;
	return 0;
}

int procstat_parse_meminfo(const char *text, struct procstat_mem *out)
{
	static const char *const keys[] = { "MemFree:", "MemAvailable:", "Cached:", "Dirty:",
					    "Writeback:" };
	uint64_t *val[] = { &out->mem_free, &out->mem_available, &out->cached, &out->dirty,
			    &out->writeback };
	const char *p = text;
	int found = 0;

	memset(out, 0, sizeof(*out));
	while (*p) {
		const char *nl = strchr(p, '\n');

		for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t kl = strlen(keys[i]);
			uint64_t v;
			const char *q;

			/* keys start a line: "Cached:" is not "SwapCached:", "Writeback:" not
			 * "WritebackTmp:" */
			if (strncmp(p, keys[i], kl) != 0 || (out->have & (1u << i)))
				continue;
			q = ps_number(p + kl, &v);
			if (!q)
				break;
			while (*q == ' ')
				q++;
			/* the kernel prints kB (1024 bytes) */
			if (strncmp(q, "kB", 2) == 0)
				v *= 1024u;
			*val[i] = v;
			out->have |= 1u << i;
			found++;
			break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return found;
}

/* A tick counter's growth; one that went back (a CPU taken offline) counts 0. */
static uint64_t ps_delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

int procstat_split(const struct procstat_cpu *a, const struct procstat_cpu *b,
		   struct procstat_split *out)
{
	uint64_t d[10], tot;
	double *pct[10] = { &out->user, &out->nice, &out->system, &out->idle, &out->iowait,
			    &out->irq, &out->softirq, &out->steal, &out->guest,
			    &out->guest_nice };
	const uint64_t *fa[10] = { &a->user, &a->nice, &a->system, &a->idle, &a->iowait,
				   &a->irq, &a->softirq, &a->steal, &a->guest, &a->guest_nice };
	const uint64_t *fb[10] = { &b->user, &b->nice, &b->system, &b->idle, &b->iowait,
				   &b->irq, &b->softirq, &b->steal, &b->guest, &b->guest_nice };

	memset(out, 0, sizeof(*out));
	if (!a->nfields || !b->nfields)
		return -EINVAL;
	for (int i = 0; i < 10; i++)
		d[i] = ps_delta(*fa[i], *fb[i]);
	/* iostat's total: the eight states; guest time is already counted in user */
	tot = d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + d[6] + d[7];
	out->total_ticks = tot;
	if (!tot)
		return -EINVAL;
	for (int i = 0; i < 10; i++)
		*pct[i] = (double)d[i] / (double)tot * 100.0;
	return 0;
}

void procstat_init(struct procstat_reader *r)
{
	r->stat_fd = r->mem_fd = -1;
	r->stat_open = r->mem_open = 0;
	r->buf[0] = '\0';
}

#ifdef HAVE_PROC_STAT
/* The first bytes of a /proc file (opened on first use) into r->buf; length or -errno. */
static long ps_read(struct procstat_reader *r, const char *path, int *fd, int *is_open)
{
	ssize_t n;

	if (!*is_open) {
		*fd = open(path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return -errno;
		*is_open = 1;
	}
	/* a seq_file starts again at offset 0 */
	do
		n = pread(*fd, r->buf, sizeof(r->buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r->buf[n] = '\0';
	return (long)n;
}

int procstat_read_cpu(struct procstat_reader *r, struct procstat_cpu *out)
{
	long n = ps_read(r, "/proc/stat", &r->stat_fd, &r->stat_open);

	if (n < 0) {
		memset(out, 0, sizeof(*out));
		return (int)n;
	}
	return procstat_parse_cpu(r->buf, out);
}

int procstat_read_mem(struct procstat_reader *r, struct procstat_mem *out)
{
	long n = ps_read(r, "/proc/meminfo", &r->mem_fd, &r->mem_open);
	int found;

	if (n < 0) {
		memset(out, 0, sizeof(*out));
		return (int)n;
	}
	found = procstat_parse_meminfo(r->buf, out);
	return found ? found : -EINVAL;
}
#else
int procstat_read_cpu(struct procstat_reader *r, struct procstat_cpu *out)
{
	(void)r;
	memset(out, 0, sizeof(*out));
	return -ENOSYS;
}

int procstat_read_mem(struct procstat_reader *r, struct procstat_mem *out)
{
	(void)r;
	memset(out, 0, sizeof(*out));
	return -ENOSYS;
}
#endif

int procstat_close(struct procstat_reader *r)
{
	int rc = 0;

	if (r->stat_open && close(r->stat_fd) < 0)
		rc = -errno;
	if (r->mem_open && close(r->mem_fd) < 0)
		rc = -errno;
	procstat_init(r);
	return rc;
}
