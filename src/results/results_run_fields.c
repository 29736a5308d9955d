/* results_run_fields: the table of a run document's keys beside a
 * result's flat fields (results_run_fields.h). */
#include "results_run_fields.h"

const results_doc_key RESULTS_RUN_FIELDS[RUNF_COUNT] = { RESULTS_RUN_KEY_LIST(RESULTS_DOC_KEY_ROW) };
