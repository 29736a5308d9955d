/* results_doc_keys: the timing table every document shares and the
 * lookups of a key table (results_doc_keys.h). */
#include "results_doc_keys.h"
#include "results_doc_keys_priv.h"

#include <string.h>

const results_doc_key RESULTS_TIMING_KEYS[RTIME_N] = { RESULTS_TIMING_KEY_LIST(RESULTS_DOC_KEY_ROW) };

int results_key_type_is(const json_t *v, results_key_type t)
{
    if (json_is_null(v))
        return 1;
    switch (t) {
    case RK_STRING: return json_is_string(v);
    case RK_INTEGER: return json_is_integer(v);
    case RK_NUMBER: return json_is_number(v);
    case RK_BOOL: return json_is_boolean(v);
    case RK_OBJECT: return json_is_object(v);
    case RK_ARRAY: return json_is_array(v);
    }
    return 0;
}

const results_doc_key *results_doc_key_find(const results_doc_key *table, size_t n, const char *key, const json_t *v)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(table[i].key, key) && results_key_type_is(v, table[i].type))
            return &table[i];
    return NULL;
}

void results_doc_key_ranges(const results_doc_key *table, size_t n, results_range_field *out)
{
    for (size_t i = 0; i < n; i++)
        if (table[i].range != RESULTS_RANGE_NONE)
            *out++ = (results_range_field){ table[i].key, table[i].range };
    *out = (results_range_field){ NULL, RESULTS_RANGE_NONE };
}
