/* report_roofline: `bwlab roofline`'s results as a table, Markdown, CSV
 * or JSON, and the short roofline `bwlab run` prints (report_roofline.h). */
#include "report_roofline.h"
#include "results_roofline_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_devices.h"
#include "report_format.h"

static int ok(double v)
{
    return isfinite(v) && v > 0;
}

/* v as %10.2f, or "-" in those 10 columns when it is no number (a kernel
 * an interrupt left untimed) */
static void num(bw_buf *out, double v)
{
    if (isfinite(v))
        bw_buf_printf(out, "%10.2f", v);
    else
        bw_buf_printf(out, "%10s", "-");
}

/* "float8" or "float" */
static void vec_name(char *buf, size_t n, int width)
{
    snprintf(buf, n, width == 1 ? "float" : "float%d", width);
}

static void summary_lines(bw_buf *out, const char *lead, const bench_roofline_result *r)
{
    char t[12];
    vec_name(t, sizeof t, r->vector_width);
    bw_buf_printf(out, "%speak compute    ", lead);
    num(out, r->peak_gflops);
    bw_buf_printf(out, " GFLOP/s  measured: rf_peak, %d FMA chains of %s per work-item, %u iterations, %llu "
                       "work-items\n",
                  BENCH_ROOFLINE_CHAINS, t, r->peak_fma.iters, (unsigned long long)r->peak_fma.items);
    bw_buf_printf(out, "%speak bandwidth  ", lead);
    num(out, r->peak_gbs);
    bw_buf_puts(out, " GB/s     measured: rf_sweep with 0 FMAs, a streaming read of ");
    report_bytes(out, (double)r->buffer_bytes);
    bw_buf_putc(out, '\n');
    bw_buf_printf(out, "%sridge          ", lead);
    num(out, r->ridge_intensity);
    bw_buf_puts(out, " FLOP/B   modeled: peak compute / peak bandwidth (model_roofline)\n");
    bw_buf_printf(out, "%smeasured ridge ", lead);
    num(out, r->measured_ridge);
    bw_buf_printf(out, " FLOP/B   measured: sweep plateau %.2f GFLOP/s / sweep slope %.2f GB/s\n", r->plateau_gflops,
                  r->slope_gbs);
}

/* what the budget cut and whether an interrupt ended it, one line each */
static void note_lines(bw_buf *out, const char *lead, const bench_roofline_result *r)
{
    if (r->interrupted)
        bw_buf_printf(out, "%sINTERRUPTED after %.1f s: partial results (\"-\": not timed)\n", lead, r->total_s);
    if (r->budget_note[0])
        bw_buf_printf(out, "%sbudget: %s\n", lead, r->budget_note);
}

void report_roofline_table(const report_roofline_meta *m, const report_roofline_device *devs, size_t n, bw_buf *out)
{
    for (size_t k = 0; k < n; k++) {
        const report_roofline_device *d = &devs[k];
        if (k)
            bw_buf_putc(out, '\n');
        report_device_line(out, "", d->device, d->is_default);
        if (report_device_unmeasured(out, d->failure, d->result != NULL, "measured"))
            continue;
        const bench_roofline_result *r = d->result;
        summary_lines(out, "  ", r);
        bw_buf_printf(out, "  %zu rounds in %.1f s of a %.1f s budget\n", r->rounds, r->total_s, m->budget_s);
        note_lines(out, "  ", r);
        bw_buf_putc(out, '\n');
        bw_buf_puts(out, "     k  intensity      bytes     GFLOP/s        GB/s  attainable  of roof  bound\n");
        for (size_t i = 0; i < r->npoints; i++) {
            const bench_roofline_meas *p = &r->points[i];
            bw_buf_printf(out, "  %4u  %9.1f  ", p->k, p->intensity);
            bw_buf_printf(out, "%9.0fM  ", p->bytes / 1048576.0);
            num(out, p->gflops);
            bw_buf_puts(out, "  ");
            num(out, p->gbs);
            bw_buf_puts(out, "  ");
            num(out, p->model.attainable_gflops);
            bw_buf_puts(out, "  ");
            report_percent(out, p->gflops / p->model.attainable_gflops,
                           ok(p->model.attainable_gflops) && isfinite(p->gflops));
            bw_buf_printf(out, "  %s\n", isfinite(p->model.attainable_gflops) ? model_bound_name(p->model.bound) : "-");
        }
        bw_buf_puts(out, "\n  tile     n     GFLOP/s  intensity  attainable  of roof  bound\n");
        for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
            const bench_roofline_meas *p = &r->matmul[t];
            if (!r->matmul_measured[t]) {
                bw_buf_printf(out, "  %4u  not measured: %s\n", p->tile, r->matmul_skipped[t]);
                continue;
            }
            bw_buf_printf(out, "  %4u  %4u  ", p->tile, p->n);
            num(out, p->gflops);
            bw_buf_printf(out, "  %9.2f  ", p->intensity);
            num(out, p->model.attainable_gflops);
            bw_buf_puts(out, "  ");
            report_percent(out, p->gflops / p->model.attainable_gflops,
                           ok(p->model.attainable_gflops) && isfinite(p->gflops));
            bw_buf_printf(out, "  %s\n", isfinite(p->model.attainable_gflops) ? model_bound_name(p->model.bound) : "-");
        }
    }
    bw_buf_puts(out, "\nk: FMAs per float loaded; intensity: requested FLOP per byte loaded (2k / 4); bytes: "
                     "requested, loaded per launch (MiB).\nGFLOP/s and GB/s: measured, requested FLOP and bytes / "
                     "median kernel time (event profiling); every kernel validated\non the host first. attainable: "
                     "modeled, min(peak compute, intensity x peak bandwidth); of roof: measured / attainable;\n"
                     "bound: modeled, memory below the ridge, compute above it.\ntile: the tiled matrix product "
                     "C = AB of n x n floats, 2n^3 FLOP (requested) / median time (measured); intensity: modeled, "
                     "T / 4.\n");
}

