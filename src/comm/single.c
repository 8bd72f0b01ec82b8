/* single.c - the world of one: every gate opens with the caller's own status, every
 * reduction is the identity, a gather copies. Always built; the default transport. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comm/comm_int.h"

static int one_init(int *argc, char ***argv, unsigned *rank, unsigned *size)
{
	(void)argc;
	(void)argv;
	*rank = 0;
	*size = 1;
	return 0;
}

static void one_finalize(void)
{
}

static int one_gate(const struct comm_gate_msg *a, struct comm_gate_msg *v,
		    void (*poll)(void *), void *arg, int (*stop)(void))
{
	(void)poll;
	(void)arg;
	(void)stop;
	*v = *a;
	v->rank = 0;
	v->left = 0;
	return 0;
}

static int one_reduce(uint64_t *v, size_t n, enum comm_op op)
{
	(void)v;
	(void)n;
	(void)op;
	return 0;
}

static int one_reduce_d(double *v, size_t n, enum comm_op op)
{
	(void)v;
	(void)n;
	(void)op;
	return 0;
}

static int one_sum(const uint64_t *in, uint64_t *out, size_t n)
{
	if (out != in)
		memmove(out, in, n * sizeof(*in));
	return 0;
}

static int one_gather(const void *mine, size_t len, void *all)
{
	if (all && all != mine)
		memmove(all, mine, len);
	return 0;
}

static int one_gatherv(const void *mine, size_t len, void **all, size_t *lens)
{
	*all = malloc(len ? len : 1);
	if (!*all)
		return -ENOMEM;
	memcpy(*all, mine, len);
	lens[0] = len;
	return 0;
}

static int one_bcast(void *buf, size_t len)
{
	(void)buf;
	(void)len;
	return 0;
}

static int one_barrier(void)
{
	return 0;
}

static void one_post(const struct comm_prog *p)
{
	(void)p;
}

static int one_collect(struct comm_prog *tab)
{
	(void)tab;
	return 0;
}

__attribute__((noreturn)) static void one_abort(int status)
{
	_exit(status);
}

static const char *one_library(void)
{
	return NULL;
}

const struct comm_transport comm_single = {
	.name = "single",
	.init = one_init,
	.finalize = one_finalize,
	.gate = one_gate,
	.allreduce_u64 = one_reduce,
	.allreduce_double = one_reduce_d,
	.reduce_sum_u64 = one_sum,
	.gather = one_gather,
	.gatherv = one_gatherv,
	.bcast = one_bcast,
	.barrier = one_barrier,
	.progress_post = one_post,
	.progress_collect = one_collect,
	.abort = one_abort,
	.library = one_library,
};
