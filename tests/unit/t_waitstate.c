/* t_waitstate.c - thread states and wait channels: the stat and stack parsers, the
 * accumulator (keys, overflow, the hidden-wchan verdict), and a live pass over this
 * process with one thread asleep in a condition wait. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "test.h"
#include "observe/waitstate.h"

static void t_parse_stat(void)
{
	CHECK(waitstate_parse_stat("25292 (sleep) S 25289 25289 21411 0 -1 4194304") == 'S');
	/* a command name with spaces and parentheses: the state follows the last ')' */
	CHECK(waitstate_parse_stat("7 (a) b) (c) D 1 1 1") == 'D');
	CHECK(waitstate_parse_stat("9 (kworker/0:1-events) I 2 0 0") == 'I');
	CHECK(waitstate_parse_stat("9 (x)R 2") == 0);
	CHECK(waitstate_parse_stat("9 (x) ") == 0);
	CHECK(waitstate_parse_stat("no parens") == 0);
}

static void t_parse_stack(void)
{
	char out[WAITSTATE_NAME_LEN];

	waitstate_parse_stack("[<0>] jbd2_log_wait_commit+0xb3/0x120\n"
			      "[<0>] ext4_sync_file+0x1c5/0x380\n"
			      "[<0>] do_fsync+0x38/0x70\n"
			      "[<0>] __x64_sys_fsync+0x10/0x20\n"
			      "[<0>] do_syscall_64+0x71/0x290\n"
			      "[<0>] entry_SYSCALL_64_after_hwframe+0x76/0x7e\n", out, sizeof(out));
	CHECK(strcmp(out, "fsync") == 0);
	waitstate_parse_stack("[<0>] folio_wait_bit_common+0x12/0x30\n"
			      "[<0>] vfs_read+0xbb/0x3d0\n"
			      "[<0>] ksys_read+0x6f/0xf0\n"
			      "[<0>] do_syscall_64+0x71/0x290\n", out, sizeof(out));
	CHECK(strcmp(out, "read") == 0);
	waitstate_parse_stack("[<0>] __switch_to+0x1/0x2\n"
			      "[<0>] __arm64_sys_fdatasync+0x1/0x2\n"
			      "[<0>] invoke_syscall+0x1/0x2\n", out, sizeof(out));
	CHECK(strcmp(out, "fdatasync") == 0);
	/* a kernel thread: no system call */
	waitstate_parse_stack("[<0>] kjournald2+0x1/0x2\n[<0>] kthread+0x1/0x2\n"
			      "[<0>] ret_from_fork+0x1/0x2\n", out, sizeof(out));
	CHECK(out[0] == '\0');
	waitstate_parse_stack("", out, sizeof(out));
	CHECK(out[0] == '\0');
	/* a small buffer cuts the name */
	waitstate_parse_stack("[<0>] __x64_sys_io_uring_enter+0x1/0x2\n", out, 5);
	CHECK(strcmp(out, "io_u") == 0);
}

static void t_acc(void)
{
	static struct waitstate_acc acc;
	char w[16];

	waitstate_acc_init(&acc);
	CHECK(waitstate_wchan_hidden(&acc) == -1);
	CHECK(waitstate_acc_add(&acc, 'R', NULL, NULL) == 0);
	CHECK(waitstate_acc_add(&acc, 'D', "jbd2_log_wait_commit", "fsync") == 1);
	CHECK(waitstate_acc_add(&acc, 'D', "jbd2_log_wait_commit", "") == 2);
	CHECK(waitstate_acc_add(&acc, 'D', "jbd2_log_wait_commit", "fsync") == 1);
	CHECK(waitstate_acc_add(&acc, 'S', "jbd2_log_wait_commit", "fsync") == 3);
	CHECK(waitstate_acc_add(&acc, 'R', "", "") == 0);
	CHECK(acc.nkeys == 4 && acc.observations == 6);
	CHECK_EQ_U64(acc.count[0], 2);
	CHECK_EQ_U64(acc.count[1], 2);
	CHECK_EQ_U64(waitstate_count_state(&acc, 'D'), 3);
	CHECK_EQ_U64(waitstate_count_state(&acc, 'Z'), 0);
	/* a name longer than the key keeps its first 47 characters */
	CHECK(waitstate_acc_add(&acc, 'S', "a_very_long_kernel_function_name_that_goes_on_and_on_"
				"and_on", NULL) == 4);
	CHECK(strlen(acc.key[4].wchan) == WAITSTATE_NAME_LEN - 1);
	/* a full table counts the rest as overflow */
	for (int i = 0; acc.nkeys < WAITSTATE_MAX_KEYS; i++) {
		snprintf(w, sizeof(w), "f%d", i);
		CHECK(waitstate_acc_add(&acc, 'S', w, NULL) >= 0);
	}
	CHECK(waitstate_acc_add(&acc, 'S', "one_more", NULL) == -ENOSPC);
	CHECK_EQ_U64(acc.overflow, 1);
	CHECK(waitstate_acc_add(&acc, 'R', NULL, NULL) == 0);	/* known keys still count */

	/* the verdict: hidden when no sleeping observation had a name */
	acc.sleeping = 10;
	acc.wchan_zero = 6;
	acc.wchan_denied = 4;
	CHECK(waitstate_wchan_hidden(&acc) == 1);
	acc.wchan_denied = 3;
	CHECK(waitstate_wchan_hidden(&acc) == 0);
}

