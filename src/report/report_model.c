/* report_model: `bwlab model` as a table or JSON: the addresses, the
 * warp, the launch's traffic and the roofline, all modeled
 * (report_model.h). */
#include "report_model.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_format.h"

static const char *pct(char *buf, size_t n, double fraction, int valid)
{
    if (!valid || !isfinite(fraction))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.1f%%", fraction * 100.0);
    return buf;
}

/* one labelled row: label, value, then what kind of number it is */
static void row(bw_buf *out, const char *label, const char *value, const char *kind)
{
    bw_buf_printf(out, "  %-26s %14s  %s\n", label, value, kind);
}

static void row_i64(bw_buf *out, const char *label, int64_t v, const char *kind)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    row(out, label, buf, kind);
}

static void table_header(const report_model *m, bw_buf *out)
{
    const model_geometry *g = m->geo;
    if (m->expr_text) {
        bw_buf_printf(out, "address      %s", m->expr_text);
        if (m->pattern_spec)
            bw_buf_printf(out, "   (pattern %s)", m->pattern_spec);
        bw_buf_puts(out, "   [bytes]\n");
    }
    bw_buf_printf(out, "profile      %s: W = %d lanes, sector %lld B, line %lld B, ", m->profile_name,
                  g->lanes, (long long)g->sector, (long long)g->line);
    if (g->banks > 0)
        bw_buf_printf(out, "%d banks x %lld B\n", g->banks, (long long)g->bank_width);
    else
        bw_buf_puts(out, "no banked local memory\n");
    if (m->inferred_source)
        bw_buf_printf(out, "inferred     %s (measured by %s); the rest is the device's profile\n",
                      m->inferred_fields[0] ? m->inferred_fields : "no field", m->inferred_source);
}

static void table_addresses(const report_model *m, bw_buf *out)
{
    const model_warp *c = m->counts;
    bw_buf_puts(out, "addresses    ");
    int shown = 0, skipped = 0;
    for (int t = 0; t < c->lanes; t++) {
        if (!model_lanes_has(m->active, t))
            continue;
        int idx = shown + skipped;
        /* first 8 and last 2 active lanes */
        if (c->active_lanes > 10 && idx >= 8 && idx < c->active_lanes - 2) {
            if (skipped++ == 0)
                bw_buf_puts(out, ", ...");
            continue;
        }
        bw_buf_printf(out, "%st%d=%lld", shown ? ", " : "", t, (long long)m->addr[t]);
        shown++;
    }
    if (!shown)
        bw_buf_puts(out, "(no active lane)");
    bw_buf_putc(out, '\n');
}

static void table_warp(const report_model *m, bw_buf *out)
{
    const model_warp *c = m->counts;
    char mask[MODEL_MAX_LANES / 4 + 8], v[64], k[160];
    model_lanes_format_hex(m->active, mask, (int)sizeof mask);
    bw_buf_printf(out, "instruction  warp %lld, %d of %d lanes active (mask %s), %lld-byte elements, base %+lld B, %s memory\n",
                  (long long)m->warp, c->active_lanes, c->lanes, mask, (long long)c->elem_bytes,
                  (long long)m->base, m->local ? "local" : "global");
    table_addresses(m, out);
    bw_buf_puts(out, "\nOne warp-instruction (modeled: no device involved)\n");
    row_i64(out, "requested bytes", c->requested_bytes, "requested: element x active lanes");
    row_i64(out, "distinct bytes", c->distinct_bytes, "requested: union of the bytes the lanes touch");
    snprintf(k, sizeof k, "modeled: aligned %lld-byte units touched (%lld B)", (long long)c->sector_bytes,
             (long long)(c->sectors * c->sector_bytes));
    row_i64(out, "sectors", c->sectors, k);
    row(out, "sector efficiency", pct(v, sizeof v, c->sector_efficiency, c->has_efficiency),
        "modeled: distinct bytes / sector bytes");
    snprintf(k, sizeof k, "modeled: aligned %lld-byte units touched (%lld B)", (long long)c->line_bytes,
             (long long)(c->lines * c->line_bytes));
    row_i64(out, "lines", c->lines, k);
    row(out, "line efficiency", pct(v, sizeof v, c->line_efficiency, c->has_efficiency),
        "modeled: distinct bytes / line bytes");
    if (c->dram_unit_bytes > 0) {
        snprintf(k, sizeof k, "modeled: aligned %lld-byte DRAM units touched (%lld B)", (long long)c->dram_unit_bytes,
                 (long long)(c->dram_units * c->dram_unit_bytes));
        row_i64(out, "DRAM units", c->dram_units, k);
        row(out, "DRAM unit efficiency", pct(v, sizeof v, c->dram_unit_efficiency, c->has_efficiency),
            "modeled: distinct bytes / DRAM unit bytes");
    }
    if (m->write)
        row_i64(out, "partial sectors", m->warp_partial,
                "modeled, as stores: sectors touched but not written whole (a device may read them first)");
    if (m->bank) {
        const model_bank *b = m->bank;
        if (b->applicable) {
            snprintf(v, sizeof v, "%d-way", b->conflict_ways);
            snprintf(k, sizeof k, "modeled: serialized cycles, %d distinct words, worst bank %d of %d",
                     b->distinct_words, b->worst_bank, b->banks);
            row(out, "bank conflicts", v, k);
        } else {
            row(out, "bank conflicts", "n/a",
                b->banks > 0 ? "no active lane" : "this profile has no banked local memory");
        }
    }
}

