/* `bwlab compare`: merging the checked-in sample result files
 * (tests/data/results: a real PoCL run and edited copies standing in for
 * an H100 and an MI300X), repeats and duplicates, every bad input, the
 * formats, --baseline, --mode, the nominal match rule, partial journals,
 * and that the report layer never includes the OpenCL layer. Every run
 * uses an empty OCL_ICD_VENDORS: compare reads files only. Expected
 * figures are worked out by hand from the sample files' numbers. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "bw_file.h"
#include "report_html.h"
#include "results_merge.h"
#include "report_nominal.h"
#include "results_compare_keys.h"
#include "results_roofline_keys.h"
#include "test_util.h"
#include "results_merge_priv.h"
#include "report_nominal_priv.h"

static char *sample(const char *name)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 1024, "%s/tests/data/results/%s", tu_source_root(), name);
    return b;
}

/* bwlab compare ARGS... with no OpenCL driver at all */
static tu_result compare(const char *const *args)
{
    return tu_exec_without_opencl("compare", args);
}

static json_t *compare_json(const char *const *args)
{
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_empty(r.err, "stderr: %s", r.err);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    cr_assert(j, "not JSON: %s", je.text);
    tu_result_free(&r);
    return j;
}

/* the entry of (pattern, access) on the device whose label starts with lead */
static json_t *entry(json_t *doc, const char *pattern, const char *access, const char *lead)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "entries"), i, e) {
        if (!strcmp(json_string_value(json_object_get(e, "pattern")), pattern) &&
            !strcmp(json_string_value(json_object_get(e, "access")), access) &&
            !strncmp(json_string_value(json_object_get(e, "device")), lead, strlen(lead)))
            return e;
    }
    return NULL;
}

static double real(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

/* effective_gbs of (pattern, access) in a results file, read with jansson */
static double file_gbs(const char *path, const char *pattern, const char *access)
{
    json_error_t je;
    json_t *d = json_load_file(path, 0, &je);
    cr_assert(d, "%s: %s", path, je.text);
    size_t i;
    json_t *r;
    double v = NAN;
    json_array_foreach(json_object_get(d, "results"), i, r) {
        if (!strcmp(json_string_value(json_object_get(r, "pattern")), pattern) &&
            !strcmp(json_string_value(json_object_get(r, "access")), access))
            v = json_number_value(json_object_get(r, "effective_gbs"));
    }
    json_decref(d);
    return v;
}

#define H100 "NVIDIA H100 80GB HBM3 [550.54.15]"
#define MI300X "AMD Instinct MI300X [3625.0]"

Test(compare, three_samples_merge_into_the_expected_table)
{
    const char *args[] = { sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"),
                           "--format", "json", NULL };
    json_t *j = compare_json(args);
    cr_assert_eq(json_array_size(json_object_get(j, "devices")), 3);
    cr_assert_eq(json_array_size(json_object_get(j, "runs")), 3);
    /* the sample H100: stride:s=2 1500 GB/s, its seq 3000: 1500 / 3000 */
    json_t *e = entry(j, "stride:s=2", "copy", H100);
    cr_assert(e);
    cr_expect_float_eq(real(e, "effective_gbs"), 1500.0, 1e-9);
    cr_expect_float_eq(real(e, "relative_to_seq"), 0.5, 1e-12);
    /* 32 lanes 8 B apart span 256 B = 8 sectors of 32 B for 128 B asked */
    cr_expect_float_eq(real(e, "sector_efficiency"), 0.5, 1e-12);
    /* the sample MI300X: 2400 / 4000 */
    e = entry(j, "stride:s=2", "copy", MI300X);
    cr_assert(e);
    cr_expect_float_eq(real(e, "effective_gbs"), 2400.0, 1e-9);
    cr_expect_float_eq(real(e, "relative_to_seq"), 0.6, 1e-12);
    /* stride:s=32: 128 B apart, every lane its own sector: 4 B of 128 B
     * (MI300X, 128 B sectors) and 4 B of 32 B (H100) */
    cr_expect_float_eq(real(entry(j, "stride:s=32", "copy", MI300X), "sector_efficiency"), 4.0 / 128, 1e-12);
    cr_expect_float_eq(real(entry(j, "stride:s=32", "copy", H100), "sector_efficiency"), 4.0 / 32, 1e-12);
    /* the PoCL run's own numbers, as the file holds them */
    double seq = file_gbs(sample("pocl-cpu.json"), "seq", "copy");
    double s2 = file_gbs(sample("pocl-cpu.json"), "stride:s=2", "copy");
    e = entry(j, "stride:s=2", "copy", "AMD pthread");
    cr_assert(e);
    cr_expect_float_eq(real(e, "effective_gbs"), s2, 1e-12);
    /* bank patterns: the H100 sample has them, the MI300X sample does not */
    cr_expect(entry(j, "bank:pitch=32,stride=2", "read", H100) != NULL);
    cr_expect(entry(j, "bank:pitch=32,stride=2", "read", MI300X) == NULL, "not measured must be absent");
    /* the MI300X sample has no roofline and no tuned peak: null, not 0 */
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(j, "devices"), i, d) {
        if (!strcmp(json_string_value(json_object_get(d, "label")), MI300X))
            cr_expect(json_is_null(json_object_get(d, "peak_read_gbs")));
    }
    json_decref(j);

    /* the table: the same cells */
    const char *targs[] = { sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"),
                            sample("sample-amd-mi300x.json"), NULL };
    tu_result r = compare(targs);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *row = strstr(r.out, "\n  stride:s=2 ");
    cr_assert(row, "%s", r.out);
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(row + 1, "\n"), row + 1);
    char pocl[64];
    snprintf(pocl, sizeof pocl, "%.2f (%.2f)", s2, s2 / seq);
    cr_expect(strstr(line, pocl), "%s lacks %s", line, pocl);
    cr_expect(strstr(line, "1500.00 (0.50)"), "%s", line);
    cr_expect(strstr(line, "2400.00 (0.60)"), "%s", line);
    cr_expect(strstr(r.out, "  " H100), "the legend names each device");
    cr_expect(strstr(r.out, "vendor 'Advanced Micro Devices, Inc.', name 'gfx942', board 'AMD Instinct MI300X'"));
    cr_expect(strstr(r.out, "host sample-h100"), "each run's provenance");
    cr_expect(strstr(r.out, "note: SAMPLE"), "sample files say so");
    tu_result_free(&r);
}

Test(compare, works_without_any_opencl_driver)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 0, "exit %d with OCL_ICD_VENDORS empty: %s", r.status, r.err);
    cr_expect_str_empty(r.err);
    cr_expect(strstr(r.out, "3000.00 (1.00)"));
    tu_result_free(&r);
}

Test(compare, help_describes_the_command)
{
    const char *argv[] = { "help", "compare", NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: bwlab compare FILE|DIR..."), "%s", r.out);
    cr_expect(strstr(r.out, "--baseline DEVICE"));
    cr_expect(strstr(r.out, "--mode MODE"));
    tu_result_free(&r);
}

Test(compare, repeats_are_kept_with_median_min_max)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), sample("sample-nvidia-h100-run2.json"), "--format",
                           "json", NULL };
    json_t *j = compare_json(args);
    cr_assert_eq(json_array_size(json_object_get(j, "devices")), 1, "one device in two files");
    json_t *e = entry(j, "seq", "copy", H100);
    cr_assert(json_is_true(json_object_get(e, "repeat")));
    cr_expect_eq(json_array_size(json_object_get(e, "samples")), 2);
    /* 3000 and 3100: median of two is their mean */
    cr_expect_float_eq(real(e, "effective_gbs"), 3050.0, 1e-9);
    cr_expect_float_eq(real(e, "effective_min_gbs"), 3000.0, 1e-9);
    cr_expect_float_eq(real(e, "effective_max_gbs"), 3100.0, 1e-9);
    /* stride:s=2: 1500/3000 and 1450/3100 */
    e = entry(j, "stride:s=2", "copy", H100);
    cr_expect_float_eq(real(e, "relative_to_seq"), (0.5 + 1450.0 / 3100.0) / 2, 1e-12);
    /* reverse is in one file only */
    cr_expect(json_is_false(json_object_get(entry(j, "reverse", "copy", H100), "repeat")));
    json_decref(j);
    const char *targs[] = { sample("sample-nvidia-h100.json"), sample("sample-nvidia-h100-run2.json"), NULL };
    tu_result r = compare(targs);
    cr_expect(strstr(r.out, "*3050.00 (1.00)"), "a repeat is marked: %s", r.out);
    cr_expect(strstr(r.out, "Repeats"));
    tu_result_free(&r);
}

static char *copy_to(const char *dir, const char *name, const char *from)
{
    char *text = NULL;
    cr_assert_eq(bw_file_read(from, &text, NULL, NULL), BW_OK);
    tu_write_file(dir, name, text);
    free(text);
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

Test(compare, an_identical_file_is_counted_once)
{
    char *dir = tu_temp_dir();
    copy_to(dir, "a.json", sample("sample-nvidia-h100.json"));
    /* directories are read recursively */
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0755);
    copy_to(sub, "b.json", sample("sample-nvidia-h100.json"));
    const char *args[] = { dir, "--format", "json", NULL };
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "a duplicate is a note, not an error: %s", r.err);
    cr_expect(strstr(r.err, "note: "), "%s", r.err);
    cr_expect(strstr(r.err, "/sub/b.json: identical to"), "%s", r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect_eq(json_array_size(json_object_get(j, "files")), 1);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(j, "files"), 0), "duplicates")), 1);
    cr_expect(json_is_false(json_object_get(entry(j, "seq", "copy", H100), "repeat")));
    json_decref(j);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* One bad input beside a good one: exit 2, the bad file named with what
 * is wrong on stderr, and the good one still compared. */
