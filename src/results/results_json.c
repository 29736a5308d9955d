/* results_json: JSON value kinds and absent strings, for the readers'
 * messages (results_json.h). */
#include "results_json.h"
#include "results_json_priv.h"

const char *results_json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

const char *results_or_empty(const char *s)
{
    return s ? s : "";
}
