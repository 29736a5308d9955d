/* results_traffic_json: the model's accounting of one kind of a launch's
 * accesses (loads or stores) as a JSON object, spelled once for every
 * document that holds one (`bwlab model --launch`, the run's
 * results[].model). */
#ifndef RESULTS_TRAFFIC_JSON_H
#define RESULTS_TRAFFIC_JSON_H

#include <jansson.h>

#include "model_launch.h"

/* requested, instruction-model and footprint bytes, sectors and lines,
 * and the predicted efficiency. New reference. */
json_t *results_traffic_json(const model_traffic *t);
/* The stores' object: results_traffic_json's keys, then partial_sectors
 * and written_bytes (null where the model could not count them: -1).
 * Loads keep the plain object: both figures are the stores' alone. */
json_t *results_store_traffic_json(const model_traffic *t);

#endif
