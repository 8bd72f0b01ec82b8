/* affinity.h - binding the calling thread to CPUs (fio's cpus_allowed, numa_cpu_nodes)
 * and its memory to NUMA nodes (numa_mem_policy), through the kernel's own interfaces
 * (sched_setaffinity, the node CPU lists in sysfs, set_mempolicy); no libnuma needed;
 * and its I/O priority (fio's prio, prioclass: ioprio_set).
 * Linux only: elsewhere every call returns -ENOSYS. Thread-safe (each call acts on the
 * calling thread). */
#ifndef IOB_CORE_AFFINITY_H
#define IOB_CORE_AFFINITY_H

#include <stddef.h>

/* Bind the calling thread to the CPUs of list ("0-3,8"); with pick >= 0 to only the
 * pick-th of them (counted modulo their number: fio's cpus_allowed_policy=split).
 * 0 or -errno (-EINVAL: a bad list or no CPU of it exists). */
int affinity_set(const char *list, int pick);
/* The CPU list of the NUMA nodes in nodes ("0-1") into out. 0 or -errno (-ENOENT: a
 * node this system lacks). */
int affinity_node_cpus(const char *nodes, char *out, size_t len);
/* Set the calling thread's memory policy: "default", "local", "prefer:N", "bind:NODES"
 * or "interleave:NODES". 0 or -errno. */
int affinity_mempolicy(const char *policy);
/* Set the calling thread's I/O priority: class (1 real-time, 2 best-effort, 3 idle; 0
 * none, the kernel's default from the CPU nice level) and level (0 highest .. 7), the
 * kernel's ioprio value (class << 13 | level). 0 or -errno (-EPERM: the real-time class
 * without the privilege). */
int affinity_ioprio(unsigned cls, unsigned level);

#endif
