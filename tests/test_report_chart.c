/* Tests of the HTML report's chart layer (report_chart), its figures
 * (report_figures) and the page (report_html), without a browser: what
 * the SVG holds, how many data points each chart has for the checked-in
 * sample result files (counted by hand or by a script over the files,
 * never copied from bwlab's output), and that the page fetches nothing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_chart.h"
#include "report_figures.h"
#include "report_html.h"
#include "results_merge.h"
#include "test_util.h"
#include "results_merge_priv.h"

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Occurrences of needle inside figure `id`'s section of an HTML page (up to
 * the next figure or the end). */
static size_t count_in_figure(const char *html, const char *id, const char *needle)
{
    char key[64];
    snprintf(key, sizeof key, "data-figure=\"%s\"", id);
    const char *start = strstr(html, key);
    cr_assert(start, "figure %s is in the page", id);
    const char *end = strstr(start + 1, "data-figure=");
    size_t len = end ? (size_t)(end - start) : strlen(start);
    char *part = strndup(start, len);
    size_t n = count_of(part, needle);
    free(part);
    return n;
}

Test(report_chart, counts_only_points_it_can_place)
{
    report_chart *c = report_chart_new("t1", "A <title> & more");
    cr_assert(c);
    report_chart_axis(c, 'x', "stride (elements, log2)", REPORT_AXIS_LOG2);
    report_chart_axis(c, 'y', "bandwidth (GB/s)", REPORT_AXIS_LINEAR);
    report_chart_style st = { 0, 0, REPORT_MARKER_CIRCLE, 0, 0, 0 };
    int s = report_chart_series(c, "device <a>", REPORT_SERIES_POINTS, st);
    report_chart_point(c, s, 1, 10, "one: 10 GB/s measured");
    report_chart_point(c, s, 2, NAN, "not measured");       /* left out */
    report_chart_point(c, s, 0, 5, "zero on a log axis");   /* left out */
    report_chart_point(c, s, 4, 3, "four <&> \"q\"");
    int l = report_chart_series(c, "a line", REPORT_SERIES_LINE, st);
    report_chart_point(c, l, 1, 1, NULL); /* lines carry no points */
    report_chart_point(c, l, 8, 2, NULL);
    int r = report_chart_series(c, "region", REPORT_SERIES_RECTS, st);
    report_chart_rect(c, r, 1, 0, 2, 4, "a region");
    cr_expect_eq(report_chart_count(c), 3);

    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(report_chart_svg(c, &b, &err), BW_OK, "%s", bw_error_text(&err));
    const char *svg = bw_buf_str(&b);
    cr_expect_eq(count_of(svg, "class=\"pt\""), 3);
    cr_expect_eq(count_of(svg, "<title>"), 3);
    cr_expect(strstr(svg, "four &lt;&amp;&gt; &quot;q&quot;"), "tooltip text escaped");
    cr_expect(strstr(svg, "A &lt;title&gt; &amp; more"), "title escaped");
    cr_expect(strstr(svg, "device &lt;a&gt;"), "legend escaped");
    cr_expect(strstr(svg, "stride (elements, log2)"), "x axis label");
    cr_expect(strstr(svg, "bandwidth (GB/s)"), "y axis label");
    cr_expect_null(strstr(svg, "<?xml"), "no XML declaration inline");
    cr_expect_null(strstr(svg, "xmlns"), "no namespace declarations inline");
    cr_expect_null(strstr(svg, "NaN"));
    cr_expect_null(strstr(svg, "nan"));
    cr_expect_null(strstr(svg, "inf"));
    /* every id and every reference to one carries the chart's prefix */
    size_t ids = count_of(svg, "id=\""), refs = count_of(svg, "url(#");
    cr_expect_eq(count_of(svg, "id=\"t1"), ids);
    cr_expect_eq(count_of(svg, "url(#t1-"), refs);
    cr_expect_gt(refs, 0, "the series are clipped to the plot");
    /* log2 ticks at powers of two: 1, 2, 4, 8 */
    cr_expect(strstr(svg, ">8</text>"));
    bw_buf_free(&b);
    report_chart_free(c);
}

