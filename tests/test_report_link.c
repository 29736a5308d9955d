/* `bwlab compare` and `bwlab report` link no OpenCL code: this binary links
 * the report's rendering library alone (tests/meson.build gives it
 * bw_report_dep: results, model, base; no bench, no ocl), renders the
 * comparison and the HTML page of recorded result files through the very
 * calls those commands make, and finds no OpenCL library in its process. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "report_compare.h"
#include "report_html.h"
#include "report_probe.h"
#include "report_roofline.h"
#include "report_run.h"
#include "report_tune.h"
#include "results_merge.h"
#include "test_util.h"
#include "results_merge_priv.h"
#include "report_roofline_priv.h"

static results_merged *load_samples(void)
{
    static char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/tests/data/results/%s", tu_source_root(), "sample-nvidia-h100.json");
    snprintf(b, sizeof b, "%s/tests/data/results/%s", tu_source_root(), "sample-amd-mi300x.json");
    const char *paths[] = { a, b };
    results_merged *m = NULL;
    cr_assert_eq(results_load_paths(paths, 2, &m, NULL), BW_OK);
    return m;
}

Test(report_link, compare_renders_without_opencl)
{
    char found[512];
    cr_expect(!tu_loaded_library("libOpenCL", found, sizeof found), "the report's rendering loaded %s", found);
    results_merged *m = load_samples();
    report_compare_opts o = { NULL, 0, NULL, "2026-01-01T00:00:00Z" };
    bw_buf b = BW_BUF_INIT;
    report_compare_table(m, &o, &b);
    /* both devices' seq copy figures, as the sample files hold them, each 1.00 of itself */
    cr_expect(strstr(bw_buf_str(&b), "3000.00 (1.00)"), "%s", bw_buf_str(&b));
    cr_expect(strstr(bw_buf_str(&b), "4000.00 (1.00)"), "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    results_merged_free(m);
}

Test(report_link, the_html_report_renders_without_opencl)
{
    results_merged *m = load_samples();
    report_html_options o = { "link test", NULL, 0, NULL };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(report_html_render(m, &o, &b, NULL), BW_OK);
    cr_expect(strstr(bw_buf_str(&b), "<svg"), "the page has its charts");
    cr_expect(strstr(bw_buf_str(&b), "link test"));
    bw_buf_free(&b);
    results_merged_free(m);
}

/* `bwlab tune`'s table is rendered from its document alone: a hand-written
 * document of three devices (tuned now, from the cache, failed) gives the
 * lines worked out here from its fields. */
