/* bench_tune_document: `bwlab tune`'s measurement as a results document
 * (docs/results.md, "bwlab tune"): per device its tuned or cached peaks,
 * their checks, and the search's kernel shapes. The report renders it
 * (report_tune_table); the command writes it as JSON. */
#ifndef BENCH_TUNE_DOCUMENT_H
#define BENCH_TUNE_DOCUMENT_H

#include <jansson.h>
#include <stddef.h>

#include "bench_device.h"
#include "bench_tune.h"
#include "bench_tune_cache.h"

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
