/* bench_plan: what `bwlab run` measures on one device and at what size,
 * with the model's accounting of every launch (docs/design.md §2.3, §4).
 *
 * Each pattern becomes one kernel launch of `items` work-items: work-item g
 * loads elem bytes at the pattern's address A(g) and, in copy mode, stores
 * them at dst[g]; in read mode it stores them only where they equal a key,
 * and the model counts the loads alone (bench_access). The plan sizes each launch from the device's own limits so that
 * the pattern's modeled footprint reaches the working-set target, checks
 * that OpenCL can load at every address, and accounts requested,
 * instruction-model and footprint bytes for loads and stores. Pure host
 * code: the device comes in as plain numbers.
 *
 * Sizing rules:
 * - auto target: 4x the last-level cache: the device's global-memory cache,
 *   else (a CPU device reporting none) the host's, else 256 MiB; at least
 *   16 MiB (512 MiB on a GPU); at most the largest allocation and a quarter
 *   of global memory.
 * - every buffer (src, dst) fits the largest allocation and, on a device of
 *   fewer than 64 address bits, 2^bits bytes; every launch's work-item count
 *   fits 2^bits and the host's size_t.
 * - memory budget: src and dst together at most 3/4 of global memory, the
 *   rest left to the driver and the display. When the patterns' largest
 *   buffers together exceed it, each buffer is held to half the budget.
 * A pattern whose buffers would exceed a limit is launched with fewer
 * work-items and says so in size_note; --size itself beyond a limit is an
 * error (BW_E_TOOBIG). */
#ifndef BENCH_PLAN_H
#define BENCH_PLAN_H

#include "results_run_fields.h"
#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "model_access.h"
#include "model_geometry.h"
#include "model_launch.h"
#include "model_pattern.h"
#include "model_warp.h"

/* What the plan needs to know of the device (and, for a CPU device, of the
 * host). Fields after is_gpu may be left zero. */
typedef struct bench_limits {
    uint64_t cache_bytes;     /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (0: unknown) */
    uint64_t max_alloc_bytes; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    uint64_t global_mem_bytes; /* CL_DEVICE_GLOBAL_MEM_SIZE (0: unknown, no budget) */
    uint64_t max_work_group;  /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    int is_gpu;               /* GPUs get a larger floor: their last-level caches outgrow what they report */
    uint32_t address_bits;    /* CL_DEVICE_ADDRESS_BITS (0: unknown, taken as 64) */
    uint64_t host_llc_bytes;  /* the host's last-level cache, used when cache_bytes is 0; set
                               * for CPU devices only (0: unknown) */
    char host_llc_source[256]; /* where host_llc_bytes came from (bench_host_llc) */
} bench_limits;

/* What a pattern's kernel does with the element each work-item loads
 * (docs/model.md, "Read and copy"). */
typedef enum bench_access {
    BENCH_ACCESS_COPY,  /* stores it at dst[g]: a coalesced store beside every load, counted by the model */
    BENCH_ACCESS_READ,  /* compares it with a runtime key and stores only where equal: the model counts
                         * the loads alone */
    BENCH_ACCESS_WRITE, /* the other way round: loads src[g] (coalesced) and stores it at the
                         * pattern's address, dst[A(g)]; the pattern's side is the stores. Only
                         * for one-to-one stores: OpenCL leaves unspecified which of several
                         * writers' values lands on a shared byte */
} bench_access;
#define BENCH_ACCESS_MODES 3

/* bench_plan_opts.access: a bit per mode measured */
#define BENCH_ACCESS_BIT(a) (1u << (a))

