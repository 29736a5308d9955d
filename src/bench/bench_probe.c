/* bench_probe: the sweeps and timing of `bwlab probe`: cache and latency
 * ladders, transaction granularity, warp width, banks, host<->device
 * transfers and launch latency (bench_probe.h). */
#include "bench_probe_priv.h"

#include "bw_hook.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_kernel.h"
#include "bench_stats.h"
#include "bw_format.h"
#include "bw_stats.h"
#include "ocl_buffer.h"
#include "ocl_program.h"
#include "ocl_transfer.h"
#include "bench_host.h"

#define KIB ((uint64_t)1 << 10)
#define MIB ((uint64_t)1 << 20)
#define GPU_LOCAL 256

/* everything one probe holds, freed in one place */
typedef struct probe {
    ocl_context *c;
    const ocl_device_info *d;
    const bench_probe_opts *o;
    bench_probe_result *r;
    ocl_program *prog, *mark_prog;
    ocl_kernel *k_read, *k_read_cpu, *k_read_wrap, *k_chase, *k_mark, *k_stride, *k_offset, *k_pair, *k_empty, *k_lanes, *k_banks;
    ocl_buffer *src, *out, *next, *starts, *mark;
    uint64_t src_bytes, out_items;
    uint64_t gpu_local; /* work-group size of the sweeps on a GPU: 256 within every kernel's limit */
    uint64_t gpu_items; /* work-items of the GPU cache ladder: 2048 per compute unit, within out */
    int launches; /* repeats per point, the median is kept */
    const char *phase; /* the phase under way, for an interruption's note */
    double t0; /* bench_now_s() as the probe began */
} probe;

static void progress(probe *p, const char *phase, double f)
{
    bw_hook_phase(phase); /* test builds only: a signal as this phase begins */
    p->phase = phase;
    if (p->o->progress)
        p->o->progress(p->o->progress_ctx, phase, f);
}

/* BW_E_INTERRUPTED once the caller's stop flag is set, else BW_OK: asked
 * before every launch and copy, so a probe stops within one of them */
static bw_code stopped(const probe *p, bw_error *err)
{
    if (p->o->stop && *p->o->stop)
        return bw_error_set(err, BW_E_INTERRUPTED, "interrupted");
    return BW_OK;
}

