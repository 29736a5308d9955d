/* bench_tune_document: `bwlab tune`'s results document (docs/results.md,
 * "bwlab tune") from the search, the cache and the checks beside them:
 * what the report renders and the command writes (bench_tune.h). */
#include "bench_tune_priv.h"

#include "bw_buf.h"
#include "results_json.h"
#include "results_plausibility.h"
#include "results_schema.h"
#include "results_tune_keys.h"
#include "bench_stats.h"

static const char *status_of(const bench_tune_doc_device *d)
{
    return d->failure                  ? "failed"
           : !d->entry                 ? "not-run"
           : !d->result                ? "cached"
           : d->result->interrupted    ? "interrupted"
                                       : "tuned";
}

/* "not-run": an interrupted search never timed it */
static const char *cand_status(const bench_tune_result *r, const bench_tune_candidate *c)
{
    if (c->status == BENCH_TUNE_OK && r->interrupted && c->event.count == 0)
        return "not-run";
    return c->status == BENCH_TUNE_OK ? "ok" : c->status == BENCH_TUNE_FAILED ? "failed" : "not-measurable";
}

static json_t *cand_json(const bench_tune_result *r, size_t i)
{
    const bench_tune_candidate *c = &r->cands[i];
    int ok = c->status == BENCH_TUNE_OK && c->event.count > 0;
    json_t *o = json_object();
    json_object_set_new(o, RT_KEY(RT_FAMILY), json_string(bench_tune_mode_name(c->mode)));
    json_object_set_new(o, RT_KEY(RT_STAGE), json_integer(c->stage));
    json_object_set_new(o, RT_KEY(RT_VECTOR_WIDTH), json_integer(c->config.vector_width));
    json_object_set_new(o, RT_KEY(RT_ELEMS_PER_ITEM), json_integer(c->config.elems_per_item));
    json_object_set_new(o, RT_KEY(RT_LOCAL_SIZE), json_integer(c->config.local_size));
    json_object_set_new(o, RT_KEY(RT_LAYOUT), json_string(bench_tune_layout_name(c->config.layout)));
    json_object_set_new(o, RT_KEY(RT_ITEMS), json_integer((json_int_t)c->items));
    json_object_set_new(o, RT_KEY(RT_REQUESTED_BYTES), json_real(c->requested_bytes));
    json_object_set_new(o, RT_KEY(RT_STATUS), json_string(cand_status(r, c)));
    json_object_set_new(o, RT_KEY(RT_VALIDATION), c->validated ? json_string("ok")
                                                      : c->failure ? json_string(c->failure) : json_null());
    json_object_set_new(o, RT_KEY(RT_FAILURE), c->status != BENCH_TUNE_OK && c->failure ? json_string(c->failure) : json_null());
    json_object_set_new(o, RT_KEY(RT_FINALIST), json_boolean(c->finalist));
    json_object_set_new(o, RT_KEY(RT_BEST), json_boolean((long)i == r->best[c->mode]));
    json_object_set_new(o, RT_KEY(RT_GBS), results_json_real(c->gbs, ok));
    json_object_set_new(o, RT_KEY(RT_TIME_NS), bench_stats_json(&c->event, ok));
    return o;
}

