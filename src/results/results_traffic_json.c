/* results_traffic_json: the model's accounting of a launch's loads or
 * stores as the documents write it (`bwlab model --launch`, the run's
 * results[].model): results_traffic_json.h. */
#include "results_traffic_json.h"

#include "results_run_fields.h"

#include "results_json.h"

json_t *results_traffic_json(const model_traffic *t)
{
    json_t *o = json_object();
    json_object_set_new(o, RUN_KEY(RUNL_WARP_INSTRUCTIONS), json_integer(t->instructions));
    json_object_set_new(o, RUN_KEY(RUNM_REQUESTED_BYTES), json_integer(t->requested_bytes));
    json_object_set_new(o, RUN_KEY(RUNL_INSTRUCTION_MODEL_BYTES), json_integer(t->instr_sectors * t->sector_bytes));
    json_object_set_new(o, RUN_KEY(RUNL_FOOTPRINT_BYTES), json_integer(t->footprint_sectors * t->sector_bytes));
    json_object_set_new(o, RUN_KEY(RUNX_INSTRUCTION_SECTORS), json_integer(t->instr_sectors));
    json_object_set_new(o, RUN_KEY(RUNX_FOOTPRINT_SECTORS), json_integer(t->footprint_sectors));
    json_object_set_new(o, RUN_KEY(RUNX_INSTRUCTION_LINES), json_integer(t->instr_lines));
    json_object_set_new(o, RUN_KEY(RUNX_FOOTPRINT_LINES), json_integer(t->footprint_lines));
    json_object_set_new(o, RUN_KEY(RUNX_INSTRUCTION_LINE_BYTES), json_integer(t->instr_lines * t->line_bytes));
    json_object_set_new(o, RUN_KEY(RUNX_FOOTPRINT_LINE_BYTES), json_integer(t->footprint_lines * t->line_bytes));
    json_object_set_new(o, RUN_KEY(RUNM_PREDICTED_EFFICIENCY),
                        results_json_real(model_traffic_predicted_efficiency(t), t->instr_sectors > 0));
    return o;
}

json_t *results_store_traffic_json(const model_traffic *t)
{
    json_t *o = results_traffic_json(t);
    json_object_set_new(o, RUN_KEY(RUNX_PARTIAL_SECTORS), t->partial_sectors >= 0 ? json_integer(t->partial_sectors) : json_null());
    json_object_set_new(o, RUN_KEY(RUNX_WRITTEN_BYTES), t->written_bytes >= 0 ? json_integer(t->written_bytes) : json_null());
    return o;
}
