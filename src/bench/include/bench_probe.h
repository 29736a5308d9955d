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

#include "bench_device.h"
#include "bench_tune.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "model_fit.h"
#include "model_geometry.h"

/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

#define BENCH_PROBE_KERNEL_FILE "probe.cl"
#define BENCH_PROBE_MAX_POINTS 96
#define BENCH_PROBE_UNITS 7     /* candidate units 8 .. 512 B */
#define BENCH_PROBE_STRIDES 8   /* byte strides 4 .. 512 */
#define BENCH_PROBE_OFFSETS 65  /* byte offsets 0 .. 256 step 4 */
#define BENCH_PROBE_BLOCK 32    /* bytes each work-item reads in the offset sweep */
#define BENCH_PROBE_PAIRS 3     /* the sector-pair experiment's points: adjacent, split, apart */
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
    double read_gbs;      /* a work-item per compute unit on a CPU (each reads the whole set), the whole
                           * device on a GPU */
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

/* The probe cache: the file that keeps each device's latest `bwlab
 * probe` findings, so that `--profile inferred` (bwlab model, bwlab run)
 * can build a profile from them without probing again.
 *
 * Path: probe.json beside the tuning cache (bench_tune_cache_path:
 * $BWLAB_CACHE_DIR, else $XDG_CACHE_HOME/bwlab, else ~/.cache/bwlab).
 * Schema "bwlab.probe" version 1: {"schema", "schema_version", "entries":
 * [{"key": {device, vendor, driver_version, platform_version,
 * bwlab_version}, "date", "quick", "inferred_unit_bytes",
 * "inferred_lanes", "inferred_banks", "memory_read_gbs"}]}, keyed like the tuning cache
 * (bench_tune_key). Writes are atomic (temporary file, rename); a
 * malformed file is reported, never silently replaced. */
#define BENCH_PROBE_CACHE_SCHEMA "bwlab.probe"
#define BENCH_PROBE_CACHE_FILE "probe.json"
/* the range of a stored memory plateau, as of any GB/s in a results file */
#define BENCH_PROBE_CACHE_MIN_GBS 1e-6
#define BENCH_PROBE_CACHE_MAX_GBS 1e6

typedef struct bench_probe_entry {
    char date[32];
    int quick;
    int64_t unit;  /* 0: the probe inferred none */
    int64_t lanes; /* 0: none */
    int banks;     /* 0: none */
    double memory_gbs; /* measured: the memory plateau's read GB/s; 0: none */
} bench_probe_entry;

/* The file's path (see above); caller frees. Fails as bench_tune_cache_path. */
bw_code bench_probe_cache_path(char **path, bw_error *err);

/* The entry of a probe result. */
bench_probe_entry bench_probe_entry_of(const bench_probe_result *r, const char *date);

/* *found 0 (BW_OK) when the file or the entry is missing; BW_E_FORMAT
 * naming the file when it is malformed; BW_E_IO when unreadable. */
bw_code bench_probe_cache_lookup(const char *path, const bench_tune_key *key, bench_probe_entry *out, int *found,
                                 bw_error *err);
/* Stores e under key, keeping the other entries. A malformed file is
 * refused (BW_E_FORMAT naming it: remove it to start afresh). */
bw_code bench_probe_cache_store(const char *path, const bench_tune_key *key, const bench_probe_entry *e,
                                bw_error *err);

/* The profile --profile inferred builds: `base` (the device's own
 * profile) with the inferred fields replaced: sector (and line, unless
 * the base line is a multiple of the unit) from the unit, lanes, banks
 * (4-byte banks). *fields receives the names replaced, comma-separated
 * ("sector,line"), into buf of size n; "" when the probe inferred
 * nothing. */
model_geometry bench_probe_inferred_geometry(const model_geometry *base, const bench_probe_entry *e, char *fields,
                                             size_t n);

/* The probe document: `bwlab probe`'s measurement as a results document
 * (docs/results.md, "bwlab probe"): per device the ladders and the levels
 * found in them, the granularity sweeps and fits, the warp width and
 * banks, the transfers and the launch latency, with the sentences that
 * set each inferred figure beside the profile's, the host's and the
 * device's. The report renders it (report_probe_table, _md, _csv); the
 * command writes it as JSON; `bwlab run --transfers` embeds its transfers
 * part. */
typedef struct bench_probe_doc_device {
    const bench_device *device; /* provenance, as the bench layer filled it */
    int is_default;
    const bench_probe_result *result; /* NULL when it failed */
    const char *failure;              /* why, or NULL */
    const char *cache_note;           /* what happened to the probe cache, or NULL */
    double nominal_gbs;               /* the device's nominal DRAM GB/s the plateaus are checked against, or 0 */
} bench_probe_doc_device;

typedef struct bench_probe_doc_meta {
    const char *date;
    int argc;
    char *const *argv;
    const char *cache_file;
    int interrupted; /* a signal stopped the probe: the document's "interrupted" */
} bench_probe_doc_meta;

/* The document of n devices: a new reference, or NULL when out of memory. */
json_t *bench_probe_document(const bench_probe_doc_meta *m, const bench_probe_doc_device *d, size_t n);

/* The transfers and launch-latency keys of one device's probe
 * (transfers, small_transfer_latency_us, launch_latency_us, launch, maps,
 * ...); also what `bwlab run --transfers` adds to a run. New reference. */
json_t *bench_probe_transfers_json(const bench_probe_result *r);

#endif