Test(report_chart, palette_is_okabe_ito)
{
    const char *want[] = { "#0072B2", "#D55E00", "#009E73", "#E69F00",
                           "#CC79A7", "#56B4E9", "#000000", "#F0E442" };
    for (int i = 0; i < REPORT_COLOURS; i++)
        cr_expect_str_eq(report_colour_hex(i), want[i]);
    cr_expect_str_eq(report_colour_hex(REPORT_COLOUR_GREY), "#999999");
}

Test(report_chart, modeled_relative_by_hand)
{
    /* read: p / p_seq */
    cr_expect_float_eq(report_figures_modeled_relative("read", 0.5, 1.0), 0.5, 1e-12);
    cr_expect_float_eq(report_figures_modeled_relative("read", 0.25, 0.5), 0.5, 1e-12);
    /* copy, stride 2 under full seq efficiency: load 2R, store R against
     * seq's R + R: 2R / 3R */
    cr_expect_float_eq(report_figures_modeled_relative("copy", 0.5, 1.0), 2.0 / 3.0, 1e-12);
    cr_expect_float_eq(report_figures_modeled_relative("copy", 1.0, 1.0), 1.0, 1e-12);
    cr_expect(isnan(report_figures_modeled_relative("copy", NAN, 1.0)));
    cr_expect(isnan(report_figures_modeled_relative("read", 0.5, 0.0)));
}

static results_merged *load(const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tu_source_root(), rel);
    const char *paths[1] = { path };
    results_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_load_paths(paths, 1, &m, &err), BW_OK, "%s", bw_error_text(&err));
    return m;
}

static char *render(const results_merged *m)
{
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    report_html_options o = { "test <report>", "2026-11-30T12:00:00Z", 0, NULL };
    cr_assert_eq(report_html_render(m, &o, &b, &err), BW_OK, "%s", bw_error_text(&err));
    return bw_buf_steal(&b);
}

/* The page fetches nothing: no script, no stylesheet or image to load, no
 * reference but to its own fragments. */
static void expect_self_contained(const char *html)
{
    const char *banned[] = { "<script", "<link", "<img", "<iframe", "<object", "<embed",
                             "@import", "src=", "href=", "<use", "@font-face" };
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
        cr_expect_null(strstr(html, banned[i]), "the page holds '%s'", banned[i]);
    cr_expect_eq(count_of(html, "url("), count_of(html, "url(#"), "url() only to its own fragments");
}

Test(report_chart, samples_every_chart_with_its_points, .timeout = 60)
{
    results_merged *m = load("tests/data/results");
    cr_assert_eq(m->n_devices, 4,
                 "PoCL, the write run's PoCL device, the MI300X sample and the H100 sample (two files)");
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_merge_apply_nominal(m, &err), BW_OK, "%s", bw_error_text(&err));
    char *html = render(m);
    expect_self_contained(html);
    cr_expect(strstr(html, "<title>test &lt;report&gt;</title>"));
    /* 1. strides 1, 2, 4, .., 64 (7) on 3 devices, measured and modeled,
     * in each of copy and read: 42 points a chart; the write run
     * (pocl-cpu-write.json) adds stride:s=2 measured and modeled in copy,
     * read and write, the write panel's only points: 84 + 3 x 2 */
    cr_expect_eq(count_in_figure(html, "stride", "<svg class=\"chart\""), 3);
    cr_expect_eq(count_in_figure(html, "stride", "class=\"pt\""), 90);
    /* 2. every global pattern but seq with a relative_to_seq, per device
     * and mode (a script over the four files: 67), and the write run's
     * stride:s=2, offset:bytes=4 and reverse in each of its three modes */
    cr_expect_eq(count_in_figure(html, "model", "class=\"pt\""), 76);
    /* 3. the H100's nvidia profile (W = 32, S = 32 B, L = 128 B): lanes +
     * touched sectors: seq 32 + 4, offset:bytes=4 32 + 5 (bytes 4..131),
     * stride:s=2 32 + 8, reverse 32 + 4, broadcast 32 + 1, matrix-col 32
     * + 32 = 246 */
    cr_expect_eq(count_in_figure(html, "ramp", "<svg class=\"chart\""), 6);
    cr_expect_eq(count_in_figure(html, "ramp", "class=\"pt\""), 246);
    /* 4. three runs carry a roofline of 11 sweep points */
    cr_expect_eq(count_in_figure(html, "roofline", "class=\"pt\""), 33);
    /* 5. three bank items with ways and local GB/s (PoCL's file) */
    cr_expect_eq(count_in_figure(html, "bank", "class=\"pt\""), 3);
    /* nominal peaks: the H100 sample's seq 3050 GB/s of the nominal
     * 3350 GB/s is 91.04%; its roofline's 51000 GFLOP/s of 67000 is 76.12% */
    cr_expect(strstr(html, "<td class=\"num\">91.04%</td>"));
    cr_expect(strstr(html, "<td class=\"num\">76.12%</td>"));
    free(html);
    results_merged_free(m);
}

