/* results_doc_keys_priv: what only src/results and its tests use of
 * results_doc_keys.h: a value's type against a row's, finding a row, and a
 * table's ranges as range lists. */
#ifndef RESULTS_DOC_KEYS_PRIV_H
#define RESULTS_DOC_KEYS_PRIV_H

#include "results_doc_keys.h"

/* Whether v is of type t; null is every type's (a figure not measured,
 * an object not written). */
int results_key_type_is(const json_t *v, results_key_type t);

/* The row of table[0..n-1] for key whose type v has, or NULL where no
 * row names key or none of its rows has v's type. */
const results_doc_key *results_doc_key_find(const results_doc_key *table, size_t n, const char *key, const json_t *v);

/* The ranged rows of table[0..n-1] as a range list (results_merge_range.h)
 * in out, which holds n + 1 entries: one list for every object of the
 * document, since an object holds only its own level's keys. */
void results_doc_key_ranges(const results_doc_key *table, size_t n, results_range_field *out);

#endif
