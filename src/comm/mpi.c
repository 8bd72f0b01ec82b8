/* mpi.c - the MPI transport (Open MPI or MPICH, started by mpirun): gates as messages to
 * rank 0 and back, data collectives as MPI collectives. Built only with HAVE_MPI.
 *
 * Errors come back as return codes (MPI_ERRORS_RETURN), never as an abort inside the
 * library. Waiting is a test loop that yields, then sleeps up to a millisecond, so ranks
 * oversubscribing the CPUs do not steal them from the ones still measuring, and a stop
 * signal is noticed within a millisecond. The library is asked for
 * MPI_THREAD_SERIALIZED: progress messages may come from a phase's worker thread while
 * the main thread waits for it; without that level they come only from the main thread. */
#include "config.h"

#if defined(HAVE_MPI) && defined(IOB_PLUGIN)
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "comm/comm_int.h"
#include "core/clock.h"

enum { TAG_GATE = 7101, TAG_VERDICT = 7102, TAG_PROG = 7103, TAG_BEAT = 7104 };

#define BEAT_NS	1000000000ull	/* rank 0 tells the ranks waiting at its gate it lives */

static struct {
	unsigned rank, size;
	int threads_ok;			/* MPI_THREAD_SERIALIZED or better */
	pthread_t main_tid;
	struct comm_gate_msg *pending;	/* rank 0: a FINAL or FINISH that came early */
	int *have_pending;
	struct comm_prog prog_buf;
	MPI_Request prog_req;
	char lib[128];
	int (*stop)(void);		/* comm.c's: a stop signal, a dead rank */
	uint64_t silence_ns;		/* a gate gives up after this without a word
					 * from a rank it waits for (0: never) */
	uint64_t *heard;		/* rank 0: clock_ns() of each rank's last word */
	uint64_t *beat_buf;		/* rank 0: each rank's beat on its way */
	MPI_Request *beat_req;		/* ... and its send (MPI_REQUEST_NULL: none) */
	uint64_t beat_seq;		/* a leaf: the gate rank 0's beats are for */
	uint64_t beat_at;		/* ... and when the last came (0: none yet) */
} M;

#define OK(x)	((x) == MPI_SUCCESS)

static int m_init(int *argc, char ***argv, unsigned *rank, unsigned *size)
{
	int provided = MPI_THREAD_SINGLE, r, s;

	if (!OK(MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided)))
		return -EPIPE;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (!OK(MPI_Comm_rank(MPI_COMM_WORLD, &r)) || !OK(MPI_Comm_size(MPI_COMM_WORLD, &s)))
		return -EPIPE;
	M.rank = (unsigned)r;
	M.size = (unsigned)s;
	M.threads_ok = provided >= MPI_THREAD_SERIALIZED;
	M.main_tid = pthread_self();
	M.prog_req = MPI_REQUEST_NULL;
	if (M.rank == 0) {
		M.pending = calloc((size_t)s, sizeof(*M.pending));
		M.have_pending = calloc((size_t)s, sizeof(*M.have_pending));
		M.heard = calloc((size_t)s, sizeof(*M.heard));
		M.beat_buf = calloc((size_t)s, sizeof(*M.beat_buf));
		M.beat_req = calloc((size_t)s, sizeof(*M.beat_req));
		if (!M.pending || !M.have_pending || !M.heard || !M.beat_buf || !M.beat_req)
			return -ENOMEM;
		for (r = 0; r < s; r++)
			M.beat_req[r] = MPI_REQUEST_NULL;
	}
	*rank = M.rank;
	*size = M.size;
	return 0;
}

static void m_finalize(void)
{
	unsigned r;

	if (M.prog_req != MPI_REQUEST_NULL)
		MPI_Wait(&M.prog_req, MPI_STATUS_IGNORE);
	for (r = 0; M.beat_req && r < M.size; r++)
		if (M.beat_req[r] != MPI_REQUEST_NULL)
			MPI_Request_free(&M.beat_req[r]);	/* sent eagerly: let it go */
	MPI_Finalize();
	free(M.pending);
	free(M.have_pending);
	free(M.heard);
	free(M.beat_buf);
	free(M.beat_req);
}