static void bad_input(const char *name, const char *text, const char *expect)
{
    char *dir = tu_temp_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (text)
        tu_write_file(dir, name, text);
    else
        mkdir(path, 0755);
    const char *args[] = { sample("sample-amd-mi300x.json"), path, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2, "%s: exit %d", name, r.status);
    char want[1200];
    snprintf(want, sizeof want, "bwlab compare: error: %s: %s", path, expect);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    cr_expect(strstr(r.out, "2400.00 (0.60)"), "the good file is still compared:\n%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

#define MINIMAL \
    "{\"schema\": \"bwlab.results\", \"schema_version\": 1, \"runs\": [{\"device\": {\"index\": 0, \"name\": " \
    "\"Old GPU\", \"vendor\": \"Acme\", \"driver_version\": \"1.0\"}}], \"results\": [%s]}"

static char *doc(const char *results, const char *from, const char *to)
{
    static char buf[4096];
    char tmp[4096];
    snprintf(tmp, sizeof tmp, MINIMAL, results);
    if (from) {
        char *p = strstr(tmp, from);
        cr_assert(p);
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - tmp), tmp, to, p + strlen(from));
    } else {
        snprintf(buf, sizeof buf, "%s", tmp);
    }
    return buf;
}

Test(compare, an_unknown_schema_version_is_named)
{
    bad_input("future.json", doc("{\"device\": 0, \"pattern\": \"seq\"}", "\"schema_version\": 1", "\"schema_version\": 7"),
              "unknown schema_version 7");
}

Test(compare, invalid_json_is_named)
{
    bad_input("broken.json", "{\"schema\": \"bwlab.results\", \"runs\": [", "invalid JSON at line 1");
}

/* Peer files alone (no bwlab result) make their own table, exit 0: the
 * BabelStream fixture's five kernels and clpeak's bandwidth rows, under a
 * headline that says no bwlab result was given. */
Test(compare, peer_files_alone_make_their_own_table)
{
    char bs[1024], cl[1024];
    snprintf(bs, sizeof bs, "%s/tests/data/peers/babelstream-ocl-v5.0.csv", tu_source_root());
    snprintf(cl, sizeof cl, "%s/tests/data/peers/clpeak-2.1.2.csv", tu_source_root());
    tu_result r = compare((const char *[]){ bs, cl, NULL });
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "bwlab compare: 2 peer files, no bwlab results\n") == r.out, "%s", r.out);
    static const char *const tests[] = { "Copy", "Mul", "Add", "Triad", "Dot", "global_memory_bandwidth" };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        cr_expect(strstr(r.out, tests[i]), "no row of %s: %s", tests[i], r.out);
    cr_expect(strstr(r.err, "could be read") == NULL, "%s", r.err);
    tu_result_free(&r);
}

/* A peer file read without error whose rows all map to nothing bwlab
 * compares (local memory, a skipped test) is named on stderr with what
 * it held, each kind of row once; the bwlab file is still compared. */
Test(compare, a_peer_file_with_no_mapped_row_is_named)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "local.csv",
                  "format_version,backend,platform,device,driver,category,test,metric,unit,status,value\n"
                  "2,OpenCL,P,D,1,bandwidth,local_memory_bandwidth,float,gbps,ok,12.5\n"
                  "2,OpenCL,P,D,1,bandwidth,local_memory_bandwidth,float2,gbps,ok,13.5\n"
                  "2,OpenCL,P,D,1,bandwidth,global_memory_bandwidth,float,gbps,skipped,0\n");
    char path[1024];
    snprintf(path, sizeof path, "%s/local.csv", dir);
    tu_result r = compare((const char *[]){ sample("sample-amd-mi300x.json"), path, NULL });
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char want[1400];
    snprintf(want, sizeof want,
             "bwlab compare: note: %s: no row maps to a figure bwlab compares: its 3 rows held "
             "local_memory_bandwidth, global_memory_bandwidth (skipped)\n",
             path);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    cr_expect(strstr(r.out, "2400.00 (0.60)"), "the bwlab file is still compared:\n%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* a key given twice in one object is refused, named with its line: the
 * reader would otherwise keep one of the two figures in silence */
Test(compare, a_key_given_twice_is_named_with_its_line)
{
    bad_input("twice.json",
              doc("{\"device\": 0, \"pattern\": \"seq\",\n\"effective_gbs\": 1.0, \"effective_gbs\": 2.0}", NULL,
                  NULL),
              "invalid JSON at line 2, column 37: duplicate object key near '\"effective_gbs\"'");
}

Test(compare, a_missing_field_is_named)
{
    bad_input("nopattern.json", doc("{\"device\": 0, \"effective_gbs\": 1.0}", NULL, NULL),
              "results[0].pattern is missing");
    bad_input("noruns.json", "{\"schema\": \"bwlab.results\", \"schema_version\": 1, \"results\": []}",
              "top level.runs is missing");
}

Test(compare, a_mistyped_field_is_named)
{
    bad_input("mistyped.json", doc("{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": \"fast\"}", NULL, NULL),
              "results[0].effective_gbs is a string, expected a number or null");
    bad_input("badindex.json", doc("{\"device\": 3, \"pattern\": \"seq\"}", NULL, NULL),
              "results[0].device is 3, which no runs[].device.index names");
}

Test(compare, a_file_without_results_is_named)
{
    bad_input("none.json", doc("", NULL, NULL), "no results");
}

Test(compare, an_empty_file_is_named)
{
    bad_input("empty.json", "", "empty file");
}

Test(compare, a_directory_without_results_is_named)
{
    bad_input("emptydir", NULL, "directory without results");
}

Test(compare, an_unreadable_file_is_named)
{
    const char *args[] = { sample("sample-amd-mi300x.json"), "/nonexistent/bwlab/run.json", NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "error: /nonexistent/bwlab/run.json: cannot be read"), "%s", r.err);
    cr_expect(strstr(r.out, "2400.00 (0.60)"));
    tu_result_free(&r);
    if (geteuid() != 0) {
        char *dir = tu_temp_dir();
        tu_write_file(dir, "locked.json", "{}");
        char path[1024];
        snprintf(path, sizeof path, "%s/locked.json", dir);
        chmod(path, 0);
        const char *a2[] = { path, NULL };
        r = compare(a2);
        cr_expect_eq(r.status, 2);
        cr_expect(strstr(r.err, "cannot be read"), "%s", r.err);
        tu_result_free(&r);
        tu_rmdir(dir);
        free(dir);
    }
}

