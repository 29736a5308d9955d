/* report_probe: `bwlab probe`'s results as a table, Markdown, CSV or
 * JSON, and the sentences that set its inferred unit and cache levels
 * beside the profile's and the device's (report_probe.h). */
#include "report_probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_devices.h"
#include "report_format.h"
#include "report_nominal.h"
#include "results_probe_fields.h"

static const char *dir_name(const bench_probe_transfer *t)
{
    return t->to_device ? "h2d" : "d2h";
}

static const char *mem_name(const bench_probe_transfer *t)
{
    return t->pinned ? "pinned" : "pageable";
}

void report_probe_agreement(bw_buf *out, const bench_probe_result *r, const model_geometry *g)
{
    int64_t u = r->inferred_unit;
    if (!u) {
        bw_buf_printf(out, "nothing to compare with the profile's sector (%lld B) and line (%lld B): %s",
                      (long long)g->sector, (long long)g->line, r->unit_why);
        return;
    }
    if (u == g->sector && u == g->line)
        bw_buf_printf(out, "agrees with the profile's sector and line (%lld B)", (long long)u);
    else if (u == g->sector)
        bw_buf_printf(out, "agrees with the profile's sector (%lld B; its line is %lld B)", (long long)u,
                      (long long)g->line);
    else if (u == g->line)
        bw_buf_printf(out, "agrees with the profile's line (%lld B), not its sector (%lld B)", (long long)u,
                      (long long)g->sector);
    else
        bw_buf_printf(out, "disagrees with the profile: measured %lld B, the profile's sector is %lld B and its line "
                           "%lld B",
                      (long long)u, (long long)g->sector, (long long)g->line);
}

/* a size rounded for a sentence: "45 MiB", "1.4 MiB", "724 KiB" */
static void about_bytes(bw_buf *out, uint64_t b)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (v >= 10 || v == floor(v))
        bw_buf_printf(out, "%.0f %s", v, unit[u]);
    else
        bw_buf_printf(out, "%.1f %s", v, unit[u]);
}

/* who places a knee: dependent loads when the latency ladder's bend
 * does (levels read back from a file without it: when that ladder shows it) */
static const char *knee_by(const bench_probe_level *l)
{
    return (l->placed ? l->placed : l->seen) & MODEL_FIT_SEEN_B ? "dependent loads" : "reads";
}

static const char *seen_name(int seen)
{
    if (seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B))
        return "both";
    return seen & MODEL_FIT_SEEN_B ? "latency" : seen & MODEL_FIT_SEEN_A ? "bandwidth" : "none";
}

void report_probe_level_agreement(bw_buf *out, const bench_probe_result *r, size_t k)
{
    const bench_probe_level *l = &r->levels[k];
    if (l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches) {
        const bench_host_cache *h = &r->host_caches[l->host_match];
        if (model_fit_size_agrees(h->size_bytes, l->size_bytes, l->next_bytes)) {
            bw_buf_printf(out, "agrees with the host's L%d (", h->level);
            about_bytes(out, h->size_bytes);
            bw_buf_putc(out, ')');
        } else {
            bw_buf_printf(out, "the host reports L%d ", h->level);
            about_bytes(out, h->size_bytes);
            bw_buf_printf(out, "; %s leave this level at about ", knee_by(l));
            about_bytes(out, l->size_bytes);
        }
        return;
    }
    if (!r->n_host_caches) {
        bw_buf_puts(out, "no host caches to compare with (the host's are read for a CPU device only)");
        return;
    }
    bw_buf_puts(out, "matches no cache the host reports (");
    for (size_t i = 0; i < r->n_host_caches; i++) {
        bw_buf_printf(out, "%sL%d ", i ? ", " : "", r->host_caches[i].level);
        about_bytes(out, r->host_caches[i].size_bytes);
    }
    bw_buf_printf(out, "): a step of the %s ladder%s", l->seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B) ? "read and latency" :
                                                          l->seen & MODEL_FIT_SEEN_B ? "latency" : "read",
                  l->seen == (MODEL_FIT_SEEN_A | MODEL_FIT_SEEN_B) ? "s" : "");
}

void report_probe_device_cache_agreement(bw_buf *out, const bench_probe_result *r)
{
    uint64_t d = r->device_cache_bytes;
    if (!d) {
        bw_buf_puts(out, "the device reports no global cache size (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE is 0)");
        return;
    }
    if (!r->n_levels) {
        bw_buf_puts(out, "the device reports ");
        about_bytes(out, d);
        bw_buf_puts(out, r->interrupted && !r->have_memory ? "; the ladder was interrupted before any level was derived"
                                                           : "; the ladders show no knee");
        return;
    }
    for (size_t k = 0; k < r->n_levels; k++)
        if (model_fit_size_agrees(d, r->levels[k].size_bytes, r->levels[k].next_bytes)) {
            bw_buf_puts(out, "the device's ");
            about_bytes(out, d);
            bw_buf_printf(out, " agrees with L%zu (its plateau ends at ", k + 1);
            about_bytes(out, r->levels[k].size_bytes);
            bw_buf_putc(out, ')');
            return;
        }
    const bench_probe_level *l = &r->levels[r->n_levels - 1];
    bw_buf_puts(out, "the device reports ");
    about_bytes(out, d);
    const bench_host_cache *h =
        l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches ? &r->host_caches[l->host_match] : NULL;
    if (h && h->size_bytes && d > 2 * h->size_bytes && (size_t)l->host_match + 1 < r->n_host_caches) {
        /* the last level is a smaller cache's: no knee was found for this one */
        bw_buf_printf(out, "; no level past L%zu (", r->n_levels);
        about_bytes(out, l->size_bytes);
        bw_buf_printf(out, ", the host's L%d) stands: the ladders reach memory without another knee", h->level);
        return;
    }
    bw_buf_printf(out, "; %s leave the cache at about ", knee_by(l));
    about_bytes(out, l->size_bytes);
}

