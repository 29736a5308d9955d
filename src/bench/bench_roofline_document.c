/* bench_roofline_document: `bwlab roofline`'s results document
 * (docs/results.md, "bwlab roofline") and one device's entry of it, which
 * `bwlab run`'s short roofline reports too (bench_roofline.h). */
#include "bench_roofline_priv.h"

#include <math.h>

#include "results_json.h"
#include "results_roofline_keys.h"
#include "results_schema.h"
#include "bench_stats.h"

static int ok(double v)
{
    return isfinite(v) && v > 0;
}

static json_t *kernel_json(const bench_roofline_meas *p, int width)
{
    json_t *o = json_object();
    json_object_set_new(o, RR_KEY(RR_ITEMS), json_integer((json_int_t)p->items));
    json_object_set_new(o, RR_KEY(RR_LOCAL_SIZE), json_integer((json_int_t)p->local));
    if (p->kind == BENCH_ROOFLINE_PEAK_FMA) {
        json_object_set_new(o, RR_KEY(RR_VECTOR_WIDTH), json_integer(width));
        json_object_set_new(o, RR_KEY(RR_CHAINS), json_integer(BENCH_ROOFLINE_CHAINS));
        json_object_set_new(o, RR_KEY(RR_ITERATIONS), json_integer(p->iters));
    } else {
        json_object_set_new(o, RR_KEY(RR_VECTOR_WIDTH), json_integer(width));
        json_object_set_new(o, RR_KEY(RR_VECTORS_PER_ITEM), json_integer(BENCH_ROOFLINE_VECS_PER_ITEM));
        json_object_set_new(o, RR_KEY(RR_K), json_integer(p->k));
    }
    json_object_set_new(o, RR_KEY(RR_FLOP), json_real(p->flop));
    json_object_set_new(o, RR_KEY(RR_BYTES), json_real(p->bytes));
    json_object_set_new(o, RR_KEY(RR_VALIDATION), json_string(p->validated ? "ok" : "not run"));
    json_object_set_new(o, RR_KEY(RR_TIME_NS), bench_stats_json(&p->event, p->event.count > 0));
    json_object_set_new(o, RR_KEY(RR_GFLOPS), results_json_real(p->gflops, p->kind != BENCH_ROOFLINE_PEAK_READ));
    json_object_set_new(o, RR_KEY(RR_GBS), results_json_real(p->gbs, p->kind != BENCH_ROOFLINE_PEAK_FMA));
    return o;
}

static json_t *point_json(const bench_roofline_meas *p, int width)
{
    json_t *o = kernel_json(p, width);
    json_object_set_new(o, RR_KEY(RR_INTENSITY), json_real(p->intensity));
    json_object_set_new(o, RR_KEY(RR_ATTAINABLE_GFLOPS), results_json_real(p->model.attainable_gflops, 1));
    json_object_set_new(o, RR_KEY(RR_FRACTION_OF_ROOF),
                        results_json_real(p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops)));
    json_object_set_new(o, RR_KEY(RR_BOUND), isfinite(p->model.attainable_gflops) ? json_string(model_bound_name(p->model.bound))
                                                                         : json_null());
    return o;
}

static json_t *matmul_json(const bench_roofline_result *r, int t)
{
    const bench_roofline_meas *p = &r->matmul[t];
    json_t *o = json_object();
    json_object_set_new(o, RR_KEY(RR_TILE), json_integer(p->tile));
    json_object_set_new(o, RR_KEY(RR_MEASURED), json_boolean(r->matmul_measured[t]));
    json_object_set_new(o, RR_KEY(RR_SKIPPED), r->matmul_measured[t] ? json_null() : json_string(r->matmul_skipped[t]));
    if (!r->matmul_measured[t])
        return o;
    json_object_set_new(o, RR_KEY(RR_N), json_integer(p->n));
    json_object_set_new(o, RR_KEY(RR_ITEMS), json_integer((json_int_t)p->items));
    json_object_set_new(o, RR_KEY(RR_LOCAL_SIZE), json_integer((json_int_t)p->local));
    json_object_set_new(o, RR_KEY(RR_FLOP), json_real(p->flop));
    json_object_set_new(o, RR_KEY(RR_VALIDATION), json_string(p->validated ? "ok" : "not run"));
    json_object_set_new(o, RR_KEY(RR_TIME_NS), bench_stats_json(&p->event, p->event.count > 0));
    json_object_set_new(o, RR_KEY(RR_GFLOPS), results_json_real(p->gflops, 1));
    json_object_set_new(o, RR_KEY(RR_INTENSITY), json_real(p->intensity));
    json_object_set_new(o, RR_KEY(RR_ATTAINABLE_GFLOPS), results_json_real(p->model.attainable_gflops, 1));
    json_object_set_new(o, RR_KEY(RR_FRACTION_OF_ROOF),
                        results_json_real(p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops)));
    json_object_set_new(o, RR_KEY(RR_BOUND), json_string(model_bound_name(p->model.bound)));
    return o;
}

