/* report_tune: `bwlab tune`'s results as a table or JSON, a tuned
 * configuration's description, and the tuned-peak line `bwlab run`
 * prints (report_tune.h). */
#include "report_tune.h"
#include "results_tune_keys.h"

#include "bench_tune_cache.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bw_format.h"
#include "report_devices.h"
#include "report_format.h"
#include "report_nominal.h"

void report_tune_config(bw_buf *out, const bench_tune_config *c)
{
    if (c->vector_width == 1)
        bw_buf_puts(out, "uint");
    else
        bw_buf_printf(out, "uint%d", c->vector_width);
    bw_buf_printf(out, " x %d per work-item, %lld per group, %s layout", c->elems_per_item,
                  (long long)c->local_size, bench_tune_layout_name(c->layout));
}


/* "read 31.2 GB/s with uint4 x 4 per work-item, ..." or "read not measured" */
static void peak_text(bw_buf *out, const char *mode, const bench_tune_peak *p)
{
    if (!p->valid) {
        bw_buf_printf(out, "%s not measured", mode);
        return;
    }
    bw_buf_printf(out, "%s %.1f GB/s with ", mode, p->gbs);
    report_tune_config(out, &p->config);
}

void report_tune_peak_line(bw_buf *out, const char *lead, const bench_tune_entry *e, const char *cache_file)
{
    bw_buf_printf(out, "%speak (measured by bwlab tune on %s, cached in ", lead, e->date);
    bw_quote_append(out, cache_file, strlen(cache_file), 0, 0); /* a path from the environment */
    bw_buf_puts(out, "): ");
    peak_text(out, "read", &e->peak[BENCH_TUNE_READ]);
    bw_buf_puts(out, "; ");
    peak_text(out, "copy", &e->peak[BENCH_TUNE_COPY]);
    bw_buf_putc(out, '\n');
}

static const char *status_of(const report_tune_device *d)
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

void report_tune_table(const report_tune_meta *m, const report_tune_device *devs, size_t n, bw_buf *out)
{
    for (size_t k = 0; k < n; k++) {
        const report_tune_device *d = &devs[k];
        if (k)
            bw_buf_putc(out, '\n');
        report_device_line(out, "", d->device, d->is_default);
        if (report_device_unmeasured(out, d->failure, d->entry != NULL, "tuned"))
            continue;
        const bench_tune_entry *e = d->entry;
        const bench_tune_result *r = d->result;
        if (r && r->interrupted)
            bw_buf_printf(out, "INTERRUPTED after %.1f s: the kernel shapes measured so far, no winner chosen\n",
                          r->total_s);
        if (r) {
            bw_buf_puts(out, "tuned now: ");
            report_bytes(out, (double)e->buffer_bytes);
            bw_buf_printf(out, " buffers (%s); %zu kernel shapes in %d of 4 search stages, %zu final rounds, "
                               "%.1f s of a %.1f s budget%s\n",
                          d->size_given ? "--size" : "auto, as bwlab run sizes its working set", r->n, r->stages,
                          r->final_rounds, r->total_s, m->budget_s,
                          r->budget_ended ? "; later stages skipped for the budget" : "");
        } else {
            bw_buf_printf(out, "from the cache (tuned on %s, ", e->date);
            report_bytes(out, (double)e->buffer_bytes);
            bw_buf_puts(out, " buffers); --retune measures again\n");
        }
        for (int mo = 0; mo < BENCH_TUNE_MODES; mo++) {
            const bench_tune_peak *p = &e->peak[mo];
            bw_buf_printf(out, "  peak %-4s  ", bench_tune_mode_name((bench_tune_mode)mo));
            if (!p->valid) {
                bw_buf_puts(out, r && r->interrupted ? "not chosen: the search was interrupted\n"
                                                     : "not measured: no kernel shape of this family validated and "
                                                       "timed\n");
                continue;
            }
            bw_buf_printf(out, "%8.2f GB/s  measured, with ", p->gbs);
            report_tune_config(out, &p->config);
            char words[REPORT_PLAUSIBILITY_MAX];
            if (report_figure_plausibility(p->gbs, d->nominal_gbs, d->probe_memory_gbs, d->probe_memory_date, words,
                                           sizeof words))
                bw_buf_printf(out, "; %s", words);
            bw_buf_putc(out, '\n');
        }
        if (d->cache_note) { /* it names the cache's path: outside text */
            bw_buf_puts(out, "  cache: ");
            bw_quote_append(out, d->cache_note, strlen(d->cache_note), 0, 0);
            bw_buf_putc(out, '\n');
        }
        if (!r)
            continue;
        bw_buf_puts(out, "\n  family  stage  vector  K   local  layout          GB/s   time (median)  status\n");
        for (size_t i = 0; i < r->n; i++) {
            const bench_tune_candidate *c = &r->cands[i];
            char type[12];
            snprintf(type, sizeof type, c->config.vector_width == 1 ? "uint" : "uint%d", c->config.vector_width);
            bw_buf_printf(out, "  %-6s  %5d  %-6s  %-2d  %5lld  %-10s", bench_tune_mode_name(c->mode), c->stage, type,
                          c->config.elems_per_item, (long long)c->config.local_size,
                          bench_tune_layout_name(c->config.layout));
            if (c->status == BENCH_TUNE_OK && c->event.count) {
                bw_buf_printf(out, "  %8.2f  %10.1f µs  ok, %zu launches", c->gbs, c->event.median / 1000.0,
                              c->event.count);
                if ((long)i == r->best[c->mode])
                    bw_buf_puts(out, ", BEST");
                else if (c->finalist)
                    bw_buf_puts(out, ", finalist");
            } else {
                bw_buf_printf(out, "  %8s  %13s  %s", "-", "-", c->failure ? c->failure : cand_status(r, c));
            }
            bw_buf_putc(out, '\n');
        }
    }
    bw_buf_printf(out, "\nGB/s: measured, requested bytes (loads + stores) / median kernel time (event profiling). "
                       "read: each work-item XORs its K vectors\nand stores one word; copy: every vector loaded "
                       "and stored. Every kernel shape was validated before it was timed. Cache: ");
    bw_quote_append(out, m->cache_file, strlen(m->cache_file), 0, 0);
    bw_buf_putc(out, '\n');
}