/* the best candidate's index by summed rel (the inferred one when there is one) */
static size_t best_candidate(const bench_probe_result *r)
{
    size_t b = 0;
    for (size_t k = 1; k < BENCH_PROBE_UNITS; k++)
        if (r->stride_fit[k].rel + r->offset_fit[k].rel < r->stride_fit[b].rel + r->offset_fit[b].rel)
            b = k;
    return b;
}

void report_probe_transfers_table(const bench_probe_result *r, bw_buf *out)
{
    bw_buf_puts(out, "\nhost<->device transfers (measured, wall clock per copy, median)\n");
    bw_buf_puts(out, "  dir  memory    mode          size       GB/s      us\n");
    for (size_t i = 0; i < r->n_transfers; i++) {
        const bench_probe_transfer *t = &r->transfers[i];
        bw_buf s = BW_BUF_INIT;
        report_bytes(&s, (double)t->bytes);
        bw_buf_printf(out, "  %s  %-8s  %-12s  %-9s %7.2f  %8.1f\n", dir_name(t), mem_name(t),
                      t->blocking ? "blocking" : "non-blocking", bw_buf_str(&s), t->gbs, t->us);
        bw_buf_free(&s);
    }
    if (!r->n_transfers)
        bw_buf_puts(out, "  small-transfer latency: not measured (interrupted before the first copy)\n");
    else
        bw_buf_printf(out,
                      "  small-transfer latency (measured): %.1f us for %llu B, host to device, pageable, blocking\n",
                      r->small_transfer_us, (unsigned long long)r->small_transfer_bytes);
    if (r->transfers_note[0])
        bw_buf_printf(out, "  %s\n", r->transfers_note);
    if (r->n_maps) {
        bw_buf_puts(out, "\nmaps of a CL_MEM_ALLOC_HOST_PTR buffer (measured, wall clock per map and unmap, median)\n");
        bw_buf_puts(out, "  dir  size        GB/s          us    copy us\n");
        for (size_t i = 0; i < r->n_maps; i++) {
            const bench_probe_map *m = &r->maps[i];
            bw_buf s = BW_BUF_INIT;
            report_bytes(&s, (double)m->bytes);
            char gbs[32];
            if (m->gbs > 0)
                snprintf(gbs, sizeof gbs, "%9.2f", m->gbs);
            else
                snprintf(gbs, sizeof gbs, "%9s", m->zero_copy ? "zero-copy" : "no copy");
            bw_buf_printf(out, "  %s  %-10s %s  %9.1f  %9.1f\n", m->to_device ? "h2d" : "d2h", bw_buf_str(&s), gbs,
                          m->us, m->copy_us);
            bw_buf_free(&s);
        }
        for (int dir = 1; dir >= 0; dir--)
            if (r->map_note[dir][0])
                bw_buf_printf(out, "  %s\n", r->map_note[dir]);
    }
    if (!r->launches) {
        bw_buf_puts(out, "launch latency: not measured (interrupted before it was)\n");
        return;
    }
    if (r->launch_timer_wall)
        bw_buf_printf(out,
                      "launch latency (measured, empty kernel, median of %u): %.1f us host clock enqueue to clFinish; "
                      "events: none (%s)\n",
                      r->launches, r->launch_wall_us, r->launch_note);
    else
        bw_buf_printf(out,
                      "launch latency (measured, empty kernel, median of %u): %.1f us wall clock enqueue to end; "
                      "events: %.1f us queued to start, %.1f us queued to end\n",
                      r->launches, r->launch_wall_us, r->launch_start_us, r->launch_end_us);
}

/* the cache and latency ladders, the levels found in them, and how they
 * agree with what the device and the host report */