/* One step of a wait: yield for the first 200 us (a gate whose ranks all arrive costs
 * a few microseconds, and yielding leaves the CPU to a rank still at work), then sleep,
 * doubling from 20 us to 1 ms. *round counts the steps, 0 at the start of a wait. */
#define SPIN_NS	200000ull
static void backoff(unsigned *round)
{
	static uint64_t t0;
	struct timespec ts = { 0, 0 };
	unsigned k;

	if ((*round)++ == 0)
		t0 = clock_ns();
	if (clock_ns() - t0 < SPIN_NS) {
		sched_yield();
		*round = 1;
		return;
	}
	k = *round - 2;
	ts.tv_nsec = k >= 6 ? 1000000 : 20000L << k;
	nanosleep(&ts, NULL);
}

static void drain_progress(void);

/* A leaf: take rank 0's beats; one for the gate this rank waits at (M.beat_seq) says
 * that rank 0 waits there too and lives. */
static void drain_beats(void)
{
	for (;;) {
		uint64_t seq;
		int flag = 0;

		if (!OK(MPI_Iprobe(0, TAG_BEAT, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE)) ||
		    !flag || !OK(MPI_Recv(&seq, 1, MPI_UINT64_T, 0, TAG_BEAT, MPI_COMM_WORLD,
					  MPI_STATUS_IGNORE)))
			return;
		if (seq == M.beat_seq)
			M.beat_at = clock_ns();
	}
}

/* Wait for req, calling poll about every ms and giving up when stop() says so; a leaf
 * at a gate (beats) also when rank 0, which beat there, fell silent for silence_ns. */
static int wait_req(MPI_Request *req, void (*poll)(void *), void *arg, int (*stop)(void),
		    int beats)
{
	unsigned round = 0;
	uint64_t next = clock_ns() + 1000000, now;

	for (;;) {
		int done = 0;

		if (!OK(MPI_Test(req, &done, MPI_STATUS_IGNORE)))
			return -EPIPE;
		if (done)
			return 0;
		if (stop && stop())
			return -EINTR;
		if ((now = clock_ns()) >= next) {
			if (M.rank == 0)
				drain_progress();
			if (poll)
				poll(arg);
			if (beats && M.silence_ns) {
				drain_beats();
				if (M.beat_at && now > M.beat_at + M.silence_ns)
					return -ETIMEDOUT;
			}
			next = clock_ns() + 1000000;
		}
		backoff(&round);
	}
}

static int send_msg(const struct comm_gate_msg *m, unsigned to, int tag)
{
	return OK(MPI_Send((void *)m, (int)sizeof(*m), MPI_BYTE, (int)to, tag, MPI_COMM_WORLD)) ?
	       0 : -EPIPE;
}

/* A non-root rank: arrive, wait for the verdict. */
static int gate_leaf(const struct comm_gate_msg *a, struct comm_gate_msg *v,
		     void (*poll)(void *), void *arg, int (*stop)(void))
{
	MPI_Request rq;
	int rc;

	if (!OK(MPI_Irecv(v, (int)sizeof(*v), MPI_BYTE, 0, TAG_VERDICT, MPI_COMM_WORLD, &rq)))
		return -EPIPE;
	if ((rc = send_msg(a, 0, TAG_GATE)) < 0)
		return rc;
	M.beat_seq = ((uint64_t)a->kind << 56) ^ a->seq;
	M.beat_at = 0;
	rc = wait_req(&rq, poll, arg, stop, 1);
	if (rc == -ETIMEDOUT) {
		v->rank = 0;
		MPI_Cancel(&rq);	/* no verdict may land in v later */
		MPI_Request_free(&rq);
	}
	return rc;
}

