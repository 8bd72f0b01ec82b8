/* text_extras.c - the block every text renderer ends a row with: buffered and durable
 * times, CPU, latency percentiles, cache residency, flags (text_renderers.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "core/units.h"
#include "output/numfmt.h"
#include "output/output.h"
#include "output/text_renderers.h"
#include "stats/flags.h"
#include "stats/result.h"
#include "stats/result_keys.h"

static void text_cpu(FILE *f, const struct row *w)
{
	const struct row_cpu *c = &w->cpu;
	char t[32];

	fprintf(f, "  cpu: %.1f%% process (user %.2f s, sys %.2f s), system busy %.1f%%",
		c->proc_pct, c->user_s, c->sys_s, c->sys_busy_pct);
	if (w->ops)
		fprintf(f, ", %s cpu/op", numfmt(t, sizeof(t), c->cpu_ns_per_op, "ns"));
	fputc('\n', f);
}

static void text_lat(FILE *f, const struct row_lat *l)
{
	static const char *const names[] = { "p50", "p90", "p99", "p99.9", "max" };
	const uint64_t v[] = { l->p50_ns, l->p90_ns, l->p99_ns, l->p999_ns, l->max_ns };
	char t[32];

	fputs("  latency:", f);
	for (size_t i = 0; i < 5; i++)
		fprintf(f, "%s%s %s", i ? "  " : " ", names[i],
			numfmt(t, sizeof(t), (double)v[i], "ns"));
	fprintf(f, " (n=%llu)\n", (unsigned long long)l->n);
}

/* Flags in words, one line each, by their one name and meaning (stats/flags.h). */
static void text_flags(FILE *f, const struct row *w)
{
	for (unsigned i = 0; flag_table[i].name; i++) {
		if (!(w->flags & flag_table[i].bit))
			continue;
		if (flag_table[i].bit == ROW_FAILED)
			fprintf(f, "  failed: %s\n", w->error ? w->error : "unknown error");
		else
			fprintf(f, "  %s: %s\n", flag_table[i].name, flag_table[i].meaning);
	}
	if (w->error && !(w->flags & ROW_FAILED))
		fprintf(f, "  error: %s\n", w->error);
}

int out_text_extras(FILE *f, const struct row *w)
{
	char a[32], b[32];

	if (w->buffered_ns && w->durable_ns)
		fprintf(f, "  buffered %s, durable %s\n",
			numfmt(a, sizeof(a), (double)w->buffered_ns, "ns"),
			numfmt(b, sizeof(b), (double)w->durable_ns, "ns"));
	else if (w->buffered_ns)
		fprintf(f, "  buffered %s\n", numfmt(a, sizeof(a), (double)w->buffered_ns, "ns"));
	else if (w->durable_ns)
		fprintf(f, "  durable %s\n", numfmt(b, sizeof(b), (double)w->durable_ns, "ns"));
	if (w->cpu.valid)
		text_cpu(f, w);
	if (w->lat.valid && w->lat.n)
		text_lat(f, &w->lat);
	/* The cache verdict note says the share itself; otherwise print it here. */
	if (w->cache_pct >= 0 && !result_note_states_cache(w))
		fprintf(f, "  cache: %.0f%% resident at start%s\n", w->cache_pct,
			w->cache_dropped ? " (after dropping it)" : "");
	if (w->note)
		fprintf(f, "  %s\n", w->note);
	text_flags(f, w);
	out_text_system(f, w, NULL);
	return ferror(f) ? -EIO : 0;
}