static void ladder_lines(const bench_probe_result *r, bw_buf *out)
{
    bw_buf_puts(out, "\ncache ladder and latency ladder (measured; read GB/s by ");
    bw_buf_puts(out, r->is_cpu ? "one work-item per compute unit, each over the whole set" : "the whole device");
    bw_buf_puts(out, "; latency: ns per dependent load, one random chase / one per compute unit");
    bw_buf_puts(out, r->page_levels ? "; levels from the page-local chase)\n" : ")\n");
    bw_buf_puts(out, "  level    size (knee)     read GB/s   latency ns   latency ns (per CU)   knee seen in\n");
    for (size_t i = 0; i <= r->n_levels && (i < r->n_levels || r->have_memory); i++) {
        const bench_probe_level *l = &r->levels[i];
        char name[16];
        if (i < r->n_levels)
            snprintf(name, sizeof name, "L%zu", i + 1);
        else
            snprintf(name, sizeof name, "memory");
        bw_buf_printf(out, "  %-8s ", name);
        bw_buf *b = out;
        if (i < r->n_levels) {
            bw_buf t = BW_BUF_INIT;
            report_bytes(&t, (double)l->size_bytes);
            bw_buf_printf(b, "%-15s", bw_buf_str(&t));
            bw_buf_free(&t);
        } else {
            bw_buf_printf(b, "%-15s", "beyond");
        }
        bw_buf_printf(b, " %9.1f   %10.2f   %10.2f", l->read_gbs, l->latency_ns, l->latency_cu_ns);
        if (i < r->n_levels)
            bw_buf_printf(b, "            %s", seen_name(l->seen));
        bw_buf_putc(b, '\n');
    }
    for (size_t i = 0; i < r->n_tlb; i++) {
        const bench_probe_tlb *t = &r->tlb[i];
        bw_buf_puts(out, "  TLB reach at about ");
        report_bytes(out, (double)t->size_bytes);
        bw_buf_printf(out, ": the random chase climbs %.2fx there (%.2f to %.2f ns), the page-local chase does not\n",
                      t->step, t->below_ns, t->above_ns);
    }
    if (r->page_levels && r->n_tlb == 0)
        bw_buf_puts(out, "  no TLB reach: every knee of the random chase is one of the page-local chase's\n");
    if (r->interrupted && !r->have_memory)
        bw_buf_printf(out, "  interrupted (in its %s): no levels are derived from a partial ladder\n",
                      r->interrupted_in);
    else if (r->n_levels == 0)
        bw_buf_puts(out, "  no knee found: the ladder shows one plateau\n");
    for (size_t i = 0; i < r->n_levels; i++) {
        bw_buf_printf(out, "  L%zu: ", i + 1);
        report_probe_level_agreement(out, r, i);
        bw_buf_putc(out, '\n');
    }
    bw_buf_puts(out, "  device reports CL_DEVICE_GLOBAL_MEM_CACHE_SIZE ");
    report_bytes(out, (double)r->device_cache_bytes);
    bw_buf_puts(out, ": ");
    report_probe_device_cache_agreement(out, r);
    bw_buf_putc(out, '\n');
    if (r->n_host_caches) {
        bw_buf_puts(out, "  host sysfs caches:");
        for (size_t i = 0; i < r->n_host_caches; i++) {
            bw_buf_printf(out, "%s L%d ", i ? "," : "", r->host_caches[i].level);
            report_bytes(out, (double)r->host_caches[i].size_bytes);
        }
        bw_buf_putc(out, '\n');
    }
    bw_buf_printf(out, "  chase validation: %s: %s\n", r->chase_valid ? "passed" : "FAILED", r->chase_note);
    bw_buf_puts(out, "  size        read GB/s   latency ns   per CU ns   page-local ns\n");
    for (size_t i = 0; i < r->n_points; i++) {
        const bench_probe_point *p = &r->points[i];
        bw_buf t = BW_BUF_INIT;
        report_bytes(&t, (double)p->bytes);
        bw_buf_printf(out, "  %-11s %9.1f   %10.2f   %9.2f", bw_buf_str(&t), p->read_gbs, p->latency_ns,
                      p->latency_cu_ns);
        if (p->latency_page_ns > 0)
            bw_buf_printf(out, "   %13.2f", p->latency_page_ns);
        bw_buf_putc(out, '\n');
        bw_buf_free(&t);
    }
}

/* the transaction granularity: the stride and offset sweeps and the fits
 * of each candidate unit (g: the profile's) */
static void granularity_lines(const bench_probe_result *r, const model_geometry *g, bw_buf *out)
{
    bw_buf_puts(out, "\ntransaction granularity (measured on a ");
    report_bytes(out, (double)r->gran_bytes);
    bw_buf_printf(out, " working set)\n  inferred unit: ");
    if (r->inferred_unit)
        bw_buf_printf(out, "%lld B; ", (long long)r->inferred_unit);
    else
        bw_buf_puts(out, "none; ");
    report_probe_agreement(out, r, g);
    bw_buf_puts(out, "\n  stride B   ns/element (measured)\n");
    for (size_t i = 0; i < r->n_strides; i++)
        bw_buf_printf(out, "  %8.0f   %10.3f\n", r->stride_x[i], r->stride_ns[i]);
    bw_buf_printf(out, "  offset sweep (%d B per work-item): ns/block (measured) at offsets 0..%.0f B:\n   ",
                  BENCH_PROBE_BLOCK, r->offset_x[r->n_offsets - 1]);
    for (size_t i = 0; i < r->n_offsets; i++)
        bw_buf_printf(out, " %.2f", r->offset_ns[i]);
    if (r->pair_ns[0] > 0) {
        bw_buf_printf(out, "\n  sector pairs (measured, ns/element): adjacent 32-byte sectors %.3f, sectors in different "
                           "64-byte halves %.3f, a 128-byte block each %.3f; split / adjacent %.2f: ",
                      r->pair_ns[0], r->pair_ns[1], r->pair_ns[2], r->pair_ratio);
        if (r->pair_unit == 64)
            bw_buf_puts(out, "64-byte units (the split pair costs about twice the adjacent one)");
        else if (r->pair_unit == 32)
            bw_buf_puts(out, "32-byte units (the two pairs cost the same)");
        else
            bw_buf_printf(out, "no unit: %s", r->pair_why);
    }
    bw_buf_puts(out, "\n  candidate unit   stride fit: residual, unexplained   offset fit: residual, unexplained "
                     "(modeled curves fitted to the measured ones)\n");
    size_t b = best_candidate(r);
    for (size_t k = 0; k < BENCH_PROBE_UNITS; k++)
        bw_buf_printf(out, "  %10lld B     %8.1f%%  %8.0f%%              %8.1f%%  %8.0f%%%s\n",
                      (long long)r->units[k], 100 * r->stride_fit[k].rms_rel, 100 * r->stride_fit[k].rel,
                      100 * r->offset_fit[k].rms_rel, 100 * r->offset_fit[k].rel, k == b ? "   <- best" : "");
}

