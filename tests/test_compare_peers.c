/* `bwlab compare` and `bwlab report` with clpeak and BabelStream files
 * (tests/data/peers) beside a bwlab run (tests/data/results/pocl-cpu.json):
 * the match with bwlab's device (tests/data/peers/match names its device
 * and driver), a peer device of its own, "device not named", the JSON
 * keys, the tables, the HTML section and chart, bad peer files, and a
 * live clpeak run merged with a short bwlab run where clpeak is
 * installed. Expected figures are worked out by hand from the fixtures. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "test_util.h"

static char *path_of(const char *rel)
{
    static char buf[8][1024];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, 1024, "%s/tests/data/%s", tu_source_root(), rel);
    return b;
}

#define BWLAB_RUN path_of("results/pocl-cpu.json")
#define PEER(name) path_of("peers/" name)

static json_t *compare_json(const char *const *args, int want_status)
{
    const char *a[32] = { "--format", "json" };
    size_t n = 2;
    for (size_t i = 0; args[i] && n < 31; i++)
        a[n++] = args[i];
    a[n] = NULL;
    tu_result r = tu_exec_without_opencl("compare", a);
    cr_assert_eq(r.status, want_status, "exit %d: %s", r.status, r.err);
    if (!want_status)
        cr_assert_str_empty(r.err, "stderr: %s", r.err);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    cr_assert(j, "not JSON: %s", je.text);
    tu_result_free(&r);
    return j;
}

static const char *label0(json_t *doc)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(doc, "devices"), 0), "label"));
}

/* the peers[] entry of (file's basename suffix, test, metric) */
static json_t *peer(json_t *doc, const char *file, const char *test, const char *metric)
{
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(doc, "peers"), i, p) {
        const char *f = json_string_value(json_object_get(p, "file"));
        size_t lf = strlen(f), ln = strlen(file);
        if (lf >= ln && !strcmp(f + lf - ln, file) && !strcmp(json_string_value(json_object_get(p, "test")), test) &&
            !strcmp(json_string_value(json_object_get(p, "metric")), metric))
            return p;
    }
    cr_assert_fail("no peer %s %s %s", file, test, metric);
    return NULL;
}

/* the keys of o, exactly */
static void keys_are(json_t *o, const char *const *keys)
{
    size_t n = 0;
    for (; keys[n]; n++)
        cr_assert(json_object_get(o, keys[n]), "key %s missing", keys[n]);
    cr_assert_eq(json_object_size(o), n, "%zu keys, expected %zu", json_object_size(o), n);
}

static const char *const BW_KEYS[] = { "tool", "tool_version", "file", "device", "test",
                                       "metric", "gbs", "note", "bwlab", NULL };
static const char *const OTHER_KEYS[] = { "tool", "tool_version", "file", "device", "test",
                                          "metric", "gbs", "value", "unit", "note", "bwlab", NULL };

/* seq's measured GB/s in copy mode in the bwlab fixture, read from the file */
static double fixture_seq_copy(void)
{
    json_t *doc = json_load_file(BWLAB_RUN, 0, NULL);
    cr_assert_not_null(doc);
    size_t i;
    json_t *r;
    double v = -1;
    json_array_foreach(json_object_get(doc, "results"), i, r) {
        const char *acc = json_string_value(json_object_get(r, "access"));
        if (!strcmp(json_string_value(json_object_get(r, "pattern")), "seq") && (!acc || !strcmp(acc, "copy")))
            v = json_number_value(json_object_get(r, "effective_gbs"));
    }
    json_decref(doc);
    cr_assert_gt(v, 0, "the fixture has seq in copy mode");
    return v;
}