Test(compare, nothing_to_compare_exits_2_with_no_table)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "empty.json", "");
    char path[1024];
    snprintf(path, sizeof path, "%s/empty.json", dir);
    const char *args[] = { path, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2);
    cr_expect_str_empty(r.out);
    cr_expect(strstr(r.err, "no results to compare"), "%s", r.err);
    tu_result_free(&r);
    const char *a2[] = { NULL };
    r = compare(a2);
    cr_expect_eq(r.status, 2, "no file at all is a usage error");
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(compare, fields_an_older_file_lacks_are_not_measured_never_zero)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "old.json",
                  doc("{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": 100.0, \"relative_to_seq\": 1.0}, "
                      "{\"device\": 0, \"pattern\": \"stride:s=2\", \"effective_gbs\": 50.0}",
                      NULL, NULL));
    const char *args[] = { dir, "--format", "json", NULL };
    json_t *j = compare_json(args);
    json_t *e = entry(j, "stride:s=2", "copy", "Acme Old GPU");
    cr_assert(e, "no access key reads as copy");
    cr_expect_float_eq(real(e, "effective_gbs"), 50.0, 1e-12);
    cr_expect(json_is_null(json_object_get(e, "relative_to_seq")));
    cr_expect(json_is_null(json_object_get(e, "sector_efficiency")));
    json_decref(j);
    const char *targs[] = { dir, NULL };
    tu_result r = compare(targs);
    cr_expect(strstr(r.out, "50.00 (-)"), "%s", r.out);
    cr_expect(strstr(r.out, "- / -"), "model table: not measured");
    tu_result_free(&r);
    const char *cargs[] = { dir, "--format", "csv", NULL };
    r = compare(cargs);
    cr_expect(strstr(r.out, "stride:s=2,stride,") == NULL, "no family in an old file: empty, not invented");
    cr_expect(strstr(r.out, ",ok,50,50,50,,,,,"), "%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* the fields of one CSV line (RFC 4180 quotes) */
static size_t csv_fields(const char *line, size_t n, char fields[][128], size_t max)
{
    size_t k = 0, j = 0;
    int q = 0;
    for (size_t i = 0; i <= n && k < max; i++) {
        char c = i < n ? line[i] : ',';
        if (q) {
            if (c == '"' && i + 1 < n && line[i + 1] == '"')
                fields[k][j++] = line[i++];
            else if (c == '"')
                q = 0;
            else
                fields[k][j++] = c;
        } else if (c == '"') {
            q = 1;
        } else if (c == ',') {
            fields[k++][j] = 0;
            j = 0;
        } else if (j < 127) {
            fields[k][j++] = c;
        }
    }
    return k;
}

Test(compare, csv_has_one_header_and_a_row_per_pattern_device_and_mode)
{
    const char *args[] = { sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"),
                           "--format", "csv", NULL };
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* rows expected: the results of each file (one device each, every
     * (pattern, mode) once per file) */
    size_t want = 0;
    const char *files[] = { "pocl-cpu.json", "sample-nvidia-h100.json", "sample-amd-mi300x.json" };
    for (size_t f = 0; f < 3; f++) {
        json_t *d = json_load_file(sample(files[f]), 0, NULL);
        want += json_array_size(json_object_get(d, "results"));
        json_decref(d);
    }
    static char fields[64][128], head[64][128];
    size_t lines = 0, ncol = 0;
    double seq = file_gbs(sample("pocl-cpu.json"), "seq", "copy");
    int seen_seq = 0;
    for (const char *p = r.out; *p;) {
        size_t n = strcspn(p, "\n");
        cr_assert(p[0] != '#', "no commentary lines");
        if (lines == 0) {
            ncol = csv_fields(p, n, head, 64);
            cr_expect_str_eq(head[0], "pattern");
            cr_expect_str_eq(head[13], "effective_gbs");
            cr_expect_str_eq(head[9], "runs");
        } else {
            cr_expect_eq(csv_fields(p, n, fields, 64), ncol, "line %zu has another number of fields", lines);
            cr_expect(strchr(fields[9], '.') == NULL, "runs is an integer: %s", fields[9]);
            if (!strcmp(fields[0], "seq") && !strcmp(fields[2], "copy") && !strcmp(fields[6], "pthread-skylake-avx512-AMD EPYC")) {
                /* reals read back to the very same double */
                cr_expect_eq(strtod(fields[13], NULL), seq, "%s vs %.17g", fields[13], seq);
                seen_seq = 1;
            }
        }
        lines++;
        p += n + (p[n] == '\n');
    }
    cr_expect_eq(lines - 1, want);
    cr_expect(seen_seq);
    tu_result_free(&r);
}

Test(compare, markdown_is_a_gfm_table)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"), "--format", "md", NULL };
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "| pattern | mode | " H100 " | " MI300X " |\n| --- | --- | ---: | ---: |\n"), "%s", r.out);
    cr_expect(strstr(r.out, "| stride:s=2 | copy | 1500.00 (0.50) | 2400.00 (0.60) |"));
    tu_result_free(&r);
    /* an --output name ending in .md picks the format */
    char *dir = tu_temp_dir();
    char out[1024];
    snprintf(out, sizeof out, "%s/c%s", dir, ".md");
    const char *a2[] = { sample("sample-nvidia-h100.json"), "--output", out, NULL };
    r = compare(a2);
    cr_expect_eq(r.status, 0);
    char *text = NULL;
    cr_assert_eq(bw_file_read(out, &text, NULL, NULL), BW_OK);
    cr_expect(strstr(text, "| --- | --- |"));
    free(text);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(compare, baseline_divides_by_the_baseline_device)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"), "--baseline", "H100",
                           "--format", "json", NULL };
    json_t *j = compare_json(args);
    cr_expect_str_eq(json_string_value(json_object_get(j, "baseline")), H100);
    /* 2400 / 1500 */
    cr_expect_float_eq(real(entry(j, "stride:s=2", "copy", MI300X), "relative_to_baseline"), 1.6, 1e-12);
    cr_expect_float_eq(real(entry(j, "stride:s=2", "copy", H100), "relative_to_baseline"), 1.0, 1e-12);
    json_decref(j);
    const char *bad[] = { sample("sample-nvidia-h100.json"), "--baseline", "nosuch", NULL };
    tu_result r = compare(bad);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--baseline 'nosuch' matches no device"), "%s", r.err);
    cr_expect(strstr(r.err, H100), "the devices are listed");
    tu_result_free(&r);
    const char *two[] = { sample("pocl-cpu.json"), sample("sample-amd-mi300x.json"), "--baseline", "AMD", NULL };
    r = compare(two);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "matches more than one device"), "%s", r.err);
    tu_result_free(&r);
}

Test(compare, mode_keeps_one_access_mode)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), "--mode", "read", "--format", "json", NULL };
    json_t *j = compare_json(args);
    size_t i, n = 0;
    json_t *e;
    json_array_foreach(json_object_get(j, "entries"), i, e) {
        cr_expect_str_eq(json_string_value(json_object_get(e, "access")), "read");
        n++;
    }
    /* seq, 7 strides and 3 bank patterns in read mode */
    cr_expect_eq(n, 11);
    json_decref(j);
    const char *bad[] = { sample("sample-nvidia-h100.json"), "--mode", "scatter", NULL };
    tu_result r = compare(bad);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--mode: 'scatter' is not read, copy or write"));
    tu_result_free(&r);
}

/* --format html writes the page `bwlab report` writes (its content is
 * tested in test_report_chart.c and test_report_browser.c) */
Test(compare, html_is_the_report_page)
{
    const char *args[] = { sample("sample-nvidia-h100.json"), "--format", "html", NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "<!DOCTYPE html>", 15) == 0);
    cr_expect(strstr(r.out, "data-figure=\"stride\""));
    cr_expect(strstr(r.out, "</html>"));
    tu_result_free(&r);
}

Test(compare, nominal_rows_for_known_devices_only)
{
    const char *args[] = { sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"),
                           "--format", "json", NULL };
    json_t *j = compare_json(args);
    size_t i;
    json_t *d;
    int known = 0;
    json_array_foreach(json_object_get(j, "devices"), i, d) {
        json_t *n = json_object_get(d, "nominal");
        const char *label = json_string_value(json_object_get(d, "label"));
        if (!strcmp(label, H100)) {
            cr_expect_float_eq(real(n, "dram_gbs"), 3350.0, 1e-9);
            known++;
        } else if (!strcmp(label, MI300X)) {
            cr_expect_float_eq(real(n, "dram_gbs"), 5300.0, 1e-9);
            known++;
        } else {
            cr_expect(json_is_null(n), "%s matches no entry", label);
        }
    }
    cr_expect_eq(known, 2);
    json_decref(j);
    const char *targs[] = { sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"), NULL };
    tu_result r = compare(targs);
    /* seq 3000 of 3350 = 89.55%; tuned read peak 3100 of 3350 = 92.54% */
    cr_expect(strstr(r.out, "89.6%"), "%s", r.out);
    cr_expect(strstr(r.out, "92.5%"));
    cr_expect(strstr(r.out, "https://www.nvidia.com/en-us/data-center/h100/"), "the source is cited");
    const char *nominal = strstr(r.out, "Nominal peaks");
    cr_assert(nominal);
    cr_expect(strstr(nominal, "pthread") == NULL, "no row for an unknown device");
    tu_result_free(&r);
}

Test(compare, the_nominal_match_rule)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/data/nominal.json", tu_source_root());
    json_error_t je;
    json_t *t = json_load_file(path, 0, &je);
    cr_assert(t, "%s", je.text);
    cr_assert_eq(report_nominal_check(t, NULL), BW_OK);
    json_t *devs = json_object_get(t, "devices");
    struct {
        const char *vendor, *name, *board;
        long long mem;
        const char *want; /* NULL: no entry */
    } cases[] = {
        { "NVIDIA Corporation", "NVIDIA H100 80GB HBM3", NULL, -1, "NVIDIA H100 SXM5 80 GB" },
        { "NVIDIA Corporation", "NVIDIA H100 PCIe", NULL, -1, NULL },
        { "NVIDIA Corporation", "NVIDIA H100 NVL", NULL, -1, NULL },
        { "NVIDIA Corporation", "NVIDIA H200", NULL, -1, "NVIDIA H200 (SXM, 141 GB HBM3e)" },
        { "NVIDIA Corporation", "NVIDIA A100-SXM4-80GB", NULL, -1, "NVIDIA A100 80 GB (SXM4)" },
        { "NVIDIA Corporation", "NVIDIA A100 80GB PCIe", NULL, -1, NULL },
        { "NVIDIA Corporation", "NVIDIA A100-SXM4-40GB", NULL, -1, "NVIDIA A100 40 GB" },
        { "NVIDIA Corporation", "NVIDIA A100-PCIE-40GB", NULL, -1, "NVIDIA A100 40 GB" },
        { "NVIDIA Corporation", "NVIDIA GeForce RTX 4090", NULL, -1, "NVIDIA GeForce RTX 4090" },
        { "NVIDIA Corporation", "NVIDIA GeForce RTX 4090 Laptop GPU", NULL, -1, NULL },
        { "NVIDIA Corporation", "NVIDIA GeForce RTX 4080", NULL, -1, NULL },
        { "Advanced Micro Devices, Inc.", "gfx942", "AMD Instinct MI300X", -1, "AMD Instinct MI300X" },
        { "Advanced Micro Devices, Inc.", "gfx942", "AMD Instinct MI300A", -1, NULL },
        { "Advanced Micro Devices, Inc.", "gfx90a", "AMD Instinct MI250X", -1, "AMD Instinct MI250X" },
        { "Advanced Micro Devices, Inc.", "gfx90a", NULL, -1, NULL },
        { "Intel(R) Corporation", "Intel(R) Data Center GPU Max 1550", NULL, -1, "Intel Data Center GPU Max 1550" },
        { "Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", NULL, 16LL << 30, "Intel Arc A770 16 GB" },
        { "Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", NULL, 8LL << 30, "Intel Arc A770 8 GB" },
        { "Intel(R) Corporation", "Intel(R) Arc(TM) A770 Graphics", NULL, -1, NULL },
        /* the vendor must match too */
        { "AuthenticAMD", "H100 emulator", NULL, -1, NULL },
        { "AuthenticAMD", "pthread-skylake-avx512-AMD EPYC", NULL, -1, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = report_nominal_find(t, cases[i].vendor, cases[i].name, cases[i].board, cases[i].mem);
        const char *got = k >= 0 ? json_string_value(json_object_get(json_array_get(devs, (size_t)k), "name")) : NULL;
        if (cases[i].want)
            cr_expect(got && !strcmp(got, cases[i].want), "%s: got %s, want %s", cases[i].name, got ? got : "none",
                      cases[i].want);
        else
            cr_expect(got == NULL, "%s: got %s, want none", cases[i].name, got);
    }
    /* every entry cites a source for both figures */
    size_t i;
    json_t *e;
    json_array_foreach(devs, i, e) {
        cr_expect(strstr(json_string_value(json_object_get(e, "dram_source")), "https://"));
        cr_expect(strstr(json_string_value(json_object_get(e, "fp32_source")), "https://"));
    }
    json_decref(t);
}

Test(compare, a_partial_journal_is_read_and_marked)
{
    /* head line: the H100 sample's top level without results, its device
     * in devices[] as bwlab run writes it; then two results, and a last line
     * cut short */
    json_t *d = json_load_file(sample("sample-nvidia-h100.json"), 0, NULL);
    cr_assert(d);
    json_t *results = json_incref(json_object_get(d, "results"));
    json_object_del(d, "results");
    /* bwlab run's journal head: the planned devices, no runs[] */
    json_t *devs = json_array();
    json_array_append(devs, json_object_get(json_array_get(json_object_get(d, "runs"), 0), "device"));
    json_object_del(d, "runs");
    json_object_set_new(d, "devices", devs);
    json_object_set_new(d, "partial", json_true());
    bw_buf b = BW_BUF_INIT;
    char *line = json_dumps(d, JSON_COMPACT);
    bw_buf_printf(&b, "%s\n", line);
    free(line);
    for (size_t i = 0; i < 2; i++) {
        line = json_dumps(json_array_get(results, i), JSON_COMPACT);
        bw_buf_printf(&b, "%s\n", line);
        free(line);
    }
    bw_buf_puts(&b, "{\"device\": 0, \"pattern\": \"stri");
    json_decref(results);
    json_decref(d);
    char *dir = tu_temp_dir();
    tu_write_file(dir, "h100.json.partial", bw_buf_str(&b));
    bw_buf_free(&b);
    const char *args[] = { dir, "--format", "json", NULL };
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "line 4 is cut short"), "%s", r.err);
    cr_expect(strstr(r.err, "partial: 2 results of a run that did not finish"), "%s", r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect(json_is_true(json_object_get(json_array_get(json_object_get(j, "runs"), 0), "partial")));
    cr_expect_eq(json_array_size(json_object_get(j, "entries")), 2);
    /* the first two results of the sample: seq copy and read */
    cr_expect_float_eq(real(entry(j, "seq", "copy", H100), "effective_gbs"), 3000.0, 1e-9);
    json_decref(j);
    tu_result_free(&r);
    /* a document that says "partial": true is marked too */
    tu_write_file(dir, "h100.json.partial", "");
    tu_write_file(dir, "doc.json", doc("{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": 1.5}",
                                       "\"schema_version\": 1,", "\"schema_version\": 1, \"partial\": true,"));
    const char *a1[] = { dir, "--format", "json", NULL };
    r = compare(a1);
    j = json_loads(r.out, 0, NULL);
    cr_assert(j, "%s", r.err);
    cr_expect(json_is_true(json_object_get(json_array_get(json_object_get(j, "runs"), 0), "partial")));
    json_decref(j);
    tu_result_free(&r);
    char p2[1024];
    snprintf(p2, sizeof p2, "%s/doc.json", dir);
    unlink(p2);
    /* a bad line before the last rejects the journal */
    tu_write_file(dir, "h100.json.partial", "{\"schema\": \"bwlab.results\"}\nnot json\n{}\n");
    const char *a2[] = { dir, NULL };
    r = compare(a2);
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "partial journal: line 2 is not valid JSON"), "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* src/report never includes src/ocl: every #include of the report's
 * sources and headers followed through the layers it may see. */