/* Rank 0's verdict for a normal gate: the lowest failing rank. */
static void fail_verdict(struct comm_gate_msg *v, unsigned r, int32_t status, const char *what)
{
	if (v->status)
		return;
	v->status = status ? status : -ECANCELED;
	v->rank = r;
	snprintf(v->what, sizeof(v->what), "%s", what);
}

/* Rank 0 answers r at once (r waits at a gate rank 0 is past): stop, or for a final gate
 * "a rank left" so that r goes on to finish. */
static int answer_now(unsigned r, const struct comm_gate_msg *m, int k)
{
	struct comm_gate_msg x;

	memset(&x, 0, sizeof(x));
	x.kind = m->kind;
	x.seq = m->seq;
	if (m->kind == COMM_GATE_FINAL) {
		x.left = 1;
	} else {
		x.status = -ECANCELED;
		snprintf(x.what, sizeof(x.what), "%s", k == COMM_GATE_FINISH ?
			 "left before the others" : "ended its phases early");
	}
	return send_msg(&x, r, TAG_VERDICT);
}

/* What rank 0 does with rank r's message m at its gate of kind k. Returns 1 when r counts
 * as arrived, 0 when rank 0 must listen to r again; *reply: r waits for this gate's
 * verdict. A FINAL or FINISH that comes before rank 0 is there is kept for later. */
static int root_take(int k, unsigned r, const struct comm_gate_msg *m, struct comm_gate_msg *v,
		     int *reply, int *rc)
{
	*reply = 0;
	if (m->kind == k) {
		*reply = 1;
		if (k == COMM_GATE_NORMAL && m->status)
			fail_verdict(v, r, m->status, m->what);
		return 1;
	}
	if (m->kind == COMM_GATE_NORMAL || (k == COMM_GATE_FINISH && m->kind == COMM_GATE_FINAL)) {
		*rc = answer_now(r, m, k);
		return 0;
	}
	/* r ended its phases (FINAL) or left (FINISH) before rank 0 got there */
	M.pending[r] = *m;
	M.have_pending[r] = 1;
	if (k == COMM_GATE_NORMAL)
		fail_verdict(v, r, m->status, m->kind == COMM_GATE_FINISH ?
			     "left before the others" : "ended its phases early");
	else
		v->left = 1;		/* a final gate, and r has left */
	return 1;
}

/* The lowest-numbered status that is not 0 among the arrivals: the run's exit status. */
static int32_t finish_status(const struct comm_gate_msg *in, int32_t own, unsigned n)
{
	unsigned r;

	for (r = 1; r < n && own == 0; r++)
		own = in[r].status;
	return own;
}

/* Rank 0 at a gate, about every ms: beat to the ranks that arrived (they wait for the
 * verdict), and with a silence limit give up (-ETIMEDOUT, the rank in v->rank) on a rank
 * not arrived that sent no word (its arrival, its phase's progress) within the limit of
 * the later of the gate's start and its last word. */
