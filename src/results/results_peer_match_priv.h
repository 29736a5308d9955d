/* results_peer_match_priv: what only src/results and its tests use of
 * results_peer_match.h: the set of peer files: adding, comparing, matching
 * a device, freeing. */
#ifndef RESULTS_PEER_MATCH_PRIV_H
#define RESULTS_PEER_MATCH_PRIV_H

#include "results_peer_match.h"

/* Takes f (owned from now on, freed on failure too), whose bytes hash to
 * hash and number size, into *set, made when NULL; 0 when out of memory. */
int results_peer_set_add(results_peer_set **set, results_peer_file *f, uint64_t hash, size_t size);

/* The file of set (may be NULL) with the same hash and size, or NULL. */
const results_peer_file *results_peer_set_same(const results_peer_set *set, uint64_t hash, size_t size);

/* 1 when the peer's device strings name bwlab's device d (the rule of
 * docs/compare.md): names equal after trimming blanks, or the peer's name
 * (case-insensitive) inside bwlab's; and the drivers equal after trimming
 * when the peer names one. */
int results_peer_device_matches(const results_peer_device *p, const results_merge_device *d);

void results_peer_set_free(results_peer_set *set); /* accepts NULL */

#endif