static json_t *cand_json(const bench_tune_result *r, size_t i)
{
    const bench_tune_candidate *c = &r->cands[i];
    int ok = c->status == BENCH_TUNE_OK && c->event.count > 0;
    json_t *o = json_object();
    json_object_set_new(o, "family", json_string(bench_tune_mode_name(c->mode)));
    json_object_set_new(o, "stage", json_integer(c->stage));
    json_object_set_new(o, RT_VECTOR_WIDTH, json_integer(c->config.vector_width));
    json_object_set_new(o, RT_ELEMS_PER_ITEM, json_integer(c->config.elems_per_item));
    json_object_set_new(o, RT_LOCAL_SIZE, json_integer(c->config.local_size));
    json_object_set_new(o, RT_LAYOUT, json_string(bench_tune_layout_name(c->config.layout)));
    json_object_set_new(o, "items", json_integer((json_int_t)c->items));
    json_object_set_new(o, "requested_bytes", json_real(c->requested_bytes));
    json_object_set_new(o, "status", json_string(cand_status(r, c)));
    json_object_set_new(o, "validation", c->validated ? json_string("ok")
                                                      : c->failure ? json_string(c->failure) : json_null());
    json_object_set_new(o, "failure", c->status != BENCH_TUNE_OK && c->failure ? json_string(c->failure) : json_null());
    json_object_set_new(o, "finalist", json_boolean(c->finalist));
    json_object_set_new(o, "best", json_boolean((long)i == r->best[c->mode]));
    json_object_set_new(o, RT_GBS, report_json_real(c->gbs, ok));
    json_t *t = json_object();
    json_object_set_new(t, "min", report_json_real(c->event.min, ok));
    json_object_set_new(t, "median", report_json_real(c->event.median, ok));
    json_object_set_new(t, "mean", report_json_real(c->event.mean, ok));
    json_object_set_new(t, "stddev", report_json_real(c->event.stddev, ok));
    json_object_set_new(t, "count", json_integer((json_int_t)c->event.count));
    json_object_set_new(t, "rse", report_json_real(c->event.rse, ok && c->event.count >= 2));
    json_object_set_new(o, "time_ns", t);
    return o;
}

