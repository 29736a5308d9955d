/* results_json: what the readers of result documents share about JSON
 * values. */
#ifndef RESULTS_JSON_H
#define RESULTS_JSON_H

#include <jansson.h>

/* What a value read from JSON is, for a message: "an object", "an array",
 * "a string", "an integer", "a real number", "a boolean" or "null". */
const char *results_json_kind(const json_t *v);
/* s, or "" for a string a file did not hold (NULL) */
const char *results_or_empty(const char *s);

#endif