/* the warp width and the banks inferred, against the profile's g */
static void warp_lines(const bench_probe_result *r, const model_geometry *g, bw_buf *out)
{
    if (r->n_points && !r->lanes_why[0])
        bw_buf_puts(out, "\nwarp width and banks: not measured (interrupted before them)\n");
    else if (r->n_points) {
        bw_buf_printf(out, "\nwarp width: ");
        if (r->inferred_lanes)
            bw_buf_printf(out, "%lld lanes (measured; the profile's W is %d): %s\n", (long long)r->inferred_lanes,
                          g->lanes, r->lanes_why);
        else
            bw_buf_printf(out, "not inferred (the profile's W is %d): %s\n", g->lanes, r->lanes_why);
        bw_buf_printf(out, "banks: ");
        if (r->inferred_banks)
            bw_buf_printf(out, "%d (measured; the profile's is %d): %s\n", r->inferred_banks, g->banks,
                          r->banks_why);
        else
            bw_buf_printf(out, "not inferred: %s\n", r->banks_why);
    }
}

static void table_device(const report_probe_device *dv, bw_buf *out)
{
    const bench_device *d = dv->device;
    const bench_probe_result *r = dv->result;
    report_device_line(out, "", d, dv->is_default);
    if (!r) {
        bw_buf_printf(out, "  probe failed: %s\n", dv->failure ? dv->failure : "unknown");
        return;
    }
    bw_buf_printf(out, "  probe: %s, %.1f s (measured wall clock)%s%s%s\n", r->quick ? "quick" : "full", r->seconds,
                  r->interrupted ? "; INTERRUPTED in its " : "", r->interrupted ? r->interrupted_in : "",
                  r->interrupted ? ": what was measured before it" : "");
    if (r->n_points)
        ladder_lines(r, out);
    char words[RESULTS_PLAUSIBILITY_MAX];
    if (r->have_memory &&
        results_nominal_plausibility(r->levels[r->n_levels].read_gbs, dv->nominal_gbs, words, sizeof words))
        bw_buf_printf(out, "  plausibility: the memory plateau's %.1f GB/s (measured) is %s\n",
                      r->levels[r->n_levels].read_gbs, words);
    if (r->n_strides)
        granularity_lines(r, &d->geo, out);
    warp_lines(r, &d->geo, out);
    report_probe_transfers_table(r, out);
    if (dv->cache_note)
        bw_buf_printf(out, "probe cache: %s\n", dv->cache_note);
}

void report_probe_table(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out)
{
    (void)m;
    for (size_t k = 0; k < n; k++) {
        if (k)
            bw_buf_putc(out, '\n');
        table_device(&d[k], out);
    }
}

