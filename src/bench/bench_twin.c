#include "bench_twin.h"

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

int bench_twin_contiguous(const model_geometry *geo, const bench_item *it)
{
    int W = geo->lanes;
    int64_t *a = malloc((size_t)W * sizeof *a);
    if (!a)
        return 0;
    model_access acc = { it->expr, it->elem, it->active, W, 0, 0 };
    bw_error e = BW_ERROR_INIT;
    int ok = model_access_addresses(geo, &acc, 0, W, a, &e) == BW_OK;
    bw_error_clear(&e);
    int t0 = -1;
    for (int t = 0; ok && t < W; t++) {
        if (a[t] == MODEL_ADDR_INACTIVE)
            continue;
        if (t0 < 0)
            t0 = t;
        else if (a[t] != a[t0] + (int64_t)(t - t0) * it->elem)
            ok = 0;
    }
    free(a);
    return ok && t0 >= 0;
}
