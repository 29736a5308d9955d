/* The run's results as the versioned JSON document (docs/results.md),
 * its journal (OUT.partial: the head, then a line per finished pattern),
 * and its table, Markdown and CSV, which bench_run_doc renders from the
 * document. */
#include "bench_run_priv.h"
#include "bench_run.h"
#include "results_run_fields.h"


#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_explain.h"
#include "results_fields.h"
#include "results_json.h"
#include "results_plausibility.h"
#include "results_traffic_json.h"
#include "bench_probe_priv.h"
#include "bench_family.h"
#include "bench_run_row.h"
#include "bench_roofline_priv.h"
#include "bench_tune_priv.h"
#include "bench_stats.h"
#include "bench_kernel.h"
#include "bench_pair.h"
#include "bench_runner.h"
#include "results_schema.h"

/* the short roofline: the entry `bwlab roofline` writes for a device
 * (without "device"), or null when it was not measured */
static json_t *roofline_json(const bench_run_doc *run)
{
    if (!run->roofline && !run->roofline_failure)
        return json_null();
    bench_roofline_doc_device d = { run->device, run->is_default, run->roofline_failure, run->roofline,
                                    run->roofline_working_set ? run->roofline_working_set : "auto" };
    json_t *o = bench_roofline_entry_json(&d);
    return o ? o : json_null();
}

static json_t *profile_json(const bench_device *d, const model_geometry *g)
{
    json_t *o = json_object();
    json_object_set_new(o, RUN_KEY(RUND_NAME), results_json_text(d->profile_name));
    json_object_set_new(o, RUN_KEY(RUNP_WHY), results_json_text(d->profile_why));
    json_object_set_new(o, RUN_KEY(RUNP_LANES), json_integer(g->lanes));
    json_object_set_new(o, RUN_KEY(RUNP_SECTOR_BYTES), json_integer(g->sector));
    json_object_set_new(o, RUN_KEY(RUNP_LINE_BYTES), json_integer(g->line));
    json_object_set_new(o, RUN_KEY(RUNP_BANKS), g->banks ? json_integer(g->banks) : json_null());
    json_object_set_new(o, RUN_KEY(RUNP_BANK_WIDTH), g->banks ? json_integer(g->bank_width) : json_null());
    json_object_set_new(o, RUN_KEY(RUNP_DRAM_UNIT_BYTES), g->dram_unit > 0 ? json_integer(g->dram_unit) : json_null());
    if (d->profile_inferred) /* --profile inferred: which fields a cached probe gave */
        json_object_set_new(o, RUN_KEY(RUNP_INFERRED_FIELDS), results_json_words(d->profile_inferred));
    return o;
}

/* the device's peak from `bwlab tune`: null figures when none is cached */
static void tune_json(json_t *o, const bench_run_doc *run)
{
    const bench_tune_entry *e = run->tune;
    json_object_set_new(o, RUN_KEY(RUNF_PEAK_READ_GBS),
                        results_json_real(e ? e->peak[BENCH_TUNE_READ].gbs : 0, e && e->peak[BENCH_TUNE_READ].valid));
    json_object_set_new(o, RUN_KEY(RUNF_PEAK_COPY_GBS),
                        results_json_real(e ? e->peak[BENCH_TUNE_COPY].gbs : 0, e && e->peak[BENCH_TUNE_COPY].valid));
    if (!e) {
        json_object_set_new(o, RUN_KEY(RUNF_TUNE), json_null());
        return;
    }
    json_t *t = json_object();
    bw_buf src = BW_BUF_INIT;
    bw_buf_printf(&src, "cache %s", run->tune_cache ? run->tune_cache : "?");
    json_object_set_new(t, RUN_KEY(RUNT_SOURCE), results_json_text(bw_buf_str(&src)));
    bw_buf_free(&src);
    json_object_set_new(t, RUN_KEY(RUNT_DATE), results_json_text(e->date));
    json_object_set_new(t, RUN_KEY(RUNT_BUFFER_BYTES), json_integer((json_int_t)e->buffer_bytes));
    json_object_set_new(t, RUN_KEY(RUNT_READ), bench_tune_peak_json(&e->peak[BENCH_TUNE_READ]));
    json_object_set_new(t, RUN_KEY(RUNT_COPY), bench_tune_peak_json(&e->peak[BENCH_TUNE_COPY]));
    json_object_set_new(o, RUN_KEY(RUNF_TUNE), t);
}

