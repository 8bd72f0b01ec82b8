/* vnet.h - acknowledged generations over TCP, for the two-machine power-cut test
 * (docs/methodology.md, "Write-cache honesty"). The machine under test sends, after each
 * sync returned, the records of the blocks that sync made durable (vjournal.h) to a
 * listener on another machine, and waits until the listener has appended them to its
 * journal and synced it; so when the power is cut, every write the target acknowledged
 * before its last reply is in the listener's journal, and `iobattery verify --journal`
 * can hold the target to it.
 *
 * Wire format, little-endian, every frame starting with a 16-byte head: bytes 0-3 "iobR",
 * 4-5 version 1, 6-7 type, 8-11 count, 12-15 zero; then per type:
 *	HELLO (1, writer -> listener)	8 bytes: the run id
 *	RECS (2, writer -> listener)	count records of 24 bytes: offset (8), generation (8),
 *					file id (4), block length (4)
 *	ACK (3, listener -> writer)	8 bytes: records durable in the journal so far
 *	BYE (4, writer -> listener)	nothing: the writer is done
 *	FAIL (5, listener -> writer)	4 bytes: the listener's errno (its journal failed)
 * The listener answers HELLO with ACK 0 once the journal exists, and each RECS with ACK
 * after the records are synced. It serves one writer and ends when the writer says BYE or
 * the connection ends (a power cut looks like that). No authentication: use it on a
 * network you trust; tests use the loopback only.
 *
 * The handshake identifies both sides: a peer whose first 24 bytes are not a HELLO
 * (a port scan, an HTTP probe, one that stays silent for 10 s) is a stray: it is dropped
 * before any journal is made, reported, and the listener waits for the next peer. No
 * wait is without a limit: the writer's connect (10 s), the answer to its HELLO (10 s)
 * and to each batch (60 s), a send that cannot progress (30 s, both sides), the rest of
 * a frame after its head (30 s), a writer silent for 15 minutes (taken as gone), and TCP
 * keepalive probes on both sides (a dead host or a cut link is seen within about a
 * minute). The listener's journal stops at a size cap (VNET_JOURNAL_MAX unless given):
 * the writer is told EFBIG.
 *
 * Functions return 0 (or a count) or -errno; none prints. Not thread-safe per object. */
#ifndef IOB_VERIFY_VNET_H
#define IOB_VERIFY_VNET_H

#include <stddef.h>
#include <stdint.h>

#include "verify/vjournal.h"

#define VNET_ADDR_MAX 96	/* "[v6 address]:port" */

/* Check "HOST:PORT" (a numeric IPv4 address or a name, or "[IPv6]:PORT"; port 0..65535,
 * 0 only for listening) without connecting: 0 or -EINVAL. listen: port 0 allowed. */
int vnet_addr_check(const char *addr, int listen);

struct vnet_client;

/* Connect to the listener at addr and introduce run run_id; returns once the listener
 * has its journal ready. 0 and *out, or -errno (-EPROTO for a peer that does not speak
 * this protocol, -ECONNREFUSED ...). */
int vnet_connect(struct vnet_client **out, const char *addr, uint64_t run_id);
/* Send n records and wait until the listener has them on disk. 0, or -errno (-EPROTO,
 * -EPIPE when the listener went away, the listener's errno when its journal failed). */
int vnet_send(struct vnet_client *c, const struct vjournal_rec *recs, size_t n);
/* Say goodbye, close, free. 0 or -errno of the goodbye. NULL: 0. */
int vnet_close(struct vnet_client *c);

/* The listener: bind and listen on addr; *fd is the listening socket; the bound address
 * ("127.0.0.1:40311", the port the system chose for port 0) goes to bound. 0 or -errno. */
int vnet_listen(const char *addr, int *fd, char *bound, size_t len);

#define VNET_JOURNAL_MAX (1ull << 30)	/* the listener's journal cap by default */

struct vnet_served {
	uint64_t run_id;		/* the writer's */
	uint64_t records;		/* appended and synced */
	int said_bye;			/* the writer ended cleanly (else: it went away) */
	int stray;			/* the peer was no iobattery writer (no journal) */
	int full;			/* the journal reached its cap */
	char peer[VNET_ADDR_MAX];
};

/* Told of each stray peer dropped: its address and why (-EPROTO: not the protocol,
 * -ETIMEDOUT: silent, -EPIPE: it went away). */
typedef void (*vnet_stray_fn)(void *arg, const char *peer, int err);

/* Accept writers on the listening socket lfd until one says HELLO (strays are dropped,
 * fn told, and the next peer is awaited), create the journal journal_path (it must not
 * exist) for its run, append every batch with a sync and acknowledge it, until the
 * writer says BYE or the connection ends, or the journal would pass max_bytes (0:
 * VNET_JOURNAL_MAX; -EFBIG, st->full). Closes the connection, not lfd. Returns 0 (st
 * says how it ended), -EINTR on a stop signal (fs/scratch.h) while waiting, or -errno
 * (the journal could not be created or written; the writer is told). */
int vnet_serve(int lfd, const char *journal_path, uint64_t max_bytes, vnet_stray_fn fn,
	       void *arg, struct vnet_served *st);
/* Serve the one connection c (vnet_serve's part after accept; st cleared by the caller):
 * as vnet_serve; a peer that does not say HELLO returns its error with st->stray set and
 * makes no journal. Leaves c open. */
int vnet_serve_conn(int c, const char *journal_path, uint64_t max_bytes,
		    struct vnet_served *st);

#endif
