/* sample_opts.c - the common sampling options: durations, their checks, the run's
 * samplers and live view around the phases, the --series file. See sample_opts.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/sample_opts.h"
#include "cmd/watch.h"
#include "comm/comm.h"
#include "core/err.h"
#include "core/rfile.h"
#include "output/output.h"
#include "runner/phase_sample.h"
#include "runner/runner.h"
#include "stats/result.h"

static struct watch *sample_watch;	/* the live view of the run, while open */

int sample_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 },
		{ "h", 3600e9 }, { "", 1e9 },
	};
	char *end;
	double v;

	if (!s || !*s || !strchr("0123456789.", *s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].ns;
		if (v > 86400e9)
			return -EINVAL;
		*ns = (uint64_t)llround(v);
		return 0;
	}
	return -EINVAL;
}

/* "1m40s"-free words for a range's ends in messages. */
static const char *sample_words(uint64_t ns, char *buf, size_t len)
{
	if (ns % 60000000000ull == 0)
		snprintf(buf, len, "%llum", (unsigned long long)(ns / 60000000000ull));
	else if (ns % 1000000000ull == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ull));
	else
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ull));
	return buf;
}

/* One duration option within [lo, hi]; -EINVAL after a message. */
static int check_duration(const char *name, const char *val, uint64_t lo, uint64_t hi,
			  const char *why, uint64_t *out)
{
	char a[16], b[16];

	if (sample_parse_duration(val, out) < 0) {
		err_msg("bad value for --%s: '%s': a duration such as 1s, 250ms or 2m", name, val);
		return -EINVAL;
	}
	if (*out < lo || *out > hi) {
		err_msg("bad value for --%s: '%s': from %s to %s (%s)", name, val,
			sample_words(lo, a, sizeof(a)), sample_words(hi, b, sizeof(b)), why);
		return -EINVAL;
	}
	return 0;
}

/* Does the comma list of formats hold csv? */
static int has_csv(const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ",");

		if (n == 3 && !strncmp(p, "csv", 3))
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

int sample_opts_check(const struct common_opts *co)
{
	uint64_t v;

	if (check_duration("interval", co->interval, SAMPLE_MIN_INTERVAL_NS,
			   SAMPLE_MAX_INTERVAL_NS,
			   "a phase shorter than one interval has a single point", &v) < 0 ||
	    check_duration("sample-interval", co->sample_interval, SAMPLE_MIN_WAIT_NS,
			   SAMPLE_MAX_WAIT_NS, "how often thread states are read", &v) < 0)
		return -EINVAL;
	if (co->watch) {
		if (comm_multi()) {	/* the launcher carries the ranks' output through pipes */
			err_msg("--watch does not run under mpirun: rank 0's progress line shows "
				"the ranks");
			return -EINVAL;
		}
		if (co->no_sample) {
			err_msg("--watch shows the samplers' figures: drop --no-sample");
			return -EINVAL;
		}
		if (!watch_available()) {
			err_msg("--watch is not built in: iobattery was built without ncurses");
			return -EINVAL;
		}
		if (!watch_have_tty()) {
			err_msg("--watch needs a terminal: this process has none (/dev/tty)");
			return -EINVAL;
		}
	}
	if (co->series) {
		if (!has_csv(co->format)) {
			err_msg("--series writes a CSV table: add --format csv");
			return -EINVAL;
		}
		if (co->no_sample) {
			err_msg("--series writes the samplers' figures: drop --no-sample");
			return -EINVAL;
		}
	}
	return 0;
}

int sample_check_phase_length(const struct common_opts *co, uint64_t phase_ns)
{
	uint64_t v;

	if (co->no_sample || sample_parse_duration(co->interval, &v) < 0 || v <= phase_ns)
		return 0;
	err_msg("bad value for --interval: '%s': longer than the phase (%.3g s), which would "
		"have a single point", co->interval, (double)phase_ns / 1e9);
	return -EINVAL;
}


int sample_run_start(const struct common_opts *co, const char *target, struct runner *rc)
{
	struct obs_opts o;
	int r;

	rc->obs = NULL;
	if (co->no_sample)
		return 0;
	memset(&o, 0, sizeof(o));
	o.no_devlat = co->no_devlat;
	if (sample_parse_duration(co->interval, &o.interval_ns) < 0 ||
	    sample_parse_duration(co->sample_interval, &o.wait_ns) < 0)
		return -EINVAL;	/* checked before: cannot happen */
	r = runner_obs_new(&o, target, &rc->obs);
	if (r < 0) {
		err_errno(r, "cannot start the samplers");
		return r;
	}
	if (co->watch) {
		rc->progress = 0;	/* the view owns the terminal */
		r = watch_start(rc->obs, &sample_watch);
		if (r < 0) {
			err_errno(r, "cannot start the live view");
			runner_obs_free(rc->obs);
			rc->obs = NULL;
			return r;
		}
	}
	return 0;
}

void sample_run_stop(struct runner *rc)
{
	if (sample_watch) {
		watch_stop(sample_watch);
		sample_watch = NULL;
	}
	runner_obs_free(rc->obs);
	rc->obs = NULL;
}

/* Is path a file we may replace: absent, or a series table we wrote (its header)? */
static int series_ours(const char *path)
{
	char line[64] = "";
	/* core/rfile: a FIFO is not ours and is never waited on */
	int fd = rfile_open(path, 0);
	ssize_t n;

	if (fd < 0)
		return fd == -ENOENT;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	return !strncmp(line, OUT_SERIES_HEADER_START, strlen(OUT_SERIES_HEADER_START));
}

int sample_write_series(const struct run *run, const struct common_opts *co)
{
	char tmp[PATH_MAX + 8];
	FILE *f;
	int rc;

	if (!co->series)
		return 0;
	if (!series_ours(co->series)) {
		err_msg("refusing to overwrite: '%s': not a series table iobattery wrote",
			co->series);
		return -EEXIST;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", co->series);
	f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		err_errno(rc, "cannot write the series: '%s'", tmp);
		return rc;
	}
	rc = out_series_csv(f, run);
	if (fclose(f) != 0 && !rc)
		rc = -errno;
	if (!rc && rename(tmp, co->series) < 0)
		rc = -errno;
	if (rc) {
		unlink(tmp);
		err_errno(rc, "cannot write the series: '%s'", co->series);
	}
	return rc;
}