Test(compare_peers, clpeak_matches_the_bwlab_device)
{
    json_t *d = compare_json((const char *[]){ BWLAB_RUN, PEER("match/clpeak-pocl-cpu.xml"), NULL }, 0);
    cr_assert_eq(json_array_size(json_object_get(d, "peers")), 3);
    cr_assert_eq(json_array_size(json_object_get(d, "devices")), 1, "the peer joins the bwlab device's column");
    json_t *f = peer(d, "clpeak-pocl-cpu.xml", "global_memory_bandwidth", "float4");
    keys_are(f, BW_KEYS);
    cr_assert_str_eq(json_string_value(json_object_get(f, "tool")), "clpeak");
    cr_assert_str_eq(json_string_value(json_object_get(f, "tool_version")), "1.x");
    cr_assert_str_eq(json_string_value(json_object_get(f, "device")), label0(d));
    cr_assert_float_eq(json_real_value(json_object_get(f, "gbs")), 12.25, 1e-12);
    /* its bwlab counterpart: the device's seq, copy mode */
    json_t *b = json_object_get(f, "bwlab");
    cr_assert_str_eq(json_string_value(json_object_get(b, "what")), "seq (copy)");
    cr_assert_str_eq(json_string_value(json_object_get(b, "unit")), "GB/s");
    cr_assert_float_eq(json_real_value(json_object_get(b, "value")), fixture_seq_copy(), 1e-9);
    /* clpeak 1.x on a 2 GiB allocation reads 2^27 floats (512 MiB), more
     * than 4 x the 32 MiB cache: no note */
    cr_assert(json_is_null(json_object_get(f, "note")));
    json_t *l = peer(d, "clpeak-pocl-cpu.xml", "kernel_launch_latency", "latency");
    keys_are(l, OTHER_KEYS);
    cr_assert(json_is_null(json_object_get(l, "gbs")));
    cr_assert_float_eq(json_real_value(json_object_get(l, "value")), 20.5, 1e-12);
    cr_assert_str_eq(json_string_value(json_object_get(l, "unit")), "us");
    /* no probe in the inputs: bwlab has no launch latency to set beside it */
    cr_assert(json_is_null(json_object_get(l, "bwlab")));
    json_decref(d);
    /* with the device's probe file, its launch latency is the counterpart */
    d = compare_json((const char *[]){ BWLAB_RUN, PEER("match/clpeak-pocl-cpu.xml"), path_of("probe/pocl-cpu-probe.json"),
                                       NULL },
                     0);
    l = peer(d, "clpeak-pocl-cpu.xml", "kernel_launch_latency", "latency");
    b = json_object_get(l, "bwlab");
    cr_assert_str_eq(json_string_value(json_object_get(b, "what")), "launch latency");
    cr_assert_str_eq(json_string_value(json_object_get(b, "unit")), "us");
    json_t *probe = json_load_file(path_of("probe/pocl-cpu-probe.json"), 0, NULL);
    cr_assert_not_null(probe);
    json_t *dev0 = json_array_get(json_object_get(probe, "devices"), 0);
    json_t *lat = json_object_get(dev0, "launch_latency_us");
    if (!lat)
        lat = json_object_get(json_object_get(dev0, "launch"), "latency_us");
    cr_assert(json_is_number(lat), "the probe fixture's launch latency");
    cr_assert_float_eq(json_real_value(json_object_get(b, "value")), json_number_value(lat), 1e-9);
    json_decref(probe);
    json_decref(d);
}

Test(compare_peers, babelstream_matches_and_notes_a_cache_sized_buffer)
{
    json_t *d = compare_json((const char *[]){ BWLAB_RUN, PEER("match/babelstream-pocl-cpu.csv"), NULL }, 0);
    json_t *copy = peer(d, "babelstream-pocl-cpu.csv", "Copy", "double");
    keys_are(copy, BW_KEYS);
    cr_assert_str_eq(json_string_value(json_object_get(copy, "tool")), "babelstream");
    cr_assert_str_eq(json_string_value(json_object_get(copy, "device")), label0(d));
    /* 11000 MB/s = 11 GB/s */
    cr_assert_float_eq(json_real_value(json_object_get(copy, "gbs")), 11.0, 1e-12);
    /* Copy: 2 arrays x 2^20 doubles = 16 MiB < 4 x 32 MiB (the run's working_set_cache_bytes) */
    const char *note = json_string_value(json_object_get(copy, "note"));
    cr_assert(note && strstr(note, "may not be a DRAM figure") && strstr(note, "16777216"), "note: %s",
              note ? note : "(null)");
    /* Triad: 3 x 8 x 2^26 = 1.5 GiB: a DRAM-sized buffer */
    json_t *triad = peer(d, "babelstream-pocl-cpu.csv", "Triad", "double");
    cr_assert(json_is_null(json_object_get(triad, "note")));
    cr_assert_float_eq(json_real_value(json_object_get(triad, "gbs")), 9.5, 1e-12);
    json_decref(d);
}

