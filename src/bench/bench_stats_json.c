/* bench_stats_json: a timing summary as every results document writes it
 * (results_doc_keys.h, RESULTS_TIMING_KEYS). */
#include "bench_stats.h"

#include "results_doc_keys.h"
#include "results_json.h"

json_t *bench_stats_json(const bench_stats *s, int valid)
{
    json_t *o = json_object();
    json_object_set_new(o, RTIME_KEY(RTIME_MIN), results_json_real(s->min, valid));
    json_object_set_new(o, RTIME_KEY(RTIME_MEDIAN), results_json_real(s->median, valid));
    json_object_set_new(o, RTIME_KEY(RTIME_MEAN), results_json_real(s->mean, valid));
    json_object_set_new(o, RTIME_KEY(RTIME_STDDEV), results_json_real(s->stddev, valid));
    json_object_set_new(o, RTIME_KEY(RTIME_COUNT), json_integer((json_int_t)s->count));
    json_object_set_new(o, RTIME_KEY(RTIME_RSE), results_json_real(s->rse, valid && s->count >= 2));
    return o;
}
