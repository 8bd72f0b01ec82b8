/* vnet.c - the acknowledgement protocol of vnet.h over TCP sockets. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/le.h"
#include "fs/scratch.h"
#include "verify/vnet.h"

#define VNET_HEAD	16
#define VNET_REC	24
#define VNET_VERSION	1
#define VNET_BATCH	1024	/* records per RECS frame */
/* Time limits (vnet.h says why each is what it is) */
#define VNET_CONNECT_MS	10000	/* the writer: the connection is made */
#define VNET_HELLO_MS	10000	/* the writer: the listener answers HELLO; the listener:
				 * a new peer says HELLO */
#define VNET_ACK_MS	60000	/* the writer: a batch is acknowledged (a sync on the other
				 * side, on a slow disk) */
#define VNET_FRAME_MS	30000	/* the listener: the rest of a frame after its head */
#define VNET_IDLE_MS	(15 * 60 * 1000)	/* the listener: a writer silent this long is
						 * taken as gone */
#define VNET_SEND_S	30	/* either side: a send that cannot progress */

enum { T_HELLO = 1, T_RECS = 2, T_ACK = 3, T_BYE = 4, T_FAIL = 5 };

struct vnet_client {
	int fd;
	unsigned char buf[VNET_HEAD + VNET_BATCH * VNET_REC];
};

/* Split "host:port" or "[host]:port" into host and port strings. 0 or -EINVAL. */
static int split(const char *addr, char *host, size_t hlen, char *port, size_t plen,
		 int listen)
{
	const char *colon, *h = addr, *he;
	char *end;
	unsigned long p;

	if (!addr || !*addr || strlen(addr) >= VNET_ADDR_MAX)
		return -EINVAL;
	if (*addr == '[') {
		h = addr + 1;
		he = strchr(h, ']');
		if (!he || he[1] != ':')
			return -EINVAL;
		colon = he + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon || strchr(addr, ':') != colon)
			return -EINVAL;
		he = colon;
	}
	if (he == h || (size_t)(he - h) >= hlen || !colon[1] || strlen(colon + 1) >= plen)
		return -EINVAL;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (*end || errno || p > 65535 || (!p && !listen) || colon[1] == '-' || colon[1] == '+')
		return -EINVAL;
	memcpy(host, h, (size_t)(he - h));
	host[he - h] = 0;
	snprintf(port, plen, "%lu", p);
	return 0;
}

int vnet_addr_check(const char *addr, int listen)
{
	char host[VNET_ADDR_MAX], port[8];

	return split(addr, host, sizeof(host), port, sizeof(port), listen);
}

static int resolve(const char *addr, int listen, struct addrinfo **res)
{
	char host[VNET_ADDR_MAX], port[8];
	struct addrinfo hints;
	int rc = split(addr, host, sizeof(host), port, sizeof(port), listen);

	if (rc)
		return rc;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = listen ? AI_PASSIVE : 0;
	rc = getaddrinfo(host, port, &hints, res);
	if (rc)
		return rc == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	return 0;
}

/* Wait until fd is readable; -EINTR on a stop signal. ms < 0: no time limit. */
static int wait_in(int fd, int ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int waited = 0, n;

	for (;;) {
		if (sig_stop_requested())
			return -EINTR;
		n = poll(&p, 1, 200);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
		waited += 200;
		if (ms >= 0 && waited >= ms)
			return -ETIMEDOUT;
	}
}

