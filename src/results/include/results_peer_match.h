/* results_peer_match: the peer files (results_peer.h) given to `bwlab
 * compare` and `bwlab report`, kept beside the merged bwlab results and
 * matched with their devices (docs/compare.md, "Peer files: clpeak and
 * BabelStream", the match rule).
 *
 * Owner: a results_peer_set owns its files and entries; the results_merged
 * that holds it (results_merged.peers) frees it with the merge. */
#ifndef RESULTS_PEER_MATCH_H
#define RESULTS_PEER_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"
#include "results_merge.h"
#include "results_peer.h"

/* One figure of one peer file, placed in a device column. */
typedef struct results_peer_entry {
    const results_peer_file *file;
    results_peer_figure *figure; /* in file; its note may be set by the cache rule */
    long device;                /* index into results_merged.devices, or -1: matched no bwlab device */
    /* the column: the bwlab device's label, the peer's "NAME [DRIVER]", or "device not named" */
    char *column;
} results_peer_entry;

typedef struct results_peer_set {
    results_peer_file **files;
    uint64_t *hash;  /* per file: the loader's hash of its bytes, so that a copy is counted once */
    size_t *size;    /* per file: its size in bytes */
    size_t n_files, cap_files;
    results_peer_entry *entries; /* by file, then figure (results_peer_match fills them) */
    size_t n_entries;
} results_peer_set;

#define RESULTS_PEER_NOT_NAMED "device not named"

/* Once every bwlab file is merged: places every figure of m->peers in a
 * column (the bwlab device it matches, else its own), works out clpeak's
 * buffer from the matched device and notes a buffer below 4x its cache.
 * BW_E_NOMEM or BW_OK; nothing to do without peers. */
bw_code results_peer_match(results_merged *m, bw_error *err);

/* 1 for a figure drawn beside bwlab's bandwidth: a read or stream figure
 * in GB/s (transfers are host<->device, not the device's memory) */
int results_peer_entry_charted(const results_peer_entry *e);

#endif
