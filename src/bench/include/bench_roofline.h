/* bench_roofline: the measurement behind `bwlab roofline`: the device's
 * measured roof (docs/results.md, "bwlab roofline"; docs/design.md §2.4).
 *
 * Kernels from cl/roofline.cl:
 *   peak FMA   rf_peak: 8 independent chains of float x V (V: the device's
 *              preferred float width) per work-item, `iters` FMAs each;
 *              FLOP = work-items x 8 x V x iters x 2;
 *   peak read  rf_sweep with k = 0 over the whole buffer: each work-item
 *              loads 8 float x V vectors and adds them up (bytes = the
 *              buffer; the one float stored per work-item is not counted);
 *   sweep      rf_sweep with k = 1, 2, 4 .. 1024 FMAs per float loaded:
 *              intensity 2k / 4 FLOP per byte. A point whose launch over
 *              the whole buffer takes longer than both the launch target
 *              and 1.5 x the read's launch reads a leading slice of it
 *              instead, whole work-groups (its bytes say how much);
 *   matmul     rf_matmul, C = A B of n x n floats with T x T tiles in local
 *              memory, T = 8, 16, 32 where the device allows: 2n^3 FLOP,
 *              validated against the host's product at n = 64 and at
 *              chosen elements of the timed size; the model's intensity
 *              T / 4 and bound beside it.
 * Each measurement is validated on the host before it is timed (chosen
 * work-items recomputed with fmaf, bit-exact: OpenCL's fma() is correctly
 * rounded), sized so that a launch takes about the launch target and at
 * least the timing floor, then all are timed round-robin until the budget
 * ends (at least BENCH_ROOFLINE_MIN_REPS launches each where the budget
 * allows, at least one). The model (model_roofline) is evaluated at every
 * point from the measured peaks.
 * The budget covers the whole measurement, planned by time: after the
 * build, the first BENCH_ROOFLINE_CALIBRATE_BYTES of the buffer are filled
 * and one read over them is timed; from those rates and the peak's launch
 * the largest buffer (whole MiB, at most the one asked for) whose fill,
 * sizing and minimum rounds are predicted to fit the budget's share is
 * taken, the rest never filled. What the budget cut (the buffer, launches
 * below the minimum) is said in budget_note, never silently.
 * A stop flag (SIGINT, SIGTERM) is read between launches and between
 * chunks of every fill. Never prints. */
#ifndef BENCH_ROOFLINE_H
#define BENCH_ROOFLINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench_device.h"
#include "bench_result.h"
#include "bw_error.h"
#include "model_roofline.h"
/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

#define BENCH_ROOFLINE_KERNEL_FILE "roofline.cl"
#define BENCH_ROOFLINE_CHAINS 8      /* FMA chains per work-item of rf_peak */
#define BENCH_ROOFLINE_VECS_PER_ITEM 8 /* float x V vectors each work-item of rf_sweep loads */
#define BENCH_ROOFLINE_MIN_REPS 3
/* the leading part of the buffer filled and read first, to time both */
#define BENCH_ROOFLINE_CALIBRATE_BYTES ((uint64_t)16 << 20)
#define BENCH_ROOFLINE_MAX_K 1024
/* the FMA's operands: x = fma(x, A, B) keeps values bounded and away from
 * a fixed point for the iteration counts used */
#define BENCH_ROOFLINE_A (-0.99f)
#define BENCH_ROOFLINE_B 0.5f

typedef enum bench_roofline_kind {
    BENCH_ROOFLINE_PEAK_FMA,
    BENCH_ROOFLINE_PEAK_READ,
    BENCH_ROOFLINE_SWEEP,
    BENCH_ROOFLINE_MATMUL,
} bench_roofline_kind;

/* tiles of the matrix product: 8, 16, 32 */
#define BENCH_ROOFLINE_TILES 3
/* the matrix order of the validating product (a multiple of every tile) */
#define BENCH_ROOFLINE_MATMUL_CHECK_N 64

typedef struct bench_roofline_meas {
    bench_roofline_kind kind;
    uint32_t k;          /* FMAs per float loaded (sweep; 0 for the read) */
    uint32_t iters;      /* iterations per chain (peak FMA), else 0 */
    uint32_t tile, n;    /* matmul: tile T and matrix order n (a multiple of 32) */
    uint64_t items;      /* work-items of a timed launch */
    uint64_t local;      /* work-items per group */
    double flop;         /* requested: FLOP of a launch, 2 per FMA */
    double bytes;        /* requested: bytes loaded by a launch (0 for the peak FMA and matmul) */
    double intensity;    /* flop / bytes; 0 for the peak FMA; matmul: modeled, T / 4 */
    int validated;
    double *samples;     /* event times, ns; owned */
    size_t cap;
    bench_stats event;   /* measured */
    double gflops;       /* measured: flop / median time */
    double gbs;          /* measured: bytes / median time */
    model_roofline model;/* modeled at `intensity` from the measured peaks (sweep points, matmul) */
} bench_roofline_meas;

typedef struct bench_roofline_opts {
    uint64_t buffer_bytes; /* the sweep's source buffer: a positive multiple of 1 MiB */
    double budget_s;       /* the whole measurement, building, filling and validating included */
    double min_launch_ns;  /* the timing floor (bench_launch_floor_ns) */
    volatile sig_atomic_t *stop; /* non-zero: stop after the launch or chunk in flight; NULL: never */
} bench_roofline_opts;

