/* taskio.h - one thread's I/O accounting from /proc/self/task/TID/io: the bytes it
 * passed to read- and write-family system calls (rchar, wchar) and the bytes it caused
 * the block layer to read or to write (read_bytes, write_bytes), so a phase can say how
 * many bytes its workers wrote beside how many the device wrote. Linux with task I/O
 * accounting (HAVE_PROC_TASKS); elsewhere -ENOSYS. Thread-safe (nothing shared). */
#ifndef IOB_OBSERVE_TASKIO_H
#define IOB_OBSERVE_TASKIO_H

#include <stddef.h>
#include <stdint.h>

struct taskio {
	uint64_t rchar, wchar;		/* bytes through read/write-family calls */
	uint64_t read_bytes, write_bytes;	/* bytes to and from storage it caused */
	int ok;				/* 1 when read */
};

/* Parse the text of an io file ("rchar: 123" lines; NUL-terminated). 0, or -EINVAL when
 * rchar or wchar is missing. Pure. */
int taskio_parse(const char *text, struct taskio *out);
/* The counters of thread tid of this process now (0: the calling thread). 0 or -errno
 * (-ENOSYS where the system has none); out->ok says which. No allocation. */
int taskio_read(int tid, struct taskio *out);

#endif