static json_t *device_json(const report_tune_meta *m, const report_tune_device *d)
{
    json_t *o = json_object();
    json_object_set_new(o, "device", report_device_json(d->device, d->is_default));
    json_object_set_new(o, "status", json_string(status_of(d)));
    json_object_set_new(o, "failure", d->failure ? json_string(d->failure) : json_null());
    const bench_tune_entry *e = d->entry;
    if (!e)
        return o;
    bw_buf src = BW_BUF_INIT;
    if (d->result)
        bw_buf_puts(&src, "measured");
    else
        bw_buf_printf(&src, "cache %s", m->cache_file);
    json_object_set_new(o, "source", json_string(bw_buf_str(&src)));
    bw_buf_free(&src);
    json_object_set_new(o, RT_DATE, json_string(e->date));
    json_object_set_new(o, RT_BUFFER_BYTES, json_integer((json_int_t)e->buffer_bytes));
    json_object_set_new(o, "working_set_source",
                        d->result ? json_string(d->size_given ? "--size" : "auto") : json_null());
    json_object_set_new(o, "peak_read_gbs", report_json_real(e->peak[BENCH_TUNE_READ].gbs, e->peak[BENCH_TUNE_READ].valid));
    json_object_set_new(o, "peak_copy_gbs", report_json_real(e->peak[BENCH_TUNE_COPY].gbs, e->peak[BENCH_TUNE_COPY].valid));
    json_object_set_new(o, RT_READ, bench_tune_peak_json(&e->peak[BENCH_TUNE_READ]));
    json_object_set_new(o, RT_COPY, bench_tune_peak_json(&e->peak[BENCH_TUNE_COPY]));
    /* each peak against the device's nominal one: words where it is above */
    json_object_set_new(o, "nominal_dram_gbs", d->nominal_gbs > 0 ? json_real(d->nominal_gbs) : json_null());
    json_object_set_new(o, "probe_memory_gbs", d->probe_memory_gbs > 0 ? json_real(d->probe_memory_gbs) : json_null());
    json_t *pl = json_object();
    for (int mo = 0; mo < BENCH_TUNE_MODES; mo++) {
        char words[REPORT_PLAUSIBILITY_MAX];
        const char *t = e->peak[mo].valid ? report_figure_plausibility(e->peak[mo].gbs, d->nominal_gbs,
                                                                       d->probe_memory_gbs, d->probe_memory_date,
                                                                       words, sizeof words)
                                          : NULL;
        json_object_set_new(pl, bench_tune_mode_name((bench_tune_mode)mo), t ? json_string(t) : json_null());
    }
    json_object_set_new(o, "plausibility", pl);
    json_object_set_new(o, "cache_note", d->cache_note ? json_string(d->cache_note) : json_null());
    const bench_tune_result *r = d->result;
    if (!r) {
        json_object_set_new(o, "search", json_null());
        return o;
    }
    json_t *s = json_object();
    json_object_set_new(s, "budget_s", json_real(m->budget_s));
    json_object_set_new(s, "elapsed_s", json_real(r->total_s));
    json_object_set_new(s, "stages", json_integer(r->stages));
    json_object_set_new(s, "final_rounds", json_integer((json_int_t)r->final_rounds));
    json_object_set_new(s, "budget_ended", json_boolean(r->budget_ended));
    json_object_set_new(s, "interrupted", json_boolean(r->interrupted));
    json_t *cs = json_array();
    for (size_t i = 0; i < r->n; i++)
        json_array_append_new(cs, cand_json(r, i));
    json_object_set_new(s, "candidates", cs);
    json_object_set_new(o, "search", s);
    return o;
}

bw_code report_tune_json(const report_tune_meta *m, const report_tune_device *d, size_t n, bw_buf *out,
                         bw_error *err)
{
    json_t *o = report_json_document(RESULTS_TUNE_SCHEMA, RESULTS_TUNE_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    json_object_set_new(o, "cache_file", json_string(m->cache_file));
    json_object_set_new(o, "kernel_file", m->kernel_file ? json_string(m->kernel_file) : json_null());
    int interrupted = m->interrupted;
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++) {
        json_array_append_new(devs, device_json(m, &d[k]));
        interrupted |= d[k].result && d[k].result->interrupted;
    }
    json_object_set_new(o, "interrupted", json_boolean(interrupted));
    json_object_set_new(o, "devices", devs);
    return report_json_dump(o, out, err);
}
