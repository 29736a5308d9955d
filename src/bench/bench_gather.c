/* bench_gather: the gather entry of the family table (bench_family.h):
 * the global-memory kernel (cl/gather.cl, bench_kernel) that runs every
 * catalogue pattern whose family names kernel "gather", and every --expr.
 * Its items share the plan's one program, are measured in each access
 * mode asked for, are sized from their modeled footprint, and are compared
 * with seq. */
#include "bench_family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_kernel.h"
#include "bench_stats.h"
#include "bench_validate.h"
#include "bw_format.h"
#include "model_index.h"

static int64_t round_up(int64_t v, int64_t m)
{
    return (v + m - 1) / m * m;
}

/* the work-items of a matrix item: the whole matrix once; a column walk
 * spans it however few columns it takes, so a matrix too large is an
 * error, not a smaller run */
static bw_code matrix_items(const bench_plan *p, const bench_item *it, const bench_plan_cap *cap, int64_t *items,
                            bw_error *err)
{
    int64_t n = model_pattern_param_value(it->pattern, "n");
    if ((uint64_t)n * (uint64_t)n * (uint64_t)it->elem > cap->bytes) {
        char a[32];
        bw_format_bytes(a, sizeof a, (double)((uint64_t)n * (uint64_t)n * (uint64_t)it->elem));
        int64_t fit = (int64_t)sqrt((double)cap->bytes / (double)it->elem) / 64 * 64;
        return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': the %s matrix is larger than %s; use n=%lld or less",
                            it->spec, a, cap->full, (long long)fit);
    }
    *items = round_up(n * n, p->local_size);
    return BW_OK;
}

/* the work-items whose modeled footprint of the pattern's side (its
 * loads, or in write mode its stores) reaches the target, measured on a
 * probe launch; for a user's expression, at most those whose model the
 * plan may count within p->model_s (the probe's count timed, scaled by
 * the items: an expression whose shape changes every warp is counted
 * warp by warp), *note (heap) saying so */
static bw_code footprint_items(bench_plan *p, bench_item *it, int64_t *items, char **note, bw_error *err)
{
    int64_t local = p->local_size;
    int64_t probe = round_up((int64_t)p->geo.lanes * 1024, local);
    double t0 = bench_now_s();
    bw_code rc = bench_plan_account(p, it, probe, err);
    double t = bench_now_s() - t0;
    if (rc != BW_OK)
        return rc;
    double per_item = (double)(bench_item_pattern_traffic(it)->footprint_sectors * p->geo.sector) / (double)probe;
    double want = per_item > 0 ? (double)p->target_bytes / per_item : (double)probe;
    /* keep launches of tiny-footprint patterns (broadcast) bounded */
    double most = fmax(4.0 * (double)p->target_bytes / (double)it->elem, (double)local);
    /* whole launches of any K items per work-item (bench_plan_fit_unroll:
     * K is chosen after the plan, --unroll auto) where that adds at most
     * 1/BENCH_UNROLL_ROUNDING of the items; a smaller launch keeps its
     * size and takes a smaller K */
    double n = fmin(fmax(want, (double)local), most);
    int64_t unit = n >= (double)(BENCH_UNROLL_ROUNDING * local * BENCH_UNROLL_MAX) ? local * BENCH_UNROLL_MAX : local;
    *items = round_up((int64_t)n, unit);
    double scaled = t * (double)*items / (double)probe;
    if (!it->pattern && p->model_s > 0 && t > 0 && scaled > p->model_s) {
        int64_t full = *items;
        int64_t fit = (int64_t)((double)probe * p->model_s / t) / local * local;
        *items = fit > probe ? fit : probe;
        if ((*note = malloc(400)) != NULL)
            snprintf(*note, 400,
                     "counted and launched at %lld work-items, below the %lld the working set asks: the "
                     "expression's addresses change shape from warp to warp, so its model is counted warp by warp, "
                     "about %.0f s at %lld (timed at %lld, scaled), more than the %.1f s the budget allows it; a "
                     "larger --budget counts more",
                     (long long)*items, (long long)full, scaled, (long long)full, (long long)probe, p->model_s);
    }
    return BW_OK;
}