/* the patterns not stable when the budget ended */
static void timing_json(const bench_run_doc *run, json_t *t)
{
    json_t *a = json_array();
    for (size_t i = 0; run->results && i < run->plan->n; i++)
        if (run->results[i].status == BENCH_OK && !run->results[i].stable)
            json_array_append_new(a, results_json_text(run->plan->items[i].spec));
    json_object_set_new(t, RUN_KEY(RUNI_UNSTABLE), a);
    const bench_run_info *info = run->info;
    json_t *lo = json_array(), *dr = json_array();
    for (size_t i = 0; run->results && i < run->plan->n; i++) {
        const bench_result *r = &run->results[i];
        if (r->budget_note)
            json_array_append_new(r->status == BENCH_NOT_RUN ? lo : dr, results_json_text(run->plan->items[i].spec));
    }
    json_object_set_new(t, RUN_KEY(RUNI_LEFT_OUT), lo);
    json_object_set_new(t, RUN_KEY(RUNI_LEFT_OUT_OF_LATER_ROUNDS), dr);
    json_object_set_new(t, RUN_KEY(RUNI_PLANNED_S), json_real(info->planned_s));
    json_object_set_new(t, RUN_KEY(RUNI_AVAILABLE_S), json_real(info->available_s));
    json_object_set_new(t, RUN_KEY(RUNF_PLAN_NOTE), info->plan_note[0] ? results_json_text(info->plan_note) : json_null());
    json_object_set_new(t, RUN_KEY(RUNI_REPLAN_NOTE), info->replan_note[0] ? results_json_text(info->replan_note) : json_null());
}

static json_t *noise_json(const bench_run_doc *run)
{
    const bench_run_info *info = run->info;
    const bench_plan *p = run->plan;
    long si = noise_item(run, info->seq_item), ri = noise_item(run, info->relative_item);
    json_t *o = json_object();
    json_object_set_new(o, RUN_KEY(RUND_NOISY), json_boolean(info->noisy));
    json_object_set_new(o, RUN_KEY(RUNN_SEQ_SPREAD), results_json_real(info->seq_spread, si >= 0));
    json_object_set_new(o, RUN_KEY(RUNN_SEQ_PATTERN), si >= 0 ? results_json_text(p->items[si].spec) : json_null());
    json_object_set_new(o, RUN_KEY(RUNN_RELATIVE_SPREAD), results_json_real(info->relative_spread, ri >= 0));
    json_object_set_new(o, RUN_KEY(RUNN_RELATIVE_PATTERN), ri >= 0 ? results_json_text(p->items[ri].spec) : json_null());
    json_object_set_new(o, RUN_KEY(RUNN_SEQ_LIMIT), json_real(BENCH_NOISY_SEQ));
    json_object_set_new(o, RUN_KEY(RUNN_RELATIVE_LIMIT), json_real(BENCH_NOISY_RELATIVE));
    return o;
}

/* the run's K (report_run.unroll): unroll, unroll_source, the
 * calibration's ladder (measured) and why auto fell back */
static void unroll_json(json_t *o, const bench_run_doc *run)
{
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL), run->unroll > 0 ? json_integer(run->unroll) : json_null());
    int kr = run->unroll_read > 0 ? run->unroll_read : run->unroll;
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL_READ), kr > 0 ? json_integer(kr) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL_SOURCE), run->unroll_source ? results_json_text(run->unroll_source) : json_null());
    json_t *ladder = json_array();
    const double *modes[2] = { run->unroll_gbs, run->unroll_read_gbs };
    for (int m = 0; m < 2; m++)
        for (int k = 0; modes[m] && k < 5; k++)
            if (modes[m][k] > 0) {
                json_t *e = json_object();
                json_object_set_new(e, RUN_KEY(RUND_ACCESS), json_string(m ? "read" : "copy"));
                json_object_set_new(e, RUN_KEY(RUNF_UNROLL), json_integer(1 << k));
                json_object_set_new(e, RUN_KEY(RUNU_GBS), json_real(modes[m][k]));
                json_array_append_new(ladder, e);
            }
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL_CALIBRATION), ladder);
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL_NOTE), run->unroll_why ? results_json_text(run->unroll_why) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_UNROLL_CALIBRATIONS),
                        run->unroll_runs > 0 ? json_integer(run->unroll_runs) : json_null());
}

/* --fill zeros: the compression check (measured), or nulls */
static void compression_json(json_t *o, const bench_run_doc *run)
{
    int have = run->compression_checked && run->zero_fill_gbs > 0 && run->random_fill_gbs > 0;
    json_object_set_new(o, RUN_KEY(RUNF_COMPRESSION_RATIO),
                        results_json_real(have ? run->zero_fill_gbs / run->random_fill_gbs : 0, have));
    if (!run->compression_checked) {
        json_object_set_new(o, RUN_KEY(RUNF_COMPRESSION_CHECK), json_null());
        return;
    }
    json_t *c = json_object();
    json_object_set_new(c, RUN_KEY(RUNC_PATTERN), json_string("seq"));
    json_object_set_new(c, RUN_KEY(RUND_ACCESS), json_string("read"));
    json_object_set_new(c, RUN_KEY(RUNC_ZERO_FILL_GBS), results_json_real(run->zero_fill_gbs, have));
    json_object_set_new(c, RUN_KEY(RUNC_RANDOM_FILL_GBS), results_json_real(run->random_fill_gbs, have));
    json_object_set_new(c, RUN_KEY(RUNC_FAILURE), run->compression_failure ? results_json_text(run->compression_failure)
                                                                : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_COMPRESSION_CHECK), c);
}

