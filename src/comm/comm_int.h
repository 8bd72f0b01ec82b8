/* comm_int.h - what comm.c needs from a transport: single.c (a world of one) and, with
 * HAVE_MPI, mpi.c. comm.c owns the state (rank, size, hosts, stopping, broken) and the
 * rules of comm.h; a transport only moves bytes. Not for use outside src/comm. */
#ifndef IOB_COMM_COMM_INT_H
#define IOB_COMM_COMM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "comm/comm.h"

/* A gate message: rank r's arrival, or rank 0's verdict. */
enum comm_gate_kind {
	COMM_GATE_NORMAL = 1,
	COMM_GATE_FINAL = 2,		/* comm_gate_final */
	COMM_GATE_FINISH = 3,		/* comm_finish: this rank leaves */
};

struct comm_gate_msg {
	uint64_t seq;
	int32_t kind;			/* enum comm_gate_kind */
	int32_t status;			/* arrival: this rank's; verdict: the outcome */
	uint32_t rank;			/* verdict: the failing rank */
	uint32_t left;			/* verdict of a final gate: a rank had left */
	char what[COMM_WHAT_MAX];
};

struct comm_transport {
	const char *name;
	/* Join: *rank, *size; hosts is filled by comm.c through gather/bcast afterwards.
	 * 0 or -errno. */
	int (*init)(int *argc, char ***argv, unsigned *rank, unsigned *size);
	void (*finalize)(void);
	/* One gate: send arrival a (rank 0 collects every rank's, decides, answers), fill
	 * verdict v. poll(arg) about every millisecond while waiting; stop() != 0 gives up
	 * (returns -EINTR). 0 or -errno (-EPIPE: transport failure). */
	int (*gate)(const struct comm_gate_msg *a, struct comm_gate_msg *v,
		    void (*poll)(void *), void *arg, int (*stop)(void));
	/* Data collectives: 0, -EPIPE (transport failure), or -EINTR (gave up: watch). */
	int (*allreduce_u64)(uint64_t *v, size_t n, enum comm_op op);
	int (*allreduce_double)(double *v, size_t n, enum comm_op op);
	int (*reduce_sum_u64)(const uint64_t *in, uint64_t *out, size_t n);
	int (*gather)(const void *mine, size_t len, void *all);
	int (*gatherv)(const void *mine, size_t len, void **all, size_t *lens);
	int (*bcast)(void *buf, size_t len);
	int (*barrier)(void);
	/* The data collectives' wait gives up (-EINTR) when stop() != 0 (NULL: the
	 * transport's collectives never wait); with silence_ns, a gate gives up
	 * (-ETIMEDOUT, the silent rank in the verdict's rank) on a rank it waits for that
	 * sent no word for that long (comm.c: IOBATTERY_RANK_SILENCE). */
	void (*watch)(int (*stop)(void), uint64_t silence_ns);
	void (*progress_post)(const struct comm_prog *p);
	int (*progress_collect)(struct comm_prog *tab);	/* NULL: forget, no talking */
	void (*abort)(int status) __attribute__((noreturn));
	const char *(*library)(void);
};

extern const struct comm_transport comm_single;
#ifdef HAVE_MPI
/* The MPI transport, in the plugin iobattery-mpi.so (mpi.c built with IOB_PLUGIN and
 * linked with the MPI library, so that only a run under a launcher loads MPI); comm.c
 * looks it up by this name. */
extern const struct comm_transport comm_mpi;
#define COMM_MPI_PLUGIN	"iobattery-mpi.so"
#endif

#endif
