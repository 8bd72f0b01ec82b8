/* comm.c - the world's state and the rules of comm.h on top of a transport (single.c,
 * mpi.c): launcher detection, host names, stopping and broken worlds. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "comm/comm.h"
#include "comm/comm_int.h"
#include "core/clock.h"
#include "core/dlib.h"
#include "core/err.h"
#include "core/sha256.h"
#include "fs/scratch.h"

/* What every rank learns of every other at comm_init: its host, and where it runs (the
 * machine's boot and the pid namespace: ranks with one may ask after each other's pid). */
struct comm_peer {
	char host[COMM_HOST_MAX];
	char machine[96];		/* "" when it cannot be told */
	int64_t pid;
};

static struct {
	const struct comm_transport *t;
	unsigned rank, size;
	char host[COMM_HOST_MAX];
	struct comm_peer *peers;
	uint64_t seq;
	int stopping, broken;
	struct comm_fault fault;
	uint64_t next_look;		/* clock_ns() of the next look for dead ranks */
	int dead;			/* a rank found dead + 1 (0: none) */
} W = { &comm_single, 0, 1, "", NULL, 0, 0, 0, { 0, 0, "", "" }, 0, 0 };

unsigned comm_rank(void)
{
	return W.rank;
}

unsigned comm_size(void)
{
	return W.size;
}

const char *comm_host(void)
{
	if (!W.host[0] && gethostname(W.host, sizeof(W.host) - 1) < 0)
		snprintf(W.host, sizeof(W.host), "unknown");
	return W.host;
}

const char *comm_host_of(unsigned r)
{
	if (r == W.rank)
		return comm_host();
	return W.peers && r < W.size ? W.peers[r].host : "";
}

int comm_terminal(void)
{
	static int known = -1;
	char link[64], dest[64];
	ssize_t n;

	if (known >= 0)
		return known;
	known = 0;
	if (W.rank != 0)
		return known;
	if (isatty(2))
		return known = 1;
	snprintf(link, sizeof(link), "/proc/%ld/fd/2", (long)getppid());
	n = readlink(link, dest, sizeof(dest) - 1);
	if (n > 0) {
		dest[n] = 0;
		known = !strncmp(dest, "/dev/pts/", 9) || !strncmp(dest, "/dev/tty", 8);
	}
	return known;
}

const char *comm_library(void)
{
	return W.size > 1 ? W.t->library() : NULL;
}

uint64_t comm_gate_seq(void)
{
	return W.seq;
}

/* A launcher's variable as a number, -1 when unset or not a number. */
static long env_num(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return -1;
	n = strtol(v, &end, 10);
	return *end || n < 0 ? -1 : n;
}

/* What the environment says a launcher started: *size (-1 unknown), *rank (-1 none).
 * Returns the variable that told, or NULL when no launcher is in sight. */
static const char *launched(long *size, long *rank)
{
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", NULL };
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
					     NULL };
	const char *who = NULL;
	int i;

	*size = *rank = -1;
	for (i = 0; sizes[i] && *size < 0; i++)
		if ((*size = env_num(sizes[i])) >= 0)
			who = sizes[i];
	for (i = 0; ranks[i] && *rank < 0; i++)
		if ((*rank = env_num(ranks[i])) >= 0 && !who)
			who = ranks[i];
	return who;
}

/* Without MPI built in: one copy is fine, several would each measure alone. */
static int refuse_without_mpi(const char *who, long size, long rank)
{
	if (size == 1 || (size < 0 && rank < 0))
		return 0;
	if (rank <= 0) {
		char n[32] = "several";

		if (size > 1)
			snprintf(n, sizeof(n), "%ld", size);
		err_msg("cannot run under an MPI launcher: '%s' is set: this iobattery was built "
			"without MPI, so the %s copies would each measure alone and write their "
			"own results: build it with MPI (./configure --with-mpi, package "
			"libopenmpi-dev) or run one copy", who, n);
	}
	return EXIT_USAGE;
}