static json_t *run_json(const bench_run_doc *run)
{
    const bench_plan *p = run->plan;
    json_t *o = json_object();
    json_object_set_new(o, RUN_KEY(RUNF_DEVICE), bench_device_json(run->device, run->is_default));
    json_object_set_new(o, RUN_KEY(RUNF_STATUS), results_json_text(run->failure ? "failed" : "ok"));
    json_object_set_new(o, RUN_KEY(RUNF_FAILURE), run->failure ? results_json_text(run->failure) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_PROFILE), profile_json(run->device, p ? &p->geo : &run->device->geo));
    tune_json(o, run);
    json_object_set_new(o, RUN_KEY(RUNF_ROOFLINE), roofline_json(run));
    if (run->transfers) { /* --transfers: the keys of bwlab probe's (bench_probe_document) */
        json_t *t = bench_probe_transfers_json(run->transfers);
        json_object_update(o, t);
        json_decref(t);
    } else if (run->transfers_failure) {
        json_object_set_new(o, RUN_KEY(RUNF_TRANSFERS_FAILURE), json_string(run->transfers_failure));
    }
    if (!p)
        return o; /* the device failed before its plan was made */
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_TARGET_BYTES), json_integer((json_int_t)p->target_bytes));
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_SOURCE),
                        results_json_text(p->fitted_from ? "budget" : p->target_auto ? "auto" : "--size"));
    /* the auto target a fitted working set replaces, and why */
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_AUTO_BYTES),
                        p->fitted_from ? json_integer((json_int_t)p->fitted_from) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_FIT_NOTE), p->fit_note ? results_json_text(p->fit_note) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_CACHE_BYTES),
                        p->cache_bytes ? json_integer((json_int_t)p->cache_bytes) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_WORKING_SET_CACHE_SOURCE), results_json_text(p->cache_source));
    json_object_set_new(o, RUN_KEY(RUNF_TWIN_CACHE_BYTES),
                        p->twin_cache_bytes ? json_integer((json_int_t)p->twin_cache_bytes) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_TWIN_CACHE_SOURCE), results_json_text(p->twin_cache_source));
    json_object_set_new(o, RUN_KEY(RUNF_MEMORY_BUDGET_BYTES),
                        p->budget_bytes != UINT64_MAX ? json_integer((json_int_t)p->budget_bytes) : json_null());
    json_t *b = json_object();
    json_object_set_new(b, RUN_KEY(RUNB_SRC_BYTES), json_integer((json_int_t)p->src_bytes));
    json_object_set_new(b, RUN_KEY(RUNB_DST_BYTES), json_integer((json_int_t)p->dst_bytes));
    json_object_set_new(b, RUN_KEY(RUNB_DST_SHIFT_BYTES),
                        json_integer(run->info ? (json_int_t)run->info->dst_shift_bytes : 0));
    json_object_set_new(o, RUN_KEY(RUNF_BUFFERS), b);
    json_object_set_new(o, RUN_KEY(RUNF_LOCAL_SIZE), json_integer(p->local_size));
    json_t *forms = json_array();
    json_array_append_new(forms, json_string(bench_form_name(BENCH_FORM_PLAIN)));
    /* the other forms the plan's items were built in */
    for (int f = BENCH_FORM_SCALAR; f < BENCH_FORMS; f++) {
        int built = 0;
        for (size_t i = 0; i < p->n && !built; i++)
            built = p->items[i].scalar_form && p->items[i].alt_form == f;
        if (built || (f == BENCH_FORM_SCALAR && p->scalar_form))
            json_array_append_new(forms, json_string(bench_form_name((bench_form)f)));
    }
    json_object_set_new(o, RUN_KEY(RUNF_KERNEL_FORMS), forms);
    json_object_set_new(o, RUN_KEY(RUNF_READ_GUARD), json_string(p->read_flag ? "flag" : "plain"));
    unroll_json(o, run);
    json_object_set_new(o, RUN_KEY(RUNF_NOMINAL_DRAM_GBS), run->nominal_gbs > 0 ? json_real(run->nominal_gbs) : json_null());
    compression_json(o, run);
    json_object_set_new(o, RUN_KEY(RUNF_NOMINAL_NAME), run->nominal_name ? results_json_text(run->nominal_name) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_PROBE_MEMORY_GBS), run->probe_memory_gbs > 0 ? json_real(run->probe_memory_gbs) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_PROBE_MEMORY_DATE),
                        run->probe_memory_gbs > 0 && run->probe_memory_date ? results_json_text(run->probe_memory_date)
                                                                            : json_null());
    /* default patterns the plan could not measure in write mode, and why */
    json_object_set_new(o, RUN_KEY(RUNF_PLAN_NOTE), p->note ? results_json_text(p->note) : json_null());
    json_object_set_new(o, RUN_KEY(RUNF_RETRY), run->retry ? results_json_text(run->retry) : json_null());
    json_t *t = json_object();
    json_object_set_new(t, RUN_KEY(RUNI_TOTAL_S), json_real(run->info->total_s));
    json_object_set_new(t, RUN_KEY(RUNI_TIMING_S), json_real(run->info->timing_s));
    json_object_set_new(t, RUN_KEY(RUNI_BUFFERS_S), json_real(run->info->buffers_s));
    json_object_set_new(t, RUN_KEY(RUNI_BUILD_S), json_real(run->info->build_s));
    json_object_set_new(t, RUN_KEY(RUNI_PREPARE_S), json_real(run->info->prepare_s));
    json_object_set_new(t, RUN_KEY(RUNI_FILL_NOTE), run->info->fill_note[0] ? results_json_text(run->info->fill_note) : json_null());
    json_object_set_new(t, RUN_KEY(RUNI_ROUNDS), json_integer((json_int_t)run->info->rounds));
    json_object_set_new(t, RUN_KEY(RUNI_BUDGET_ENDED), json_boolean(run->info->budget_ended));
    json_object_set_new(t, RUN_KEY(RUND_INTERRUPTED), json_boolean(run->info->interrupted));
    json_object_set_new(t, RUN_KEY(RUNI_TIMER), results_json_text(run->info->timer_wall ? "wall" : "event"));
    json_object_set_new(t, RUN_KEY(RUNI_TIMER_RESOLUTION_NS),
                        results_json_real(run->info->timer_resolution_ns, run->info->timer_resolution_ns > 0));
    json_object_set_new(t, RUN_KEY(RUNI_LAUNCH_OVERHEAD_NS),
                        results_json_real(run->info->launch_overhead_ns, run->info->timer_wall));
    timing_json(run, t);
    json_object_set_new(o, RUN_KEY(RUNF_TIMING), t);
    json_object_set_new(o, RUN_KEY(RUNF_NOISE), noise_json(run));
    return o;
}

