/* results_merge_schema: whether a parsed document is a results document
 * this bwlab reads (docs/results.md): the schema and its version, and
 * every key's type where it is present. The first problem found, as
 * "WHERE: WHAT", is what the file's diagnostic says. */
#ifndef RESULTS_MERGE_SCHEMA_H
#define RESULTS_MERGE_SCHEMA_H

#include <jansson.h>

#include "bw_error.h"

typedef struct report_check {
    char msg[512];
    int bad;
} report_check;

/* Records the problem unless one is recorded already. */
void report_check_fail(report_check *c, const char *fmt, ...) BW_PRINTF(2, 3);
/* Checks a results document (schema bwlab.results, not a probe's). */
void report_check_doc(report_check *c, const json_t *root);

#endif
