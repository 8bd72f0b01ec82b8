/* sys_fill.h - a row's system figures and series filled with every kind of value
 * (integers, reals of many digits, nulls, strings needing escapes), for the round-trip
 * tests of the JSON form, the store and the key tables. */
#ifndef IOB_TEST_SYS_FILL_H
#define IOB_TEST_SYS_FILL_H

#include <math.h>

#include "stats/result.h"
#include "stats/result_sys.h"

static inline void sys_fill(struct row *w)
{
	struct row_sys *s = row_sys_new();
	struct row_series *se = row_series_new(3, 2);
	unsigned k;
	size_t i, d;

	if (!s || !se) {
		row_sys_free(s);
		row_series_free(se);
		return;
	}
	row_sys_set_devs(s, 2);
	str_set(&s->dev[0].name, "sda1");
	str_set(&s->dev[0].role, "top");
	str_set(&s->dev[1].name, "sda");
	str_set(&s->dev[1].role, "disk");
	for (d = 0; d < 2; d++)
		for (k = 0; k < RSD_N; k++)
			s->dev[d].v[k] = rsys_dev_keys[k].integer ? (double)(4096 * (k + d + 1)) :
					 (k + 1) / 3.0 + (double)d;
	s->dev[1].v[RSD_F_S] = NAN;	/* a partition's missing flush counts */
	for (k = 0; k < RS_N; k++)
		s->v[k] = rsys_keys[k].integer ? (double)(1000 + k) : 100.0 / (k + 7);
	s->v[RS_WRITE_AMP] = NAN;
	s->wchan_hidden = 0;
	row_sys_set_waits(s, 2);
	s->wait[0].state = 'D';
	str_set(&s->wait[0].wchan, "folio_wait_bit");
	str_set(&s->wait[0].syscall, "write");
	s->wait[0].count = 40;
	s->wait[0].share_pct = 40.0 * 100 / 61;
	s->wait[1].state = 'R';
	str_set(&s->wait[1].wchan, "");
	str_set(&s->wait[1].syscall, "");
	s->wait[1].count = 21;
	s->wait[1].share_pct = 21.0 * 100 / 61;
	se->interval_ns = 1000000000;
	for (i = 0; i < 3; i++) {
		for (k = 0; k < RSE_N; k++)
			se->v[k][i] = rser_keys[k].integer ? (double)((i + 1) * 1000000 + k) :
				      (double)(i + k) / 7.0;
		for (d = 0; d < 2; d++)
			for (k = 0; k < RSED_N; k++)
				se->dev[d].v[k][i] = (double)(i * 10 + k + d) / 3.0;
	}
	se->v[RSE_P99][2] = NAN;	/* no operation completed in the last interval */
	str_set(&se->dev[0].name, "sda1");
	str_set(&se->dev[1].name, "sda \"2\"");
	row_sys_free(w->sys);
	row_series_free(w->series);
	w->sys = s;
	w->series = se;
}

#endif
