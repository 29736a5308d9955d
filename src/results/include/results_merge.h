/* results_merge: `bwlab run` result files read back (schema version 1 and
 * later, docs/results.md; a partial journal `OUT.partial`) and merged into
 * one plain data model that `bwlab compare` and `bwlab report` format.
 *
 * Reads data, never devices: nothing here touches OpenCL, so it works on a
 * machine with no OpenCL at all. Everything is owned by the results_merged
 * object (results_merged_free).
 *
 * "Not measured" is absent, never 0: a real number that a file does not
 * hold (an older schema, a failed pattern, a run without a tuned peak or a
 * roofline) is NAN; test it with results_merge_not_nan(). A missing string is
 * NULL, a missing integer is -1.
 *
 * Stability: the other report writers (HTML) consume these structs; fields
 * are only ever added, never renamed or removed. */
#ifndef RESULTS_MERGE_H
#define RESULTS_MERGE_H

#include <math.h>
#include <stddef.h>

#include <jansson.h>

#include "bw_error.h"

/* The NAN test of the merged figures: 1 when v holds a value (measured,
 * modeled or from a file), 0 for "not measured" / absent (NAN). */
static inline int results_merge_not_nan(double v) { return !isnan(v); }

/* A device, as one column of the comparison. Devices from different files
 * are the same device when vendor, name and driver_version are all equal
 * (the identity named in docs/compare.md); the provenance fields come from
 * the first run that names it. */
typedef struct results_merge_device {
    char *vendor, *name, *driver_version; /* the identity ("" when a file lacks one) */
    char *platform, *platform_version, *device_version, *type; /* or NULL */
    char *board_name;  /* CL_DEVICE_BOARD_NAME_AMD (AMD names devices "gfx942"), or NULL */
    char *label;   /* short column label, unique within the merge: "VENDOR NAME [DRIVER]" */
    long long compute_units, clock_mhz, global_mem_bytes; /* -1 when absent */
    /* the profile each run used (the first run's): name, units */
    char *profile;                       /* or NULL */
    long long lanes, sector_bytes, line_bytes, banks, bank_width; /* -1 when absent */
    /* nominal figures (data/nominal.json) when a table entry matches this
     * device (results_merge_apply_nominal), else NULL / NAN */
    char *nominal_name;          /* the entry's name in data/nominal.json */
    double nominal_dram_gbs;     /* nominal DRAM bandwidth, GB/s */
    double nominal_fp32_gflops;  /* nominal FP32 peak, GFLOP/s */
    char *nominal_dram_source, *nominal_fp32_source; /* public source of each figure */
    /* measured: the best of its runs' seq (copy mode, 4-byte elements: the
     * `seq` row) and tuned peaks, NAN when no run holds one */
    double seq_gbs;
    double peak_read_gbs, peak_copy_gbs;
    size_t n_runs;  /* runs of this device merged (duplicates counted once) */
    /* the limits peer figures need (results_peer_match.h), -1 when absent:
     * CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_MAX_WORK_GROUP_SIZE, and the
     * cache: the largest of the device's global_cache_bytes and its runs'
     * working_set_cache_bytes */
    long long max_alloc_bytes, max_work_group_size, cache_bytes;
} results_merge_device;

/* One roofline sweep point (measured figures, modeled attainable). */
typedef struct results_merge_roof_point {
    double intensity;          /* FLOP/byte, requested */
    double gflops, gbs;        /* measured */
    double attainable_gflops;  /* modeled from the measured peaks, NAN when absent */
} results_merge_roof_point;

/* One device's run in one file (runs[] of a results document, or the run
 * header of a journal). */
typedef struct results_merge_run {
    size_t device;         /* index into results_merged.devices */
    char *file;            /* the path it was read from */
    int file_index;        /* index into results_merged.files */
    char *date;            /* ISO 8601 UTC, or NULL */
    char *host, *os;       /* or NULL */
    char *tool_version;    /* bwlab version that wrote it, or NULL */
    long long schema_version;
    char *command_line;    /* the arguments joined by spaces, or NULL */
    char *note;            /* a top-level "note" (e.g. sample files say so), or NULL */
    int partial;           /* 1: read from an OUT.partial journal */
    int interrupted;       /* 1: Ctrl-C stopped it (file's "interrupted") */
    int noisy;             /* 1: runs[].noise.noisy; 0 also when absent */
    char *status;          /* "ok", "failed", or NULL when absent */
    char *failure;         /* or NULL */
    double peak_read_gbs, peak_copy_gbs; /* measured (tuning cache), NAN when absent */
    /* the short roofline (runs[].roofline), when measured */
    int has_roofline;
    double roof_peak_gflops, roof_peak_gbs; /* measured */
    double roof_ridge_intensity;            /* modeled from the measured peaks */
    results_merge_roof_point *roof_points;
    size_t n_roof_points;
} results_merge_run;

