/* bench_tune: the search behind `bwlab tune` for the kernel shape that
 * streams fastest on one device: the device's own bandwidth limit, the
 * figure clpeak and BabelStream report (docs/results.md, "bwlab tune").
 *
 * Two kernel families from cl/stream.cl: read (each work-item XORs its
 * vectors and stores one word, so no load can be optimised away) and copy.
 * A candidate is a vector width V of uint (1, 2, 4, 8, 16), K vectors per
 * work-item, a work-group size L and a layout (which vectors a work-item
 * handles, see bench_tune_layout). The search is a bounded coordinate
 * descent, each stage timed round-robin so that drift hits every candidate
 * alike:
 *   1. K in {1, 4, 16} x every layout at V = 4 and the default L (256, or
 *      the device's largest power of two below it);
 *   2. V in {1, 2, 4, 8, 16} at the best K, layout and L;
 *   3. L in {32 .. 1024} (within the device's limit) at the best so far,
 *      nearest the current one first;
 *   4. K in {1, 2, 4, 8, 16}, in the best layout, at the best V and L;
 *   then the best few of each family are timed round-robin until the
 * budget ends (or their medians are stable), and the one with the highest
 * median bandwidth wins. Each candidate is validated once before it is
 * timed (a launch over the first 4 MiB, every stored word checked on the
 * host); the winners are validated again on a launch over the whole
 * buffer. Stages after the first take only as many candidates (the two
 * families alternating) as the cost per candidate so far lets finish
 * within 80% of the budget; the first always runs whole. A stop flag
 * (SIGINT, SIGTERM) is read between launches and between the chunks of
 * every fill and check: the search then ends at once with what it
 * measured and no winner. The search never prints: results come back as
 * data. */
#ifndef BENCH_TUNE_H
#define BENCH_TUNE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench_device.h"
#include "bench_result.h"
#include "bw_error.h"
/* the OpenCL context handle (src/ocl/include/ocl_context.h), by pointer only */
typedef struct ocl_context ocl_context;

#define BENCH_TUNE_KERNEL_FILE "stream.cl"

/* The two families, and the access mode of a pattern whose measured
 * bandwidth is set against the device's peak (bench_tune_fraction). */
typedef enum bench_tune_mode {
    BENCH_TUNE_READ,
    BENCH_TUNE_COPY,
    BENCH_TUNE_MODES
} bench_tune_mode;

/* Which vectors work-item i (local id l in group b of L; G in all) handles,
 * j = 0 .. K-1. With K = 1 all three are the same kernel: such candidates
 * are tried once, as block. */
typedef enum bench_tune_layout {
    BENCH_TUNE_GRID,       /* i + j*G: the whole grid per step (GPU grid-stride style) */
    BENCH_TUNE_BLOCK,      /* b*L*K + j*L + l: coalesced within each group's contiguous block */
    BENCH_TUNE_CONTIGUOUS, /* i*K + j: each work-item its own contiguous run */
    BENCH_TUNE_LAYOUTS
} bench_tune_layout;

typedef struct bench_tune_config {
    int vector_width;       /* V: uint, uint2 .. uint16 */
    int elems_per_item;     /* K: vectors per work-item */
    int64_t local_size;     /* L: work-items per group */
    bench_tune_layout layout;
} bench_tune_config;

/* The best configuration of one family and its measured bandwidth; valid 0
 * when none was measured. */
typedef struct bench_tune_peak {
    int valid;
    bench_tune_config config;
    double gbs; /* measured: requested bytes / median kernel time (bench_tune_candidate) */
} bench_tune_peak;

typedef enum bench_tune_status {
    BENCH_TUNE_OK,             /* validated and timed */
    BENCH_TUNE_FAILED,         /* build, launch or validation failed: see failure */
    BENCH_TUNE_NOT_MEASURABLE, /* validated, but a launch is shorter than the timing floor */
} bench_tune_status;

