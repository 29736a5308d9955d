/* report_probe: `bwlab probe`'s table, Markdown and CSV, and the transfers
 * lines of `bwlab run --transfers`, rendered from the results document
 * (report_probe.h). */
#include "report_probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_device_head.h"
#include "report_format.h"
#include "results_probe_fields.h"
#include "report_device_head_priv.h"
#include "report_probe_priv.h"

#define K(f) RP_KEY(f)

/* a number of the document; `absent` where it holds null or nothing */
static double num_or(const json_t *o, const char *key, double absent)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : absent;
}

/* a measured figure: 0 where the document holds none (not measured) */
static double val(const json_t *o, const char *key)
{
    return num_or(o, key, 0);
}

static unsigned long long whole(const json_t *o, const char *key)
{
    return (unsigned long long)json_integer_value(json_object_get(o, key));
}

static const char *text(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static int flag(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

static const json_t *array(const json_t *o, const char *key)
{
    return json_object_get(o, key);
}

/* b in words ("4.00 KiB"), left-aligned in width columns */
static void bytes_text(bw_buf *out, int width, double b)
{
    bw_buf t = BW_BUF_INIT;
    report_bytes(&t, b);
    bw_buf_printf(out, "%-*s", width, bw_buf_str(&t));
    bw_buf_free(&t);
}

/* each direction's map note once, h2d's first, between lead and tail */
static void map_notes(const json_t *maps, const char *lead, const char *tail, bw_buf *out)
{
    static const char *const dirs[] = { "h2d", "d2h" };
    size_t i;
    const json_t *x;
    for (int d = 0; d < 2; d++)
        json_array_foreach(maps, i, x)
            if (!strcmp(text(x, K(RP_DIRECTION)), dirs[d])) {
                if (*text(x, RP_KEY(RP_NOTE)))
                    bw_buf_printf(out, "%s%s%s", lead, text(x, RP_KEY(RP_NOTE)), tail);
                break;
            }
}

void report_probe_transfers_table(const json_t *t, bw_buf *out)
{
    size_t i;
    const json_t *x;
    const json_t *tr = array(t, K(RP_TRANSFERS)), *maps = array(t, RP_KEY(RP_MAPS)), *l = json_object_get(t, RP_KEY(RP_LAUNCH));
    bw_buf_puts(out, "\nhost<->device transfers (measured, wall clock per copy, median)\n");
    bw_buf_puts(out, "  dir  memory    mode          size       GB/s      us\n");
    json_array_foreach(tr, i, x) {
        bw_buf s = BW_BUF_INIT;
        report_bytes(&s, (double)whole(x, K(RP_BYTES)));
        bw_buf_printf(out, "  %s  %-8s  %-12s  %-9s %7.2f  %8.1f\n", text(x, K(RP_DIRECTION)),
                      text(x, K(RP_TRANSFER_MEMORY)), flag(x, K(RP_BLOCKING)) ? "blocking" : "non-blocking",
                      bw_buf_str(&s), val(x, K(RP_GBS)), val(x, K(RP_US)));
        bw_buf_free(&s);
    }
    if (!json_array_size(tr))
        bw_buf_puts(out, "  small-transfer latency: not measured (interrupted before the first copy)\n");
    else
        bw_buf_printf(out,
                      "  small-transfer latency (measured): %.1f us for %llu B, host to device, pageable, blocking\n",
                      val(t, K(RP_SMALL_TRANSFER_LATENCY_US)), whole(t, K(RP_SMALL_TRANSFER_BYTES)));
    if (json_is_string(json_object_get(t, RP_KEY(RP_TRANSFERS_NOTE))))
        bw_buf_printf(out, "  %s\n", text(t, RP_KEY(RP_TRANSFERS_NOTE)));
    if (json_array_size(maps)) {
        bw_buf_puts(out, "\nmaps of a CL_MEM_ALLOC_HOST_PTR buffer (measured, wall clock per map and unmap, median)\n");
        bw_buf_puts(out, "  dir  size        GB/s          us    copy us\n");
        json_array_foreach(maps, i, x) {
            bw_buf s = BW_BUF_INIT;
            report_bytes(&s, (double)whole(x, K(RP_BYTES)));
            char gbs[32];
            if (val(x, K(RP_GBS)) > 0)
                snprintf(gbs, sizeof gbs, "%9.2f", val(x, K(RP_GBS)));
            else
                snprintf(gbs, sizeof gbs, "%9s", flag(x, RP_KEY(RP_ZERO_COPY)) ? "zero-copy" : "no copy");
            bw_buf_printf(out, "  %s  %-10s %s  %9.1f  %9.1f\n", text(x, K(RP_DIRECTION)), bw_buf_str(&s), gbs,
                          val(x, K(RP_US)), val(x, RP_KEY(RP_COPY_US)));
            bw_buf_free(&s);
        }
        map_notes(maps, "  ", "\n", out);
    }
    unsigned long long launches = whole(l, RP_KEY(RP_LAUNCHES));
    if (!launches) {
        bw_buf_puts(out, "launch latency: not measured (interrupted before it was)\n");
        return;
    }
    if (!strcmp(text(l, RP_KEY(RP_TIMER)), "wall"))
        bw_buf_printf(out,
                      "launch latency (measured, empty kernel, median of %llu): %.1f us host clock enqueue to clFinish; "
                      "events: none (%s)\n",
                      launches, val(l, RP_KEY(RP_WALL_US)), text(l, RP_KEY(RP_NOTE)));
    else
        bw_buf_printf(out,
                      "launch latency (measured, empty kernel, median of %llu): %.1f us wall clock enqueue to end; "
                      "events: %.1f us queued to start, %.1f us queued to end\n",
                      launches, val(l, RP_KEY(RP_WALL_US)), val(l, RP_KEY(RP_QUEUED_TO_START_US)), val(l, RP_KEY(RP_QUEUED_TO_END_US)));
}

/* the cache and latency ladders, the levels found in them, and how they
 * agree with what the device and the host report */
static void ladder_lines(const json_t *o, bw_buf *out)
{
    const json_t *dev = json_object_get(o, RP_KEY(RP_DEVICE)), *levels = array(o, K(RP_CACHE_LEVELS));
    const json_t *mem = json_object_get(o, K(RP_MEMORY)), *tlb = array(o, RP_KEY(RP_TLB_REACHES));
    int page = !strcmp(text(o, RP_KEY(RP_LEVELS_FROM)), "page-local chase");
    size_t i, n_levels = json_array_size(levels);
    const json_t *x;
    bw_buf_puts(out, "\ncache ladder and latency ladder (measured; read GB/s by ");
    bw_buf_puts(out, !strcmp(text(dev, "type"), "cpu") ? "one work-item per compute unit, each over the whole set"
                                                       : "the whole device");
    bw_buf_puts(out, "; latency: ns per dependent load, one random chase / one per compute unit");
    bw_buf_puts(out, page ? "; levels from the page-local chase)\n" : ")\n");
    bw_buf_puts(out, "  level    size (knee)     read GB/s   latency ns   latency ns (per CU)   knee seen in\n");
    for (i = 0; i < n_levels + (json_is_object(mem) ? 1 : 0); i++) {
        const json_t *l = i < n_levels ? json_array_get(levels, i) : mem;
        char name[32];
        if (i < n_levels)
            snprintf(name, sizeof name, "L%zu", i + 1);
        else
            snprintf(name, sizeof name, "memory");
        bw_buf_printf(out, "  %-8s ", name);
        if (i < n_levels)
            bytes_text(out, 15, (double)whole(l, K(RP_SIZE_BYTES)));
        else
            bw_buf_printf(out, "%-15s", "beyond");
        bw_buf_printf(out, " %9.1f   %10.2f   %10.2f", val(l, K(RP_READ_GBS)), val(l, K(RP_LATENCY_NS)),
                      val(l, K(RP_LATENCY_PER_CU_NS)));
        if (i < n_levels)
            bw_buf_printf(out, "            %s", text(l, RP_KEY(RP_SEEN_IN)));
        bw_buf_putc(out, '\n');
    }
    json_array_foreach(tlb, i, x) {
        bw_buf_puts(out, "  TLB reach at about ");
        report_bytes(out, (double)whole(x, K(RP_SIZE_BYTES)));
        bw_buf_printf(out, ": the random chase climbs %.2fx there (%.2f to %.2f ns), the page-local chase does not\n",
                      val(x, RP_KEY(RP_STEP)), val(x, RP_KEY(RP_BELOW_LATENCY_NS)), val(x, RP_KEY(RP_ABOVE_LATENCY_NS)));
    }
    if (page && json_array_size(tlb) == 0)
        bw_buf_puts(out, "  no TLB reach: every knee of the random chase is one of the page-local chase's\n");
    if (flag(o, RP_KEY(RP_INTERRUPTED)) && !json_is_object(mem))
        bw_buf_printf(out, "  interrupted (in its %s): no levels are derived from a partial ladder\n",
                      text(o, RP_KEY(RP_INTERRUPTED_IN)));
    else if (n_levels == 0)
        bw_buf_puts(out, "  no knee found: the ladder shows one plateau\n");
    json_array_foreach(levels, i, x)
        bw_buf_printf(out, "  L%zu: %s\n", i + 1, text(x, RP_KEY(RP_AGREEMENT)));
    bw_buf_puts(out, "  device reports CL_DEVICE_GLOBAL_MEM_CACHE_SIZE ");
    report_bytes(out, (double)whole(o, RP_KEY(RP_DEVICE_CACHE_BYTES)));
    bw_buf_printf(out, ": %s\n", text(o, RP_KEY(RP_DEVICE_CACHE_AGREEMENT)));
    const json_t *hc = array(o, RP_KEY(RP_HOST_CACHES));
    if (json_array_size(hc)) {
        bw_buf_puts(out, "  host sysfs caches:");
        json_array_foreach(hc, i, x) {
            bw_buf_printf(out, "%s L%llu ", i ? "," : "", whole(x, RP_KEY(RP_LEVEL)));
            report_bytes(out, (double)whole(x, K(RP_SIZE_BYTES)));
        }
        bw_buf_putc(out, '\n');
    }
    const json_t *cv = json_object_get(o, RP_KEY(RP_CHASE_VALIDATION));
    bw_buf_printf(out, "  chase validation: %s: %s\n", flag(cv, RP_KEY(RP_VALID)) ? "passed" : "FAILED", text(cv, RP_KEY(RP_NOTE)));
    bw_buf_puts(out, "  size        read GB/s   latency ns   per CU ns   page-local ns\n");
    json_array_foreach(array(o, K(RP_LADDER)), i, x) {
        bw_buf_puts(out, "  ");
        bytes_text(out, 11, (double)whole(x, K(RP_BYTES)));
        bw_buf_printf(out, " %9.1f   %10.2f   %9.2f", val(x, K(RP_READ_GBS)), val(x, K(RP_LATENCY_NS)),
                      val(x, K(RP_LATENCY_PER_CU_NS)));
        if (val(x, K(RP_LATENCY_PAGE_NS)) > 0)
            bw_buf_printf(out, "   %13.2f", val(x, K(RP_LATENCY_PAGE_NS)));
        bw_buf_putc(out, '\n');
    }
}

/* the candidate whose fits leave least unexplained, summed */
static size_t best_candidate(const json_t *cands)
{
    size_t b = 0, k;
    const json_t *c;
    double best = INFINITY;
    json_array_foreach(cands, k, c) {
        double s = val(json_object_get(c, RP_KEY(RP_STRIDE_FIT)), RP_KEY(RP_UNEXPLAINED)) +
                   val(json_object_get(c, RP_KEY(RP_OFFSET_FIT)), RP_KEY(RP_UNEXPLAINED));
        if (s < best) {
            best = s;
            b = k;
        }
    }
    return b;
}

/* "64 B; agrees with ..." or "none; ...": the inferred unit and its sentence */
static void unit_words(const json_t *o, bw_buf *out)
{
    if (json_is_integer(json_object_get(o, K(RP_INFERRED_UNIT_BYTES))))
        bw_buf_printf(out, "%llu B; ", whole(o, K(RP_INFERRED_UNIT_BYTES)));
    else
        bw_buf_puts(out, "none; ");
    bw_buf_puts(out, text(o, K(RP_UNIT_AGREEMENT)));
}

/* the transaction granularity: the stride and offset sweeps and the fits
 * of each candidate unit */
static void granularity_lines(const json_t *o, bw_buf *out)
{
    const json_t *g = json_object_get(o, RP_KEY(RP_GRANULARITY)), *offs = array(g, RP_KEY(RP_OFFSET_SWEEP));
    const json_t *pairs = json_object_get(o, RP_KEY(RP_SECTOR_PAIRS)), *x;
    size_t i;
    bw_buf_puts(out, "\ntransaction granularity (measured on a ");
    report_bytes(out, (double)whole(g, RP_KEY(RP_WORKING_SET_BYTES)));
    bw_buf_printf(out, " working set)\n  inferred unit: ");
    unit_words(o, out);
    bw_buf_puts(out, "\n  stride B   ns/element (measured)\n");
    json_array_foreach(array(g, RP_KEY(RP_STRIDE_SWEEP)), i, x)
        bw_buf_printf(out, "  %8.0f   %10.3f\n", (double)whole(x, RP_KEY(RP_STRIDE_BYTES)), val(x, RP_KEY(RP_NS_PER_ELEMENT)));
    size_t no = json_array_size(offs);
    bw_buf_printf(out, "  offset sweep (%llu B per work-item): ns/block (measured) at offsets 0..%.0f B:\n   ",
                  whole(g, RP_KEY(RP_BLOCK_BYTES)), no ? (double)whole(json_array_get(offs, no - 1), RP_KEY(RP_OFFSET_BYTES)) : 0.0);
    json_array_foreach(offs, i, x)
        bw_buf_printf(out, " %.2f", val(x, RP_KEY(RP_NS_PER_BLOCK)));
    if (val(pairs, RP_KEY(RP_ADJACENT_NS_PER_ELEMENT)) > 0) {
        bw_buf_printf(out, "\n  sector pairs (measured, ns/element): adjacent 32-byte sectors %.3f, sectors in different "
                           "64-byte halves %.3f, a 128-byte block each %.3f; split / adjacent %.2f: ",
                      val(pairs, RP_KEY(RP_ADJACENT_NS_PER_ELEMENT)), val(pairs, RP_KEY(RP_SPLIT_NS_PER_ELEMENT)),
                      val(pairs, RP_KEY(RP_APART_NS_PER_ELEMENT)), num_or(pairs, RP_KEY(RP_RATIO), NAN));
        unsigned long long u = whole(pairs, RP_KEY(RP_UNIT_BYTES));
        if (u == 64)
            bw_buf_puts(out, "64-byte units (the split pair costs about twice the adjacent one)");
        else if (u == 32)
            bw_buf_puts(out, "32-byte units (the two pairs cost the same)");
        else
            bw_buf_printf(out, "no unit: %s", text(pairs, RP_KEY(RP_REASON)));
    }
    bw_buf_puts(out, "\n  candidate unit   stride fit: residual, unexplained   offset fit: residual, unexplained "
                     "(modeled curves fitted to the measured ones)\n");
    const json_t *cands = array(g, RP_KEY(RP_CANDIDATES));
    size_t b = best_candidate(cands);
    json_array_foreach(cands, i, x) {
        const json_t *sf = json_object_get(x, RP_KEY(RP_STRIDE_FIT)), *of = json_object_get(x, RP_KEY(RP_OFFSET_FIT));
        bw_buf_printf(out, "  %10llu B     %8.1f%%  %8.0f%%              %8.1f%%  %8.0f%%%s\n", whole(x, RP_KEY(RP_UNIT_BYTES)),
                      100 * val(sf, RP_KEY(RP_RESIDUAL)), 100 * val(sf, RP_KEY(RP_UNEXPLAINED)), 100 * val(of, RP_KEY(RP_RESIDUAL)),
                      100 * val(of, RP_KEY(RP_UNEXPLAINED)), i == b ? "   <- best" : "");
    }
}

/* the warp width and the banks inferred, against the profile's */
static void warp_lines(const json_t *o, bw_buf *out)
{
    if (!json_array_size(array(o, K(RP_LADDER))))
        return;
    const char *lanes_why = text(o, RP_KEY(RP_INFERRED_LANES_REASON));
    if (!*lanes_why) {
        bw_buf_puts(out, "\nwarp width and banks: not measured (interrupted before them)\n");
        return;
    }
    bw_buf_printf(out, "\nwarp width: ");
    if (json_is_integer(json_object_get(o, RP_KEY(RP_INFERRED_LANES))))
        bw_buf_printf(out, "%llu lanes (measured; the profile's W is %llu): %s\n", whole(o, RP_KEY(RP_INFERRED_LANES)),
                      whole(o, RP_KEY(RP_PROFILE_LANES)), lanes_why);
    else
        bw_buf_printf(out, "not inferred (the profile's W is %llu): %s\n", whole(o, RP_KEY(RP_PROFILE_LANES)), lanes_why);
    bw_buf_printf(out, "banks: ");
    if (json_is_integer(json_object_get(o, RP_KEY(RP_INFERRED_BANKS))))
        bw_buf_printf(out, "%llu (measured; the profile's is %llu): %s\n", whole(o, RP_KEY(RP_INFERRED_BANKS)),
                      whole(json_object_get(json_object_get(o, RP_KEY(RP_DEVICE)), "profile"), "banks"),
                      text(o, RP_KEY(RP_INFERRED_BANKS_REASON)));
    else
        bw_buf_printf(out, "not inferred: %s\n", text(o, RP_KEY(RP_INFERRED_BANKS_REASON)));
}

/* a probed device holds its ladder; a failed one does not */
static int probed(const json_t *o)
{
    return json_is_array(array(o, K(RP_LADDER)));
}

static void table_device(const json_t *o, bw_buf *out)
{
    report_device_line_json(out, "", json_object_get(o, RP_KEY(RP_DEVICE)));
    if (!probed(o)) {
        bw_buf_printf(out, "  probe failed: %s\n", json_is_string(json_object_get(o, RP_KEY(RP_FAILURE))) ? text(o, RP_KEY(RP_FAILURE))
                                                                                                  : "unknown");
        return;
    }
    int interrupted = flag(o, RP_KEY(RP_INTERRUPTED));
    bw_buf_printf(out, "  probe: %s, %.1f s (measured wall clock)%s%s%s\n", flag(o, RP_KEY(RP_QUICK)) ? "quick" : "full",
                  val(o, RP_KEY(RP_SECONDS)), interrupted ? "; INTERRUPTED in its " : "",
                  interrupted ? text(o, RP_KEY(RP_INTERRUPTED_IN)) : "", interrupted ? ": what was measured before it" : "");
    if (json_array_size(array(o, K(RP_LADDER))))
        ladder_lines(o, out);
    if (json_is_string(json_object_get(o, RP_KEY(RP_MEMORY_PLAUSIBILITY))))
        bw_buf_printf(out, "  plausibility: the memory plateau's %.1f GB/s (measured) is %s\n",
                      val(json_object_get(o, K(RP_MEMORY)), K(RP_READ_GBS)), text(o, RP_KEY(RP_MEMORY_PLAUSIBILITY)));
    if (json_array_size(array(json_object_get(o, RP_KEY(RP_GRANULARITY)), RP_KEY(RP_STRIDE_SWEEP))))
        granularity_lines(o, out);
    warp_lines(o, out);
    report_probe_transfers_table(o, out);
    if (json_is_string(json_object_get(o, RP_KEY(RP_CACHE_NOTE))))
        bw_buf_printf(out, "probe cache: %s\n", text(o, RP_KEY(RP_CACHE_NOTE)));
}

void report_probe_table(const json_t *doc, bw_buf *out)
{
    size_t k;
    const json_t *o;
    json_array_foreach(array(doc, RP_KEY(RP_DEVICES)), k, o) {
        if (k)
            bw_buf_putc(out, '\n');
        table_device(o, out);
    }
}

void report_probe_md(const json_t *doc, bw_buf *out)
{
    size_t k, i;
    const json_t *o, *x;
    json_array_foreach(array(doc, RP_KEY(RP_DEVICES)), k, o) {
        const json_t *dev = json_object_get(o, RP_KEY(RP_DEVICE));
        bw_buf_printf(out, "%s## device %llu: %s\n\n", k ? "\n" : "", whole(dev, "index"), text(dev, "name"));
        if (!probed(o)) {
            bw_buf_printf(out, "probe failed: %s\n",
                          json_is_string(json_object_get(o, RP_KEY(RP_FAILURE))) ? text(o, RP_KEY(RP_FAILURE)) : "unknown");
            continue;
        }
        bw_buf_puts(out, "| level | size (knee) | read GB/s (measured) | latency ns (measured) |\n|---|---|---|---|\n");
        json_array_foreach(array(o, K(RP_CACHE_LEVELS)), i, x)
            bw_buf_printf(out, "| L%zu | %llu B | %.1f | %.2f |\n", i + 1, whole(x, K(RP_SIZE_BYTES)),
                          val(x, K(RP_READ_GBS)), val(x, K(RP_LATENCY_NS)));
        const json_t *mem = json_object_get(o, K(RP_MEMORY));
        if (json_is_object(mem))
            bw_buf_printf(out, "| memory | beyond | %.1f | %.2f |\n", val(mem, K(RP_READ_GBS)),
                          val(mem, K(RP_LATENCY_NS)));
        bw_buf_puts(out, "\n**Transaction unit (measured):** ");
        unit_words(o, out);
        bw_buf_puts(out, "\n\n| direction | memory | mode | bytes | GB/s (measured) | us (measured) |\n"
                         "|---|---|---|---|---|---|\n");
        json_array_foreach(array(o, K(RP_TRANSFERS)), i, x)
            bw_buf_printf(out, "| %s | %s | %s | %llu | %.2f | %.1f |\n", text(x, K(RP_DIRECTION)),
                          text(x, K(RP_TRANSFER_MEMORY)), flag(x, K(RP_BLOCKING)) ? "blocking" : "non-blocking",
                          whole(x, K(RP_BYTES)), val(x, K(RP_GBS)), val(x, K(RP_US)));
        const json_t *maps = array(o, RP_KEY(RP_MAPS));
        if (json_array_size(maps)) {
            bw_buf_puts(out, "\n| direction | bytes | map GB/s (measured) | us (measured) | copy us (measured) |\n"
                             "|---|---|---|---|---|\n");
            json_array_foreach(maps, i, x) {
                bw_buf_printf(out, "| %s | %llu | ", text(x, K(RP_DIRECTION)), whole(x, K(RP_BYTES)));
                if (val(x, K(RP_GBS)) > 0)
                    bw_buf_printf(out, "%.2f", val(x, K(RP_GBS)));
                else
                    bw_buf_puts(out, flag(x, RP_KEY(RP_ZERO_COPY)) ? "zero-copy" : "no copy");
                bw_buf_printf(out, " | %.1f | %.1f |\n", val(x, K(RP_US)), val(x, RP_KEY(RP_COPY_US)));
            }
            map_notes(maps, "\n", "\n", out);
        }
        const json_t *l = json_object_get(o, RP_KEY(RP_LAUNCH));
        bw_buf_printf(out, "\n**Launch latency (measured, %s):** %.1f us\n",
                      !strcmp(text(l, RP_KEY(RP_TIMER)), "wall") ? "host clock" : "wall clock", val(l, RP_KEY(RP_WALL_US)));
    }
}

void report_probe_csv(const json_t *doc, bw_buf *out)
{
    bw_buf_puts(out, "device_index,device,section,x,x_unit,value,value_unit,kind\n");
    size_t k, i;
    const json_t *o, *x;
    json_array_foreach(array(doc, RP_KEY(RP_DEVICES)), k, o) {
        if (!probed(o))
            continue;
        const json_t *dev = json_object_get(o, RP_KEY(RP_DEVICE));
#define ROW(sec, xv, xu, v, vu)                                                                                  \
    do {                                                                                                         \
        bw_buf_printf(out, "%llu,", whole(dev, "index"));                                                        \
        report_csv_field(out, text(dev, "name"));                                                                \
        bw_buf_printf(out, ",%s,%.17g,%s,%.6g,%s,measured\n", sec, (double)(xv), xu, (double)(v), vu);           \
    } while (0)
        json_array_foreach(array(o, K(RP_LADDER)), i, x) {
            double b = (double)whole(x, K(RP_BYTES));
            ROW("read", b, "bytes", val(x, K(RP_READ_GBS)), "GB/s");
            ROW("latency", b, "bytes", val(x, K(RP_LATENCY_NS)), "ns");
            ROW("latency_per_cu", b, "bytes", val(x, K(RP_LATENCY_PER_CU_NS)), "ns");
        }
        const json_t *g = json_object_get(o, RP_KEY(RP_GRANULARITY));
        json_array_foreach(array(g, RP_KEY(RP_STRIDE_SWEEP)), i, x)
            ROW("stride", whole(x, RP_KEY(RP_STRIDE_BYTES)), "bytes", val(x, RP_KEY(RP_NS_PER_ELEMENT)), "ns/element");
        json_array_foreach(array(g, RP_KEY(RP_OFFSET_SWEEP)), i, x)
            ROW("offset", whole(x, RP_KEY(RP_OFFSET_BYTES)), "bytes", val(x, RP_KEY(RP_NS_PER_BLOCK)), "ns/block");
        json_array_foreach(array(o, K(RP_TRANSFERS)), i, x) {
            char sec[64];
            snprintf(sec, sizeof sec, "transfer_%s_%s_%s", text(x, K(RP_DIRECTION)), text(x, K(RP_TRANSFER_MEMORY)),
                     flag(x, K(RP_BLOCKING)) ? "blocking" : "nonblocking");
            ROW(sec, whole(x, K(RP_BYTES)), "bytes", val(x, K(RP_GBS)), "GB/s");
        }
        json_array_foreach(array(o, RP_KEY(RP_MAPS)), i, x)
            ROW(!strcmp(text(x, K(RP_DIRECTION)), "h2d") ? "map_h2d" : "map_d2h", whole(x, K(RP_BYTES)), "bytes",
                val(x, K(RP_US)), "us");
        ROW("launch_latency", 0, "-", val(json_object_get(o, RP_KEY(RP_LAUNCH)), RP_KEY(RP_WALL_US)), "us");
#undef ROW
    }
}
