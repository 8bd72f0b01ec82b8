/* comm.h - the world of processes that measure together: rank, size, gates, reductions.
 *
 * One process is a world of one (single.c, always built). Started by mpirun in a build
 * with MPI (configure: HAVE_MPI), the ranks form MPI_COMM_WORLD (mpi.c); everything
 * below then talks to the other ranks. Without a launcher in the environment, a build
 * with MPI never calls MPI_Init and runs as a world of one.
 *
 * Gates are how ranks agree. Every rank arrives with its status (0 or -errno) and a short
 * text; the gate opens when every rank has arrived and tells each the verdict: 0 when all
 * were fine, else the status of the lowest failing rank (struct comm_fault says which and
 * on which host). Gates are point-to-point messages to rank 0 and back, so a rank that
 * left early (comm_finish) or a stop signal is noticed while waiting instead of hanging
 * in a collective. After a failed verdict the world is *stopping*: further gates return
 * the same fault at once without talking, and data collectives return -ECANCELED, except
 * after comm_gate_final (every rank's last gate before writing results), which talks again
 * so that what was measured can still be merged. A stop signal (SIGINT, SIGTERM) while
 * waiting, or an MPI error, *breaks* the world: nothing talks to the other ranks any more
 * (mpirun is killing the job; rank 0 writes what it has).
 *
 * Data collectives (reductions, gathers, broadcast) are called by every rank in the same
 * order, right after a gate that opened with 0; they return 0, -ECANCELED (stopping) or
 * -EPIPE (broken). In a world of one they copy or do nothing.
 *
 * Threads: call everything from the main thread, except comm_progress_post and
 * comm_progress_collect, which one thread at a time may call while the main thread makes
 * no other comm call (a phase's worker 0 while the main thread waits for the workers). */
#ifndef IOB_COMM_COMM_H
#define IOB_COMM_COMM_H

#include <stddef.h>
#include <stdint.h>

#define COMM_HOST_MAX	64	/* host names are cut to 63 bytes */
#define COMM_WHAT_MAX	200	/* a gate's text is cut to 199 bytes */

/* Who failed, at a gate that did not open with 0. */
struct comm_fault {
	unsigned rank;
	int err;				/* that rank's status (-errno) */
	char host[COMM_HOST_MAX];
	char what[COMM_WHAT_MAX];		/* its text, may be empty */
};

enum comm_op { COMM_SUM, COMM_MIN, COMM_MAX };

/* Call first in main, before anything prints. Detects a launcher (OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE, PMI_RANK, PMIX_RANK); with MPI built in, joins the world. Returns 0 to go on,
 * or an exit status (> 0) to leave with at once after printing why: a binary without MPI
 * started by mpirun as several ranks, or a launcher of another MPI than the one built in.
 * Only the lowest rank prints the refusal. */
int comm_init(int *argc, char ***argv);
/* Call last, with the exit status this rank ends with. Every rank's last gate: returns
 * the status the whole run ends with (rank 0's, or the first failing rank's when rank 0
 * succeeded), then leaves the world (MPI_Finalize; not when broken). */
int comm_finish(int status);

unsigned comm_rank(void);
unsigned comm_size(void);
/* 1 when several ranks measure together. */
static inline int comm_multi(void)
{
	return comm_size() > 1;
}
/* This rank's host name (static storage). */
const char *comm_host(void);
/* The host of rank r as learnt at comm_init (static storage; "" when out of range). */
const char *comm_host_of(unsigned r);
/* 1 on rank 0 when a person watches: its standard error is a terminal, or (Open MPI
 * forwards the ranks' output through pipes) the launcher's is - mpirun being rank 0's
 * parent on the machine it was started on (/proc/PPID/fd/2; Linux). Cached. */
int comm_terminal(void);
/* The MPI library in use ("Open MPI v4.1.4, ..." first line), or NULL in a world of one.
 * Static storage. */
const char *comm_library(void);

/* The gate described above; what may be NULL. While waiting, poll(arg) is called about
 * every millisecond when not NULL (rank 0 draws the ranks' progress there). Returns 0,
 * the failing rank's status (< 0) with *f filled (f may be NULL), -EINTR when a stop
 * signal came while waiting (the world is broken then). */
int comm_gate(int status, const char *what, struct comm_fault *f,
	      void (*poll)(void *arg), void *arg);
/* The last gate before results are written: talks even when stopping. Returns 0 when
 * every rank arrived (collectives work again), -ECANCELED when a rank had left already,
 * -EPIPE when broken. The statuses are not compared. */
int comm_gate_final(void);
/* 1 once a gate failed (stopping) or the world broke; *f (may be NULL) gets the fault
 * (rank = this rank and err = -EINTR when a signal broke it). */
int comm_failed(struct comm_fault *f);
/* 1 when the world is broken (no message may be sent any more). */
int comm_broken(void);

/* Reduce n values across ranks in place, every rank receiving the result. */
int comm_allreduce_u64(uint64_t *v, size_t n, enum comm_op op);
int comm_allreduce_double(double *v, size_t n, enum comm_op op);
/* Sum n counters of every rank into out on rank 0 (out is not touched elsewhere; it may
 * be in). The histogram merge: bucket arrays add. */
int comm_reduce_sum_u64(const uint64_t *in, uint64_t *out, size_t n);
/* Rank 0 receives len bytes from every rank into all (size x len bytes, in rank order);
 * all is ignored on the other ranks. */
int comm_gather(const void *mine, size_t len, void *all);
/* Rank 0 receives every rank's bytes (lengths may differ): *all (malloc'd, caller frees)
 * holds them back to back, lens[r] (size entries, caller's) their lengths. Elsewhere *all
 * is NULL. -ENOMEM besides the above. */
int comm_gatherv(const void *mine, size_t len, void **all, size_t *lens);
/* len bytes from rank 0 to every rank. */
int comm_bcast(void *buf, size_t len);
/* Plain barrier for the overhead benchmark and tests; a gate with status 0 otherwise. */
int comm_barrier(void);

/* Progress: a rank's latest count in the running phase (seq: the phase's gate number).
 * Non-root ranks send it to rank 0 without waiting (skipped while the previous message is
 * still on its way); rank 0 ignores its own. */
#define COMM_PROG_DONE	1u		/* flags: this rank finished the phase */
struct comm_prog {
	uint64_t seq;
	uint64_t units;			/* bytes, files ... as the phase counts */
	uint64_t flags;
};
void comm_progress_post(const struct comm_prog *p);
/* Rank 0: apply every message that arrived to tab[0..size-1] (by sender), and keep
 * applying those that arrive while it waits at a gate, until the next call (NULL: drop
 * them from now on; call it so before freeing tab, in any state of the world: it never
 * talks, and a stopping world forgets tab too). Returns the number applied. Elsewhere 0. */
int comm_progress_collect(struct comm_prog *tab);
/* The number of the latest gate (phases tag their progress messages with it). */
uint64_t comm_gate_seq(void);

/* Leave at once with status after the caller removed its files: MPI_Abort, which ends
 * every rank (their signal handlers remove theirs). Never returns. */
void comm_abort(int status) __attribute__((noreturn));

#endif