typedef struct bench_item {
    char *spec;             /* canonical pattern spec, or "expr:<expression>" */
    const char *family;     /* catalogue family, or "expr" */
    char *expr_text;        /* canonical address expression (bytes) */
    int64_t elem;           /* bytes per lane: 4, 8 or 16 */
    model_lanes active;     /* lanes that load (and store) */
    const model_expr *expr; /* the pattern's address, which the kernel computes: the load's, or
                             * in write mode the store's; owned by pattern or own_expr */
    model_pattern *pattern; /* NULL for a user expression */
    model_expr *own_expr;
    model_expr *store_expr; /* the other side: E*g, the store to dst[g] (the load from src[g] in
                             * write mode), or a family's own store (transpose) */
    bench_access access;    /* copy, read (loads only) or write (stores at the pattern) */
    int added_as_reference; /* added by the plan so that others have their reference (bench_family.reference_spec) */
    int from_defaults;      /* one of the default set's items, not named by the user */
    int64_t items;          /* work-items launched, a multiple of local_size (but see launch_items) */
    int64_t launch_items;   /* > 0: work-items launched when they are fewer than items, the
                             * elements they cover (a tiled transpose loops over its tile's
                             * rows); 0: items */
    int64_t local_size;     /* the plan's, or lower when the built kernel allows fewer
                             * (bench_plan_fit_kernel) */
    /* K, the virtual items each work-item performs (gather and record:
     * work-item p runs items p + j * items / K, j < K; the launch is
     * launch_items = items / K work-items). unroll_want is what the plan
     * asked (bench_plan_opts.unroll, or a calibration's ladder); unroll is
     * the K that runs: the largest power of two up to it whose launch
     * (items / K) stays a multiple of the work-group and of W
     * (bench_plan_fit_unroll). The model does not change with K: it
     * counts the same warp-instructions, issued by other work-items. */
    int unroll_want;
    int unroll;
    model_access_span span; /* of the pattern's addresses (expr): the loads' extent in src and their
                             * alignment, or in write mode the stores' in dst */
    int vload;              /* addresses 4-byte aligned only: load (write mode: store) with vloadn
                             * (vstoren) */
    char *size_note;        /* why the working set misses the target, or NULL */
    model_launch model;     /* loads at A(g), and for copy stores at dst[g]; in write mode loads
                             * at src[g] and stores at A(g) */
    model_warp warp0;       /* warp 0 of the launch, for one-warp figures */
    int index32_proven;     /* every index value fits in int for this launch (model_index_fits32) */
    int index_bits;         /* the kernel's index arithmetic: 32 (int) or 64 (long) */
    /* it also gets a second kernel form (bench_form): the plan's
     * scalar_form, for a gather item whose lanes do not load consecutive
     * elements (bench_twin_contiguous: there the plain form's one vector
     * load beats W scalar ones, about twice over on PoCL). alt_form is
     * which: the warp form where each warp's lanes stay within one warp's
     * bytes (bench_twin_warp_dense) and the work-group holds whole warps,
     * else the scalar form. */
    int scalar_form;
    int alt_form; /* bench_form */
    /* the warp form's kernel limit in work-items (warps), set when its
     * kernel is built; 0: unknown, which keeps its work-group at
     * local_size / W (bench_item_warp_group) */
    int64_t warp_kernel_max;
    /* The kernel family that runs it (bench_family.h): how it is sized,
     * referenced, built, validated and traced, looked up from its
     * pattern's catalogue entry (model_pattern_family.kernel); gather for
     * a user expression. A static entry, never freed. */
    const struct bench_family *fam;
    /* Family data, kept as plain fields (few, and each read by name in the
     * report) rather than a per-family block; meaningful for the families
     * named, zero for the others:
     * - bank (cl/bank.cl, bench_bank): one W x W tile per work-group of
     *   local_size, bank_groups groups, no global working-set target,
     *   no model launch (model and warp0 stay zero), no scalar form, no
     *   twin; read access (the kernel reads local memory and stores one
     *   folded word per work-item), measured once whatever --access says.
     * - transpose (cl/transpose.cl, bench_transpose): an n x n matrix of
     *   4-byte words transposed once from src to dst, one work-item per
     *   element (items = n*n), except that tiled and padded run in
     *   work-groups of W*rows (rows | W, W*rows within the run's
     *   work-group size) whose work-items loop over the tile's rows
     *   (launch_items = n*n*rows/W); loads and stores at the pattern's two
     *   expressions, counted by the model. Copy access only, no scalar
     *   form, no twin; its reference is the transpose:version=copy of the
     *   same n (itself for the copy).
     * - record (cl/record.cl, bench_record): n records of F fields, one
     *   work-item per record (items = n) reading every field with F loads
     *   at the pattern's expression plus its load_base[f], and storing one
     *   4-byte fold at dst[g]; the model counts the F loads and the store.
     *   Copy access only, no scalar form, no twin; its reference is the
     *   soa item of the same fields, type and n (itself for soa). */
    int64_t tile_words;     /* bank: the tile's 4-byte words (bench_bank_tile_words) */
    int conflict_ways;      /* bank: modeled ways of warp 0 (model_bank); 0: the profile has no banks;
                             * transpose: of the local tile's column read (bench_transpose_tile_ways),
                             * 0 for naive and copy too */
    int auto_n;             /* transpose, record: n sized from the working set (the largest multiple
                             * of W, or of the work-group, that fits the target), the spec gave none */
    /* left out before the buffers are made (bench_plan_leave_out): why,
     * owned; the plan's buffers no longer hold its span, so nothing may
     * launch it. NULL: planned */
    char *left_out;
} bench_item;