/* Sizes one item: enough items that its modeled footprint reaches the
 * target, with src and dst each within cap. */
static bw_code size_gather(bench_plan *p, bench_item *it, const bench_plan_cap *cap, bw_error *err)
{
    int64_t local = p->local_size;
    uint64_t max_alloc = cap->bytes;
    int64_t items = 0;
    char *note = NULL;
    free(it->size_note);
    it->size_note = NULL;
    int matrix = it->pattern && it->pattern->family->sizing == MODEL_PATTERN_SIZING_MATRIX;
    bw_code rc = matrix ? matrix_items(p, it, cap, &items, err) : footprint_items(p, it, &items, &note, err);
    if (rc != BW_OK)
        return rc;
    if ((uint64_t)items > cap->items) {
        /* the launch's global size itself: a 32-bit device or host counts work-items in 32 bits */
        int64_t fit = (int64_t)(cap->items / (uint64_t)local) * local;
        free(note);
        note = NULL;
        if (fit < local)
            return bw_error_set(err, BW_E_TOOBIG, "pattern '%s': not even one work-group of %lld fits", it->spec,
                                (long long)local);
        items = fit;
        char why[96];
        snprintf(why, sizeof why, "%llu work-items per launch (CL_DEVICE_ADDRESS_BITS, size_t)",
                 (unsigned long long)cap->items);
        note = bench_plan_note_below_target(p, why);
    }
    for (int tries = 0;; tries++) {
        if ((rc = bench_plan_account(p, it, items, err)) != BW_OK)
            goto fail;
        if ((rc = bench_plan_check_loadable(it, err)) != BW_OK)
            goto fail;
        uint64_t src = (uint64_t)bench_family_src_bytes(it), dst = (uint64_t)bench_family_dst_bytes(it);
        uint64_t need = src > dst ? src : dst;
        if (need <= max_alloc)
            break;
        if (items == local || tries > 8) {
            char a[32];
            bw_format_bytes(a, sizeof a, (double)need);
            rc = bw_error_set(err, BW_E_TOOBIG, "pattern '%s' needs a %s buffer even for %lld work-items, more than %s",
                              it->spec, a, (long long)items, cap->full);
            goto fail;
        }
        /* shrink in proportion, then check again (extents need not be linear) */
        int64_t smaller = (int64_t)((double)items * (double)max_alloc / (double)need * 0.97);
        smaller = smaller / local * local;
        items = smaller < local ? local : smaller;
        free(note);
        note = bench_plan_note_below_target(p, cap->note);
    }
    uint64_t fp = (uint64_t)(bench_item_pattern_traffic(it)->footprint_sectors * p->geo.sector);
    if (!note && matrix)
        note = bench_plan_note_small(p, "matrix", fp);
    it->size_note = note;
    it->local_size = local;
    it->vload = it->span.align < it->elem;
    bench_plan_fit_unroll(p, it);
    return bench_plan_warp0(p, it, err);
fail:
    free(note);
    return rc;
}

/* 32 where forced or, on a GPU, where proven to fit */
static bw_code gather_index_form(const bench_plan *p, bench_item *it, int index_opt, int is_gpu, bw_error *err)
{
    it->index32_proven = model_index_fits32(it->expr, p->geo.lanes, &it->active, it->items, NULL);
    if (index_opt == 32 && !it->index32_proven)
        /* a user expression is its own spec: name it once */
        return bw_error_set(err, BW_E_USAGE,
                            "pattern '%s': --index 32: %s%s%snot proven to stay within 32-bit int for "
                            "%lld work-items; use --index 64 or auto, or a smaller --size",
                            it->spec, it->pattern ? "its address expression '" : "its values are ",
                            it->pattern ? it->expr_text : "", it->pattern ? "' is " : "", (long long)it->items);
    it->index_bits = index_opt == 32 || (index_opt == 0 && is_gpu && it->index32_proven) ? 32 : 64;
    return BW_OK;
}

