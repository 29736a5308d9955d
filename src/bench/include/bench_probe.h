/* bench_probe: the measurements of `bwlab probe` (docs/design.md §4,
 * "Probing"; docs/results.md, "bwlab probe"): the cache ladder, the
 * latency ladder (a validated pointer chase), the transaction-granularity
 * sweeps, warp width and banks where a device shows them, host<->device
 * transfers and launch latency. It owns the sweeps and their timing; the
 * fits are model_fit's; src/report prints the result. */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_host.h"
#include "bw_error.h"
#include "model_fit.h"

/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

#define BENCH_PROBE_KERNEL_FILE "probe.cl"
#define BENCH_PROBE_MAX_POINTS 96
#define BENCH_PROBE_UNITS 7     /* candidate units 8 .. 512 B */
#define BENCH_PROBE_STRIDES 8   /* byte strides 4 .. 512 */
#define BENCH_PROBE_OFFSETS 65  /* byte offsets 0 .. 256 step 4 */
#define BENCH_PROBE_BLOCK 32    /* bytes each work-item reads in the offset sweep */
#define BENCH_PROBE_PAIRS 3     /* the sector-pair experiment's points: adjacent, split, apart */
/* the sector-pair ratio (split over adjacent) at or above which the unit
 * is 64 bytes, and at or below which it is 32 */
#define BENCH_PROBE_PAIR_64 1.6
#define BENCH_PROBE_PAIR_32 1.25
/* The unit a sector-pair ratio implies (64, 32, or 0 with why said in
 * why, n bytes). Pure. */
int64_t bench_probe_pair_unit(double ratio, char *why, size_t n);
#define BENCH_PROBE_MAX_TRANSFERS 96
#define BENCH_PROBE_MAX_LANES 12

typedef struct bench_probe_opts {
    int quick;              /* fewer points and repeats: < 30 s on PoCL */
    const char *kernel_dir; /* --kernels, else $BWLAB_KERNEL_DIR, else the tree */
    int transfers_only;     /* only transfers and launch latency (bwlab run --transfers) */
    /* bench_now_s() by which the transfers end (0: none): no larger size
     * is started whose copies and maps, priced from the last size's, would
     * pass it; transfers_note says where they stopped */
    double deadline_s;
    /* set by a signal handler: the probe stops before its next launch or
     * copy (well within a second) and keeps what it measured; may be NULL */
    volatile sig_atomic_t *stop;
    /* called before each phase and point; may be NULL */
    void (*progress)(void *ctx, const char *phase, double fraction);
    void *progress_ctx;
} bench_probe_opts;

/* One working-set size of the ladders (all measured). */
typedef struct bench_probe_point {
    uint64_t bytes;
    double read_gbs;      /* a work-item per compute unit on a CPU (each reads the whole set), the whole device on a GPU */
    double latency_ns;    /* one work-item's chase: ns per dependent load */
    double latency_cu_ns; /* one chase per compute unit at once */
    double latency_page_ns; /* one work-item's page-local chase (bench_probe_page_cycle); 0: not measured */
} bench_probe_point;

/* A plateau of the ladders: a cache level, or memory (the last). */
typedef struct bench_probe_level {
    uint64_t size_bytes; /* the largest working set on the plateau */
    double read_gbs, latency_ns, latency_cu_ns; /* the plateau's medians */
    double latency_page_ns; /* the page-local chase's median over the plateau; 0: not measured */
    /* cache levels only (model_fit_ladder_levels, model_fit_match_caches): */
    uint64_t next_bytes; /* the first working set past the knee */
    int seen;            /* MODEL_FIT_SEEN_A: the bandwidth ladder shows the knee, _B: the latency ladder */
    int placed;          /* the ladder whose bend placed it (MODEL_FIT_SEEN_A or _B; 0 for memory) */
    double step;         /* the knee's rise factor */
    int host_match;      /* index into host_caches of the host cache paired with it, or -1 */
} bench_probe_level;

/* A knee of the random chase that the page-local chase lacks: the reach of
 * a TLB (or a page walk's cache), not a cache's size. */
typedef struct bench_probe_tlb {
    uint64_t size_bytes;      /* the largest working set below the knee */
    uint64_t next_bytes;      /* the first working set past it */
    double below_ns, above_ns; /* the random chase's plateaus on either side */
    double step;              /* above / below */
} bench_probe_tlb;

typedef struct bench_probe_transfer {
    int to_device, pinned, blocking;
    uint64_t bytes;
    double gbs; /* bytes / wall-clock time per copy, median */
    double us;  /* wall-clock time per copy, median */
} bench_probe_transfer;