/* The value of a generic field (results_fields: the head and twin
 * groups) of result i: the one place that says what each key holds. */
static json_t *field_value(results_field_id id, const bench_run_doc *run, const row *w)
{
    const bench_item *it = w->it;
    const bench_result *r = w->r;
    const model_geometry *g = &run->plan->geo;
    const char *bound = bench_bound_name(r->bound);
    switch (id) {
    case RF_DEVICE: return json_integer((json_int_t)run->device->index);
    case RF_PATTERN: return results_json_text(it->spec);
    case RF_FAMILY: return results_json_text(it->family);
    case RF_ACCESS: return results_json_text(bench_access_name(it->access));
    case RF_EXPRESSION: return results_json_text(it->expr_text);
    case RF_ELEM_BYTES: return json_integer(it->elem);
    case RF_LANES: return json_integer(g->lanes);
    case RF_ACTIVE_LANES: return json_integer(model_lanes_count(&it->active));
    case RF_ITEMS: return json_integer(it->items);
    case RF_LOCAL_SIZE: return json_integer(it->local_size);
    case RF_LOAD: return results_json_text(it->vload ? "vload" : "indexed");
    case RF_ADDED_AS_REFERENCE: return json_boolean(it->added_as_reference);
    case RF_WORKING_SET_BYTES: return json_integer(it->model.loads.footprint_sectors * g->sector);
    case RF_SIZE_NOTE: return it->size_note ? results_json_text(it->size_note) : json_null();
    case RF_STATUS: return results_json_text(status_name(r->status));
    case RF_VALIDATION: return results_json_text(validated(r) ? "ok" : r->failure ? r->failure : "?");
    case RF_STATUS_REASON:
        return !w->ok && r->status != BENCH_FAILED && r->failure ? results_json_text(r->failure) : json_null();
    case RF_INDEX_BITS: return json_integer(it->index_bits);
    case RF_UNROLL: return it->fam->unrolls ? json_integer(bench_item_unroll(it)) : json_null();
    case RF_PLAUSIBILITY: {
        char words[RESULTS_PLAUSIBILITY_MAX];
        double gbs;
        const char *p = row_plausibility(run, (size_t)(it - run->plan->items), &gbs, words, sizeof words);
        return p ? results_json_text(p) : json_null();
    }
    case RF_UNROLL_SOURCE:
        return it->fam->unrolls && run->unroll_source ? results_json_text(run->unroll_source) : json_null();
    case RF_KERNEL_FORM: return results_json_text(bench_form_name(r->form));
    case RF_TIMER: return results_json_text(r->timer_wall ? "wall" : "event");
    case RF_TIMER_RESOLUTION_NS: return results_json_real(r->timer_resolution_ns, r->timer_resolution_ns > 0);
    case RF_LAUNCH_OVERHEAD_NS: return results_json_real(r->launch_overhead_ns, r->timer_wall);
    case RF_HOST_UNIFIED_MEMORY:
        return run->device->host_unified_memory < 0 ? json_null() : json_boolean(run->device->host_unified_memory);
    case RF_RETRY: return r->retry ? results_json_text(r->retry) : json_null();
    case RF_SUB_GROUP_SIZE: return r->sub_group_size ? json_integer((json_int_t)r->sub_group_size) : json_null();
    case RF_DROPPED_SAMPLES: return json_integer((json_int_t)r->dropped_samples);
    case RF_EFFECTIVE_GBS: return results_json_real(r->effective_gbs, w->ok);
    case RF_RELATIVE_TO_SEQ: return results_json_real(r->relative_to_reference, w->ok);
    case RF_FRACTION_OF_PEAK: return results_json_real(fraction_of_peak(run, w), 1);
    case RF_REFERENCE:
        return r->reference >= 0 ? results_json_text(run->plan->items[r->reference].spec) : json_null();
    case RF_SPACE: return results_json_text(it->fam->space);
    /* the best time, stopping rule, twin and repeatability */
    case RF_BEST_GBS: return results_json_real(r->best_gbs, w->ok && r->best_gbs > 0);
    case RF_STABLE: return w->ok ? json_boolean(r->stable) : json_null();
    case RF_TWIN_TIME_NS: return results_json_real(r->twin_ns, w->ok && r->twin_ns > 0);
    case RF_TWIN_ITEMS: return r->twin_items > 0 ? json_integer((json_int_t)r->twin_items) : json_null();
    case RF_TWIN_COLD_TIME_NS: return results_json_real(r->twin_cold_ns, w->ok && r->twin_cold_ns > 0);
    case RF_TWIN_RATIO: return results_json_real(r->twin_ratio, w->ok);
    case RF_BOUND: return w->ok && bound ? results_json_text(bound) : json_null();
    case RF_TWIN_REASON: {
        const char *why = r->twin_reason ? r->twin_reason : !w->ok ? "the pattern was not measured" : NULL;
        return w->ok && bound ? json_null() : results_json_text(why ? why : "no twin figure");
    }
    case RF_SPREAD: return results_json_real(r->spread, w->ok);
    case RF_RELATIVE_SPREAD: return results_json_real(r->relative_spread, w->ok);
    case RF_PAIRED_ROUNDS: return json_integer((json_int_t)r->paired_rounds);
    case RF_BUDGET_NOTE: return r->budget_note ? results_json_text(r->budget_note) : json_null();
    default: return json_null(); /* the family blocks set their own */
    }
}

