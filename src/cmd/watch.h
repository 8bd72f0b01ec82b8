/* watch.h - `--watch`: a full-screen live view (ncurses) of the phase running now: rate,
 * latency, the devices, CPU steal and iowait, page-cache gauges and wait states, redrawn
 * every interval from the run's samplers (runner/phase_sample.h), on the process's
 * terminal (/dev/tty: standard output may be a file). q closes the view and the run goes
 * on to its end and its results as without it. The view runs on a thread
 * of its own that takes no signals; only that thread touches the terminal. Without
 * ncurses (HAVE_NCURSES) watch_start returns -ENOTSUP. */
#ifndef IOB_CMD_WATCH_H
#define IOB_CMD_WATCH_H

struct runner_obs;
struct watch;

/* 1 when this build has the live view. */
int watch_available(void);
/* 1 when the process has a terminal to draw on. */
int watch_have_tty(void);
/* Take over the terminal and start the view of ro's phases. 0 and *out, or -errno
 * (-ENOTSUP without ncurses, -EAGAIN when no thread can be made). */
int watch_start(struct runner_obs *ro, struct watch **out);
/* Close the view if it is still open (the terminal is restored) and free w. NULL is
 * fine. */
void watch_stop(struct watch *w);

#endif
