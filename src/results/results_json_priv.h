/* results_json_priv: what only src/results and its tests use of
 * results_json.h: naming what kind of JSON value was read, for a message.
 * */
#ifndef RESULTS_JSON_PRIV_H
#define RESULTS_JSON_PRIV_H

#include "results_json.h"

/* What a value read from JSON is, for a message: "an object", "an array",
 * "a string", "an integer", "a real number", "a boolean" or "null". */
const char *results_json_kind(const json_t *v);

#endif
