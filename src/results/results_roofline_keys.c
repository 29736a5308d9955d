/* results_roofline_keys: the table of a roofline measurement's keys
 * (results_roofline_keys.h). */
#include "results_roofline_keys.h"

#include <stddef.h>

const results_doc_key RESULTS_ROOFLINE_KEYS[RR_COUNT] = { RESULTS_ROOFLINE_KEY_LIST(RESULTS_DOC_KEY_ROW) };