Test(compare, the_report_layer_never_includes_the_opencl_layer)
{
    static const char *const dirs[] = { "src/report",  "src/report/include", "src/results", "src/results/include",
                                        "src/bench",   "src/bench/include",  "src/model",   "src/model/include",
                                        "src/base" };
    static const char *const ocl[] = { "ocl_", "CL/" };
    tu_layer_includes_nothing_of("src/report", dirs, 9, ocl, 2);
    tu_layer_includes_nothing_of("src/report/include", dirs, 9, ocl, 2);
}

/* The loader API that bwlab report draws from (results_merge.h). */
Test(compare, the_loader_api_gives_absent_figures_as_nan)
{
    const char *paths[] = { sample("sample-nvidia-h100.json"), sample("sample-amd-mi300x.json"),
                            sample("sample-nvidia-h100-run2.json") };
    results_merged *m = NULL;
    cr_assert_eq(results_load_paths(paths, 3, &m, NULL), BW_OK);
    cr_assert_eq(m->n_devices, 2);
    cr_expect_eq(m->n_runs, 3);
    cr_expect_eq(m->n_diags, 0);
    cr_expect_eq(m->baseline, -1);
    size_t h = strcmp(m->devices[0].label, H100) == 0 ? 0 : 1;
    cr_assert_str_eq(m->devices[h].label, H100);
    cr_expect_eq(m->devices[h].n_runs, 2);
    cr_expect_eq(m->devices[h].lanes, 32);
    cr_expect_eq(m->devices[h].sector_bytes, 32);
    cr_expect_float_eq(m->devices[h].seq_gbs, 3050.0, 1e-9);
    cr_expect_float_eq(m->devices[h].peak_read_gbs, 3100.0, 1e-9);
    cr_expect(!results_merge_not_nan(m->devices[1 - h].peak_read_gbs), "the MI300X sample has no tuned peak");
    cr_expect_str_eq(m->devices[1 - h].board_name, "AMD Instinct MI300X");
    /* rows keep the order of first appearance: the H100 sample's first */
    cr_expect_str_eq(m->rows[0].pattern, "seq");
    cr_expect_str_eq(m->rows[0].access, "copy");
    size_t bank = m->n_rows;
    for (size_t r = 0; r < m->n_rows; r++)
        if (!strcmp(m->rows[r].pattern, "bank:pitch=32,stride=2"))
            bank = r;
    cr_assert(bank < m->n_rows);
    cr_expect_str_eq(m->rows[bank].space, "local");
    cr_expect(results_merged_entry(m, bank, 1 - h) == NULL, "the MI300X sample has no bank patterns");
    const results_merge_entry *e = results_merged_entry(m, bank, h);
    cr_assert(e);
    cr_expect_float_eq(e->local_gbs, 4600.0, 1e-9);
    cr_expect_float_eq(e->relative_to_reference, 4600.0 / 9000.0, 1e-12);
    cr_expect(e->conflict_ways > 0);
    e = results_merged_entry(m, 0, h);
    cr_assert(e);
    cr_expect_eq(e->n_samples, 2);
    cr_expect_float_eq(e->effective_min, 3000.0, 1e-9);
    cr_expect(!results_merge_not_nan(e->relative_to_baseline), "no baseline set");
    /* the roofline of the H100 sample: peaks 51000 GFLOP/s, 3000 GB/s */
    int roofs = 0;
    for (size_t r = 0; r < m->n_runs; r++) {
        if (!m->runs[r].has_roofline)
            continue;
        roofs++;
        cr_expect_float_eq(m->runs[r].roof_peak_gflops, 51000.0, 1e-9);
        cr_expect_float_eq(m->runs[r].roof_ridge_intensity, 17.0, 1e-12);
        cr_expect(m->runs[r].n_roof_points > 0);
    }
    cr_expect_eq(roofs, 1);
    cr_assert_eq(results_merge_set_baseline(m, "MI300X", NULL), BW_OK);
    cr_expect_eq(m->baseline, (int)(1 - h));
    cr_expect_float_eq(results_merged_entry(m, 0, h)->relative_to_baseline, 3050.0 / 4000.0, 1e-12);
    results_merged_free(m);
}

/* ---- input limits: sizes and counts a file may not exceed ---- */

/* A file with 100 000 results merges into 100 000 rows: one CSV row per
 * (pattern, device, mode), each pattern distinct. Built from the PoCL
 * sample's first result, kept to the keys a result needs. */
Test(compare, a_file_with_100000_results_is_merged, .timeout = 120)
{
    static const char *const keep[] = { "device", "pattern", "family", "access", "expression", "elem_bytes",
                                         "status", "effective_gbs", "relative_to_seq", "best_gbs", "time_ns" };
    json_error_t je;
    json_t *d = json_load_file(sample("pocl-cpu.json"), 0, &je);
    cr_assert_not_null(d, "%s", je.text);
    json_t *first = json_array_get(json_object_get(d, "results"), 0);
    json_t *slim = json_object();
    for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++) {
        json_t *v = json_object_get(first, keep[k]);
        cr_assert_not_null(v, "the sample's first result lacks %s", keep[k]);
        json_object_set(slim, keep[k], v);
    }
    json_t *results = json_array();
    const size_t n = 100000;
    for (size_t i = 0; i < n; i++) {
        json_t *r = json_copy(slim);
        char name[32];
        snprintf(name, sizeof name, "stride:s=%zu", i + 1);
        json_object_set_new(r, "pattern", json_string(name));
        json_array_append_new(results, r);
    }
    json_object_set_new(d, "results", results);
    char *dir = tu_temp_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/many.json", dir);
    cr_assert_eq(json_dump_file(d, path, JSON_COMPACT), 0);
    json_decref(slim);
    json_decref(d);
    const char *args[] = { path, "--format", "csv", NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 0, "exit %d: %.300s", r.status, r.err);
    size_t lines = 0;
    for (const char *c = r.out; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, n + 1, "%zu lines for %zu results and a header", lines, n);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A 100 MB file is refused by its size, before it is read, with a clear
 * message; the other inputs are still compared. */
