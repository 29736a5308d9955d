/* bench_twin: sizing a pattern's twin launch to fit a quarter of the
 * cache and the timing floor, its footprint, and whether its warps load
 * consecutive elements (bench_twin.h). */
#include "bench_twin.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "model_access.h"
#include "model_launch.h"

int64_t bench_twin_slice(double bytes_per_item, uint64_t cache_bytes, int64_t local_size, int64_t items)
{
    if (!(bytes_per_item > 0) || cache_bytes == 0 || local_size <= 0 || items <= 0)
        return 0;
    double room = (double)(cache_bytes / BENCH_TWIN_CACHE_DIVISOR);
    double most = room / (2.0 * bytes_per_item);
    if (most > (double)(items / 2))
        most = (double)(items / 2);
    int64_t groups = (int64_t)(most / (double)local_size);
    return groups * local_size;
}

int64_t bench_twin_timed_slice(double launch_ns, int64_t items, double floor_ns, int64_t local_size)
{
    if (!(launch_ns > 0) || !(floor_ns > 0) || items <= 0 || local_size <= 0)
        return 0;
    double n = BENCH_TWIN_FLOOR_MARGIN * floor_ns * (double)items / launch_ns;
    double groups = ceil(n / (double)local_size);
    if (groups * (double)local_size >= (double)items)
        return items / local_size * local_size; /* the whole launch: the cache rule halves it */
    return (int64_t)groups * local_size;
}

bw_code bench_twin_footprint(const model_geometry *geo, const bench_item *it, int64_t n, uint64_t *bytes,
                             bw_error *err)
{
    int write = it->access == BENCH_ACCESS_WRITE; /* the pattern's addresses are the stores */
    model_access acc[2] = {
        { it->expr, it->elem, it->active, n, 0, write },
        { it->store_expr, it->elem, it->active, n, 0, !write },
    };
    model_launch m;
    bw_code rc = model_launch_count(geo, acc, 2, &m, err);
    if (rc == BW_OK)
        *bytes = (uint64_t)((m.loads.footprint_sectors + m.stores.footprint_sectors) * geo->sector);
    return rc;
}

/* the addresses of the warp from work-item g0 into a (W of them); 0 when
 * they cannot be evaluated */
static int warp_addresses(const model_geometry *geo, const bench_item *it, int64_t g0, int64_t *a)
{
    int W = geo->lanes;
    model_access acc = { it->expr, it->elem, it->active, it->items > 0 ? it->items : W, 0, 0 };
    bw_error e = BW_ERROR_INIT;
    int ok = model_access_addresses(geo, &acc, g0, W, a, &e) == BW_OK;
    bw_error_clear(&e);
    return ok;
}

/* lane t at the first active lane's address + (t - t0) x E */
static int lanes_contiguous(const int64_t *a, int W, int64_t elem)
{
    int t0 = -1;
    for (int t = 0; t < W; t++) {
        if (a[t] == MODEL_ADDR_INACTIVE)
            continue;
        if (t0 < 0)
            t0 = t;
        else if (a[t] != a[t0] + (int64_t)(t - t0) * elem)
            return 0;
    }
    return t0 >= 0;
}

/* every active lane within W x E bytes of the lowest */
static int lanes_dense(const int64_t *a, int W, int64_t elem)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int t = 0; t < W; t++)
        if (a[t] != MODEL_ADDR_INACTIVE) {
            lo = a[t] < lo ? a[t] : lo;
            hi = a[t] > hi ? a[t] : hi;
        }
    return lo <= hi && hi - lo < (int64_t)W * elem;
}

/* whether warps 0 and 1 and the last pass `test`: a pattern that changes
 * along the launch (a piecewise expression) shows it at one of them */
static int sampled_warps(const model_geometry *geo, const bench_item *it,
                         int (*test)(const int64_t *a, int W, int64_t elem))
{
    int W = geo->lanes;
    int64_t *a = malloc((size_t)W * sizeof *a);
    if (!a)
        return 0;
    int64_t warps = it->items > W ? it->items / W : 1;
    int64_t first[3] = { 0, W, (warps - 1) * W };
    int ok = 1;
    for (int k = 0; ok && k < 3 && (k == 0 || warps > k); k++)
        ok = warp_addresses(geo, it, first[k], a) && test(a, W, it->elem);
    free(a);
    return ok;
}

int bench_twin_contiguous(const model_geometry *geo, const bench_item *it)
{
    return sampled_warps(geo, it, lanes_contiguous);
}

int bench_twin_warp_dense(const model_geometry *geo, const bench_item *it)
{
    return sampled_warps(geo, it, lanes_dense);
}