Test(compare_peers, an_other_device_and_a_device_not_named)
{
    json_t *d = compare_json(
        (const char *[]){ BWLAB_RUN, PEER("clpeak-1.1.2.xml"), PEER("babelstream-v6.0-rc-mibibytes.csv"), NULL }, 0);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(d, "peers"), i, p)
        cr_assert(json_is_null(json_object_get(p, "device")), "peer %zu matched", i);
    /* 2^20 floats x 2 arrays: 95367.431640625 MiB/s x 2^20 = 100 GB/s */
    cr_assert_float_eq(json_real_value(json_object_get(peer(d, "mibibytes.csv", "Copy", "float"), "gbs")), 100.0, 1e-9);
    json_decref(d);
    tu_result r = tu_exec_without_opencl(
        "compare",
        (const char *[]){ BWLAB_RUN, PEER("clpeak-1.1.2.xml"), PEER("babelstream-v6.0-rc-mibibytes.csv"), NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "pthread-haswell-AMD EPYC 9B14 [3.1+debian] (no bwlab run)"), "%s", r.out);
    cr_assert(strstr(r.out, "NVIDIA GeForce GTX 1080 [470.57.02] (no bwlab run)"));
    cr_assert(strstr(r.out, "device not named (no bwlab run)"));
    tu_result_free(&r);
}

/* every fixture reads beside the bwlab run, as its tool */
Test(compare_peers, every_fixture)
{
    const struct {
        const char *file, *tool;
    } f[] = { { "clpeak-1.1.2.xml", "clpeak" },          { "clpeak-2.1.2.xml", "clpeak" },
              { "clpeak-2.1.2.json", "clpeak" },         { "clpeak-2.1.2.csv", "clpeak" },
              { "babelstream-ocl-v5.0.csv", "babelstream" }, { "babelstream-v6.0-rc-mibibytes.csv", "babelstream" },
              { "babelstream-ocl-v4.0-triad-only.csv", "babelstream" } };
    for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "peers/%s", f[i].file);
        json_t *d = compare_json((const char *[]){ BWLAB_RUN, path_of(rel), NULL }, 0);
        json_t *peers = json_object_get(d, "peers");
        cr_assert_gt(json_array_size(peers), 0, "%s", f[i].file);
        cr_assert_str_eq(json_string_value(json_object_get(json_array_get(peers, 0), "tool")), f[i].tool);
        cr_assert_gt(json_array_size(json_object_get(d, "entries")), 0, "bwlab's rows stay");
        json_decref(d);
        /* and the report: its peers table holds the file */
        tu_result r = tu_exec_without_opencl("report", (const char *[]){ BWLAB_RUN, path_of(rel), NULL });
        cr_assert_eq(r.status, 0, "%s: %s", f[i].file, r.err);
        const char *t = strstr(r.out, "<table id=\"peers-table\">");
        cr_assert(t && strstr(t, f[i].file), "%s", f[i].file);
        tu_result_free(&r);
    }
}

Test(compare_peers, tables_in_text_markdown_and_csv)
{
    const char *formats[] = { "table", "md", "csv" };
    for (size_t i = 0; i < 3; i++) {
        tu_result r = tu_exec_without_opencl(
            "compare", (const char *[]){ "--format", formats[i], BWLAB_RUN, PEER("match/clpeak-pocl-cpu.xml"), NULL });
        cr_assert_eq(r.status, 0, "%s: %s", formats[i], r.err);
        if (i < 2) {
            cr_assert(strstr(r.out, i ? "## Peers: clpeak and BabelStream" : "\nPeers: clpeak and BabelStream"),
                      "%s", formats[i]);
            /* the device's seq (12.4943688977852 GB/s) beside the peer figure */
            const char *row = strstr(strstr(r.out, "Peers: clpeak"), "float4");
            const char *end = row ? strchr(row, '\n') : NULL;
            cr_assert(end, "%s", r.out);
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)(end - row), row);
            cr_assert(strstr(line, "12.25") && strstr(line, "12.49"), "%s", line);
        } else {
            const char *h =
                strstr(r.out, "\npeer_tool,tool_version,file,device,column,test,metric,role,value,unit,gbs,");
            cr_assert(h, "%s", r.out);
            cr_assert(strstr(h, ",global_memory_bandwidth,float4,read,12.25,GB/s,12.25,12.4943688977852,"), "%s", h);
        }
        tu_result_free(&r);
    }
    /* without peer files: no peers section, no peers key */
    tu_result r = tu_exec_without_opencl("compare", (const char *[]){ BWLAB_RUN, NULL });
    cr_assert(!strstr(r.out, "Peers"));
    tu_result_free(&r);
    json_t *d = compare_json((const char *[]){ BWLAB_RUN, NULL }, 0);
    cr_assert(!json_object_get(d, "peers"));
    json_decref(d);
}

