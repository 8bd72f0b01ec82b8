/* watch.c - the live view: a thread that draws the current phase's latest interval with
 * ncurses every 100 ms (new figures once per interval) and closes on q. See watch.h.
 * ncurses is opened (core/dlib.h) when --watch is given, never at start-up: the view
 * calls it through a table of the functions it uses. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cmd/watch.h"

int watch_have_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

#ifdef HAVE_NCURSES
#include <curses.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "core/dlib.h"
#include "core/err.h"
#include "core/progress.h"
#include "core/units.h"
#include "runner/phase_sample.h"

#define WATCH_POLL_MS	100

#ifndef IOB_CURSES_SONAME
#define IOB_CURSES_SONAME "libncursesw.so.6"
#endif

/* The ncurses functions the view uses (functions, not curses.h's macros), and its stdscr
 * (a variable of the library: the screen newterm made current). */
struct cur {
	SCREEN *(*x_newterm)(const char *, FILE *, FILE *);
	void (*x_delscreen)(SCREEN *);
	int (*x_endwin)(void);
	int (*x_cbreak)(void);
	int (*x_noecho)(void);
	int (*x_curs_set)(int);
	void (*x_wtimeout)(WINDOW *, int);
	int (*x_wgetch)(WINDOW *);
	int (*x_werase)(WINDOW *);
	int (*x_wrefresh)(WINDOW *);
	int (*x_wmove)(WINDOW *, int, int);
	int (*x_waddnstr)(WINDOW *, const char *, int);
	int (*x_getmaxx)(const WINDOW *);
	int (*x_getmaxy)(const WINDOW *);
	WINDOW **x_stdscr;
};
#define CUR_ENTRY(name, field) { name, offsetof(struct cur, field) },
static const struct dlib_sym cur_syms[] = {
	CUR_ENTRY("newterm", x_newterm) CUR_ENTRY("delscreen", x_delscreen)
	CUR_ENTRY("endwin", x_endwin) CUR_ENTRY("cbreak", x_cbreak)
	CUR_ENTRY("noecho", x_noecho) CUR_ENTRY("curs_set", x_curs_set)
	CUR_ENTRY("wtimeout", x_wtimeout) CUR_ENTRY("wgetch", x_wgetch)
	CUR_ENTRY("werase", x_werase) CUR_ENTRY("wrefresh", x_wrefresh)
	CUR_ENTRY("wmove", x_wmove) CUR_ENTRY("waddnstr", x_waddnstr)
	CUR_ENTRY("getmaxx", x_getmaxx) CUR_ENTRY("getmaxy", x_getmaxy)
	CUR_ENTRY("stdscr", x_stdscr)
};

static int cur_load(struct cur *c, void **handle, char *err, size_t len)
{
	return dlib_load(IOB_CURSES_SONAME, "ncurses (for --watch)", cur_syms,
			 sizeof(cur_syms) / sizeof(cur_syms[0]), c, sizeof(*c), handle, err, len);
}

/* mvprintw through the table: the line at (y, x), cut at the screen's edge */
__attribute__((format(printf, 4, 5)))
static void put(const struct cur *cu, int y, int x, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (cu->x_wmove(*cu->x_stdscr, y, x) != ERR)
		cu->x_waddnstr(*cu->x_stdscr, line, -1);
}

struct watch {
	struct cur c;
	void *lib;			/* the ncurses handle (dlib_close) */
	struct runner_obs *ro;
	pthread_t thread;
	FILE *tty;			/* the terminal, whatever stdout is */
	SCREEN *scr;
	int stop;			/* set by watch_stop; atomics */
};

int watch_available(void)
{
	struct cur c;
	void *h;
	char err[256];

	if (cur_load(&c, &h, err, sizeof(err)) < 0)
		return 0;
	dlib_close(h);
	return 1;
}

static void draw_head(const struct cur *cu, const struct obs_view *v)
{
	int cols = cu->x_getmaxx(*cu->x_stdscr);
	char el[32];

	put(cu, 0, 0, "iobattery %s - phase %s - %s", v->workload, v->phase,
		 units_fmt_ns(el, sizeof(el), (double)v->elapsed_ns));
	put(cu, 0, cols > 60 ? cols - 28 : 50, "interval %.2f s   q: close", v->interval_s);
}

static void draw_rate(const struct cur *cu, const struct obs_view *v, int y)
{
	char r[32], a[32], b[32], c[32], t[32];

	units_fmt_si(r, sizeof(r), v->bytes_s, "B/s");
	put(cu, y, 0, "rate       %-14s %12.1f ops/s", r, v->ops_s);
	if (v->p99_ns)
		put(cu, y + 1, 0, "latency    p50 %-10s p99 %-10s max %s",
			 units_fmt_ns(a, sizeof(a), (double)v->p50_ns),
			 units_fmt_ns(b, sizeof(b), (double)v->p99_ns),
			 units_fmt_ns(c, sizeof(c), (double)v->max_ns));
	else
		put(cu, y + 1, 0, "latency    no operation completed in the interval");
	put(cu, y + 2, 0, "so far     %-14s %12llu ops", units_fmt_si(t, sizeof(t),
		 (double)v->bytes, "B"), (unsigned long long)v->ops);
}