#ifdef HAVE_MPI
/* The MPI transport from its plugin (comm_int.h), opened only under a launcher: a plain
 * run loads no MPI library. NULL after a message when it is missing or broken. The
 * handle stays open for the life of the process (the library holds the world). */
static const struct comm_transport *mpi_plugin(const char *who)
{
	const struct comm_transport *t;
	char err[PATH_MAX + 160];
	void *h = dlib_plugin(COMM_MPI_PLUGIN, err, sizeof(err));

	if (!h) {
		err_msg("cannot run under an MPI launcher: '%s' is set, but the MPI part of "
			"iobattery is missing: %s (install the iobattery-mpi package, or build "
			"with MPI: ./configure --with-mpi)", who, err);
		return NULL;
	}
	t = dlsym(h, "comm_mpi");
	if (!t) {
		err_msg("cannot run under an MPI launcher: %s has no MPI transport",
			COMM_MPI_PLUGIN);
		dlib_close(h);
	}
	return t;
}

/* Everyone learns everyone's host name (messages name the failing rank's host), pid and
 * machine (a rank waiting for another on its own machine sees it die: rank_gone). */
static int share_hosts(void)
{
	struct comm_peer me;

	W.peers = calloc(W.size, sizeof(*W.peers));
	if (!W.peers)
		return -ENOMEM;
	memset(&me, 0, sizeof(me));
	snprintf(me.host, sizeof(me.host), "%s", comm_host());
	(void)scratch_machine_id(me.machine, sizeof(me.machine));
	me.pid = (int64_t)getpid();
	if (W.t->gather(&me, sizeof(me), W.peers) < 0 ||
	    W.t->bcast(W.peers, (size_t)W.size * sizeof(*W.peers)) < 0)
		return -EPIPE;
	return 0;
}

/* The words after the program's path, cut to fit a gate's text. */
static void words(int argc, char **argv, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i < argc && n + 1 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i > 1 ? " " : "", argv[i]);
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

/* Every rank must run one command (an MPMD launch, mpirun ... : ..., may give each its
 * own): rank 0's digest of its words (the program's path may differ between hosts) goes
 * to every rank, each compares its own, and a gate says who differs. Before any command
 * runs, --version and --help included, so that no rank waits in a collective another
 * never joins. 0, or EXIT_USAGE on every rank after rank 0 said which rank differs. */
static int same_command(int argc, char **argv)
{
	unsigned char mine[SHA256_LEN], root[SHA256_LEN];
	char what[COMM_WHAT_MAX], own[COMM_WHAT_MAX];
	struct comm_fault f;
	struct sha256 h;
	int i, rc;

	sha256_init(&h);
	for (i = 1; i < argc; i++)	/* each word with its NUL: "a b" is not "ab" */
		sha256_update(&h, argv[i], strlen(argv[i]) + 1);
	sha256_final(&h, mine);
	memcpy(root, mine, sizeof(root));
	if (W.t->bcast(root, sizeof(root)) < 0)
		return EXIT_FAILED;
	words(argc, argv, what, sizeof(what));
	rc = comm_gate(memcmp(root, mine, sizeof(mine)) ? -EINVAL : 0, what, &f, NULL, NULL);
	if (rc == 0)
		return 0;
	if (W.rank == 0 && rc == -EINVAL) {
		words(argc, argv, own, sizeof(own));
		err_msg("ranks started with different commands (mpirun ... : ...): rank %u on %s "
			"runs '%s', rank 0 '%s': every rank must run the same command", f.rank,
			f.host, f.what, own);
	}
	return rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
}

/* IOBATTERY_RANK_SILENCE=S: a gate gives up on a rank that sent no word for S seconds
 * (0, unset or not a number: never). */
static uint64_t silence_ns(void)
{
	const char *v = getenv("IOBATTERY_RANK_SILENCE");
	double s;
	char *end;

	if (!v || !*v)
		return 0;
	s = strtod(v, &end);
	if (*end || !(s > 0) || s > 1e6) {
		if (W.rank == 0)
			err_msg("ignoring IOBATTERY_RANK_SILENCE: '%s': seconds above 0", v);
		return 0;
	}
	return (uint64_t)(s * 1e9);
}
#endif

