/* iozone_verify.c - --verify for the iozone matrix through the request path's hook
 * (runner/vhook.h): one hook per cell, whose blocks are the cell's records. The write
 * tests that go through the engine name each file they open for writing, so that every
 * record they write is stamped (the whole file a new generation per pass; record rewrite
 * (-i 4) writes record 0 again with the generation the file has, since a pass that
 * rewrites one record is no new generation of the file). The verify row reads every
 * file back after the cell's tests, before iozone removes the file, or before fwrite and
 * frewrite when they are the cell's last writes: the C library writes those, not the
 * engine, so nothing of theirs can be stamped, and the row checks what the engine wrote.
 * The row is the one every workload's --verify makes (its keys, its MB/s), with the
 * cell's file size, record size and workers, so that the rows of a matrix stay apart. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runner/vhook.h"
#include "stats/result.h"
#include "stats/result_keys.h"
#include "workload/iozone/iozone_int.h"

/* The pass writes through the engine (the stdio tests do not). */
static int pool_writes(int pass)
{
	return (iozone_pass_writes(pass) || pass == IOZ_RANDOM_MIX) && !iozone_pass(pass)->stdio;
}

int ioz_verify_point(const int *passes)
{
	int k, last = -1, n;

	for (n = 0; passes[n] >= 0; n++)
		if (pool_writes(passes[n]))
			last = n;
	if (last < 0)
		return -1;	/* nothing the hook could stamp */
	for (k = last + 1; k < n; k++)
		if (iozone_pass_writes(passes[k]) && iozone_pass(passes[k])->stdio)
			return k;
	return n;
}

int ioz_verify_start(struct runner *rc, struct ioz_pass *p)
{
	unsigned i;
	int r;

	p->vh = NULL;
	for (i = 0; i < p->nw; i++)
		p->job[i].vgen = 0;
	/* iozone's records are random bytes: so is every block's payload */
	r = vhook_start(&p->vh, rc, (uint32_t)p->rec, VBLOCK_DATA_RANDOM, VHOOK_F_PASSES);
	for (i = 0; !r && p->vh && i < p->nw; i++)
		r = vhook_attach(p->vh, &p->job[i].io);
	return r;
}

int ioz_verify_file(struct ioz_pass *p, struct ioz_job *j, int fd)
{
	uint64_t gen;

	if (!p->vh || j->reads || iozone_pass(p->pass)->stdio)
		return 0;
	if (p->pass == IOZ_RECORD_REWRITE)
		gen = j->vgen ? j->vgen : (j->vgen = 1);
	else
		gen = ++j->vgen;
	return vhook_file(&j->io, fd, j->path, (uint32_t)(j - p->job), gen);
}

/* The verify row (the run's last row, vhook_verify's) gets the cell's params. */
static void cell_row(struct runner *rc, const struct ioz_pass *p)
{
	struct row *row = rc->run->nrows ? rc->run->rows[rc->run->nrows - 1] : NULL;
	unsigned long long fkb = (unsigned long long)(p->nrec * p->rec / 1024);
	unsigned long long rkb = (unsigned long long)(p->rec / 1024);

	if (!row || !row->phase || strcmp(row->phase, "verify"))
		return;
	kv_set(&row->params, RK_IOZ_FILE_KB, "%llu", fkb);
	kv_set(&row->params, RK_IOZ_RECLEN_KB, "%llu", rkb);
	kv_set(&row->params, RK_IOZ_WORKERS, "%u", p->nw);
	kv_set(&row->params, RK_ROW_DETAIL, "%llu kB/%llu kB, read back%s", fkb, rkb,
	       rc->verify && rc->verify->after_drop ? ", cache dropped" : "");
}

int ioz_verify_run(struct runner *rc, struct ioz_pass *p)
{
	int r;

	if (!p->vh)
		return 0;
	r = vhook_verify(p->vh, rc, IOZONE_WORKLOAD);
	cell_row(rc, p);
	/* bad blocks fail the verify row (exit 1) and the matrix goes on */
	return r > 0 ? 0 : r;
}

int ioz_verify_stop(struct ioz_job *job, unsigned nw, struct vhook *vh)
{
	unsigned i;

	if (!vh)
		return 0;
	/* the next cell attaches its own hook to the same request pools */
	for (i = 0; i < nw; i++)
		vhook_detach(&job[i].io);
	return vhook_stop(vh);
}
