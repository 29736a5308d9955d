/* bench_plan: what `bwlab run` measures on one device and at what size,
 * with the model's accounting of every launch (docs/design.md §2.3, §4).
 *
 * Each pattern becomes one kernel launch of `items` work-items: work-item g
 * loads elem bytes at the pattern's address A(g) and stores them at
 * dst[g]. The plan sizes each launch from the device's own limits so that
 * the pattern's modeled footprint reaches the working-set target (at least
 * 4x the global-memory cache by default) without exceeding the largest
 * allocation, checks that OpenCL can load at every address, and accounts
 * requested, instruction-model and footprint bytes for loads and stores.
 * Pure host code: the device comes in as plain numbers. */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_access.h"
#include "model_geometry.h"
#include "model_launch.h"
#include "model_pattern.h"
#include "model_warp.h"

/* What the plan needs to know of the device. */
typedef struct bench_limits {
    uint64_t cache_bytes;     /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: unknown) */
    uint64_t max_alloc_bytes; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    uint64_t global_mem_bytes;
    uint64_t max_work_group;  /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    int is_gpu;               /* GPUs get a larger floor: their last-level caches outgrow what they report */
} bench_limits;

typedef struct bench_item {
    char *spec;             /* canonical pattern spec, or "expr:<expression>" */
    const char *family;     /* catalogue family, or "expr" */
    char *expr_text;        /* canonical address expression (bytes) */
    int64_t elem;           /* bytes per lane: 4, 8 or 16 */
    model_lanes active;     /* lanes that load (and store) */
    const model_expr *expr; /* the load address; owned by pattern or own_expr */
    model_pattern *pattern; /* NULL for a user expression */
    model_expr *own_expr;
    model_expr *store_expr; /* E*g: the store to dst[g] */
    int added_as_reference; /* seq added so the others have a reference */
    int64_t items;          /* work-items launched, a multiple of local_size */
    int64_t local_size;
    model_access_span span; /* of the loads: buffer extent and alignment */
    int vload;              /* addresses 4-byte aligned only: load with vloadn */
    char *size_note;        /* why the working set misses the target, or NULL */
    model_launch model;     /* loads at A(g), stores at dst[g] */
    model_warp warp0;       /* warp 0 of the launch, for one-warp figures */
    int index32_proven;     /* every index value fits in int for this launch (model_index_fits32) */
    int index_bits;         /* the kernel's index arithmetic: 32 (int) or 64 (long) */
} bench_item;

typedef struct bench_plan {
    bench_item *items;
    size_t n;
    model_geometry geo;
    uint64_t target_bytes;  /* working set each pattern should touch */
    int target_auto;        /* 1: from the cache size; 0: --size */
    int64_t local_size;
    uint64_t src_bytes;     /* source buffer: the largest extent of any pattern */
    uint64_t dst_bytes;     /* destination buffer */
    int reqd_sub_group_size; /* the sub-group size kernels ask for (Intel), 0: none */
} bench_plan;

typedef struct bench_plan_opts {
    const char *const *specs; /* pattern specs; none and no exprs: the default set */
    size_t nspecs;
    const char *const *exprs; /* user address expressions */
    size_t nexprs;
    int64_t elem;             /* --elem, 0 when not given */
    uint64_t size;            /* --size in bytes, 0 for auto */
    int64_t local_size;       /* 0: automatic (256, a multiple of W) */
    int with_defaults;        /* the default set too, before specs and exprs ("all") */
    /* --index: 32 or 64 forces the form of the index arithmetic; 0 (auto)
     * takes 32 on a GPU where it is proven to fit, else 64: on PoCL, int
     * indices hide contiguity from the vectoriser behind zero-extensions */
    int index_bits;
    int reqd_sub_group_size;  /* ask kernels for this sub-group size (Intel), 0: no request */
} bench_plan_opts;

/* Builds the plan. Fails with BW_E_USAGE for an unknown pattern or bad
 * element size, BW_E_SYNTAX / BW_E_EVAL for a bad expression,
 * BW_E_UNSUPPORTED for addresses OpenCL cannot load from (misaligned or
 * below the buffer), BW_E_TOOBIG when --size or a single work-group exceeds
 * the device's largest allocation, BW_E_USAGE for --index 32 on a pattern
 * whose index values are not proven to fit in int. Messages name the
 * pattern and value. */
bw_code bench_plan_make(const bench_plan_opts *opts, const model_geometry *geo,
                        const bench_limits *lim, bench_plan **out, bw_error *err);
void bench_plan_free(bench_plan *p); /* accepts NULL */

/* Index of the item that serves as `seq` reference for item i (same
 * element size if present, else any seq), or -1. */
long bench_plan_reference(const bench_plan *p, size_t i);

/* The default pattern set for warp width W, element size elem (0: the
 * sweep's own sizes) and matrix order n; returns heap specs (caller frees
 * each and the array). */
char **bench_plan_default_specs(int64_t elem, int64_t matrix_n, size_t *count);

#endif
