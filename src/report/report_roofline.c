/* report_roofline: `bwlab roofline`'s table, Markdown and CSV, and the
 * short roofline `bwlab run` prints, rendered from the results document
 * (report_roofline.h). */
#include "report_roofline.h"
#include "results_roofline_keys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_device_head.h"
#include "report_format.h"
#include "report_device_head_priv.h"
#include "report_roofline_priv.h"

static int ok(double v)
{
    return isfinite(v) && v > 0;
}

/* a number of the document, NAN where it holds null or nothing */
static double val(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* a whole number of the document, 0 where it holds none */
static unsigned long long whole(const json_t *o, const char *key)
{
    return (unsigned long long)json_integer_value(json_object_get(o, key));
}

static const char *text(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static int flag(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

/* a measured entry holds its points; a failed or unrun one does not */
static int measured(const json_t *e)
{
    return json_is_array(json_object_get(e, RR_KEY(RR_POINTS)));
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

/* v as %.2f (%.1f with prec 1), or "-" when it is no number: what an
 * interrupt left untimed; REPORT_FIXED's bounded width for the rest */
#define FIG(v, prec) (isfinite(v) ? REPORT_FIXED((v), (prec)) : "-")

/* a point's or tile's bound where its attainable figure is a number, "-" otherwise */
static const char *bound_of(const json_t *p)
{
    const char *b = text(p, RR_KEY(RR_BOUND));
    return isfinite(val(p, RR_KEY(RR_ATTAINABLE_GFLOPS))) && b ? b : "-";
}

static void summary_lines(bw_buf *out, const char *lead, const json_t *e)
{
    const json_t *fma = json_object_get(e, RR_KEY(RR_PEAK_FMA));
    unsigned long long w = whole(fma, RR_KEY(RR_VECTOR_WIDTH));
    char t[24];
    snprintf(t, sizeof t, w == 1 ? "float" : "float%llu", w);
    bw_buf_printf(out, "%speak compute    ", lead);
    num(out, val(e, RR_KEY(RR_PEAK_GFLOPS)));
    bw_buf_printf(out, " GFLOP/s  measured: rf_peak, %llu FMA chains of %s per work-item, %llu iterations, %llu "
                       "work-items\n",
                  whole(fma, RR_KEY(RR_CHAINS)), t, whole(fma, RR_KEY(RR_ITERATIONS)), whole(fma, RR_KEY(RR_ITEMS)));
    bw_buf_printf(out, "%speak bandwidth  ", lead);
    num(out, val(e, RR_KEY(RR_PEAK_GBS)));
    bw_buf_puts(out, " GB/s     measured: rf_sweep with 0 FMAs, a streaming read of ");
    report_bytes(out, (double)whole(e, RR_KEY(RR_BUFFER_BYTES)));
    bw_buf_putc(out, '\n');
    bw_buf_printf(out, "%sridge          ", lead);
    num(out, val(e, RR_KEY(RR_RIDGE_INTENSITY)));
    bw_buf_puts(out, " FLOP/B   modeled: peak compute / peak bandwidth (model_roofline)\n");
    bw_buf_printf(out, "%smeasured ridge ", lead);
    num(out, val(e, RR_KEY(RR_MEASURED_RIDGE_INTENSITY)));
    bw_buf_printf(out, " FLOP/B   measured: sweep plateau %.2f GFLOP/s / sweep slope %.2f GB/s\n",
                  val(e, RR_KEY(RR_PLATEAU_GFLOPS)), val(e, RR_KEY(RR_SLOPE_GBS)));
}

/* what the budget cut and whether an interrupt ended it, one line each */
static void note_lines(bw_buf *out, const char *lead, const json_t *e)
{
    if (flag(e, RR_KEY(RR_INTERRUPTED)))
        bw_buf_printf(out, "%sINTERRUPTED after %.1f s: partial results (\"-\": not timed)\n", lead,
                      val(e, RR_KEY(RR_ELAPSED_S)));
    const char *note = text(e, RR_KEY(RR_BUDGET_NOTE));
    if (note)
        bw_buf_printf(out, "%sbudget: %s\n", lead, note);
}

/* the entry of a document's device: the document's device object holds
 * the entry's keys beside "device" */
#define EACH_DEVICE(doc, k, d) json_array_foreach(json_object_get((doc), RR_KEY(RR_DEVICES)), (k), (d))

void report_roofline_table(const json_t *doc, bw_buf *out)
{
    size_t k, i;
    const json_t *e, *p;
    EACH_DEVICE(doc, k, e) {
        if (k)
            bw_buf_putc(out, '\n');
        report_device_line_json(out, "", json_object_get(e, RR_KEY(RR_DEVICE)));
        if (report_device_unmeasured(out, text(e, RR_KEY(RR_FAILURE)), measured(e), "measured"))
            continue;
        summary_lines(out, "  ", e);
        bw_buf_printf(out, "  %llu rounds in %.1f s of a %.1f s budget\n", whole(e, RR_KEY(RR_ROUNDS)), val(e, RR_KEY(RR_ELAPSED_S)),
                      val(doc, RR_KEY(RR_BUDGET_S)));
        note_lines(out, "  ", e);
        bw_buf_putc(out, '\n');
        bw_buf_puts(out, "     k  intensity      bytes     GFLOP/s        GB/s  attainable  of roof  bound\n");
        json_array_foreach(json_object_get(e, RR_KEY(RR_POINTS)), i, p) {
            double gf = val(p, RR_KEY(RR_GFLOPS)), att = val(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
            bw_buf_printf(out, "  %4llu  %9.1f  ", whole(p, RR_KEY(RR_K)), val(p, RR_KEY(RR_INTENSITY)));
            bw_buf_printf(out, "%9.0fM  ", val(p, RR_KEY(RR_BYTES)) / 1048576.0);
            num(out, gf);
            bw_buf_puts(out, "  ");
            num(out, val(p, RR_KEY(RR_GBS)));
            bw_buf_puts(out, "  ");
            num(out, att);
            bw_buf_puts(out, "  ");
            report_percent(out, gf / att, ok(att) && isfinite(gf));
            bw_buf_printf(out, "  %s\n", bound_of(p));
        }
        bw_buf_puts(out, "\n  tile     n     GFLOP/s  intensity  attainable  of roof  bound\n");
        json_array_foreach(json_object_get(e, RR_KEY(RR_MATMUL)), i, p) {
            if (!flag(p, RR_KEY(RR_MEASURED))) {
                bw_buf_printf(out, "  %4llu  not measured: %s\n", whole(p, RR_KEY(RR_TILE)), text(p, RR_KEY(RR_SKIPPED)));
                continue;
            }
            double gf = val(p, RR_KEY(RR_GFLOPS)), att = val(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
            bw_buf_printf(out, "  %4llu  %4llu  ", whole(p, RR_KEY(RR_TILE)), whole(p, RR_KEY(RR_N)));
            num(out, gf);
            bw_buf_printf(out, "  %9.2f  ", val(p, RR_KEY(RR_INTENSITY)));
            num(out, att);
            bw_buf_puts(out, "  ");
            report_percent(out, gf / att, ok(att) && isfinite(gf));
            bw_buf_printf(out, "  %s\n", bound_of(p));
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

void report_roofline_md(const json_t *doc, bw_buf *out)
{
    size_t k, i;
    const json_t *e, *p;
    EACH_DEVICE(doc, k, e) {
        if (k)
            bw_buf_putc(out, '\n');
        const json_t *dev = json_object_get(e, RR_KEY(RR_DEVICE));
        const char *name = text(dev, "name");
        bw_buf_printf(out, "### Device %llu: %s\n\n", whole(dev, "index"), name ? name : "");
        if (report_device_unmeasured(out, text(e, RR_KEY(RR_FAILURE)), measured(e), "measured"))
            continue;
        bw_buf_puts(out, "| figure | value | source |\n| --- | ---: | --- |\n");
        bw_buf_printf(out, "| peak compute | %s GFLOP/s | measured (rf_peak) |\n", FIG(val(e, RR_KEY(RR_PEAK_GFLOPS)), 2));
        bw_buf_printf(out, "| peak bandwidth | %s GB/s | measured (streaming read) |\n", FIG(val(e, RR_KEY(RR_PEAK_GBS)), 2));
        bw_buf_printf(out, "| ridge | %s FLOP/B | modeled (peaks) |\n", FIG(val(e, RR_KEY(RR_RIDGE_INTENSITY)), 2));
        bw_buf_printf(out, "| measured ridge | %s FLOP/B | measured (sweep plateau / slope) |\n\n",
                      FIG(val(e, RR_KEY(RR_MEASURED_RIDGE_INTENSITY)), 2));
        note_lines(out, "- ", e);
        if (flag(e, RR_KEY(RR_INTERRUPTED)) || text(e, RR_KEY(RR_BUDGET_NOTE)))
            bw_buf_putc(out, '\n');
        bw_buf_puts(out, "| k | intensity (FLOP/B, requested) | GFLOP/s (measured) | GB/s (measured) | "
                         "attainable GFLOP/s (modeled) | of roof | bound (modeled) |\n"
                         "| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        json_array_foreach(json_object_get(e, RR_KEY(RR_POINTS)), i, p) {
            double gf = val(p, RR_KEY(RR_GFLOPS)), att = val(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
            bw_buf_printf(out, "| %llu | %s | %s | %s | %s | ", whole(p, RR_KEY(RR_K)), FIG(val(p, RR_KEY(RR_INTENSITY)), 1), FIG(gf, 2),
                          FIG(val(p, RR_KEY(RR_GBS)), 2), FIG(att, 2));
            report_percent(out, gf / att, ok(att));
            bw_buf_printf(out, " | %s |\n", bound_of(p));
        }
        bw_buf_puts(out, "\n| tile | n | GFLOP/s (measured) | intensity (FLOP/B, modeled) | attainable GFLOP/s (modeled) "
                         "| of roof | bound (modeled) |\n| ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        json_array_foreach(json_object_get(e, RR_KEY(RR_MATMUL)), i, p) {
            if (!flag(p, RR_KEY(RR_MEASURED))) {
                bw_buf_printf(out, "| %llu | | not measured: %s | | | | |\n", whole(p, RR_KEY(RR_TILE)), text(p, RR_KEY(RR_SKIPPED)));
                continue;
            }
            double gf = val(p, RR_KEY(RR_GFLOPS)), att = val(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
            bw_buf_printf(out, "| %llu | %llu | %s | %s | %s | ", whole(p, RR_KEY(RR_TILE)), whole(p, RR_KEY(RR_N)), FIG(gf, 2),
                          FIG(val(p, RR_KEY(RR_INTENSITY)), 2), FIG(att, 2));
            report_percent(out, gf / att, ok(att));
            bw_buf_printf(out, " | %s |\n", bound_of(p));
        }
    }
}

void report_roofline_brief(const json_t *e, const char *lead, int md, bw_buf *out)
{
    if (!measured(e)) {
        /* the first line: a build log follows on standard error and in JSON */
        const char *f = text(e, RR_KEY(RR_FAILURE));
        f = f ? f : "?";
        bw_buf_printf(out, "%sroofline FAILED: %.*s\n", lead, (int)strcspn(f, "\n"), f);
        return;
    }
    const json_t *pts = json_object_get(e, RR_KEY(RR_POINTS));
    size_t np = json_array_size(pts);
    bw_buf_printf(out, "%sroofline (measured%s): peak %s GFLOP/s, %s GB/s read; ridge %s FLOP/byte modeled "
                       "from those, %s measured\n",
                  lead, flag(e, RR_KEY(RR_INTERRUPTED)) ? ", INTERRUPTED: partial" : "", FIG(val(e, RR_KEY(RR_PEAK_GFLOPS)), 2),
                  FIG(val(e, RR_KEY(RR_PEAK_GBS)), 2), FIG(val(e, RR_KEY(RR_RIDGE_INTENSITY)), 2),
                  FIG(val(e, RR_KEY(RR_MEASURED_RIDGE_INTENSITY)), 2));
    bw_buf_printf(out, "%s%ssweep of %zu points (k = 1 .. %llu FMAs per float) over ", lead, md ? "" : "  ", np,
                  np ? whole(json_array_get(pts, np - 1), RR_KEY(RR_K)) : 0);
    report_bytes(out, (double)whole(e, RR_KEY(RR_BUFFER_BYTES)));
    bw_buf_printf(out, " in %.1f s; tiled matmul (measured):", val(e, RR_KEY(RR_ELAPSED_S)));
    size_t t;
    const json_t *p;
    json_array_foreach(json_object_get(e, RR_KEY(RR_MATMUL)), t, p) {
        if (flag(p, RR_KEY(RR_MEASURED)))
            bw_buf_printf(out, "%s T = %llu %s GFLOP/s", t ? "," : "", whole(p, RR_KEY(RR_TILE)), FIG(val(p, RR_KEY(RR_GFLOPS)), 2));
        else
            bw_buf_printf(out, "%s T = %llu not measured", t ? "," : "", whole(p, RR_KEY(RR_TILE)));
    }
    bw_buf_puts(out, "; bwlab roofline shows each point\n");
    const char *note = text(e, RR_KEY(RR_BUDGET_NOTE));
    if (note)
        bw_buf_printf(out, "%s%sbudget: %s\n", lead, md ? "" : "  ", note);
}

/* one kernel's CSV row: kind is the row's kind ("peak-fma", "peak-read",
 * "sweep", "matmul"); keys a kind does not have read as 0 */
static void csv_row(bw_buf *out, const json_t *e, const char *kind, const json_t *p)
{
    int sweep = !strcmp(kind, "sweep") || !strcmp(kind, "matmul"), peak_read = !strcmp(kind, "peak-read");
    const json_t *dev = json_object_get(e, RR_KEY(RR_DEVICE)), *t = json_object_get(p, RR_KEY(RR_TIME_NS));
    const char *name = text(dev, "name");
    double gf = val(p, RR_KEY(RR_GFLOPS)), att = val(p, RR_KEY(RR_ATTAINABLE_GFLOPS));
    bw_buf_printf(out, "%llu,", whole(dev, "index"));
    report_csv_field(out, name ? name : "");
    bw_buf_printf(out, ",%s,%llu,%llu,%llu,%llu,%llu", kind, whole(p, RR_KEY(RR_K)), whole(p, RR_KEY(RR_ITERATIONS)), whole(p, RR_KEY(RR_TILE)),
                  whole(p, RR_KEY(RR_N)), whole(p, RR_KEY(RR_ITEMS)));
    report_csv_num(out, val(p, RR_KEY(RR_INTENSITY)), sweep);
    report_csv_num(out, val(p, RR_KEY(RR_FLOP)), 1);
    report_csv_num(out, json_is_number(json_object_get(p, RR_KEY(RR_BYTES))) ? val(p, RR_KEY(RR_BYTES)) : 0, 1);
    report_csv_num(out, val(t, RTIME_KEY(RTIME_MEDIAN)), whole(t, RTIME_KEY(RTIME_COUNT)) > 0);
    bw_buf_printf(out, ",%llu", whole(t, RTIME_KEY(RTIME_COUNT)));
    report_csv_num(out, gf, !peak_read);
    report_csv_num(out, val(p, RR_KEY(RR_GBS)), peak_read || !strcmp(kind, "sweep"));
    report_csv_num(out, att, sweep);
    report_csv_num(out, gf / att, sweep && ok(att));
    const char *b = text(p, RR_KEY(RR_BOUND));
    bw_buf_printf(out, ",%s", sweep && b ? b : "");
    report_csv_num(out, val(e, RR_KEY(RR_PEAK_GFLOPS)), 1);
    report_csv_num(out, val(e, RR_KEY(RR_PEAK_GBS)), 1);
    report_csv_num(out, val(e, RR_KEY(RR_RIDGE_INTENSITY)), 1);
    report_csv_num(out, val(e, RR_KEY(RR_MEASURED_RIDGE_INTENSITY)), 1);
    bw_buf_putc(out, '\n');
}

void report_roofline_csv(const json_t *doc, bw_buf *out)
{
    bw_buf_puts(out, "device_index,device,kind,k,iterations,tile,n,items,intensity,flop,bytes,time_median_ns,time_count,"
                     "gflops,gbs,attainable_gflops,fraction_of_roof,bound,peak_gflops,peak_gbs,ridge_intensity,"
                     "measured_ridge_intensity\n");
    size_t k, i;
    const json_t *e, *p;
    EACH_DEVICE(doc, k, e) {
        if (!measured(e))
            continue;
        csv_row(out, e, "peak-fma", json_object_get(e, RR_KEY(RR_PEAK_FMA)));
        csv_row(out, e, "peak-read", json_object_get(e, RR_KEY(RR_PEAK_READ)));
        json_array_foreach(json_object_get(e, RR_KEY(RR_POINTS)), i, p)
            csv_row(out, e, "sweep", p);
        json_array_foreach(json_object_get(e, RR_KEY(RR_MATMUL)), i, p)
            if (flag(p, RR_KEY(RR_MEASURED)))
                csv_row(out, e, "matmul", p);
    }
}