typedef struct bench_tune_candidate {
    bench_tune_mode mode;
    bench_tune_config config;
    int stage;                /* 1..4, the search stage that added it */
    bench_tune_status status;
    char *failure;            /* why it failed or is not measurable; owned */
    int validated;            /* its output matched the host's */
    int finalist;             /* timed again in the final rounds */
    uint64_t items;           /* work-items of a timed launch */
    double requested_bytes;   /* requested: loads + stores of a timed copy launch, loads of a read
                               * launch (its one stored word per work-item is not counted) */
    double *samples;          /* event times, ns; owned */
    bench_stats event;        /* measured: statistics of samples */
    double gbs;               /* measured: requested_bytes / event.median */
} bench_tune_candidate;

typedef struct bench_tune_opts {
    uint64_t buffer_bytes; /* the source (and copy destination) buffer; a multiple of 1 MiB, at least 1 MiB */
    double budget_s;       /* the whole search, building and validating included */
    double min_launch_ns;  /* the timing floor (bench_launch_floor_ns) */
    volatile sig_atomic_t *stop; /* non-zero: stop after the launch or chunk in flight; NULL: never */
    const char *kernel_dir;      /* where fill.cl is read (bench_fill.h): --kernels, or NULL */
} bench_tune_opts;

typedef struct bench_tune_result {
    bench_tune_candidate *cands;
    size_t n;
    long best[BENCH_TUNE_MODES];            /* index of each family's winner in cands, or -1 */
    bench_tune_peak peak[BENCH_TUNE_MODES]; /* the winners */
    uint64_t buffer_bytes;
    int stages;          /* search stages completed (1..4) */
    size_t final_rounds; /* round-robin rounds among the finalists */
    int budget_ended;    /* stages were skipped for the budget */
    int interrupted;     /* the stop flag ended the search: no winner was chosen (best -1, peaks not valid) */
    double total_s;      /* wall time of the search */
    char fill_note[400]; /* "" when the device filled src, else why the host did (bench_fill_src_device) */
} bench_tune_result;

/* Loads cl/stream.cl from `dir` (a --kernels flag), else $BWLAB_KERNEL_DIR,
 * else the source tree, else the installed data directory. *text and *path
 * are the caller's to free. BW_E_IO names the file. */
bw_code bench_tune_kernel_load(const char *dir, char **text, char **path, bw_error *err);

/* Runs the search on the context's device with the kernel source `source`
 * (stream.cl's text). Returns BW_OK with *out set (free with
 * bench_tune_result_free) when at least one family has a winner; single
 * candidates may have failed (see their status). BW_E_USAGE for a buffer
 * size that is not a positive multiple of 1 MiB; BW_E_TOOBIG, BW_E_OPENCL,
 * BW_E_NOMEM when the buffers cannot be had; BW_E_VALIDATION when no
 * candidate of either family validated and timed, with the first failure;
 * BW_E_RANGE when every validated candidate was too short to time (a larger
 * buffer is needed); BW_E_INTERRUPTED when the stop flag was set, with *out
 * holding the candidates measured so far (interrupted set, no winner). */
bw_code bench_tune_run(ocl_context *ctx, const char *source, const bench_tune_opts *o,
                       bench_tune_result **out, bw_error *err);
void bench_tune_result_free(bench_tune_result *r); /* accepts NULL */

/* The tuning cache: the file that keeps `bwlab tune`'s winners per device
 * (docs/results.md, "bwlab tune"), so that `bwlab run` can set every
 * pattern against the device's peak without measuring it again.
 *
 * Path: $BWLAB_CACHE_DIR/tune.json when that variable is set and not empty,
 * else $XDG_CACHE_HOME/bwlab/tune.json, else $HOME/.cache/bwlab/tune.json.
 * One JSON document, schema "bwlab.tune" version 1, holds an entry per key:
 * device name, vendor, driver version, platform version and bwlab version,
 * all compared exactly, so a new driver or bwlab release tunes again.
 * Writes are atomic (a temporary file renamed over the old one). A
 * malformed file is never silently replaced: lookups report it, and a store
 * first renames it to tune.json.malformed. */
#define BENCH_TUNE_CACHE_SCHEMA "bwlab.tune"
#define BENCH_TUNE_CACHE_SCHEMA_VERSION 1
#define BENCH_TUNE_CACHE_FILE "tune.json"
/* a cached peak's valid range: that of any GB/s in a results file
 * (results_merge_range.h, RESULTS_RANGE_GBS) */
