/* The run's results as CSV: one header row, a row per pattern
 * (docs/results.md), the columns those of results_csv.h in its order.
 * Formatting only. */
#include "report_results.h"

#include <stdio.h>
#include <string.h>

#include "report_format.h"
#include "report_nominal.h"
#include "report_results_row.h"
#include "results_csv.h"

static void csv_int(bw_buf *out, long long v)
{
    bw_buf_printf(out, ",%lld", v);
}

/* Column c of row w, after its comma (none before the first): the
 * columns are results_csv.h's, in its order. */
static void cell(bw_buf *out, results_csv_column_id c, const report_run *run, const row *w)
{
    const bench_result *r = w->r;
    const model_launch *ml = &w->it->model;
    int64_t S = run->plan->geo.sector;
    switch (c) {
    case RC_DEVICE_INDEX: bw_buf_printf(out, "%zu", run->device->index); break;
    case RC_DEVICE: bw_buf_putc(out, ','); report_csv_field(out, run->device->name); break;
    case RC_PROFILE: bw_buf_putc(out, ','); report_csv_field(out, run->device->profile_name); break;
    case RC_PATTERN: bw_buf_putc(out, ','); report_csv_field(out, w->it->spec); break;
    case RC_FAMILY: bw_buf_putc(out, ','); report_csv_field(out, w->it->family); break;
    case RC_EXPRESSION: bw_buf_putc(out, ','); report_csv_field(out, w->it->expr_text); break;
    case RC_ELEM_BYTES: csv_int(out, (long long)w->it->elem); break;
    case RC_ITEMS: csv_int(out, (long long)w->it->items); break;
    case RC_STATUS: bw_buf_printf(out, ",%s", status_name(r->status)); break;
    case RC_VALIDATION:
        bw_buf_putc(out, ',');
        report_csv_field(out, validated(r) ? "ok" : (r->failure ? r->failure : "?"));
        break;
    case RC_EFFECTIVE_GBS: report_csv_num(out, r->effective_gbs, w->ok); break;
    case RC_RELATIVE_TO_SEQ: report_csv_num(out, r->relative_to_reference, w->ok); break;
    case RC_TIME_MIN_NS: report_csv_num(out, r->event.min, w->ok); break;
    case RC_TIME_MEDIAN_NS: report_csv_num(out, r->event.median, w->ok); break;
    case RC_TIME_MEAN_NS: report_csv_num(out, r->event.mean, w->ok); break;
    case RC_TIME_STDDEV_NS: report_csv_num(out, r->event.stddev, w->ok); break;
    case RC_TIME_COUNT: report_csv_num(out, (double)r->event.count, 1); break;
    case RC_TIME_RSE: report_csv_num(out, r->event.rse, w->ok); break;
    case RC_WALL_MEDIAN_NS: report_csv_num(out, r->wall.median, w->ok); break;
    case RC_SECTOR_EFFICIENCY: report_csv_num(out, w->it->warp0.sector_efficiency, w->it->warp0.has_efficiency); break;
    case RC_LINE_EFFICIENCY: report_csv_num(out, w->it->warp0.line_efficiency, w->it->warp0.has_efficiency); break;
    case RC_REQUESTED_LOAD_BYTES: csv_int(out, (long long)ml->loads.requested_bytes); break;
    case RC_REQUESTED_STORE_BYTES: csv_int(out, (long long)ml->stores.requested_bytes); break;
    case RC_INSTRUCTION_MODEL_LOAD_BYTES: csv_int(out, (long long)(ml->loads.instr_sectors * S)); break;
    case RC_FOOTPRINT_LOAD_BYTES: csv_int(out, (long long)(ml->loads.footprint_sectors * S)); break;
    case RC_INSTRUCTION_MODEL_STORE_BYTES: csv_int(out, (long long)(ml->stores.instr_sectors * S)); break;
    case RC_FOOTPRINT_STORE_BYTES: csv_int(out, (long long)(ml->stores.footprint_sectors * S)); break;
    case RC_PREDICTED_EFFICIENCY:
        report_csv_num(out, model_traffic_predicted_efficiency(&ml->loads), ml->loads.instr_sectors > 0);
        break;
    case RC_IMPLIED_TRAFFIC_BYTES: report_csv_num(out, r->verdict.implied_bytes, w->ok); break;
    case RC_VERDICT: bw_buf_printf(out, ",%s", bench_verdict_name(r->verdict.code)); break;
    case RC_VERDICT_POSITION: report_csv_num(out, r->verdict.position, w->ok); break;
    case RC_SIZE_NOTE:
        bw_buf_putc(out, ',');
        if (w->it->size_note)
            report_csv_field(out, w->it->size_note);
        break;
    case RC_INDEX_BITS: csv_int(out, w->it->index_bits); break;
    case RC_PLAUSIBILITY: {
        char words[RESULTS_PLAUSIBILITY_MAX];
        double gbs;
        const char *p = row_plausibility(run, (size_t)(w->it - run->plan->items), &gbs, words, sizeof words);
        bw_buf_putc(out, ',');
        if (p)
            report_csv_field(out, p);
        break;
    }
    case RC_UNROLL:
        bw_buf_putc(out, ',');
        if (w->it->fam->unrolls)
            bw_buf_printf(out, "%d", bench_item_unroll(w->it));
        break;
    case RC_SUB_GROUP_SIZE:
        bw_buf_putc(out, ',');
        if (r->sub_group_size)
            bw_buf_printf(out, "%zu", r->sub_group_size);
        break;
    case RC_ACCESS: bw_buf_printf(out, ",%s", bench_access_name(w->it->access)); break;
    case RC_FRACTION_OF_PEAK: report_csv_num(out, fraction_of_peak(run, w), 1); break;
    case RC_BEST_GBS: report_csv_num(out, r->best_gbs, w->ok && r->best_gbs > 0); break;
    case RC_TWIN_TIME_NS: report_csv_num(out, r->twin_ns, w->ok && r->twin_ns > 0); break;
    case RC_TWIN_ITEMS:
        bw_buf_putc(out, ',');
        if (r->twin_items > 0)
            bw_buf_printf(out, "%lld", (long long)r->twin_items);
        break;
    case RC_TWIN_RATIO: report_csv_num(out, r->twin_ratio, w->ok); break;
    case RC_BOUND: {
        const char *bound = bench_bound_name(r->bound);
        bw_buf_printf(out, ",%s", w->ok && bound ? bound : "");
        break;
    }
    case RC_STABLE: bw_buf_printf(out, ",%s", w->ok ? (r->stable ? "yes" : "no") : ""); break;
    case RC_SPREAD: report_csv_num(out, r->spread, w->ok); break;
    case RC_RELATIVE_SPREAD: report_csv_num(out, r->relative_spread, w->ok); break;
    case RC_KERNEL_FORM: bw_buf_printf(out, ",%s", bench_form_name(r->form)); break;
    case RC_COUNT: break;
    }
}

void report_results_csv(const report_meta *m, const report_run *runs, size_t n, bw_buf *out)
{
    (void)m;
    results_csv_header(out);
    for (size_t k = 0; k < n; k++) {
        const report_run *run = &runs[k];
        if (!run->plan)
            continue;
        for (size_t i = 0; i < run->plan->n; i++) {
            row w = row_of(run, i);
            for (size_t c = 0; c < RC_COUNT; c++)
                cell(out, (results_csv_column_id)c, run, &w);
            bw_buf_putc(out, '\n');
        }
    }
}
