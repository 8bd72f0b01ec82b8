/* fuzz_vnet.c - the durability listener's frame parser (verify/vnet.c, vnet_serve_conn):
 * any bytes as what a peer sends, through a socket pair, into the listener, which
 * writes its journal in a directory made at start (in /dev/shm where there is one, so
 * that the sync per batch is cheap) and removed at exit. A thread drains the listener's
 * answers. What must hold: a peer that is not a writer (stray) makes no journal, and a
 * journal made reads back with the records acknowledged. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "verify/vjournal.h"
#include "verify/vnet.h"


static char fuzz_dir[64];
static char fuzz_journal[128];

static void fuzz_cleanup(void)
{
	unlink(fuzz_journal);
	rmdir(fuzz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/iob-fuzz-vnet.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_journal, sizeof(fuzz_journal), "%s/journal", fuzz_dir);
	atexit(fuzz_cleanup);
	return 0;
}

static void *drain(void *arg)
{
	int fd = *(int *)arg;
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vnet_served st;
	struct vjournal_map m;
	pthread_t th;
	size_t off = 0;
	int sv[2], rc, jfd;

	if (!fuzz_dir[0])
		LLVMFuzzerInitialize(NULL, NULL);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	if (pthread_create(&th, NULL, drain, &sv[0]))
		abort();
	/* the peer's bytes, then its end of the stream: the listener never waits */
	while (off < size) {
		ssize_t w = send(sv[0], data + off, size - off, MSG_NOSIGNAL);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	shutdown(sv[0], SHUT_WR);
	unlink(fuzz_journal);
	memset(&st, 0, sizeof(st));
	rc = vnet_serve_conn(sv[1], fuzz_journal, 1 << 20, &st);
	shutdown(sv[1], SHUT_RDWR);
	pthread_join(th, NULL);
	close(sv[0]);
	close(sv[1]);
	if (st.stray) {
		FUZZ_ASSERT(rc < 0 && access(fuzz_journal, F_OK) < 0);
		return 0;
	}
	jfd = open(fuzz_journal, O_RDONLY | O_CLOEXEC);
	if (jfd < 0)
		return 0;	/* the journal could not be made: the writer was told */
	rc = vjournal_load(jfd, &m);
	close(jfd);
	FUZZ_ASSERT(rc == 0 && m.records == st.records);
	vjournal_map_free(&m);
	unlink(fuzz_journal);
	return 0;
}
