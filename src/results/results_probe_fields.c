/* results_probe_fields: the table of the probe document's keys
 * (results_probe_fields.h). */
#include "results_probe_fields.h"

#include <stddef.h>

const results_doc_key RESULTS_PROBE_FIELDS[RP_COUNT] = { RESULTS_PROBE_KEY_LIST(RESULTS_DOC_KEY_ROW) };