/* one launch's duration: the event's, else the wall clock's */
static bw_code launch(probe *p, ocl_kernel *k, uint64_t global, uint64_t local, double *ns, bw_error *err)
{
    ocl_timing t;
    bw_code rc = stopped(p, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(p->c, k, global, local, &t, err);
    if (rc == BW_OK)
        *ns = t.event_ns > 0 ? t.event_ns : t.wall_ns;
    return rc;
}

/* The fastest of n samples: on a busy host, noise only adds time. */
static double fastest(const double *v, size_t n)
{
    double m = n ? v[0] : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

/* a warm-up launch, then the fastest of p->launches */
static bw_code time_fastest(probe *p, ocl_kernel *k, uint64_t global, uint64_t local, double *ns, bw_error *err)
{
    double v[16];
    int n = p->launches;
    bw_code rc = launch(p, k, global, local, &v[0], err); /* warm-up */
    for (int i = 0; i < n && rc == BW_OK; i++)
        rc = launch(p, k, global, local, &v[i], err);
    if (rc == BW_OK)
        *ns = fastest(v, (size_t)n);
    return rc;
}

/* The launch shape over n elements (see cl/probe.cl): a CPU runs one
 * work-item per `items` (a contiguous chunk each), a GPU enough
 * work-groups to fill it, neighbours side by side. */
typedef struct shape {
    uint64_t global, local;
    uint32_t per_item, item_pitch, iter_pitch;
} shape;

static shape shape_of(const probe *p, uint64_t n, uint64_t cpu_items)
{
    shape s;
    if (p->r->is_cpu) {
        s.global = cpu_items;
        s.local = 1;
        s.per_item = (uint32_t)(n / cpu_items);
        s.item_pitch = s.per_item;
        s.iter_pitch = 1;
        return s;
    }
    uint64_t local = p->gpu_local ? p->gpu_local : 1;
    uint64_t g = (uint64_t)(p->d->compute_units ? p->d->compute_units : 1) * 2048;
    if (g > p->out_items)
        g = p->out_items;
    if (g > n)
        g = n;
    g = g / local * local;
    if (g == 0) {
        g = local;
    }
    s.global = g;
    s.local = local;
    s.per_item = (uint32_t)(n / g ? n / g : 1);
    s.item_pitch = 1;
    s.iter_pitch = (uint32_t)g;
    return s;
}

/* repetitions of a walk of s's elements that make about `loads` loads */
static uint32_t reps_for(const shape *s, uint64_t loads)
{
    uint64_t per = (uint64_t)s->per_item * s->global;
    uint64_t r = per ? loads / per : 1;
    return (uint32_t)(r < 1 ? 1 : r > 65536 ? 65536 : r);
}

static bw_code set_shape_args(ocl_kernel *k, const shape *s, bw_error *err)
{
    bw_code rc = ocl_kernel_arg_u32(k, 2, s->per_item, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_u32(k, 3, s->item_pitch, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_u32(k, 4, s->iter_pitch, err);
    return rc;
}

void bench_probe_cycle(uint32_t *next, size_t n, uint64_t seed)
{
    /* Sattolo: a uniformly random permutation with a single cycle */
    uint32_t *perm = next; /* perm[i]: the i-th element of the cycle, built in place below */
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = n ? n - 1 : 0; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t j = (size_t)(x % i); /* j < i: Sattolo, not Fisher-Yates */
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* Sattolo's output is itself a permutation of one cycle: i -> perm[i] */
}

size_t bench_probe_page_cycle(uint32_t *next, size_t n, size_t line, size_t page, uint64_t seed)
{
    if (line == 0 || page < line || page % line || n < line)
        return 0;
    size_t per_page = page / line, nodes = n / line, pages = (nodes + per_page - 1) / per_page;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 7;
    /* the pages in a random order, then each page's lines in a random
     * order: every line of a page is visited before the chase moves on */
    uint32_t *order = malloc(pages * sizeof *order), *in_page = malloc(per_page * sizeof *in_page);
    if (!order || !in_page) {
        free(order);
        free(in_page);
        return 0;
    }
    for (size_t i = 0; i < pages; i++)
        order[i] = (uint32_t)i;
    for (size_t i = pages; i > 1; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        size_t j = (size_t)(x % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = (uint32_t)t;
    }
    uint32_t first = 0, prev = UINT32_MAX;
    for (size_t q = 0; q < pages; q++) {
        size_t base = (size_t)order[q] * per_page, m = nodes - base < per_page ? nodes - base : per_page;
        for (size_t i = 0; i < m; i++)
            in_page[i] = (uint32_t)((base + i) * line);
        for (size_t i = m; i > 1; i--) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t j = (size_t)(x % i);
            uint32_t t = in_page[i - 1];
            in_page[i - 1] = in_page[j];
            in_page[j] = t;
        }
        for (size_t i = 0; i < m; i++) {
            if (prev == UINT32_MAX)
                first = in_page[i];
            else
                next[prev] = in_page[i];
            prev = in_page[i];
        }
    }
    next[prev] = first;
    free(order);
    free(in_page);
    return nodes;
}

bw_code bench_probe_check_chase(const uint32_t *mark, size_t n, uint32_t end, uint32_t start, bw_error *err)
{
    size_t missed = 0, repeated = 0, first_missed = n, first_repeated = n;
    for (size_t i = 0; i < n; i++) {
        if (mark[i] == 0 && missed++ == 0)
            first_missed = i;
        if (mark[i] > 1 && repeated++ == 0)
            first_repeated = i;
    }
    if (missed || repeated)
        return bw_error_set(err, BW_E_VALIDATION,
                            "the pointer chase did not visit every element once: of %zu elements %zu were never "
                            "reached%s%zu%s and %zu more than once%s%zu%s",
                            n, missed, missed ? " (first: " : "", missed ? first_missed : (size_t)0,
                            missed ? ")" : "", repeated, repeated ? " (first: " : "",
                            repeated ? first_repeated : (size_t)0, repeated ? ")" : "");
    if (end != start)
        return bw_error_set(err, BW_E_VALIDATION,
                            "the pointer chase of %zu steps ended at element %u, not back at its start %u", n, end,
                            start);
    return BW_OK;
}

/* ---- the ladders ---- */

#define GPU_LLC_FLOOR (64 * MIB)

static uint64_t ladder_top(const probe *p)
{
    uint64_t llc = p->d->global_cache_bytes;
    for (size_t i = 0; i < p->r->n_host_caches; i++)
        if (p->r->is_cpu && p->r->host_caches[i].size_bytes > llc)
            llc = p->r->host_caches[i].size_bytes;
    if (llc < MIB)
        llc = 32 * MIB;
    int64_t hook_mib = 0;
    if (bw_hook_fault("probe_llc", NULL, &hook_mib) && hook_mib > 0)
        llc = (uint64_t)hook_mib * MIB;
    /* a GPU driver's figure need not be its last level: NVIDIA's is its L1s'
     * sum, far below its L2, and a ladder to twice the figure would time the
     * L2 as memory; so a GPU's ladder reaches past the largest L2s */
    if (!p->r->is_cpu && llc < GPU_LLC_FLOOR)
        llc = GPU_LLC_FLOOR;
    uint64_t top = (p->o->quick ? 2 : 4) * llc;
    uint64_t cap = p->d->max_alloc_bytes / 2;
    if (p->d->global_mem_bytes / 8 < cap)
        cap = p->d->global_mem_bytes / 8;
    if (cap > 1024 * MIB)
        cap = 1024 * MIB;
    if (top > cap)
        top = cap;
    if (top < 64 * KIB)
        top = 64 * KIB;
    return top;
}

/* bandwidth at one ladder size: on a CPU one work-item reads the set
 * `reps` times; on a GPU the full device reads it, each work-item `loads`
 * loads, together at least the whole set and 256 MiB */
static bw_code point_bandwidth(probe *p, bench_probe_point *pt, uint64_t n, bw_error *err)
{
    bw_code rc;
    double ns = 0;
    if (p->r->is_cpu) {
        /* four work-items per compute unit, each reading the whole set
         * (of whole 128-byte blocks: four uint8 vectors): with one each, a
         * short launch's items could all go to the first thread awake */
        uint64_t items = (p->d->compute_units ? p->d->compute_units : 1) * 4;
        items = items > 1024 ? 1024 : items;
        uint64_t n8 = n / 32 * 4, per_item = n8 * 32, target = 32 * MIB;
        uint32_t reps = (uint32_t)(target / per_item ? target / per_item : 1);
        if ((rc = ocl_kernel_arg_u32(p->k_read_cpu, 2, (uint32_t)n8, err)) != BW_OK ||
            (rc = ocl_kernel_arg_u32(p->k_read_cpu, 3, reps, err)) != BW_OK ||
            (rc = time_fastest(p, p->k_read_cpu, items, 1, &ns, err)) != BW_OK)
            return rc;
        pt->read_gbs = ns > 0 ? (double)(per_item * reps * items) / ns : 0;
        return BW_OK;
    }
    uint64_t local = p->gpu_local, global = p->gpu_items;
    uint64_t want = n > 64 * MIB ? n : 64 * MIB; /* elements */
    uint64_t loads = (want + global - 1) / global;
    if ((rc = ocl_kernel_arg_u32(p->k_read_wrap, 2, (uint32_t)n, err)) != BW_OK ||
        (rc = ocl_kernel_arg_u32(p->k_read_wrap, 3, (uint32_t)loads, err)) != BW_OK ||
        (rc = time_fastest(p, p->k_read_wrap, global, local, &ns, err)) != BW_OK)
        return rc;
    pt->read_gbs = ns > 0 ? (double)(global * loads * 4) / ns : 0;
    return BW_OK;
}

/* validation: a marked chase of exactly n steps from element 0, for
 * working sets up to 4 MiB (larger ones use the same kernel code); a
 * wrong walk clears chase_valid with the reason */
static bw_code check_marked_chase(probe *p, const bench_probe_point *pt, uint64_t n, bw_error *err)
{
    double ns = 0;
    uint32_t *mark = calloc((size_t)n, 4);
    if (!mark)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    uint32_t end = 0;
    bw_code rc;
    if ((rc = ocl_buffer_write(p->c, p->mark, 0, mark, n * 4, err)) == BW_OK &&
        (rc = ocl_kernel_arg_u32(p->k_mark, 4, (uint32_t)n, err)) == BW_OK &&
        (rc = launch(p, p->k_mark, 1, 1, &ns, err)) == BW_OK &&
        (rc = ocl_buffer_read(p->c, p->mark, 0, mark, n * 4, err)) == BW_OK)
        rc = ocl_buffer_read(p->c, p->out, 0, &end, 4, err);
    if (rc == BW_OK) {
        bw_error ve = BW_ERROR_INIT;
        if (bench_probe_check_chase(mark, (size_t)n, end, 0, &ve) != BW_OK) {
            p->r->chase_valid = 0;
            char sz[32];
            snprintf(sz, sizeof sz, "%llu KiB", (unsigned long long)(pt->bytes / KIB));
            snprintf(p->r->chase_note, sizeof p->r->chase_note, "at %s: %s", sz, bw_error_text(&ve));
        }
        bw_error_clear(&ve);
    }
    free(mark);
    return rc;
}

/* The fastest of p->launches timed chases, after a warm-up, of `steps`
 * steps by each of `global` work-items from starts[0..global-1]. Each
 * launch goes on where the last one ended, so that a cycle longer than
 * the cache is not walked over the same, now cached, elements again: a
 * large L2 keeps the 2^16 elements a launch visits, and a chase that
 * started afresh each launch would time the L2 as memory far past its
 * size. starts (host memory) is left at the last launch's ends, and last
 * (global entries) at that launch's starts, from which the host's walk
 * checks it. */
static bw_code chase_fastest(probe *p, uint32_t *starts, uint32_t *last, uint32_t global, uint32_t steps, double *ns,
                             bw_error *err)
{
    double v[16];
    int n = p->launches;
    bw_code rc = ocl_kernel_arg_u32(p->k_chase, 4, steps, err);
    for (int i = -1; i < n && rc == BW_OK; i++) {
        double t = 0;
        memcpy(last, starts, (size_t)global * sizeof *last);
        if ((rc = ocl_buffer_write(p->c, p->starts, 0, starts, (uint64_t)global * 4, err)) != BW_OK ||
            (rc = launch(p, p->k_chase, global, 1, &t, err)) != BW_OK ||
            (rc = ocl_buffer_read(p->c, p->out, 0, starts, (uint64_t)global * 4, err)) != BW_OK)
            break;
        if (i >= 0)
            v[i] = t;
    }
    if (rc == BW_OK)
        *ns = fastest(v, (size_t)n);
    return rc;
}

/* each of the cu parallel chases, from starts, must end at ends where the
 * host's walk of `steps` steps does (the first 4 where walking them all
 * would take long) */
static bw_code check_parallel_chases(probe *p, bench_probe_point *pt, const uint32_t *host_next,
                                     const uint32_t *starts, const uint32_t *ends, uint32_t cu, uint32_t steps)
{
    uint32_t check = cu;
    if ((uint64_t)cu * steps > ((uint64_t)1 << 22) && check > 4)
        check = 4;
    for (uint32_t w = 0; w < check; w++) {
        uint32_t want = starts[w];
        for (uint32_t i = 0; i < steps; i++)
            want = host_next[want];
        if (ends[w] != want) {
            p->r->chase_valid = 0;
            snprintf(p->r->chase_note, sizeof p->r->chase_note,
                     "at %llu KiB: parallel chase %u of %u steps ended at element %u, the host's walk at %u",
                     (unsigned long long)(pt->bytes / KIB), w, steps, ends[w], want);
            pt->latency_ns = pt->latency_cu_ns = 0;
            return BW_OK;
        }
    }
    return BW_OK;
}

/* One work-item's timed chase of `steps` steps from element 0 of the cycle
 * host_next (already on the device), in ns per load into *ns_per_load;
 * the last timed launch must end where the host's walk from its start
 * does, else chase_valid is cleared with a note naming `what` (*ns_per_load
 * then stays 0) */
static bw_code single_chase(probe *p, const bench_probe_point *pt, const uint32_t *host_next, uint32_t steps,
                            const char *what, double *ns_per_load, bw_error *err)
{
    uint32_t end = 0, from = 0;
    double ns = 0;
    *ns_per_load = 0;
    bw_code rc = chase_fastest(p, &end, &from, 1, steps, &ns, err);
    if (rc != BW_OK)
        return rc;
    uint32_t want = from;
    for (uint32_t i = 0; i < steps; i++)
        want = host_next[want];
    if (end != want) {
        p->r->chase_valid = 0;
        snprintf(p->r->chase_note, sizeof p->r->chase_note,
                 "at %llu KiB: the %s of %u steps ended at element %u, the host's walk at %u",
                 (unsigned long long)(pt->bytes / KIB), what, steps, end, want);
        return BW_OK;
    }
    *ns_per_load = ns / steps;
    return BW_OK;
}

/* the line and page (bytes) of the page-local chase: the device's cache
 * line where it gives a plausible one, else 64; a host page on a CPU,
 * 64 KiB (the GPUs' small page) on a GPU */
static void page_chase_shape(const probe *p, size_t *line, size_t *page)
{
    uint32_t l = p->d->global_cache_line_bytes;
    *line = l >= 16 && l <= 1024 && !(l & (l - 1)) ? l : 64;
    *page = p->r->is_cpu ? 4096 : 65536;
    if (*page < *line)
        *page = *line;
}

/* latency of a chase that visits each page's every line before it moves
 * on (bench_probe_page_cycle), one work-item, from the cycle's first
 * node; the timed chase must end where the host's walk does */
static bw_code page_chase(probe *p, bench_probe_point *pt, uint32_t *host_next, uint32_t steps, bw_error *err)
{
    size_t line, page;
    page_chase_shape(p, &line, &page);
    uint64_t n = pt->bytes / 4;
    if (n < line / 4)
        return BW_OK;
    if (bench_probe_page_cycle(host_next, (size_t)n, line / 4, page / 4, pt->bytes ^ 0x5A5A) == 0)
        return bw_error_set(err, BW_E_NOMEM, "out of memory for the page-local chase's cycle");
    bw_code rc = ocl_buffer_write(p->c, p->next, 0, host_next, n * 4, err);
    if (rc != BW_OK)
        return rc;
    return single_chase(p, pt, host_next, steps, "page-local chase", &pt->latency_page_ns, err);
}

static bw_code ladder_point(probe *p, bench_probe_point *pt, uint32_t *host_next, bw_error *err)
{
    uint64_t n = pt->bytes / 4;
    double ns = 0;
    bw_code rc = point_bandwidth(p, pt, n, err);
    if (rc != BW_OK)
        return rc;
    /* latency: a fresh cycle through n elements */
    bench_probe_cycle(host_next, (size_t)n, pt->bytes);
    if ((rc = ocl_buffer_write(p->c, p->next, 0, host_next, n * 4, err)) != BW_OK)
        return rc;
    uint32_t cu = p->d->compute_units ? p->d->compute_units : 1;
    if (cu > 1024)
        cu = 1024;
    uint32_t starts[1024];
    for (uint32_t i = 0; i < cu; i++)
        starts[i] = (uint32_t)((uint64_t)i * n / cu);
    if ((rc = ocl_buffer_write(p->c, p->starts, 0, starts, cu * 4, err)) != BW_OK)
        return rc;
    if (p->r->chase_valid && n <= MIB && (rc = check_marked_chase(p, pt, n, err)) != BW_OK)
        return rc;
    if (!p->r->chase_valid)
        return BW_OK;
    uint32_t steps = pt->bytes <= MIB ? (1u << 19) : (1u << 17);
    if (p->o->quick)
        steps /= 2;
    if ((rc = single_chase(p, pt, host_next, steps, "timed chase", &pt->latency_ns, err)) != BW_OK ||
        !p->r->chase_valid)
        return rc;
    uint32_t ends[1024], froms[1024];
    memcpy(ends, starts, cu * sizeof *ends);
    if ((rc = chase_fastest(p, ends, froms, cu, steps, &ns, err)) != BW_OK)
        return rc;
    pt->latency_cu_ns = ns / steps;
    if ((rc = check_parallel_chases(p, pt, host_next, froms, ends, cu, steps)) != BW_OK || !p->r->chase_valid)
        return rc;
    return page_chase(p, pt, host_next, steps, err);
}

/* the median of v[from..to] (inclusive), or 0 when none is above 0 */
static double plateau_median(const double *v, size_t from, size_t to)
{
    double x[BENCH_PROBE_MAX_POINTS];
    size_t m = 0;
    for (size_t i = from; i <= to; i++)
        if (v[i] > 0)
            x[m++] = v[i];
    return m ? bw_median(x, m) : 0;
}

/* the random chase's knees that no cache level explains: a knee within
 * span points of a level's knee is that level's; the rest are TLB reaches */
static void tlb_reaches(bench_probe_result *r, const double *lat, const model_fit_ladder *caches, size_t cache_steps,
                        size_t span)
{
    model_fit_ladder t;
    size_t steps = model_fit_ladder_levels(lat, NULL, r->n_points, 1.5, span, &t);
    for (size_t s = 0; s + 1 < steps && r->n_tlb < MODEL_FIT_MAX_STEPS; s++) {
        size_t e = t.end[s];
        int cache = 0;
        for (size_t c = 0; c + 1 < cache_steps; c++)
            cache |= (e > caches->end[c] ? e - caches->end[c] : caches->end[c] - e) <= span;
        if (cache)
            continue;
        bench_probe_tlb *b = &r->tlb[r->n_tlb++];
        b->size_bytes = r->points[e].bytes;
        b->next_bytes = e + 1 < r->n_points ? r->points[e + 1].bytes : b->size_bytes;
        b->below_ns = t.level[0][s];
        b->above_ns = t.level[0][s + 1];
        b->step = t.step[s];
    }
}

void bench_probe_levels(bench_probe_result *r)
{
    double bw[BENCH_PROBE_MAX_POINTS], lat[BENCH_PROBE_MAX_POINTS], page[BENCH_PROBE_MAX_POINTS];
    r->page_levels = r->chase_valid && r->n_points > 0;
    for (size_t i = 0; i < r->n_points; i++) {
        bw[i] = 1.0 / r->points[i].read_gbs; /* both curves grow past a knee */
        lat[i] = r->points[i].latency_ns;
        page[i] = r->points[i].latency_page_ns;
        r->page_levels &= page[i] > 0;
    }
    /* a knee is a level when both ladders show it or it persists across
     * neighbouring points, and the curve bends there
     * (model_fit_ladder_levels). The step is 1.5, not 1.3: on a shared
     * host other tenants' load moves the bandwidth ladder by more than 1.3,
     * and a latency ramp that climbs gradually through the caches passes
     * 1.3 more than once, so 1.3 finds levels that are not there; the bend
     * keeps a long, gradual latency ramp from becoming several levels.
     * The latency ladder of the levels is the page-local chase where there
     * is one: it changes page once a page's lines are read, so its knees
     * are the caches' alone, where the random chase's also mark each TLB's
     * reach. */
    size_t span = 1; /* points per doubling of the working set: the bend's reach */
    if (r->n_points >= 2 && r->points[1].bytes > r->points[0].bytes)
        span = (size_t)lround(1.0 / log2((double)r->points[1].bytes / (double)r->points[0].bytes));
    model_fit_ladder split;
    const double *levels_lat = r->chase_valid ? (r->page_levels ? page : lat) : NULL;
    size_t steps = model_fit_ladder_levels(bw, levels_lat, r->n_points, 1.5, span, &split);
    r->n_levels = 0;
    r->n_tlb = 0;
    r->have_memory = 0;
    if (steps == 0)
        return;
    size_t start = 0;
    for (size_t s = 0; s < steps; s++) {
        bench_probe_level *l = &r->levels[s];
        l->size_bytes = r->points[split.end[s]].bytes;
        l->read_gbs = 1.0 / split.level[0][s];
        l->latency_ns = r->chase_valid ? (r->page_levels ? plateau_median(lat, start, split.end[s]) : split.level[1][s]) : 0;
        l->latency_page_ns = r->page_levels ? split.level[1][s] : 0;
        double cu[BENCH_PROBE_MAX_POINTS];
        size_t m = 0;
        for (size_t i = start; i <= split.end[s]; i++)
            cu[m++] = r->points[i].latency_cu_ns;
        l->latency_cu_ns = r->chase_valid ? bw_median(cu, m) : 0;
        l->next_bytes = split.end[s] + 1 < r->n_points ? r->points[split.end[s] + 1].bytes : l->size_bytes;
        l->seen = split.seen[s];
        l->placed = split.placed[s];
        l->step = split.step[s];
        l->host_match = -1;
        start = split.end[s] + 1;
    }
    if (r->page_levels)
        tlb_reaches(r, lat, &split, steps, span);
    /* each host cache beside the level nearest its size, in order */
    uint64_t last[MODEL_FIT_MAX_STEPS], next[MODEL_FIT_MAX_STEPS], host[8];
    double step[MODEL_FIT_MAX_STEPS];
    int match[MODEL_FIT_MAX_STEPS];
    for (size_t s = 0; s + 1 < steps; s++) {
        last[s] = r->levels[s].size_bytes;
        next[s] = r->levels[s].next_bytes;
        step[s] = r->levels[s].step;
    }
    for (size_t h = 0; h < r->n_host_caches; h++)
        host[h] = r->host_caches[h].size_bytes;
    model_fit_match_caches(last, next, step, steps - 1, host, r->n_host_caches, match);
    for (size_t s = 0; s + 1 < steps; s++)
        r->levels[s].host_match = match[s];
    r->n_levels = steps - 1;
    r->have_memory = steps > 1;
}


static bw_code ladders(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    uint64_t top = ladder_top(p);
    int ppd = p->o->quick ? 2 : 4;
    r->n_points = 0;
    for (int k = 0; r->n_points < BENCH_PROBE_MAX_POINTS; k++) {
        double b = 4096.0 * pow(2.0, (double)k / ppd);
        uint64_t bytes = (uint64_t)(b / 256 + 0.5) * 256;
        if (bytes > top)
            break;
        r->points[r->n_points++].bytes = bytes;
    }
    uint32_t *host_next = malloc((size_t)(top / 4) * 4);
    if (!host_next)
        return bw_error_set(err, BW_E_NOMEM, "out of memory for the chase's cycle (%llu MiB)",
                            (unsigned long long)(top / MIB));
    bw_code rc = BW_OK;
    r->chase_valid = 1;
    snprintf(r->chase_note, sizeof r->chase_note,
             "every element visited exactly once by a marked chase of n steps at each size up to 4 MiB; "
             "every timed chase (one work-item, each of the parallel ones, and the page-local one) ended where the "
             "host's walk did");
    size_t done = 0;
    for (size_t i = 0; i < r->n_points && rc == BW_OK; i++) {
        progress(p, "cache and latency ladder", (double)i / (double)r->n_points);
        rc = ladder_point(p, &r->points[i], host_next, err);
        if (rc == BW_OK)
            done = i + 1;
    }
    free(host_next);
    if (rc == BW_E_INTERRUPTED) {
        /* the points measured stay; a partial ladder gives no levels */
        memset(r->points + done, 0, (r->n_points - done) * sizeof *r->points);
        r->n_points = done;
    }
    if (rc != BW_OK)
        return rc;
    bench_probe_levels(r);
    return BW_OK;
}

/* ---- transaction granularity ---- */

static bw_code granularity(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    uint64_t gran = r->gran_bytes;
    uint64_t cpu_items = 1;
    r->n_strides = BENCH_PROBE_STRIDES;
    for (size_t i = 0; i < r->n_strides; i++)
        r->stride_x[i] = (double)(4u << i);
    int step = p->o->quick ? 8 : 4;
    r->n_offsets = 0;
    for (int o = 0; o <= 256; o += step)
        r->offset_x[r->n_offsets++] = o;
    for (size_t k = 0; k < BENCH_PROBE_UNITS; k++)
        r->units[k] = (int64_t)8 << k;
    size_t total = r->n_strides + r->n_offsets + BENCH_PROBE_PAIRS;
    /* loads per launch: a few hundred microseconds or more, long enough
     * for the device's timer and short against a busy host's time slice */
    uint64_t loads = p->o->quick ? (1u << 18) : (1u << 19);
    double *samples = calloc(total * (size_t)p->launches, sizeof *samples);
    if (!samples)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = BW_OK;
    /* round-robin: every repeat visits every point, so drift hits all alike */
    for (int rep = -1; rep < p->launches && rc == BW_OK; rep++) {
        progress(p, "transaction granularity", (double)(rep + 1) / (p->launches + 1));
        for (size_t i = 0; i < total && rc == BW_OK; i++) {
            ocl_kernel *k;
            shape s;
            double per = 0, ns = 0;
            uint32_t reps = 1;
            if (i < r->n_strides) {
                uint32_t st = (uint32_t)r->stride_x[i] / 4;
                s = shape_of(p, gran / 4 / st, cpu_items);
                reps = reps_for(&s, loads);
                k = p->k_stride;
                rc = set_shape_args(k, &s, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 5, st, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 6, reps, err);
            } else if (i >= r->n_strides + r->n_offsets) {
                /* the sector pairs: beyond the caches (the ladder's largest
                 * working set, the whole source buffer: a CPU's sweeps stay in
                 * its caches, where a line's fill costs next to nothing), one
                 * element per 128 bytes on average for the apart walk */
                static const uint32_t second[BENCH_PROBE_PAIRS] = { 8, 16, 32 };
                s = shape_of(p, p->src_bytes / 128, cpu_items);
                reps = reps_for(&s, loads);
                k = p->k_pair;
                rc = set_shape_args(k, &s, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 5, second[i - r->n_strides - r->n_offsets], err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 6, reps, err);
            } else {
                uint32_t pitch = 512 / 4, off = (uint32_t)r->offset_x[i - r->n_strides] / 4;
                s = shape_of(p, gran / 512 - 1, cpu_items);
                reps = reps_for(&s, loads / 4);
                k = p->k_offset;
                rc = set_shape_args(k, &s, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 5, pitch, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 6, off, err);
                if (rc == BW_OK)
                    rc = ocl_kernel_arg_u32(k, 7, reps, err);
            }
            per = (double)s.per_item * (double)s.global * reps;
            if (rc == BW_OK)
                rc = launch(p, k, s.global, s.local, &ns, err);
            if (rc == BW_OK && rep >= 0)
                samples[i * (size_t)p->launches + (size_t)rep] = ns / per;
        }
    }
    for (size_t i = 0; i < total && rc == BW_OK; i++) {
        double m = fastest(samples + i * (size_t)p->launches, (size_t)p->launches);
        if (i < r->n_strides)
            r->stride_ns[i] = m;
        else if (i < r->n_strides + r->n_offsets)
            r->offset_ns[i - r->n_strides] = m;
        else
            r->pair_ns[i - r->n_strides - r->n_offsets] = m;
    }
    r->pair_ratio = r->pair_ns[0] > 0 ? r->pair_ns[1] / r->pair_ns[0] : NAN;
    r->pair_unit = bench_probe_pair_unit(r->pair_ratio, r->pair_why, sizeof r->pair_why);
    if (rc == BW_E_INTERRUPTED)
        r->n_strides = r->n_offsets = 0; /* a sweep cut short is left out */
    if (rc != BW_OK) {
        free(samples);
        return rc;
    }
    model_fit_candidates(r->stride_x, r->stride_ns, r->n_strides, 0, r->units, BENCH_PROBE_UNITS, r->stride_fit);
    model_fit_candidates(r->offset_x, r->offset_ns, r->n_offsets, BENCH_PROBE_BLOCK, r->units, BENCH_PROBE_UNITS,
                         r->offset_fit);
    for (size_t k = 0; k < BENCH_PROBE_UNITS; k++) {
        for (size_t i = 0; i < r->n_strides; i++)
            r->stride_model[k][i] =
                r->stride_fit[k].a * model_fit_stride_curve(r->stride_x[i], r->units[k]) + r->stride_fit[k].b;
        for (size_t i = 0; i < r->n_offsets; i++)
            r->offset_model[k][i] =
                r->offset_fit[k].a * model_fit_offset_curve(r->offset_x[i], BENCH_PROBE_BLOCK, r->units[k]) +
                r->offset_fit[k].b;
    }
    r->inferred_unit =
        model_fit_choose(r->stride_fit, r->offset_fit, BENCH_PROBE_UNITS, 0.7, r->unit_why, sizeof r->unit_why);
    bench_probe_unit_repeats(r, samples, (size_t)p->launches);
    free(samples);
    return BW_OK;
}

/* The unit the sweeps' fastest launches of one parity of repeat choose
 * (model_fit_choose, as for the whole run), 0 for none. */
static int64_t unit_of_half(const bench_probe_result *r, const double *samples, size_t launches, size_t half)
{
    double sx[BENCH_PROBE_STRIDES], ox[BENCH_PROBE_OFFSETS];
    for (size_t i = 0; i < r->n_strides + r->n_offsets; i++) {
        double m = INFINITY;
        for (size_t j = half; j < launches; j += 2)
            if (samples[i * launches + j] < m)
                m = samples[i * launches + j];
        if (i < r->n_strides)
            sx[i] = m;
        else
            ox[i - r->n_strides] = m;
    }
    model_fit_candidate sf[BENCH_PROBE_UNITS], of[BENCH_PROBE_UNITS];
    model_fit_candidates(r->stride_x, sx, r->n_strides, 0, r->units, BENCH_PROBE_UNITS, sf);
    model_fit_candidates(r->offset_x, ox, r->n_offsets, BENCH_PROBE_BLOCK, r->units, BENCH_PROBE_UNITS, of);
    char why[320];
    return model_fit_choose(sf, of, BENCH_PROBE_UNITS, 0.7, why, sizeof why);
}

void bench_probe_unit_repeats(bench_probe_result *r, const double *samples, size_t launches)
{
    if (!r->inferred_unit || launches < 4)
        return;
    int64_t even = unit_of_half(r, samples, launches, 0), odd = unit_of_half(r, samples, launches, 1);
    if (even == r->inferred_unit && odd == r->inferred_unit)
        return;
    char e[32] = "none", o[32] = "none";
    if (even)
        snprintf(e, sizeof e, "%lld B", (long long)even);
    if (odd)
        snprintf(o, sizeof o, "%lld B", (long long)odd);
    snprintf(r->unit_why, sizeof r->unit_why,
             "within noise: the fastest launches fit %lld B, but the even and the odd repeats alone fit %s and %s",
             (long long)r->inferred_unit, e, o);
    r->inferred_unit = 0;
}

int64_t bench_probe_pair_unit(double ratio, char *why, size_t n)
{
    why[0] = '\0';
    if (!(ratio > 0)) {
        snprintf(why, n, "not measured");
        return 0;
    }
    if (ratio >= BENCH_PROBE_PAIR_64)
        return 64;
    if (ratio <= BENCH_PROBE_PAIR_32)
        return 32;
    snprintf(why, n,
             "the split pair costs %.2fx the adjacent one, neither about 1 (32-byte units) nor about 2 (64-byte "
             "units): within noise, or a unit between",
             ratio);
    return 0;
}

/* ---- warp width and banks (GPUs) ---- */

static bw_code lanes(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    if (r->is_cpu) {
        snprintf(r->lanes_why, sizeof r->lanes_why,
                 "not measurable on a CPU device: its runtime runs a work-group as loops over vector lanes, "
                 "with no lock-step warp whose cost stays flat as lanes are switched on");
        return BW_OK;
    }
    progress(p, "warp width", 0);
    size_t wg = p->d->max_work_group_size, kmax = 0, mult = 0;
    if (wg > 1024)
        wg = 1024;
    bw_code rc = ocl_kernel_work_group_info(p->k_lanes, &kmax, &mult, err);
    if (rc != BW_OK)
        return rc;
    if (kmax && kmax < wg)
        wg = kmax;
    uint64_t groups = (uint64_t)(p->d->compute_units ? p->d->compute_units : 1) * 64;
    uint32_t iters = p->o->quick ? 1024 : 4096;
    rc = ocl_kernel_arg_buffer(p->k_lanes, 0, p->out, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_u32(p->k_lanes, 1, iters, err);
    if (groups * wg > p->out_items)
        groups = p->out_items / wg;
    r->n_lanes = 0;
    /* work-groups of a work-items, a = 1, 2, 4 .. the largest group */
    for (size_t a = 1; a <= wg && r->n_lanes < BENCH_PROBE_MAX_LANES && rc == BW_OK; a *= 2) {
        double ns = 0;
        rc = time_fastest(p, p->k_lanes, groups * a, a, &ns, err);
        r->lanes_x[r->n_lanes] = (double)a;
        r->lanes_ns[r->n_lanes++] = ns;
    }
    if (rc == BW_E_INTERRUPTED)
        r->n_lanes = 0;
    if (rc != BW_OK)
        return rc;
    /* the time per work-item against ceil(a / W) / a, on logarithms (a
     * pure scale: small and large groups weigh alike): it falls as 1/a up
     * to W and is flat past it. W = 1 is flat throughout: no warp seen */
    int64_t ws[BENCH_PROBE_MAX_LANES];
    double f[BENCH_PROBE_MAX_LANES], y[BENCH_PROBE_MAX_LANES], sse[BENCH_PROBE_MAX_LANES] = { 0 };
    size_t n = r->n_lanes;
    for (size_t i = 0; i < n; i++)
        y[i] = r->lanes_ns[i] / r->lanes_x[i];
    size_t best = 0;
    for (size_t k = 0; k < n; k++) {
        ws[k] = (int64_t)r->lanes_x[k];
        for (size_t i = 0; i < n; i++)
            f[i] = model_fit_lanes_curve(r->lanes_x[i], ws[k]) / r->lanes_x[i];
        sse[k] = model_fit_log_ratio_sse(f, y, n);
        if (sse[k] < sse[best])
            best = k;
    }
    double explained = sse[0] > 0 && isfinite(sse[best]) ? 1 - sse[best] / sse[0] : 0;
    /* width wg: the time per work-item falls all the way (the launch is
     * not bound by the lanes at all) */
    if (best == 0 || best == n - 1 || explained < 0.9) {
        snprintf(r->lanes_why, sizeof r->lanes_why,
                 "no warp width seen: the time per work-item against work-group sizes 1 .. %zu is best fitted by "
                 "width %lld, which is no warp (1: flat; %zu: falling throughout) or explains only %.0f%%",
                 wg, (long long)ws[best], wg, 100 * explained);
        return BW_OK;
    }
    r->inferred_lanes = ws[best];
    snprintf(r->lanes_why, sizeof r->lanes_why, "the launch time stays flat up to work-groups of %lld work-items, then "
             "grows with them (the fit explains %.0f%% of the per-work-item variation)", (long long)ws[best],
             100 * explained);
    return BW_OK;
}

/* Word strides 1..8, then up to 64: where B banks' ways saturate at the
 * warp (stride B and its multiples) tells B from B/2 at twice the cost,
 * which a fit with a free scale and floor cannot otherwise */
const double bench_probe_bank_strides[BENCH_PROBE_BANK_STRIDES] = { 1,  2,  3,  4,  5,  6,  7,  8,
                                                                     12, 16, 20, 24, 32, 40, 48, 64 };

void bench_probe_banks_infer(const double *x, const double *y, size_t n, int64_t w, bench_probe_result *r)
{
    int64_t banks = 0;
    double floor = 1, explained = 0;
    model_fit_banks(x, y, n, w, &banks, &floor, &explained);
    r->inferred_banks = 0;
    if (!banks || explained < 0.7) {
        snprintf(r->banks_why, sizeof r->banks_why,
                 "no bank count fits: the local stride sweep's best candidate (%lld banks of 4 B, %.2f ways' floor) "
                 "explains only %.0f%%",
                 (long long)banks, floor, 100 * explained);
        return;
    }
    r->inferred_banks = (int)banks;
    snprintf(r->banks_why, sizeof r->banks_why,
             "a local stride sweep (strides 1..64 words, %lld lanes) fits %lld banks of 4 B, t = max(ways, %.2f) "
             "(explains %.0f%%)",
             (long long)w, (long long)banks, floor, 100 * explained);
}

static bw_code banks(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    if (strcmp(p->d->local_mem_type, "local") != 0) {
        snprintf(r->banks_why, sizeof r->banks_why,
                 "does not apply: this device's local memory is %s memory, not banked (on PoCL it is ordinary "
                 "host memory)",
                 p->d->local_mem_type);
        return BW_OK;
    }
    progress(p, "banks", 0);
    int64_t w = p->d->geo.lanes > 0 ? p->d->geo.lanes : 32;
    uint32_t words = 4096, iters = p->o->quick ? 256 : 1024;
    /* groups of 256 work-items (8 warps of 32): enough warps that the
     * bank conflicts, not the issue of one warp, set the pace */
    uint64_t wg = 256;
    if (p->d->max_work_group_size && wg > p->d->max_work_group_size)
        wg = p->d->max_work_group_size / (uint64_t)w * (uint64_t)w;
    if (wg < (uint64_t)w)
        wg = (uint64_t)w;
    uint64_t groups = (uint64_t)(p->d->compute_units ? p->d->compute_units : 1) * 64;
    if (groups * wg > p->out_items)
        groups = p->out_items / wg;
    bw_code rc = ocl_kernel_arg_buffer(p->k_banks, 0, p->out, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_local(p->k_banks, 1, words * 4, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_u32(p->k_banks, 3, iters, err);
    enum { NS = BENCH_PROBE_BANK_STRIDES };
    double x[NS], y[NS];
    for (int i = 0; i < NS && rc == BW_OK; i++) {
        x[i] = bench_probe_bank_strides[i];
        rc = ocl_kernel_arg_u32(p->k_banks, 2, (uint32_t)x[i], err);
        if (rc == BW_OK)
            rc = time_fastest(p, p->k_banks, groups * wg, wg, &y[i], err);
    }
    if (rc != BW_OK)
        return rc;
    bench_probe_banks_infer(x, y, NS, w, r);
    return BW_OK;
}

/* ---- transfers and launch latency ---- */

bench_probe_map_verdict bench_probe_map_verdict_of(const bench_probe_map *m, size_t n, int moved, int unified)
{
    bench_probe_map_verdict v = { 0, 0, 0, 0, 0 };
    if (n == 0)
        return v;
    size_t lo = 0, hi = 0;
    for (size_t i = 1; i < n; i++) {
        if (m[i].bytes < m[lo].bytes)
            lo = i;
        if (m[i].bytes > m[hi].bytes)
            hi = i;
    }
    v.flat = n >= 2 && m[hi].bytes >= 64 * m[lo].bytes && m[hi].us <= BENCH_PROBE_MAP_FLAT * m[lo].us;
    v.cheap = m[hi].copy_us > 0 && m[hi].us * BENCH_PROBE_MAP_CHEAP <= m[hi].copy_us;
    v.no_copy = v.flat || v.cheap;
    v.same_pointer = !moved;
    v.zero_copy = v.no_copy && (!unified || v.same_pointer);
    return v;
}

/* the fastest copy of `bytes` in one direction measured so far, in us; 0: none */
static double copy_us_of(const bench_probe_result *r, int to_device, uint64_t bytes)
{
    double best = 0;
    for (size_t i = 0; i < r->n_transfers; i++) {
        const bench_probe_transfer *t = &r->transfers[i];
        if (t->to_device == to_device && t->bytes == bytes && t->us > 0 && (best == 0 || t->us < best))
            best = t->us;
    }
    return best;
}

static void map_note(bench_probe_result *r, int dir, const bench_probe_map *lo, const bench_probe_map *hi)
{
    const bench_probe_map_verdict *v = &r->map_verdict[dir];
    char *note = r->map_note[dir];
    size_t cap = sizeof r->map_note[dir];
    const char *how = dir ? "host to device (map for writing, unmap)" : "device to host (map for reading, unmap)";
    double lo_kib = (double)lo->bytes / 1024, hi_mib = (double)hi->bytes / (1024.0 * 1024.0);
    if (!v->no_copy) {
        snprintf(note, cap, "%s: copied: %.0f KiB took %.1f us and %.1f MiB %.1f us, %.0f%% of copying it",
                 how, lo_kib, lo->us, hi_mib, hi->us, hi->copy_us > 0 ? 100 * hi->us / hi->copy_us : 0.0);
        return;
    }
    char why[200];
    if (v->flat)
        snprintf(why, sizeof why, "the time did not grow with size (%.0f KiB: %.1f us, %.1f MiB: %.1f us)", lo_kib,
                 lo->us, hi_mib, hi->us);
    else
        snprintf(why, sizeof why, "%.1f MiB took %.1f us, 1/%.0f of copying it at the measured copy rate (%.1f us)",
                 hi_mib, hi->us, hi->us > 0 ? hi->copy_us / hi->us : 0.0, hi->copy_us);
    const char *ptr = v->same_pointer ? "every map returned the same host address, the buffer's own memory"
                                      : "the mapped host address moved between maps";
    if (v->zero_copy)
        snprintf(note, cap, "%s: zero-copy, no bandwidth: %s; %s%s", how, why, ptr,
                 r->unified ? " (CL_DEVICE_HOST_UNIFIED_MEMORY)" : "");
    else
        snprintf(note, cap, "%s: no copy measured, no bandwidth: %s; but %s on a unified-memory device, so "
                 "zero-copy is not shown", how, why, ptr);
}

/* Maps and unmaps of a CL_MEM_ALLOC_HOST_PTR buffer at every size of the
 * copies, and the verdict of each direction against those copies. */
static bw_code maps(probe *p, const uint64_t *sizes, size_t ns, uint64_t top, bw_error *err)
{
    bench_probe_result *r = p->r;
    ocl_buffer *b = NULL;
    ocl_map_seen seen[2];
    memset(seen, 0, sizeof seen);
    r->unified = p->d->host_unified_memory > 0;
    r->n_maps = 0;
    bw_code rc = ocl_buffer_create_host(p->c, top, "mapped", &b, err);
    for (size_t si = 0; si < ns && rc == BW_OK; si++) {
        progress(p, "maps", (double)si / (double)ns);
        for (int dir = 1; dir >= 0 && rc == BW_OK && r->n_maps < sizeof r->maps / sizeof r->maps[0]; dir--) {
            int reps = sizes[si] <= MIB ? (p->o->quick ? 9 : 21) : (p->o->quick ? 3 : 5);
            double v[32];
            ocl_timing t;
            rc = ocl_transfer_map(p->c, b, sizes[si], dir, 1, &t, &seen[dir], err); /* warm-up */
            for (int i = 0; i < reps && rc == BW_OK; i++) {
                rc = ocl_transfer_map(p->c, b, sizes[si], dir, 1, &t, &seen[dir], err);
                v[i] = t.wall_ns;
            }
            if (rc != BW_OK)
                break;
            bench_probe_map *m = &r->maps[r->n_maps++];
            m->to_device = dir;
            m->bytes = sizes[si];
            m->us = bw_median(v, (size_t)reps) / 1e3;
            m->copy_us = copy_us_of(r, dir, sizes[si]);
        }
    }
    ocl_buffer_free(b);
    if (rc != BW_OK)
        return rc;
    for (int dir = 0; dir < 2; dir++) {
        bench_probe_map one[16];
        size_t n = 0;
        for (size_t i = 0; i < r->n_maps && n < 16; i++)
            if (r->maps[i].to_device == dir)
                one[n++] = r->maps[i];
        if (n == 0)
            continue;
        r->map_verdict[dir] = bench_probe_map_verdict_of(one, n, seen[dir].moved, r->unified);
        size_t lo = 0, hi = 0;
        for (size_t i = 1; i < n; i++) {
            if (one[i].bytes < one[lo].bytes)
                lo = i;
            if (one[i].bytes > one[hi].bytes)
                hi = i;
        }
        map_note(r, dir, &one[lo], &one[hi]);
        for (size_t i = 0; i < r->n_maps; i++) {
            bench_probe_map *m = &r->maps[i];
            if (m->to_device != dir)
                continue;
            m->zero_copy = r->map_verdict[dir].zero_copy;
            /* a bandwidth only where something was copied: never for a
             * direction that copies nothing, nor for a map faster than
             * a tiny fraction of copying its bytes */
            int copied = !r->map_verdict[dir].no_copy && m->copy_us > 0 &&
                         m->us * BENCH_PROBE_MAP_CHEAP > m->copy_us;
            m->gbs = copied && m->us > 0 ? (double)m->bytes / (m->us * 1e3) : 0;
        }
    }
    return BW_OK;
}

static bw_code launch_latency(probe *p, bw_error *err);

static bw_code transfers(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    uint64_t top = p->o->quick ? 16 * MIB : 1024 * MIB;
    if (p->d->max_alloc_bytes < top)
        top = p->d->max_alloc_bytes;
    if (p->d->global_mem_bytes / 16 < top)
        top = p->d->global_mem_bytes / 16;
    if (top < 4 * KIB)
        top = 4 * KIB;
    ocl_buffer *dev = NULL;
    ocl_host_mem *hm[2] = { NULL, NULL };
    bw_code rc = BW_OK;
    uint64_t have = 0; /* the buffers' size: they grow with the sizes reached */
    uint64_t sizes[16];
    size_t ns = 0;
    for (uint64_t b = 4 * KIB; b <= top && ns < 16; b *= 4)
        sizes[ns++] = b;
    r->n_transfers = 0;
    r->transfers_note[0] = 0;
    double last_s = 0; /* the last size's copies */
    for (size_t si = 0; si < ns && rc == BW_OK; si++) {
        /* the next size moves 4 x the bytes, and its maps follow: priced
         * at 6 x the last size's copies */
        double t0 = bench_now_s();
        /* up to 64 x the first size whatever the deadline (microseconds of
         * copies): a map is judged flat over that range, and a sanitizer
         * build with a cold kernel cache had spent 4 s before the first */
        if (p->o->deadline_s > 0 && si > 0 && sizes[si] > 64 * sizes[0] && t0 + 6 * last_s > p->o->deadline_s) {
            char a[32];
            bw_format_bytes(a, sizeof a, (double)sizes[si - 1]);
            snprintf(r->transfers_note, sizeof r->transfers_note,
                     "copies up to %s: the next size (4 x the bytes) would pass the %.1f s the budget left the "
                     "transfers, their kernel's build included", a, p->o->deadline_s - p->t0);
            ns = si;
            break;
        }
        progress(p, "transfers", (double)si / (double)ns);
        /* made at the sizes reached, not at the largest one: 1 GiB of a
         * device buffer and two host ones cost 2 s on PoCL before the
         * first copy, more than a short deadline holds */
        if (sizes[si] > have) {
            for (int m = 0; m < 2; m++) {
                ocl_host_mem_free(hm[m]);
                hm[m] = NULL;
            }
            ocl_buffer_free(dev);
            dev = NULL;
            have = sizes[si] > 16 * MIB ? sizes[si] : 16 * MIB;
            have = have < top ? have : top;
            rc = ocl_buffer_create(p->c, have, "transfer", &dev, err);
            for (int m = 0; m < 2 && rc == BW_OK; m++)
                rc = ocl_host_mem_create(p->c, have, m, &hm[m], err);
        }
        for (int dir = 1; dir >= 0 && rc == BW_OK; dir--)
            for (int m = 0; m < 2 && rc == BW_OK; m++)
                for (int blk = 1; blk >= 0 && rc == BW_OK; blk--) {
                    unsigned count = blk ? 1 : 4;
                    int reps = sizes[si] <= MIB ? (p->o->quick ? 9 : 21) : (p->o->quick ? 3 : 5);
                    double v[32];
                    ocl_timing t;
                    rc = stopped(p, err);
                    if (rc == BW_OK)
                        rc = ocl_transfer_run(p->c, dev, ocl_host_mem_ptr(hm[m]), sizes[si], dir, blk, count, &t,
                                              err);
                    for (int i = 0; i < reps && rc == BW_OK; i++) {
                        if ((rc = stopped(p, err)) != BW_OK)
                            break;
                        rc = ocl_transfer_run(p->c, dev, ocl_host_mem_ptr(hm[m]), sizes[si], dir, blk, count, &t,
                                              err);
                        v[i] = t.wall_ns;
                    }
                    if (rc != BW_OK || r->n_transfers >= BENCH_PROBE_MAX_TRANSFERS)
                        break;
                    bench_probe_transfer *x = &r->transfers[r->n_transfers++];
                    x->to_device = dir;
                    x->pinned = m;
                    x->blocking = blk;
                    x->bytes = sizes[si];
                    double med = bw_median(v, (size_t)reps);
                    x->us = med / 1e3;
                    x->gbs = med > 0 ? (double)sizes[si] / med : 0;
                    if (si == 0 && dir && !m && blk) {
                        r->small_transfer_us = x->us;
                        r->small_transfer_bytes = sizes[si];
                    }
                }
        last_s = bench_now_s() - t0;
    }
    for (int m = 0; m < 2; m++)
        ocl_host_mem_free(hm[m]);
    ocl_buffer_free(dev);
    if (rc == BW_OK)
        rc = maps(p, sizes, ns, ns ? sizes[ns - 1] : top, err);
    return rc == BW_OK ? launch_latency(p, err) : rc;
}

/* launch latency: an empty kernel, one work-item */
static bw_code launch_latency(probe *p, bw_error *err)
{
    bench_probe_result *r = p->r;
    unsigned n = p->o->quick ? 51 : 201;
    double *w = malloc(3 * n * sizeof *w);
    if (!w)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    bw_code rc = ocl_kernel_arg_buffer(p->k_empty, 0, p->out, err);
    progress(p, "launch latency", 0);
    for (unsigned i = 0; i < n + 5 && rc == BW_OK; i++) {
        ocl_launch_latency l;
        if ((rc = stopped(p, err)) != BW_OK)
            break;
        rc = ocl_kernel_launch_latency(p->c, p->k_empty, 1, 1, &l, err);
        if (rc == BW_OK && i >= 5) {
            w[i - 5] = l.wall_ns;
            w[n + i - 5] = l.queued_to_start_ns;
            w[2 * n + i - 5] = l.queued_to_end_ns;
        }
    }
    if (rc == BW_OK) {
        r->launches = n;
        r->launch_wall_us = bw_median(w, n) / 1e3;
        r->launch_timer_wall = !ocl_context_timer(p->c, NULL, NULL);
        if (r->launch_timer_wall) {
            /* what the host clock measures is exactly enqueue to the end */
            r->launch_end_us = r->launch_wall_us;
            r->launch_start_us = 0;
            snprintf(r->launch_note, sizeof r->launch_note,
                     "no profiling queue (the driver refused CL_QUEUE_PROFILING_ENABLE): queued to end is the host "
                     "clock from enqueue to clFinish; queued to start cannot be measured without events");
        } else {
            r->launch_start_us = bw_median(w + n, n) / 1e3;
            r->launch_end_us = bw_median(w + 2 * n, n) / 1e3;
        }
    }
    free(w);
    return rc;
}

/* ---- set-up ---- */

static bw_code kernel(ocl_program *prog, const char *name, ocl_kernel **k, bw_error *err)
{
    return ocl_kernel_create(prog, name, k, err);
}

/* the probe's two programs and the kernels this device runs */
static bw_code build_kernels(probe *p, bw_error *err)
{
    char *src = NULL;
    bw_code rc = bench_kernel_source_load(p->o->kernel_dir, BENCH_PROBE_KERNEL_FILE, &src, &p->r->kernel_path, err);
    if (rc != BW_OK)
        return rc;
    rc = ocl_program_build(p->c, src, BENCH_PROBE_KERNEL_FILE, NULL, &p->prog, err);
    if (rc == BW_OK)
        rc = stopped(p, err);
    if (rc == BW_OK && !p->o->transfers_only)
        rc = ocl_program_build(p->c, src, BENCH_PROBE_KERNEL_FILE, "-DPROBE_MARK", &p->mark_prog, err);
    if (rc == BW_OK)
        rc = stopped(p, err);
    free(src);
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_empty", &p->k_empty, err);
    if (p->o->transfers_only) {
        if (rc == BW_OK)
            rc = ocl_buffer_create(p->c, 4096, "out", &p->out, err);
        return rc;
    }
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_read", &p->k_read, err);
    if (rc == BW_OK && !p->r->is_cpu)
        rc = kernel(p->prog, "probe_read_wrap", &p->k_read_wrap, err);
    if (rc == BW_OK && p->r->is_cpu)
        rc = kernel(p->prog, "probe_read_cpu", &p->k_read_cpu, err);
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_chase", &p->k_chase, err);
    if (rc == BW_OK)
        rc = kernel(p->mark_prog, "probe_chase", &p->k_mark, err);
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_stride", &p->k_stride, err);
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_offset", &p->k_offset, err);
    if (rc == BW_OK)
        rc = kernel(p->prog, "probe_pair", &p->k_pair, err);
    if (rc == BW_OK && !p->r->is_cpu)
        rc = kernel(p->prog, "probe_lanes", &p->k_lanes, err);
    if (rc == BW_OK && !p->r->is_cpu && !strcmp(p->d->local_mem_type, "local"))
        rc = kernel(p->prog, "probe_banks", &p->k_banks, err);
    return rc;
}

/* the work-group and launch sizes, and the buffers they need */
static bw_code size_buffers(probe *p, bw_error *err)
{
    bw_code rc = BW_OK;
    p->gpu_local = GPU_LOCAL;
    if (p->d->max_work_group_size && p->gpu_local > p->d->max_work_group_size)
        p->gpu_local = p->d->max_work_group_size;
    ocl_kernel *sk[] = { p->k_read, p->k_stride, p->k_offset, p->k_pair, p->k_read_wrap, p->k_read_cpu };
    for (size_t i = 0; i < 6 && rc == BW_OK; i++) {
        if (!sk[i])
            continue;
        size_t kmax = 0, mult = 0;
        rc = ocl_kernel_work_group_info(sk[i], &kmax, &mult, err);
        while (rc == BW_OK && kmax && p->gpu_local > kmax)
            p->gpu_local /= 2;
    }
    if (rc != BW_OK)
        return rc;
    uint64_t top = ladder_top(p);
    p->r->gran_bytes = p->r->is_cpu ? 2 * MIB : top;
    p->src_bytes = top > p->r->gran_bytes ? top : p->r->gran_bytes;
    p->src_bytes += 4096; /* the offset sweep's last block */
    p->out_items = (uint64_t)(p->d->compute_units ? p->d->compute_units : 1) * 2048 * 16;
    if (p->out_items * 4 > p->d->max_alloc_bytes)
        p->out_items = p->d->max_alloc_bytes / 4;
    uint32_t cu = p->d->compute_units ? p->d->compute_units : 1;
    p->gpu_items = (uint64_t)cu * 2048;
    if (p->gpu_items > p->out_items)
        p->gpu_items = p->out_items;
    p->gpu_items = p->gpu_items / p->gpu_local * p->gpu_local;
    if (p->gpu_items == 0)
        p->gpu_items = p->gpu_local;
    if ((rc = ocl_buffer_create(p->c, p->src_bytes, "src", &p->src, err)) != BW_OK ||
        (rc = ocl_buffer_create(p->c, p->out_items * 4, "out", &p->out, err)) != BW_OK ||
        (rc = ocl_buffer_create(p->c, top, "next", &p->next, err)) != BW_OK ||
        (rc = ocl_buffer_create(p->c, (cu > 1024 ? 1024 : cu) * 4, "starts", &p->starts, err)) != BW_OK ||
        (rc = ocl_buffer_create(p->c, MIB * 4, "mark", &p->mark, err)) != BW_OK)
        return rc;
    return BW_OK;
}

static bw_code setup(probe *p, bw_error *err)
{
    bw_code rc = build_kernels(p, err);
    if (rc != BW_OK || p->o->transfers_only)
        return rc;
    if ((rc = size_buffers(p, err)) != BW_OK)
        return rc;
    /* pseudo-random source data, written in chunks before anything is timed */
    uint32_t *chunk = malloc(MIB * 4);
    if (!chunk)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    uint32_t x = 2463534242u;
    for (uint64_t off = 0; off < p->src_bytes && rc == BW_OK && (rc = stopped(p, err)) == BW_OK; off += MIB * 4) {
        uint64_t len = p->src_bytes - off < MIB * 4 ? p->src_bytes - off : MIB * 4;
        for (uint64_t i = 0; i < len / 4; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            chunk[i] = x;
        }
        rc = ocl_buffer_write(p->c, p->src, off, chunk, len, err);
    }
    free(chunk);
    ocl_kernel *ks[] = { p->k_read, p->k_stride, p->k_offset, p->k_pair, p->k_read_wrap, p->k_read_cpu };
    for (size_t i = 0; i < 6 && rc == BW_OK; i++) {
        if (!ks[i])
            continue;
        rc = ocl_kernel_arg_buffer(ks[i], 0, p->src, err);
        if (rc == BW_OK)
            rc = ocl_kernel_arg_buffer(ks[i], 1, p->out, err);
    }
    ocl_kernel *cs[] = { p->k_chase, p->k_mark };
    for (size_t i = 0; i < 2 && rc == BW_OK; i++) {
        if ((rc = ocl_kernel_arg_buffer(cs[i], 0, p->next, err)) == BW_OK &&
            (rc = ocl_kernel_arg_buffer(cs[i], 1, p->starts, err)) == BW_OK &&
            (rc = ocl_kernel_arg_buffer(cs[i], 2, p->out, err)) == BW_OK)
            rc = ocl_kernel_arg_buffer(cs[i], 3, p->mark, err);
    }
    return rc;
}

static void probe_free(probe *p)
{
    ocl_kernel *ks[] = { p->k_read,   p->k_read_wrap, p->k_chase, p->k_mark,  p->k_stride,
                         p->k_offset, p->k_pair,      p->k_empty, p->k_lanes, p->k_banks, p->k_read_cpu };
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        ocl_kernel_free(ks[i]);
    ocl_program_free(p->prog);
    ocl_program_free(p->mark_prog);
    ocl_buffer *bs[] = { p->src, p->out, p->next, p->starts, p->mark };
    for (size_t i = 0; i < sizeof bs / sizeof *bs; i++)
        ocl_buffer_free(bs[i]);
}

bw_code bench_probe_run(ocl_context *c, const bench_probe_opts *o, bench_probe_result **out, bw_error *err)
{
    *out = NULL;
    double t0 = bench_now_s();
    probe p;
    memset(&p, 0, sizeof p);
    p.c = c;
    p.d = ocl_context_device(c);
    p.o = o;
    p.t0 = t0;
    p.launches = o->quick ? 5 : 7;
    bench_probe_result *r = calloc(1, sizeof *r);
    if (!r)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    p.r = r;
    r->quick = o->quick;
    r->is_cpu = p.d->type == OCL_TYPE_CPU;
    r->device_cache_bytes = p.d->global_cache_bytes;
    if (r->is_cpu)
        r->n_host_caches = bench_host_caches("/sys", r->host_caches, 8);
    p.phase = "set-up";
    bw_code rc = setup(&p, err);
    if (rc == BW_OK && !o->transfers_only)
        rc = ladders(&p, err);
    if (rc == BW_OK && !o->transfers_only)
        rc = granularity(&p, err);
    if (rc == BW_OK && !o->transfers_only)
        rc = lanes(&p, err);
    if (rc == BW_OK && !o->transfers_only)
        rc = banks(&p, err);
    if (rc == BW_OK)
        rc = transfers(&p, err);
    probe_free(&p);
    r->seconds = bench_now_s() - t0;
    if (rc == BW_E_INTERRUPTED) {
        r->interrupted = 1;
        snprintf(r->interrupted_in, sizeof r->interrupted_in, "%s", p.phase);
        if (!r->launches)
            r->launch_wall_us = r->launch_start_us = r->launch_end_us = 0;
        *out = r;
        return rc;
    }
    if (rc != BW_OK) {
        bench_probe_result_free(r);
        return rc;
    }
    *out = r;
    return BW_OK;
}

void bench_probe_result_free(bench_probe_result *r)
{
    if (!r)
        return;
    free(r->kernel_path);
    free(r);
}
