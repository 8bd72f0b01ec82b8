/* waitstate.h - where a process's threads wait, as top's STATE and WCHAN columns show it:
 * one pass reads every thread's state (/proc/PID/task/TID/stat, field 3), its wait
 * channel (.../wchan) when it is not running, and, where readable (root), the system call
 * it is in from its kernel stack (.../stack); an accumulator counts the passes' thread
 * observations per (state, wchan, syscall) and says when wchan is hidden from us (it
 * reads "0" for sleeping threads, or permission is denied).
 * Linux (HAVE_PROC_TASKS); elsewhere waitstate_open returns -ENOSYS. The accumulator and
 * the parsers are pure; a source and an accumulator belong to one thread at a time. */
#ifndef IOB_OBSERVE_WAITSTATE_H
#define IOB_OBSERVE_WAITSTATE_H

#include <stddef.h>
#include <stdint.h>

#define WAITSTATE_NAME_LEN	48
#define WAITSTATE_MAX_KEYS	128

struct waitstate_key {
	char state;				/* 'R', 'S', 'D', 'I', 'T', 'Z', ... */
	char wchan[WAITSTATE_NAME_LEN];		/* kernel function; "" running or hidden */
	char syscall[WAITSTATE_NAME_LEN];	/* "fsync", "write"; "" unknown or none */
};

/* Counts per key, in the order keys were first seen (an index never changes, so a
 * caller can difference the counts of two moments). */
struct waitstate_acc {
	unsigned nkeys;
	struct waitstate_key key[WAITSTATE_MAX_KEYS];
	uint64_t count[WAITSTATE_MAX_KEYS];
	uint64_t passes;	/* sampling passes */
	uint64_t observations;	/* thread observations: the counts plus overflow */
	uint64_t overflow;	/* observations whose key did not fit in the table */
	uint64_t sleeping;	/* observations of a thread that was not running */
	uint64_t wchan_zero;	/* ... whose wchan read "0" (hidden, or woken meanwhile) */
	uint64_t wchan_denied;	/* ... whose wchan could not be read (EACCES, EPERM) */
	uint64_t stack_read;	/* kernel stacks read */
	uint64_t stack_denied;	/* stacks not readable (not root): syscall stays "" */
};

/* Empty the accumulator. */
void waitstate_acc_init(struct waitstate_acc *acc);
/* Count one observation. Returns the key's index, or -ENOSPC when the table is full
 * (counted in overflow). wchan and syscall may be NULL for "". Pure. */
int waitstate_acc_add(struct waitstate_acc *acc, char state, const char *wchan,
		      const char *syscall);
/* 1 when wchan is hidden: sleeping threads were seen and not one wchan read as a name;
 * 0 when names were read; -1 when no sleeping thread was seen (nothing to tell). */
int waitstate_wchan_hidden(const struct waitstate_acc *acc);
/* Count of observations with state st (any wchan). */
uint64_t waitstate_count_state(const struct waitstate_acc *acc, char st);

/* The state letter of a /proc/.../stat line: the first field after the last ')' (the
 * command name may hold spaces and parentheses). Returns the letter, or 0 if malformed. */
char waitstate_parse_stat(const char *text);
/* The system call a kernel stack (/proc/.../stack text: "[<0>] func+0x1/0x2" lines,
 * innermost first) is in: the first frame named __x64_sys_X, __arm64_sys_X, __ia32_sys_X,
 * __se_sys_X, __do_sys_X, ksys_X or sys_X gives "X". out is "" when there is none (a
 * kernel thread). Pure. */
void waitstate_parse_stack(const char *text, char *out, size_t len);

/* The threads of one process. */
struct waitstate_src {
	int pid;		/* 0: this process */
	int exclude_tid;	/* a thread not to count (the sampler's own), 0 none */
	int want_stack;		/* read kernel stacks; cleared after the first denial */
	void *dir;		/* the task directory (DIR *), kept open */
	const int *only;	/* when nonly > 0: count only these threads (a phase's
				 * workers), read by id without listing the directory;
				 * the caller's array, alive while the source is */
	unsigned nonly;
};

/* Open the task directory of pid (0 = this process). Returns 0 or -errno (-ESRCH when
 * the process is gone, -ENOSYS without /proc). Allocates the directory stream once. */
int waitstate_open(struct waitstate_src *src, int pid, int exclude_tid, int want_stack);
/* One pass over the threads (only those of src->only when set; one that has exited is
 * skipped), counted into acc (acc->passes grows by one). Returns the threads observed,
 * or -errno (-ESRCH: the process has exited). Allocates nothing. */
int waitstate_sample(struct waitstate_src *src, struct waitstate_acc *acc);
/* Close the directory. 0 or -errno. Idempotent. */
int waitstate_close(struct waitstate_src *src);

/* The calling thread's id (Linux gettid; 0 elsewhere). */
int waitstate_tid(void);

#endif