/* One measurement of an entry in one run. */
typedef struct results_merge_sample {
    size_t run;              /* index into results_merged.runs */
    char *status;            /* "ok", "failed", "not-measurable", "not-run" */
    double effective_gbs;    /* measured, NAN when not measured */
    double relative_to_seq;  /* measured, NAN when not measured */
    double best_gbs;         /* measured, NAN when absent */
    double fraction_of_peak; /* measured, NAN when absent */
} results_merge_sample;

/* One (pattern, device, access mode): every run's measurement of it, and
 * the figures of the comparison. */
typedef struct results_merge_entry {
    size_t row;        /* index into results_merged.rows */
    size_t device;     /* index into results_merged.devices */
    results_merge_sample *samples; /* every run that holds it, in file order */
    size_t n_samples;             /* > 1: a repeat (marked in the tables) */
    size_t n_measured;            /* samples with an effective_gbs */
    /* measured, across the samples that have one (NAN when none) */
    double effective_gbs;         /* median */
    double effective_min, effective_max;
    double relative_to_seq;       /* median of the samples' relative_to_seq */
    double relative_min, relative_max;
    /* modeled, under this device's profile (from the first sample's file) */
    double sector_efficiency;     /* model.sector_efficiency */
    double predicted_efficiency;  /* model.predicted_efficiency */
    double store_efficiency;      /* model.stores.predicted_efficiency: write mode's pattern side */
    /* the kernel's address expression and element size under this
     * device's profile (the first sample's file), or NULL / -1 */
    char *expression;
    long long elem_bytes;
    /* bank patterns (space "local") and tiled transposes, when present */
    long long conflict_ways;      /* modeled, -1 when absent */
    double local_gbs;             /* measured, NAN when absent */
    double relative_to_reference; /* measured, NAN when absent */
    /* --baseline: effective_gbs / the baseline device's for this row
     * (measured), NAN without a baseline or a baseline figure */
    double relative_to_baseline;
} results_merge_entry;

/* One table row: a pattern with its parameters, in one access mode. Rows
 * keep the order of first appearance. */
typedef struct results_merge_row {
    char *pattern;   /* canonical spec, e.g. "stride:s=2" */
    char *family;    /* or NULL */
    char *access;    /* "copy" or "read" ("copy" when a file has no access key) */
    char *space;     /* "global" or "local" ("global" when absent) */
} results_merge_row;

/* One input file that was read (after duplicates are removed). */
typedef struct results_merge_file {
    char *path;
    int partial;        /* 1: a journal */
    size_t duplicates;  /* identical files counted once with this one */
} results_merge_file;

/* A problem with one input: it names the file and says what is wrong. The
 * file is skipped (or, for a note, read anyway); the others are merged. */
typedef struct results_merge_diag {
    char *file;      /* the path as given or found */
    char *message;   /* e.g. "unknown schema_version 7 (this bwlab reads 1)" */
    int is_error;    /* 1: skipped; 0: a note (duplicate, partial) */
} results_merge_diag;

/* Probe figures (measured): one cache level, one ladder point, one
 * host<->device copy (docs/results.md, "bwlab probe"). */
typedef struct results_merge_level {
    double size_bytes, read_gbs, latency_ns, latency_per_cu_ns; /* NAN when absent */
} results_merge_level;

typedef struct results_merge_ladder_point {
    double bytes, read_gbs, latency_ns, latency_per_cu_ns; /* NAN when absent */
} results_merge_ladder_point;

typedef struct results_merge_transfer {
    char direction[8]; /* "h2d", "d2h" ("" when absent) */
    char memory[12];   /* "pageable", "pinned" */
    int blocking;      /* 1 blocking, 0 not */
    double bytes, gbs, us; /* bytes requested; GB/s and time measured */
} results_merge_transfer;

/* One device's probe figures from one file: a `bwlab probe` results file
 * (schema "bwlab.probe-results", devices[]) or a `bwlab run --transfers`
 * run (runs[].transfers: transfers and launch latency only). Attached to
 * the device by the same identity as runs (vendor, name, driver). */