/* Most patterns one plan measures, after identical specs are merged: a
 * run of 10 000 patterns would build and time for hours. */
#define BENCH_PLAN_MAX_PATTERNS 1000

typedef struct bench_plan {
    bench_item *items;
    size_t n;
    size_t cap;             /* items allocated (bench_plan.c grows them geometrically) */
    size_t merged;          /* repeated specs (same pattern, same access) measured once */
    model_geometry geo;
    uint64_t target_bytes;  /* working set each pattern should touch */
    int target_auto;        /* 1: from the cache size; 0: --size */
    uint64_t cache_bytes;   /* the cache figure behind an auto target; 0 when none was known or --size */
    /* an auto target the run's budget could not hold, which target_bytes
     * replaces (bench_fit_choose); 0: not fitted */
    uint64_t fitted_from;
    char cache_source[256]; /* "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE", "host sysfs (...)",
                             * "default (no cache size known)" or "--size" */
    /* the last-level cache a twin's slice must stay in (bench_runner_twin):
     * the device's figure, else the host's, else for a CPU device
     * BENCH_PLAN_ASSUMED_CACHE; 0 (no twins) for a GPU that reports none */
    uint64_t twin_cache_bytes;
    char twin_cache_source[256]; /* cache_source's wording, or "assumed (...)" */
    int64_t local_size;
    int local_given;        /* local_size came from --local */
    int unroll;             /* bench_plan_opts.unroll (1 when 0): copy and write items */
    int unroll_read;        /* bench_plan_opts.unroll_read (unroll when 0): read items */
    uint64_t src_bytes;     /* source buffer: the largest extent of any pattern */
    uint64_t dst_bytes;     /* destination buffer */
    int reqd_sub_group_size; /* the sub-group size kernels ask for (Intel), 0: none */
    int64_t bank_groups;    /* work-groups of a bank launch (bench_plan_bank_groups) */
    uint64_t budget_bytes;  /* src + dst may take at most this: 3/4 of global memory */
    int scalar_form;        /* each pattern also gets the scalar kernel form (CPU devices) */
    int read_flag;          /* read-mode kernels guard their store by a work-group flag (CPU devices) */
    char *note;             /* what the plan left out and why (default patterns that cannot be
                             * measured in write mode), or NULL */
    char *fit_note;         /* why the working set is below the auto target (bench_fit), or NULL */
    double model_s;         /* bench_plan_opts.model_s */
    /* the automatic transposes' n, one for all (each is read against the
     * copy of its n), and the buffer cap it was sized for; 0: not yet */
    int64_t transpose_n;
    uint64_t transpose_cap;
    char *transpose_note;   /* why transpose_n is below the working set's, or NULL */
} bench_plan;