Test(compare, a_100_mb_file_is_refused_by_name)
{
    char *dir = tu_temp_dir();
    char path[1024];
    snprintf(path, sizeof path, "%s/huge.json", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(ftruncate(fileno(f), 100 * 1000 * 1000), 0);
    fclose(f);
    const char *args[] = { sample("sample-amd-mi300x.json"), path, NULL };
    tu_result r = compare(args);
    cr_expect_eq(r.status, 2);
    char want[1200];
    snprintf(want, sizeof want, "bwlab compare: error: %s: cannot be read", path);
    cr_expect(strstr(r.err, want) && strstr(r.err, "larger than 64 MiB"), "%s", r.err);
    cr_expect(strstr(r.out, "2400.00 (0.60)"), "the good file is still compared:\n%s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A device name that is not UTF-8 (bwlab itself writes only UTF-8) is
 * invalid JSON: named, with the byte, and the other inputs compared. */
Test(compare, a_non_utf8_device_name_is_named)
{
    char *text = NULL;
    size_t len = 0;
    FILE *in = fopen(sample("pocl-cpu.json"), "rb");
    cr_assert_not_null(in);
    FILE *mem = open_memstream(&text, &len);
    int c;
    while ((c = fgetc(in)) != EOF)
        fputc(c, mem);
    fclose(in);
    fclose(mem);
    char *at = strstr(text, "\"name\": \"pthread-");
    cr_assert_not_null(at, "the sample's device name moved");
    at[strlen("\"name\": \"pthread-")] = (char)0xff;
    bad_input("latin1.json", text, "invalid JSON at line");
    free(text);
}

/* ---- directory scans that end, read each file once, open regular
 * files only; outputs that would replace an input ---- */

static void path_in(char *buf, size_t n, const char *dir, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

/* a socket bound at dir/name (left there when the socket is closed) */
static void make_socket(const char *dir, const char *name)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    int k = snprintf(a.sun_path, sizeof a.sun_path, "%s/%s", dir, name);
    cr_assert(k > 0 && (size_t)k < sizeof a.sun_path, "socket path too long");
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0, "bind: %s", strerror(errno));
    close(fd);
}

/* the number of lines of s that contain needle */
static size_t lines_with(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        n += strstr(line, needle) != NULL;
        free(line);
        p = nl ? nl + 1 : NULL;
    }
    return n;
}

#define TINY_FILES 10000

/* A directory that could trap a scan: two self-links, a FIFO, a socket and a
 * dangling link beside a real result, and 10 000 tiny result files (each a
 * distinct run: its one seq figure is 1 + i/10000 GB/s) in sub/. Compare
 * and report finish (the test's timeout is the bound), list 10 001 files
 * (each read once: a second read would be a duplicate or an "identical
 * to" note) and name the five entries they skipped, one line each. */
Test(compare, a_directory_of_links_loops_fifos_sockets_and_10000_files_ends, .timeout = 60)
{
    char *dir = tu_temp_dir();
    char p[1024], sub[1024];
    copy_to(dir, "r.json", sample("sample-nvidia-h100.json"));
    path_in(p, sizeof p, dir, "a");
    cr_assert_eq(symlink(".", p), 0);
    path_in(p, sizeof p, dir, "b");
    cr_assert_eq(symlink(".", p), 0);
    path_in(p, sizeof p, dir, "fifo.json");
    cr_assert_eq(mkfifo(p, 0644), 0);
    make_socket(dir, "sock.json");
    path_in(p, sizeof p, dir, "gone.json");
    cr_assert_eq(symlink("no-such-file.json", p), 0);
    path_in(sub, sizeof sub, dir, "sub");
    cr_assert_eq(mkdir(sub, 0755), 0);
    for (int i = 0; i < TINY_FILES; i++) {
        char name[64], body[64];
        snprintf(name, sizeof name, "t%05d.json", i);
        snprintf(body, sizeof body, "{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": 1.%04d}", i);
        tu_write_file(sub, name, doc(body, NULL, NULL));
    }
    const char *args[] = { dir, "--format", "json", NULL };
    tu_result r = compare(args);
    cr_assert_eq(r.status, 0, "exit %d: %.2000s", r.status, r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j, "%.2000s", r.err);
    json_t *files = json_object_get(j, "files");
    cr_expect_eq(json_array_size(files), TINY_FILES + 1, "%zu files", json_array_size(files));
    size_t i;
    json_t *f;
    json_array_foreach(files, i, f)
        cr_expect_eq(json_integer_value(json_object_get(f, "duplicates")), 0, "%s",
                     json_string_value(json_object_get(f, "path")));
    json_decref(j);
    cr_expect_eq(lines_with(r.err, "identical to"), 0, "a file was read twice:\n%.2000s", r.err);
    cr_expect_eq(lines_with(r.err, "the same file as"), 0, "%.2000s", r.err);
    /* the five skipped entries, one line each, notes not errors */
    static const struct { const char *name, *why; } skipped[] = {
        { "a", "a link to a directory already read" }, { "b", "a link to a directory already read" },
        { "fifo.json", "a FIFO, not a regular file" },  { "sock.json", "a socket, not a regular file" },
        { "gone.json", "a dangling link" },
    };
    for (size_t k = 0; k < 5; k++) {
        char want[1200];
        snprintf(want, sizeof want, "bwlab compare: note: %s/%s: skipped: %s", dir, skipped[k].name, skipped[k].why);
        cr_expect_eq(lines_with(r.err, want), 1, "want once: %s\n%.2000s", want, r.err);
    }
    cr_expect_eq(lines_with(r.err, "skipped"), 5, "%.2000s", r.err);
    cr_expect_eq(lines_with(r.err, "error"), 0, "%.2000s", r.err);
    tu_result_free(&r);
    /* report: the same scan */
    char html[1024];
    char *out = tu_temp_dir();
    path_in(html, sizeof html, out, "r.html");
    const char *rargs[] = { dir, "--output", html, NULL };
    r = tu_exec_without_opencl("report", rargs);
    cr_expect_eq(r.status, 0, "exit %d: %.2000s", r.status, r.err);
    cr_expect_eq(lines_with(r.err, "bwlab report: note: "), 5, "%.2000s", r.err);
    cr_expect_eq(lines_with(r.err, "identical to"), 0, "%.2000s", r.err);
    struct stat st;
    cr_expect(stat(html, &st) == 0 && st.st_size > 0);
    tu_result_free(&r);
    tu_rmdir(out);
    free(out);
    tu_rmdir(dir);
    free(dir);
}

/* One self-link read the directory's file 33 times before: now once. A
 * file reached by a second name (a hard link, a link, the same path
 * twice) is read once, with a note; past five such entries one line sums
 * up the rest. */
Test(compare, a_file_reached_twice_is_read_once_and_many_skips_are_summed_up, .timeout = 60)
{
    char *dir = tu_temp_dir();
    char p[1024], q[1024];
    char *r_json = copy_to(dir, "r.json", sample("sample-nvidia-h100.json"));
    char rj[1024];
    snprintf(rj, sizeof rj, "%s", r_json);
    path_in(p, sizeof p, dir, "self");
    cr_assert_eq(symlink(".", p), 0);
    const char *a1[] = { dir, "--format", "json", NULL };
    tu_result r = compare(a1);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect_eq(json_array_size(json_object_get(j, "files")), 1);
    json_decref(j);
    cr_expect_eq(lines_with(r.err, "\n"), 0);
    cr_expect_eq(lines_with(r.err, "skipped: a link to a directory already read"), 1, "%s", r.err);
    tu_result_free(&r);
    /* a hard link and a link to the file, and the path given twice */
    path_in(p, sizeof p, dir, "s.json");
    cr_assert_eq(link(rj, p), 0);
    path_in(q, sizeof q, dir, "t.json");
    cr_assert_eq(symlink("r.json", q), 0);
    const char *a2[] = { rj, rj, dir, "--format", "json", NULL };
    r = compare(a2);
    cr_assert_eq(r.status, 0, "%s", r.err);
    j = json_loads(r.out, 0, NULL);
    cr_assert(j);
    cr_expect_eq(json_array_size(json_object_get(j, "files")), 1);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(json_object_get(j, "files"), 0), "duplicates")), 0);
    json_decref(j);
    /* the second rj, r.json, s.json and t.json in the directory */
    cr_expect_eq(lines_with(r.err, "the same file as"), 4, "%s", r.err);
    cr_expect_eq(lines_with(r.err, "identical to"), 0, "%s", r.err);
    tu_result_free(&r);
    /* eight FIFOs: five named, then one line for the other three */
    for (int k = 0; k < 8; k++) {
        char name[32];
        snprintf(name, sizeof name, "f%d.json", k);
        path_in(p, sizeof p, dir, name);
        cr_assert_eq(mkfifo(p, 0644), 0);
    }
    unlink(q);
    path_in(p, sizeof p, dir, "s.json");
    unlink(p);
    path_in(p, sizeof p, dir, "self");
    unlink(p);
    const char *a3[] = { dir, NULL };
    r = compare(a3);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_eq(lines_with(r.err, "skipped: a FIFO"), 5, "%s", r.err);
    char want[1200];
    snprintf(want, sizeof want, "note: %s: 3 more entries skipped", dir);
    cr_expect_eq(lines_with(r.err, want), 1, "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A FIFO, a socket or a device named as an input is an error (exit 2)
 * at once: never opened, so the FIFO with no writer cannot block. */
Test(compare, a_fifo_named_as_an_input_is_an_error_not_a_hang, .timeout = 60)
{
    char *dir = tu_temp_dir();
    char p[1024];
    path_in(p, sizeof p, dir, "pipe");
    cr_assert_eq(mkfifo(p, 0644), 0);
    make_socket(dir, "sock");
    char s[1024];
    path_in(s, sizeof s, dir, "sock");
    static const char *const cmds[] = { "compare", "report" };
    for (size_t c = 0; c < 2; c++) {
        const char *args[] = { sample("sample-amd-mi300x.json"), p, s, "/dev/null", "--output", "/dev/null", NULL };
        tu_result r = tu_exec_without_opencl(cmds[c], args);
        cr_expect_eq(r.status, 2, "%s: exit %d: %s", cmds[c], r.status, r.err);
        char want[1200];
        snprintf(want, sizeof want, "bwlab %s: error: %s: a FIFO, not a result file", cmds[c], p);
        cr_expect(strstr(r.err, want), "%s", r.err);
        snprintf(want, sizeof want, "bwlab %s: error: %s: a socket, not a result file", cmds[c], s);
        cr_expect(strstr(r.err, want), "%s", r.err);
        snprintf(want, sizeof want, "bwlab %s: error: /dev/null: a character device, not a result file", cmds[c]);
        cr_expect(strstr(r.err, want), "%s", r.err);
        tu_result_free(&r);
    }
    tu_rmdir(dir);
    free(dir);
}

/* Unreadable entries are named and the rest compared. Root reads a 000
 * file anyway, so as root the command runs as nobody (setpriv), and the
 * case is skipped with a message where that is not possible. */
Test(compare, unreadable_entries_in_a_directory_are_named, .timeout = 60)
{
    char *dir = tu_temp_dir();
    chmod(dir, 0755);
    char p[1024], sub[1024];
    copy_to(dir, "a.json", sample("sample-amd-mi300x.json"));
    tu_write_file(dir, "locked.json", doc("{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": 1.5}", NULL, NULL));
    path_in(p, sizeof p, dir, "locked.json");
    chmod(p, 0);
    path_in(sub, sizeof sub, dir, "closed");
    mkdir(sub, 0755);
    tu_write_file(sub, "x.json", "{}");
    chmod(sub, 0);
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    tu_result r;
    if (geteuid() != 0) {
        const char *args[] = { dir, NULL };
        r = compare(args);
    } else {
        const char *argv[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "compare", dir,
                               NULL };
        const char *env[] = { "OCL_ICD_VENDORS=/nonexistent", NULL };
        r = tu_run_cmd(argv, env);
        if (r.status == 127 || strstr(r.err, "setpriv:") || strstr(r.err, "Permission denied") == NULL) {
            tu_result_free(&r);
            chmod(sub, 0755);
            tu_rmdir(dir);
            free(dir);
            cr_skip("running as root, and cannot run bwlab as nobody (setpriv): root reads a 000 file anyway");
        }
    }
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char want[1200];
    snprintf(want, sizeof want, "bwlab compare: error: %s: cannot be read", p);
    cr_expect(strstr(r.err, want) && strstr(r.err, "Permission denied"), "%s", r.err);
    snprintf(want, sizeof want, "bwlab compare: error: %s: cannot be read: Permission denied", sub);
    cr_expect(strstr(r.err, want), "%s", r.err);
    cr_expect(strstr(r.out, "2400.00"), "the readable file is still compared:\n%s", r.out);
    tu_result_free(&r);
    chmod(sub, 0755);
    tu_rmdir(dir);
    free(dir);
}

/* the bytes of a file, or NULL */
static char *slurp(const char *path)
{
    char *t = NULL;
    if (bw_file_read(path, &t, NULL, NULL) != BW_OK)
        return NULL;
    return t;
}

/* An output that is one of the inputs (the path itself, a link, a hard
 * link, or a file found in an input directory) is refused with exit 2
 * before anything is read or written; the input keeps its bytes. A new
 * file in an input directory is no input: written. */
Test(compare, an_output_that_is_an_input_is_refused)
{
    char *dir = tu_temp_dir();
    char a[1024], link_a[1024], hard_a[1024], fresh[1024];
    snprintf(a, sizeof a, "%s", copy_to(dir, "a.json", sample("sample-nvidia-h100.json")));
    char *before = slurp(a);
    cr_assert_not_null(before);
    path_in(link_a, sizeof link_a, dir, "link.json");
    cr_assert_eq(symlink("a.json", link_a), 0);
    path_in(hard_a, sizeof hard_a, dir, "hard.txt");
    cr_assert_eq(link(a, hard_a), 0);
    struct { const char *cmd, *input, *output; const char *format; } cases[] = {
        { "compare", a, a, "json" },      { "compare", a, link_a, "csv" },  { "compare", link_a, hard_a, "md" },
        { "compare", dir, a, "json" },    { "compare", a, a, "html" },      { "report", a, a, NULL },
        { "report", dir, hard_a, NULL },  { "report", link_a, a, NULL },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *args[] = { cases[k].input, "--output", cases[k].output, cases[k].format ? "--format" : NULL,
                               cases[k].format, NULL };
        tu_result r = tu_exec_without_opencl(cases[k].cmd, args);
        cr_expect_eq(r.status, 2, "%s %s --output %s: exit %d: %s", cases[k].cmd, cases[k].input, cases[k].output,
                     r.status, r.err);
        char want[1200];
        snprintf(want, sizeof want, "bwlab %s: error: --output: '%s' is ", cases[k].cmd, cases[k].output);
        cr_expect(strstr(r.err, want) && strstr(r.err, "would replace the results it holds"), "%s", r.err);
        cr_expect_str_empty(r.out);
        char *now = slurp(a);
        cr_assert_not_null(now);
        cr_expect_str_eq(now, before, "%s --output %s changed the input", cases[k].cmd, cases[k].output);
        free(now);
        tu_result_free(&r);
    }
    path_in(fresh, sizeof fresh, dir, "comparison.json");
    const char *ok[] = { dir, "--format", "json", "--output", fresh, NULL };
    tu_result r = compare(ok);
    cr_expect_eq(r.status, 0, "%s", r.err);
    struct stat st;
    cr_expect_eq(stat(fresh, &st), 0);
    tu_result_free(&r);
    free(before);
    tu_rmdir(dir);
    free(dir);
}

/* bwlab run keeps an earlier journal as OUT.partial.N: compare reads that
 * name as a journal too, in a directory or named. */
Test(compare, a_journal_kept_aside_is_read_as_a_journal)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "k.json.partial.2",
                  "{\"schema\": \"bwlab.results\", \"schema_version\": 1, \"partial\": true, \"devices\": "
                  "[{\"index\": 0, \"name\": \"Old GPU\", \"vendor\": \"Acme\", \"driver_version\": \"1.0\"}]}\n"
                  "{\"device\": 0, \"pattern\": \"seq\", \"effective_gbs\": 1.5}\n");
    char p[1024];
    path_in(p, sizeof p, dir, "k.json.partial.2");
    const char *named[] = { p, NULL };
    const char *scanned[] = { dir, NULL };
    const char *const *cases[] = { named, scanned };
    for (size_t k = 0; k < 2; k++) {
        tu_result r = compare(cases[k]);
        cr_expect_eq(r.status, 0, "%s", r.err);
        cr_expect(strstr(r.err, "partial: 1 results of a run that did not finish"), "%s", r.err);
        cr_expect(strstr(r.out, "1.50"), "%s", r.out);
        tu_result_free(&r);
    }
    tu_rmdir(dir);
    free(dir);
}

