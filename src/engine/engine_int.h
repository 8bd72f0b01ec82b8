/* engine_int.h - helpers shared by the engines themselves; nothing outside src/engine/
 * includes this. */
#ifndef IOB_ENGINE_ENGINE_INT_H
#define IOB_ENGINE_ENGINE_INT_H

#include <stdint.h>

#include "engine/engine.h"

/* Do r with one synchronous system call, as psync does (read, write, pread, pwrite,
 * fsync, fdatasync, copy_file_range, sendfile; DISCARD through engine_discard). Returns
 * the result for r->res: bytes or -errno. The async engines use it for the ops they have
 * no asynchronous form of. Thread-safe. */
int64_t engine_sync_one(struct engine_req *r);

/* Largest transfer one request makes (Linux's MAX_RW_COUNT): a longer len is cut to it
 * and completes short, as read(2) would. */
#define ENGINE_MAX_RW	0x7ffff000u

#endif