void report_probe_md(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out)
{
    (void)m;
    for (size_t k = 0; k < n; k++) {
        const bench_probe_result *r = d[k].result;
        bw_buf_printf(out, "%s## device %zu: %s\n\n", k ? "\n" : "", d[k].device->index, d[k].device->name);
        if (!r) {
            bw_buf_printf(out, "probe failed: %s\n", d[k].failure ? d[k].failure : "unknown");
            continue;
        }
        bw_buf_puts(out, "| level | size (knee) | read GB/s (measured) | latency ns (measured) |\n|---|---|---|---|\n");
        for (size_t i = 0; i < r->n_levels + (size_t)r->have_memory; i++) {
            const bench_probe_level *l = &r->levels[i];
            if (i < r->n_levels)
                bw_buf_printf(out, "| L%zu | %llu B | %.1f | %.2f |\n", i + 1, (unsigned long long)l->size_bytes,
                              l->read_gbs, l->latency_ns);
            else
                bw_buf_printf(out, "| memory | beyond | %.1f | %.2f |\n", l->read_gbs, l->latency_ns);
        }
        bw_buf_puts(out, "\n**Transaction unit (measured):** ");
        if (r->inferred_unit)
            bw_buf_printf(out, "%lld B; ", (long long)r->inferred_unit);
        else
            bw_buf_puts(out, "none; ");
        report_probe_agreement(out, r, &d[k].device->geo);
        bw_buf_puts(out, "\n\n| direction | memory | mode | bytes | GB/s (measured) | us (measured) |\n"
                         "|---|---|---|---|---|---|\n");
        for (size_t i = 0; i < r->n_transfers; i++) {
            const bench_probe_transfer *t = &r->transfers[i];
            bw_buf_printf(out, "| %s | %s | %s | %llu | %.2f | %.1f |\n", dir_name(t), mem_name(t),
                          t->blocking ? "blocking" : "non-blocking", (unsigned long long)t->bytes, t->gbs, t->us);
        }
        if (r->n_maps) {
            bw_buf_puts(out, "\n| direction | bytes | map GB/s (measured) | us (measured) | copy us (measured) |\n"
                             "|---|---|---|---|---|\n");
            for (size_t i = 0; i < r->n_maps; i++) {
                const bench_probe_map *x = &r->maps[i];
                bw_buf_printf(out, "| %s | %llu | ", x->to_device ? "h2d" : "d2h", (unsigned long long)x->bytes);
                if (x->gbs > 0)
                    bw_buf_printf(out, "%.2f", x->gbs);
                else
                    bw_buf_puts(out, x->zero_copy ? "zero-copy" : "no copy");
                bw_buf_printf(out, " | %.1f | %.1f |\n", x->us, x->copy_us);
            }
            for (int dir = 1; dir >= 0; dir--)
                if (r->map_note[dir][0])
                    bw_buf_printf(out, "\n%s\n", r->map_note[dir]);
        }
        bw_buf_printf(out, "\n**Launch latency (measured, %s):** %.1f us\n",
                      r->launch_timer_wall ? "host clock" : "wall clock", r->launch_wall_us);
    }
}

void report_probe_csv(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out)
{
    (void)m;
    bw_buf_puts(out, "device_index,device,section,x,x_unit,value,value_unit,kind\n");
    for (size_t k = 0; k < n; k++) {
        const bench_probe_result *r = d[k].result;
        if (!r)
            continue;
#define ROW(sec, x, xu, v, vu, kind)                                                                             \
    do {                                                                                                         \
        bw_buf_printf(out, "%zu,", d[k].device->index);                                                          \
        report_csv_field(out, d[k].device->name);                                                                \
        bw_buf_printf(out, ",%s,%.17g,%s,%.6g,%s,%s\n", sec, (double)(x), xu, (double)(v), vu, kind);            \
    } while (0)
        for (size_t i = 0; i < r->n_points; i++) {
            ROW("read", r->points[i].bytes, "bytes", r->points[i].read_gbs, "GB/s", "measured");
            ROW("latency", r->points[i].bytes, "bytes", r->points[i].latency_ns, "ns", "measured");
            ROW("latency_per_cu", r->points[i].bytes, "bytes", r->points[i].latency_cu_ns, "ns", "measured");
        }
        for (size_t i = 0; i < r->n_strides; i++)
            ROW("stride", r->stride_x[i], "bytes", r->stride_ns[i], "ns/element", "measured");
        for (size_t i = 0; i < r->n_offsets; i++)
            ROW("offset", r->offset_x[i], "bytes", r->offset_ns[i], "ns/block", "measured");
        for (size_t i = 0; i < r->n_transfers; i++) {
            char sec[64];
            const bench_probe_transfer *t = &r->transfers[i];
            snprintf(sec, sizeof sec, "transfer_%s_%s_%s", dir_name(t), mem_name(t),
                     t->blocking ? "blocking" : "nonblocking");
            ROW(sec, t->bytes, "bytes", t->gbs, "GB/s", "measured");
        }
        for (size_t i = 0; i < r->n_maps; i++)
            ROW(r->maps[i].to_device ? "map_h2d" : "map_d2h", r->maps[i].bytes, "bytes", r->maps[i].us, "us",
                "measured");
        ROW("launch_latency", 0, "-", r->launch_wall_us, "us", "measured");
#undef ROW
    }
}

