/* model_access: one memory instruction over a launch: its check against
 * the geometry, the walk over runs of warps, its address range and
 * alignment, and the addresses of a range of items (model_access.h). */
#include "model_access.h"

#include "model_affine.h"
#include "model_warp.h"
#include "model_access_priv.h"
#include "model_affine_priv.h"
#include "model_lanes_priv.h"

__extension__ typedef __int128 i128;

bw_code model_access_check(const model_geometry *geo, const model_access *a, bw_error *err)
{
    if (!a->expr)
        return bw_error_set(err, BW_E_USAGE, "access without an address expression");
    if (a->elem_bytes < 1 || a->elem_bytes > MODEL_MAX_ELEM)
        return bw_error_set(err, BW_E_USAGE, "element size %lld is out of range (1..%lld bytes)",
                            (long long)a->elem_bytes, (long long)MODEL_MAX_ELEM);
    if (a->items < 1 || a->items > MODEL_LAUNCH_MAX_ITEMS)
        return bw_error_set(err, BW_E_RANGE, "item count %lld is out of range (1..2^40)",
                            (long long)a->items);
    if (a->active.width != geo->lanes)
        return bw_error_set(err, BW_E_USAGE, "lane mask is for %d lanes, the warp has %d",
                            a->active.width, geo->lanes);
    return BW_OK;
}

bw_code model_access_walk(const model_geometry *geo, const model_access *a, int64_t w_lo, int64_t w_hi,
                          model_access_run_fn fn, void *ctx, bw_error *err)
{
    int W = geo->lanes;
    int64_t nfull = a->items / W, rem = a->items % W;
    int all[MODEL_MAX_LANES], part[MODEL_MAX_LANES];
    int nall = model_lanes_list(&a->active, all), npart = 0;
    for (int i = 0; i < nall; i++)
        if (all[i] < rem)
            part[npart++] = all[i];
    int64_t at[MODEL_MAX_LANES], slope[MODEL_MAX_LANES];
    for (int pass = 0; pass < 2; pass++) {
        const int *lanes = pass == 0 ? all : part;
        int nl = pass == 0 ? nall : npart;
        int64_t lo = pass == 0 ? 0 : nfull, hi = pass == 0 ? nfull - 1 : nfull;
        lo = lo > w_lo ? lo : w_lo;
        hi = hi < w_hi ? hi : w_hi;
        for (int64_t w = lo; nl > 0 && w <= hi;) {
            int64_t seg_hi;
            bw_code rc = model_affine_segment(a->expr, W, lanes, nl, w, hi, &seg_hi, at, slope, err);
            if (rc != BW_OK)
                return rc;
            int64_t n = seg_hi - w + 1;
            for (int i = 0; i < nl; i++) {
                i128 ends[2] = { (i128)at[i] + a->base, (i128)at[i] + (i128)slope[i] * (n - 1) + a->base };
                for (int e = 0; e < 2; e++)
                    /* one past the last byte must be representable too (the
                     * span's max_end) */
                    if (ends[e] < INT64_MIN || ends[e] > (i128)INT64_MAX - a->elem_bytes)
                        return bw_error_set(err, BW_E_RANGE,
                                            "lane %d of warp %lld touches bytes outside the 64-bit "
                                            "address range",
                                            lanes[i], (long long)(e ? seg_hi : w));
                at[i] += a->base;
            }
            model_access_run run = { w, n, nl, lanes, at, slope };
            if ((rc = fn(ctx, &run, err)) != BW_OK)
                return rc;
            w = seg_hi + 1;
        }
    }
    return BW_OK;
}

static bw_code span_run(void *ctx, const model_access_run *r, bw_error *err)
{
    model_access_span *s = ctx;
    const int64_t *at = r->at, *slope = r->slope;
    int64_t n = r->n;
    (void)err;
    for (int i = 0; i < r->nl; i++) {
        int64_t a0 = at[i], a1 = (int64_t)((i128)at[i] + (i128)slope[i] * (n - 1));
        int64_t lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
        if (!s->any || lo < s->min_addr)
            s->min_addr = lo;
        if (!s->any || hi > s->max_end)
            s->max_end = hi; /* the element size is added at the end */
        s->align |= at[i] | (n > 1 ? slope[i] : 0);
        s->any = 1;
    }
    return BW_OK;
}

bw_code model_access_span_of(const model_geometry *geo, const model_access *a, model_access_span *out,
                             bw_error *err)
{
    model_access_span s = { 0, 0, 0, 0 };
    bw_code rc = model_geometry_check(geo, err);
    if (rc == BW_OK)
        rc = model_access_check(geo, a, err);
    if (rc == BW_OK)
        rc = model_access_walk(geo, a, 0, (a->items + geo->lanes - 1) / geo->lanes - 1, span_run, &s, err);
    if (rc != BW_OK)
        return rc;
    /* align held the OR of every address and step: its lowest set bit */
    int64_t bits = s.align, align = (int64_t)1 << 20;
    if (bits != 0) {
        int64_t low = (int64_t)((uint64_t)bits & (~(uint64_t)bits + 1));
        align = low > 0 && low < align ? low : align;
    }
    s.align = align;
    if (s.any)
        s.max_end += a->elem_bytes;
    *out = s;
    return BW_OK;
}

typedef struct addr_ctx {
    int64_t g0, n, W;
    int64_t *out;
} addr_ctx;

static bw_code addr_run(void *ctx, const model_access_run *r, bw_error *err)
{
    addr_ctx *c = ctx;
    (void)err;
    for (int64_t k = 0; k < r->n; k++) {
        int64_t base_g = (r->w_lo + k) * c->W - c->g0;
        for (int i = 0; i < r->nl; i++) {
            int64_t idx = base_g + r->lanes[i];
            if (idx >= 0 && idx < c->n)
                c->out[idx] = r->at[i] + r->slope[i] * k;
        }
    }
    return BW_OK;
}

bw_code model_access_addresses(const model_geometry *geo, const model_access *a, int64_t g0, int64_t n,
                               int64_t *out, bw_error *err)
{
    bw_code rc = model_access_check(geo, a, err);
    if (rc != BW_OK)
        return rc;
    if (g0 < 0 || g0 % geo->lanes != 0 || n < 0)
        return bw_error_set(err, BW_E_RANGE, "address window %lld+%lld is not warp-aligned", (long long)g0,
                            (long long)n);
    for (int64_t i = 0; i < n; i++)
        out[i] = MODEL_ADDR_INACTIVE;
    if (n == 0)
        return BW_OK;
    addr_ctx c = { g0, n, geo->lanes, out };
    int64_t w_lo = g0 / geo->lanes, w_hi = (g0 + n - 1) / geo->lanes;
    return model_access_walk(geo, a, w_lo, w_hi, addr_run, &c, err);
}