/* A map and unmap of [0, bytes) of a CL_MEM_ALLOC_HOST_PTR buffer
 * (ocl_transfer_map): the transfer a zero-copy device makes without
 * copying. */
typedef struct bench_probe_map {
    int to_device;
    uint64_t bytes;
    double us;      /* measured: wall-clock time per map and unmap, median */
    double copy_us; /* measured: the same bytes at the fastest copy rate of that size and direction */
    double gbs;     /* measured: bytes / us; 0 (not a bandwidth) when no copy was measured */
    int zero_copy;  /* the direction's maps are zero-copy (bench_probe_map_verdict) */
} bench_probe_map;

/* What the maps of one direction show (bench_probe_map_verdict). */
typedef struct bench_probe_map_verdict {
    int no_copy;      /* the time says nothing was copied: flat in size, or a tiny fraction of a copy */
    int flat;         /* the largest map took at most BENCH_PROBE_MAP_FLAT x the smallest */
    int cheap;        /* the largest map took at most 1 / BENCH_PROBE_MAP_CHEAP of its copy time */
    int same_pointer; /* every map returned the same host address: the buffer's own memory */
    int zero_copy;    /* no_copy, and on a unified-memory device same_pointer too */
} bench_probe_map_verdict;

#define BENCH_PROBE_MAP_FLAT 4.0   /* "does not grow with size": over at least 64x the bytes */
#define BENCH_PROBE_MAP_CHEAP 8.0  /* "a tiny fraction of a copy": 1/8 of it */

/* The verdict on n maps of one direction (any order; n >= 2 sizes at
 * least 64x apart for `flat`), given whether the mapped address ever moved
 * and whether the device reports CL_DEVICE_HOST_UNIFIED_MEMORY. A row's
 * copy_us of 0 (no copy measured) never makes it cheap. Pure. */
bench_probe_map_verdict bench_probe_map_verdict_of(const bench_probe_map *m, size_t n, int moved, int unified);

typedef struct bench_probe_result {
    int quick;
    char *kernel_path;
    int is_cpu;
    /* ladders */
    size_t n_points;
    bench_probe_point points[BENCH_PROBE_MAX_POINTS];
    size_t n_levels;                               /* cache levels: plateaus but the last */
    bench_probe_level levels[MODEL_FIT_MAX_STEPS]; /* the caches, then memory at n_levels */
    int have_memory;                               /* a last plateau (memory) was found */
    /* with a page-local chase at every point, the levels are its knees
     * and the bandwidth ladder's, and the random chase's other knees are
     * TLB reaches (bench_probe_levels) */
    int page_levels;
    size_t n_tlb;
    bench_probe_tlb tlb[MODEL_FIT_MAX_STEPS];
    int chase_valid;                               /* the marked chase visited every element once */
    char chase_note[256];                          /* what the validation found */
    uint64_t device_cache_bytes;                   /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE */
    size_t n_host_caches;
    bench_host_cache host_caches[8];
    /* granularity */
    uint64_t gran_bytes; /* working set of the sweeps */
    size_t n_strides, n_offsets;
    double stride_x[BENCH_PROBE_STRIDES], stride_ns[BENCH_PROBE_STRIDES]; /* ns per element */
    double offset_x[BENCH_PROBE_OFFSETS], offset_ns[BENCH_PROBE_OFFSETS]; /* ns per block */
    int64_t units[BENCH_PROBE_UNITS];
    model_fit_candidate stride_fit[BENCH_PROBE_UNITS], offset_fit[BENCH_PROBE_UNITS];
    /* modeled: each candidate's fitted curve at every sweep point */
    double stride_model[BENCH_PROBE_UNITS][BENCH_PROBE_STRIDES], offset_model[BENCH_PROBE_UNITS][BENCH_PROBE_OFFSETS];
    int64_t inferred_unit; /* 0: none, see unit_why */
    char unit_why[320];
    /* the sector-pair experiment (cl/probe.cl, probe_pair), measured ns
     * per element: two adjacent 32-byte sectors, two sectors in different
     * 64-byte halves, one 128-byte block per element; pair_ratio is the
     * second over the first, pair_unit the unit it implies (64: the split
     * pair costs about twice the adjacent one; 32: the same; 0: neither,
     * pair_why says why) */
    double pair_ns[BENCH_PROBE_PAIRS];
    double pair_ratio;
    int64_t pair_unit;
    char pair_why[200];
    /* warp width */
    int64_t inferred_lanes; /* 0: not measured or not found, see lanes_why */
    char lanes_why[256];
    size_t n_lanes;
    double lanes_x[BENCH_PROBE_MAX_LANES], lanes_ns[BENCH_PROBE_MAX_LANES]; /* work-group size, ns per launch */
    /* banks */
    int inferred_banks; /* 0: see banks_why */
    char banks_why[256];
    /* transfers and launch latency */
    size_t n_transfers;
    bench_probe_transfer transfers[BENCH_PROBE_MAX_TRANSFERS];
    size_t n_maps;
    bench_probe_map maps[2 * 16];
    bench_probe_map_verdict map_verdict[2]; /* [to_device] */
    char map_note[2][480];                  /* [to_device]: what the maps showed, "" when none were made */
    int unified;                            /* CL_DEVICE_HOST_UNIFIED_MEMORY */
    char transfers_note[200];               /* why the sizes stop below the top (deadline_s), or "" */
    double small_transfer_us; /* the smallest blocking pageable h2d copy, median */
    uint64_t small_transfer_bytes;
    double launch_wall_us, launch_start_us, launch_end_us; /* medians */
    /* 1: the queue has no profiling (ocl_context_timer 0): launch_end_us is
     * the host clock from enqueue to clFinish (launch_wall_us), and
     * launch_start_us is not measured (0, see launch_note) */
    int launch_timer_wall;
    char launch_note[200];
    unsigned launches;
    double seconds; /* the whole probe, wall clock */
    int interrupted;           /* opts.stop was set: what is here was measured before it */
    char interrupted_in[64];   /* the phase it stopped in ("set-up", "cache and latency ladder", ...) */
} bench_probe_result;

