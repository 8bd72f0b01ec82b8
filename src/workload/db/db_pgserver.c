/* db_pgserver.c - a throwaway PostgreSQL server for `iobattery db --pg-local`: initdb in
 * the scratch directory (so the database lives on the file system under test), the
 * postmaster started as our child in its own session (a terminal's ^C reaches only us),
 * unix socket only in a private directory, then stopped and reaped whatever happens.
 * As root, initdb and postgres run as the 'postgres' user (or 'nobody') because they
 * refuse root. Built only with HAVE_LIBPQ (readiness is checked with PQping, from libpq
 * as db_pq.h loads it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "fs/scratch.h"
#include "workload/db/db.h"

#ifdef __linux__
#include <sys/ipc.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#endif

#ifdef HAVE_LIBPQ
#include "workload/db/db_pq.h"

#define PG_USER		"iobattery"	/* the cluster's superuser name */
#define PG_DBNAME	"perftst"	/* the seeds' database name */

struct db_pgserver {
	pid_t pid;			/* the postmaster, our child; 0 when none */
	int exited, status;		/* set once reaped */
	int drop;			/* run as uid/gid (we are root) */
	uid_t uid;
	gid_t gid;
	int sock_slot;			/* cleanup slot of a socket dir outside DIR, or -1 */
	int port;
	char bindir[1024];
	char base[1024];		/* DIR/pg, owned by the server's user */
	char datadir[1100];
	char sockdir[1100];
	char log[1100];
	char conninfo[1400];
};

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int has_tools(const char *dir)
{
	char p[1100];

	snprintf(p, sizeof(p), "%s/initdb", dir);
	if (access(p, X_OK))
		return 0;
	snprintf(p, sizeof(p), "%s/postgres", dir);
	return access(p, X_OK) == 0;
}

/* The directory holding initdb and postgres. 0 or -ENOENT. */
static int find_bindir(const char *want, char *out, size_t len)
{
	FILE *f;
	glob_t g;
	size_t k;
	int best = -1;

	if (want) {
		snprintf(out, len, "%s", want);
		return has_tools(out) ? 0 : -ENOENT;
	}
	f = popen("pg_config --bindir 2>/dev/null", "r");
	if (f) {
		if (fgets(out, (int)len, f)) {
			out[strcspn(out, "\n")] = '\0';
			if (pclose(f) == 0 && has_tools(out))
				return 0;
		} else {
			pclose(f);
		}
	}
	if (glob("/usr/lib/postgresql/*/bin", 0, NULL, &g) == 0) {
		for (k = 0; k < g.gl_pathc; k++) {
			int v = atoi(g.gl_pathv[k] + strlen("/usr/lib/postgresql/"));

			if (v > best && has_tools(g.gl_pathv[k])) {
				best = v;
				snprintf(out, len, "%s", g.gl_pathv[k]);
			}
		}
		globfree(&g);
	}
	return best >= 0 ? 0 : -ENOENT;
}

/* The child side of a fork: own session, output to the log, drop to the server's user,
 * die with us, exec. Never returns. */
static void child_exec(const struct db_pgserver *s, pid_t parent, int deathsig,
		       char *const argv[])
{
	int fd;

	setsid();
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	if (s->drop && (setgroups(0, NULL) || setgid(s->gid) || setuid(s->uid)))
		_exit(126);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, deathsig);
#else
	(void)deathsig;
#endif
	if (getppid() != parent)
		_exit(126);
	fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (chdir(s->base))
		_exit(126);
	execv(argv[0], argv);
	_exit(127);
}

/* The last line of the server log that says something, as the reason for a failure. */
static void log_tail(const struct db_pgserver *s, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(s->log, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "ERROR") || strstr(line, "FATAL") || strstr(line, "error") ||
		    strstr(line, "could not") || strstr(line, "cannot")) {
			size_t n = strlen(line);

			if (n >= len)
				n = len - 1;
			memcpy(buf, line, n);
			buf[n] = '\0';
		}
	}
	fclose(f);
}