json_t *report_probe_transfers_json(const bench_probe_result *r)
{
    json_t *o = json_object();
    json_t *a = json_array();
    for (size_t i = 0; i < r->n_transfers; i++) {
        const bench_probe_transfer *t = &r->transfers[i];
        json_t *x = json_object();
        json_object_set_new(x, RP_KEY(RP_DIRECTION), json_string(dir_name(t)));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_MEMORY), json_string(mem_name(t)));
        json_object_set_new(x, RP_KEY(RP_BLOCKING), json_boolean(t->blocking));
        json_object_set_new(x, RP_KEY(RP_BYTES), json_integer((json_int_t)t->bytes));
        json_object_set_new(x, RP_KEY(RP_GBS), results_json_real(t->gbs, 1));
        json_object_set_new(x, RP_KEY(RP_US), results_json_real(t->us, 1));
        json_array_append_new(a, x);
    }
    json_object_set_new(o, RP_KEY(RP_TRANSFERS), a);
    json_object_set_new(o, "transfers_note", r->transfers_note[0] ? json_string(r->transfers_note) : json_null());
    json_object_set_new(o, RP_KEY(RP_SMALL_TRANSFER_LATENCY_US), results_json_real(r->small_transfer_us, r->n_transfers > 0));
    json_object_set_new(o, RP_KEY(RP_SMALL_TRANSFER_BYTES), json_integer((json_int_t)r->small_transfer_bytes));
    json_object_set_new(o, RP_KEY(RP_LAUNCH_LATENCY_US), results_json_real(r->launch_wall_us, r->launches > 0));
    json_t *l = json_object();
    json_object_set_new(l, "launches", json_integer(r->launches));
    json_object_set_new(l, "wall_us", results_json_real(r->launch_wall_us, r->launches > 0));
    json_object_set_new(l, "timer", json_string(r->launch_timer_wall ? "wall" : "event"));
    json_object_set_new(l, "queued_to_start_us",
                        results_json_real(r->launch_start_us, r->launches > 0 && !r->launch_timer_wall));
    json_object_set_new(l, "queued_to_end_us", results_json_real(r->launch_end_us, r->launches > 0));
    json_object_set_new(l, "note", r->launch_note[0] ? json_string(r->launch_note) : json_null());
    json_object_set_new(o, "launch", l);
    json_t *ma = json_array();
    for (size_t i = 0; i < r->n_maps; i++) {
        const bench_probe_map *m = &r->maps[i];
        const bench_probe_map_verdict *v = &r->map_verdict[m->to_device];
        json_t *x = json_object();
        json_object_set_new(x, RP_KEY(RP_DIRECTION), json_string(m->to_device ? "h2d" : "d2h"));
        json_object_set_new(x, RP_KEY(RP_TRANSFER_MEMORY), json_string("alloc_host_ptr"));
        json_object_set_new(x, RP_KEY(RP_BYTES), json_integer((json_int_t)m->bytes));
        json_object_set_new(x, RP_KEY(RP_US), results_json_real(m->us, 1));
        json_object_set_new(x, "copy_us", results_json_real(m->copy_us, m->copy_us > 0));
        json_object_set_new(x, RP_KEY(RP_GBS), results_json_real(m->gbs, m->gbs > 0));
        json_object_set_new(x, "zero_copy", json_boolean(m->zero_copy));
        json_object_set_new(x, "same_pointer", json_boolean(v->same_pointer));
        json_object_set_new(x, "note", json_string(r->map_note[m->to_device]));
        json_array_append_new(ma, x);
    }
    json_object_set_new(o, "maps", ma);
    return o;
}

static json_t *level_json(const bench_probe_result *r, size_t k, int valid_lat, int with_size)
{
    const bench_probe_level *l = &r->levels[k];
    json_t *o = json_object();
    if (with_size) {
        json_object_set_new(o, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)l->size_bytes));
        json_object_set_new(o, "next_bytes", json_integer((json_int_t)l->next_bytes));
        json_object_set_new(o, "seen_in", json_string(seen_name(l->seen)));
        json_object_set_new(o, "placed_by", l->placed ? json_string(seen_name(l->placed)) : json_null());
        json_object_set_new(o, "host_cache_level",
                            l->host_match >= 0 && (size_t)l->host_match < r->n_host_caches
                                ? json_integer(r->host_caches[l->host_match].level)
                                : json_null());
        bw_buf ag = BW_BUF_INIT;
        report_probe_level_agreement(&ag, r, k);
        json_object_set_new(o, "agreement", json_string(bw_buf_str(&ag)));
        bw_buf_free(&ag);
    }
    json_object_set_new(o, RP_KEY(RP_READ_GBS), results_json_real(l->read_gbs, 1));
    json_object_set_new(o, RP_KEY(RP_LATENCY_NS), results_json_real(l->latency_ns, valid_lat));
    json_object_set_new(o, RP_KEY(RP_LATENCY_PER_CU_NS), results_json_real(l->latency_cu_ns, valid_lat));
    json_object_set_new(o, RP_KEY(RP_LATENCY_PAGE_NS), results_json_real(l->latency_page_ns, valid_lat && r->page_levels));
    return o;
}

/* the random chase's knees the page-local chase lacks (measured) */
static json_t *tlb_json(const bench_probe_result *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->n_tlb; i++) {
        const bench_probe_tlb *t = &r->tlb[i];
        json_t *o = json_object();
        json_object_set_new(o, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)t->size_bytes));
        json_object_set_new(o, "next_bytes", json_integer((json_int_t)t->next_bytes));
        json_object_set_new(o, "below_latency_ns", results_json_real(t->below_ns, 1));
        json_object_set_new(o, "above_latency_ns", results_json_real(t->above_ns, 1));
        json_object_set_new(o, "step", results_json_real(t->step, 1));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *fit_json(const model_fit_candidate *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "scale", results_json_real(c->a, 1));
    json_object_set_new(o, "offset", results_json_real(c->b, 1));
    json_object_set_new(o, "residual", results_json_real(c->rms_rel, 1));
    json_object_set_new(o, "unexplained", results_json_real(c->rel, 1));
    return o;
}