static void table_traffic(bw_buf *out, const char *what, const model_traffic *t)
{
    char v[64], k[200];
    bw_buf_printf(out, "  %s: %lld warp-instructions\n", what, (long long)t->instructions);
    row_i64(out, "  requested bytes", t->requested_bytes, "requested");
    snprintf(k, sizeof k, "modeled upper bound: %lld sectors, no reuse between instructions",
             (long long)t->instr_sectors);
    row_i64(out, "  instruction-model bytes", t->instr_sectors * t->sector_bytes, k);
    snprintf(k, sizeof k, "modeled lower bound: %lld distinct sectors, each fetched once",
             (long long)t->footprint_sectors);
    row_i64(out, "  footprint bytes", t->footprint_sectors * t->sector_bytes, k);
    snprintf(k, sizeof k, "modeled: %lld lines summed over instructions, %lld distinct",
             (long long)t->instr_lines, (long long)t->footprint_lines);
    row_i64(out, "  line-model bytes", t->instr_lines * t->line_bytes, k);
    if (t->dram_unit_bytes > 0) {
        snprintf(k, sizeof k, "modeled: %lld DRAM units of %lld B summed over instructions, %lld distinct",
                 (long long)t->instr_dram_units, (long long)t->dram_unit_bytes, (long long)t->footprint_dram_units);
        row_i64(out, "  DRAM footprint bytes", t->footprint_dram_units * t->dram_unit_bytes, k);
    }
    double pe = model_traffic_predicted_efficiency(t);
    row(out, "  predicted efficiency", pct(v, sizeof v, pe, t->instr_sectors > 0),
        "modeled: requested / instruction-model bytes (not a speed prediction)");
}

static void table_launch(const report_model *m, bw_buf *out)
{
    int64_t W = m->geo->lanes;
    bw_buf_printf(out, "\nWhole launch of %lld items = %lld warps (modeled)\n", (long long)m->items,
                  (long long)((m->items + W - 1) / W));
    if (m->unroll > 0)
        bw_buf_printf(out, "  unroll K = %d: %lld work-items issue them, each the items p + j*%lld (j < %d);\n"
                           "  the same warp-instructions at the same addresses, so the same counts for every K\n",
                      m->unroll, (long long)(m->items / m->unroll), (long long)(m->items / m->unroll), m->unroll);
    if (m->write) {
        /* write mode: the pattern's stores, then the coalesced load of src[g] */
        table_traffic(out, "stores (the pattern's addresses)", &m->launch->stores);
        const model_traffic *t = &m->launch->stores;
        if (t->partial_sectors >= 0)
            row_i64(out, "  partial sectors", t->partial_sectors,
                    "modeled: footprint sectors the launch writes only in part");
        else
            row(out, "  partial sectors", "not counted", "the stores are too irregular to mark at this size");
        table_traffic(out, "loads (src[g], coalesced)", &m->launch->loads);
        return;
    }
    table_traffic(out, m->launch_store ? "stores" : "loads",
                  m->launch_store ? &m->launch->stores : &m->launch->loads);
}