/* the generic fields of one group, in table order */
static void fields_json(json_t *o, results_field_group group, const bench_run_doc *run, const row *w)
{
    for (int id = 0; id < RF_COUNT; id++) {
        if (RESULTS_FIELDS[id].group != group)
            continue;
        /* the per-form times (nested) have always come before sub_group_size */
        if (id == RF_SUB_GROUP_SIZE) {
            json_t *ft = json_object();
            for (int f = BENCH_FORM_PLAIN; f < BENCH_FORMS; f++)
                json_object_set_new(ft, bench_form_name((bench_form)f),
                                    results_json_real(w->r->form_ns[f], w->r->form_ns[f] > 0));
            json_object_set_new(o, RUN_KEY(RUNR_FORM_TIME_NS), ft);
        }
        json_object_set_new(o, RF_KEY(id), field_value((results_field_id)id, run, w));
    }
}

/* the launch model's bounds beside the measured time (launch_times_of) */
static json_t *launch_bounds_json(const row *w)
{
    const bench_item *it = w->it;
    launch_times lt;
    int have = launch_times_of(w, &lt);
    json_t *lb = json_object();
    json_object_set_new(lb, RUN_KEY(RUNL_WARP_INSTRUCTIONS),
                        json_integer(it->model.loads.instructions + it->model.stores.instructions));
    json_object_set_new(lb, RUN_KEY(RUNL_FOOTPRINT_BYTES), json_integer((json_int_t)w->lower));
    json_object_set_new(lb, RUN_KEY(RUNL_INSTRUCTION_MODEL_BYTES), json_integer((json_int_t)w->upper));
    json_object_set_new(lb, RUN_KEY(RUNL_FOOTPRINT_TIME_NS), results_json_real(lt.footprint_ns, have));
    json_object_set_new(lb, RUN_KEY(RUNL_INSTRUCTION_TIME_NS), results_json_real(lt.instruction_ns, have));
    json_object_set_new(lb, RUN_KEY(RUNL_MEDIAN_TIME_NS), results_json_real(lt.median_ns, have));
    return lb;
}