static int stop_check(void);

int comm_init(int *argc, char ***argv)
{
	long size, rank;
	const char *who = launched(&size, &rank);
	char prefix[COMM_HOST_MAX + 32];
	int rc;

	if (!who)
		return 0;
#ifndef HAVE_MPI
	(void)argc;
	(void)argv;
	(void)prefix;
	(void)rc;
	return refuse_without_mpi(who, size, rank);
#else
	(void)refuse_without_mpi;
	if (!(W.t = mpi_plugin(who)))
		return EXIT_USAGE;
	rc = W.t->init(argc, argv, &W.rank, &W.size);
	if (rc < 0) {
		err_errno(rc, "cannot join the MPI world: '%s' is set", who);
		W.t = &comm_single;
		return EXIT_FAILED;
	}
	if (W.size == 1 && size > 1) {
		/* another MPI's launcher: every copy is a world of one */
		if (rank <= 0)
			err_msg("cannot run under this launcher: '%s' says %ld ranks, but the MPI "
				"built in (" IOB_MPI_IMPL ") sees one: start iobattery with %s",
				who, size, *IOB_MPI_LAUNCHER ? IOB_MPI_LAUNCHER : "its own mpirun");
		W.t->finalize();
		W.t = &comm_single;
		return EXIT_USAGE;
	}
	if (W.size > 1 && W.t->watch)
		W.t->watch(stop_check, silence_ns());	/* before the first collective */
	if (W.size > 1 && share_hosts() < 0) {
		err_msg("cannot start: the ranks could not exchange their host names");
		W.t->abort(EXIT_FAILED);
	}
	if (W.size > 1 && (rc = same_command(*argc, *argv)) != 0) {
		if (!W.broken)
			W.t->finalize();	/* every rank leaves together */
		W.t = &comm_single;
		W.size = 1;
		return rc;
	}
	if (W.size > 1)
		sig_unlink_on_first();	/* mpirun's SIGKILL follows its SIGTERM within 1 s */
	if (W.size > 1 && W.rank > 0) {
		/* only rank 0 prints results; the others' messages say who they are */
		snprintf(prefix, sizeof(prefix), "rank %u on %s: ", W.rank, comm_host());
		err_set_prefix(prefix);
		fflush(stdout);
		if (!freopen("/dev/null", "w", stdout))
			err_msg("cannot silence standard output: results may print twice");
	}
	return 0;
#endif
}

static void break_world(int err, const char *what)
{
	W.broken = 1;
	W.stopping = 1;
	if (!W.fault.err) {
		W.fault.rank = W.rank;
		W.fault.err = err;
		snprintf(W.fault.host, sizeof(W.fault.host), "%s", comm_host());
		snprintf(W.fault.what, sizeof(W.fault.what), "%s", what);
	}
}

/* Is rank r, on this machine, gone? Only a rank of this boot and pid namespace can be
 * asked (kill(pid, 0)); one elsewhere counts as alive (its launcher ends the job when
 * its host or link is lost). */
static int rank_gone(unsigned r)
{
	const struct comm_peer *p = &W.peers[r];

	if (r == W.rank || !p->machine[0] || p->pid <= 0 ||
	    strcmp(p->machine, W.peers[W.rank].machine))
		return 0;
	return kill((pid_t)p->pid, 0) < 0 && errno == ESRCH;
}

/* While waiting: a stop signal, or (every 100 ms) a rank waited for that died on this
 * machine (SIGKILL, the OOM killer): rank 0 waits for every rank, the others for rank 0.
 * Without this the survivors wait until the launcher notices and kills them, too late
 * for rank 0 to write what was measured. */
