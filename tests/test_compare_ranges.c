/* `bwlab compare` and `bwlab report` check the values of the figures they
 * read, not only their types, so that no figure is trusted blindly
 * (docs/results.md, "Valid ranges"): each kind of bad figure (a negative
 * GB/s, relative_to_seq 123 on seq, elem_bytes -1, a sector efficiency of
 * -3, status "failed" and "bogus", access null, 1e300 GB/s, a journal
 * compared alone, a subnormal 5e-324) with its message and exit status;
 * the bounded number format; the chart's own guard. Every file is a
 * checked-in sample with one field changed; the expected figures are
 * worked out by hand from the samples' numbers. */
#define _GNU_SOURCE /* strcasestr */
#include <criterion/criterion.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "report_chart.h"
#include "report_format.h"
#include "results_merge.h"
#include "results_merge_range.h"
#include "test_util.h"
#include "results_merge_range_priv.h"

#define H100 "NVIDIA H100 80GB HBM3 [550.54.15]"

static char *sample(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 1024, "%s/tests/data/%s/%s", tu_source_root(), dir, name);
    return b;
}

static tu_result compare(const char *const *args)
{
    return tu_exec_without_opencl("compare", args);
}

/* o[path] set to v (stolen); path "a.b" reaches into a nested object */
static void set_path(json_t *o, const char *path, json_t *v)
{
    const char *dot = strchr(path, '.');
    if (!dot) {
        cr_assert_eq(json_object_set_new(o, path, v), 0);
        return;
    }
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
    json_t *inner = json_object_get(o, key);
    cr_assert(json_is_object(inner), "%s is not an object", key);
    set_path(inner, dot + 1, v);
}

/* The H100 sample (tests/data/results/sample-nvidia-h100.json) with
 * results[i][path] = v, written as dir/name; returns the path (static). */
static const char *h100_with(const char *dir, const char *name, size_t i, const char *path, json_t *v)
{
    json_t *d = json_load_file(sample("results", "sample-nvidia-h100.json"), 0, NULL);
    cr_assert(d);
    set_path(json_array_get(json_object_get(d, "results"), i), path, v);
    static char out[4][1024];
    static int k;
    char *p = out[k++ % 4];
    snprintf(p, 1024, "%s/%s", dir, name);
    cr_assert_eq(json_dump_file(d, p, JSON_COMPACT), 0);
    json_decref(d);
    return p;
}

/* One bad figure in the H100 sample, compared beside the MI300X sample:
 * exit 2, the file, the row's pattern, the field, the value and the range
 * named on stderr ("FILE: results[I] (pattern 'P'): WHAT"), and the rest
 * still compared. Returns the run (caller frees) for more checks. */
static tu_result one_bad(const char *name, size_t i, const char *path, json_t *v, const char *what)
{
    char *dir = tu_temp_dir();
    const char *bad = h100_with(dir, name, i, path, v);
    const char *args[] = { sample("results", "sample-amd-mi300x.json"), bad, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2, "%s: exit %d: %s", name, r.status, r.err);
    char want[1600];
    snprintf(want, sizeof want, "bwlab compare: error: %s: %s", bad, what);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    /* the MI300X sample's stride:s=2 copy: 2400 GB/s, 0.60 of its seq */
    cr_expect(strstr(r.out, "2400.00 (0.60)"), "the good file is still compared:\n%s", r.out);
    /* the rest of the bad file too: its seq copy, 3000 GB/s */
    cr_expect(strstr(r.out, "3000.00 (1.00)"), "the bad file's other rows are compared:\n%s", r.out);
    tu_rmdir(dir);
    free(dir);
    return r;
}

#define LEFT_OUT ": the row is left out"

/* 1 when w ("nan", "inf") occurs as a printed number would show it: not
 * inside a word ("provenance", "inferred"), though "infx" counts */
static int has_number_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = s; (p = strcasestr(p, w)); p++) {
        int before = p > s && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z'));
        char after = p[n];
        int letter_after = (after >= 'a' && after <= 'z' && after != 'x') || (after >= 'A' && after <= 'Z');
        if (!before && !letter_after)
            return 1;
    }
    return 0;
}

