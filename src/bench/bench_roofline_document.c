/* bench_roofline_document: `bwlab roofline`'s results document
 * (docs/results.md, "bwlab roofline") and one device's entry of it, which
 * `bwlab run`'s short roofline reports too (bench_roofline_document.h). */
#include "bench_roofline_document.h"

#include <math.h>

#include "results_json.h"
#include "results_roofline_keys.h"
#include "results_schema.h"

static int ok(double v)
{
    return isfinite(v) && v > 0;
}

static json_t *timing_json(const bench_roofline_meas *p)
{
    int have = p->event.count > 0;
    json_t *t = json_object();
    json_object_set_new(t, "min", results_json_real(p->event.min, have));
    json_object_set_new(t, "median", results_json_real(p->event.median, have));
    json_object_set_new(t, "count", json_integer((json_int_t)p->event.count));
    json_object_set_new(t, "rse", results_json_real(p->event.rse, p->event.count >= 2));
    return t;
}

static json_t *kernel_json(const bench_roofline_meas *p, int width)
{
    json_t *o = json_object();
    json_object_set_new(o, "items", json_integer((json_int_t)p->items));
    json_object_set_new(o, "local_size", json_integer((json_int_t)p->local));
    if (p->kind == BENCH_ROOFLINE_PEAK_FMA) {
        json_object_set_new(o, "vector_width", json_integer(width));
        json_object_set_new(o, "chains", json_integer(BENCH_ROOFLINE_CHAINS));
        json_object_set_new(o, "iterations", json_integer(p->iters));
    } else {
        json_object_set_new(o, "vector_width", json_integer(width));
        json_object_set_new(o, "vectors_per_item", json_integer(BENCH_ROOFLINE_VECS_PER_ITEM));
        json_object_set_new(o, "k", json_integer(p->k));
    }
    json_object_set_new(o, "flop", json_real(p->flop));
    json_object_set_new(o, "bytes", json_real(p->bytes));
    json_object_set_new(o, "validation", json_string(p->validated ? "ok" : "not run"));
    json_object_set_new(o, "time_ns", timing_json(p));
    json_object_set_new(o, RR_GFLOPS, results_json_real(p->gflops, p->kind != BENCH_ROOFLINE_PEAK_READ));
    json_object_set_new(o, RR_GBS, results_json_real(p->gbs, p->kind != BENCH_ROOFLINE_PEAK_FMA));
    return o;
}

static json_t *point_json(const bench_roofline_meas *p, int width)
{
    json_t *o = kernel_json(p, width);
    json_object_set_new(o, RR_INTENSITY, json_real(p->intensity));
    json_object_set_new(o, RR_ATTAINABLE_GFLOPS, results_json_real(p->model.attainable_gflops, 1));
    json_object_set_new(o, "fraction_of_roof",
                        results_json_real(p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops)));
    json_object_set_new(o, "bound", isfinite(p->model.attainable_gflops) ? json_string(model_bound_name(p->model.bound))
                                                                         : json_null());
    return o;
}

static json_t *matmul_json(const bench_roofline_result *r, int t)
{
    const bench_roofline_meas *p = &r->matmul[t];
    json_t *o = json_object();
    json_object_set_new(o, "tile", json_integer(p->tile));
    json_object_set_new(o, "measured", json_boolean(r->matmul_measured[t]));
    json_object_set_new(o, "skipped", r->matmul_measured[t] ? json_null() : json_string(r->matmul_skipped[t]));
    if (!r->matmul_measured[t])
        return o;
    json_object_set_new(o, "n", json_integer(p->n));
    json_object_set_new(o, "items", json_integer((json_int_t)p->items));
    json_object_set_new(o, "local_size", json_integer((json_int_t)p->local));
    json_object_set_new(o, "flop", json_real(p->flop));
    json_object_set_new(o, "validation", json_string(p->validated ? "ok" : "not run"));
    json_object_set_new(o, "time_ns", timing_json(p));
    json_object_set_new(o, RR_GFLOPS, results_json_real(p->gflops, 1));
    json_object_set_new(o, RR_INTENSITY, json_real(p->intensity));
    json_object_set_new(o, RR_ATTAINABLE_GFLOPS, results_json_real(p->model.attainable_gflops, 1));
    json_object_set_new(o, "fraction_of_roof",
                        results_json_real(p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops)));
    json_object_set_new(o, "bound", json_string(model_bound_name(p->model.bound)));
    return o;
}