/* s with the digits after "surface" and "clip" dropped (in place) */
static char *without_numbers(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        int id = !strncmp(r, "surface", 7) || !strncmp(r, "clip", 4);
        size_t n = id ? (r[0] == 's' ? 7 : 4) : 1;
        memmove(w, r, n);
        w += n;
        r += n;
        while (id && *r >= '0' && *r <= '9')
            r++;
    }
    *w = 0;
    return s;
}

/* `bwlab run --report` merges its own document from memory: the page is
 * the one a file of the same document gives, with the file named by the
 * name given, and the caller's document is left as it was. */
Test(compare, a_document_in_memory_merges_as_its_file)
{
    const char *path = sample("pocl-cpu.json");
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    cr_assert(doc, "%s", je.text);
    json_t *before = json_deep_copy(doc);
    results_merged *a = NULL, *b = NULL;
    cr_assert_eq(results_load_doc(doc, "this run", &a, NULL), BW_OK);
    cr_expect(json_equal(doc, before), "the document is not changed");
    cr_assert_eq(results_load_paths(&path, 1, &b, NULL), BW_OK);
    cr_assert_eq(a->n_files, 1);
    cr_expect_str_eq(a->files[0].path, "this run");
    cr_expect_eq(a->n_diags, b->n_diags);
    cr_assert_eq(a->n_runs, b->n_runs);
    cr_expect_eq(a->n_entries, b->n_entries);
    /* the file's name, as the old temporary-file loader renamed it */
    free(b->files[0].path);
    b->files[0].path = strdup("this run");
    for (size_t i = 0; i < b->n_runs; i++) {
        cr_expect_str_eq(a->runs[i].file, "this run");
        free(b->runs[i].file);
        b->runs[i].file = strdup("this run");
    }
    report_html_options o = { NULL, "2026-01-01T00:00:00Z", 0, NULL };
    bw_buf ha = BW_BUF_INIT, hb = BW_BUF_INIT;
    cr_assert_eq(report_html_render(a, &o, &ha, NULL), BW_OK);
    cr_assert_eq(report_html_render(b, &o, &hb, NULL), BW_OK);
    cr_expect(ha.len > 1000);
    /* cairo numbers its surfaces and clips across the process: the
     * second page's ids count on from the first's */
    cr_expect_str_eq(without_numbers(ha.data), without_numbers(hb.data));
    bw_buf_free(&ha);
    bw_buf_free(&hb);
    results_merged_free(a);
    results_merged_free(b);
    json_decref(doc);
    json_decref(before);
}

