/* test_keys: holds a written results document to its key tables
 * (results_doc_keys.h), for the suites whose commands write documents. */
#ifndef TEST_KEYS_H
#define TEST_KEYS_H

#include <jansson.h>
#include <stddef.h>

#include "results_doc_keys.h"

typedef struct tu_key_table {
    const results_doc_key *keys;
    size_t n;
} tu_key_table;

/* Expects (cr_expect) every key of doc below its head to be a row of one
 * of tables[0..n-1] or of RESULTS_TIMING_KEYS whose type its value has
 * (null fits every type). The head's keys and the device objects'
 * (bench_device_json, "bwlab devices" in docs/results.md) are not
 * walked. Returns how many distinct keys it met. */
size_t tu_expect_doc_keys(const json_t *doc, const tu_key_table *tables, size_t n);

/* docs/results.md's section under heading (from it to the next "## "),
 * read whole; the caller frees it */
char *tu_results_doc_section(const char *heading);

/* Expects every key of tables[0..n-1] to be named in docs/results.md's
 * section under heading, as `key` or `key[]`. */
void tu_expect_keys_documented(const char *heading, const tu_key_table *tables, size_t n);

#endif