/* seq in the same access mode, of the same element size if present, else
 * of element size 4, else any size */
static long gather_reference(const bench_plan *p, size_t i)
{
    long any = -1;
    for (size_t k = 0; k < p->n; k++) {
        if (!bench_plan_is_seq_reference(&p->items[k]) || p->items[k].access != p->items[i].access)
            continue;
        if (p->items[k].elem == p->items[i].elem)
            return (long)k;
        if (any < 0 || p->items[k].elem == 4)
            any = (long)k;
    }
    return any;
}

/* seq of its element size in its own access mode */
static int gather_reference_spec(const bench_plan *p, size_t i, char *buf, size_t n)
{
    long ref = gather_reference(p, i);
    if (ref >= 0 && p->items[ref].elem == p->items[i].elem)
        return 0;
    snprintf(buf, n, "seq:elem=%lld", (long long)p->items[i].elem);
    return 1;
}

/* the sentinel over dst's bytes of the sampled work-items */
static bw_code fill_sampled(const bench_family_io *io, const bench_item *it, const int64_t *starts, size_t n,
                            int64_t gi, bw_error *err)
{
    bw_code rc = BW_OK;
    for (size_t k = 0; k < n && rc == BW_OK; k++) {
        int64_t end = starts[k] + gi < it->items ? starts[k] + gi : it->items;
        uint64_t off = (uint64_t)(starts[k] * it->elem), bytes = (uint64_t)((end - starts[k]) * it->elem);
        for (uint64_t done = 0; done < bytes && rc == BW_OK; done += io->stage_bytes) {
            uint64_t m = bytes - done < io->stage_bytes ? bytes - done : io->stage_bytes;
            bench_fill_sentinel_at(io->stage, off + done, m);
            rc = io->write_dst(io->ctx, off + done, io->stage, m, err);
        }
    }
    return rc;
}

/* The fewest work-items a validating launch spans: a runtime that
 * specialises kernels for small grids (PoCL: a grid dimension below 65536)
 * compiles one more variant of each kernel for a smaller launch, which a
 * first run pays for every pattern; at this width a launch from 0 runs the
 * timed launches' variant. */
#define SAMPLED_MIN_ITEMS 65536

/* One launch over the sampled ranges only (starts, n, gi from
 * bench_validate_sample): each range widened to whole work-groups and, but
 * in write mode, to SAMPLED_MIN_ITEMS, and ranges that touch merged, so that the first
 * groups are one launch from 0 and a launch with no more items than the
 * sample is the whole launch. The host checks no other work-item, so no
 * other need run: validation costs what the sample costs, not a launch
 * over the whole working set. */
static bw_code launch_sampled(const bench_family_io *io, const bench_item *it, const int64_t *starts, size_t n,
                              int64_t gi, bw_error *err)
{
    /* K items per work-item (bench_item.unroll): a work-item's items lie a
     * launch apart, so copy and read run the whole launch (only the
     * sample's dst is checked, and stores elsewhere are right or absent);
     * write mode gets physical starts (unrolled_sample) */
    if (bench_item_unroll(it) > 1 && it->access != BENCH_ACCESS_WRITE)
        return io->launch(io->ctx, err);
    int64_t ls = it->local_size > 0 ? it->local_size : 1;
    /* write mode's check holds every store outside the sample's to be
     * wrong (a stray store), so there only the sampled groups run */
    int64_t width = it->access == BENCH_ACCESS_WRITE ? 0 : (SAMPLED_MIN_ITEMS + ls - 1) / ls * ls;
    int64_t lo = -1, hi = -1;
    bw_code rc = BW_OK;
    for (size_t k = 0; k <= n && rc == BW_OK; k++) {
        int64_t a = 0, b = 0;
        if (k < n) {
            a = starts[k] / ls * ls;
            b = (starts[k] + gi + ls - 1) / ls * ls;
            b = b > a + width ? b : a + width;
            b = b < it->items ? b : it->items;
            if (b - a < width) /* at the launch's end: widened downwards */
                a = b - width > 0 ? (b - width) / ls * ls : 0;
            if (lo >= 0 && a <= hi) {
                lo = a < lo ? a : lo;
                hi = b > hi ? b : hi;
                continue;
            }
        }
        if (lo >= 0 && hi > lo)
            rc = io->launch_range(io->ctx, lo, hi - lo, err);
        lo = a;
        hi = b;
    }
    return rc;
}

