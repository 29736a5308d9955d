/* bench_twin: the twin of a pattern's launch (docs/design.md §4).
 *
 * A pattern that runs slower than its modeled traffic explains is either
 * waiting for memory or for its own instruction stream (on a CPU, the
 * vector gather a lane-permuting address compiles to). The twin tells the
 * two apart: the very kernel the pattern was timed with, launched over its
 * first N and 2N work-items, whose footprint fits in a quarter of the
 * last-level cache and whose added launch lasts no longer than resolving it
 * needs (bench_twin_timed_slice), so memory is out of the way while every instruction,
 * the load included, stays. The difference of the two launch times cancels
 * the launch overhead. Pure host code: sizes and the model's accounting. */
#ifndef BENCH_TWIN_H
#define BENCH_TWIN_H

#include <stdint.h>

#include "bench_plan_priv.h"
#include "bw_error.h"
#include "model_geometry.h"

/* The twin's longer launch (2N items) touches at most this fraction of
 * the last-level cache: room for the code, the stack and other cores,
 * with the lines still resident after the warming launch. */
#define BENCH_TWIN_CACHE_DIVISOR 4

/* N, the twin's shorter launch in work-items: the largest multiple of
 * local_size with 2N x bytes_per_item <= cache_bytes / BENCH_TWIN_CACHE_DIVISOR
 * and 2N <= items (the twin is a slice of the pattern's own launch).
 * bytes_per_item is the modeled bytes one work-item touches, loads and
 * stores. Returns 0 when not even N = local_size fits, or an argument is
 * not positive. Never fails otherwise. */
int64_t bench_twin_slice(double bytes_per_item, uint64_t cache_bytes, int64_t local_size, int64_t items);

/* The twin's added launch (N more work-items) lasts at least this many
 * timing floors at the pattern's own pace: long enough to resolve, with
 * room for the cache to run it several times faster than memory did. */
#define BENCH_TWIN_FLOOR_MARGIN 16

/* The N whose launch at the pattern's own pace (launch_ns for its `items`
 * work-items, memory included) lasts BENCH_TWIN_FLOOR_MARGIN x floor_ns:
 * the smallest multiple of local_size at or above margin x floor_ns x
 * items / launch_ns. The twin takes the smaller of this and
 * bench_twin_slice: a cache figure can overstate what a launch has to
 * itself (PoCL in a virtual machine reports the host's whole L3, of which
 * the virtual machine holds only a share), and a slice that does not stay
 * resident times memory again, which reads as "kernel-bound". Returns 0
 * when an argument is not positive. Never fails otherwise. */
int64_t bench_twin_timed_slice(double launch_ns, int64_t items, double floor_ns, int64_t local_size);

/* The modeled footprint (distinct sectors x sector bytes, loads and stores
 * together) of the item's first n work-items, into *bytes. Fails as
 * model_launch_count does. */
bw_code bench_twin_footprint(const model_geometry *geo, const bench_item *it, int64_t n, uint64_t *bytes,
                             bw_error *err);

/* Whether the active lanes of warps 0 and 1 and of the launch's last
 * warp each load consecutive elements (lane t at the first active lane's
 * address + (t - t0) x E): what a CPU runtime turns into one vector load,
 * where any other address needs a gather. 0 when the addresses cannot be
 * evaluated, or a warp has no active lane. */
int bench_twin_contiguous(const model_geometry *geo, const bench_item *it);

/* Whether the active lanes of the same warps each lie within one warp's
 * bytes (W x E) of the warp's lowest address: seq's elements in another
 * order (reverse, permute), or fewer of them (broadcast). One work-item
 * running such a warp's lanes (the warp form, bench_form) lets a CPU
 * compiler load them as vectors and shuffle. 0 as bench_twin_contiguous. */
int bench_twin_warp_dense(const model_geometry *geo, const bench_item *it);

#endif