static json_t *device_json(const bench_tune_doc_meta *m, const bench_tune_doc_device *d)
{
    json_t *o = json_object();
    json_object_set_new(o, RT_KEY(RT_DEVICE), bench_device_json(d->device, d->is_default));
    json_object_set_new(o, RT_KEY(RT_STATUS), json_string(status_of(d)));
    json_object_set_new(o, RT_KEY(RT_FAILURE), d->failure ? json_string(d->failure) : json_null());
    const bench_tune_entry *e = d->entry;
    if (!e)
        return o;
    bw_buf src = BW_BUF_INIT;
    if (d->result)
        bw_buf_puts(&src, "measured");
    else
        bw_buf_printf(&src, "cache %s", m->cache_file);
    json_object_set_new(o, RT_KEY(RT_SOURCE), json_string(bw_buf_str(&src)));
    bw_buf_free(&src);
    json_object_set_new(o, RT_KEY(RT_DATE), json_string(e->date));
    json_object_set_new(o, RT_KEY(RT_BUFFER_BYTES), json_integer((json_int_t)e->buffer_bytes));
    json_object_set_new(o, RT_KEY(RT_WORKING_SET_SOURCE),
                        d->result ? json_string(d->size_given ? "--size" : "auto") : json_null());
    json_object_set_new(o, RT_KEY(RT_PEAK_READ_GBS), results_json_real(e->peak[BENCH_TUNE_READ].gbs, e->peak[BENCH_TUNE_READ].valid));
    json_object_set_new(o, RT_KEY(RT_PEAK_COPY_GBS), results_json_real(e->peak[BENCH_TUNE_COPY].gbs, e->peak[BENCH_TUNE_COPY].valid));
    json_object_set_new(o, RT_KEY(RT_READ), bench_tune_peak_json(&e->peak[BENCH_TUNE_READ]));
    json_object_set_new(o, RT_KEY(RT_COPY), bench_tune_peak_json(&e->peak[BENCH_TUNE_COPY]));
    /* each peak against the device's nominal one: words where it is above */
    json_object_set_new(o, RT_KEY(RT_NOMINAL_DRAM_GBS), d->nominal_gbs > 0 ? json_real(d->nominal_gbs) : json_null());
    json_object_set_new(o, RT_KEY(RT_PROBE_MEMORY_GBS), d->probe_memory_gbs > 0 ? json_real(d->probe_memory_gbs) : json_null());
    json_t *pl = json_object();
    for (int mo = 0; mo < BENCH_TUNE_MODES; mo++) {
        char words[RESULTS_PLAUSIBILITY_MAX];
        const char *t = e->peak[mo].valid ? results_figure_plausibility(e->peak[mo].gbs, d->nominal_gbs,
                                                                       d->probe_memory_gbs, d->probe_memory_date,
                                                                       words, sizeof words)
                                          : NULL;
        json_object_set_new(pl, RT_KEY(mo == BENCH_TUNE_READ ? RT_PLAUSIBILITY_READ : RT_PLAUSIBILITY_COPY), t ? json_string(t) : json_null());
    }
    json_object_set_new(o, RT_KEY(RT_PLAUSIBILITY), pl);
    json_object_set_new(o, RT_KEY(RT_CACHE_NOTE), d->cache_note ? json_string(d->cache_note) : json_null());
    const bench_tune_result *r = d->result;
    if (!r) {
        json_object_set_new(o, RT_KEY(RT_SEARCH), json_null());
        return o;
    }
    json_t *s = json_object();
    json_object_set_new(s, RT_KEY(RT_BUDGET_S), json_real(m->budget_s));
    json_object_set_new(s, RT_KEY(RT_ELAPSED_S), json_real(r->total_s));
    json_object_set_new(s, RT_KEY(RT_STAGES), json_integer(r->stages));
    json_object_set_new(s, RT_KEY(RT_FINAL_ROUNDS), json_integer((json_int_t)r->final_rounds));
    json_object_set_new(s, RT_KEY(RT_BUDGET_ENDED), json_boolean(r->budget_ended));
    json_object_set_new(s, RT_KEY(RT_INTERRUPTED), json_boolean(r->interrupted));
    json_t *cs = json_array();
    for (size_t i = 0; i < r->n; i++)
        json_array_append_new(cs, cand_json(r, i));
    json_object_set_new(s, RT_KEY(RT_CANDIDATES), cs);
    json_object_set_new(o, RT_KEY(RT_SEARCH), s);
    return o;
}

json_t *bench_tune_document(const bench_tune_doc_meta *m, const bench_tune_doc_device *d, size_t n)
{
    json_t *o = results_json_document(RESULTS_TUNE_SCHEMA, RESULTS_TUNE_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return NULL;
    json_object_set_new(o, RT_KEY(RT_CACHE_FILE), json_string(m->cache_file));
    json_object_set_new(o, RT_KEY(RT_KERNEL_FILE), m->kernel_file ? json_string(m->kernel_file) : json_null());
    int interrupted = m->interrupted;
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++) {
        json_array_append_new(devs, device_json(m, &d[k]));
        interrupted |= d[k].result && d[k].result->interrupted;
    }
    json_object_set_new(o, RT_KEY(RT_INTERRUPTED), json_boolean(interrupted));
    json_object_set_new(o, RT_KEY(RT_DEVICES), devs);
    return o;
}