void report_roofline_md(const report_roofline_meta *m, const report_roofline_device *devs, size_t n, bw_buf *out)
{
    (void)m;
    for (size_t k = 0; k < n; k++) {
        const report_roofline_device *d = &devs[k];
        if (k)
            bw_buf_putc(out, '\n');
        bw_buf_printf(out, "### Device %zu: %s\n\n", d->device->index, d->device->name);
        if (report_device_unmeasured(out, d->failure, d->result != NULL, "measured"))
            continue;
        const bench_roofline_result *r = d->result;
        bw_buf_puts(out, "| figure | value | source |\n| --- | ---: | --- |\n");
        bw_buf_printf(out, "| peak compute | %.2f GFLOP/s | measured (rf_peak) |\n", r->peak_gflops);
        bw_buf_printf(out, "| peak bandwidth | %.2f GB/s | measured (streaming read) |\n", r->peak_gbs);
        bw_buf_printf(out, "| ridge | %.2f FLOP/B | modeled (peaks) |\n", r->ridge_intensity);
        bw_buf_printf(out, "| measured ridge | %.2f FLOP/B | measured (sweep plateau / slope) |\n\n",
                      r->measured_ridge);
        note_lines(out, "- ", r);
        if (r->interrupted || r->budget_note[0])
            bw_buf_putc(out, '\n');
        bw_buf_puts(out, "| k | intensity (FLOP/B, requested) | GFLOP/s (measured) | GB/s (measured) | "
                         "attainable GFLOP/s (modeled) | of roof | bound (modeled) |\n"
                         "| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (size_t i = 0; i < r->npoints; i++) {
            const bench_roofline_meas *p = &r->points[i];
            bw_buf_printf(out, "| %u | %.1f | %.2f | %.2f | %.2f | ", p->k, p->intensity, p->gflops, p->gbs,
                          p->model.attainable_gflops);
            report_percent(out, p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops));
            bw_buf_printf(out, " | %s |\n", model_bound_name(p->model.bound));
        }
        bw_buf_puts(out, "\n| tile | n | GFLOP/s (measured) | intensity (FLOP/B, modeled) | attainable GFLOP/s (modeled) "
                         "| of roof | bound (modeled) |\n| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
            const bench_roofline_meas *p = &r->matmul[t];
            if (!r->matmul_measured[t]) {
                bw_buf_printf(out, "| %u | | not measured: %s | | | | |\n", p->tile, r->matmul_skipped[t]);
                continue;
            }
            bw_buf_printf(out, "| %u | %u | %.2f | %.2f | %.2f | ", p->tile, p->n, p->gflops, p->intensity,
                          p->model.attainable_gflops);
            report_percent(out, p->gflops / p->model.attainable_gflops, ok(p->model.attainable_gflops));
            bw_buf_printf(out, " | %s |\n", model_bound_name(p->model.bound));
        }
    }
}