Test(compare_ranges, a_negative_bandwidth_is_named_and_its_row_left_out)
{
    tu_result r = one_bad("neg.json", 5, "effective_gbs", json_real(-1),
                          "results[5] (pattern 'stride:s=2'): effective_gbs is -1, outside its valid range "
                          "(null, or 1e-06 to 1e+06 GB/s)" LEFT_OUT);
    cr_expect_null(strstr(r.out, "-1.00"), "never printed:\n%s", r.out);
    cr_expect_null(strstr(r.out, "1500.00"), "the row is left out:\n%s", r.out);
    tu_result_free(&r);
}

/* Figures that contradict each other leave the row out, named, as an
 * out-of-range figure does: a best rate below the median's, times out of
 * order, an unknown space, a verdict that is no verdict, "stable" with
 * nothing timed. */
Test(compare_ranges, figures_that_contradict_each_other_leave_the_row_out)
{
    static const char *const row = "results[5] (pattern 'stride:s=2'): ";
    char want[600];
    snprintf(want, sizeof want, "%sbest_gbs 1 is below effective_gbs 1500 (the best launch is at least the median)%s",
             row, LEFT_OUT);
    tu_result r = one_bad("best.json", 5, "best_gbs", json_real(1), want);
    tu_result_free(&r);
    snprintf(want, sizeof want, "%stime_ns has min 10, median 5, max 20: not min <= median <= max%s", row, LEFT_OUT);
    r = one_bad("times.json", 5, "time_ns", json_pack("{s:f, s:f, s:f, s:i}", "min", 10.0, "median", 5.0, "max", 20.0,
                                                      "count", 3),
                want);
    tu_result_free(&r);
    /* a figure the file leaves out is said to be absent, never "nan" (a fuzzer's find) */
    snprintf(want, sizeof want, "%stime_ns has min 10, median absent, max 5: not min <= median <= max%s", row,
             LEFT_OUT);
    r = one_bad("times2.json", 5, "time_ns", json_pack("{s:f, s:f, s:i}", "min", 10.0, "max", 5.0, "count", 3), want);
    cr_expect_null(strstr(r.err, "nan"), "%s", r.err);
    tu_result_free(&r);
    snprintf(want, sizeof want, "%sspace is shared, expected \"global\" or \"local\"%s", row, LEFT_OUT);
    r = one_bad("space.json", 5, "space", json_string("shared"), want);
    tu_result_free(&r);
    snprintf(want, sizeof want, "%sverdict is not an object, expected an object whose code is one bwlab writes", row);
    r = one_bad("verdict.json", 5, "verdict", json_integer(3), want);
    tu_result_free(&r);
    snprintf(want, sizeof want, "%sverdict is made-up, expected an object whose code is one bwlab writes", row);
    r = one_bad("code.json", 5, "verdict", json_pack("{s:s}", "code", "made-up"), want);
    tu_result_free(&r);
    json_t *t = json_pack("{s:i}", "count", 0);
    snprintf(want, sizeof want, "%sstable is true with time_ns.count 0: nothing timed cannot be stable%s", row,
             LEFT_OUT);
    char *dir = tu_temp_dir();
    const char *bad = h100_with(dir, "stable0.json", 5, "stable", json_true());
    json_t *d = json_load_file(bad, 0, NULL);
    json_object_set_new(json_array_get(json_object_get(d, "results"), 5), "time_ns", t);
    cr_assert_eq(json_dump_file(d, bad, JSON_COMPACT), 0);
    json_decref(d);
    r = compare((const char *[]){ bad, NULL });
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char full[1600];
    snprintf(full, sizeof full, "bwlab compare: error: %s: %s", bad, want);
    cr_expect(strstr(r.err, full), "stderr lacks '%s':\n%s", full, r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* a fraction of a peak on a row whose run has no peak of that mode (the
 * MI300X sample's run has neither) contradicts the run: left out, named */
Test(compare_ranges, a_fraction_of_a_peak_the_run_lacks_leaves_the_row_out)
{
    char *dir = tu_temp_dir();
    json_t *d = json_load_file(sample("results", "sample-amd-mi300x.json"), 0, NULL);
    cr_assert(d);
    set_path(json_array_get(json_object_get(d, "results"), 5), "fraction_of_peak", json_real(0.5));
    char path[4200];
    snprintf(path, sizeof path, "%s/frac.json", dir);
    cr_assert_eq(json_dump_file(d, path, JSON_COMPACT), 0);
    json_decref(d);
    tu_result r = compare((const char *[]){ path, NULL });
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char want[4600];
    snprintf(want, sizeof want,
             "bwlab compare: error: %s: results[5] (pattern 'stride:s=2'): fraction_of_peak 0.5, but its run has "
             "no copy peak (peak_copy_gbs null): the row is left out",
             path);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    cr_expect_null(strstr(r.out, "2400.00"), "the row is left out:\n%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(compare_ranges, relative_to_seq_on_seq_itself_must_be_1)
{
    tu_result r = one_bad("rel.json", 1, "relative_to_seq", json_real(123),
                          "results[1] (pattern 'seq'): relative_to_seq is 123 on the reference row itself, "
                          "expected 1");
    cr_expect_null(strstr(r.out, "123.00"), "%s", r.out);
    tu_result_free(&r);
}

Test(compare_ranges, an_element_size_outside_the_runs_set_is_refused)
{
    tu_result r = one_bad("elem.json", 5, "elem_bytes", json_integer(-1),
                          "results[5] (pattern 'stride:s=2'): elem_bytes is -1, outside its valid range (null, "
                          "or 1, 2, 4, 8 or 16 bytes)" LEFT_OUT);
    tu_result_free(&r);
    r = one_bad("elem3.json", 5, "elem_bytes", json_integer(3), "results[5] (pattern 'stride:s=2'): elem_bytes is 3, outside its valid range");
    tu_result_free(&r);
}

Test(compare_ranges, an_efficiency_outside_0_to_1_is_refused)
{
    tu_result r = one_bad("eff.json", 5, "model.sector_efficiency", json_real(-3),
                          "results[5] (pattern 'stride:s=2'): model.sector_efficiency is -3, outside its valid "
                          "range (null, or an efficiency of 0 to 1)" LEFT_OUT);
    tu_result_free(&r);
    r = one_bad("eff2.json", 5, "model.warp0.line_efficiency", json_real(1.5),
                "results[5] (pattern 'stride:s=2'): model.warp0.line_efficiency is 1.5, outside its valid range");
    tu_result_free(&r);
    /* predicted efficiency: the H100's profile has 32 lanes, 4-byte
     * elements, 32-byte sectors: at most 32 x 4 / 32 = 4 */
    r = one_bad("pred.json", 5, "model.loads.predicted_efficiency", json_real(4.5),
                "results[5] (pattern 'stride:s=2'): model.loads.predicted_efficiency is 4.5, outside its valid range (0 to lanes x elem_bytes / "
                "model.sector_bytes = 4");
    tu_result_free(&r);
}

Test(compare_ranges, a_failed_row_is_never_compared_as_measured)
{
    char *dir = tu_temp_dir();
    const char *bad = h100_with(dir, "failed.json", 5, "status", json_string("failed"));
    const char *args[] = { bad, "--format", "json", NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2, "%s", r.err);
    char want[1400];
    snprintf(want, sizeof want,
             "bwlab compare: error: %s: results[5] (pattern 'stride:s=2'): status 'failed' with effective_gbs "
             "1500: only a row of status \"ok\" has measured figures; it is shown as failed and its figures are "
             "left out",
             bad);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j, "%s", r.out);
    size_t i;
    json_t *e;
    int seen = 0;
    json_array_foreach(json_object_get(j, "entries"), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "pattern")), "stride:s=2") ||
            strcmp(json_string_value(json_object_get(e, "access")), "copy"))
            continue;
        seen = 1;
        cr_expect(json_is_null(json_object_get(e, "effective_gbs")), "a failed row has no bandwidth");
        cr_expect(json_is_null(json_object_get(e, "relative_to_seq")));
    }
    cr_expect(seen, "the failed row is kept, as failed");
    json_decref(j);
    tu_result_free(&r);
    const char *targs[] = { bad, NULL };
    r = compare(targs);
    cr_expect(strstr(r.out, "failed"), "the table shows it as failed:\n%s", r.out);
    cr_expect_null(strstr(r.out, "1500.00"), "never its bandwidth:\n%s", r.out);
    tu_result_free(&r);
    /* "not-run" without figures is what bwlab writes: no word, exit 0 */
    json_t *d = json_load_file(sample("results", "sample-nvidia-h100.json"), 0, NULL);
    json_t *row = json_array_get(json_object_get(d, "results"), 5);
    json_object_set_new(row, "status", json_string("not-run"));
    json_object_set_new(row, "effective_gbs", json_null());
    json_object_set_new(row, "relative_to_seq", json_null());
    json_object_set_new(row, "best_gbs", json_null());
    char path[1024];
    snprintf(path, sizeof path, "%s/notrun.json", dir);
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    const char *nargs[] = { path, NULL };
    r = compare(nargs);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "not-run"), "%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(compare_ranges, a_status_outside_the_documented_set_is_an_error)
{
    tu_result r = one_bad("bogus.json", 5, "status", json_string("bogus"),
                          "results[5] (pattern 'stride:s=2'): status is 'bogus', expected \"ok\", \"failed\", "
                          "\"not-measurable\" or \"not-run\"" LEFT_OUT);
    cr_expect_null(strstr(r.out, "1500.00"), "not compared as measured:\n%s", r.out);
    tu_result_free(&r);
}

