/* bench_run: bench's API for `bwlab run`. The kernel files; the pipeline,
 * which measures the selected devices from the plan to the results: each
 * device planned before anything is measured, then in turn its working set fitted to the budget (one
 * calibration copy), its patterns measured (retried once at half the
 * working set when its buffers cannot be had), its short roofline and its
 * transfers. The pipeline prints nothing: what a user is told goes through
 * the caller's events, and the caller writes the results from the
 * devices' figures: the results document (bench_run_document) and the
 * journal of a run in progress; and the host's clock that the run's
 * deadline is read on. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_probe.h"
#include "bench_result.h"
#include "bench_roofline.h"
#include "bench_tune.h"
#include "bw_buf.h"
#include "bw_error.h"

/* src/ocl's handles, by pointer only: the report layer reads a run's
 * document through this header and never sees src/ocl */
typedef struct ocl_context ocl_context;
typedef struct ocl_platforms ocl_platforms;

typedef struct bench_kernels bench_kernels; /* the kernel files' text */

#define BENCH_KERNEL_FILE "gather.cl"

/* Loads the kernel files from `dir` (--kernels), else $BWLAB_KERNEL_DIR,
 * else the source tree, else the installed data directory. BW_E_IO names
 * the directory and the file. */
bw_code bench_kernels_load(const char *dir, bench_kernels **out, bw_error *err);
void bench_kernels_free(bench_kernels *k); /* accepts NULL */
/* Where gather.cl was found (for results files). */
const char *bench_kernels_path(const bench_kernels *k);

/* the compression check (--fill zeros): each of its four seq reads' budget */
#define BENCH_PIPELINE_COMPRESSION_RUN_S 0.5
/* the short roofline after each device's patterns: at most this budget
 * (the run's budget when that is smaller) */
#define BENCH_PIPELINE_ROOFLINE_S 1.0
/* the budget's share kept after the last device: writing the results and
 * ending the process, and what the last launches run past their deadline
 * (a launch in flight at the deadline finishes, and so does a roofline
 * step), so that the whole process ends within the budget */
#define BENCH_PIPELINE_WRITE_RESERVE_S 1.0

/* What the pipeline holds of one selected device, owned and freed with the
 * pipeline. */
typedef struct bench_pipeline_device {
    ocl_context *ctx;
    bench_plan *plan;            /* NULL: the device could not be planned (failure says why) */
    bench_result *results;       /* plan->n of them, once measured */
    bench_run_info info;
    char *failure;               /* why it could not be measured, or NULL */
    char *retry;                 /* what changed when its buffers failed, or NULL */
    bench_roofline_result *roof; /* the short roofline, or NULL */
    char *roof_failure;          /* why it failed, or NULL */
    bench_probe_result *xfers;   /* transfers and launch latency, or NULL */
    char *xfer_failure;          /* why they failed, or NULL */
    /* K, the items each gather and record work-item performs
     * (bench_item.unroll), and where it came from: BENCH_UNROLL_OPTION
     * (--unroll), BENCH_UNROLL_CALIBRATION (--unroll auto: in each mode,
     * copy's for copy and write, read's for read, the smallest K within 3%
     * of the best of the calibration's ladder, unroll_gbs and
     * unroll_read_gbs, averaged with the device's last calibrations where
     * unroll.json keeps them) or
     * BENCH_UNROLL_DEFAULT (auto without a ladder: unroll_why says why) */
    int unroll;      /* copy and write items */
    int unroll_read; /* read items */
    const char *unroll_source;
    double unroll_gbs[5];        /* measured: seq copy at K = 1 << k; 0 where not measured */
    double unroll_read_gbs[5];   /* measured: seq read at K = 1 << k; 0 where not measured */
    int unroll_runs;             /* calibrations K was chosen from: this run's and those unroll.json kept */
    char unroll_why[160];
    /* the calibration of this device, kept for the fit after the ladder */
    double rate_gbs, rate_fill_gbs, rate_build_s, rate_elapsed_s, rate_prep_kernel_s;
    uint64_t rate_bytes;
    int have_rate;
    /* --fill zeros: seq read (measured, GB/s) on a zero-filled source and
     * on the random one, after the patterns, each the mean of two runs
     * alternated (zeros, random, random, zeros); 0 where not measured, and
     * compression_failure says why when it failed */
    double zero_fill_gbs, random_fill_gbs;
    char *compression_failure;
} bench_pipeline_device;