/* read mode: one launch per key (bench_read_keys), the sampled work-groups
 * checked against every key, then the timed launches' key set */
static bw_code validate_read(const bench_family_io *io, const bench_item *it, const int64_t *starts, size_t n,
                             int64_t gi, bw_error *err)
{
    uint8_t keys[BENCH_READ_KEYS * 16], timed[16];
    size_t E = (size_t)it->elem;
    bw_code rc = bench_read_keys(&io->plan->geo, it, io->seed, keys, BENCH_READ_KEYS, err);
    for (int k = 0; k < BENCH_READ_KEYS && rc == BW_OK; k++) {
        rc = io->set_key(io->ctx, keys + (size_t)k * E, E, err);
        if (rc == BW_OK)
            rc = launch_sampled(io, it, starts, n, gi, err);
    }
    if (rc == BW_OK)
        rc = bench_validate_read_sampled(&io->plan->geo, it, io->seed, io->plan->src_bytes, keys, BENCH_READ_KEYS,
                                         starts, n, gi, io->read_dst, io->ctx, io->stage, io->stage_bytes, err);
    /* the timed launches' key: the complement of the first, which the
     * pseudo-random source almost never holds, so they store almost nothing */
    for (size_t b = 0; b < E; b++)
        timed[b] = (uint8_t)~keys[b];
    if (rc == BW_OK)
        rc = io->set_key(io->ctx, timed, E, err);
    return rc;
}

