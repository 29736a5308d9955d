/* report_tune: `bwlab tune`'s results as a table for people or a versioned
 * JSON document (docs/results.md, "bwlab tune"), and the tuned peak as
 * `bwlab run` shows it. Formatting only: the figures come from the search
 * (bench_tune) or the cache (bench_tune_cache). */
#ifndef REPORT_TUNE_H
#define REPORT_TUNE_H

#include "results_schema.h"

#include <jansson.h>
#include <stddef.h>

#include "bench_tune.h"
#include "bench_tune_cache.h"
#include "bw_buf.h"
#include "bw_error.h"
#include "bench_device.h"

/* One device: tuned now (result set), read from the cache (result NULL),
 * or failed (failure set, entry NULL). */
typedef struct report_tune_device {
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
} report_tune_device;

typedef struct report_tune_meta {
    const char *date;       /* ISO 8601 UTC */
    int argc;
    char *const *argv;
    const char *cache_file; /* the cache's path */
    double budget_s;
    const char *kernel_file; /* where stream.cl was read, or NULL */
    int interrupted;         /* a signal stopped the command (some device may be not run) */
} report_tune_meta;

void report_tune_table(const report_tune_meta *m, const report_tune_device *d, size_t n, bw_buf *out);
bw_code report_tune_json(const report_tune_meta *m, const report_tune_device *d, size_t n, bw_buf *out,
                         bw_error *err);

/* "uint4 x 4 per work-item, 256 per group, block layout" */
void report_tune_config(bw_buf *out, const bench_tune_config *c);
/* The peak line of a run's header: "peak (measured by bwlab tune, cached
 * in FILE, DATE): read X GB/s with ...; copy Y GB/s with ...\n" after lead. */
void report_tune_peak_line(bw_buf *out, const char *lead, const bench_tune_entry *e, const char *cache_file);

#endif