Test(compare_ranges, access_null_is_refused_not_shown_as_copy)
{
    tu_result r = one_bad("acc.json", 5, "access", json_null(),
                          "results[5] (pattern 'stride:s=2'): access is null, expected \"copy\", \"read\" or \"write\"");
    cr_expect_null(strstr(r.out, "1500.00"), "%s", r.out);
    tu_result_free(&r);
    r = one_bad("acc2.json", 5, "access", json_string("scatter"),
                "results[5] (pattern 'stride:s=2'): access is 'scatter', expected \"copy\", \"read\" or \"write\"" LEFT_OUT);
    tu_result_free(&r);
}

Test(compare_ranges, a_huge_bandwidth_is_refused_and_never_printed_in_full)
{
    tu_result r = one_bad("huge.json", 5, "effective_gbs", json_real(1e300),
                          "results[5] (pattern 'stride:s=2'): effective_gbs is 1.0000000000000001e+300, outside "
                          "its valid range (null, or 1e-06 to 1e+06 GB/s)" LEFT_OUT);
    cr_expect_null(strstr(r.out, "1000000000000"), "%s", r.out);
    tu_result_free(&r);
}

Test(compare_ranges, a_subnormal_is_refused_and_baseline_never_prints_inf)
{
    tu_result r = one_bad("sub.json", 5, "effective_gbs", json_real(5e-324),
                          "results[5] (pattern 'stride:s=2'): effective_gbs is 4.9406564584124654e-324, outside "
                          "its valid range (null, or 1e-06 to 1e+06 GB/s)" LEFT_OUT);
    tu_result_free(&r);
    /* the same file against the MI300X as baseline, and its report */
    char *dir = tu_temp_dir();
    const char *bad = h100_with(dir, "sub.json", 0, "effective_gbs", json_real(5e-324));
    const char *args[] = { sample("results", "sample-amd-mi300x.json"), bad, "--baseline", "MI300X", NULL };
    r = compare(args);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(!has_number_word(r.out, "inf"), "%s", r.out);
    cr_expect(!has_number_word(r.out, "nan"), "%s", r.out);
    /* stride:s=2 copy: the H100 1500 over the MI300X 2400 = 0.625 */
    cr_expect(strstr(r.out, "0.625x"), "%s", r.out);
    tu_result_free(&r);
    char html[1024];
    snprintf(html, sizeof html, "%s/r.html", dir);
    const char *rargs[] = { bad, "--output", html, NULL };
    r = tu_exec_without_opencl("report", rargs);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "effective_gbs is 4.9406564584124654e-324"), "%s", r.err);
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(bw_file_read(html, &text, &len, NULL), BW_OK);
    cr_expect_null(strstr(text, "NaN"), "no NaN coordinate in the charts");
    cr_expect_null(strstr(text, "infx"));
    free(text);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A journal (OUT.partial) whose result lines leave relative_to_seq null,
 * as bwlab run may write them: the journal's own seq rows give it. */