static void table_roofline(const model_roofline *r, bw_buf *out)
{
    char v[64], k[160];
    bw_buf_puts(out, "\nRoofline (modeled from the given peaks)\n");
    snprintf(v, sizeof v, "%.6g", r->peak_gflops);
    row(out, "peak compute P", v, "given, GFLOP/s");
    snprintf(v, sizeof v, "%.6g", r->peak_gbs);
    row(out, "peak bandwidth B", v, "given, GB/s");
    snprintf(v, sizeof v, "%.6g", r->ridge_intensity);
    row(out, "ridge intensity I*", v, "modeled: P / B, FLOP/byte");
    snprintf(v, sizeof v, "%.6g", r->intensity);
    if (r->tile)
        snprintf(k, sizeof k, "modeled: tiled float matmul, tile %lld: T/4 FLOP/byte", (long long)r->tile);
    else
        snprintf(k, sizeof k, "given, FLOP/byte");
    row(out, "intensity I", v, k);
    snprintf(v, sizeof v, "%.6g", r->attainable_gflops);
    row(out, "attainable", v, "modeled: min(P, I x B), GFLOP/s");
    row(out, "bound", model_bound_name(r->bound),
        r->bound == MODEL_BOUND_MEMORY    ? "modeled: I < I*"
        : r->bound == MODEL_BOUND_COMPUTE ? "modeled: I > I*"
                                          : "modeled: I = I*");
    if (r->tile) {
        snprintf(v, sizeof v, "%lld", (long long)r->min_tile_compute_bound);
        row(out, "smallest compute-bound tile", v, "modeled: smallest T with T/4 >= I*");
    }
}

void report_model_table(const report_model *m, bw_buf *out)
{
    if (m->counts || m->launch) {
        table_header(m, out);
        if (m->counts)
            table_warp(m, out);
        if (m->launch)
            table_launch(m, out);
    }
    if (m->roof)
        table_roofline(m->roof, out);
}

