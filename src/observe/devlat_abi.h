/* devlat_abi.h - what the block-layer latency program (devlat.bpf.c, compiled for the
 * kernel) and its loader (devlat.c) share: the request classes and the layout of the
 * histograms in the program's global data. Plain C with no includes, so that both the
 * BPF side (with vmlinux.h) and the user side read it. The histogram is the project's
 * log-linear one (stats/hist.h: 64 sub-buckets per power of two, DEVLAT_NBUCKETS buckets,
 * values from 2^44 ns up in the last), so the loader adds the counts into a struct hist
 * as they are. */
#ifndef IOB_OBSERVE_DEVLAT_ABI_H
#define IOB_OBSERVE_DEVLAT_ABI_H

/* Request classes, from the request's operation and flags. */
#define DEVLAT_READ		0	/* REQ_OP_READ */
#define DEVLAT_WRITE		1	/* REQ_OP_WRITE without FUA */
#define DEVLAT_WRITE_FUA	2	/* REQ_OP_WRITE with REQ_FUA (forced unit access) */
#define DEVLAT_FLUSH		3	/* REQ_OP_FLUSH (the cache flush of an fsync) */
#define DEVLAT_DISCARD		4	/* REQ_OP_DISCARD */
#define DEVLAT_OTHER		5	/* write zeroes, secure erase, zone operations ... */
#define DEVLAT_NOPS		6

/* The two times of a request: device (issue to completion) and queue (insert to issue). */
#define DEVLAT_DEV		0
#define DEVLAT_QUEUE		1

#define DEVLAT_MAX_DEVS		16	/* devices matched (as struct diskstats_set) */
#define DEVLAT_SUB_BITS		6
#define DEVLAT_MAX_BITS		44
#define DEVLAT_NBUCKETS		((DEVLAT_MAX_BITS - DEVLAT_SUB_BITS + 1) << DEVLAT_SUB_BITS)

/* A device as the kernel's dev_t inside the kernel (MKDEV: major << 20 | minor). */
#define DEVLAT_MKDEV(ma, mi)	(((ma) << 20) | (mi))

#endif