/* The write run (pocl-cpu-write.json: seq, stride:s=2, offset:bytes=4 and
 * reverse in read, copy and write mode): its write rows are merged beside
 * the others, --mode write keeps only them, and each write row's
 * relative_to_seq is its GB/s over seq's in write mode (the file's
 * figures, read with jansson), not over copy's or read's. */
Test(compare, write_rows_are_merged_kept_by_mode_and_relative_to_seq_write)
{
    static const char *const patterns[] = { "seq", "stride:s=2", "offset:bytes=4", "reverse" };
    const char *path = sample("pocl-cpu-write.json");
    const char *all[] = { path, "--format", "json", NULL };
    json_t *j = compare_json(all);
    cr_expect_eq(json_array_size(json_object_get(j, "entries")), 12, "4 patterns in 3 modes");
    double seq_write = file_gbs(path, "seq", "write"), seq_copy = file_gbs(path, "seq", "copy");
    cr_assert(seq_write > 0 && seq_copy > 0);
    for (size_t k = 0; k < 4; k++) {
        json_t *e = entry(j, patterns[k], "write", "AMD pthread-haswell");
        cr_assert(e, "%s in write mode", patterns[k]);
        double gbs = file_gbs(path, patterns[k], "write");
        cr_expect_float_eq(real(e, "effective_gbs"), gbs, 1e-9, "%s", patterns[k]);
        cr_expect_float_eq(real(e, "relative_to_seq"), gbs / seq_write, 1e-9, "%s", patterns[k]);
        cr_expect(entry(j, patterns[k], "copy", "AMD pthread-haswell") && entry(j, patterns[k], "read", "AMD"),
                  "%s in copy and read mode too", patterns[k]);
    }
    /* the device's seq is copy's, as before the write mode */
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(j, "devices"), i, d)
        cr_expect_float_eq(real(d, "seq_gbs"), seq_copy, 1e-9);
    json_decref(j);

    const char *only[] = { path, "--mode", "write", "--format", "json", NULL };
    j = compare_json(only);
    json_t *e;
    size_t n = 0;
    json_array_foreach(json_object_get(j, "entries"), i, e) {
        cr_expect_str_eq(json_string_value(json_object_get(e, "access")), "write");
        n++;
    }
    cr_expect_eq(n, 4);
    json_decref(j);

    /* the table and the CSV name the mode of each row */
    const char *table[] = { path, "--mode", "write", NULL };
    tu_result r = compare(table);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "4 pattern rows, mode write"), "%s", r.out);
    cr_expect(strstr(r.out, "\n  stride:s=2      write "), "%s", r.out);
    tu_result_free(&r);
    const char *csv[] = { path, "--format", "csv", NULL };
    r = compare(csv);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "\nreverse,reverse,write,global,"), "%s", r.out);
    tu_result_free(&r);
}

/* ---- compare --check: the regression gate (tests/data/check) ---- */

static char *check_file(const char *name)
{
    static char buf[4][1024];
    static int k;
    char *b = buf[k++ % 4];
    snprintf(b, 1024, "%s/tests/data/check/%s", tu_source_root(), name);
    return b;
}

static json_t *check_row(json_t *doc, const char *pattern)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "rows"), i, r)
        if (!strcmp(json_string_value(json_object_get(r, "pattern")), pattern))
            return r;
    return NULL;
}

/* `compare --check BASELINE RUN --format json` from tests/data/check:
 * its exit status must be `status`; the document (caller frees) */
static json_t *check_json(const char *baseline, const char *run, int status)
{
    tu_result r = compare((const char *[]){ "--check", check_file(baseline), check_file(run), "--format", "json",
                                            NULL });
    cr_expect_eq(r.status, status, "exit %d: %s", r.status, r.err);
    json_error_t je;
    json_t *d = json_loads(r.out, 0, &je);
    cr_assert(d, "not JSON: %s\n%s", je.text, r.out);
    tu_result_free(&r);
    return d;
}

/* By hand. stride:s=2: 0.50 [0.49, 0.52] (half-width 0.02, the larger
 * side) against 0.44 [0.43, 0.45] (0.01): tolerance sqrt(0.02^2 + 0.01^2) =
 * 0.02236, change -0.06: regressed. stride:s=4, no interval, relative_spread
 * 0.01 each: sqrt(2) x 0.01 = 0.0141, under the 0.02 floor: 0.02; change
 * +0.01: same. seq: 60 against 59 GB/s, spreads 0.01 each: 0.0141, under
 * the floor: 2% of 60 = 1.2 GB/s; change -1: same. reverse (baseline
 * only) and mixed:s=32 (run only) are not compared. */
Test(compare, check_marks_a_planted_regression_and_exits_1)
{
    json_t *d = check_json("baseline.json", "run-regressed.json", 1);
    cr_expect_str_eq(json_string_value(json_object_get(d, "schema")), "bwlab.check");
    cr_expect_eq(json_integer_value(json_object_get(d, "compared")), 3);
    cr_expect_eq(json_integer_value(json_object_get(d, "regressed")), 1);
    cr_expect_eq(json_integer_value(json_object_get(d, "only_baseline")), 1);
    cr_expect_eq(json_integer_value(json_object_get(d, "only_run")), 1);
    json_t *s2 = check_row(d, "stride:s=2"), *s4 = check_row(d, "stride:s=4"), *seq = check_row(d, "seq");
    cr_assert(s2 && s4 && seq);
    cr_expect_str_eq(json_string_value(json_object_get(s2, "status")), "regressed");
    cr_expect_float_eq(json_number_value(json_object_get(s2, "change")), -0.06, 1e-9);
    cr_expect_float_eq(json_number_value(json_object_get(s2, "tolerance")), sqrt(0.02 * 0.02 + 0.01 * 0.01), 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(s4, "status")), "same");
    cr_expect_float_eq(json_number_value(json_object_get(s4, "tolerance")), 0.02, 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(seq, "figure")), "effective_gbs");
    cr_expect_str_eq(json_string_value(json_object_get(seq, "status")), "same");
    cr_expect_float_eq(json_number_value(json_object_get(seq, "tolerance")), 1.2, 1e-9);
    json_decref(d);
    /* the Markdown names the row, by how much and against what */
    tu_result r = compare((const char *[]){ "--check", check_file("baseline.json"), check_file("run-regressed.json"), NULL });
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.out, "1 of 3 rows REGRESSED") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "| stride:s=2 | copy | vs seq | 0.5 | 0.44 | -0.06 | ±0.02236 | regressed |") != NULL,
              "%s", r.out);
    tu_result_free(&r);
}

/* Inside the noise: stride:s=2 0.50 [0.49, 0.52] against 0.48 [0.46,
 * 0.50]: tolerance sqrt(0.02^2 + 0.02^2) = 0.0283 > 0.02 moved; stride:s=4
 * 0.30 against 0.285, within the 0.02 floor; seq 60 against 58.9 GB/s,
 * within 1.2: nothing fires, exit 0. */
Test(compare, check_does_not_fire_inside_the_noise)
{
    json_t *d = check_json("baseline.json", "run-in-noise.json", 0);
    cr_expect_eq(json_integer_value(json_object_get(d, "regressed")), 0);
    cr_expect_float_eq(json_number_value(json_object_get(check_row(d, "stride:s=2"), "tolerance")),
                       sqrt(0.0008), 1e-9);
    json_decref(d);
}

/* seq's own GB/s: 60 against 55, change -5 beyond 1.2: regressed, though
 * every vs seq held */
Test(compare, check_watches_seqs_own_bandwidth)
{
    json_t *d = check_json("baseline.json", "run-seq-slow.json", 1);
    cr_expect_str_eq(json_string_value(json_object_get(check_row(d, "seq"), "status")), "regressed");
    cr_expect_str_eq(json_string_value(json_object_get(check_row(d, "stride:s=2"), "status")), "same");
    json_decref(d);
}

