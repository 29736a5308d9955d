/* results_merge_loader: the merge under construction, private to the
 * loader (results_merge_load.c) and the merge (results_merge.c). The loader
 * owns its indexes; the results_merged it fills goes to the caller. */
#ifndef RESULTS_MERGE_LOADER_H
#define RESULTS_MERGE_LOADER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "results_merge.h"

/* Open-addressing index from a key's hash to an array position, so that
 * finding a row or an entry stays O(1) with 100 000 results in a file.
 * slot[i] holds position + 1 (0: empty); the arrays themselves hold the
 * keys, so a probe compares there. */
typedef struct idx_map {
    size_t *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;
} idx_map;

typedef struct loader {
    results_merged *m;
    size_t passed_over; /* bwlab documents compare does not merge (tune, roofline, compare), each named in a note */
    size_t cap_files, cap_devices, cap_runs, cap_rows, cap_entries, cap_diags, cap_probes;
    size_t *cap_samples;       /* per entry */
    uint64_t *hash;            /* per file: FNV-1a of its bytes */
    size_t *len;               /* per file: its size */
    idx_map rows_by_key;       /* (pattern, access) -> row */
    idx_map entries_by_key;    /* (row, device) -> entry */
    size_t out_of_range;       /* figures and rows of the current file left out */
    size_t where_index;        /* runs[] or devices[] index of the object being merged, for messages */
    int nomem;
    char nomem_file[512];      /* the file being read when memory ran out, or "" */
    double nomem_mb;           /* and its size in MB */
} loader;

/* Makes room for one more element of size sz in *arr (count n, capacity
 * *cap); 0 when out of memory. */
int results_loader_grow(void **arr, size_t n, size_t *cap, size_t sz);
#define GROW(arr, n, cap) results_loader_grow((void **)&(arr), (n), &(cap), sizeof *(arr))

/* A diagnostic naming file (results_merge_diag); out of memory sets L->nomem. */
void results_loader_diag(loader *L, const char *file, int is_error, const char *fmt, ...) BW_PRINTF(4, 5);
/* FNV-1a of n bytes, and a finalising mix of a hash (index slots) */
uint64_t results_loader_fnv1a(const char *s, size_t n);
uint64_t results_loader_mix64(uint64_t z);

/* A checked results document (root) merged as file file_index (path);
 * partial: read from a journal. 0 when out of memory. */
int results_merge_doc(loader *L, const json_t *root, const char *file, int file_index, int partial);
/* The same for a checked `bwlab probe` results document. */
int results_merge_probe_doc(loader *L, const json_t *root, const char *file, int file_index);
/* The figures of every entry and device, once every file is merged; 0
 * when out of memory. */
int results_merge_finish(results_merged *m);

#endif