typedef struct bench_roofline_result {
    int vector_width;              /* V of both kernels */
    uint64_t buffer_bytes;         /* the buffer filled and read: planned_buffer_bytes, or less to fit the budget */
    uint64_t planned_buffer_bytes; /* the buffer asked for (opts.buffer_bytes) */
    int interrupted;               /* the stop flag ended it: measurements without a launch have NaN figures */
    char budget_note[400];         /* what the budget cut (buffer, launches), or "" */
    double launch_target_ns;       /* the launch length aimed at */
    bench_roofline_meas peak_fma, peak_read;
    bench_roofline_meas *points;   /* the sweep, by ascending intensity */
    size_t npoints;
    /* the tiled matrix product per tile (8, 16, 32): measured when
     * T*T*2*4 bytes fit the local memory and T*T work-items a group */
    bench_roofline_meas matmul[BENCH_ROOFLINE_TILES];
    int matmul_measured[BENCH_ROOFLINE_TILES];
    char matmul_skipped[BENCH_ROOFLINE_TILES][160]; /* why a tile was not measured, else "" */
    size_t rounds;                 /* round-robin rounds timed */
    double total_s;                /* wall time */
    /* measured */
    double peak_gflops;            /* peak_fma.gflops */
    double peak_gbs;               /* peak_read.gbs */
    double slope_gbs;              /* highest GB/s of the sweep points */
    double plateau_gflops;         /* highest GFLOP/s of the sweep points */
    double measured_ridge;         /* plateau_gflops / slope_gbs: where the measured roof's lines meet */
    /* modeled from the measured peaks */
    double ridge_intensity;        /* peak_gflops / peak_gbs (model_roofline) */
} bench_roofline_result;

/* Loads cl/roofline.cl from `dir` (a --kernels flag), else
 * $BWLAB_KERNEL_DIR, else the source tree, else the installed data
 * directory. *text and *path are the caller's to free. BW_E_IO names the
 * file. */
bw_code bench_roofline_kernel_load(const char *dir, char **text, char **path, bw_error *err);

/* Measures the roof on the context's device with `source` (roofline.cl's
 * text). Returns BW_OK with *out set (free with bench_roofline_result_free).
 * BW_E_USAGE for a buffer that is not a positive multiple of 1 MiB;
 * BW_E_BUILD, BW_E_OPENCL, BW_E_TOOBIG, BW_E_NOMEM from the device;
 * BW_E_VALIDATION naming the kernel, work-item and values when a kernel's
 * result differs from the host's; BW_E_RANGE when a launch cannot be made
 * to last the timing floor; BW_E_INTERRUPTED when the stop flag was set,
 * with *out holding what was measured (interrupted set; figures of
 * measurements never timed are NaN, the model's too). */
bw_code bench_roofline_run(ocl_context *ctx, const char *source, const bench_roofline_opts *o,
                           bench_roofline_result **out, bw_error *err);
void bench_roofline_result_free(bench_roofline_result *r); /* accepts NULL */

/* The options of a roofline measurement (bench_roofline_run) on a device,
 * shared by `bwlab roofline` and the short one of `bwlab run`: the source
 * buffer is `size` bytes when not 0 (`bwlab roofline --size`, `bwlab run
 * --roofline-size`: whole MiB, checked by the caller), else the working set
 * `bwlab run` plans for the device by itself (4 x its last-level cache,
 * within its limits; never a run's --size, which may sit in the cache or be
 * too small to time), in whole MiB; either at most half the memory budget
 * (the output buffer is 1/16 of it); the timing floor is `settings`' for
 * the device's timer. BW_E_TOOBIG when no 1 MiB buffer fits or `size` is
 * above the device's largest allocation or half the budget; else fails as
 * bench_buffer_plan. */
bw_code bench_roofline_opts_of(const struct ocl_device_info *d, const bench_settings *settings, double budget_s,
                              uint64_t size, bench_roofline_opts *o, bw_error *err);

/* The roofline document: `bwlab roofline`'s measurement as a results
 * document (docs/results.md, "bwlab roofline"): per device the peaks, the
 * ridges, the sweep's points and the tiled products. The report renders
 * it (report_roofline_table, _md, _csv); the command writes it as JSON;
 * `bwlab run` embeds one device's entry for its short roofline. */
/* One device: measured (result set) or failed (failure set). Borrowed. */
typedef struct bench_roofline_doc_device {
    const bench_device *device;
    int is_default;
    const char *failure;                 /* why it could not be measured, or NULL */
    const bench_roofline_result *result; /* or NULL */
    const char *working_set_source;      /* how the buffer was sized, e.g. "auto" */
} bench_roofline_doc_device;

typedef struct bench_roofline_doc_meta {
    const char *date; /* ISO 8601 UTC */
    int argc;
    char *const *argv;
    double budget_s;
    const char *kernel_file; /* where roofline.cl was read, or NULL */
    int interrupted;         /* a signal stopped the command (some device may be not run) */
} bench_roofline_doc_meta;

/* One device's entry without its "device" object: status, failure and,
 * when measured, the figures, points and tiles. New reference; NULL when
 * out of memory. */
json_t *bench_roofline_entry_json(const bench_roofline_doc_device *d);

/* The document of n devices: a new reference, or NULL when out of memory. */
json_t *bench_roofline_document(const bench_roofline_doc_meta *m, const bench_roofline_doc_device *d, size_t n);

#endif