Test(report_link, tune_table_renders_from_its_document)
{
    static const char doc_text[] =
        "{\"schema\": \"bwlab.tune-results\", \"cache_file\": \"/c/tune.json\", \"devices\": ["
        " {\"device\": {\"index\": 0, \"default\": true, \"name\": \"Dev A\", \"platform\": \"P\","
        "   \"driver_version\": \"1.0\"}, \"status\": \"tuned\", \"failure\": null,"
        "  \"date\": \"2026-01-01T00:00:00Z\", \"buffer_bytes\": 134217728, \"working_set_source\": \"--size\","
        "  \"read\": {\"vector_width\": 4, \"elems_per_item\": 16, \"local_size\": 256, \"layout\": \"grid\","
        "    \"gbs\": 20.734},"
        "  \"copy\": null, \"plausibility\": {\"read\": \"above the device's nominal 10.0 GB/s: cache or "
        "compression?\", \"copy\": null},"
        "  \"cache_note\": \"stored in /c/tune.json\","
        "  \"search\": {\"budget_s\": 2, \"elapsed_s\": 3.84, \"stages\": 1, \"final_rounds\": 1,"
        "    \"budget_ended\": true, \"interrupted\": false, \"candidates\": ["
        "     {\"family\": \"read\", \"stage\": 1, \"vector_width\": 4, \"elems_per_item\": 16, \"local_size\": 256,"
        "      \"layout\": \"grid\", \"status\": \"ok\", \"failure\": null, \"finalist\": true, \"best\": true,"
        "      \"gbs\": 20.734, \"time_ns\": {\"median\": 6532100, \"count\": 4}},"
        "     {\"family\": \"copy\", \"stage\": 1, \"vector_width\": 1, \"elems_per_item\": 2, \"local_size\": 64,"
        "      \"layout\": \"block\", \"status\": \"failed\", \"failure\": \"build failed\", \"finalist\": false,"
        "      \"best\": false, \"gbs\": null, \"time_ns\": {\"median\": null, \"count\": 0}}]}},"
        " {\"device\": {\"index\": 1, \"default\": false, \"name\": \"Dev B\", \"platform\": \"Q\","
        "   \"driver_version\": \"2\"}, \"status\": \"cached\", \"failure\": null,"
        "  \"date\": \"2025-05-05T00:00:00Z\", \"buffer_bytes\": 1048576, \"working_set_source\": null,"
        "  \"read\": {\"vector_width\": 1, \"elems_per_item\": 1, \"local_size\": 128, \"layout\": \"block\","
        "    \"gbs\": 5.06},"
        "  \"copy\": {\"vector_width\": 2, \"elems_per_item\": 8, \"local_size\": 64, \"layout\": \"contiguous\","
        "    \"gbs\": 7.25}, \"plausibility\": {\"read\": null, \"copy\": null}, \"cache_note\": null,"
        "  \"search\": null},"
        " {\"device\": {\"index\": 2, \"default\": false, \"name\": \"Dev C\", \"platform\": \"R\","
        "   \"driver_version\": \"3\"}, \"status\": \"failed\", \"failure\": \"out of device memory\"}]}";
    char found[512];
    cr_expect(!tu_loaded_library("libOpenCL", found, sizeof found), "the report's rendering loaded %s", found);
    json_error_t je;
    json_t *doc = json_loads(doc_text, 0, &je);
    cr_assert(doc, "%s", je.text);
    bw_buf b = BW_BUF_INIT;
    report_tune_table(doc, &b);
    const char *t = bw_buf_str(&b);
    static const char *const lines[] = {
        "device 0 (default): Dev A (P, driver 1.0)\n"
        "tuned now: 128.00 MiB buffers (--size); 2 kernel shapes in 1 of 4 search stages, 1 final rounds, 3.8 s of "
        "a 2.0 s budget; later stages skipped for the budget\n"
        "  peak read     20.73 GB/s  measured, with uint4 x 16 per work-item, 256 per group, grid layout; above "
        "the device's nominal 10.0 GB/s: cache or compression?\n"
        "  peak copy  not measured: no kernel shape of this family validated and timed\n"
        "  cache: stored in /c/tune.json\n",
        /* 6532100 ns is 6532.1 µs */
        "  read        1  uint4   16    256  grid           20.73      6532.1 µs  ok, 4 launches, BEST\n",
        "  copy        1  uint    2      64  block              -              -  build failed\n",
        "\ndevice 1: Dev B (Q, driver 2)\n"
        "from the cache (tuned on 2025-05-05T00:00:00Z, 1.00 MiB buffers); --retune measures again\n"
        "  peak read      5.06 GB/s  measured, with uint x 1 per work-item, 128 per group, block layout\n"
        "  peak copy      7.25 GB/s  measured, with uint2 x 8 per work-item, 64 per group, contiguous layout\n"
        "\ndevice 2: Dev C (R, driver 3)\nFAILED: out of device memory\n",
        "Cache: /c/tune.json\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        cr_expect(strstr(t, lines[i]), "missing:\n%s\nin:\n%s", lines[i], t);
    bw_buf_free(&b);
    json_decref(doc);
}

/* `bwlab roofline`'s table, CSV and `bwlab run`'s short roofline are
 * rendered from the document alone: a hand-written one-device document
 * (one sweep point, one measured tile, one skipped) gives the lines worked
 * out here from its fields. */
Test(report_link, roofline_renders_from_its_document)
{
    static const char doc_text[] =
        "{\"schema\": \"bwlab.roofline-results\", \"budget_s\": 5, \"devices\": [{"
        " \"device\": {\"index\": 0, \"default\": true, \"name\": \"D\", \"platform\": \"P\", \"driver_version\": \"1\"},"
        " \"status\": \"measured\", \"failure\": null, \"interrupted\": false, \"budget_note\": null,"
        " \"buffer_bytes\": 33554432, \"peak_gflops\": 100, \"peak_gbs\": 25, \"ridge_intensity\": 4,"
        " \"measured_ridge_intensity\": 4.5, \"slope_gbs\": 24, \"plateau_gflops\": 108,"
        " \"peak_fma\": {\"items\": 4096, \"vector_width\": 8, \"chains\": 4, \"iterations\": 64, \"flop\": 8388608,"
        "  \"bytes\": 0, \"time_ns\": {\"median\": 83886.08, \"count\": 10}, \"gflops\": 100, \"gbs\": null},"
        " \"peak_read\": {\"items\": 1024, \"vector_width\": 8, \"k\": 0, \"flop\": 0, \"bytes\": 33554432,"
        "  \"time_ns\": {\"median\": 1342177.28, \"count\": 10}, \"gflops\": null, \"gbs\": 25},"
        " \"points\": [{\"k\": 2, \"items\": 1024, \"flop\": 4, \"bytes\": 33554432, \"intensity\": 1, \"gflops\": 20,"
        "  \"gbs\": 20, \"attainable_gflops\": 25, \"bound\": \"memory\","
        "  \"time_ns\": {\"median\": 1677721.6, \"count\": 5}}],"
        " \"matmul\": [{\"tile\": 8, \"measured\": true, \"n\": 64, \"items\": 4096, \"flop\": 524288, \"intensity\": 2,"
        "  \"gflops\": 10, \"attainable_gflops\": 50, \"bound\": \"memory\","
        "  \"time_ns\": {\"median\": 52428.8, \"count\": 3}},"
        "  {\"tile\": 16, \"measured\": false, \"skipped\": \"budget\"}],"
        " \"rounds\": 7, \"elapsed_s\": 2.3}]}";
    json_error_t je;
    json_t *doc = json_loads(doc_text, 0, &je);
    cr_assert(doc, "%s", je.text);
    bw_buf t = BW_BUF_INIT, c = BW_BUF_INIT, b = BW_BUF_INIT;
    report_roofline_table(doc, &t);
    report_roofline_csv(doc, &c);
    report_roofline_brief(json_array_get(json_object_get(doc, "devices"), 0), "  ", 0, &b);
    static const char *const table[] = {
        "device 0 (default): D (P, driver 1)\n"
        "  peak compute        100.00 GFLOP/s  measured: rf_peak, 4 FMA chains of float8 per work-item, 64 "
        "iterations, 4096 work-items\n"
        "  peak bandwidth       25.00 GB/s     measured: rf_sweep with 0 FMAs, a streaming read of 32.00 MiB\n"
        "  ridge                4.00 FLOP/B   modeled: peak compute / peak bandwidth (model_roofline)\n"
        "  measured ridge       4.50 FLOP/B   measured: sweep plateau 108.00 GFLOP/s / sweep slope 24.00 GB/s\n"
        "  7 rounds in 2.3 s of a 5.0 s budget\n",
        "     2        1.0         32M       20.00       20.00       25.00  80.0%  memory\n",
        "     8    64       10.00       2.00       50.00  20.0%  memory\n"
        "    16  not measured: budget\n",
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        cr_expect(strstr(bw_buf_str(&t), table[i]), "missing:\n%s\nin:\n%s", table[i], bw_buf_str(&t));
    static const char *const rows[] = {
        "\n0,D,peak-fma,0,64,0,0,4096,,8388608,0,83886.08,10,100,,,,,100,25,4,4.5\n",
        "\n0,D,peak-read,0,0,0,0,1024,,0,33554432,1342177.28,10,,25,,,,100,25,4,4.5\n",
        "\n0,D,sweep,2,0,0,0,1024,1,4,33554432,1677721.6,5,20,20,25,0.8,memory,100,25,4,4.5\n",
        "\n0,D,matmul,0,0,8,64,4096,2,524288,0,52428.8,3,10,,50,0.2,memory,100,25,4,4.5\n",
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        cr_expect(strstr(bw_buf_str(&c), rows[i]), "missing:\n%s\nin:\n%s", rows[i], bw_buf_str(&c));
    cr_expect(!strstr(bw_buf_str(&c), ",16,"), "a skipped tile has no row:\n%s", bw_buf_str(&c));
    cr_expect_str_eq(bw_buf_str(&b),
                     "  roofline (measured): peak 100.00 GFLOP/s, 25.00 GB/s read; ridge 4.00 FLOP/byte modeled from "
                     "those, 4.50 measured\n"
                     "    sweep of 1 points (k = 1 .. 2 FMAs per float) over 32.00 MiB in 2.3 s; tiled matmul "
                     "(measured): T = 8 10.00 GFLOP/s, T = 16 not measured; bwlab roofline shows each point\n");
    bw_buf_free(&t);
    bw_buf_free(&c);
    bw_buf_free(&b);
    json_decref(doc);
}

/* `bwlab probe`'s table and CSV are rendered from the document alone: the
 * recorded H100 sample gives the lines worked out here from its fields. */
Test(report_link, probe_renders_from_its_document)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/probe/sample-nvidia-h100-probe.json", tu_source_root());
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    cr_assert(doc, "%s: %s", path, je.text);
    bw_buf t = BW_BUF_INIT, c = BW_BUF_INIT;
    report_probe_table(doc, &t);
    report_probe_csv(doc, &c);
    static const char *const lines[] = {
        "device 0 (default): NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver 550.54.15)\n",
        /* 64 KiB, 9000.0 GB/s, 30 and 35 ns */
        "\n  L1       64.00 KiB          9000.0        30.00        35.00",
        "\n  h2d  pageable  blocking      4.00 KiB     0.49       8.3\n",
        "\nlaunch latency (measured, empty kernel, median of 51): 6.5 us wall clock enqueue to end; events: 3.0 us "
        "queued to start, 3.5 us queued to end\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        cr_expect(strstr(bw_buf_str(&t), lines[i]), "missing:\n%s\nin:\n%s", lines[i], bw_buf_str(&t));
    cr_expect(strstr(bw_buf_str(&c), "\n0,NVIDIA H100 80GB HBM3,transfer_h2d_pageable_blocking,4096,bytes,0.491854,"
                                     "GB/s,measured\n"),
              "%s", bw_buf_str(&c));
    bw_buf_free(&t);
    bw_buf_free(&c);
    json_decref(doc);
}

/* `bwlab run`'s table, Markdown and CSV are rendered from the document
 * alone: the recorded H100 sample (seq read and copy side by side) gives
 * the lines worked out here from its fields and the table's column widths
 * (pattern 24, each mode's GB/s 7 and vs seq 9, then best, twin x and bound
 * 8, sector eff. 13, instr. x 10, footprint x 12): a figure as wide as its
 * column keeps a space from the one before it. */
Test(report_link, run_renders_from_its_document)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/results/sample-nvidia-h100.json", tu_source_root());
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    cr_assert(doc, "%s: %s", path, je.text);
    bw_buf t = BW_BUF_INIT, md = BW_BUF_INIT, c = BW_BUF_INIT;
    report_run_table(doc, 0, &t);
    report_run_markdown(doc, 0, &md);
    report_run_csv(doc, &c);
    static const char *const lines[] = {
        "device 0 (default): NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver 550.54.15)\n"
        "profile nvidia: W = 32 lanes, sector 32 B, line 128 B; sample: the nvidia profile\n",
        /* read 2800 GB/s, copy 3000 GB/s, both 1.00 of themselves; one
         * 32-byte sector per 32 bytes requested: 100.0%, 1.00 and 1.00 */
        "\nseq                      2800.00     1.00 3000.00     1.00       -       -       -       100.0%      1.00"
        "        1.00   -\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        cr_expect(strstr(bw_buf_str(&t), lines[i]), "missing:\n%s\nin:\n%s", lines[i], bw_buf_str(&t));
    cr_expect(strstr(bw_buf_str(&md), "\n| `seq` | 2800.00 | 1.00 | 3000.00 | 1.00 | - | - | 100.0% | 1.00 | 1.00 | - |\n"),
              "%s", bw_buf_str(&md));
    /* the header row, then seq copy's row: the first columns of results_csv.h */
    cr_expect(strstr(bw_buf_str(&c), "\n0,NVIDIA H100 80GB HBM3,nvidia,seq,seq,"), "%s", bw_buf_str(&c));
    bw_buf_free(&t);
    bw_buf_free(&md);
    bw_buf_free(&c);
    json_decref(doc);
}

/* A document with keys missing or of the wrong kind (a saved file from
 * another version, a hand-edited one) renders what it holds: no renderer
 * reads past what is there. */
Test(report_link, sparse_documents_render_without_crashing)
{
    static const char *const docs[] = {
        "{}",
        "{\"runs\": [{}], \"results\": [{}], \"devices\": [{}]}",
        "{\"runs\": [{\"device\": {\"index\": 0}, \"working_set_target_bytes\": 1, \"kernel_forms\": [\"plain\", "
        "\"scalar\"], \"unroll\": 2, \"unroll_source\": \"calibration\"}], \"results\": [{\"device\": 0, "
        "\"status\": \"ok\"}, {\"device\": 0, \"status\": \"failed\", \"access\": \"read\"}, {\"device\": 0, "
        "\"family\": \"bank\", \"status\": \"ok\"}]}",
        "{\"devices\": [{\"points\": [{}], \"matmul\": [{}, {\"measured\": true}], \"ladder\": [{}], "
        "\"cache_levels\": [{}], \"memory\": {}, \"search\": {\"candidates\": [{}]}, \"date\": \"d\"}]}",
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        json_error_t je;
        json_t *doc = json_loads(docs[i], 0, &je);
        cr_assert(doc, "%s", je.text);
        bw_buf b = BW_BUF_INIT;
        report_run_table(doc, 1, &b);
        report_run_markdown(doc, 1, &b);
        report_run_csv(doc, &b);
        report_tune_table(doc, &b);
        report_roofline_table(doc, &b);
        report_roofline_md(doc, &b);
        report_roofline_csv(doc, &b);
        report_probe_table(doc, &b);
        report_probe_md(doc, &b);
        report_probe_csv(doc, &b);
        /* every run table ends with its legend */
        cr_expect(strstr(bw_buf_str(&b), "GB/s: measured, requested bytes"), "document %zu", i);
        bw_buf_free(&b);
        json_decref(doc);
    }
}
