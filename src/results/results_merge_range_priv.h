/* results_merge_range_priv: what only src/results and its tests use of
 * results_merge_range.h: the range checks themselves: a range in words, a
 * value against it, a key, a row, a list of fields, and a row's name for a
 * message. */
#ifndef RESULTS_MERGE_RANGE_PRIV_H
#define RESULTS_MERGE_RANGE_PRIV_H

#include "results_merge_range.h"

/* The range in words, e.g. "null, or 1e-06 to 1e+06 GB/s" (static). */
const char *results_range_text(results_range kind);

/* 1 when v, a number already read, lies in kind's range. */
int results_range_ok(results_range kind, double v);

/* Checks o[key] against kind: absent or null is fine; a number outside
 * the range or another type writes "KEY is VALUE, outside its valid
 * range (RANGE)" (key as given, e.g. "model.sector_efficiency") to msg
 * and returns 0. key may be a dotted path into nested objects. */
int results_range_check(const json_t *o, const char *key, results_range kind, char *msg, size_t n);

/* Every figure of one results[] object (docs/results.md, "Valid ranges"):
 * its status in the documented set, access present-and-null refused, the
 * measured, modeled and requested figures in range, and relative_to_seq
 * (and relative_to_reference) 1 on a row that is its own reference. 0
 * with the first problem in msg; 1 when the row can be merged. */
int results_range_result(const json_t *r, char *msg, size_t n);

/* The measured figures a result of a status other than "ok" must not
 * carry (bwlab writes them only for measured rows): the first such key
 * present with a number, or NULL. */
const char *results_range_unmeasured_figure(const json_t *r);

/* The first field of the list whose o[key] is out of range: its key, with
 * the message in msg; NULL when all are in range. */
const char *results_range_fields(const json_t *o, const results_range_field *f, char *msg, size_t n);

/* s cut to at most 60 characters with control bytes written as \xNN, for
 * naming a row in a message; out must hold 256 bytes. */
const char *results_range_name(const char *s, char out[256]);

#endif
