/* results_compare_keys: the table of compare's JSON keys
 * (results_compare_keys.h). */
#include "results_compare_keys.h"

#include <stddef.h>

#define RESULTS_COMPARE_KEY_ROW(id, k, kd) [CK_##id] = { k, kd },
const results_compare_key RESULTS_COMPARE_KEYS[CK_COUNT] = { RESULTS_COMPARE_KEY_LIST(RESULTS_COMPARE_KEY_ROW) };