/* Run initdb and wait for it. 0 or -errno with the reason in err. */
static int run_initdb(struct db_pgserver *s, char *err, size_t errlen)
{
	char prog[1100], dopt[1200], tail[400];
	char *argv[] = { prog, dopt, "-U", PG_USER, "-A", "trust", "-E", "UTF8",
			 "--locale=C", "--no-sync", NULL };
	pid_t parent = getpid(), pid;
	int st;

	snprintf(prog, sizeof(prog), "%s/initdb", s->bindir);
	snprintf(dopt, sizeof(dopt), "--pgdata=%s", s->datadir);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child_exec(s, parent, SIGKILL, argv);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (sig_stop_requested()) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			snprintf(err, errlen, "interrupted during initdb");
			return -EINTR;
		}
		sleep_ms(20);
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	log_tail(s, tail, sizeof(tail));
	snprintf(err, errlen, "initdb failed (%s %d)%s%s",
		 WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
		 *tail ? ": " : "", tail);
	return -EIO;
}

int db_pgserver_alive(void *arg)
{
	struct db_pgserver *s = arg;
	pid_t r;

	if (!s->pid || s->exited)
		return 0;
	r = waitpid(s->pid, &s->status, WNOHANG);
	if (r == s->pid || (r < 0 && errno == ECHILD)) {
		s->exited = 1;
		return 0;
	}
	return 1;
}

/* Start the postmaster and wait until it answers. 0 or -errno with err. */
static int run_postmaster(struct db_pgserver *s, char *err, size_t errlen)
{
	char prog[1100], popt[32], ping[1400], tail[400];
	char *argv[] = { prog, "-D", s->datadir, "-k", s->sockdir, "-p", popt,
			 "-c", "listen_addresses=", NULL };
	const struct db_pq *pq = db_pq_get(err, errlen);
	pid_t parent = getpid();
	int waited;

	if (!pq)
		return -ENOENT;

	snprintf(prog, sizeof(prog), "%s/postgres", s->bindir);
	snprintf(popt, sizeof(popt), "%d", s->port);
	s->pid = fork();
	if (s->pid < 0) {
		s->pid = 0;
		return -errno;
	}
	if (s->pid == 0)
		child_exec(s, parent, SIGQUIT, argv);
	snprintf(ping, sizeof(ping), "host=%s port=%d user=" PG_USER " dbname=postgres",
		 s->sockdir, s->port);
	for (waited = 0; waited < 120000; waited += 50) {
		if (!db_pgserver_alive(s)) {
			log_tail(s, tail, sizeof(tail));
			snprintf(err, errlen, "the server did not start%s%s",
				 *tail ? ": " : "", tail);
			return -EIO;
		}
		if (sig_stop_requested()) {
			snprintf(err, errlen, "interrupted while the server started");
			return -EINTR;
		}
		if (pq->ping(ping) == PQPING_OK)
			return 0;
		sleep_ms(50);
	}
	snprintf(err, errlen, "the server did not accept connections within 120 s");
	return -ETIMEDOUT;
}

/* As root: can the server's user reach and write its directory (and the socket one)?
 * A child drops to that user and tries. 1 yes, 0 no. */
static int user_can_reach(const struct db_pgserver *s)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 1;	/* cannot tell; initdb will say */
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(s->gid) || setuid(s->uid))
			_exit(1);
		_exit(access(s->base, R_OK | W_OK | X_OK) || access(s->sockdir, W_OK | X_OK));
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Make DIR/pg (and a short socket directory when DIR's path is too long for a unix
 * socket name) owned by the server's user. */