static json_t *device_json(const bench_roofline_doc_device *d)
{
    json_t *o = json_object();
    json_t *e = bench_roofline_entry_json(d);
    json_object_set_new(o, RR_KEY(RR_DEVICE), bench_device_json(d->device, d->is_default));
    json_object_update(o, e);
    json_decref(e);
    return o;
}

json_t *bench_roofline_entry_json(const bench_roofline_doc_device *d)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, RR_KEY(RR_STATUS), json_string(d->failure                ? "failed"
                                                  : !d->result              ? "not-run"
                                                  : d->result->interrupted ? "interrupted"
                                                                           : "measured"));
    json_object_set_new(o, RR_KEY(RR_FAILURE), d->failure ? json_string(d->failure) : json_null());
    const bench_roofline_result *r = d->result;
    if (!r)
        return o;
    json_object_set_new(o, RR_KEY(RR_INTERRUPTED), json_boolean(r->interrupted));
    json_object_set_new(o, RR_KEY(RR_BUDGET_NOTE), r->budget_note[0] ? json_string(r->budget_note) : json_null());
    json_object_set_new(o, RR_KEY(RR_BUFFER_BYTES), json_integer((json_int_t)r->buffer_bytes));
    json_object_set_new(o, RR_KEY(RR_PLANNED_BUFFER_BYTES), json_integer((json_int_t)r->planned_buffer_bytes));
    json_object_set_new(o, RR_KEY(RR_WORKING_SET_SOURCE),
                        d->working_set_source ? json_string(d->working_set_source) : json_null());
    json_object_set_new(o, RR_KEY(RR_PEAK_GFLOPS), results_json_real(r->peak_gflops, 1));
    json_object_set_new(o, RR_KEY(RR_PEAK_GBS), results_json_real(r->peak_gbs, 1));
    json_object_set_new(o, RR_KEY(RR_RIDGE_INTENSITY), results_json_real(r->ridge_intensity, 1));
    json_object_set_new(o, RR_KEY(RR_MEASURED_RIDGE_INTENSITY), results_json_real(r->measured_ridge, 1));
    json_object_set_new(o, RR_KEY(RR_SLOPE_GBS), results_json_real(r->slope_gbs, 1));
    json_object_set_new(o, RR_KEY(RR_PLATEAU_GFLOPS), results_json_real(r->plateau_gflops, 1));
    json_object_set_new(o, RR_KEY(RR_PEAK_FMA), kernel_json(&r->peak_fma, r->vector_width));
    json_object_set_new(o, RR_KEY(RR_PEAK_READ), kernel_json(&r->peak_read, r->vector_width));
    json_t *pts = json_array();
    for (size_t i = 0; i < r->npoints; i++)
        json_array_append_new(pts, point_json(&r->points[i], r->vector_width));
    json_object_set_new(o, RR_KEY(RR_POINTS), pts);
    json_t *mm = json_array();
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++)
        json_array_append_new(mm, matmul_json(r, t));
    json_object_set_new(o, RR_KEY(RR_MATMUL), mm);
    json_object_set_new(o, RR_KEY(RR_LAUNCH_TARGET_NS), json_real(r->launch_target_ns));
    json_object_set_new(o, RR_KEY(RR_ROUNDS), json_integer((json_int_t)r->rounds));
    json_object_set_new(o, RR_KEY(RR_ELAPSED_S), json_real(r->total_s));
    return o;
}

json_t *bench_roofline_document(const bench_roofline_doc_meta *m, const bench_roofline_doc_device *d, size_t n)
{
    json_t *o = results_json_document(RESULTS_ROOFLINE_SCHEMA, RESULTS_ROOFLINE_SCHEMA_VERSION, m->date, m->argc,
                                      m->argv);
    if (!o)
        return NULL;
    json_object_set_new(o, RR_KEY(RR_BUDGET_S), json_real(m->budget_s));
    json_object_set_new(o, RR_KEY(RR_KERNEL_FILE), m->kernel_file ? json_string(m->kernel_file) : json_null());
    int interrupted = m->interrupted;
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++) {
        json_array_append_new(devs, device_json(&d[k]));
        interrupted |= d[k].result && d[k].result->interrupted;
    }
    json_object_set_new(o, RR_KEY(RR_INTERRUPTED), json_boolean(interrupted));
    json_object_set_new(o, RR_KEY(RR_DEVICES), devs);
    return o;
}