static json_t *device_json(const bench_roofline_doc_device *d)
{
    json_t *o = json_object();
    json_t *e = bench_roofline_entry_json(d);
    json_object_set_new(o, "device", bench_device_json(d->device, d->is_default));
    json_object_update(o, e);
    json_decref(e);
    return o;
}

json_t *bench_roofline_entry_json(const bench_roofline_doc_device *d)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, RR_STATUS, json_string(d->failure                ? "failed"
                                                  : !d->result              ? "not-run"
                                                  : d->result->interrupted ? "interrupted"
                                                                           : "measured"));
    json_object_set_new(o, "failure", d->failure ? json_string(d->failure) : json_null());
    const bench_roofline_result *r = d->result;
    if (!r)
        return o;
    json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
    json_object_set_new(o, "budget_note", r->budget_note[0] ? json_string(r->budget_note) : json_null());
    json_object_set_new(o, "buffer_bytes", json_integer((json_int_t)r->buffer_bytes));
    json_object_set_new(o, "planned_buffer_bytes", json_integer((json_int_t)r->planned_buffer_bytes));
    json_object_set_new(o, "working_set_source",
                        d->working_set_source ? json_string(d->working_set_source) : json_null());
    json_object_set_new(o, RR_PEAK_GFLOPS, results_json_real(r->peak_gflops, 1));
    json_object_set_new(o, RR_PEAK_GBS, results_json_real(r->peak_gbs, 1));
    json_object_set_new(o, RR_RIDGE_INTENSITY, results_json_real(r->ridge_intensity, 1));
    json_object_set_new(o, RR_MEASURED_RIDGE_INTENSITY, results_json_real(r->measured_ridge, 1));
    json_object_set_new(o, "slope_gbs", results_json_real(r->slope_gbs, 1));
    json_object_set_new(o, "plateau_gflops", results_json_real(r->plateau_gflops, 1));
    json_object_set_new(o, "peak_fma", kernel_json(&r->peak_fma, r->vector_width));
    json_object_set_new(o, "peak_read", kernel_json(&r->peak_read, r->vector_width));
    json_t *pts = json_array();
    for (size_t i = 0; i < r->npoints; i++)
        json_array_append_new(pts, point_json(&r->points[i], r->vector_width));
    json_object_set_new(o, RR_POINTS, pts);
    json_t *mm = json_array();
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++)
        json_array_append_new(mm, matmul_json(r, t));
    json_object_set_new(o, "matmul", mm);
    json_object_set_new(o, "launch_target_ns", json_real(r->launch_target_ns));
    json_object_set_new(o, "rounds", json_integer((json_int_t)r->rounds));
    json_object_set_new(o, "elapsed_s", json_real(r->total_s));
    return o;
}

json_t *bench_roofline_document(const bench_roofline_doc_meta *m, const bench_roofline_doc_device *d, size_t n)
{
    json_t *o = results_json_document(RESULTS_ROOFLINE_SCHEMA, RESULTS_ROOFLINE_SCHEMA_VERSION, m->date, m->argc,
                                      m->argv);
    if (!o)
        return NULL;
    json_object_set_new(o, "budget_s", json_real(m->budget_s));
    json_object_set_new(o, "kernel_file", m->kernel_file ? json_string(m->kernel_file) : json_null());
    int interrupted = m->interrupted;
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++) {
        json_array_append_new(devs, device_json(&d[k]));
        interrupted |= d[k].result && d[k].result->interrupted;
    }
    json_object_set_new(o, "interrupted", json_boolean(interrupted));
    json_object_set_new(o, "devices", devs);
    return o;
}
