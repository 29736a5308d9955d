/* Probe figures in `bwlab compare` and `bwlab report`: the checked-in probe
 * files (tests/data/probe: a real PoCL quick probe and an edited H100
 * sample) merged beside the run samples (tests/data/results), a run file
 * with --transfers figures, bad probe files, and the three probe charts.
 * Expected cells and point counts are worked out from the files' JSON
 * (by hand, or a python3 script over them noted beside each), never copied
 * from bwlab's output. Every command runs with an empty OCL_ICD_VENDORS:
 * compare and report read files only. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "report_figures.h"
#include "report_html.h"
#include "results_merge.h"
#include "test_util.h"
#include "results_merge_priv.h"

static char *src(const char *rel)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 1024, "%s/tests/data/%s", tu_source_root(), rel);
    return b;
}

static tu_result run_cmd(const char *cmd, const char *const *args)
{
    return tu_exec_without_opencl(cmd, args);
}

#define POCL "AMD pthread-skylake-avx512-AMD.. [3.1+debian]"
#define H100 "NVIDIA H100 80GB HBM3 [550.54.15]"
#define MI300X "AMD Instinct MI300X [3625.0]"

/* the line of text that holds all of a, b, c (NULL: any) */
static int has_line(const char *text, const char *a, const char *b, const char *c)
{
    const char *p = text;
    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, n);
        int ok = strstr(line, a) && (!b || strstr(line, b)) && (!c || strstr(line, c));
        free(line);
        if (ok)
            return 1;
        p = nl ? nl + 1 : NULL;
    }
    return 0;
}