/* what the model says of the pattern under the profile g */
static json_t *model_json(const row *w, const model_geometry *g)
{
    const bench_item *it = w->it;
    json_t *mo = json_object();
    json_object_set_new(mo, RUN_KEY(RUNP_SECTOR_BYTES), json_integer(g->sector));
    json_object_set_new(mo, RUN_KEY(RUNP_LINE_BYTES), json_integer(g->line));
    json_t *wp = json_object();
    json_object_set_new(wp, RUN_KEY(RUNM_REQUESTED_BYTES), json_integer(it->warp0.requested_bytes));
    json_object_set_new(wp, RUN_KEY(RUNW_DISTINCT_BYTES), json_integer(it->warp0.distinct_bytes));
    json_object_set_new(wp, RUN_KEY(RUNW_SECTORS), json_integer(it->warp0.sectors));
    json_object_set_new(wp, RUN_KEY(RUNM_SECTOR_EFFICIENCY), results_json_real(it->warp0.sector_efficiency, it->warp0.has_efficiency));
    json_object_set_new(wp, RUN_KEY(RUNW_LINES), json_integer(it->warp0.lines));
    json_object_set_new(wp, RUN_KEY(RUNW_LINE_EFFICIENCY), results_json_real(it->warp0.line_efficiency, it->warp0.has_efficiency));
    json_object_set_new(mo, RUN_KEY(RUNM_WARP0), wp);
    json_object_set_new(mo, RUN_KEY(RUNM_LOADS), results_traffic_json(&it->model.loads));
    json_object_set_new(mo, RUN_KEY(RUNM_STORES), results_store_traffic_json(&it->model.stores));
    json_object_set_new(mo, RUN_KEY(RUNM_REQUESTED_BYTES), json_integer((json_int_t)w->requested));
    json_object_set_new(mo, RUN_KEY(RUNL_INSTRUCTION_MODEL_BYTES), json_integer((json_int_t)w->upper));
    json_object_set_new(mo, RUN_KEY(RUNL_FOOTPRINT_BYTES), json_integer((json_int_t)w->lower));
    json_object_set_new(mo, RUN_KEY(RUNM_SECTOR_EFFICIENCY), results_json_real(it->warp0.sector_efficiency, it->warp0.has_efficiency));
    json_object_set_new(mo, RUN_KEY(RUNM_PREDICTED_EFFICIENCY),
                        results_json_real(model_traffic_predicted_efficiency(&it->model.loads),
                                         it->model.loads.instr_sectors > 0));
    return mo;
}

/* the measured time placed between the modeled bounds */
static json_t *verdict_json(const bench_run_doc *run, const row *w)
{
    const bench_item *it = w->it;
    const bench_result *r = w->r;
    json_t *v = json_object();
    char sentence[BENCH_VERDICT_SENTENCE_MAX];
    json_object_set_new(v, RUN_KEY(RUNV_CODE), results_json_text(bench_verdict_name(r->verdict.code)));
    /* a bank item has no global traffic to place between bounds */
    int unroll = it->fam->unrolls ? bench_item_unroll(it) : 0;
    json_object_set_new(v, RUN_KEY(RUNV_TEXT), results_json_text(!it->fam->modeled
                                                        ? "no verdict: local memory (no global traffic modeled)"
                                                        : bench_verdict_sentence(&r->verdict, unroll, sentence,
                                                                                  sizeof sentence)));
    json_object_set_new(v, RUN_KEY(RUNV_WRITE_ALLOCATE), json_boolean(r->verdict.write_allocate));
    json_object_set_new(v, RUN_KEY(RUNV_IMPLIED_TRAFFIC_BYTES), results_json_real(r->verdict.implied_bytes, w->ok));
    json_object_set_new(v, RUN_KEY(RUNV_RATE_PATTERN), results_json_text(w->ok && r->verdict.rate_item >= 0
                                                                ? run->plan->items[r->verdict.rate_item].spec
                                                                : NULL));
    int kernel = w->ok && r->verdict.code == BENCH_VERDICT_KERNEL_BOUND;
    json_object_set_new(v, RUN_KEY(RUNV_KERNEL_EVIDENCE),
                        results_json_text(!kernel ? NULL : r->verdict.by_rate ? "rate_pattern" : "twin"));
    /* the bounds the verdict placed the row between, and their unit */
    int placed = it->fam->modeled && r->verdict.bound_unit_bytes > 0;
    json_object_set_new(v, RUN_KEY(RUNV_LOWER_BYTES), json_real(placed ? r->verdict.lower_bytes : w->lower));
    json_object_set_new(v, RUN_KEY(RUNV_UPPER_BYTES), json_real(placed ? r->verdict.upper_bytes : w->upper));
    json_object_set_new(v, RUN_KEY(RUNV_BOUND_UNIT), placed ? json_string(r->verdict.bound_dram ? "dram_unit" : "sector")
                                                : json_null());
    json_object_set_new(v, RUN_KEY(RUNV_BOUND_UNIT_BYTES), placed ? json_integer(r->verdict.bound_unit_bytes) : json_null());
    json_object_set_new(v, RUN_KEY(RUNV_POSITION), results_json_real(r->verdict.position, w->ok));
    return v;
}

