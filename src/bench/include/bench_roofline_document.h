/* bench_roofline_document: `bwlab roofline`'s measurement as a results
 * document (docs/results.md, "bwlab roofline"): per device the peaks, the
 * ridges, the sweep's points and the tiled products. The report renders
 * it (report_roofline_table, _md, _csv); the command writes it as JSON;
 * `bwlab run` embeds one device's entry for its short roofline. */
#ifndef BENCH_ROOFLINE_DOCUMENT_H
#define BENCH_ROOFLINE_DOCUMENT_H

#include <jansson.h>
#include <stddef.h>

#include "bench_device.h"
#include "bench_roofline.h"

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