typedef struct results_merge_probe {
    size_t device;         /* index into results_merged.devices */
    char *file;            /* the path it was read from */
    int file_index;        /* index into results_merged.files */
    int from_run;          /* 1: a run file's --transfers; 0: bwlab probe */
    char *date;            /* or NULL */
    char *status;          /* "probed", "failed", or NULL */
    char *note;            /* a top-level "note" (sample files), or NULL */
    long long inferred_unit_bytes;  /* measured, -1 when absent */
    long long profile_unit_bytes, profile_line_bytes; /* the profile's, -1 when absent */
    char *unit_agreement;  /* or NULL */
    results_merge_level *levels;         size_t n_levels;   /* nearest first */
    results_merge_level memory;          /* the last plateau; size_bytes NAN */
    results_merge_ladder_point *ladder;  size_t n_ladder;   /* by size */
    results_merge_transfer *transfers;   size_t n_transfers;
    double launch_latency_us;           /* measured, NAN when absent */
    double small_transfer_latency_us;   /* measured, NAN when absent */
    long long small_transfer_bytes;     /* -1 when absent */
} results_merge_probe;

typedef struct results_merged {
    results_merge_file *files;     size_t n_files;
    results_merge_device *devices; size_t n_devices;
    results_merge_run *runs;       size_t n_runs;
    results_merge_row *rows;       size_t n_rows;
    results_merge_entry *entries;  size_t n_entries; /* by row, then device */
    results_merge_diag *diags;     size_t n_diags;
    results_merge_probe *probes;   size_t n_probes; /* in file order */
    int baseline;                 /* device index of --baseline, -1 without */
    struct results_peer_set *peers; /* clpeak and BabelStream files (results_peer_match.h), NULL when none */
} results_merged;

/* One results or probe document already in memory (doc, not changed;
 * `bwlab run --report` renders its own run without a file), checked and
 * merged as results_load_paths merges one file named `name`: name stands
 * for the path in the runs, files and diagnostics. Returns as
 * results_load_paths. */
bw_code results_load_doc(const json_t *doc, const char *name, results_merged **out, bw_error *err);

/* What the command will write, so that no input is overwritten. */
typedef struct results_load_opts {
    const char *const *outputs;      /* paths the command will write (NULL, "" and "-" are skipped) */
    const char *const *output_flags; /* the flag of each, for the message ("--output"), or NULL */
    size_t n_outputs;
} results_load_opts;

/* Reads every path (a result file, a probe results file, an OUT.partial journal, a clpeak or
 * BabelStream file (recognised by content), or a directory searched recursively for *.json,
 * *.partial, *.partial.N, *.xml and *.csv in name order) and merges them. Bad inputs are
 * recorded in (*out)->diags and skipped. Returns
 * BW_OK with *out (caller frees with results_merged_free) even when some
 * inputs were bad; BW_E_FORMAT when no input held any result or probe (*out is
 * still returned, with the diagnostics); BW_E_NOMEM.
 *
 * The scan (docs/compare.md, "Inputs"): every file is listed before any is
 * read; links are followed, but a directory is entered once (by device and
 * inode: `a -> .` ends) and a file reached by two names is read once (a
 * note); only regular files are opened, and never so that a FIFO could
 * block: FIFOs, sockets, devices and dangling links inside a directory are
 * named in notes and skipped (the first 5 per path, then one note with the
 * count); such a file named as a path itself is an error.
 *
 * After the scan and before anything is read: BW_E_USAGE (*out NULL) when
 * an existing output in opts is one of the files to read (by device and
 * inode: through links, or found in a directory), naming the flag, the
 * output and the input. opts may be NULL. */
bw_code results_load_paths_opts(const char *const *paths, size_t n, const results_load_opts *opts,
                               results_merged **out, bw_error *err);

/* The entry of (row, device), or NULL when that device has none. */
const results_merge_entry *results_merged_entry(const results_merged *m, size_t row, size_t device);

/* Sets m->baseline to the device that `spec` names (a label, or a
 * case-insensitive substring of vendor, name or label that matches one
 * device) and fills each entry's relative_to_baseline. BW_E_USAGE naming
 * spec and listing the devices when nothing, or more than one, matches. */
bw_code results_merge_set_baseline(results_merged *m, const char *spec, bw_error *err);

/* Reads data/nominal.json (bw_file_find_resource, $BWLAB_DATA_DIR) and
 * fills each device's nominal_* fields by the documented match rule
 * (docs/compare.md). BW_E_IO / BW_E_FORMAT when the table is missing or
 * malformed. */
bw_code results_merge_apply_nominal(results_merged *m, bw_error *err);

void results_merged_free(results_merged *m); /* accepts NULL */

#endif