static int make_dirs(struct db_pgserver *s, const char *dir, char *err, size_t errlen)
{
	char tmpl[] = "/tmp/iobattery-pgsock.XXXXXX";

	snprintf(s->base, sizeof(s->base), "%s/pg", dir);
	snprintf(s->datadir, sizeof(s->datadir), "%s/data", s->base);
	snprintf(s->log, sizeof(s->log), "%s/server.log", s->base);
	snprintf(s->sockdir, sizeof(s->sockdir), "%s", s->base);
	if (s->drop && chmod(dir, 0711)) {
		snprintf(err, errlen, "chmod '%s': %s", dir, strerror(errno));
		return -errno;
	}
	if (mkdir(s->base, 0700) || (s->drop && chown(s->base, s->uid, s->gid))) {
		snprintf(err, errlen, "cannot make '%s': %s", s->base, strerror(errno));
		return -errno;
	}
	/* sun_path holds 108 bytes: DIR/.s.PGSQL.NNNNN.lock must fit */
	if (strlen(s->sockdir) + 24 >= 108) {
		if (!mkdtemp(tmpl) || (s->drop && chown(tmpl, s->uid, s->gid))) {
			snprintf(err, errlen, "cannot make a socket directory: %s",
				 strerror(errno));
			return -errno;
		}
		snprintf(s->sockdir, sizeof(s->sockdir), "%s", tmpl);
		s->sock_slot = cleanup_register(tmpl, 1);
	}
	if (s->drop && !user_can_reach(s)) {
		struct passwd *pw = getpwuid(s->uid);

		snprintf(err, errlen, "the '%s' user that runs the server cannot reach '%s': "
			 "the directory and its parents must be searchable by others (chmod o+x)",
			 pw ? pw->pw_name : "?", s->base);
		return -EACCES;
	}
	return 0;
}

static int pick_user(struct db_pgserver *s, char *err, size_t errlen)
{
	struct passwd *pw;

	if (geteuid() != 0)
		return 0;
	pw = getpwnam("postgres");
	if (!pw)
		pw = getpwnam("nobody");
	if (!pw || pw->pw_uid == 0) {
		snprintf(err, errlen, "running as root and no 'postgres' or 'nobody' user to "
			 "run the server as");
		return -EPERM;
	}
	s->drop = 1;
	s->uid = pw->pw_uid;
	s->gid = pw->pw_gid;
	return 0;
}

int db_pgserver_start(const char *dir, const char *bindir, struct db_pgserver **out,
		      char *err, size_t errlen)
{
	struct db_pgserver *s;
	int rc, fd;

	*out = NULL;
	if (!db_pq_get(err, errlen))
		return -ENOENT;	/* before initdb: the server could not be used */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sock_slot = -1;
	s->port = 50000 + (int)(getpid() % 10000);
	if (find_bindir(bindir, s->bindir, sizeof(s->bindir))) {
		snprintf(err, errlen, "postgresql server binaries (initdb, postgres) not found%s%s"
			 "%s", bindir ? " in '" :
			 " (pg_config --bindir, /usr/lib/postgresql/*/bin)",
			 bindir ? bindir : "", bindir ? "'" : "");
		free(s);
		return -ENOENT;
	}
#ifdef __linux__
	/* orphans of a killed postmaster become our children, so we can reap them */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
	rc = pick_user(s, err, errlen);
	if (rc == 0)
		rc = make_dirs(s, dir, err, errlen);
	if (rc == 0)
		rc = run_initdb(s, err, errlen);
	if (rc == 0) {
		/* initdb ran without fsync; flush its files now so that their write-back
		 * does not count in the run */
		fd = open(s->datadir, O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
#ifdef HAVE_SYNCFS
			syncfs(fd);
#else
			sync();
#endif
			close(fd);
		}
		rc = run_postmaster(s, err, errlen);
	}
	snprintf(s->conninfo, sizeof(s->conninfo),
		 "host=%s port=%d user=" PG_USER " dbname=postgres", s->sockdir, s->port);
	if (rc == 0)
		rc = db_pg_oneshot(s->conninfo, "CREATE DATABASE " PG_DBNAME, err, errlen);
	if (rc < 0) {
		db_pgserver_stop(s);
		return rc;
	}
	snprintf(s->conninfo, sizeof(s->conninfo),
		 "host=%s port=%d user=" PG_USER " dbname=" PG_DBNAME, s->sockdir, s->port);
	*out = s;
	return 0;
}