void report_roofline_brief(const report_roofline_device *d, const char *lead, int md, bw_buf *out)
{
    const bench_roofline_result *r = d->result;
    if (!r) {
        /* the first line: a build log follows on standard error and in JSON */
        const char *f = d->failure ? d->failure : "?";
        bw_buf_printf(out, "%sroofline FAILED: %.*s\n", lead, (int)strcspn(f, "\n"), f);
        return;
    }
    bw_buf_printf(out, "%sroofline (measured%s): peak %.2f GFLOP/s, %.2f GB/s read; ridge %.2f FLOP/byte modeled "
                       "from those, %.2f measured\n",
                  lead, r->interrupted ? ", INTERRUPTED: partial" : "", r->peak_gflops, r->peak_gbs,
                  r->ridge_intensity, r->measured_ridge);
    bw_buf_printf(out, "%s%ssweep of %zu points (k = 1 .. %u FMAs per float) over ", lead, md ? "" : "  ", r->npoints,
                  r->npoints ? r->points[r->npoints - 1].k : 0);
    report_bytes(out, (double)r->buffer_bytes);
    bw_buf_printf(out, " in %.1f s; tiled matmul (measured):", r->total_s);
    for (int t = 0; t < BENCH_ROOFLINE_TILES; t++) {
        const bench_roofline_meas *p = &r->matmul[t];
        if (r->matmul_measured[t])
            bw_buf_printf(out, "%s T = %u %.2f GFLOP/s", t ? "," : "", p->tile, p->gflops);
        else
            bw_buf_printf(out, "%s T = %u not measured", t ? "," : "", p->tile);
    }
    bw_buf_puts(out, "; bwlab roofline shows each point\n");
    if (r->budget_note[0])
        bw_buf_printf(out, "%s%sbudget: %s\n", lead, md ? "" : "  ", r->budget_note);
}

static void csv_row(bw_buf *out, const report_roofline_device *d, const bench_roofline_meas *p)
{
    const bench_roofline_result *r = d->result;
    int sweep = p->kind == BENCH_ROOFLINE_SWEEP || p->kind == BENCH_ROOFLINE_MATMUL;
    bw_buf_printf(out, "%zu,", d->device->index);
    report_csv_field(out, d->device->name);
    bw_buf_printf(out, ",%s,%u,%u,%u,%u,%llu", bench_roofline_kind_name(p->kind), p->k, p->iters, p->tile, p->n,
                  (unsigned long long)p->items);
    report_csv_num(out, p->intensity, sweep);
    report_csv_num(out, p->flop, 1);
    report_csv_num(out, p->bytes, 1);
    report_csv_num(out, p->event.median, p->event.count > 0);
    bw_buf_printf(out, ",%zu", p->event.count);
    report_csv_num(out, p->gflops, p->kind != BENCH_ROOFLINE_PEAK_READ);
    report_csv_num(out, p->gbs, p->kind == BENCH_ROOFLINE_PEAK_READ || p->kind == BENCH_ROOFLINE_SWEEP);
    report_csv_num(out, p->model.attainable_gflops, sweep);
    report_csv_num(out, p->gflops / p->model.attainable_gflops, sweep && ok(p->model.attainable_gflops));
    bw_buf_printf(out, ",%s", sweep ? model_bound_name(p->model.bound) : "");
    report_csv_num(out, r->peak_gflops, 1);
    report_csv_num(out, r->peak_gbs, 1);
    report_csv_num(out, r->ridge_intensity, 1);
    report_csv_num(out, r->measured_ridge, 1);
    bw_buf_putc(out, '\n');
}

void report_roofline_csv(const report_roofline_meta *m, const report_roofline_device *devs, size_t n, bw_buf *out)
{
    (void)m;
    bw_buf_puts(out, "device_index,device,kind,k,iterations,tile,n,items,intensity,flop,bytes,time_median_ns,time_count,"
                     "gflops,gbs,attainable_gflops,fraction_of_roof,bound,peak_gflops,peak_gbs,ridge_intensity,"
                     "measured_ridge_intensity\n");
    for (size_t k = 0; k < n; k++) {
        const report_roofline_device *d = &devs[k];
        if (!d->result)
            continue;
        csv_row(out, d, &d->result->peak_fma);
        csv_row(out, d, &d->result->peak_read);
        for (size_t i = 0; i < d->result->npoints; i++)
            csv_row(out, d, &d->result->points[i]);
        for (int t = 0; t < BENCH_ROOFLINE_TILES; t++)
            if (d->result->matmul_measured[t])
                csv_row(out, d, &d->result->matmul[t]);
    }
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

static json_t *device_json(const report_roofline_device *d)
{
    json_t *o = json_object();
    json_t *e = report_roofline_entry_json(d);
    json_object_set_new(o, "device", bench_device_json(d->device, d->is_default));
    json_object_update(o, e);
    json_decref(e);
    return o;
}

json_t *report_roofline_entry_json(const report_roofline_device *d)
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

bw_code report_roofline_json(const report_roofline_meta *m, const report_roofline_device *d, size_t n, bw_buf *out,
                             bw_error *err)
{
    json_t *o = results_json_document(RESULTS_ROOFLINE_SCHEMA, RESULTS_ROOFLINE_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
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
    return results_json_dump(o, out, err);
}