static int root_silence(const struct comm_gate_msg *a, struct comm_gate_msg *v,
			const MPI_Request *rq, const int *reply, uint64_t t0)
{
	static uint64_t next_beat;
	uint64_t now = clock_ns(), last;
	unsigned r;

	if (!M.silence_ns)
		return 0;
	if (now >= next_beat) {
		for (r = 1; r < M.size; r++) {
			MPI_Request *q = &M.beat_req[r];
			int done = 1;

			/* a beat's buffer is rewritten only once its send completed */
			if (!reply[r] || (*q != MPI_REQUEST_NULL &&
					  (!OK(MPI_Test(q, &done, MPI_STATUS_IGNORE)) || !done)))
				continue;
			M.beat_buf[r] = ((uint64_t)a->kind << 56) ^ a->seq;
			if (!OK(MPI_Isend(&M.beat_buf[r], 1, MPI_UINT64_T, (int)r, TAG_BEAT,
					  MPI_COMM_WORLD, &M.beat_req[r])))
				M.beat_req[r] = MPI_REQUEST_NULL;
		}
		next_beat = now + BEAT_NS;
	}
	for (r = 1; r < M.size; r++) {
		if (rq[r] == MPI_REQUEST_NULL)
			continue;
		last = M.heard[r] > t0 ? M.heard[r] : t0;
		if (now > last + M.silence_ns) {
			v->rank = r;
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* What rank 0 waits with at a gate. */
struct root_wait {
	const struct comm_gate_msg *a;
	struct comm_gate_msg *v;
	MPI_Request *rq;
	const int *reply;
	uint64_t t0;
	void (*poll)(void *);
	void *arg;
	int (*stop)(void);
};

/* Rank 0: wait for the next rank's message among w->rq into *r. 0, -EPIPE, -EINTR (stop),
 * or -ETIMEDOUT (root_silence). */
static int root_next(const struct root_wait *w, unsigned *r)
{
	int idx = MPI_UNDEFINED, done = 0, rc;
	unsigned round = 0;
	uint64_t next = clock_ns() + 1000000;

	for (;;) {
		if (!OK(MPI_Testany((int)M.size, w->rq, &idx, &done, MPI_STATUS_IGNORE)))
			return -EPIPE;
		if (done && idx != MPI_UNDEFINED) {
			*r = (unsigned)idx;
			return 0;
		}
		if (w->stop && w->stop())
			return -EINTR;
		if (clock_ns() >= next) {
			drain_progress();
			if (w->poll)
				w->poll(w->arg);
			if ((rc = root_silence(w->a, w->v, w->rq, w->reply, w->t0)) < 0)
				return rc;
			next = clock_ns() + 1000000;
		}
		backoff(&round);
	}
}

static int gate_root(const struct comm_gate_msg *a, struct comm_gate_msg *v,
		     void (*poll)(void *), void *arg, int (*stop)(void))
{
	unsigned n = M.size, r, left = 0;
	uint64_t t0 = clock_ns();
	struct comm_gate_msg *in = calloc(n, sizeof(*in));
	MPI_Request *rq = calloc(n, sizeof(*rq));
	int *reply = calloc(n, sizeof(*reply));
	int rc = 0, k = a->kind;

	if (!in || !rq || !reply) {
		rc = -ENOMEM;
		goto out;
	}
	memset(v, 0, sizeof(*v));
	v->kind = k;
	v->seq = a->seq;
	if (k == COMM_GATE_NORMAL && a->status)
		fail_verdict(v, 0, a->status, a->what);
	rq[0] = MPI_REQUEST_NULL;
	for (r = 1; r < n && rc == 0; r++) {
		rq[r] = MPI_REQUEST_NULL;
		if (M.have_pending[r]) {
			in[r] = M.pending[r];
			M.have_pending[r] = 0;
			if (root_take(k, r, &in[r], v, &reply[r], &rc))
				continue;
		}
		left++;
		if (rc == 0 && !OK(MPI_Irecv(&in[r], (int)sizeof(in[r]), MPI_BYTE, (int)r,
					     TAG_GATE, MPI_COMM_WORLD, &rq[r])))
			rc = -EPIPE;
	}
	while (left > 0 && rc == 0) {
		struct root_wait w = { a, v, rq, reply, t0, poll, arg, stop };

		if ((rc = root_next(&w, &r)) < 0)
			break;
		M.heard[r] = clock_ns();
		if (root_take(k, r, &in[r], v, &reply[r], &rc))
			left--;
		else if (rc == 0 &&
			 !OK(MPI_Irecv(&in[r], (int)sizeof(in[r]), MPI_BYTE, (int)r, TAG_GATE,
				       MPI_COMM_WORLD, &rq[r])))
			rc = -EPIPE;
	}
	if (rc == 0 && k == COMM_GATE_FINISH)
		v->status = finish_status(in, a->status, n);
	for (r = 1; r < n && rc == 0; r++)
		if (reply[r])
			rc = send_msg(v, r, TAG_VERDICT);
	if (rc == 0 && k == COMM_GATE_FINISH)
		drain_progress();
	for (r = 1; r < n && rc < 0 && rq; r++) {
		if (rq[r] != MPI_REQUEST_NULL) {	/* nothing may land in in[] later */
			MPI_Cancel(&rq[r]);
			MPI_Request_free(&rq[r]);
		}
	}
out:
	free(in);
	free(rq);
	free(reply);
	return rc;
}

static int m_gate(const struct comm_gate_msg *a, struct comm_gate_msg *v,
		  void (*poll)(void *), void *arg, int (*stop)(void))
{
	if (M.rank != 0)
		return gate_leaf(a, v, poll, arg, stop);
	return gate_root(a, v, poll, arg, stop);
}

static MPI_Op mop(enum comm_op op)
{
	return op == COMM_SUM ? MPI_SUM : op == COMM_MIN ? MPI_MIN : MPI_MAX;
}

/* Data collectives are started non-blocking and waited for like a gate, so that a stop
 * signal, or a rank that died (comm.c's stop hook), ends the wait instead of leaving the
 * rank blocked inside the library until the launcher's SIGKILL. 0, -EPIPE, or -EINTR. */
static int coll_wait(int rc, MPI_Request *rq)
{
	if (!OK(rc))
		return -EPIPE;
	return wait_req(rq, NULL, NULL, M.stop, 0);
}

static void m_watch(int (*stop)(void), uint64_t silence_ns)
{
	M.stop = stop;
	M.silence_ns = silence_ns;
}

static int m_allreduce_u64(uint64_t *v, size_t n, enum comm_op op)
{
	MPI_Request rq;

	return coll_wait(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, mop(op),
					MPI_COMM_WORLD, &rq), &rq);
}

static int m_allreduce_double(double *v, size_t n, enum comm_op op)
{
	MPI_Request rq;

	return coll_wait(MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, MPI_DOUBLE, mop(op),
					MPI_COMM_WORLD, &rq), &rq);
}

static int m_reduce_sum_u64(const uint64_t *in, uint64_t *out, size_t n)
{
	MPI_Request rq;
	int rc;

	if (M.rank == 0 && in == out)
		rc = MPI_Ireduce(MPI_IN_PLACE, out, (int)n, MPI_UINT64_T, MPI_SUM, 0,
				 MPI_COMM_WORLD, &rq);
	else
		rc = MPI_Ireduce((void *)in, out, (int)n, MPI_UINT64_T, MPI_SUM, 0,
				 MPI_COMM_WORLD, &rq);
	return coll_wait(rc, &rq);
}

static int m_gather(const void *mine, size_t len, void *all)
{
	MPI_Request rq;

	return coll_wait(MPI_Igather((void *)mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE,
				     0, MPI_COMM_WORLD, &rq), &rq);
}

static int m_gatherv(const void *mine, size_t len, void **all, size_t *lens)
{
	int n = (int)M.size, my = (int)len, *cnt = NULL, *dsp = NULL, rc, i;
	MPI_Request rq;
	size_t total = 0;
	char *buf = NULL;

	*all = NULL;
	if (M.rank == 0) {
		cnt = calloc((size_t)n, sizeof(*cnt));
		dsp = calloc((size_t)n, sizeof(*dsp));
		if (!cnt || !dsp) {
			free(cnt);
			free(dsp);
			return -ENOMEM;	/* the others block in the gather: the caller aborts */
		}
	}
	rc = coll_wait(MPI_Igather(&my, 1, MPI_INT, cnt, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq),
		       &rq);
	if (rc == 0 && M.rank == 0) {
		for (i = 0; i < n; i++) {
			dsp[i] = (int)total;
			lens[i] = (size_t)cnt[i];
			total += (size_t)cnt[i];
		}
		buf = malloc(total ? total : 1);
	}
	if (rc == 0)
		rc = coll_wait(MPI_Igatherv((void *)mine, my, MPI_BYTE, buf, cnt, dsp, MPI_BYTE,
					    0, MPI_COMM_WORLD, &rq), &rq);
	free(cnt);
	free(dsp);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*all = buf;
	return 0;
}

static int m_bcast(void *buf, size_t len)
{
	MPI_Request rq;

	return coll_wait(MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &rq), &rq);
}