/* the host's caches (sysfs) and the level each matched */
static json_t *host_caches_json(const bench_probe_result *r)
{
    json_t *hc = json_array();
    for (size_t i = 0; i < r->n_host_caches; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "level", json_integer(r->host_caches[i].level));
        json_object_set_new(c, RP_KEY(RP_SIZE_BYTES), json_integer((json_int_t)r->host_caches[i].size_bytes));
        json_object_set_new(c, "line_bytes", json_integer((json_int_t)r->host_caches[i].line_bytes));
        json_t *ml = json_null();
        for (size_t k = 0; k < r->n_levels; k++)
            if (r->levels[k].host_match == (int)i)
                ml = json_integer((json_int_t)(k + 1));
        json_object_set_new(c, "matched_level", ml);
        json_array_append_new(hc, c);
    }
    return hc;
}

/* the ladder's points (measured) */
static json_t *ladder_json(const bench_probe_result *r)
{
    json_t *lad = json_array();
    for (size_t i = 0; i < r->n_points; i++) {
        json_t *p = json_object();
        json_object_set_new(p, RP_KEY(RP_BYTES), json_integer((json_int_t)r->points[i].bytes));
        json_object_set_new(p, RP_KEY(RP_READ_GBS), results_json_real(r->points[i].read_gbs, 1));
        json_object_set_new(p, RP_KEY(RP_LATENCY_NS), results_json_real(r->points[i].latency_ns, r->chase_valid));
        json_object_set_new(p, RP_KEY(RP_LATENCY_PER_CU_NS), results_json_real(r->points[i].latency_cu_ns, r->chase_valid));
        json_object_set_new(p, RP_KEY(RP_LATENCY_PAGE_NS),
                            results_json_real(r->points[i].latency_page_ns, r->chase_valid && r->points[i].latency_page_ns > 0));
        json_array_append_new(lad, p);
    }
    return lad;
}

/* the stride and offset sweeps and each candidate unit's fits */
static json_t *granularity_json(const bench_probe_result *r)
{
    json_t *g = json_object();
    json_object_set_new(g, "working_set_bytes", json_integer((json_int_t)r->gran_bytes));
    json_object_set_new(g, "block_bytes", json_integer(BENCH_PROBE_BLOCK));
    json_t *ss = json_array(), *os = json_array(), *cs = json_array();
    for (size_t i = 0; i < r->n_strides; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "stride_bytes", json_integer((json_int_t)r->stride_x[i]));
        json_object_set_new(p, "ns_per_element", results_json_real(r->stride_ns[i], 1));
        json_array_append_new(ss, p);
    }
    for (size_t i = 0; i < r->n_offsets; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "offset_bytes", json_integer((json_int_t)r->offset_x[i]));
        json_object_set_new(p, "ns_per_block", results_json_real(r->offset_ns[i], 1));
        json_array_append_new(os, p);
    }
    for (size_t k = 0; k < BENCH_PROBE_UNITS && r->n_strides; k++) {
        json_t *c = json_object();
        json_object_set_new(c, "unit_bytes", json_integer((json_int_t)r->units[k]));
        json_t *sf = fit_json(&r->stride_fit[k]), *of = fit_json(&r->offset_fit[k]);
        json_t *sm = json_array(), *om = json_array();
        for (size_t i = 0; i < r->n_strides; i++)
            json_array_append_new(sm, results_json_real(r->stride_model[k][i], 1));
        for (size_t i = 0; i < r->n_offsets; i++)
            json_array_append_new(om, results_json_real(r->offset_model[k][i], 1));
        json_object_set_new(sf, "modeled", sm);
        json_object_set_new(of, "modeled", om);
        json_object_set_new(c, "stride_fit", sf);
        json_object_set_new(c, "offset_fit", of);
        json_array_append_new(cs, c);
    }
    json_object_set_new(g, "stride_sweep", ss);
    json_object_set_new(g, "offset_sweep", os);
    json_object_set_new(g, "candidates", cs);
    return g;
}

/* the sector-pair experiment: measured ns per element, their ratio and
 * the unit it implies */
static json_t *pairs_json(const bench_probe_result *r)
{
    json_t *o = json_object();
    int have = r->pair_ns[0] > 0;
    json_object_set_new(o, "adjacent_ns_per_element", results_json_real(r->pair_ns[0], have));
    json_object_set_new(o, "split_ns_per_element", results_json_real(r->pair_ns[1], have));
    json_object_set_new(o, "apart_ns_per_element", results_json_real(r->pair_ns[2], have));
    json_object_set_new(o, "ratio", results_json_real(r->pair_ratio, have && isfinite(r->pair_ratio)));
    json_object_set_new(o, "unit_bytes", r->pair_unit ? json_integer((json_int_t)r->pair_unit) : json_null());
    json_object_set_new(o, "reason", r->pair_unit ? json_null() : json_string(r->pair_why));
    return o;
}

