/* common_opts.c - the common options' table and the sampling options' own parser. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "workload/common_opts.h"

const struct opt common_opt_table[] = {
	{ "format", 0, OPT_STR, offsetof(struct common_opts, format), "LIST",
	  "output formats, comma-separated: text, json, csv (default text)" },
	{ "output-dir", 0, OPT_STR, offsetof(struct common_opts, output_dir), "DIR",
	  "write iobattery-results.EXT files into DIR" },
	{ "quiet", 'q', OPT_FLAG, offsetof(struct common_opts, quiet), NULL,
	  "no progress line; with --output-dir, no text on stdout" },
	{ "label", 0, OPT_STR, offsetof(struct common_opts, label), "TEXT",
	  "a label stored with the run (e.g. the configuration tested)" },
	{ "units", 0, OPT_STR, offsetof(struct common_opts, units), "decimal|binary",
	  "byte rates in the text's tables: MB/s (default) or MiB/s" },
	{ "engine", 0, OPT_STR, offsetof(struct common_opts, engine), "NAME",
	  "I/O engine: psync (default), io_uring, libaio, mmap or null (no I/O)" },
	{ "repeat", 0, OPT_UINT, offsetof(struct common_opts, repeat), "N",
	  "run the phases N times (default 1)" },
	{ "no-store", 0, OPT_FLAG, offsetof(struct common_opts, no_store), NULL,
	  "do not save the run in the results store ($IOBATTERY_DB)" },
	{ "interval", 0, OPT_STR, offsetof(struct common_opts, interval), "DURATION",
	  "time series interval (default 1s; shorter for short phases, to 100ms)" },
	{ "sample-interval", 0, OPT_STR, offsetof(struct common_opts, sample_interval),
	  "DURATION", "read thread wait states every DURATION (default 100ms)" },
	{ "no-sample", 0, OPT_FLAG, offsetof(struct common_opts, no_sample), NULL,
	  "no device, CPU split, wait-state or interval figures" },
	{ "no-device-latency", 0, OPT_FLAG, offsetof(struct common_opts, no_devlat), NULL,
	  "no block-layer latency (BPF) per phase" },
	{ "watch", 0, OPT_FLAG, offsetof(struct common_opts, watch), NULL,
	  "full-screen live view of the running phase (q closes it)" },
	{ "series", 0, OPT_STR, offsetof(struct common_opts, series), "FILE",
	  "with --format csv, the interval series as a long table in FILE" },
	{ NULL, 0, OPT_END, 0, NULL, NULL },
};

int common_take_sample_opts(struct common_opts *co, int *argc, char **argv, char *err,
			    size_t len)
{
	static const char *const with_value[] = { "interval", "sample-interval", "series" };
	int i, k = 1;

	for (i = 1; i < *argc; i++) {
		const char *s = argv[i], *eq;
		const char **dst = NULL;
		size_t nl;

		if (strncmp(s, "--", 2)) {
			argv[k++] = argv[i];
			continue;
		}
		if (!strcmp(s, "--no-device-latency")) {
			co->no_devlat = 1;
			continue;
		}
		if (!strcmp(s, "--no-sample") || !strcmp(s, "--watch")) {
			*(s[2] == 'n' ? &co->no_sample : &co->watch) = 1;
			continue;
		}
		eq = strchr(s, '=');
		nl = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
		for (size_t j = 0; j < 3; j++)
			if (strlen(with_value[j]) == nl && !strncmp(s + 2, with_value[j], nl))
				dst = j == 0 ? &co->interval : j == 1 ? &co->sample_interval :
				      &co->series;
		if (!dst) {
			argv[k++] = argv[i];
			continue;
		}
		if (eq) {
			*dst = eq + 1;
		} else if (i + 1 < *argc) {
			*dst = argv[++i];
		} else {
			snprintf(err, len, "missing value: '%s'", s);
			return -EINVAL;
		}
	}
	argv[k] = NULL;
	*argc = k;
	return 0;
}