static int m_barrier(void)
{
	MPI_Request rq;

	return coll_wait(MPI_Ibarrier(MPI_COMM_WORLD, &rq), &rq);
}

static void m_post(const struct comm_prog *p)
{
	int done = 0;

	if (M.rank == 0 || (!M.threads_ok && !pthread_equal(pthread_self(), M.main_tid)))
		return;
	if (M.prog_req != MPI_REQUEST_NULL &&
	    (!OK(MPI_Test(&M.prog_req, &done, MPI_STATUS_IGNORE)) || !done))
		return;
	M.prog_buf = *p;
	if (!OK(MPI_Isend(&M.prog_buf, (int)sizeof(M.prog_buf), MPI_BYTE, 0, TAG_PROG,
			  MPI_COMM_WORLD, &M.prog_req)))
		M.prog_req = MPI_REQUEST_NULL;
}

static int collect(struct comm_prog *tab)
{
	int n = 0;

	for (;;) {
		struct comm_prog m;
		MPI_Status st;
		int flag = 0;

		if (!OK(MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROG, MPI_COMM_WORLD, &flag, &st)) || !flag)
			break;
		if (!OK(MPI_Recv(&m, (int)sizeof(m), MPI_BYTE, st.MPI_SOURCE, TAG_PROG,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE)))
			break;
		if (M.heard && st.MPI_SOURCE >= 0 && (unsigned)st.MPI_SOURCE < M.size)
			M.heard[st.MPI_SOURCE] = clock_ns();	/* a word: it lives */
		if (tab && st.MPI_SOURCE >= 0 && (unsigned)st.MPI_SOURCE < M.size) {
			tab[st.MPI_SOURCE] = m;
			n++;
		}
	}
	return n;
}