static int stop_check(void)
{
	uint64_t now;
	unsigned r;

	if (sig_stop_signalled())
		return 1;
	if (!W.peers || W.dead)
		return W.dead != 0;
	now = clock_ns();
	if (now < W.next_look)
		return 0;
	W.next_look = now + 100000000u;
	for (r = 0; r < (W.rank == 0 ? W.size : 1); r++) {
		if (rank_gone(r)) {
			W.dead = (int)r + 1;
			return 1;
		}
	}
	return 0;
}

/* A gate gave up on rank r, silent for IOBATTERY_RANK_SILENCE: the world breaks. */
static void went_silent(unsigned r)
{
	char what[COMM_WHAT_MAX];
	const char *host = r < W.size ? comm_host_of(r) : "";

	snprintf(what, sizeof(what), "rank %u sent no word within IOBATTERY_RANK_SILENCE", r);
	if (!W.fault.err) {
		break_world(-ETIMEDOUT, what);
		W.fault.rank = r;
		snprintf(W.fault.host, sizeof(W.fault.host), "%s", host);
	} else {
		break_world(-ETIMEDOUT, what);
	}
	err_msg("stopping: rank %u on %s sent no word for IOBATTERY_RANK_SILENCE (%s s): a "
		"cut link or a lost host? the others end without it", r, host,
		getenv("IOBATTERY_RANK_SILENCE") ? getenv("IOBATTERY_RANK_SILENCE") : "?");
}

/* After a wait that gave up (-EINTR from the transport): a signal, or a dead rank. */
static void gave_up(void)
{
	char what[COMM_WHAT_MAX];
	unsigned r;

	if (!W.dead) {
		break_world(-EINTR, "stopped by a signal");
		return;
	}
	r = (unsigned)W.dead - 1;
	snprintf(what, sizeof(what), "rank %u (pid %lld) died", r, (long long)W.peers[r].pid);
	if (!W.fault.err) {
		break_world(-EPIPE, what);
		W.fault.rank = r;
		snprintf(W.fault.host, sizeof(W.fault.host), "%s", W.peers[r].host);
	} else {
		break_world(-EPIPE, what);
	}
	err_msg("stopping: rank %u on %s (pid %lld) died: the others end without it", r,
		W.peers[r].host, (long long)W.peers[r].pid);
}

/* A gate that did not pass: a stop signal, a rank gone silent, or a lost link. */
static void gate_failed(int rc, int rank)
{
	if (rc == -EINTR)
		gave_up();
	else if (rc == -ETIMEDOUT)
		went_silent(rank);
	else
		break_world(rc, "lost the other ranks");
}

int comm_gate(int status, const char *what, struct comm_fault *f,
	      void (*poll)(void *arg), void *arg)
{
	struct comm_gate_msg a, v;
	int rc;

	if (W.stopping) {
		if (f)
			*f = W.fault;
		return W.fault.err ? W.fault.err : -ECANCELED;
	}
	memset(&a, 0, sizeof(a));
	a.seq = ++W.seq;
	a.kind = COMM_GATE_NORMAL;
	a.status = status;
	a.rank = W.rank;
	snprintf(a.what, sizeof(a.what), "%s", what ? what : "");
	rc = W.t->gate(&a, &v, poll, arg, W.size > 1 ? stop_check : NULL);
	if (rc < 0) {
		gate_failed(rc, v.rank);
		if (f)
			*f = W.fault;
		return rc == -EINTR && !W.dead ? -EINTR : -EPIPE;
	}
	if (v.status == 0)
		return 0;
	W.stopping = 1;
	W.fault.rank = v.rank;
	W.fault.err = v.status;
	snprintf(W.fault.host, sizeof(W.fault.host), "%s", comm_host_of(v.rank));
	snprintf(W.fault.what, sizeof(W.fault.what), "%s", v.what);
	if (f)
		*f = W.fault;
	return v.status;
}

