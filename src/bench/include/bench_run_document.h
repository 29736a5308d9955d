/* bench_run_document: the results of `bwlab run` as a versioned JSON
 * document (docs/results.md), built from the plan, the results and the
 * run information over the row model of bench_run_row.h, and its journal;
 * the table, Markdown and CSV are that document rendered by report_run.
 * Every number says what kind it is: requested, modeled or measured. */
#ifndef BENCH_RUN_DOCUMENT_H
#define BENCH_RUN_DOCUMENT_H

#include "results_schema.h"

#include <jansson.h>
#include <stddef.h>

#include "bench_plan.h"
#include "bench_roofline.h"
#include "bench_runner.h"
#include "bench_tune_cache.h"
#include "bench_probe.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "bench_device.h"

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
/* The same document as JSON text; BW_E_NOMEM only. */
bw_code bench_run_json(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out, bw_error *err);

/* The journal of a run in progress (docs/results.md, "OUT.partial"): one
 * JSON line with the document's head (schema, tool, date, command_line,
 * host, settings), "partial": true and "devices"; then, per finished
 * pattern, one line holding its result object as in "results" (figures
 * that need other patterns, such as relative_to_seq, may be null). */
bw_code bench_run_journal_header(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out,
                                      bw_error *err);
bw_code bench_run_journal_result(const bench_run_doc *run, size_t i, bw_buf *out, bw_error *err);

#endif