/* write mode: the check's windows of dst set to the write sentinel */
static bw_code fill_write_sentinel(const bench_family_io *io, const bench_write_check *c, bw_error *err)
{
    uint64_t chunk = io->stage_bytes / 4 * 4;
    uint32_t w = BENCH_WRITE_SENTINEL;
    for (uint64_t b = 0; b < chunk; b += 4)
        memcpy(io->stage + b, &w, 4);
    bw_code rc = BW_OK;
    for (size_t k = 0; k < c->nwindows && rc == BW_OK; k++)
        for (uint64_t off = c->windows[k].lo; off < c->windows[k].hi && rc == BW_OK; off += chunk)
            rc = io->write_dst(io->ctx, off, io->stage,
                               c->windows[k].hi - off < chunk ? c->windows[k].hi - off : chunk, err);
    return rc;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* With K items per work-item, the work-groups that run the sampled items
 * (starts, n; each a group of gi items) also run K - 1 other items each:
 * *phys (sorted, unique) the work-items' starts, *virt every item they run,
 * which the write check then expects (heap, caller frees). */
static bw_code unrolled_sample(const bench_item *it, const int64_t *starts, size_t n, int64_t **phys, size_t *np,
                               int64_t **virt, size_t *nv, bw_error *err)
{
    int64_t K = bench_item_unroll(it), S = it->items / K;
    *phys = malloc(n * sizeof **phys);
    *virt = malloc(n * (size_t)K * sizeof **virt);
    if (!*phys || !*virt) {
        free(*phys);
        free(*virt);
        *phys = *virt = NULL;
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    for (size_t k = 0; k < n; k++)
        (*phys)[k] = starts[k] % S;
    qsort(*phys, n, sizeof **phys, cmp_i64);
    size_t m = 0;
    for (size_t k = 0; k < n; k++)
        if (m == 0 || (*phys)[k] != (*phys)[m - 1])
            (*phys)[m++] = (*phys)[k];
    *np = m;
    for (int64_t j = 0; j < K; j++)
        for (size_t k = 0; k < m; k++)
            (*virt)[(size_t)j * m + k] = (*phys)[k] + j * S;
    *nv = m * (size_t)K;
    return BW_OK;
}

/* write mode: the windows around the sampled stores filled, one launch
 * of the sampled work-groups, then every byte of the windows checked
 * (bench_validate_write) */
static bw_code validate_write(const bench_family_io *io, const bench_item *it, const int64_t *starts, size_t n,
                              int64_t gi, bw_error *err)
{
    int64_t *phys = NULL, *virt = NULL;
    size_t np = n, nv = n;
    if (bench_item_unroll(it) > 1) {
        bw_code rc = unrolled_sample(it, starts, n, &phys, &np, &virt, &nv, err);
        if (rc != BW_OK)
            return rc;
    }
    bench_write_check c;
    bw_code rc = bench_write_check_plan(&io->plan->geo, it, virt ? virt : starts, nv, gi, io->plan->dst_bytes, &c,
                                        err);
    if (rc == BW_OK) {
        rc = fill_write_sentinel(io, &c, err);
        if (rc == BW_OK)
            rc = launch_sampled(io, it, phys ? phys : starts, np, gi, err);
        if (rc == BW_OK)
            rc = bench_validate_write(&c, it, io->seed, io->read_dst, io->ctx, io->stage, io->stage_bytes, io->stop,
                                      err);
        bench_write_check_free(&c);
    }
    free(phys);
    free(virt);
    return rc;
}

/* Sentinel-filled output where the sample lies, a launch of the sampled
 * work-groups (in read mode one per key: launch_sampled), and the host
 * check of them (bench_validate_sample) against the regenerated source:
 * validation costs what the sample costs on any working set. */
static bw_code gather_validate(const bench_family_io *io, bw_error *err)
{
    const bench_item *it = &io->plan->items[io->index];
    int read = it->access == BENCH_ACCESS_READ;
    int64_t starts[BENCH_SAMPLE_GROUPS + BENCH_READ_KEYS], gi = 0;
    size_t n = bench_validate_sample(&io->plan->geo, it, io->seed, read, starts, &gi);
    if (it->access == BENCH_ACCESS_WRITE)
        return validate_write(io, it, starts, n, gi, err);
    if (read && bench_item_unroll(it) > 1) {
        /* work-item p stores its K elements' fold at dst[p]: the sample's
         * work-items, each holding K sampled items */
        int64_t *phys = NULL, *virt = NULL;
        size_t np = 0, nv = 0;
        bw_code rc = unrolled_sample(it, starts, n, &phys, &np, &virt, &nv, err);
        if (rc == BW_OK)
            rc = fill_sampled(io, it, phys, np, gi, err);
        if (rc == BW_OK)
            rc = validate_read(io, it, phys, np, gi, err);
        free(phys);
        free(virt);
        return rc;
    }
    bw_code rc = fill_sampled(io, it, starts, n, gi, err);
    if (rc == BW_OK && read)
        return validate_read(io, it, starts, n, gi, err);
    if (rc == BW_OK)
        rc = launch_sampled(io, it, starts, n, gi, err);
    if (rc == BW_OK)
        rc = bench_validate_copy_sampled(&io->plan->geo, it, io->seed, io->plan->src_bytes, starts, n, gi,
                                         io->read_dst, io->ctx, io->stage, io->stage_bytes, err);
    return rc;
}

/* every work-item's byte address against the model's expression */
static bw_code gather_check_trace(const bench_plan *p, const bench_item *it, const int64_t *trace, bw_error *err)
{
    return bench_validate_trace(&p->geo, it, trace, err);
}

const bench_family bench_family_gather = {
    .kernel = MODEL_PATTERN_KERNEL_GATHER,
    .space = "global",
    .access = 0,
    .modeled = 1,
    .retry_half = 1,
    .unrolls = 1,
    .size = size_gather,
    .index_form = gather_index_form,
    .is_reference = bench_plan_is_seq_reference,
    .reference = gather_reference,
    .reference_spec = gather_reference_spec,
    .program = NULL,
    .validate = gather_validate,
    .trace_arg = bench_kernel_trace_arg,
    .check_trace = gather_check_trace,
    .bytes = bench_family_model_bytes,
};