int comm_gate_final(void)
{
	struct comm_gate_msg a, v;
	int rc;

	if (W.broken)
		return -EPIPE;
	if (W.size == 1) {
		W.stopping = 0;
		return 0;
	}
	memset(&a, 0, sizeof(a));
	a.kind = COMM_GATE_FINAL;
	a.rank = W.rank;
	a.status = W.fault.err;
	rc = W.t->gate(&a, &v, NULL, NULL, stop_check);
	if (rc < 0) {
		gate_failed(rc, v.rank);
		return -EPIPE;
	}
	if (v.left) {
		W.stopping = 1;
		if (!W.fault.err) {
			W.fault.err = -ECANCELED;
			W.fault.rank = W.rank;
			snprintf(W.fault.what, sizeof(W.fault.what), "a rank left early");
		}
		return -ECANCELED;
	}
	W.stopping = 0;		/* the merge may talk again */
	return 0;
}

int comm_failed(struct comm_fault *f)
{
	if (f)
		*f = W.fault;
	return W.fault.err != 0 || W.stopping || W.broken;
}

int comm_broken(void)
{
	return W.broken;
}

int comm_finish(int status)
{
	struct comm_gate_msg a, v;
	int rc;

	if (W.size == 1) {
		if (W.t != &comm_single)
			W.t->finalize();	/* mpirun -np 1: MPI was joined all the same */
		return status;
	}
	if (W.broken)
		return status;	/* mpirun is ending the job; talking could hang */
	memset(&a, 0, sizeof(a));
	a.kind = COMM_GATE_FINISH;
	a.rank = W.rank;
	a.status = status;
	rc = W.t->gate(&a, &v, NULL, NULL, stop_check);
	if (rc < 0) {
		if (rc == -EINTR && W.dead)
			gave_up();
		else if (rc == -ETIMEDOUT)
			went_silent(v.rank);
		return status ? status : EXIT_FAILED;
	}
	W.t->finalize();
	return v.status;
}

/* Data collectives: only in a world that is neither stopping nor broken. */
static int usable(void)
{
	if (W.broken)
		return -EPIPE;
	return W.stopping ? -ECANCELED : 0;
}

static int done(int rc)
{
	if (rc == -EINTR) {
		gave_up();	/* a stop signal, or a rank that died, ended the wait */
		return -EPIPE;
	}
	if (rc == -EPIPE)
		break_world(rc, "lost the other ranks");
	return rc;
}

int comm_allreduce_u64(uint64_t *v, size_t n, enum comm_op op)
{
	int rc = usable();

	return rc ? rc : done(W.t->allreduce_u64(v, n, op));
}

int comm_allreduce_double(double *v, size_t n, enum comm_op op)
{
	int rc = usable();

	return rc ? rc : done(W.t->allreduce_double(v, n, op));
}

int comm_reduce_sum_u64(const uint64_t *in, uint64_t *out, size_t n)
{
	int rc = usable();

	return rc ? rc : done(W.t->reduce_sum_u64(in, out, n));
}

int comm_gather(const void *mine, size_t len, void *all)
{
	int rc = usable();

	return rc ? rc : done(W.t->gather(mine, len, all));
}

int comm_gatherv(const void *mine, size_t len, void **all, size_t *lens)
{
	int rc = usable();

	*all = NULL;
	return rc ? rc : done(W.t->gatherv(mine, len, all, lens));
}

int comm_bcast(void *buf, size_t len)
{
	int rc = usable();

	return rc ? rc : done(W.t->bcast(buf, len));
}

int comm_barrier(void)
{
	int rc = usable();

	return rc ? rc : done(W.t->barrier());
}

void comm_progress_post(const struct comm_prog *p)
{
	if (!W.stopping && W.size > 1)
		W.t->progress_post(p);
}

int comm_progress_collect(struct comm_prog *tab)
{
	if (W.size == 1)
		return 0;
	if (!tab || W.stopping) {
		/* forget the table even when stopping or broken (this never talks): the
		 * gates that talk then (comm_gate_final, comm_finish) drain what still
		 * comes, into a table its caller has freed otherwise */
		W.t->progress_collect(NULL);
		return 0;
	}
	return W.t->progress_collect(tab);
}

void comm_abort(int status)
{
	W.t->abort(status);
}
