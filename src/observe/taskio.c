/* taskio.c - a thread's /proc/self/task/TID/io counters. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "observe/taskio.h"

/* The number after "name:" at the start of a line of text, into *v; 1 when found. */
static int taskio_field(const char *text, const char *name, uint64_t *v)
{
	size_t n = strlen(name);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, name, n) && p[n] == ':') {
			char *end;

			*v = strtoull(p + n + 1, &end, 10);
			return end != p + n + 1;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

int taskio_parse(const char *text, struct taskio *out)
{
	memset(out, 0, sizeof(*out));
	if (!taskio_field(text, "rchar", &out->rchar) ||
	    !taskio_field(text, "wchar", &out->wchar))
		return -EINVAL;
	taskio_field(text, "read_bytes", &out->read_bytes);
	taskio_field(text, "write_bytes", &out->write_bytes);
	out->ok = 1;
	return 0;
}

#ifdef HAVE_PROC_TASKS
int taskio_read(int tid, struct taskio *out)
{
	char path[64], buf[512];
	ssize_t n;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	if (tid > 0)
		snprintf(path, sizeof(path), "/proc/self/task/%d/io", tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/io");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	rc = n < 0 ? -errno : 0;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		return rc;
	buf[n] = '\0';
	return taskio_parse(buf, out);
}
#else
int taskio_read(int tid, struct taskio *out)
{
	(void)tid;
	memset(out, 0, sizeof(*out));
	return -ENOSYS;
}
#endif
