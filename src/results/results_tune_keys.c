/* results_tune_keys: the table of `bwlab tune`'s document keys
 * (results_tune_keys.h). */
#include "results_tune_keys.h"

#include <stddef.h>

const results_doc_key RESULTS_TUNE_KEYS[RT_COUNT] = { RESULTS_TUNE_KEY_LIST(RESULTS_DOC_KEY_ROW) };