Test(compare_probe, probe_files_attach_to_the_run_devices)
{
    const char *args[] = { src("results"), src("probe"), NULL };
    tu_result r = run_cmd("compare", args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    /* four devices still (the write run's PoCL device is the fourth): the
     * PoCL probe names the PoCL run's device, the H100 probe sample the
     * H100 run samples' */
    cr_expect(strstr(r.out, "4 devices, 5 runs"), "%s", r.out);
    cr_expect(strstr(r.out, "probe 1: "), "the legend lists the probe files");
    /* the unit table: PoCL 64 B inferred and profile sector and line 64 B,
     * launch 29.724 us; the H100 sample 32 B, 32 B, 128 B, 6.5 us; the
     * MI300X has no probe: not measured */
    cr_expect(has_line(r.out, POCL "  probe 1", "29.72", "62.01 (4096 B)"), "%s", r.out);
    cr_expect(has_line(r.out, H100 "              probe 2", " 32 ", "6.50"), "%s", r.out);
    cr_expect(has_line(r.out, MI300X, "not measured", NULL));
    /* cache levels: PoCL's second level, 741376 B, 113.215599505898 GB/s,
     * 3.59920120239258 ns; the H100 sample's memory plateau 3000 GB/s,
     * 600 ns */
    cr_expect(has_line(r.out, POCL, "741376", "113.22"), "%s", r.out);
    cr_expect(has_line(r.out, POCL, "741376", "3.60"));
    cr_expect(has_line(r.out, H100, "memory", "3000.00"));
    /* transfers at the largest size (16 MiB): the H100 sample's pinned
     * blocking h2d copy, 8 us + 16777216 B / 25 GB/s = 679.08864 us, so
     * 16777216 / 679.08864 us = 24.705 GB/s; PoCL's d2h pinned blocking
     * copy 5.98274131333335 GB/s, 2804.269 us */
    cr_expect(has_line(r.out, H100, "h2d        pinned    yes       16777216", "24.705"), "%s", r.out);
    cr_expect(has_line(r.out, POCL, "d2h        pinned    yes", "5.983"));
    cr_expect(has_line(r.out, POCL, "d2h        pinned    yes", "2804.27"));
    tu_result_free(&r);
}

Test(compare_probe, markdown_and_json_carry_the_probe)
{
    const char *margs[] = { src("probe"), "--format", "md", NULL };
    tu_result r = run_cmd("compare", margs);
    cr_assert_eq(r.status, 0, "probe files alone compare: exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "## Probe: cache levels (measured)"));
    cr_expect(strstr(r.out, "| " H100 " | probe 2 | 32 | 32 | 128 | 6.50 | 8.33 (4096 B) |"), "%s", r.out);
    tu_result_free(&r);

    const char *jargs[] = { src("results/pocl-cpu.json"), src("probe/pocl-cpu-probe.json"), "--format", "json", NULL };
    r = run_cmd("compare", jargs);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    cr_assert(j, "%s", je.text);
    cr_expect_eq(json_array_size(json_object_get(j, "devices")), 1, "the probe names the run's device");
    json_t *p = json_array_get(json_object_get(j, "probes"), 0);
    cr_assert(p);
    cr_expect_str_eq(json_string_value(json_object_get(p, "device")), POCL);
    cr_expect_str_eq(json_string_value(json_object_get(p, "source")), "probe");
    cr_expect_eq(json_integer_value(json_object_get(p, "inferred_unit_bytes")), 64);
    /* the file holds 29 ladder sizes, 4 levels and 56 transfers */
    cr_expect_eq(json_array_size(json_object_get(p, "ladder")), 29);
    cr_expect_eq(json_array_size(json_object_get(p, "cache_levels")), 4);
    cr_expect_eq(json_array_size(json_object_get(p, "transfers")), 56);
    json_t *l0 = json_array_get(json_object_get(p, "cache_levels"), 0);
    cr_expect_eq(json_integer_value(json_object_get(l0, "size_bytes")), 16384);
    cr_expect_float_eq(json_real_value(json_object_get(l0, "read_gbs")), 111.473555520119, 1e-12);
    cr_expect_float_eq(json_number_value(json_object_get(p, "launch_latency_us")), 29.724, 1e-12);
    json_decref(j);
    tu_result_free(&r);
}

Test(compare_probe, csv_keeps_its_pattern_rows_only)
{
    const char *a[] = { src("results"), "--format", "csv", NULL };
    const char *b[] = { src("results"), src("probe"), "--format", "csv", NULL };
    tu_result r1 = run_cmd("compare", a), r2 = run_cmd("compare", b);
    cr_assert_eq(r2.status, 0, "%s", r2.err);
    cr_expect_str_eq(r2.out, r1.out, "probe figures add no CSV row or column (docs/compare.md)");
    tu_result_free(&r1);
    tu_result_free(&r2);
}

/* pocl-cpu.json with runs[0] given --transfers figures: two copies and a
 * launch latency */
static char *run_with_transfers(const char *dir)
{
    json_error_t je;
    json_t *d = json_load_file(src("results/pocl-cpu.json"), 0, &je);
    cr_assert(d, "%s", je.text);
    json_t *run = json_array_get(json_object_get(d, "runs"), 0);
    json_object_set_new(run, "transfers",
                        json_pack("[{s:s,s:s,s:b,s:i,s:f,s:f},{s:s,s:s,s:b,s:i,s:f,s:f}]", "direction", "h2d",
                                  "memory", "pageable", "blocking", 1, "bytes", 4096, "gbs", 0.5, "us", 8.192,
                                  "direction", "h2d", "memory", "pageable", "blocking", 1, "bytes", 1048576,
                                  "gbs", 8.0, "us", 131.072));
    json_object_set_new(run, "launch_latency_us", json_real(12.5));
    char *text = json_dumps(d, 0);
    json_decref(d);
    tu_write_file(dir, "transfers-run.json", text);
    free(text);
    static char path[1200];
    snprintf(path, sizeof path, "%s/transfers-run.json", dir);
    return path;
}

Test(compare_probe, run_transfers_merge_and_older_runs_are_not_measured)
{
    char *dir = tu_temp_dir();
    char *path = run_with_transfers(dir);
    const char *args[] = { path, src("results/sample-amd-mi300x.json"), NULL };
    tu_result r = run_cmd("compare", args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* the largest copy: 1048576 B at 8 GB/s, 131.072 us; launch 12.5 us */
    cr_expect(has_line(r.out, POCL "  run 1 --transfers", "12.50", NULL), "%s", r.out);
    cr_expect(has_line(r.out, POCL, "1048576", "8.000"), "%s", r.out);
    cr_expect(has_line(r.out, MI300X, "not measured", NULL), "an older run without transfers");
    cr_expect(!has_line(r.out, MI300X, " 0.00", NULL), "never 0");
    tu_result_free(&r);

    const char *jargs[] = { path, src("results/sample-amd-mi300x.json"), "--format", "json", NULL };
    r = run_cmd("compare", jargs);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    json_t *probes = json_object_get(j, "probes");
    cr_expect_eq(json_array_size(probes), 1, "the MI300X sample holds no probe figures: no record");
    json_t *p = json_array_get(probes, 0);
    cr_expect_str_eq(json_string_value(json_object_get(p, "source")), "run");
    cr_expect(json_is_null(json_object_get(p, "inferred_unit_bytes")), "a run infers no unit: null, not 0");
    cr_expect(json_is_null(json_object_get(p, "memory")));
    cr_expect_eq(json_array_size(json_object_get(p, "transfers")), 2);
    json_decref(j);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* a bad probe file beside a good run file: exit 2, named, the good one
 * still compared */
static void bad_probe(const char *name, const char *from, const char *to, const char *expect)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = fopen(src("probe/sample-nvidia-h100-probe.json"), "rb");
    cr_assert(f);
    bw_buf b = BW_BUF_INIT;
    char chunk[65536];
    while ((len = fread(chunk, 1, sizeof chunk, f)) > 0)
        bw_buf_putn(&b, chunk, len);
    fclose(f);
    text = bw_buf_steal(&b);
    char *at = strstr(text, from);
    cr_assert(at, "'%s' is in the sample", from);
    bw_buf e = BW_BUF_INIT;
    bw_buf_printf(&e, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    char *dir = tu_temp_dir();
    tu_write_file(dir, name, bw_buf_str(&e));
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *args[] = { src("results/sample-amd-mi300x.json"), path, NULL };
    tu_result r = run_cmd("compare", args);
    cr_expect_eq(r.status, 2, "%s: exit %d", name, r.status);
    char want[1400];
    snprintf(want, sizeof want, "bwlab compare: error: %s: %s", path, expect);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    cr_expect(strstr(r.out, "2400.00 (0.60)"), "the good file is still compared:\n%s", r.out);
    cr_expect(!strstr(r.out, "Probe:"), "nothing of the bad probe file is merged");
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
    free(text);
    bw_buf_free(&e);
}

Test(compare_probe, bad_probe_files_are_named)
{
    bad_probe("future.json", "\"schema_version\": 1", "\"schema_version\": 9", "unknown probe schema_version 9");
    bad_probe("mistyped.json", "\"read_gbs\": 9000.0", "\"read_gbs\": \"fast\"",
              "devices[0].cache_levels[0].read_gbs is a string, expected a number or null");
    bad_probe("nodevices.json", "\"devices\": [", "\"gone\": [", "top level.devices is missing");
    bad_probe("blocking.json", "\"blocking\": true", "\"blocking\": 1",
              "devices[0].transfers[0].blocking is an integer, expected true or false");
    bad_probe("transfers.json", "\"transfers\": [", "\"transfers\": 3, \"x\": [",
              "devices[0].transfers is an integer, expected an array");
}

Test(compare_probe, a_probe_without_devices_is_named)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "empty-probe.json", "{\"schema\": \"bwlab.probe-results\", \"schema_version\": 1, \"devices\": []}");
    char path[1200];
    snprintf(path, sizeof path, "%s/empty-probe.json", dir);
    const char *args[] = { path, NULL };
    tu_result r = run_cmd("compare", args);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "no results (devices[] is empty"), "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* ---- the report's probe charts --------------------------------------- */

static size_t count_in_figure(const char *html, const char *id, const char *needle)
{
    char key[64];
    snprintf(key, sizeof key, "data-figure=\"%s\"", id);
    const char *start = strstr(html, key);
    cr_assert(start, "figure %s is in the page", id);
    const char *end = strstr(start + 1, "data-figure=");
    size_t n = 0;
    for (const char *p = strstr(start, needle); p && (!end || p < end); p = strstr(p + 1, needle))
        n++;
    return n;
}

static char *render_paths(const char *const *paths, size_t n)
{
    results_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_load_paths(paths, n, &m, &err), BW_OK, "%s", bw_error_text(&err));
    bw_buf b = BW_BUF_INIT;
    report_html_options o = { "probe charts", NULL, 0, NULL };
    cr_assert_eq(report_html_render(m, &o, &b, &err), BW_OK, "%s", bw_error_text(&err));
    results_merged_free(m);
    return bw_buf_steal(&b);
}

Test(compare_probe, report_draws_the_three_probe_charts, .timeout = 60)
{
    const char *paths[] = { src("results"), src("probe") };
    char *html = render_paths(paths, 2);
    /* python3 over the files in tests/data/probe: cache ladder = ladder points
     * (29 PoCL + 18 H100) + detected levels (4 + 2) = 53; latency = both
     * latencies of every ladder point, 2 x 47 = 94; transfers = every
     * copy, 56 + 56 = 112 */
    cr_expect_eq(count_in_figure(html, "cache", "<svg class=\"chart\""), 1);
    cr_expect_eq(count_in_figure(html, "cache", "class=\"pt\""), 53);
    cr_expect_eq(count_in_figure(html, "latency", "class=\"pt\""), 94);
    cr_expect_eq(count_in_figure(html, "transfers", "class=\"pt\""), 112);
    /* one series per (device, direction, memory, blocking): 2 x 8 legend
     * entries; the other figures unchanged by the probe files */
    cr_expect_eq(count_in_figure(html, "transfers", ", h2d, pinned, blocking</text>"), 2);
    cr_expect_eq(count_in_figure(html, "stride", "class=\"pt\""), 90); /* as in test_report_chart.c */
    /* tooltips: exact value and kind; the PoCL ladder's 16384 B point
     * reads 111.936163114984 GB/s, its level 1 (16384 B) 111.473555520119
     * GB/s and 1.35512161254883 ns */
    cr_expect(strstr(html, POCL ": 16384 B working set (requested): 111.936 GB/s read (measured)"));
    cr_expect(strstr(html, POCL ": cache level 1 (measured): plateau up to 16384 B, 111.474 GB/s read, 1.355 ns"));
    cr_expect(strstr(html, H100 ": 16777216 B host to device, pinned, blocking (requested): 24.705 GB/s"));
    /* axis labels with units, byte ticks in binary units */
    cr_expect(strstr(html, "working set (bytes, requested; log2 scale)"));
    cr_expect(strstr(html, ">16 MiB</text>"));
    /* the provenance lists each probe record: the H100 sample's unit 32 B
     * under the nvidia profile (32 B sectors, 128 B lines), its two levels */
    cr_expect(strstr(html, "<table id=\"probe-table\">"));
    cr_expect(strstr(html, "<td class=\"num\">32</td><td class=\"num\">32, 128</td><td class=\"num\">6.50</td>"
                           "<td>level 1: 65536 B, 9000.00 GB/s, 30.00 ns<br>level 2: 33554432 B"));
    free(html);
}

Test(compare_probe, report_leaves_probe_charts_out_without_data, .timeout = 60)
{
    const char *paths[] = { src("results/sample-amd-mi300x.json") };
    char *html = render_paths(paths, 1);
    const char *ids[] = { "cache", "latency", "transfers" };
    for (size_t i = 0; i < 3; i++) {
        cr_expect_eq(count_in_figure(html, ids[i], "<svg"), 0, "%s", ids[i]);
        cr_expect_eq(count_in_figure(html, ids[i], "class=\"absent\">Not drawn: The inputs carry no"), 1, "%s",
                     ids[i]);
    }
    free(html);

    /* a run with --transfers: the transfer chart only (its 2 copies) */
    char *dir = tu_temp_dir();
    const char *p2[] = { run_with_transfers(dir) };
    html = render_paths(p2, 1);
    cr_expect_eq(count_in_figure(html, "transfers", "class=\"pt\""), 2);
    cr_expect_eq(count_in_figure(html, "cache", "<svg"), 0);
    free(html);
    tu_rmdir(dir);
    free(dir);
}