bw_code report_model_json(const report_model *m, bw_buf *out, bw_error *err)
{
    json_t *o = json_object();
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (m->counts || m->launch) {
        const model_geometry *g = m->geo;
        json_object_set_new(o, "expression", json_string(m->expr_text));
        json_object_set_new(o, "pattern", m->pattern_spec ? json_string(m->pattern_spec) : json_null());
        json_object_set_new(o, "profile", json_string(m->profile_name));
        if (m->inferred_source) {
            json_object_set_new(o, "inferred_fields", results_json_words(m->inferred_fields));
            json_object_set_new(o, "inferred_from", json_string(m->inferred_source));
        }
        json_object_set_new(o, "space", json_string(m->local ? "local" : "global"));
        json_object_set_new(o, "lanes", json_integer(g->lanes));
        json_object_set_new(o, "warp", json_integer(m->warp));
        json_object_set_new(o, "base", json_integer(m->base));
    }
    if (m->counts) {
        const model_warp *c = m->counts;
        char mask[MODEL_MAX_LANES / 4 + 8];
        model_lanes_format_hex(m->active, mask, (int)sizeof mask);
        json_object_set_new(o, "mask", json_string(mask));
        json_object_set_new(o, "active_lanes", json_integer(c->active_lanes));
        json_object_set_new(o, "elem_bytes", json_integer(c->elem_bytes));
        json_object_set_new(o, "requested_bytes", json_integer(c->requested_bytes));
        json_object_set_new(o, "distinct_bytes", json_integer(c->distinct_bytes));
        json_object_set_new(o, "sector_bytes", json_integer(c->sector_bytes));
        json_object_set_new(o, "sectors", json_integer(c->sectors));
        json_object_set_new(o, "sector_efficiency", results_json_real(c->sector_efficiency, c->has_efficiency));
        json_object_set_new(o, "line_bytes", json_integer(c->line_bytes));
        json_object_set_new(o, "lines", json_integer(c->lines));
        json_object_set_new(o, "line_efficiency", results_json_real(c->line_efficiency, c->has_efficiency));
        /* the DRAM unit: null where the profile has none */
        int du = c->dram_unit_bytes > 0;
        json_object_set_new(o, "dram_unit_bytes", du ? json_integer(c->dram_unit_bytes) : json_null());
        json_object_set_new(o, "dram_units", du ? json_integer(c->dram_units) : json_null());
        json_object_set_new(o, "dram_unit_efficiency",
                            results_json_real(c->dram_unit_efficiency, du && c->has_efficiency));
        if (m->write) {
            json_object_set_new(o, "access", json_string("write"));
            json_object_set_new(o, "partial_sectors", json_integer(m->warp_partial));
        }
        json_t *addrs = json_array();
        for (int t = 0; t < c->lanes; t++)
            json_array_append_new(addrs, model_lanes_has(m->active, t) ? json_integer(m->addr[t]) : json_null());
        json_object_set_new(o, "addresses", addrs);
        if (m->bank) {
            const model_bank *b = m->bank;
            json_object_set_new(o, "banks", b->banks > 0 ? json_integer(b->banks) : json_null());
            json_object_set_new(o, "bank_width", b->banks > 0 ? json_integer(b->bank_width) : json_null());
            json_object_set_new(o, "conflict_ways", b->applicable ? json_integer(b->conflict_ways) : json_null());
        }
    }
    if (m->launch) {
        json_t *l = json_object();
        int64_t W = m->geo->lanes;
        json_object_set_new(l, "items", json_integer(m->items));
        json_object_set_new(l, "warps", json_integer((m->items + W - 1) / W));
        if (m->unroll > 0) { /* requested: the counts below are the same for every K */
            json_object_set_new(l, "unroll", json_integer(m->unroll));
            json_object_set_new(l, "work_items", json_integer(m->items / m->unroll));
        }
        json_object_set_new(l, "access", json_string(m->write ? "write" : m->launch_store ? "store" : "load"));
        /* the modeled access's figures at this level too, for scripts (write mode: its stores') */
        const model_traffic *t = m->launch_store || m->write ? &m->launch->stores : &m->launch->loads;
        json_object_set_new(l, "requested_bytes", json_integer(t->requested_bytes));
        json_object_set_new(l, "instruction_model_bytes", json_integer(t->instr_sectors * t->sector_bytes));
        json_object_set_new(l, "footprint_bytes", json_integer(t->footprint_sectors * t->sector_bytes));
        json_object_set_new(l, "predicted_efficiency",
                            results_json_real(model_traffic_predicted_efficiency(t), t->instr_sectors > 0));
        int du = t->dram_unit_bytes > 0;
        json_object_set_new(l, "dram_unit_bytes", du ? json_integer(t->dram_unit_bytes) : json_null());
        json_object_set_new(l, "dram_instruction_model_bytes",
                            du ? json_integer(t->instr_dram_units * t->dram_unit_bytes) : json_null());
        json_object_set_new(l, "dram_footprint_bytes",
                            du ? json_integer(t->footprint_dram_units * t->dram_unit_bytes) : json_null());
        json_object_set_new(l, "loads", results_traffic_json(&m->launch->loads));
        json_object_set_new(l, "stores", results_store_traffic_json(&m->launch->stores));
        json_object_set_new(o, "launch", l);
    }
    if (m->roof) {
        const model_roofline *r = m->roof;
        json_object_set_new(o, "peak_gflops", json_real(r->peak_gflops));
        json_object_set_new(o, "peak_gbs", json_real(r->peak_gbs));
        json_object_set_new(o, "ridge_intensity", json_real(r->ridge_intensity));
        json_object_set_new(o, "intensity", json_real(r->intensity));
        json_object_set_new(o, "attainable_gflops", json_real(r->attainable_gflops));
        json_object_set_new(o, "bound", json_string(model_bound_name(r->bound)));
        if (r->tile) {
            json_object_set_new(o, "tile", json_integer(r->tile));
            json_object_set_new(o, "min_tile_compute_bound", json_integer(r->min_tile_compute_bound));
        }
    }
    return results_json_dump(o, out, err);
}