const char *db_pgserver_conninfo(const struct db_pgserver *s)
{
	return s->conninfo;
}

const char *db_pgserver_datadir(const struct db_pgserver *s)
{
	return s->datadir;
}

pid_t db_pgserver_pid(const struct db_pgserver *s)
{
	return s->pid;
}

/* Wait up to ms for the postmaster to exit. 1 when it did. */
static int wait_exit(struct db_pgserver *s, long ms)
{
	long t;

	for (t = 0; t <= ms; t += 20) {
		if (!db_pgserver_alive(s))
			return 1;
		sleep_ms(20);
	}
	return 0;
}

#if defined(__linux__) && defined(HAVE_PROC_STAT)	/* reads /proc/PID/stat */
/* Kill and reap the server's processes left behind by a postmaster that died: they were
 * reparented to us (the subreaper flag). Only children of ours named postgres are
 * touched. Returns how many were found. */
static int reap_orphans(void)
{
	glob_t g;
	size_t k;
	int found = 0, round;

	for (round = 0; round < 50; round++) {
		int n = 0;

		if (glob("/proc/[0-9]*/stat", 0, NULL, &g))
			return found;
		for (k = 0; k < g.gl_pathc; k++) {
			char buf[512], *rp;
			int pid, ppid;
			FILE *f = fopen(g.gl_pathv[k], "r");

			if (!f)
				continue;
			if (!fgets(buf, sizeof(buf), f)) {
				fclose(f);
				continue;
			}
			fclose(f);
			rp = strrchr(buf, ')');
			if (!rp || sscanf(buf, "%d", &pid) != 1 ||
			    sscanf(rp + 1, " %*c %d", &ppid) != 1)
				continue;
			if (ppid != getpid() || !strstr(buf, "(postgres"))
				continue;
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			n++;
		}
		globfree(&g);
		found += n;
		if (!n && round > 0)
			break;
		sleep_ms(20);
	}
	return found;
}

/* The head of PostgreSQL's main shared memory segment (storage/pg_shmem.h), as far as
 * the handle of its dynamic shared memory control segment. */
struct pg_shmem_head {
	int32_t magic;			/* 679834894 */
	int32_t creator_pid;
	size_t totalsize, freeoffset;
	uint32_t dsm_control;
};

/* The server's file /dev/shm/PostgreSQL.HANDLE, removed when it is its user's. */
static void unlink_dsm(const struct db_pgserver *s, uint32_t handle)
{
	struct stat st;
	char p[64];

	snprintf(p, sizeof(p), "/dev/shm/PostgreSQL.%u", (unsigned)handle);
	if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_uid == (s->drop ? s->uid : geteuid()))
		unlink(p);
}

/* The dynamic shared memory control segment (storage/ipc/dsm.c): a header (magic
 * 0x9a503d32, nitems, maxitems) and maxitems slots of 40 bytes on LP64 whose first
 * two words are a segment handle and its reference count. Each live segment is removed,
 * as PostgreSQL itself does at its next start after a crash; nothing is touched unless
 * the size and the header agree with that layout. */
static void remove_dsm_items(const struct db_pgserver *s, uint32_t control)
{
	char p[64];
	unsigned char *buf;
	uint32_t hdr[3], item[2];
	struct stat st;
	size_t k;
	int fd;

	snprintf(p, sizeof(p), "/dev/shm/PostgreSQL.%u", (unsigned)control);
	fd = open(p, O_RDONLY | O_NOFOLLOW);
	if (fd < 0)
		return;
	buf = fstat(fd, &st) == 0 && st.st_size >= 16 && st.st_size <= (1 << 20) ?
	      malloc((size_t)st.st_size) : NULL;
	if (buf && read(fd, buf, (size_t)st.st_size) == st.st_size) {
		memcpy(hdr, buf, sizeof(hdr));
		if (sizeof(void *) == 8 && hdr[0] == 0x9a503d32u && hdr[1] <= hdr[2] &&
		    16 + (size_t)hdr[2] * 40 == (size_t)st.st_size) {
			for (k = 0; k < hdr[1]; k++) {
				memcpy(item, buf + 16 + k * 40, sizeof(item));
				if (item[1] && item[0] && item[0] != control)
					unlink_dsm(s, item[0]);
			}
		}
	}
	free(buf);
	close(fd);
}