Test(compare_peers, report_has_the_table_and_the_chart)
{
    char *dir = tu_temp_dir();
    char out[1024];
    snprintf(out, sizeof out, "%s/r.html", dir);
    tu_result r = tu_exec_without_opencl(
        "report",
        (const char *[]){ "--output", out, BWLAB_RUN, PEER("match"), PEER("babelstream-v6.0-rc-mibibytes.csv"), NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    tu_result_free(&r);
    char *html = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read_regular(out, &html, &len, &err), BW_OK);
    cr_assert(strstr(html, "<table id=\"peers-table\">"));
    cr_assert(strstr(html, "bwlab and the peers, same device"));
    /* a chart per device column: the matched device's seq (no tuned peak
     * in the file) and its four peer bandwidth figures (2 BabelStream, 2
     * clpeak; the launch latency is no bandwidth), then the five of the
     * unnamed device */
    cr_assert(strstr(html, "id=\"fig-peers\" data-figure=\"peers\" data-charts=\"2\" data-points=\"10\""));
    cr_assert(strstr(html, "device not named (no bwlab run)"));
    cr_assert(strstr(html, "may not be a DRAM figure"));
    free(html);
    /* without peers, no section */
    r = tu_exec_without_opencl("report", (const char *[]){ "--output", out, BWLAB_RUN, NULL });
    cr_assert_eq(r.status, 0);
    tu_result_free(&r);
    cr_assert_eq(bw_file_read_regular(out, &html, &len, &err), BW_OK);
    cr_assert(!strstr(html, "peers-table"));
    free(html);
    tu_rmdir(dir);
    free(dir);
}

Test(compare_peers, a_bad_peer_file_is_named_and_the_rest_compared)
{
    json_t *d = compare_json(
        (const char *[]){ BWLAB_RUN, PEER("bad/clpeak-nan.csv"), PEER("match/clpeak-pocl-cpu.xml"), NULL }, 2);
    cr_assert_eq(json_array_size(json_object_get(d, "peers")), 3);
    cr_assert_gt(json_array_size(json_object_get(d, "entries")), 0);
    json_decref(d);
    tu_result r = tu_exec_without_opencl(
        "compare", (const char *[]){ BWLAB_RUN, PEER("bad/clpeak-nan.csv"), PEER("match/clpeak-pocl-cpu.xml"), NULL });
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "clpeak-nan.csv: line") && strstr(r.err, "nan"), "%s", r.err);
    cr_assert(strstr(r.err, "the rest was compared"), "%s", r.err);
    cr_assert(strstr(r.out, "Peers: clpeak and BabelStream"));
    tu_result_free(&r);
}

/* a .csv in a directory that is neither bwlab's nor a peer's: named, skipped */
Test(compare_peers, a_directory_scan_reads_peers_and_names_other_csv)
{
    char *dir = tu_temp_dir();
    char *text = NULL, *peer_text = NULL;
    size_t len = 0, plen = 0;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read_regular(BWLAB_RUN, &text, &len, &err), BW_OK);
    cr_assert_eq(bw_file_read_regular(PEER("match/babelstream-pocl-cpu.csv"), &peer_text, &plen, &err), BW_OK);
    tu_write_file(dir, "run.json", text);
    tu_write_file(dir, "stream.csv", peer_text);
    tu_write_file(dir, "notes.csv", "name,value\nfoo,1\n");
    tu_write_file(dir, "notes.txt", "not read at all\n");
    /* bwlab's own CSV (here compare's header) is a note, not an error */
    tu_write_file(dir, "table.csv", "pattern,family,access,space,device,vendor\nseq,,copy,global,x,y\n");
    free(text);
    free(peer_text);
    tu_result r = tu_exec_without_opencl("compare", (const char *[]){ "--format", "json", dir, NULL });
    cr_assert_eq(r.status, 2, "%s", r.err);
    cr_assert(strstr(r.err, "notes.csv: neither a bwlab result file nor a clpeak or BabelStream file"), "%s", r.err);
    cr_assert(!strstr(r.err, "notes.txt"));
    cr_assert(strstr(r.err, "note: ") && strstr(r.err, "table.csv: bwlab's own CSV output: not read"), "%s", r.err);
    cr_assert(strstr(r.err, "1 problem in the inputs"), "%s", r.err);
    json_t *d = json_loads(r.out, 0, NULL);
    cr_assert(d);
    cr_assert_eq(json_array_size(json_object_get(d, "peers")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(d, "peers"), 0), "device")),
                     label0(d));
    json_decref(d);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* the same peer file twice (two names): its figures once, and a note */