#define BENCH_TUNE_GBS_MIN 1e-6
#define BENCH_TUNE_GBS_MAX 1e6

/* What an entry is keyed by; the strings are borrowed. */
typedef struct bench_tune_key {
    const char *device, *vendor, *driver_version, *platform_version, *bwlab_version;
} bench_tune_key;

/* The key of a device for this bwlab version; borrows d's strings. */
bench_tune_key bench_tune_key_of(const struct ocl_device_info *d, const char *bwlab_version);

/* One device's cached result. */
typedef struct bench_tune_entry {
    bench_tune_peak peak[BENCH_TUNE_MODES]; /* valid 0: that family had no winner */
    uint64_t buffer_bytes;                  /* the buffer it was measured on */
    char date[32];                          /* when, ISO 8601 UTC */
} bench_tune_entry;

/* The cache file's path from the environment (see above); caller frees.
 * BW_E_USAGE when none of BWLAB_CACHE_DIR, XDG_CACHE_HOME, HOME is set. */
bw_code bench_tune_cache_path(char **path, bw_error *err);

/* Moves a malformed cache at `path` to PATH.malformed (replacing an older
 * one), as a store does, so that it is kept for the user to inspect and no
 * later command reads it again; *moved gets the new name (caller frees).
 * BW_E_IO when it cannot be moved. */
bw_code bench_tune_cache_set_aside(const char *path, char **moved, bw_error *err);

/* Looks `key` up in the file at `path`. A missing file is no error: BW_OK
 * with *found 0. BW_E_FORMAT when the file is malformed (not JSON, another
 * schema, an entry without its key, or the matching entry's figures out of
 * range): the message names the file and, for a parse error, the line and
 * column. BW_E_IO when it cannot be read. */
bw_code bench_tune_cache_lookup(const char *path, const bench_tune_key *key, bench_tune_entry *out, int *found,
                                bw_error *err);

/* Stores e under key, replacing the entry of the same key and keeping the
 * others; creates the file's directory. A malformed file is first renamed
 * to PATH.malformed and *moved_aside set to that path (caller frees; NULL
 * otherwise) so that the caller can say so. BW_E_IO names the path and the
 * system's reason. */
bw_code bench_tune_cache_store(const char *path, const bench_tune_key *key, const bench_tune_entry *e,
                               char **moved_aside, bw_error *err);

/* The tune document: `bwlab tune`'s measurement as a results document
 * (docs/results.md, "bwlab tune"): per device its tuned or cached peaks,
 * their checks, and the search's kernel shapes. The report renders it
 * (report_tune_table); the command writes it as JSON. */
/* One device: tuned now (result set), read from the cache (result NULL),
 * or failed (failure set, entry NULL). Everything borrowed. */
typedef struct bench_tune_doc_device {
    const bench_device *device;
    int is_default;
    const char *failure;             /* why the device could not be tuned, or NULL */
    const bench_tune_entry *entry;   /* the winners, or NULL */
    const bench_tune_result *result; /* the search, or NULL when the entry came from the cache */
    int size_given;                  /* the buffer size came from --size */
    const char *cache_note;          /* what happened to the cache file for this device, or NULL */
    double nominal_gbs;              /* the device's nominal DRAM GB/s the peaks are checked against, or 0 */
    double probe_memory_gbs;         /* its cached probe's memory plateau (measured GB/s), or 0 */
    char probe_memory_date[32];      /* that probe's date */
} bench_tune_doc_device;

typedef struct bench_tune_doc_meta {
    const char *date;       /* ISO 8601 UTC */
    int argc;
    char *const *argv;
    const char *cache_file; /* the cache's path */
    double budget_s;
    const char *kernel_file; /* where stream.cl was read, or NULL */
    int interrupted;         /* a signal stopped the command (some device may be not run) */
} bench_tune_doc_meta;

/* The document of n devices: a new reference the caller owns, or NULL
 * when out of memory. */
json_t *bench_tune_document(const bench_tune_doc_meta *m, const bench_tune_doc_device *d, size_t n);

#endif