/* A killed postmaster leaves its dynamic shared memory segments in /dev/shm (with the
 * default dynamic_shared_memory_type=posix); the control segment's handle is in the
 * System V segment's header. Remove them when they are the server's. */
static void remove_dsm(const struct db_pgserver *s, int shmid)
{
	struct pg_shmem_head h;
	void *a = shmat(shmid, NULL, SHM_RDONLY);

	if (a == (void *)-1)
		return;
	memcpy(&h, a, sizeof(h));
	shmdt(a);
	if (h.magic != 679834894 || h.creator_pid != (int32_t)s->pid || !h.dsm_control)
		return;
	remove_dsm_items(s, h.dsm_control);
	unlink_dsm(s, h.dsm_control);
}

/* After an unclean death, remove the server's System V shared memory segment (its key
 * and id are on line 7 of postmaster.pid) when nobody is attached any more. */
static void remove_shm(const struct db_pgserver *s)
{
	char p[1200], line[256];
	FILE *f;
	int n = 0;
	long key, id;
	struct shmid_ds ds;

	snprintf(p, sizeof(p), "%s/postmaster.pid", s->datadir);
	f = fopen(p, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && ++n < 7)
		;
	fclose(f);
	if (n != 7 || sscanf(line, "%ld %ld", &key, &id) != 2)
		return;
	if (shmctl((int)id, IPC_STAT, &ds) == 0 && ds.shm_nattch == 0 &&
	    ds.shm_perm.uid == (s->drop ? s->uid : geteuid())) {
		remove_dsm(s, (int)id);
		shmctl((int)id, IPC_RMID, NULL);
	}
}
#else
static int reap_orphans(void)
{
	return 0;
}

static void remove_shm(const struct db_pgserver *s)
{
	(void)s;
}
#endif

int db_pgserver_stop(struct db_pgserver *s)
{
	int rc = 0, unclean;

	if (!s)
		return 0;
	if (s->pid && !s->exited) {
		/* fast shutdown, then immediate shutdown, then kill */
		kill(s->pid, SIGINT);
		if (!wait_exit(s, 60000)) {
			kill(s->pid, SIGQUIT);
			if (!wait_exit(s, 5000)) {
				kill(s->pid, SIGKILL);
				if (!wait_exit(s, 5000))
					rc = -ETIMEDOUT;
			}
		}
	}
	unclean = s->pid && s->exited &&
		  !(WIFEXITED(s->status) && WEXITSTATUS(s->status) == 0);
	if (reap_orphans() > 0)
		unclean = 1;
	if (unclean)
		remove_shm(s);
	if (s->sock_slot >= 0)
		cleanup_remove(s->sock_slot);
	free(s);
	return rc;
}

#else /* !HAVE_LIBPQ */

int db_pgserver_start(const char *dir, const char *bindir, struct db_pgserver **out,
		      char *err, size_t errlen)
{
	(void)dir; (void)bindir;
	*out = NULL;
	snprintf(err, errlen, "this iobattery was built without libpq");
	return -ENOTSUP;
}

const char *db_pgserver_conninfo(const struct db_pgserver *s)
{
	(void)s;
	return "";
}

const char *db_pgserver_datadir(const struct db_pgserver *s)
{
	(void)s;
	return "";
}

pid_t db_pgserver_pid(const struct db_pgserver *s)
{
	(void)s;
	return 0;
}

int db_pgserver_alive(void *arg)
{
	(void)arg;
	return 0;
}

int db_pgserver_stop(struct db_pgserver *s)
{
	(void)s;
	return 0;
}

#endif
