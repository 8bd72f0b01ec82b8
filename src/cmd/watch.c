/* watch.c - the live view: a thread that draws the current phase's latest interval with
 * ncurses every 100 ms (new figures once per interval) and closes on q. See watch.h. */
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
#include <stdio.h>

#include "core/progress.h"
#include "core/units.h"
#include "runner/phase_sample.h"

#define WATCH_POLL_MS	100

struct watch {
	struct runner_obs *ro;
	pthread_t thread;
	FILE *tty;			/* the terminal, whatever stdout is */
	SCREEN *scr;
	int stop;			/* set by watch_stop; atomics */
};

int watch_available(void)
{
	return 1;
}

static void draw_head(const struct obs_view *v)
{
	char el[32];

	mvprintw(0, 0, "iobattery %s - phase %s - %s", v->workload, v->phase,
		 units_fmt_ns(el, sizeof(el), (double)v->elapsed_ns));
	mvprintw(0, COLS > 60 ? COLS - 28 : 50, "interval %.2f s   q: close", v->interval_s);
}

static void draw_rate(const struct obs_view *v, int y)
{
	char r[32], a[32], b[32], c[32], t[32];

	units_fmt_si(r, sizeof(r), v->bytes_s, "B/s");
	mvprintw(y, 0, "rate       %-14s %12.1f ops/s", r, v->ops_s);
	if (v->p99_ns)
		mvprintw(y + 1, 0, "latency    p50 %-10s p99 %-10s max %s",
			 units_fmt_ns(a, sizeof(a), (double)v->p50_ns),
			 units_fmt_ns(b, sizeof(b), (double)v->p99_ns),
			 units_fmt_ns(c, sizeof(c), (double)v->max_ns));
	else
		mvprintw(y + 1, 0, "latency    no operation completed in the interval");
	mvprintw(y + 2, 0, "so far     %-14s %12llu ops", units_fmt_si(t, sizeof(t),
		 (double)v->bytes, "B"), (unsigned long long)v->ops);
}

static int draw_devices(const struct obs_view *v, int y)
{
	mvprintw(y++, 0, "device        util     r/s      w/s     rkB/s     wkB/s  r_await "
		 " w_await  aqu-sz");
	if (!v->ndev)
		mvprintw(y++, 0, "  none: %.70s", v->devices_reason[0] ? v->devices_reason :
			 "no block device");
	for (unsigned d = 0; d < v->ndev; d++)
		mvprintw(y++, 0, "%-12.12s %4.0f%% %8.1f %8.1f %9.0f %9.0f %8.2f %8.2f %7.2f",
			 v->dev[d].name, v->dev[d].util, v->dev[d].r_s, v->dev[d].w_s,
			 v->dev[d].rkb_s, v->dev[d].wkb_s, v->dev[d].r_await, v->dev[d].w_await,
			 v->dev[d].aqu);
	return y;
}

static int draw_cpu_mem(const struct obs_view *v, int y)
{
	char a[32], b[32];

	if (v->cpu_ok)
		mvprintw(y++, 0, "cpu        usr %.0f%%  sys %.0f%%  iowait %.0f%%  steal %.0f%%  "
			 "idle %.0f%%", v->usr, v->sys, v->iowait, v->steal, v->idle);
	else
		mvprintw(y++, 0, "cpu        iowait -  steal -  (no /proc/stat)");
	if (v->mem_ok)
		mvprintw(y++, 0, "memory     dirty %s  writeback %s",
			 units_fmt_bytes(a, sizeof(a), (double)v->dirty),
			 units_fmt_bytes(b, sizeof(b), (double)v->writeback));
	return y;
}

static void draw_waits(const struct obs_view *v, int y)
{
	mvprintw(y++, 0, "wait states (since the phase began)%s",
		 v->wchan_hidden == 1 ? ": wait channels hidden" : "");
	for (unsigned i = 0; i < v->nwait && y < LINES; i++)
		mvprintw(y++, 0, "  %5.1f%%  %c  %-32.32s %s", v->wait[i].share, v->wait[i].state,
			 v->wait[i].wchan, v->wait[i].syscall);
}

static void draw(const struct obs_view *v)
{
	int y;

	erase();
	if (!v->active) {
		mvprintw(0, 0, "iobattery: between phases   q: close");
		refresh();
		return;
	}
	draw_head(v);
	draw_rate(v, 2);
	y = draw_devices(v, 6);
	y = draw_cpu_mem(v, y + 1);
	draw_waits(v, y + 1);
	refresh();
}

static void *watch_main(void *arg)
{
	struct watch *w = arg;
	struct obs_view v;

	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		int ch;

		runner_obs_view(w->ro, &v);
		draw(&v);
		ch = getch();	/* waits up to WATCH_POLL_MS */
		if (ch == 'q' || ch == 'Q')
			break;
	}
	endwin();
	progress_hold(0);
	return NULL;
}

int watch_start(struct runner_obs *ro, struct watch **out)
{
	struct watch *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int rc;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->ro = ro;
	/* the view goes to the terminal itself: the results may go to a file */
	w->tty = fopen("/dev/tty", "r+");
	if (!w->tty || !(w->scr = newterm(NULL, w->tty, w->tty))) {
		if (w->tty)
			fclose(w->tty);
		free(w);
		return -ENOTTY;
	}
	cbreak();
	noecho();
	curs_set(0);
	timeout(WATCH_POLL_MS);
	progress_hold(1);
	/* the view takes no signals: SIGINT stays with the runner */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = -pthread_create(&w->thread, NULL, watch_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc < 0) {
		endwin();
		delscreen(w->scr);
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
	delscreen(w->scr);
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