Test(compare_ranges, a_journal_alone_gets_its_relative_figures_from_its_own_seq)
{
    json_t *d = json_load_file(sample("results", "sample-nvidia-h100.json"), 0, NULL);
    cr_assert(d);
    json_t *results = json_incref(json_object_get(d, "results"));
    json_object_del(d, "results");
    json_t *devs = json_array();
    json_array_append(devs, json_object_get(json_array_get(json_object_get(d, "runs"), 0), "device"));
    json_object_del(d, "runs");
    json_object_set_new(d, "devices", devs);
    json_object_set_new(d, "partial", json_true());
    bw_buf b = BW_BUF_INIT;
    char *line = json_dumps(d, JSON_COMPACT);
    bw_buf_printf(&b, "%s\n", line);
    free(line);
    size_t i;
    json_t *res;
    json_array_foreach(results, i, res) {
        json_object_set_new(res, "relative_to_seq", json_null());
        if (json_object_get(res, "relative_to_reference"))
            json_object_set_new(res, "relative_to_reference", json_null());
        line = json_dumps(res, JSON_COMPACT);
        bw_buf_printf(&b, "%s\n", line);
        free(line);
    }
    json_decref(results);
    json_decref(d);
    char *dir = tu_temp_dir();
    tu_write_file(dir, "h100.json.partial", bw_buf_str(&b));
    bw_buf_free(&b);
    char path[1024];
    snprintf(path, sizeof path, "%s/h100.json.partial", dir);
    const char *args[] = { path, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 0, "%s", r.err);
    /* seq copy 3000 over itself; stride:s=2 copy 1500 / 3000; stride:s=1
     * read 2750 / seq read 2800 = 0.982; bank:pitch=32,stride=2 against
     * bank:pitch=33,stride=1: 4600 / 9000 = 0.511 */
    cr_expect(strstr(r.out, "3000.00 (1.00)"), "%s", r.out);
    cr_expect(strstr(r.out, "1500.00 (0.50)"), "%s", r.out);
    cr_expect(strstr(r.out, "2750.00 (0.98)"), "%s", r.out);
    cr_expect(strstr(r.out, "4600.00 (0.51)"), "%s", r.out);
    cr_expect_null(strstr(r.out, "(-)"), "no row lacks its relative figure:\n%s", r.out);
    tu_result_free(&r);
    const char *jargs[] = { path, "--format", "json", NULL };
    r = compare(jargs);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j, "%s", r.err);
    json_array_foreach(json_object_get(j, "entries"), i, res) {
        if (!strcmp(json_string_value(json_object_get(res, "pattern")), "bank:pitch=32,stride=2")) {
            cr_expect_float_eq(json_real_value(json_object_get(res, "relative_to_seq")), 4600.0 / 9000.0, 1e-12);
            cr_expect_float_eq(json_real_value(json_object_get(res, "relative_to_reference")), 4600.0 / 9000.0,
                               1e-12);
        }
    }
    json_decref(j);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(compare_ranges, figures_of_a_run_and_points_of_a_probe_are_left_out_by_name)
{
    char *dir = tu_temp_dir();
    json_t *d = json_load_file(sample("results", "sample-nvidia-h100.json"), 0, NULL);
    json_object_set_new(json_array_get(json_object_get(d, "runs"), 0), "peak_read_gbs", json_real(1e300));
    char path[1024];
    snprintf(path, sizeof path, "%s/peak.json", dir);
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    const char *args[] = { path, "--format", "json", NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "runs[0]: peak_read_gbs is 1.0000000000000001e+300, outside its valid range (null, or "
                            "1e-06 to 1e+06 GB/s): left out"),
              "%s", r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect(json_is_null(json_object_get(json_array_get(json_object_get(j, "runs"), 0), "peak_read_gbs")));
    json_decref(j);
    tu_result_free(&r);

    /* the H100 probe sample: 18 ladder points; the fourth made negative */
    d = json_load_file(sample("probe", "sample-nvidia-h100-probe.json"), 0, NULL);
    cr_assert(d);
    json_t *ladder = json_object_get(json_array_get(json_object_get(d, "devices"), 0), "ladder");
    cr_assert_eq(json_array_size(ladder), 18);
    json_object_set_new(json_array_get(ladder, 3), "read_gbs", json_real(-5));
    snprintf(path, sizeof path, "%s/probe.json", dir);
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    r = compare(args);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "devices[0].ladder[3]: read_gbs is -5, outside its valid range (null, or 1e-06 to "
                            "1e+06 GB/s): this point is left out"),
              "%s", r.err);
    j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect_eq(json_array_size(json_object_get(json_array_get(json_object_get(j, "probes"), 0), "ladder")), 17);
    json_decref(j);
    tu_result_free(&r);

    /* each probe object's ranges (the probe's key table): a transfer of 0
     * bytes, a cache level's negative latency and a unit of 0 bytes are
     * out; a ladder point of 0 bytes is in (a byte count, not a unit) */
    d = json_load_file(sample("probe", "sample-nvidia-h100-probe.json"), 0, NULL);
    cr_assert(d);
    json_t *dev = json_array_get(json_object_get(d, "devices"), 0);
    json_object_set_new(json_array_get(json_object_get(dev, "transfers"), 0), "bytes", json_integer(0));
    json_object_set_new(json_array_get(json_object_get(dev, "cache_levels"), 0), "latency_ns", json_real(-1));
    json_object_set_new(dev, "inferred_unit_bytes", json_integer(0));
    json_object_set_new(json_array_get(json_object_get(dev, "ladder"), 5), "bytes", json_integer(0));
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    r = compare(args);
    cr_expect_eq(r.status, 2, "%s", r.err);
    cr_expect(strstr(r.err, "devices[0].transfers[0]: bytes is 0, outside its valid range (null, or a whole number "
                            "from 1 to 2^62): this point is left out"),
              "%s", r.err);
    cr_expect(strstr(r.err, "devices[0].cache_levels[0]: latency_ns is -1, outside its valid range") != NULL, "%s",
              r.err);
    cr_expect(strstr(r.err, "inferred_unit_bytes is 0, outside its valid range (null, or a whole number from 1 to "
                            "2^62): left out") != NULL,
              "%s", r.err);
    cr_expect(strstr(r.err, "ladder[5]") == NULL, "a ladder point of 0 bytes is in range: %s", r.err);
    j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    json_t *pr = json_array_get(json_object_get(j, "probes"), 0);
    cr_expect_eq(json_array_size(json_object_get(pr, "ladder")), 18);
    cr_expect_eq(json_array_size(json_object_get(pr, "transfers")), 55);
    cr_expect_eq(json_array_size(json_object_get(pr, "cache_levels")), 1);
    json_decref(j);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* 25 rows out of range: the first 20 named, the other 5 counted */