Test(report_chart, absent_figures_say_why, .timeout = 60)
{
    results_merged *m = load("tests/data/results/sample-amd-mi300x.json");
    char *html = render(m);
    expect_self_contained(html);
    cr_expect_eq(count_in_figure(html, "roofline", "<svg"), 0);
    cr_expect_eq(count_in_figure(html, "roofline", "class=\"absent\""), 1);
    cr_expect_eq(count_in_figure(html, "bank", "<svg"), 0);
    cr_expect_eq(count_in_figure(html, "bank", "class=\"absent\""), 1);
    /* the ramp under amd-cdna3 (W = 64, S = L = 128 B): seq 64 + 2,
     * offset 64 + 3 (bytes 4..259), stride:s=2 64 + 4, reverse 64 + 2,
     * broadcast 64 + 1, matrix-col 64 + 64 = 460 */
    cr_expect_eq(count_in_figure(html, "ramp", "class=\"pt\""), 460);
    free(html);
    results_merged_free(m);
}

/* ---- the commands ------------------------------------------------------ */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    bw_buf b = BW_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bw_buf_putn(&b, chunk, n);
    fclose(f);
    return bw_buf_steal(&b);
}

Test(report_cli, no_inputs_is_a_usage_error)
{
    tu_result r = tu_exec((const char *[]){ "report", "--output", "x.html", NULL }, NULL);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "no result files given"), "%s", r.err);
    tu_result_free(&r);
}

Test(report_cli, a_bad_input_is_named_and_the_others_reported, .timeout = 60)
{
    char *dir = tu_temp_dir();
    cr_assert(dir);
    tu_write_file(dir, "broken.json", "{ \"schema\": ");
    char bad[4200], good[4200], out[4200];
    snprintf(bad, sizeof bad, "%s/broken.json", dir);
    snprintf(good, sizeof good, "%s/tests/data/results/sample-nvidia-h100.json", tu_source_root());
    snprintf(out, sizeof out, "%s/r.html", dir);
    tu_result r = tu_exec((const char *[]){ "report", good, bad, "--output", out, NULL }, NULL);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, bad), "the bad file is named: %s", r.err);
    char *html = read_text(out);
    cr_assert(html, "the page was still written");
    cr_expect(strstr(html, "NVIDIA H100"), "with the good file's device");
    cr_expect(strstr(html, "broken.json"), "and the skipped file named in the page");
    free(html);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(report_cli, an_unwritable_output_fails)
{
    char good[4200];
    snprintf(good, sizeof good, "%s/tests/data/results/sample-nvidia-h100.json", tu_source_root());
    tu_result r = tu_exec((const char *[]){ "report", good, "--output", "/nonexistent-dir/r.html", NULL },
                          NULL);
    cr_expect_eq(r.status, 1, "%s", r.err);
    cr_expect(strstr(r.err, "/nonexistent-dir/r.html"), "%s", r.err);
    tu_result_free(&r);
}

/* Reads data, never devices: no OpenCL driver at all (an empty vendors
 * directory) and the page is still written. */
