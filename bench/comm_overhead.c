/* bench/comm_overhead.c - what the multi-rank layer costs per phase: K empty phases (one
 * timed no-op each) through the real runner, each with its start and end gates, then the
 * merge of their K rows (per row: a reduction, a gather of the figures, one of the
 * metrics). Run it as N ranks (mpirun -np N bench/comm_overhead K); rank 0 prints the
 * time per phase boundary pair and per merged row. A measuring tool, not a test. */
#include <stdio.h>
#include <stdlib.h>

#include "comm/comm.h"
#include "core/clock.h"
#include "engine/engine.h"
#include "runner/ranks.h"
#include "runner/runner.h"
#include "stats/result.h"

int main(int argc, char **argv)
{
	struct runner rc = { 0 };
	struct phase ph;
	uint64_t t0, t1, t2;
	long k, n = argc > 1 ? atol(argv[1]) : 1000;
	int rc0 = comm_init(&argc, &argv);

	if (rc0)
		return rc0;
	rc.run = run_new("bench");
	rc.eng = engine_find("null");
	if (!rc.run || !rc.eng || n < 1)
		return comm_finish(1);
	(void)comm_gate(0, NULL, NULL, NULL, NULL);
	t0 = clock_ns();
	for (k = 0; k < n; k++) {
		struct row *row;
		uint64_t t;

		if (phase_begin(&ph, &rc, "phase", 1, "ops", 0) < 0)
			return comm_finish(1);
		worker_start(&ph.w[0]);
		t = op_begin();
		op_end(&ph.w[0], t, 0);
		row = phase_end(&ph, "bench");
		if (!row)
			return comm_finish(1);
		row->rate = 1e9 / (double)(row->elapsed_ns ? row->elapsed_ns : 1);
	}
	t1 = clock_ns();
	if (comm_gate_final() < 0 || ranks_merge(&rc) < 0)
		return comm_finish(1);
	t2 = clock_ns();
	ranks_book_free(&rc);
	if (comm_rank() == 0)
		printf("ranks %u phases %ld per_phase_us %.2f merge_per_row_us %.2f total_per_phase_us %.2f\n",
		       comm_size(), n, (double)(t1 - t0) / 1e3 / (double)n,
		       (double)(t2 - t1) / 1e3 / (double)n, (double)(t2 - t0) / 1e3 / (double)n);
	run_free(rc.run);
	return comm_finish(0);
}