static int draw_devices(const struct cur *cu, const struct obs_view *v, int y)
{
	put(cu, y++, 0, "device        util     r/s      w/s     rkB/s     wkB/s  r_await "
		 " w_await  aqu-sz");
	if (!v->ndev)
		put(cu, y++, 0, "  none: %.70s", v->devices_reason[0] ? v->devices_reason :
			 "no block device");
	for (unsigned d = 0; d < v->ndev; d++)
		put(cu, y++, 0, "%-12.12s %4.0f%% %8.1f %8.1f %9.0f %9.0f %8.2f %8.2f %7.2f",
			 v->dev[d].name, v->dev[d].util, v->dev[d].r_s, v->dev[d].w_s,
			 v->dev[d].rkb_s, v->dev[d].wkb_s, v->dev[d].r_await, v->dev[d].w_await,
			 v->dev[d].aqu);
	return y;
}

static int draw_cpu_mem(const struct cur *cu, const struct obs_view *v, int y)
{
	char a[32], b[32];

	if (v->cpu_ok)
		put(cu, y++, 0, "cpu        usr %.0f%%  sys %.0f%%  iowait %.0f%%  steal %.0f%%  "
			 "idle %.0f%%", v->usr, v->sys, v->iowait, v->steal, v->idle);
	else
		put(cu, y++, 0, "cpu        iowait -  steal -  (no /proc/stat)");
	if (v->mem_ok)
		put(cu, y++, 0, "memory     dirty %s  writeback %s",
			 units_fmt_bytes(a, sizeof(a), (double)v->dirty),
			 units_fmt_bytes(b, sizeof(b), (double)v->writeback));
	return y;
}

static void draw_waits(const struct cur *cu, const struct obs_view *v, int y)
{
	put(cu, y++, 0, "wait states (since the phase began)%s",
		 v->wchan_hidden == 1 ? ": wait channels hidden" : "");
	for (unsigned i = 0; i < v->nwait && y < cu->x_getmaxy(*cu->x_stdscr); i++)
		put(cu, y++, 0, "  %5.1f%%  %c  %-32.32s %s", v->wait[i].share, v->wait[i].state,
			 v->wait[i].wchan, v->wait[i].syscall);
}

static void draw(const struct cur *cu, const struct obs_view *v)
{
	int y;

	cu->x_werase(*cu->x_stdscr);
	if (!v->active) {
		put(cu, 0, 0, "iobattery: between phases   q: close");
		cu->x_wrefresh(*cu->x_stdscr);
		return;
	}
	draw_head(cu, v);
	draw_rate(cu, v, 2);
	y = draw_devices(cu, v, 6);
	y = draw_cpu_mem(cu, v, y + 1);
	draw_waits(cu, v, y + 1);
	cu->x_wrefresh(*cu->x_stdscr);
}

static void *watch_main(void *arg)
{
	struct watch *w = arg;
	struct obs_view v;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		int ch;

		runner_obs_view(w->ro, &v);
		draw(&w->c, &v);
		ch = w->c.x_wgetch(*w->c.x_stdscr);	/* waits up to WATCH_POLL_MS */
		if (ch == 'q' || ch == 'Q')
			break;
	}
	w->c.x_endwin();
	progress_hold(0);
	return NULL;
}

int watch_start(struct runner_obs *ro, struct watch **out)
{
	struct watch *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	char err[256];
	int rc;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->ro = ro;
	if ((rc = cur_load(&w->c, &w->lib, err, sizeof(err))) < 0) {
		err_msg("--watch: %s", err);
		free(w);
		return rc;
	}
	/* the view goes to the terminal itself: the results may go to a file */
	w->tty = fopen("/dev/tty", "r+");
	if (!w->tty || !(w->scr = w->c.x_newterm(NULL, w->tty, w->tty))) {
		if (w->tty)
			fclose(w->tty);
		dlib_close(w->lib);
		free(w);
		return -ENOTTY;
	}
	w->c.x_cbreak();
	w->c.x_noecho();
	w->c.x_curs_set(0);
	w->c.x_wtimeout(*w->c.x_stdscr, WATCH_POLL_MS);
	progress_hold(1);
	/* the view takes no signals: SIGINT stays with the runner */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&w->thread, NULL, watch_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		w->c.x_endwin();
		w->c.x_delscreen(w->scr);
		dlib_close(w->lib);
		fclose(w->tty);
		progress_hold(0);
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void watch_stop(struct watch *w)
{
	if (!w)
		return;
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELAXED);
	pthread_join(w->thread, NULL);
	w->c.x_delscreen(w->scr);
	dlib_close(w->lib);
	fclose(w->tty);
	free(w);
}
#else
int watch_available(void)
{
	return 0;
}

int watch_start(struct runner_obs *ro, struct watch **out)
{
	(void)ro;
	*out = NULL;
	return -ENOTSUP;
}

void watch_stop(struct watch *w)
{
	(void)w;
}
#endif