Test(report_cli, needs_no_opencl, .timeout = 60)
{
    char *dir = tu_temp_dir();
    cr_assert(dir);
    char env[4200], samples[4200];
    snprintf(env, sizeof env, "OCL_ICD_VENDORS=%s", dir);
    snprintf(samples, sizeof samples, "%s/tests/data/results", tu_source_root());
    tu_result r = tu_exec((const char *[]){ "report", samples, NULL }, (const char *[]){ env, NULL });
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "data-figure=\"ramp\""));
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* bwlab run --report: the page of the run just measured, besides its
 * JSON on standard output. seq and stride:s=2 in copy mode, no roofline:
 * the stride chart has stride 2 measured and modeled (2 points), the
 * scatter stride 2 alone (1), no roofline and no bank chart. */
Test(report_cli, run_writes_the_report_of_its_run, .timeout = 300)
{
    char *dir = tu_temp_dir();
    cr_assert(dir);
    char out[4200];
    snprintf(out, sizeof out, "%s/run.html", dir);
    tu_result r = tu_exec((const char *[]){ "run", "--device", "cpu", "--pattern", "seq,stride:s=2", "--size",
                                            "16M", "--budget", "0.3", "--no-roofline", "--quiet",
                                            "--format", "json", "--report", out, NULL },
                          NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\"schema\": \"bwlab.results\""), "the results still go to stdout");
    char *html = read_text(out);
    cr_assert(html, "the report was written to %s", out);
    cr_expect_eq(count_in_figure(html, "stride", "class=\"pt\""), 2);
    cr_expect_eq(count_in_figure(html, "model", "class=\"pt\""), 1);
    cr_expect_eq(count_in_figure(html, "roofline", "<svg"), 0);
    cr_expect_eq(count_in_figure(html, "bank", "<svg"), 0);
    cr_expect(strstr(html, "<td>this run</td>"), "the run is named, not a temporary file");
    cr_expect_null(strstr(html, "bwlab-report-"), "no temporary file name in the page");
    expect_self_contained(html);
    free(html);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* The write run (pocl-cpu-write.json: seq, stride:s=2, offset:bytes=4 and
 * reverse in read, copy and write mode): chart 1 has a write panel with
 * stride:s=2's write point, measured and modeled, and chart 2 plots its
 * three write patterns beside the copy and read ones. */
Test(report_chart, write_rows_get_a_panel_and_points, .timeout = 60)
{
    results_merged *m = load("tests/data/results/pocl-cpu-write.json");
    char *html = render(m);
    expect_self_contained(html);
    cr_expect_eq(count_in_figure(html, "stride", "<svg class=\"chart\""), 3, "copy, read and write panels");
    cr_expect_eq(count_in_figure(html, "stride", "id=\"stride-write\""), 1);
    cr_expect(strstr(html, "Effective bandwidth against stride, write access"));
    /* the file's stride:s=2 write: 6.35810563710415 GB/s */
    cr_expect(strstr(html, "stride:s=2, write: 6.358 GB/s measured (median of 1)"), "the write point");
    /* modeled: the stores' efficiency 0.5 against seq write's 0.5 is
     * 2 x 0.5 / (0.5 + 0.5) = 1 x seq write's 9.96341253026859 GB/s */
    cr_expect(strstr(html, "stride:s=2, write: 9.963 GB/s modeled"), "the modeled write point");
    /* chart 2: one point per pattern but seq and mode, 3 x 3; the write
     * ones are squares, named in the legend */
    cr_expect_eq(count_in_figure(html, "model", "class=\"pt\""), 9);
    cr_expect_eq(count_in_figure(html, "model", ", write: "), 3);
    cr_expect(strstr(html, "squares: write access"));
    /* offset:bytes=4 write: relative_to_seq 1.00524481056965 (measured);
     * modeled 2 x 1/3 / (1/3 + 1/2) = 0.8, the stores' 1/3 against seq's 1/2 */
    cr_expect(strstr(html, "offset:bytes=4, write: 1.005 relative to seq (measured), 0.800 (modeled)"), "%s",
              "the write point of chart 2");
    free(html);
    results_merged_free(m);
}
