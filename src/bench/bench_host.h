/* bench_host: facts about the host machine that size a run on a CPU device
 * whose OpenCL driver leaves them out. Plain file reads, no OpenCL. */
#ifndef BENCH_HOST_H
#define BENCH_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "bench_device.h"

/* The last-level cache of CPU 0 from sysfs under `sysfs_root` ("/sys" on
 * Linux; tests pass a tree of their own): of the cache/index* directories
 * under <root>/devices/system/cpu/cpu0, the one of the highest `level`
 * whose `type` is Data or Unified (instruction caches do not hold data),
 * its `size` in bytes ("32768K"; K, M and G suffixes are powers of 1024).
 * Returns 1 and sets *bytes and, into source (n bytes, truncated), where
 * the figure came from: "host sysfs (/sys/devices/system/cpu/cpu0/cache/
 * index3)". Returns 0, leaving both alone, when there is no such tree or no
 * readable data cache in it (other systems, containers). Never fails
 * otherwise and never prints. */
int bench_host_llc(const char *sysfs_root, uint64_t *bytes, char *source, size_t n);

/* Every data or unified cache of CPU 0 under `sysfs_root`, by level
 * (at most max): level, size and coherency_line_size (0 when absent).
 * Returns how many; 0 where there is no such tree. For `bwlab probe`,
 * which sets what it measured beside them. */
size_t bench_host_caches(const char *sysfs_root, bench_host_cache *out, size_t max);

#endif