Test(compare_ranges, many_bad_rows_are_counted_past_the_first_twenty)
{
    json_t *d = json_load_file(sample("results", "sample-nvidia-h100.json"), 0, NULL);
    json_t *results = json_object_get(d, "results");
    json_t *proto = json_deep_copy(json_array_get(results, 5));
    for (int k = 0; k < 25; k++) {
        json_t *row = json_deep_copy(proto);
        char name[32];
        snprintf(name, sizeof name, "stride:s=%d", 1000 + k);
        json_object_set_new(row, "pattern", json_string(name));
        json_object_set_new(row, "effective_gbs", json_real(-1));
        json_array_append_new(results, row);
    }
    json_decref(proto);
    char *dir = tu_temp_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/many.json", dir);
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    const char *args[] = { path, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2);
    size_t named = 0;
    for (const char *p = r.err; (p = strstr(p, "effective_gbs is -1")); p++)
        named++;
    cr_expect_eq(named, 20, "%s", r.err);
    cr_expect(strstr(r.err, "5 more figures or rows out of range were left out (the first 20 are named above)"),
              "%s", r.err);
    cr_expect(strstr(r.out, "3000.00 (1.00)"), "the sample's own rows are compared");
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* The ranges' edges, worked out from docs/results.md's table */
Test(compare_ranges, the_documented_edges)
{
    cr_expect(results_range_ok(RESULTS_RANGE_GBS, 1e-6));
    cr_expect(results_range_ok(RESULTS_RANGE_GBS, 1e6));
    cr_expect(!results_range_ok(RESULTS_RANGE_GBS, 0.99e-6));
    cr_expect(!results_range_ok(RESULTS_RANGE_GBS, 0));
    cr_expect(!results_range_ok(RESULTS_RANGE_GBS, 5e-324));
    cr_expect(!results_range_ok(RESULTS_RANGE_GBS, NAN));
    cr_expect(!results_range_ok(RESULTS_RANGE_GBS, INFINITY));
    cr_expect(results_range_ok(RESULTS_RANGE_EFFICIENCY, 0));
    cr_expect(results_range_ok(RESULTS_RANGE_EFFICIENCY, 1));
    cr_expect(!results_range_ok(RESULTS_RANGE_EFFICIENCY, 1.0000001));
    cr_expect(results_range_ok(RESULTS_RANGE_TIME_NS, 0.001));
    cr_expect(!results_range_ok(RESULTS_RANGE_TIME_NS, 0.0009));
    for (int e = 0; e <= 32; e++)
        cr_expect_eq(results_range_ok(RESULTS_RANGE_ELEM, e), e == 1 || e == 2 || e == 4 || e == 8 || e == 16, "%d", e);
    cr_expect(!results_range_ok(RESULTS_RANGE_ELEM, 4.5));
    cr_expect(results_range_ok(RESULTS_RANGE_LANES, 1024));
    cr_expect(!results_range_ok(RESULTS_RANGE_LANES, 1025));
    cr_expect(!results_range_ok(RESULTS_RANGE_LANES, 0));
    cr_expect(results_range_ok(RESULTS_RANGE_COUNT, 0));
    cr_expect(!results_range_ok(RESULTS_RANGE_COUNT, -1));
    cr_expect(!results_range_ok(RESULTS_RANGE_BYTES, 2.5));
    cr_expect(results_range_ok(RESULTS_RANGE_RATIO, 1e-9));
    cr_expect(!results_range_ok(RESULTS_RANGE_RATIO, 1e10));
}

/* report_num_fixed: decimals while |v| < 1e9, three significant digits
 * beyond, "n/a" for what is not a number; never over 16 characters */
Test(compare_ranges, numbers_print_in_bounded_widths)
{
    char b[REPORT_NUM_MAX];
    cr_expect_str_eq(report_num_fixed(b, 1500, 2), "1500.00");
    cr_expect_str_eq(report_num_fixed(b, 999999999.0, 2), "999999999.00");
    cr_expect_str_eq(report_num_fixed(b, 1e9, 2), "1e+09");
    cr_expect_str_eq(report_num_fixed(b, 1e300, 2), "1e+300");
    cr_expect_str_eq(report_num_fixed(b, -1e300, 0), "-1e+300");
    cr_expect_str_eq(report_num_fixed(b, 5e-324, 3), "0.000");
    cr_expect_str_eq(report_num_fixed(b, NAN, 2), "n/a");
    cr_expect_str_eq(report_num_fixed(b, INFINITY, 2), "n/a");
    cr_expect_str_eq(report_num_fixed(b, -INFINITY, 2), "n/a");
    const double hard[] = { DBL_MAX, -DBL_MAX, DBL_MIN, -999999999.9999, 123456789.123456, 1e-300 };
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
        for (int p = 0; p <= 4; p++)
            cr_expect_leq(strlen(report_num_fixed(b, hard[i], p)), 16, "%.17g at %d: %s", hard[i], p, b);
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The chart guards its own divisions: a subnormal on a log axis, where
 * the range below it would be 0 and every coordinate NaN, is left out
 * with a note; the other points are placed. */
Test(compare_ranges, a_chart_leaves_out_a_subnormal_with_a_note)
{
    report_chart *c = report_chart_new("sub", "subnormal");
    cr_assert(c);
    report_chart_axis(c, 'x', "stride", REPORT_AXIS_LOG2);
    report_chart_axis(c, 'y', "GB/s", REPORT_AXIS_LOG10);
    report_chart_style st = { 0, 0, REPORT_MARKER_CIRCLE, 0, 0, 0 };
    int s = report_chart_series(c, "device", REPORT_SERIES_LINE_POINTS, st);
    report_chart_point(c, s, 1, 3000, "seq");
    report_chart_point(c, s, 2, 5e-324, "subnormal");
    report_chart_point(c, s, 4, 760, "stride 4");
    report_chart_point(c, s, 8, 1e308, "huge but normal");
    cr_expect_eq(report_chart_count(c), 3);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(report_chart_svg(c, &b, &err), BW_OK, "%s", bw_error_text(&err));
    const char *svg = bw_buf_str(&b);
    cr_expect_null(strstr(svg, "NaN"));
    cr_expect_null(strstr(svg, "nan"));
    cr_expect_null(strstr(svg, "inf"));
    cr_expect_eq(count_of(svg, "class=\"pt\""), 3);
    cr_expect(strstr(svg, "1 point left out: a value this chart&#39;s axes cannot draw"), "%s", svg);
    bw_buf_free(&b);
    report_chart_free(c);
}