/* Progress messages that arrive while no phase listens are dropped. */
static struct comm_prog *listen_tab;

static void drain_progress(void)
{
	collect(listen_tab);
}

static int m_collect(struct comm_prog *tab)
{
	if (M.rank != 0 || (!M.threads_ok && !pthread_equal(pthread_self(), M.main_tid)))
		return 0;
	listen_tab = tab;
	return tab ? collect(tab) : 0;	/* NULL: forget it, without talking */
}

__attribute__((noreturn)) static void m_abort(int status)
{
	MPI_Abort(MPI_COMM_WORLD, status);
	_Exit(status);
}

static const char *m_library(void)
{
	char v[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	size_t n;

	if (!M.lib[0] && OK(MPI_Get_library_version(v, &len))) {
		v[len < (int)sizeof(v) ? len : (int)sizeof(v) - 1] = 0;
		n = strcspn(v, ",\n");
		if (n >= sizeof(M.lib))
			n = sizeof(M.lib) - 1;
		memcpy(M.lib, v, n);
		M.lib[n] = 0;
	}
	return M.lib;
}

const struct comm_transport comm_mpi = {
	.name = "mpi",
	.init = m_init,
	.finalize = m_finalize,
	.gate = m_gate,
	.allreduce_u64 = m_allreduce_u64,
	.allreduce_double = m_allreduce_double,
	.reduce_sum_u64 = m_reduce_sum_u64,
	.gather = m_gather,
	.gatherv = m_gatherv,
	.bcast = m_bcast,
	.barrier = m_barrier,
	.watch = m_watch,
	.progress_post = m_post,
	.progress_collect = m_collect,
	.abort = m_abort,
	.library = m_library,
};

#else
/* Built into the binary, or without MPI: this file is empty (ISO C wants a declaration);
 * it is the plugin iobattery-mpi.so (mk/build.mk), which comm.c opens under a launcher. */
typedef int comm_mpi_not_built;
#endif
