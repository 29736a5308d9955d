/* results_tune_keys: the keys of a tuned peak, spelled once for the tuning
 * cache (bench_tune_cache.c, which writes and reads them) and `bwlab
 * tune`'s results document (report_tune.c, docs/results.md "bwlab tune"):
 * an entry's date, buffer and two modes, and each mode's winning
 * configuration and figure. */
#ifndef RESULTS_TUNE_KEYS_H
#define RESULTS_TUNE_KEYS_H

/* an entry */
#define RT_DATE "date"                 /* ISO 8601 UTC, when it was measured */
#define RT_BUFFER_BYTES "buffer_bytes" /* requested, bytes */
#define RT_READ "read"                 /* the read mode's peak */
#define RT_COPY "copy"                 /* the copy mode's peak */
/* a configuration (a peak's or a candidate's) */
#define RT_VECTOR_WIDTH "vector_width"     /* requested: elements per vector load */
#define RT_ELEMS_PER_ITEM "elems_per_item" /* requested: vectors per work-item */
#define RT_LOCAL_SIZE "local_size"         /* requested: work-items per group */
#define RT_LAYOUT "layout"                 /* "block" or "grid" */
#define RT_GBS "gbs"                       /* measured, GB/s */

#endif
