/* bench_pipeline: `bwlab run`'s measurement of its selected devices, from
 * the plan to the results: each device planned before anything is
 * measured, then in turn its working set fitted to the budget (one
 * calibration copy), its patterns measured (retried once at half the
 * working set when its buffers cannot be had), its short roofline and its
 * transfers. The pipeline prints nothing: what a user is told goes through
 * the caller's events, and the caller writes the results from the
 * devices' figures. */
#ifndef BENCH_PIPELINE_H
#define BENCH_PIPELINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_kernel.h"
#include "bench_plan.h"
#include "bench_probe.h"
#include "bench_roofline.h"
#include "bench_runner.h"
#include "bw_error.h"
#include "ocl_context.h"
#include "ocl_device.h"

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
    double rate_gbs, rate_fill_gbs, rate_build_s, rate_elapsed_s;
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

#endif
