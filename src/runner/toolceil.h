/* toolceil.h - the tool's own limit: how many requests per second the runner's request
 * path (runner/ioctx.h: take a request, stamp it, submit it to the engine, reap it, stamp
 * it again, count it in the worker's histogram and counters) completes with the null
 * engine, which does no I/O, at a workload's settings: threads, queue depth and block
 * size. A workload that comes within 10% of it was bound by the tool, not by the device
 * (the tool_bound flag; stats/result_ceiling.h, docs/methodology.md "Ceilings").
 * Measured briefly and kept per settings for the process's life (one run). Not
 * thread-safe (the main thread, after the phases).
 *
 * Two figures: requests per second of wall time (what a row's IOPS compare with), and the
 * CPU time its threads spent per request (each thread's own CPU clock), which does not
 * depend on how much of the CPUs other work on the machine left it. */
#ifndef IOB_RUNNER_TOOLCEIL_H
#define IOB_RUNNER_TOOLCEIL_H

#include <stdint.h>

#define TOOLCEIL_NS		100000000ull	/* each measurement: 100 ms */
#define TOOLCEIL_MAX_THREADS	256u

struct toolceil {
	double ops_s;			/* requests per second, all threads */
	double cpu_ns_per_op;		/* their CPU time per request */
};

/* The limit at threads (1..TOOLCEIL_MAX_THREADS), depth (1..IOCTX_MAX_DEPTH) and bs
 * bytes (1..64 MiB), measured over about dur_ns (0: TOOLCEIL_NS); the same settings
 * again give the kept figures. Both NaN when the settings are out of range or the
 * threads or buffers cannot be had. */
struct toolceil toolceil_measure(unsigned threads, unsigned depth, uint64_t bs,
				 uint64_t dur_ns);

#endif
