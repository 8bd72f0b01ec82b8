/* devlat.bpf.c - the block-layer latency program (CO-RE; compiled by clang for the BPF
 * target against a vmlinux.h that bpftool writes at build time, never committed). Not a
 * part of the C build: mk/bpf.sh compiles it and makes the skeleton devlat.c loads.
 *
 * Three BTF-typed tracepoints of the block layer: a request inserted into the scheduler's
 * queue (block_rq_insert), handed to the driver (block_rq_issue), completed
 * (block_rq_complete). For requests on the devices the loader named, insert and issue
 * stamp the request (a hash keyed by its address); the completion adds, while the loader
 * has the window open (`enabled`), the device time (issue to completion) and the queue
 * time (insert to issue; 0 for a request issued without passing the scheduler's queue)
 * to the histograms of its class (devlat_abi.h). Requests that complete without times
 * are counted apart: `lost`, one the program never saw inserted or issued (an fsync's
 * empty flush request: the block layer sends the device a flush request of its own and
 * completes the first with it, without tracing its insertion or issue; or one issued
 * before the program was attached), and `unissued`, one seen inserted but not issued.
 * docs/methodology.md, "Block-layer latency", says what the figures mean. */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "observe/devlat_abi.h"

/* The kernel loads tracing programs only with a GPL-compatible licence string. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader before loading. */
const volatile unsigned int ndevs = 0;
const volatile unsigned int devs[DEVLAT_MAX_DEVS] = { 0 };
const volatile int rq_second = 0;	/* insert and issue pass (q, rq): kernels < 5.11 */

/* Written by the loader through the mapped global data; read by the completions. */
unsigned int enabled = 0;
unsigned long long hist[DEVLAT_NOPS][2][DEVLAT_NBUCKETS] = { 0 };
unsigned long long sum[DEVLAT_NOPS][2] = { 0 };
unsigned long long maxv[DEVLAT_NOPS][2] = { 0 };
unsigned long long count[DEVLAT_NOPS] = { 0 };
unsigned long long lost = 0;
unsigned long long unissued = 0;

struct stamp {
	unsigned long long insert_ns, issue_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, unsigned long long);
	__type(value, struct stamp);
} stamps SEC(".maps");

/* request->rq_disk before Linux 5.17, request->q->disk after */
struct request___old {
	struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline unsigned int rq_dev(struct request *rq)
{
	struct gendisk *disk;

	if (bpf_core_field_exists(((struct request___old *)0)->rq_disk))
		disk = BPF_CORE_READ((struct request___old *)rq, rq_disk);
	else
		disk = BPF_CORE_READ(rq, q, disk);
	if (!disk)
		return 0;
	return DEVLAT_MKDEV((unsigned int)BPF_CORE_READ(disk, major),
			    (unsigned int)BPF_CORE_READ(disk, first_minor));
}

static __always_inline int wanted(struct request *rq)
{
	unsigned int d = rq_dev(rq);

	for (unsigned int i = 0; i < DEVLAT_MAX_DEVS; i++) {
		if (i >= ndevs)
			break;
		if (devs[i] == d)
			return 1;
	}
	return 0;
}

static __always_inline unsigned int op_class(struct request *rq)
{
	unsigned int f = BPF_CORE_READ(rq, cmd_flags);
	unsigned int fua = bpf_core_enum_value(enum req_flag_bits, __REQ_FUA);

	switch (f & 0xff) {	/* REQ_OP_MASK: the operation's number */
	case 0:
		return DEVLAT_READ;
	case 1:
		return f & (1u << fua) ? DEVLAT_WRITE_FUA : DEVLAT_WRITE;
	case 2:
		return DEVLAT_FLUSH;
	case 3:
		return DEVLAT_DISCARD;
	}
	return DEVLAT_OTHER;
}

/* The histogram bucket of v ns, as stats/hist.h's hist_index. */
static __always_inline unsigned int bucket(unsigned long long v)
{
	unsigned int msb = 0;
	unsigned long long x = v;

	if (v < (1u << DEVLAT_SUB_BITS))
		return (unsigned int)v;
	if (x >> 32) { x >>= 32; msb += 32; }
	if (x >> 16) { x >>= 16; msb += 16; }
	if (x >> 8) { x >>= 8; msb += 8; }
	if (x >> 4) { x >>= 4; msb += 4; }
	if (x >> 2) { x >>= 2; msb += 2; }
	if (x >> 1)
		msb += 1;
	if (msb >= DEVLAT_MAX_BITS)
		return DEVLAT_NBUCKETS - 1;
	return ((msb - DEVLAT_SUB_BITS + 1) << DEVLAT_SUB_BITS) +
	       (unsigned int)((v >> (msb - DEVLAT_SUB_BITS)) & ((1u << DEVLAT_SUB_BITS) - 1));
}

static __always_inline void add(unsigned int c, unsigned int k, unsigned long long v)
{
	unsigned int b = bucket(v);

	if (c >= DEVLAT_NOPS || k > 1 || b >= DEVLAT_NBUCKETS)
		return;
	__sync_fetch_and_add(&hist[c][k][b], 1);
	__sync_fetch_and_add(&sum[c][k], v);
	/* not atomic: two completions of one class at once on two CPUs may keep the
	 * smaller; the histogram's highest bucket still holds the larger */
	if (v > maxv[c][k])
		maxv[c][k] = v;
}

static __always_inline struct request *rq_arg(unsigned long long *ctx)
{
	return rq_second ? (struct request *)ctx[1] : (struct request *)ctx[0];
}

SEC("tp_btf/block_rq_insert")
int devlat_insert(unsigned long long *ctx)
{
	struct request *rq = rq_arg(ctx);
	unsigned long long key = (unsigned long long)rq;
	struct stamp s = { bpf_ktime_get_ns(), 0 };

	if (wanted(rq))
		bpf_map_update_elem(&stamps, &key, &s, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_rq_issue")
int devlat_issue(unsigned long long *ctx)
{
	struct request *rq = rq_arg(ctx);
	unsigned long long key = (unsigned long long)rq, now = bpf_ktime_get_ns();
	struct stamp *p, s = { 0, 0 };

	p = bpf_map_lookup_elem(&stamps, &key);
	if (p) {
		p->issue_ns = now;	/* a request issued again (requeued): the last issue */
		return 0;
	}
	if (!wanted(rq))
		return 0;
	s.issue_ns = now;
	bpf_map_update_elem(&stamps, &key, &s, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int devlat_complete(unsigned long long *ctx)
{
	struct request *rq = (struct request *)ctx[0];
	unsigned long long key = (unsigned long long)rq, now = bpf_ktime_get_ns();
	struct stamp *p = bpf_map_lookup_elem(&stamps, &key);
	unsigned int c;

	if (!p) {
		if (enabled && wanted(rq))
			__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	if (enabled && !p->issue_ns)	/* completed by the flush machinery, never issued */
		__sync_fetch_and_add(&unissued, 1);
	if (enabled && p->issue_ns) {
		c = op_class(rq);
		if (c < DEVLAT_NOPS) {
			__sync_fetch_and_add(&count[c], 1);
			add(c, DEVLAT_DEV, now - p->issue_ns);
			add(c, DEVLAT_QUEUE, p->insert_ns ? p->issue_ns - p->insert_ns : 0);
		}
	}
	bpf_map_delete_elem(&stamps, &key);
	return 0;
}
