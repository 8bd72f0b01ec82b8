/* output.h - formatters: separate sinks that read only the results model.
 * Each writes to an explicit stream; several may be used for one run (--format text,json).
 * Thread-safe as long as each call has its own stream. */
#ifndef IOB_OUTPUT_OUTPUT_H
#define IOB_OUTPUT_OUTPUT_H

#include <stdio.h>

struct run;
struct row;

struct out_fmt {
	const char *name;		/* "text", "json", "csv" */
	const char *ext;		/* file extension for --output-dir */
	int (*begin)(FILE *f, const struct run *run);
	int (*row)(FILE *f, const struct run *run, const struct row *row);
	int (*end)(FILE *f, const struct run *run);
};

/* The formatter called name, or NULL. */
const struct out_fmt *out_find(const char *name);
/* begin, each row, end. Returns 0 or -errno (write errors included: ferror). */
int out_write(const struct out_fmt *fmt, FILE *f, const struct run *run);


/* A compact table of all rows of run, one line each: workload, phase, rate and unit,
 * elapsed and durable seconds, process %CPU, p99 latency, cache residency, flags.
 * "-" where a value does not apply. Returns 0 or -EIO. */
int out_text_table(FILE *f, const struct run *run);

/* The repeats block (text_repeats.c): per figure of run (rows sharing workload, phase
 * and params), mean, sd, CV and 95% CI over its repeats, "inconsistent" over 10% CV,
 * "single run" for figures measured once; when no figure was repeated, one line saying
 * so. Call after the rows. Returns 0, -ENOMEM or -EIO. */
int out_text_repeats(FILE *f, const struct run *run);

/* The interval series of every row of run as a long table (csv_series.c): a header, then
 * one line per row, interval and figure: run_id, row (its index in the run), workload,
 * phase, repeat, interval (from 0), t_s (end of the interval from the phase's start),
 * series (the figure's key), device (for device figures), value. 0 or -EIO. */
int out_series_csv(FILE *f, const struct run *run);

/* Write s to f as one CSV field (NULL: an empty field), in double quotes with quotes
 * doubled when it holds a comma, a quote, CR or LF; then sep unless sep is 0. Returns
 * nothing: the caller checks ferror(f). Thread-safe for distinct streams. */
void out_csv_field(FILE *f, const char *s, char sep);
#define OUT_SERIES_HEADER_START	"run_id,row,workload,phase,repeat"

/* The compact per-phase lines of what the system did (text_system.c): devices, write
 * amplification, CPU steal and iowait, wait states, and the flags steal, device_idle and
 * writeback_pending in words; "  system LABEL: ..." when label is not NULL. Nothing for
 * a row without those figures. 0 or -EIO. */
int out_text_system(FILE *f, const struct row *row, const char *label);

extern const struct out_fmt out_text;
extern const struct out_fmt out_json;
extern const struct out_fmt out_csv;
/* fio's --output-format=json document of the job workload's rows (fio_json.c). */
extern const struct out_fmt out_fio_json;
/* The same with json+'s latency bins (fio's --output-format=json+). */
extern const struct out_fmt out_fio_json_plus;

#endif