/* The bank sweep's word strides */
#define BENCH_PROBE_BANK_STRIDES 16
extern const double bench_probe_bank_strides[BENCH_PROBE_BANK_STRIDES];

/* The bank count from a local stride sweep's times y at word strides x
 * (n points, w lanes): model_fit_banks, accepted where it explains at
 * least 70% of the variation; into r->inferred_banks (0 when none) and
 * r->banks_why. Pure. */
void bench_probe_banks_infer(const double *x, const double *y, size_t n, int64_t w, bench_probe_result *r);

/* Runs the probe on c's device. Fails on OpenCL errors (BW_E_OPENCL,
 * BW_E_BUILD, BW_E_IO for the kernel file); a chase that does not visit
 * every element is no failure of the call: chase_valid is 0, chase_note
 * says what was wrong, and the latencies are left out (0). When *o->stop
 * is set it returns BW_E_INTERRUPTED with *out still filled: interrupted
 * is 1, the ladder holds the points measured (no levels are derived from
 * a partial ladder), a sweep or the launch latency cut short is left out
 * (0 points), and the transfers are those finished. *out is the caller's
 * (bench_probe_result_free) whenever it is not NULL. */
bw_code bench_probe_run(ocl_context *c, const bench_probe_opts *o, bench_probe_result **out, bw_error *err);
void bench_probe_result_free(bench_probe_result *r); /* accepts NULL */

/* Derives r's levels from its ladder (r->points[0..n_points), the
 * latencies only when r->chase_valid): model_fit_ladder_levels at a step
 * of 1.5, its span the ladder's points per doubling (from the first two
 * sizes), then each of r->host_caches paired with a level
 * (model_fit_match_caches, host_match). Sets levels, n_levels and
 * have_memory (0 levels and no memory when the ladder has no knee or a
 * figure is not positive). Pure: what bench_probe_run does after the
 * ladder, and what tests run on recorded ladders. */
void bench_probe_levels(bench_probe_result *r);

/* Checks the visit counts a marked chase of n steps left (mark[i]: times
 * element i was reached) and where it ended: BW_OK when every element was
 * reached exactly once and the chase came back to `start`; else
 * BW_E_VALIDATION naming the first element missed or repeated. Pure. */
bw_code bench_probe_check_chase(const uint32_t *mark, size_t n, uint32_t end, uint32_t start, bw_error *err);

/* A random cyclic permutation of n elements (Sattolo's algorithm): next[i]
 * is the element after i, one cycle through all n (n 1: next[0] = 0; n 0:
 * nothing). seed picks it. */
void bench_probe_cycle(uint32_t *next, size_t n, uint64_t seed);

/* The page-local cycle: one node every `line` elements of n (a node is
 * the element at a multiple of line), linked into one cycle that visits
 * the pages of `page` elements in a random order and, within each page,
 * every node of it in a random order before it moves on. A chase of it
 * touches the working set's every line as bench_probe_cycle's does, but
 * changes page once per page / line loads, so a knee of the random chase
 * that this one lacks is a TLB's reach, not a cache's size. next[] of
 * nodes only is written. Returns the nodes in the cycle (0 when line is
 * 0, page not a multiple of line, n below line, or out of memory). */
size_t bench_probe_page_cycle(uint32_t *next, size_t n, size_t line, size_t page, uint64_t seed);

#endif