static int send_all(int fd, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read exactly n bytes within ms (each wait; < 0 none). 0, -EPIPE at end of stream,
 * -EINTR on a stop signal, -ETIMEDOUT, -errno. */
static int recv_all(int fd, unsigned char *p, size_t n, int ms)
{
	ssize_t r;
	int rc;

	while (n) {
		if ((rc = wait_in(fd, ms)) < 0)
			return rc;
		r = recv(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Keepalive probes (a host that died or a cut link ends the connection within about
 * a minute instead of never) and a limit on a send that cannot progress. */
static void sock_limits(int fd)
{
	struct timeval tv = { VNET_SEND_S, 0 };
	int one = 1;

	(void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
#ifdef TCP_KEEPIDLE
	{
		int idle = 20, intvl = 10, cnt = 4;

		(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
		(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
		(void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	}
#endif
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* connect within VNET_CONNECT_MS (a peer that drops SYNs does not hold the writer for
 * the system's minutes). 0 or -errno. */
static int connect_limited(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct pollfd p = { fd, POLLOUT, 0 };
	int fl = fcntl(fd, F_GETFL), err = 0, waited = 0, n;
	socklen_t el = sizeof(err);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	if (connect(fd, sa, len) < 0) {
		if (errno != EINPROGRESS)
			return -errno;
		for (;;) {
			if (sig_stop_requested())
				return -EINTR;
			n = poll(&p, 1, 200);
			if (n > 0)
				break;
			if (n < 0 && errno != EINTR)
				return -errno;
			waited += 200;
			if (waited >= VNET_CONNECT_MS)
				return -ETIMEDOUT;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
			return -errno;
		if (err)
			return -err;
	}
	return fcntl(fd, F_SETFL, fl) < 0 ? -errno : 0;
}

static void put_head(unsigned char *h, unsigned type, uint32_t count)
{
	memcpy(h, "iobR", 4);
	le_put16(h + 4, VNET_VERSION);
	le_put16(h + 6, (uint16_t)type);
	le_put32(h + 8, count);
	le_put32(h + 12, 0);
}

/* A head read from the peer: its type and count, or -EPROTO. */
static int get_head(const unsigned char *h, uint32_t *count)
{
	if (memcmp(h, "iobR", 4) || le_get16(h + 4) != VNET_VERSION || le_get32(h + 12))
		return -EPROTO;
	*count = le_get32(h + 8);
	return le_get16(h + 6);
}

/* The listener's answer: ACK (0, *n records durable) or FAIL (its -errno). */
static int read_answer(struct vnet_client *c, uint64_t *n, int ms)
{
	unsigned char b[VNET_HEAD + 8];
	uint32_t count;
	int rc = recv_all(c->fd, b, VNET_HEAD, ms), t;

	if (rc)
		return rc;
	t = get_head(b, &count);
	if (t == T_FAIL) {
		if ((rc = recv_all(c->fd, b + VNET_HEAD, 4, VNET_FRAME_MS)))
			return rc;
		rc = (int)le_get32(b + VNET_HEAD);
		return rc > 0 && rc < 4096 ? -rc : -EIO;
	}
	if (t != T_ACK || count)
		return -EPROTO;
	if ((rc = recv_all(c->fd, b + VNET_HEAD, 8, VNET_FRAME_MS)))
		return rc;
	*n = le_get64(b + VNET_HEAD);
	return 0;
}

int vnet_connect(struct vnet_client **out, const char *addr, uint64_t run_id)
{
	struct addrinfo *res, *a;
	struct vnet_client *c;
	uint64_t n;
	int rc, one = 1;

	*out = NULL;
	if ((rc = resolve(addr, 0, &res)))
		return rc;
	c = calloc(1, sizeof(*c));
	if (!c) {
		freeaddrinfo(res);
		return -ENOMEM;
	}
	c->fd = -1;
	rc = -ECONNREFUSED;
	for (a = res; a && c->fd < 0; a = a->ai_next) {
		c->fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (c->fd < 0) {
			rc = -errno;
			continue;
		}
		if ((rc = connect_limited(c->fd, a->ai_addr, a->ai_addrlen)) < 0) {
			close(c->fd);
			c->fd = -1;
		}
	}
	freeaddrinfo(res);
	if (c->fd < 0) {
		free(c);
		return rc;
	}
	(void)setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	sock_limits(c->fd);
	put_head(c->buf, T_HELLO, 0);
	le_put64(c->buf + VNET_HEAD, run_id);
	rc = send_all(c->fd, c->buf, VNET_HEAD + 8);
	if (!rc)
		rc = read_answer(c, &n, VNET_HELLO_MS);
	if (rc) {
		close(c->fd);
		free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int vnet_send(struct vnet_client *c, const struct vjournal_rec *recs, size_t n)
{
	size_t i, k;
	uint64_t got;
	int rc;

	while (n) {
		k = n < VNET_BATCH ? n : VNET_BATCH;
		put_head(c->buf, T_RECS, (uint32_t)k);
		for (i = 0; i < k; i++) {
			unsigned char *p = c->buf + VNET_HEAD + i * VNET_REC;

			le_put64(p, recs[i].offset);
			le_put64(p + 8, recs[i].gen);
			le_put32(p + 16, recs[i].file_id);
			le_put32(p + 20, recs[i].len);
		}
		if ((rc = send_all(c->fd, c->buf, VNET_HEAD + k * VNET_REC)) ||
		    (rc = read_answer(c, &got, VNET_ACK_MS)))
			return rc;
		recs += k;
		n -= k;
	}
	return 0;
}

int vnet_close(struct vnet_client *c)
{
	int rc;

	if (!c)
		return 0;
	put_head(c->buf, T_BYE, 0);
	rc = send_all(c->fd, c->buf, VNET_HEAD);
	if (close(c->fd) != 0 && !rc)
		rc = -errno;
	free(c);
	return rc;
}

/* "addr:port" of a socket address, into buf. */
static void addr_text(const struct sockaddr *sa, socklen_t len, char *buf, size_t blen)
{
	char h[256], p[16];

	if (getnameinfo(sa, len, h, sizeof(h), p, sizeof(p), NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(buf, blen, "?");
	else if (sa->sa_family == AF_INET6)
		snprintf(buf, blen, "[%s]:%s", h, p);
	else
		snprintf(buf, blen, "%s:%s", h, p);
}

int vnet_listen(const char *addr, int *fd, char *bound, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct addrinfo *res, *a;
	int rc, s = -1, one = 1;

	*fd = -1;
	if ((rc = resolve(addr, 1, &res)))
		return rc;
	rc = -EADDRNOTAVAIL;
	for (a = res; a && s < 0; a = a->ai_next) {
		s = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (s < 0) {
			rc = -errno;
			continue;
		}
		(void)setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(s, a->ai_addr, a->ai_addrlen) < 0 || listen(s, 16) < 0) {
			rc = -errno;
			close(s);
			s = -1;
		}
	}
	freeaddrinfo(res);
	if (s < 0)
		return rc;
	if (getsockname(s, (struct sockaddr *)&ss, &sl) == 0)
		addr_text((struct sockaddr *)&ss, sl, bound, len);
	else
		snprintf(bound, len, "%s", addr);
	*fd = s;
	return 0;
}

static int answer(int fd, unsigned type, uint64_t v)
{
	unsigned char b[VNET_HEAD + 8];

	put_head(b, type, 0);
	if (type == T_FAIL) {
		le_put32(b + VNET_HEAD, (uint32_t)v);
		return send_all(fd, b, VNET_HEAD + 4);
	}
	le_put64(b + VNET_HEAD, v);
	return send_all(fd, b, VNET_HEAD + 8);
}

/* The writer's frames until BYE or the end of the connection; the journal stops at
 * max_bytes (the writer is told EFBIG). */
static int serve_loop(int c, struct vjournal *j, uint64_t max_bytes, struct vnet_served *st)
{
	unsigned char head[VNET_HEAD], *buf = malloc(VNET_BATCH * VNET_REC);
	struct vjournal_rec *recs = malloc(VNET_BATCH * sizeof(*recs));
	uint32_t n, i;
	int rc, t;

	if (!buf || !recs) {
		free(buf);
		free(recs);
		return -ENOMEM;
	}
	for (;;) {
		rc = recv_all(c, head, VNET_HEAD, VNET_IDLE_MS);
		if (rc == -EPIPE || rc == -ETIMEDOUT || rc == -ECONNRESET) {
			rc = 0;		/* the writer went away: a power cut looks like this */
			break;
		}
		if (rc)
			break;
		t = get_head(head, &n);
		if (t == T_BYE && !n) {
			st->said_bye = 1;
			break;
		}
		if (t != T_RECS || n == 0 || n > VNET_BATCH) {
			rc = -EPROTO;
			break;
		}
		if ((rc = recv_all(c, buf, (size_t)n * VNET_REC, VNET_FRAME_MS))) {
			/* a batch cut short was never acked */
			rc = rc == -EPIPE || rc == -ETIMEDOUT ? 0 : rc;
			break;
		}
		if (VJOURNAL_HDR_LEN + (st->records + n) * VJOURNAL_REC_LEN > max_bytes) {
			st->full = 1;
			rc = -EFBIG;
			(void)answer(c, T_FAIL, EFBIG);
			break;
		}
		for (i = 0; i < n; i++) {
			const unsigned char *p = buf + i * VNET_REC;

			recs[i].offset = le_get64(p);
			recs[i].gen = le_get64(p + 8);
			recs[i].file_id = le_get32(p + 16);
			recs[i].len = le_get32(p + 20);
		}
		if ((rc = vjournal_ack(j, recs, n))) {
			(void)answer(c, T_FAIL, (uint64_t)-rc);
			break;
		}
		st->records += n;
		if ((rc = answer(c, T_ACK, st->records)))
			break;
	}
	free(buf);
	free(recs);
	return rc;
}

int vnet_serve_conn(int c, const char *journal_path, uint64_t max_bytes,
		    struct vnet_served *st)
{
	unsigned char b[VNET_HEAD + 8];
	struct vjournal *j = NULL;
	uint32_t n;
	int rc, rc2;

	/* the head first: a peer speaking something else is dropped at its first bytes */
	rc = recv_all(c, b, VNET_HEAD, VNET_HELLO_MS);
	if (!rc && (get_head(b, &n) != T_HELLO || n))
		rc = -EPROTO;
	if (!rc)
		rc = recv_all(c, b + VNET_HEAD, 8, VNET_HELLO_MS);
	if (rc) {
		st->stray = 1;	/* not an iobattery writer: no journal made */
		return rc;
	}
	st->run_id = le_get64(b + VNET_HEAD);
	rc = vjournal_create(&j, journal_path, st->run_id);
	if (rc)
		(void)answer(c, T_FAIL, (uint64_t)-rc);
	else
		rc = answer(c, T_ACK, 0);
	if (!rc)
		rc = serve_loop(c, j, max_bytes ? max_bytes : VNET_JOURNAL_MAX, st);
	rc2 = vjournal_close(j);
	return rc ? rc : rc2;
}

int vnet_serve(int lfd, const char *journal_path, uint64_t max_bytes, vnet_stray_fn fn,
	       void *arg, struct vnet_served *st)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int c, rc, one = 1;

	for (;;) {
		memset(st, 0, sizeof(*st));
		if ((rc = wait_in(lfd, -1)) < 0)
			return rc;
		sl = sizeof(ss);
		c = accept(lfd, (struct sockaddr *)&ss, &sl);
		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)
				continue;
			return -errno;
		}
		addr_text((struct sockaddr *)&ss, sl, st->peer, sizeof(st->peer));
		(void)setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		sock_limits(c);
		rc = vnet_serve_conn(c, journal_path, max_bytes, st);
		if (close(c) != 0 && !rc)
			rc = -errno;
		if (!st->stray || rc == -EINTR)
			return rc;
		if (fn)
			fn(arg, st->peer, rc);	/* dropped: wait for the real writer */
	}
}