/* What the caller is told, as it happens; every callback may be NULL. */
typedef struct bench_pipeline_events {
    void *ctx;
    /* device k's progress: the runner's phases (bench_progress; "finished"
     * hands over a pattern's figures for a journal), and the pipeline's
     * own "calibrating", "roofline" and "transfers"; "idle" when a phase
     * ends and nothing is running (a status line is cleared) */
    void (*progress)(void *ctx, size_t k, const bench_progress *p);
    /* one line for the user: what a plan left out, a fitted working set,
     * a retry at a smaller size, how src was filled */
    void (*note)(void *ctx, const char *line);
    /* a failure that the run keeps going past (a device, a roofline, the
     * transfers): err names the device; the results carry it too */
    void (*failed)(void *ctx, const bw_error *err);
    /* device k's patterns are measured (before its roofline) */
    void (*measured)(void *ctx, size_t k);
} bench_pipeline_events;

/* The caller fills the inputs (borrowed, outliving the pipeline) and calls
 * bench_pipeline_plan, then bench_pipeline_measure; the outputs are the
 * pipeline's, freed by bench_pipeline_free. */
typedef struct bench_pipeline {
    /* inputs */
    bench_plan_opts popts;            /* the patterns and the user's plan options */
    bench_settings settings;          /* deadline_s is set per device */
    const ocl_platforms *plats;
    const size_t *dev_idx;            /* the selected devices, indices into plats */
    size_t ndev;
    const bench_kernels *kernels;
    const char *kernels_dir;          /* roofline.cl and the transfers' kernels: NULL for the default */
    int no_roofline;                  /* no short roofline */
    uint64_t roofline_size;           /* the short roofline's buffer, 0 for auto */
    int transfers;                    /* host<->device copies and launch latency after the patterns */
    int unroll;                       /* --unroll: K (1, 2, 4, 8, 16), or 0 for auto (popts.unroll is
                                       * set per device from it) */
    int fill_zeros;                   /* --fill zeros: the compression check after each device's patterns */
    /* unroll.json (bench_unroll_memory), whose averaged calibrations
     * auto's K is chosen from, and the bwlab version of its keys; NULL:
     * each run's calibration alone */
    const char *unroll_memory;
    const char *bwlab_version;
    volatile sig_atomic_t *stop;      /* non-zero: stop after the launch in flight */
    bench_pipeline_events ev;
    /* outputs */
    bench_pipeline_device *devs;      /* ndev of them */
    size_t nrun;                      /* the devices reached so far */
    int refused;                      /* a device's --size buffers the budget cannot fill */
    char *roof_source, *roof_path;    /* roofline.cl, read once */
} bench_pipeline;

/* Every device planned before anything is measured, so that bad input
 * fails first: *planned devices have a plan. With several devices, one
 * whose limits the plan exceeds is reported (ev.failed), keeps its reason
 * in failure, and the others are measured. BW_OK when at least one is
 * planned; else the first failure's code, every failure already reported;
 * BW_E_NOMEM without a report. */
bw_code bench_pipeline_plan(bench_pipeline *p, size_t *planned);

/* Measures the planned devices in turn until *stop is set, each with an
 * equal share of the time to run_end (bench_now_s's clock) less its
 * roofline and transfers. A device, roofline or transfers that fails is
 * reported and kept in the results, and sets *any_failed; so does a
 * pattern that failed or could not be measured. BW_OK (also when
 * stopped: the results hold what was measured, info.interrupted says
 * so), or BW_E_NOMEM, after which nothing is to be written. */
bw_code bench_pipeline_measure(bench_pipeline *p, double run_end, int *any_failed);

/* The share of a budget an automatically sized transpose's model count
 * may take (bench_plan_opts.model_s): 0, no bound, under
 * BENCH_PLAN_MIN_BUDGET_S. */
double bench_pipeline_model_s(double budget_s);

void bench_pipeline_free(bench_pipeline *p); /* the outputs; accepts a zeroed pipeline */