Test(compare_peers, an_identical_peer_file_is_counted_once)
{
    char *dir = tu_temp_dir();
    char *text = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read_regular(PEER("match/clpeak-pocl-cpu.xml"), &text, &len, &err), BW_OK);
    tu_write_file(dir, "copy.xml", text);
    free(text);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s/copy.xml", dir);
    tu_result r = tu_exec_without_opencl(
        "compare", (const char *[]){ "--format", "json", BWLAB_RUN, PEER("match/clpeak-pocl-cpu.xml"), copy, NULL });
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.err, "copy.xml: identical to ") && strstr(r.err, "counted once"), "%s", r.err);
    json_t *d = json_loads(r.out, 0, NULL);
    cr_assert_eq(json_array_size(json_object_get(d, "peers")), 3);
    json_decref(d);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

static int have_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *p = strdup(path);
    int found = 0;
    for (char *save = NULL, *dir = strtok_r(p, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char f[1024];
        snprintf(f, sizeof f, "%s/%s", dir, name);
        found = access(f, X_OK) == 0;
    }
    free(p);
    return found;
}

/* clpeak on PoCL, merged with a short bwlab run on the same device: the
 * peer lands in bwlab's column (device names and drivers both come from
 * the OpenCL queries) */
Test(compare_peers, live_clpeak_beside_a_bwlab_run, .timeout = 900)
{
    if (!have_program("clpeak"))
        cr_skip_test("clpeak is not installed (tools/setup.sh installs it): no live peer run");
    /* clpeak is no sanitized program, and its 25 s on a small CPU would be
     * spent again on what the plain pass checked */
    if (getenv("BWLAB_TEST_QUICK"))
        cr_skip_test("the sanitizer pass (BWLAB_TEST_QUICK) leaves the live clpeak run to the plain pass");
    char *dir = tu_temp_dir();
    char xml[1024];
    snprintf(xml, sizeof xml, "%s/clpeak.xml", dir);
    tu_result c = tu_run_cmd((const char *[]){ "clpeak", "--global-bandwidth", "--xml-file", xml, NULL }, NULL);
    if (c.status != 0 || access(xml, R_OK) != 0) {
        tu_result_free(&c);
        tu_rmdir(dir);
        free(dir);
        cr_skip_test("clpeak found no OpenCL device to run on here");
    }
    tu_result_free(&c);
    tu_result r = tu_exec((const char *[]){ "run", "--device", "cpu", "--pattern", "seq", "--size", "16M", "--budget",
                                            "2", "--no-roofline", "--format", "json", NULL },
                          NULL);
    cr_assert_eq(r.status, 0, "bwlab run: %s", r.err);
    tu_write_file(dir, "run.json", r.out);
    tu_result_free(&r);
    char run[1024];
    snprintf(run, sizeof run, "%s/run.json", dir);
    json_t *d = compare_json((const char *[]){ run, xml, NULL }, 0);
    json_t *peers = json_object_get(d, "peers");
    size_t i, matched = 0;
    json_t *p;
    json_array_foreach(peers, i, p) {
        cr_assert_str_eq(json_string_value(json_object_get(p, "test")), "global_memory_bandwidth");
        if (json_is_string(json_object_get(p, "device")) &&
            !strcmp(json_string_value(json_object_get(p, "device")), label0(d)))
            matched++;
    }
    cr_assert_gt(matched, 0, "no clpeak figure matched %s", label0(d));
    json_decref(d);
    tu_rmdir(dir);
    free(dir);
}