typedef struct bench_plan_opts {
    const char *const *specs; /* pattern specs; none and no exprs: the default set */
    size_t nspecs;
    const char *const *exprs; /* user address expressions */
    size_t nexprs;
    int64_t elem;             /* --elem, 0 when not given */
    uint64_t size;            /* --size in bytes, 0 for auto */
    /* each buffer at most this (0: the device's limits only): a working set
     * fitted to the budget (bench_fit) keeps strided spans within twice it */
    uint64_t span_cap;
    int64_t local_size;       /* 0: automatic (256, a multiple of W) */
    /* K for the gather and record items (bench_item.unroll): 1, 2, 4, 8 or
     * 16; 0: 1. unroll_read: the read-mode items' K (auto chooses each
     * mode's own); 0: unroll's */
    int unroll;
    int unroll_read;
    /* > 0: the geometry's DRAM unit (--dram-unit; model_geometry.dram_unit),
     * else the profile's */
    int64_t dram_unit;
    /* a calibration's ladder: each spec once per K whose bit (1 << log2 K)
     * is set, each item at its own K (merged by spec, access and K); 0:
     * every item at unroll */
    unsigned unroll_ladder;
    int with_defaults;        /* the default set too, before specs and exprs ("all") */
    /* --index: 32 or 64 forces the form of the index arithmetic; 0 (auto)
     * takes 32 on a GPU where it is proven to fit, else 64: on PoCL, int
     * indices hide contiguity from the vectoriser behind zero-extensions */
    int index_bits;
    int reqd_sub_group_size;  /* ask kernels for this sub-group size (Intel), 0: no request */
    uint32_t compute_units;   /* the device's (0: unknown), for bench_plan_bank_groups */
    /* CPU devices: build each pattern's kernel in a second, scalar form as
     * well (bench_kernel.h), and let the runner time both */
    int scalar_form;
    /* CPU devices: read-mode gather kernels store behind a work-group flag
     * (BW_READ_FLAG in cl/gather.cl), since a vectorised masked store
     * there fetches dst's line even when no lane stores */
    int read_flag;
    /* the access modes measured, BENCH_ACCESS_BIT of each: every pattern in
     * each mode given; 0: copy for every pattern, read as well for the
     * default set's seq and strides (the patterns whose cost the copy's
     * coalesced store dilutes most visibly), and write for seq, the
     * strides, offset:bytes=4 and reverse. A default-set pattern whose
     * stores are not one-to-one (broadcast) is left out of write mode,
     * named in the plan's note; a named one is an error. */
    unsigned access;
    /* seconds an automatically sized transpose's model may take to count
     * (0: unbounded): its tiled addresses change shape every tile, so the
     * count walks the launch tile by tile (minutes at a large working set
     * on a slow host). The plan times a count at n = 64 W and
     * caps n where that, scaled by n^2, passes model_s, said in the
     * item's size_note. Host time, not the device's */
    double model_s;
} bench_plan_opts;

/* The checks of opts that need no device, run first by bench_plan_make and
 * by `bwlab run` before any platform is looked up (bad input is exit 2 on
 * a machine without OpenCL too): the element size, every spec parsed (at
 * W = 1, where no rule that depends on the warp width can fail), every
 * expression parsed, and the options a named pattern's family has no
 * kernel for: --access modes other than its own (bank reads, transpose and
 * record copy) and --index 32 (those kernels have 64-bit indices of their
 * own). BW_E_USAGE / BW_E_RANGE / BW_E_SYNTAX as bench_plan_make; the
 * message names the pattern or expression and the option. */
bw_code bench_plan_check_input(const bench_plan_opts *opts, bw_error *err);
/* The unroll values --unroll takes, and the most. */
#define BENCH_UNROLL_MAX 16
/* An automatically sized launch of at least this many times
 * BENCH_UNROLL_MAX work-groups is rounded to whole launches of every K */
#define BENCH_UNROLL_ROUNDING 32
/* Where a run's K came from (results' unroll_source): --unroll; auto's
 * calibration; auto without one (K = 1) */
#define BENCH_UNROLL_OPTION RESULTS_UNROLL_OPTION
#define BENCH_UNROLL_CALIBRATION RESULTS_UNROLL_CALIBRATION
#define BENCH_UNROLL_DEFAULT RESULTS_UNROLL_DEFAULT
/* Whether k is one of 1, 2, 4, 8, 16. */
int bench_unroll_valid(int64_t k);
#define BENCH_TRANSPOSE_REFERENCE MODEL_PATTERN_TRANSPOSE_REFERENCE
#define BENCH_BANK_REFERENCE MODEL_PATTERN_BANK_REFERENCE

#endif