static pthread_mutex_t t_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t t_cv = PTHREAD_COND_INITIALIZER;
static int t_asleep, t_wake;

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&t_mu);
	t_asleep = 1;
	while (!t_wake)
		pthread_cond_wait(&t_cv, &t_mu);
	pthread_mutex_unlock(&t_mu);
	return NULL;
}

static void t_live(void)
{
	static struct waitstate_acc acc;
	struct waitstate_src src;
	pthread_t th;
	int n, rc, named = 0;

	rc = waitstate_open(&src, 0, 0, 1);
#ifndef HAVE_PROC_TASKS
	CHECK(rc == -ENOSYS);
	return;
#endif
	CHECK(rc == 0);
	if (rc)
		return;
	CHECK(pthread_create(&th, NULL, sleeper, NULL) == 0);
	/* wait until the other thread sleeps in the kernel (a futex wait), not just holds
	 * the flag: passes until it shows as S */
	waitstate_acc_init(&acc);
	for (;;) {
		pthread_mutex_lock(&t_mu);
		n = t_asleep;
		pthread_mutex_unlock(&t_mu);
		if (n) {
			waitstate_acc_init(&acc);
			CHECK(waitstate_sample(&src, &acc) == 2);
			if (waitstate_count_state(&acc, 'S'))
				break;
		}
	}
	/* four passes more: the first S may have been caught on its way to sleep, when
	 * wchan still reads 0 */
	for (int i = 0; i < 4; i++)
		CHECK(waitstate_sample(&src, &acc) == 2);
	CHECK(acc.passes == 5 && acc.observations == 10);
	/* this thread is running: R, no wchan read */
	CHECK(waitstate_count_state(&acc, 'R') == 5);
	CHECK(acc.sleeping >= 1 && acc.sleeping + 5 == acc.observations);
	for (unsigned i = 0; i < acc.nkeys; i++)
		if (acc.key[i].state == 'S' && acc.key[i].wchan[0])
			named = 1;
	/* the sleeper's wchan is a name, unless this system hides it (then say so) */
	CHECK(named == !waitstate_wchan_hidden(&acc));
	printf("(wchan %s, stack %s)\n", named ? "visible" : "hidden",
	       acc.stack_read ? "read" : "not readable");
	/* the excluded thread is not counted */
	waitstate_close(&src);
	CHECK(waitstate_open(&src, 0, waitstate_tid(), 0) == 0);
	waitstate_acc_init(&acc);
	CHECK(waitstate_sample(&src, &acc) == 1);
	CHECK(acc.stack_read == 0 && waitstate_count_state(&acc, 'R') == 0);
	CHECK(waitstate_close(&src) == 0);
	CHECK(waitstate_close(&src) == 0);

	pthread_mutex_lock(&t_mu);
	t_wake = 1;
	pthread_cond_signal(&t_cv);
	pthread_mutex_unlock(&t_mu);
	CHECK(pthread_join(th, NULL) == 0);
	/* a process that does not exist */
	CHECK(waitstate_open(&src, 0x3fffffff, 0, 0) == -ESRCH);
}

int main(void)
{
	RUN(t_parse_stat);
	RUN(t_parse_stack);
	RUN(t_acc);
	RUN(t_live);
	return test_done();
}
