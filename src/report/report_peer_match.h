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

/* Takes f (owned from now on, freed on failure too), whose bytes hash to
 * hash and number size, into *set, made when NULL; 0 when out of memory. */
int results_peer_set_add(results_peer_set **set, results_peer_file *f, uint64_t hash, size_t size);

/* The file of set (may be NULL) with the same hash and size, or NULL. */
const results_peer_file *results_peer_set_same(const results_peer_set *set, uint64_t hash, size_t size);

/* Once every bwlab file is merged: places every figure of m->peers in a
 * column (the bwlab device it matches, else its own), works out clpeak's
 * buffer from the matched device and notes a buffer below 4x its cache.
 * BW_E_NOMEM or BW_OK; nothing to do without peers. */
bw_code results_peer_match(results_merged *m, bw_error *err);

/* 1 when the peer's device strings name bwlab's device d (the rule of
 * docs/compare.md): names equal after trimming blanks, or the peer's name
 * (case-insensitive) inside bwlab's; and the drivers equal after trimming
 * when the peer names one. */
int results_peer_device_matches(const results_peer_device *p, const results_merge_device *d);

/* 1 for a figure drawn beside bwlab's bandwidth: a read or stream figure
 * in GB/s (transfers are host<->device, not the device's memory) */
int results_peer_entry_charted(const results_peer_entry *e);

void results_peer_set_free(results_peer_set *set); /* accepts NULL */

#endif
