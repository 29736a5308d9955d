/* The run's results as CSV: one header row, a row per pattern
 * (docs/results.md). Formatting only. */
#include "report_results.h"

#include <stdio.h>

#include "report_format.h"
#include "report_results_row.h"

static void csv_int(bw_buf *out, long long v)
{
    bw_buf_printf(out, ",%lld", v);
}

/* the columns appended for the twin and for timing: best_gbs ... relative_spread */
static void twin_csv(bw_buf *out, const row *w)
{
    const bench_result *r = w->r;
    const char *bound = bench_bound_name(r->bound);
    report_csv_num(out, r->best_gbs, w->ok && r->best_gbs > 0);
    report_csv_num(out, r->twin_ns, w->ok && r->twin_ns > 0);
    bw_buf_putc(out, ',');
    if (r->twin_items > 0)
        bw_buf_printf(out, "%lld", (long long)r->twin_items);
    report_csv_num(out, r->twin_ratio, w->ok);
    bw_buf_printf(out, ",%s,%s", w->ok && bound ? bound : "", w->ok ? (r->stable ? "yes" : "no") : "");
    report_csv_num(out, r->spread, w->ok);
    report_csv_num(out, r->relative_spread, w->ok);
}

void report_results_csv(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    (void)m;
    bw_buf_puts(out, "device_index,device,profile,pattern,family,expression,elem_bytes,items,status,validation,"
                     "effective_gbs,relative_to_seq,time_min_ns,time_median_ns,time_mean_ns,time_stddev_ns,"
                     "time_count,time_rse,wall_median_ns,sector_efficiency,line_efficiency,"
                     "requested_load_bytes,requested_store_bytes,instruction_model_load_bytes,"
                     "footprint_load_bytes,instruction_model_store_bytes,footprint_store_bytes,"
                     "predicted_efficiency,implied_traffic_bytes,verdict,verdict_position,size_note,index_bits,"
                     "sub_group_size,access,fraction_of_peak");
    bw_buf_puts(out, ",best_gbs,twin_time_ns,twin_items,twin_ratio,bound,stable,spread,relative_spread,kernel_form\n");
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        if (!run->plan)
            continue;
        int64_t S = run->plan->geo.sector;
        for (size_t i = 0; i < run->plan->n; i++) {
            row w = row_of(run, i);
            const model_launch *ml = &w.it->model;
            bw_buf_printf(out, "%zu,", run->device->index);
            report_csv_field(out, run->device->name);
            bw_buf_putc(out, ',');
            report_csv_field(out, run->device->profile_name);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->spec);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->family);
            bw_buf_putc(out, ',');
            report_csv_field(out, w.it->expr_text);
            csv_int(out, (long long)w.it->elem);
            csv_int(out, (long long)w.it->items);
            bw_buf_printf(out, ",%s,", status_name(w.r->status));
            report_csv_field(out, validated(w.r) ? "ok" : (w.r->failure ? w.r->failure : "?"));
            report_csv_num(out, w.r->effective_gbs, w.ok);
            report_csv_num(out, w.r->relative_to_reference, w.ok);
            report_csv_num(out, w.r->event.min, w.ok);
            report_csv_num(out, w.r->event.median, w.ok);
            report_csv_num(out, w.r->event.mean, w.ok);
            report_csv_num(out, w.r->event.stddev, w.ok);
            report_csv_num(out, (double)w.r->event.count, 1);
            report_csv_num(out, w.r->event.rse, w.ok);
            report_csv_num(out, w.r->wall.median, w.ok);
            report_csv_num(out, w.it->warp0.sector_efficiency, w.it->warp0.has_efficiency);
            report_csv_num(out, w.it->warp0.line_efficiency, w.it->warp0.has_efficiency);
            csv_int(out, (long long)ml->loads.requested_bytes);
            csv_int(out, (long long)ml->stores.requested_bytes);
            csv_int(out, (long long)(ml->loads.instr_sectors * S));
            csv_int(out, (long long)(ml->loads.footprint_sectors * S));
            csv_int(out, (long long)(ml->stores.instr_sectors * S));
            csv_int(out, (long long)(ml->stores.footprint_sectors * S));
            report_csv_num(out, model_traffic_predicted_efficiency(&ml->loads), ml->loads.instr_sectors > 0);
            report_csv_num(out, w.r->verdict.implied_bytes, w.ok);
            bw_buf_printf(out, ",%s", bench_verdict_name(w.r->verdict.code));
            report_csv_num(out, w.r->verdict.position, w.ok);
            bw_buf_putc(out, ',');
            if (w.it->size_note)
                report_csv_field(out, w.it->size_note);
            csv_int(out, w.it->index_bits);
            bw_buf_putc(out, ',');
            if (w.r->sub_group_size)
                bw_buf_printf(out, "%zu", w.r->sub_group_size);
            bw_buf_printf(out, ",%s", bench_access_name(w.it->access));
            report_csv_num(out, fraction_of_peak(run, &w), 1);
            twin_csv(out, &w);
            bw_buf_printf(out, ",%s", bench_form_name(w.r->form));
            bw_buf_putc(out, '\n');
        }
    }
}