/* bad input: one file, a file that is not a results document, no row in common: exit 2, named */
Test(compare, check_refuses_what_it_cannot_compare)
{
    tu_result r = compare((const char *[]){ "--check", check_file("baseline.json"), NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--check takes exactly two files") != NULL, "%s", r.err);
    tu_result_free(&r);
    char *dir = tu_temp_dir();
    tu_write_file(dir, "other.json", "{\"schema\": \"bwlab.tune\", \"results\": []}\n");
    tu_write_file(dir, "none.json", "{\"schema\": \"bwlab.results\", \"results\": [{\"device\": 0, \"pattern\": "
                                    "\"transpose\", \"access\": \"copy\", \"relative_to_seq\": 0.5}]}\n");
    tu_write_file(dir, "dup.json", "{\"schema\": \"bwlab.results\", \"schema\": \"bwlab.results\"}\n");
    char other[4200], none[4200], dup[4200];
    snprintf(other, sizeof other, "%s/other.json", dir);
    snprintf(none, sizeof none, "%s/none.json", dir);
    snprintf(dup, sizeof dup, "%s/dup.json", dir);
    r = compare((const char *[]){ "--check", check_file("baseline.json"), other, NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "is not a bwlab run results document") != NULL, "%s", r.err);
    tu_result_free(&r);
    r = compare((const char *[]){ "--check", check_file("baseline.json"), none, NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "share no measured row") != NULL, "%s", r.err);
    tu_result_free(&r);
    r = compare((const char *[]){ "--check", dup, check_file("baseline.json"), NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "duplicate") != NULL, "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* The plausibility words: nothing at or below the nominal peak or with
 * none known, words above it, the peak in TB/s from 1000 GB/s on. */
Test(compare, plausibility_words_above_the_nominal_peak)
{
    char b[RESULTS_PLAUSIBILITY_MAX];
    cr_expect_null(results_nominal_plausibility(4800.0, 4800.0, b, sizeof b));
    cr_expect_null(results_nominal_plausibility(3000.0, 4800.0, b, sizeof b));
    cr_expect_null(results_nominal_plausibility(9000.0, 0.0, b, sizeof b));
    cr_expect_str_eq(results_nominal_plausibility(5100.0, 4800.0, b, sizeof b),
                     "above the device's nominal 4.80 TB/s: cache or compression?");
    cr_expect_str_eq(results_nominal_plausibility(506.0, 136.5, b, sizeof b),
                     "above the device's nominal 136.5 GB/s: cache or compression?");
}

/* names read from a results file holding ESC, BEL, CR and LF (device,
 * host, label, note): no format compare writes, nor the HTML report,
 * carries one of those bytes raw; CSV and HTML write them \xNN */
static void rename_all(json_t *o)
{
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(o)) {
        void *tmp;
        json_object_foreach_safe(o, tmp, k, v) {
            if ((!strcmp(k, "name") || !strcmp(k, "host") || !strcmp(k, "note")) && json_is_string(v)) {
                char s[512];
                snprintf(s, sizeof s, "%s\x1b[2J\a\r\nX", json_string_value(v));
                json_object_set_new(o, k, json_string(s));
            } else {
                rename_all(v);
            }
        }
    } else if (json_is_array(o)) {
        json_array_foreach(o, i, v) rename_all(v);
    }
}

Test(compare, control_bytes_in_a_files_names_never_reach_the_output_raw)
{
    char *dir = tu_temp_dir(), *src = sample("pocl-cpu.json"), path[4200], html[4300];
    json_t *d = json_load_file(src, 0, NULL);
    cr_assert_not_null(d);
    rename_all(d);
    snprintf(path, sizeof path, "%s/esc.json", dir);
    cr_assert_eq(json_dump_file(d, path, 0), 0);
    json_decref(d);
    const char *formats[] = { "table", "md", "csv", "json", "html" };
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
        tu_result r = compare((const char *[]){ path, "--format", formats[f], NULL });
        cr_expect_eq(r.status, 0, "%s: exit %d: %s", formats[f], r.status, r.err);
        cr_expect(strpbrk(r.out, "\x1b\a\r") == NULL, "%s carries a raw control byte", formats[f]);
        cr_expect(strpbrk(r.err, "\x1b\a\r") == NULL, "%s: stderr carries a raw control byte", formats[f]);
        if (!strcmp(formats[f], "csv") || !strcmp(formats[f], "html"))
            cr_expect(strstr(r.out, "\\x1b[2J\\x07\\x0d\\x0aX") != NULL, "%s does not write them \\xNN", formats[f]);
        tu_result_free(&r);
    }
    snprintf(html, sizeof html, "%s/esc.html", dir);
    const char *argv[] = { "report", path, "--output", html, NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_expect_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    char *page = NULL;
    cr_assert_eq(bw_file_read(html, &page, NULL, NULL), BW_OK);
    cr_expect(strpbrk(page, "\x1b\a\r") == NULL, "the report carries a raw control byte");
    free(page);
    tu_rmdir(dir);
    free(dir);
}

/* every object key of the document, recursively, into seen (a
 * space-separated list, each key once) */
static void collect_keys(const json_t *o, bw_buf *seen)
{
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(o)) {
        json_object_foreach((json_t *)o, k, v) {
            char w[96];
            snprintf(w, sizeof w, " %s ", k);
            if (!strstr(bw_buf_str(seen), w))
                bw_buf_printf(seen, "%s ", k);
            collect_keys(v, seen);
        }
    } else if (json_is_array(o)) {
        json_array_foreach((json_t *)o, i, v) collect_keys(v, seen);
    }
}

/* compare's JSON over runs with rooflines, a probe and peer files: every
 * key it writes is in its key list (results_compare_keys.h), the head
 * every document starts with, or a roofline's keys; and docs/compare.md
 * names every key of the list */
Test(compare, every_key_of_the_json_is_in_the_key_list_and_the_docs)
{
    char peers[4200], probe[4200];
    snprintf(peers, sizeof peers, "%s/tests/data/peers/match", tu_source_root());
    snprintf(probe, sizeof probe, "%s/tests/data/probe/pocl-cpu-probe.json", tu_source_root());
    json_t *d = compare_json((const char *[]){ sample("pocl-cpu.json"), sample("sample-nvidia-h100.json"),
                                               sample("sample-amd-mi300x.json"), probe, peers, "--format", "json",
                                               NULL });
    bw_buf seen = BW_BUF_INIT;
    bw_buf_putc(&seen, ' ');
    collect_keys(d, &seen);
    json_decref(d);
    static const char *const head[] = { "schema", "schema_version", "tool", "name", "version", "date",
                                        "command_line" };
    const char *const roof[] = { RR_KEY(RR_STATUS), RR_KEY(RR_PEAK_GFLOPS), RR_KEY(RR_PEAK_GBS), RR_KEY(RR_RIDGE_INTENSITY),
                                        RR_KEY(RR_MEASURED_RIDGE_INTENSITY), RR_KEY(RR_POINTS), RR_KEY(RR_INTENSITY), RR_KEY(RR_GFLOPS), RR_KEY(RR_GBS),
                                        RR_KEY(RR_ATTAINABLE_GFLOPS) };
    char *copy = strdup(bw_buf_str(&seen)), *save = NULL;
    size_t n = 0;
    for (char *k = strtok_r(copy, " ", &save); k; k = strtok_r(NULL, " ", &save), n++) {
        int known = 0;
        for (size_t i = 0; i < CK_COUNT && !known; i++)
            known = !strcmp(RESULTS_COMPARE_KEYS[i].key, k);
        for (size_t i = 0; i < sizeof head / sizeof *head && !known; i++)
            known = !strcmp(head[i], k);
        for (size_t i = 0; i < sizeof roof / sizeof *roof && !known; i++)
            known = !strcmp(roof[i], k);
        cr_expect(known, "compare's JSON writes '%s', which no key list holds", k);
    }
    cr_expect_gt(n, 90, "the samples reach most of the document: %zu keys", n);
    free(copy);
    bw_buf_free(&seen);
    char path[4200], *doc = NULL;
    snprintf(path, sizeof path, "%s/%s", tu_source_root(), "docs/compare.md");
    cr_assert_eq(bw_file_read(path, &doc, NULL, NULL), BW_OK);
    for (size_t i = 0; i < CK_COUNT; i++) {
        char want[96], array[96]; /* an array's key is written `key[]` */
        snprintf(want, sizeof want, "`%s`", RESULTS_COMPARE_KEYS[i].key);
        snprintf(array, sizeof array, "`%s[]`", RESULTS_COMPARE_KEYS[i].key);
        cr_expect(strstr(doc, want) != NULL || strstr(doc, array) != NULL, "docs/compare.md does not name the key '%s'",
                  RESULTS_COMPARE_KEYS[i].key);
    }
    free(doc);
}

/* data/results holds a device's run, tune and probe side by side: compare
 * merges the run and the probe and passes over the tune document with a
 * note (not an error); a tune document alone is no results, said as such */
Test(compare, a_tune_document_beside_runs_is_passed_over_with_a_note)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", tu_source_root(), "data/results");
    tu_result r = compare((const char *[]){ dir, "--format", "json", NULL });
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "-tune.json: not compared: a bwlab tune document") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, "error") == NULL, "%s", r.err);
    json_t *d = json_loads(r.out, 0, NULL);
    cr_assert_not_null(d);
    cr_expect_geq(json_array_size(json_object_get(d, "runs")), 1);
    cr_expect_geq(json_array_size(json_object_get(d, "probes")), 1);
    json_decref(d);
    tu_result_free(&r);
    char *tmp = tu_temp_dir();
    tu_write_file(tmp, "t.json", "{\"schema\": \"bwlab.tune-results\", \"schema_version\": 1, \"devices\": []}");
    char path[4300];
    snprintf(path, sizeof path, "%s/t.json", tmp);
    r = compare((const char *[]){ path, NULL });
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect(strstr(r.err, "the inputs hold no bwlab run or probe results (1 bwlab document of another kind passed "
                            "over, named above)") != NULL,
              "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(tmp);
    free(tmp);
}