static json_t *device_json(const report_probe_device *dv)
{
    const bench_probe_result *r = dv->result;
    const bench_device *d = dv->device;
    json_t *o = json_object();
    json_object_set_new(o, "device", bench_device_json(d, dv->is_default));
    json_object_set_new(o, RP_KEY(RP_STATUS), json_string(r ? "probed" : "failed"));
    json_object_set_new(o, "failure", dv->failure ? json_string(dv->failure) : json_null());
    json_object_set_new(o, "cache_note", dv->cache_note ? json_string(dv->cache_note) : json_null());
    if (!r)
        return o;
    json_object_set_new(o, "quick", json_boolean(r->quick));
    json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
    json_object_set_new(o, "interrupted_in", r->interrupted ? json_string(r->interrupted_in) : json_null());
    json_object_set_new(o, "seconds", json_real(r->seconds));
    json_object_set_new(o, "kernel_file", r->kernel_path ? json_string(r->kernel_path) : json_null());
    /* the contract keys */
    json_object_set_new(o, RP_KEY(RP_INFERRED_UNIT_BYTES),
                        r->inferred_unit ? json_integer((json_int_t)r->inferred_unit) : json_null());
    json_object_set_new(o, "inferred_unit_reason", r->inferred_unit ? json_null() : json_string(r->unit_why));
    json_object_set_new(o, "sector_pairs", pairs_json(r));
    json_object_set_new(o, RP_KEY(RP_PROFILE_UNIT_BYTES), json_integer((json_int_t)d->geo.sector));
    json_object_set_new(o, RP_KEY(RP_PROFILE_LINE_BYTES), json_integer((json_int_t)d->geo.line));
    bw_buf ag = BW_BUF_INIT;
    report_probe_agreement(&ag, r, &d->geo);
    json_object_set_new(o, RP_KEY(RP_UNIT_AGREEMENT), json_string(bw_buf_str(&ag)));
    bw_buf_free(&ag);
    json_t *lv = json_array();
    for (size_t i = 0; i < r->n_levels; i++)
        json_array_append_new(lv, level_json(r, i, r->chase_valid, 1));
    json_object_set_new(o, RP_KEY(RP_CACHE_LEVELS), lv);
    json_object_set_new(o, RP_KEY(RP_MEMORY),
                        r->have_memory ? level_json(r, r->n_levels, r->chase_valid, 0) : json_null());
    /* the memory plateau against the device's nominal peak */
    char words[RESULTS_PLAUSIBILITY_MAX];
    const char *pl = r->have_memory ? results_nominal_plausibility(r->levels[r->n_levels].read_gbs, dv->nominal_gbs,
                                                                  words, sizeof words)
                                    : NULL;
    json_object_set_new(o, "nominal_dram_gbs", dv->nominal_gbs > 0 ? json_real(dv->nominal_gbs) : json_null());
    json_object_set_new(o, "memory_plausibility", pl ? json_string(pl) : json_null());
    json_object_set_new(o, "device_cache_bytes", json_integer((json_int_t)r->device_cache_bytes));
    bw_buf dag = BW_BUF_INIT;
    report_probe_device_cache_agreement(&dag, r);
    json_object_set_new(o, "device_cache_agreement", json_string(bw_buf_str(&dag)));
    bw_buf_free(&dag);
    json_object_set_new(o, "host_caches", host_caches_json(r));
    json_object_set_new(o, RP_KEY(RP_LADDER), ladder_json(r));
    json_object_set_new(o, "levels_from", json_string(r->page_levels ? "page-local chase" : "random chase"));
    json_object_set_new(o, "tlb_reaches", r->page_levels ? tlb_json(r) : json_null());
    json_t *cv = json_object();
    json_object_set_new(cv, "valid", json_boolean(r->chase_valid));
    json_object_set_new(cv, "note", json_string(r->chase_note));
    json_object_set_new(o, "chase_validation", cv);
    json_object_set_new(o, "granularity", granularity_json(r));
    json_object_set_new(o, "inferred_lanes", r->inferred_lanes ? json_integer((json_int_t)r->inferred_lanes) : json_null());
    json_object_set_new(o, "inferred_lanes_reason", json_string(r->lanes_why));
    json_t *ls = json_array();
    for (size_t i = 0; i < r->n_lanes; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "work_group_size", json_integer((json_int_t)r->lanes_x[i]));
        json_object_set_new(p, "ns", results_json_real(r->lanes_ns[i], 1));
        json_array_append_new(ls, p);
    }
    json_object_set_new(o, "lanes_sweep", ls);
    json_object_set_new(o, "profile_lanes", json_integer(d->geo.lanes));
    json_object_set_new(o, "inferred_banks", r->inferred_banks ? json_integer(r->inferred_banks) : json_null());
    json_object_set_new(o, "inferred_banks_reason", json_string(r->banks_why));
    json_t *t = report_probe_transfers_json(r);
    json_object_update(o, t);
    json_decref(t);
    return o;
}

bw_code report_probe_json(const report_probe_meta *m, const report_probe_device *d, size_t n, bw_buf *out,
                          bw_error *err)
{
    json_t *o = results_json_document(RESULTS_PROBE_SCHEMA, RESULTS_PROBE_SCHEMA_VERSION, m->date, m->argc, m->argv);
    if (!o)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    json_object_set_new(o, "cache_file", m->cache_file ? json_string(m->cache_file) : json_null());
    json_object_set_new(o, "interrupted", json_boolean(m->interrupted));
    json_t *devs = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(devs, device_json(&d[k]));
    json_object_set_new(o, "devices", devs);
    return results_json_dump(o, out, err);
}