/* a 95% interval [lo, hi], or null where there is none */
static json_t *ci_json(const double ci[2], int ok)
{
    if (!ok || !isfinite(ci[0]) || !isfinite(ci[1]))
        return json_null();
    json_t *a = json_array();
    json_array_append_new(a, json_real(ci[0]));
    json_array_append_new(a, json_real(ci[1]));
    return a;
}

/* a reference's own slot against its control slot (bench_pair_check) */
static json_t *reference_check_json(const bench_result *r)
{
    json_t *c = json_object();
    double ci[2] = { r->check.lo, r->check.hi };
    json_object_set_new(c, RUN_KEY(RUNK_OWN_MEDIAN_GBS), results_json_real(r->own_gbs, isfinite(r->own_gbs)));
    json_object_set_new(c, RUN_KEY(RUNK_CONTROL_MEDIAN_GBS), results_json_real(r->control_gbs, isfinite(r->control_gbs)));
    json_object_set_new(c, RUN_KEY(RUNK_RATIO), results_json_real(r->check.median, r->check.median > 0));
    json_object_set_new(c, RUN_KEY(RUNK_RATIO_CI), ci_json(ci, 1));
    json_object_set_new(c, RUN_KEY(RUNI_ROUNDS), json_integer((json_int_t)r->check.rounds));
    json_object_set_new(c, RUN_KEY(RUNK_TOLERANCE), json_real(BENCH_CHECK_TOLERANCE));
    json_object_set_new(c, RUN_KEY(RUNK_VERDICT), json_string(bench_check_verdict_name(r->check_verdict)));
    return c;
}

static json_t *result_json(const bench_run_doc *run, size_t i)
{
    row w = row_of(run, i);
    const bench_item *it = w.it;
    const bench_result *r = w.r;
    const model_geometry *g = &run->plan->geo;
    json_t *o = json_object();
    fields_json(o, RESULTS_FIELD_HEAD, run, &w);
    if (it->fam->doc_keys) /* the family's keys of its own */
        it->fam->doc_keys(o, run, i);
    if (is_whole_matrix(it))
        json_object_set_new(o, RUN_KEY(RUNR_LAUNCH_BOUNDS), launch_bounds_json(&w));
    json_object_set_new(o, RUN_KEY(RUNR_TIME_NS), bench_stats_json(&r->event, w.ok));
    json_object_set_new(o, RUN_KEY(RUNR_WALL_NS), bench_stats_json(&r->wall, w.ok));
    fields_json(o, RESULTS_FIELD_TWIN, run, &w);
    json_object_set_new(o, RUN_KEY(RUNR_RELATIVE_TO_SEQ_CI), ci_json(r->relative_ci, w.ok));
    json_object_set_new(o, RUN_KEY(RUNR_REFERENCE_CHECK), w.ok && r->has_check ? reference_check_json(r) : json_null());
    json_object_set_new(o, RUN_KEY(RUNR_MODEL), model_json(&w, g));
    json_object_set_new(o, RUN_KEY(RUNR_VERDICT), verdict_json(run, &w));
    bw_buf ex = BW_BUF_INIT;
    bench_explain(it, g, &ex);
    bench_explain_bound(&r->verdict, r->twin_ratio,
                        r->verdict.rate_item >= 0 ? run->plan->items[r->verdict.rate_item].spec : NULL, &ex);
    json_object_set_new(o, RUN_KEY(RUNR_EXPLAIN), results_json_text(bw_buf_str(&ex)));
    bw_buf_free(&ex);
    return o;
}

/* schema, tool, date, command line, host and settings: the head of the
 * document and of the journal */