/* One device's run. A device that failed as a whole carries `failure`;
 * when it failed before its plan was made, plan and results are NULL. */
typedef struct bench_run_doc {
    const bench_device *device;
    int is_default;
    const bench_plan *plan;      /* or NULL */
    const bench_result *results; /* plan->n entries, or NULL with plan */
    const bench_run_info *info;
    const char *failure;         /* why the device could not be measured, or NULL */
    const bench_tune_entry *tune; /* the device's peak from the tuning cache, or NULL */
    const char *tune_cache;      /* the cache file it came from */
    /* the short roofline measured after the patterns (bwlab run without
     * --no-roofline): its result, or why it failed; both NULL when it was
     * not measured (--no-roofline, the device failed, an interrupt) */
    const bench_roofline_result *roofline;
    const char *roofline_failure;
    /* --transfers: host<->device copies and launch latency (bench_probe,
     * transfers only), or why they failed; both NULL without --transfers */
    const bench_probe_result *transfers;
    const char *transfers_failure;
    /* how the short roofline's buffer was sized: "auto" or "--roofline-size"; NULL reads as "auto" */
    const char *roofline_working_set;
    /* NULL, or what changed when the device's buffers could not be had at
     * the plan's size and it was planned and run again at half of it */
    const char *retry;
    /* the device's nominal DRAM GB/s and its entry in data/nominal.json
     * (0 and NULL: no entry matches): every global figure is checked
     * against it (results_nominal_plausibility) */
    double nominal_gbs;
    const char *nominal_name;
    /* the memory plateau of the device's cached probe (measured GB/s; 0:
     * none) and that probe's date: a global figure well above it is
     * labelled too (results_plateau_plausibility) */
    double probe_memory_gbs;
    const char *probe_memory_date;
    /* --fill zeros: seq read on a zero-filled and on the random source
     * (measured GB/s; 0: not measured) and why the check failed, or NULL */
    int compression_checked;
    double zero_fill_gbs, random_fill_gbs;
    const char *compression_failure;
    /* K of the gather and record kernels (bench_pipeline_device.unroll)
     * and where it came from (BENCH_UNROLL_*; NULL: not said, as in a
     * command that does not choose it), the calibration's seq copy and
     * read GB/s at K = 1 << k (measured; NULL or 0: not measured), and why auto fell
     * back to 1 (or NULL) */
    int unroll;      /* copy and write items */
    int unroll_read; /* read items; 0: unroll's */
    const char *unroll_source;
    int unroll_runs; /* calibrations auto's K was chosen from (this run's and the kept ones); 0: not said */
    const double *unroll_gbs;
    const double *unroll_read_gbs;
    const char *unroll_why;
} bench_run_doc;

/* What is common to the whole invocation. */
typedef struct bench_run_meta {
    const char *date;    /* ISO 8601, UTC */
    const char *host;    /* host name */
    const char *os;      /* "Linux 6.1.0 x86_64" */
    int argc;
    char *const *argv;   /* the command line */
    const bench_settings *settings;
    const char *kernel_file; /* where gather.cl was read */
    int explain;         /* add the explanation sentences (table, md) */
} bench_run_meta;

/* The run's results document (a new reference; NULL when out of memory),
 * from which report_run renders the table, Markdown and CSV. */
json_t *bench_run_document(const bench_run_meta *m, const bench_run_doc *runs, size_t n);

/* The journal of a run in progress (docs/results.md, "OUT.partial"): one
 * JSON line with the document's head (schema, tool, date, command_line,
 * host, settings), "partial": true and "devices"; then, per finished
 * pattern, one line holding its result object as in "results" (figures
 * that need other patterns, such as relative_to_seq, may be null). */
bw_code bench_run_journal_header(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out,
                                      bw_error *err);
bw_code bench_run_journal_result(const bench_run_doc *run, size_t i, bw_buf *out, bw_error *err);

/* The host's monotonic clock, in seconds from an arbitrary start. */
double bench_now_s(void);

/* unroll.json's path (bench_pipeline.unroll_memory): auto's calibrations
 * kept per device; caller frees. Fails as bench_tune_cache_path. */
bw_code bench_unroll_memory_path(char **path, bw_error *err);

#endif