static json_t *head_json(const bench_run_meta *m, const bench_run_doc *runs, size_t n)
{
    json_t *o = results_json_document(RESULTS_RUN_SCHEMA, RESULTS_RUN_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return NULL;
    json_t *host = json_object();
    json_object_set_new(host, RUN_KEY(RUND_NAME), results_json_text(m->host));
    json_object_set_new(host, RUN_KEY(RUND_HOST_OS), results_json_text(m->os));
    json_object_set_new(o, RUN_KEY(RUND_HOST), host);
    json_t *st = json_object();
    json_object_set_new(st, RUN_KEY(RUND_BUDGET_S), json_real(m->settings->budget_s));
    json_object_set_new(st, RUN_KEY(RUND_RSE_TARGET), json_real(m->settings->rse_target));
    json_object_set_new(st, RUN_KEY(RUND_MIN_REPS), json_integer(m->settings->min_reps));
    json_object_set_new(st, RUN_KEY(RUND_MAX_REPS), json_integer(m->settings->max_reps));
    json_object_set_new(st, RUN_KEY(RUND_WARMUP), json_integer(m->settings->warmup));
    json_object_set_new(st, RUN_KEY(RUND_MIN_TOTAL_S), json_real(m->settings->min_total_s));
    json_object_set_new(st, RUN_KEY(RUND_KERNEL_FILE), m->kernel_file ? results_json_text(m->kernel_file) : json_null());
    /* the modes measured, over every planned device */
    unsigned modes = 0;
    for (size_t k = 0; k < n; k++)
        modes |= runs[k].plan ? modes_of(runs[k].plan) : 0;
    const unsigned R = BENCH_ACCESS_BIT(BENCH_ACCESS_READ), C = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY),
                   WR = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    json_object_set_new(st, RUN_KEY(RUND_ACCESS), modes == R            ? results_json_text("read")
                                      : modes == C          ? results_json_text("copy")
                                      : modes == WR         ? results_json_text("write")
                                      : modes == (R | C)    ? results_json_text("both")
                                      : modes               ? results_json_text("all")
                                                            : json_null());
    json_object_set_new(o, RUN_KEY(RUND_SETTINGS), st);
    return o;
}

bw_code bench_run_journal_header(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out,
                                      bw_error *err)
{
    json_t *o = head_json(m, runs, n);
    if (o) {
        json_object_set_new(o, RUN_KEY(RUND_PARTIAL), json_true());
        json_t *devs = json_array();
        for (size_t k = 0; k < n; k++)
            if (runs[k].device)
                json_array_append_new(devs, bench_device_json(runs[k].device, runs[k].is_default));
        json_object_set_new(o, RUN_KEY(RUND_DEVICES), devs);
    }
    return results_json_line(o, out, err);
}

bw_code bench_run_journal_result(const bench_run_doc *run, size_t i, bw_buf *out, bw_error *err)
{
    return results_json_line(result_json(run, i), out, err);
}

json_t *bench_run_document(const bench_run_meta *m, const bench_run_doc *runs, size_t n)
{
    json_t *o = head_json(m, runs, n);
    if (!o)
        return NULL;
    int interrupted = 0, noisy = 0;
    json_t *devs = json_array(), *results = json_array();
    for (size_t k = 0; k < n; k++) {
        /* the patterns' timing, or the short roofline after them */
        interrupted |= runs[k].info->interrupted || (runs[k].roofline && runs[k].roofline->interrupted);
        noisy |= runs[k].plan && runs[k].info->noisy;
        json_array_append_new(devs, run_json(&runs[k]));
        for (size_t i = 0; runs[k].plan && i < runs[k].plan->n; i++)
            json_array_append_new(results, result_json(&runs[k], i));
    }
    json_object_set_new(o, RUN_KEY(RUND_INTERRUPTED), json_boolean(interrupted));
    json_object_set_new(o, RUN_KEY(RUND_NOISY), json_boolean(noisy));
    /* the first planned device's run at the top, for single-device documents */
    size_t top = 0;
    while (top < n && !runs[top].plan)
        top++;
    if (top < n) {
        json_t *first = json_array_get(devs, top);
        json_object_set(o, RUN_KEY(RUNF_DEVICE), json_object_get(first, RUN_KEY(RUNF_DEVICE)));
        json_object_set(o, RUN_KEY(RUNF_PROFILE), json_object_get(first, RUN_KEY(RUNF_PROFILE)));
        json_object_set(o, RUN_KEY(RUNF_BUFFERS), json_object_get(first, RUN_KEY(RUNF_BUFFERS)));
    }
    json_object_set_new(o, RUN_KEY(RUND_RUNS), devs);
    json_object_set_new(o, RUN_KEY(RUND_RESULTS), results);
    return o;
}

bw_code bench_run_json(const bench_run_meta *m, const bench_run_doc *runs, size_t n, bw_buf *out,
                            bw_error *err)
{
    json_t *o = bench_run_document(m, runs, n);
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    return results_json_dump(o, out, err);
}
