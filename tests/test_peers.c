/* results_peer: clpeak and BabelStream result files (tests/data/peers, whose
 * README says from which writer each layout comes) read into figures. The
 * expected figures are worked out by hand from the fixtures' numbers and
 * the tools' units; malformed files must be refused with a message naming
 * the file and what is wrong, never crash. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "results_peer.h"
#include "test_util.h"
#include "results_peer_priv.h"

static char *fixture(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/peers/%s", tu_source_root(), name);
    char *text = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bw_file_read(path, &text, len, &err), BW_OK, "%s: %s", path, bw_error_text(&err));
    return text;
}

static results_peer_file *read_ok(const char *name)
{
    size_t len;
    char *text = fixture(name, &len);
    results_peer_file *f = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_peer_read(text, len, name, &f, &err), BW_OK, "%s: %s", name, bw_error_text(&err));
    cr_assert_not_null(f, "%s was not recognised as a peer file", name);
    free(text);
    return f;
}

/* the message of a refused fixture (caller frees) */
static char *read_bad(const char *name)
{
    size_t len;
    char *text = fixture(name, &len);
    results_peer_file *f = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_peer_read(text, len, name, &f, &err), BW_E_FORMAT, "%s was not refused", name);
    cr_assert_null(f);
    cr_assert_not_null(err.msg);
    cr_assert(!strncmp(err.msg, name, strlen(name)), "the message does not name the file: %s", err.msg);
    char *msg = err.msg;
    free(text);
    return msg;
}

static void expect_figure(const results_peer_file *f, size_t i, size_t dev, results_peer_role role, const char *test,
                          const char *metric, double value, results_peer_unit unit, uint64_t bytes)
{
    cr_assert_lt(i, f->n_figures);
    const results_peer_figure *g = &f->figures[i];
    cr_expect_eq(g->device, dev, "figure %zu device %zu", i, g->device);
    cr_expect_eq(g->role, role, "figure %zu role %s", i, results_peer_role_name(g->role));
    cr_expect_str_eq(g->test, test, "figure %zu", i);
    cr_expect_str_eq(g->metric, metric, "figure %zu", i);
    cr_expect(fabs(g->value - value) <= 1e-9 * value, "figure %zu (%s %s): %.17g, expected %.17g", i, test, metric,
              g->value, value);
    cr_expect_eq(g->unit, unit, "figure %zu unit %s", i, results_peer_unit_name(g->unit));
    cr_expect_eq(g->buffer_bytes, bytes, "figure %zu bytes %llu", i, (unsigned long long)g->buffer_bytes);
    cr_expect_null(g->note, "figure %zu", i);
}

static void expect_device(const results_peer_file *f, size_t i, const char *backend, const char *platform,
                          const char *device, const char *driver)
{
    cr_assert_lt(i, f->n_devices);
    const results_peer_device *d = &f->devices[i];
    const char *want[4] = { backend, platform, device, driver };
    const char *got[4] = { d->backend, d->platform, d->device, d->driver };
    for (int k = 0; k < 4; k++) {
        if (!want[k])
            cr_expect_null(got[k], "device %zu field %d: '%s'", i, k, got[k]);
        else
            cr_expect(got[k] && !strcmp(got[k], want[k]), "device %zu field %d: '%s', expected '%s'", i, k,
                      got[k] ? got[k] : "(null)", want[k]);
    }
}

#define PK "Portable Computing Language"

Test(peers, clpeak_1x_xml)
{
    results_peer_file *f = read_ok("clpeak-1.1.2.xml");
    cr_expect_eq(f->format, RESULTS_PEER_CLPEAK_XML);
    cr_expect_str_eq(f->tool, "clpeak");
    cr_expect_str_eq(f->tool_version, "1.x");
    cr_assert_eq(f->n_devices, 2);
    expect_device(f, 0, "OpenCL", PK, "pthread-haswell-AMD EPYC 9B14", "3.1+debian");
    expect_device(f, 1, "OpenCL", "NVIDIA CUDA", "NVIDIA GeForce GTX 1080", "470.57.02");
    cr_assert_eq(f->n_figures, 13);
    const char *w[] = { "float", "float2", "float4", "float8", "float16" };
    const double gb[] = { 3.59489, 10.9801, 13.9572, 15.875, 11.7513 };
    for (size_t i = 0; i < 5; i++)
        expect_figure(f, i, 0, RESULTS_PEER_READ, "global_memory_bandwidth", w[i], gb[i], RESULTS_PEER_GBS, 0);
    expect_figure(f, 5, 0, RESULTS_PEER_COMPUTE, "single_precision_compute", "float", 45.125, RESULTS_PEER_GFLOPS, 0);
    expect_figure(f, 6, 0, RESULTS_PEER_COMPUTE, "single_precision_compute", "float4", 60.5, RESULTS_PEER_GFLOPS, 0);
    /* 1.x labels its integer test "gflops"; it counts integer operations */
    expect_figure(f, 7, 0, RESULTS_PEER_COMPUTE, "integer_compute", "int", 20.5, RESULTS_PEER_GOPS, 0);
    expect_figure(f, 8, 0, RESULTS_PEER_TRANSFER, "transfer_bandwidth", "enqueuewritebuffer", 8.25, RESULTS_PEER_GBS, 0);
    expect_figure(f, 9, 0, RESULTS_PEER_TRANSFER, "transfer_bandwidth", "enqueuereadbuffer", 7.5, RESULTS_PEER_GBS, 0);
    expect_figure(f, 10, 0, RESULTS_PEER_LAUNCH, "kernel_launch_latency", "latency", 12.34, RESULTS_PEER_US, 0);
    expect_figure(f, 11, 1, RESULTS_PEER_READ, "global_memory_bandwidth", "float", 250.5, RESULTS_PEER_GBS, 0);
    expect_figure(f, 12, 1, RESULTS_PEER_READ, "global_memory_bandwidth", "float4", 280.75, RESULTS_PEER_GBS, 0);
    cr_expect_eq(f->n_left_out, 0);
    results_peer_file_free(f);
}

Test(peers, clpeak_2x_xml)
{
    results_peer_file *f = read_ok("clpeak-2.1.2.xml");
    cr_expect_eq(f->format, RESULTS_PEER_CLPEAK_XML);
    cr_expect_str_eq(f->tool_version, "2.1.2");
    cr_assert_eq(f->n_devices, 1);
    expect_device(f, 0, "OpenCL", PK, "cpu-haswell-AMD EPYC 9B14", "6.0+debian");
    cr_assert_eq(f->n_figures, 10);
    expect_figure(f, 0, 0, RESULTS_PEER_COMPUTE, "single_precision_compute", "float", 52.125, RESULTS_PEER_GFLOPS, 0);
    expect_figure(f, 1, 0, RESULTS_PEER_COMPUTE, "single_precision_compute", "float16", 61.5, RESULTS_PEER_GFLOPS, 0);
    const char *w[] = { "float", "float2", "float4", "float8", "float16" };
    const double gb[] = { 3.5949, 10.9801, 13.9572, 15.875, 11.7513 };
    for (size_t i = 0; i < 5; i++)
        expect_figure(f, 2 + i, 0, RESULTS_PEER_READ, "global_memory_bandwidth", w[i], gb[i], RESULTS_PEER_GBS, 0);
    expect_figure(f, 7, 0, RESULTS_PEER_TRANSFER, "transfer_bandwidth", "enqueuewritebuffer", 8.25, RESULTS_PEER_GBS, 0);
    expect_figure(f, 8, 0, RESULTS_PEER_LAUNCH, "kernel_launch_latency", "dispatch", 5.1, RESULTS_PEER_US, 0);
    expect_figure(f, 9, 0, RESULTS_PEER_LAUNCH, "kernel_launch_latency", "roundtrip", 20.25, RESULTS_PEER_US, 0);
    /* half: unsupported; local memory: maps to nothing; the map's 0.0000 */
    cr_expect_eq(f->n_left_out, 3);
    results_peer_file_free(f);
}

Test(peers, clpeak_2x_json)
{
    results_peer_file *f = read_ok("clpeak-2.1.2.json");
    cr_expect_eq(f->format, RESULTS_PEER_CLPEAK_JSON);
    cr_expect_str_eq(f->tool_version, "2.1.2");
    cr_assert_eq(f->n_devices, 2);
    expect_device(f, 0, "OpenCL", PK, "cpu-haswell-AMD EPYC 9B14", "6.0+debian");
    expect_device(f, 1, "CUDA", "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", "550.54.15");
    cr_assert_eq(f->n_figures, 7);
    expect_figure(f, 0, 0, RESULTS_PEER_COMPUTE, "single_precision_compute", "float", 52.125, RESULTS_PEER_GFLOPS, 0);
    expect_figure(f, 1, 0, RESULTS_PEER_READ, "global_memory_bandwidth", "float", 3.5949, RESULTS_PEER_GBS, 0);
    expect_figure(f, 2, 0, RESULTS_PEER_READ, "global_memory_bandwidth", "float4", 13.9572, RESULTS_PEER_GBS, 0);
    expect_figure(f, 3, 0, RESULTS_PEER_TRANSFER, "transfer_bandwidth", "enqueuewritebuffer", 8.25, RESULTS_PEER_GBS, 0);
    expect_figure(f, 4, 0, RESULTS_PEER_LAUNCH, "kernel_launch_latency", "dispatch", 5.1, RESULTS_PEER_US, 0);
    /* 756.5 TFLOP/s = 756500 GFLOP/s */
    expect_figure(f, 5, 1, RESULTS_PEER_COMPUTE, "wmma", "fp16_16x16x16", 756500, RESULTS_PEER_GFLOPS, 0);
    expect_figure(f, 6, 1, RESULTS_PEER_READ, "global_memory_bandwidth", "float4", 3012.3456, RESULTS_PEER_GBS, 0);
    /* half unsupported, the CPU backend's cache bandwidth */
    cr_expect_eq(f->n_left_out, 2);
    results_peer_file_free(f);
}

Test(peers, clpeak_2x_csv)
{
    results_peer_file *f = read_ok("clpeak-2.1.2.csv");
    cr_expect_eq(f->format, RESULTS_PEER_CLPEAK_CSV);
    cr_expect_str_eq(f->tool_version, "2.x");
    cr_assert_eq(f->n_devices, 1);
    expect_device(f, 0, "OpenCL", PK, "cpu-haswell-AMD EPYC 9B14", "6.0+debian");
    cr_assert_eq(f->n_figures, 6);
    const char *w[] = { "float", "float2", "float4", "float8", "float16" };
    const double gb[] = { 3.5949, 10.9801, 13.9572, 15.875, 11.7513 };
    for (size_t i = 0; i < 5; i++)
        expect_figure(f, i, 0, RESULTS_PEER_READ, "global_memory_bandwidth", w[i], gb[i], RESULTS_PEER_GBS, 0);
    expect_figure(f, 5, 0, RESULTS_PEER_LAUNCH, "kernel_launch_latency", "dispatch", 5.1, RESULTS_PEER_US, 0);
    cr_expect_eq(f->n_left_out, 1);
    results_peer_file_free(f);
}

/* MB/s is 10^6 B/s: 123456.7 MB/s = 123.4567 GB/s; bytes = arrays x 8 x
 * 33554432 (2 arrays: 536870912, 3 arrays: 805306368) */
Test(peers, babelstream_v5_opencl_with_device_lines_and_phases)
{
    results_peer_file *f = read_ok("babelstream-ocl-v5.0.csv");
    cr_expect_eq(f->format, RESULTS_PEER_BABELSTREAM_CSV);
    cr_expect_str_eq(f->tool, "babelstream");
    cr_expect_str_eq(f->tool_version, "v3.x-v5.0");
    cr_assert_eq(f->n_devices, 1);
    expect_device(f, 0, "OpenCL", NULL, "pthread-haswell-AMD EPYC 9B14", "3.1+debian");
    cr_assert_eq(f->n_figures, 5);
    expect_figure(f, 0, 0, RESULTS_PEER_STREAM, "Copy", "double", 181.2345, RESULTS_PEER_GBS, 536870912);
    expect_figure(f, 1, 0, RESULTS_PEER_STREAM, "Mul", "double", 180.01225, RESULTS_PEER_GBS, 536870912);
    expect_figure(f, 2, 0, RESULTS_PEER_STREAM, "Add", "double", 190.5, RESULTS_PEER_GBS, 805306368);
    expect_figure(f, 3, 0, RESULTS_PEER_STREAM, "Triad", "double", 123.4567, RESULTS_PEER_GBS, 805306368);
    expect_figure(f, 4, 0, RESULTS_PEER_STREAM, "Dot", "double", 200.1005, RESULTS_PEER_GBS, 536870912);
    cr_expect_eq(f->n_left_out, 2, "the Init and Read phases");
    results_peer_file_free(f);
}

/* MiB/s is 2^20 B/s: 95367.431640625 MiB/s = 10^11 B/s = 100 GB/s; float
 * arrays of 2^20: 2 x 4 x 2^20 = 8388608 bytes, 3 x = 12582912 */
Test(peers, babelstream_v6_mibibytes_crlf_no_device)
{
    results_peer_file *f = read_ok("babelstream-v6.0-rc-mibibytes.csv");
    cr_expect_str_eq(f->tool_version, "v6.0-rc");
    cr_expect_eq(f->n_devices, 0);
    cr_assert_eq(f->n_figures, 5);
    size_t nd = RESULTS_PEER_NO_DEVICE;
    expect_figure(f, 0, nd, RESULTS_PEER_STREAM, "Copy", "float", 100, RESULTS_PEER_GBS, 8388608);
    expect_figure(f, 1, nd, RESULTS_PEER_STREAM, "Mul", "float", 100, RESULTS_PEER_GBS, 8388608);
    expect_figure(f, 2, nd, RESULTS_PEER_STREAM, "Add", "float", 50, RESULTS_PEER_GBS, 12582912);
    expect_figure(f, 3, nd, RESULTS_PEER_STREAM, "Triad", "float", 50, RESULTS_PEER_GBS, 12582912);
    expect_figure(f, 4, nd, RESULTS_PEER_STREAM, "Dot", "float", 200, RESULTS_PEER_GBS, 8388608);
    results_peer_file_free(f);
}

/* --triad-only prints the main header, then its own with gbytes_per_sec */
Test(peers, babelstream_v4_triad_only_second_header)
{
    results_peer_file *f = read_ok("babelstream-ocl-v4.0-triad-only.csv");
    cr_expect_str_eq(f->tool_version, "v3.x-v5.0");
    cr_assert_eq(f->n_devices, 1);
    expect_device(f, 0, "OpenCL", NULL, "Tesla V100-SXM2-16GB", "470.57.02");
    cr_assert_eq(f->n_figures, 1);
    expect_figure(f, 0, 0, RESULTS_PEER_STREAM, "Triad", "double", 150.25, RESULTS_PEER_GBS, 805306368);
    results_peer_file_free(f);
}

Test(peers, malformed_files_are_refused_with_their_fault)
{
    static const struct {
        const char *file, *want;
    } cases[] = {
        { "bad/clpeak-truncated.xml", ": line 11: invalid XML: " },
        { "bad/clpeak-value-string.json", ": entries[1].value is a string, expected a number" },
        { "bad/clpeak-format-1.json", ": format_version 1: this bwlab reads clpeak's format_version 2" },
        { "bad/clpeak-nan.csv", ": line 3: metric 'float2': value 'nan' is not a number from 0 to 1e12" },
        { "bad/clpeak-unit.xml", ": line 6: <float> 'float': unit 'furlongs' of test 'global_memory_bandwidth' is "
                                 "not one clpeak writes" },
        { "bad/babelstream-huge.csv", ": line 3: bandwidth '1e400' is not a positive number up to 1e12" },
        { "bad/babelstream-short-row.csv", ": line 3: 5 fields, the header has 8" },
        { "bad/babelstream-unclosed.csv", ": line 2: a quoted field is not closed (the file is cut short?)" },
        { "bad/babelstream-sizeof.csv", ": line 2: sizeof '3' is not 4 (float) or 8 (double)" },
        { "bad/babelstream-no-rows.csv", ": no kernel rows (Copy, Mul, Add, Triad, Dot, Nstream) under a 'function' "
                                         "header" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *msg = read_bad(cases[i].file);
        cr_expect(strstr(msg, cases[i].want), "%s: '%s' lacks '%s'", cases[i].file, msg, cases[i].want);
        free(msg);
    }
}

/* refusals of texts made here: no measurement, a DTD */
Test(peers, inline_texts_refused)
{
    static const struct {
        const char *text, *want;
    } cases[] = {
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value,reason\n",
          "t: holds no measurement" },
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status\n",
          "t: line 1: the header lacks the column 'value'" },
        { "<?xml version=\"1.0\"?>\n<!DOCTYPE clpeak [<!ENTITY a \"aaaa\">]>\n<clpeak>&a;</clpeak>\n",
          "t: has a DTD (<!DOCTYPE ...>): clpeak's XML has none" },
        { "{\"format_version\":2,\"clpeak_version\":\"2.1.2\",\"entries\":[{\"backend\":1}]}",
          "t: entries[0].backend is a number, expected a string" },
        { "{\"format_version\":2,\"clpeak_version\":\"2.1.2\",\"entries\":[", "t: line 1: invalid JSON" },
        { "<clpeak format_version=\"3\"></clpeak>", "t: line 1: format_version '3': this bwlab reads clpeak's" },
        /* units: converted first, then range-checked; each test's unit its own */
        { "function,num_times,n_elements,sizeof,max_TB_per_sec\nCopy,100,1024,4,1e11\n",
          "t: line 2: bandwidth '1e11' (max_TB_per_sec) is 1e+14 GB/s, outside 1e-06 to 1e+06 GB/s" },
        { "function,num_times,n_elements,sizeof,max_mbytes_per_sec\nCopy,100,1024,4,1e-300\n",
          "t: line 2: bandwidth '1e-300' (max_mbytes_per_sec) is 1e-303 GB/s, outside 1e-06 to 1e+06 GB/s" },
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value\n"
          "2,OpenCL,P,D,1,bandwidth,global_memory_bandwidth,float,us,ok,12.5\n",
          "t: line 2: metric 'float': unit 'us' of test 'global_memory_bandwidth' is no bandwidth unit (gbps)" },
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value\n"
          "2,OpenCL,P,D,1,bandwidth,global_memory_bandwidth,float,tflops,ok,12.5\n",
          "t: line 2: metric 'float': unit 'tflops' of test 'global_memory_bandwidth' is no bandwidth unit (gbps)" },
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value\n"
          "2,OpenCL,P,D,1,fp_compute,single_precision_compute,float,gbps,ok,12.5\n",
          "t: line 2: metric 'float': unit 'gbps' of test 'single_precision_compute' is no compute unit" },
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value\n"
          "2,OpenCL,P,D,1,fp_compute,single_precision_compute,float,tflops,ok,1e9\n",
          "t: line 2: metric 'float': value '1e9' tflops of test 'single_precision_compute' is 1e+12 GFLOP/s, "
          "outside 1e-06 to 1e+09 GFLOP/s" },
        /* a name given twice: which value is meant would be a guess */
        { "format_version,backend,platform,device,driver,category,test,metric,unit,status,value,value\n",
          "t: line 1: the header names the column 'value' twice" },
        { "function,num_times,n_elements,sizeof,max_mbytes_per_sec,sizeof\nCopy,100,1024,4,1000.0,4\n",
          "t: line 1: the header names the column 'sizeof' twice" },
        { "function,num_times,n_elements,sizeof,max_mbytes_per_sec,max_MB_per_sec\nCopy,100,1024,4,1000.0,1.0\n",
          "t: line 1: the header has two bandwidth columns, 'max_mbytes_per_sec' and 'max_MB_per_sec'" },
        { "{\"format_version\":2,\"clpeak_version\":\"2.1.2\",\"entries\":[{\"test\":\"a\",\n\"value\":1,\"value\":2}]}",
          "t: line 2: invalid JSON (column 17): duplicate object key near '\"value\"'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        results_peer_file *f = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_expect_eq(results_peer_read(cases[i].text, strlen(cases[i].text), "t", &f, &err), BW_E_FORMAT, "case %zu", i);
        cr_expect_null(f);
        cr_expect(err.msg && strstr(err.msg, cases[i].want), "case %zu: '%s' lacks '%s'", i, err.msg, cases[i].want);
        bw_error_clear(&err);
    }
}

/* a byte-order mark before clpeak's JSON */
Test(peers, json_after_a_byte_order_mark)
{
    const char *text = "\xEF\xBB\xBF{\"format_version\":2,\"clpeak_version\":\"2.0.5\",\"entries\":["
                       "{\"backend\":\"OpenCL\","
                       "\"platform\":\"P\",\"device\":\"D\",\"driver\":\"1\",\"category\":\"bandwidth\","
                       "\"test\":\"global_memory_bandwidth\",\"metric\":\"float\",\"unit\":\"gbps\",\"value\":12.5}]}";
    results_peer_file *f = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(results_peer_read(text, strlen(text), "t", &f, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_not_null(f);
    cr_expect_str_eq(f->tool_version, "2.0.5");
    expect_device(f, 0, "OpenCL", "P", "D", "1");
    expect_figure(f, 0, 0, RESULTS_PEER_READ, "global_memory_bandwidth", "float", 12.5, RESULTS_PEER_GBS, 0);
    results_peer_file_free(f);
}

Test(peers, other_text_is_no_peer_file)
{
    static const char *const texts[] = {
        "",
        "   \n",
        "{\"schema\":\"bwlab.results\",\"schema_version\":1,\"runs\":[],\"results\":[]}",
        "{\"schema\":\"bwlab.compare\",\"clpeak_version\":\"x\",\"format_version\":2,\"entries\":[]}",
        "{ not json",
        "<?xml version=\"1.0\"?><html/>",
        "a,b,c\n1,2,3\n",
        "pattern,family,access\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        results_peer_file *f = (results_peer_file *)1;
        bw_error err = BW_ERROR_INIT;
        cr_expect_eq(results_peer_sniff(texts[i], strlen(texts[i])), RESULTS_PEER_NONE, "text %zu", i);
        cr_expect_eq(results_peer_read(texts[i], strlen(texts[i]), "x", &f, &err), BW_OK, "text %zu", i);
        cr_expect_null(f, "text %zu", i);
    }
}

/* Every prefix of every fixture, and a few single-byte corruptions, read
 * without a crash: either figures or BW_E_FORMAT with a message. */
Test(peers, cut_and_corrupted_fixtures_never_crash)
{
    static const char *const names[] = { "clpeak-1.1.2.xml", "clpeak-2.1.2.xml", "clpeak-2.1.2.json",
                                         "clpeak-2.1.2.csv", "babelstream-ocl-v5.0.csv",
                                         "babelstream-v6.0-rc-mibibytes.csv", "babelstream-ocl-v4.0-triad-only.csv" };
    static const char junk[] = { '"', ',', '<', '>', '\n', '{', 'x', '9', '-', 0 };
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len;
        char *text = fixture(names[i], &len);
        char *copy = malloc(len + 1);
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(copy, text, len);
            size_t n = cut;
            if (cut % 3 == 1 && cut < len) {
                copy[tu_range(&seed, 0, (int64_t)len - 1)] = junk[tu_range(&seed, 0, sizeof junk - 1)];
                n = len;
            }
            results_peer_file *f = NULL;
            bw_error err = BW_ERROR_INIT;
            bw_code rc = results_peer_read(copy, n, names[i], &f, &err);
            cr_assert(rc == BW_OK || rc == BW_E_FORMAT, "%s cut at %zu: %s", names[i], cut, bw_error_text(&err));
            if (rc == BW_E_FORMAT)
                cr_assert(err.msg && strstr(err.msg, names[i]), "%s cut at %zu: no message", names[i], cut);
            for (size_t k = 0; f && k < f->n_figures; k++)
                cr_assert(isfinite(f->figures[k].value) && f->figures[k].value > 0);
            results_peer_file_free(f);
            bw_error_clear(&err);
        }
        free(copy);
        free(text);
    }
}

/* clpeak's global bandwidth buffer, worked by hand: items = min(max_alloc /
 * 8, cap), rounded down to a multiple of min(wi0, 256) x 256; bytes = 4 x
 * items. The cap, 2^27 on a CPU and 2^29 on a GPU, counts floats before
 * 2.0.7 and bytes from 2.0.7. */
Test(peers, clpeak_buffer_rule)
{
    /* PoCL here: 2 GiB max alloc, 4096 work-items: 2^28 items, capped */
    cr_expect_eq(results_peer_clpeak_buffer_bytes("1.x", 2147483648ull, 4096, 1), 536870912ull);   /* 2^27 x 4 */
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.0.6", 2147483648ull, 4096, 1), 536870912ull);
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.0.7", 2147483648ull, 4096, 1), 134217728ull); /* 2^25 x 4 */
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.1.2", 2147483648ull, 4096, 1), 134217728ull);
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.x", 2147483648ull, 4096, 1), 134217728ull);
    /* a GPU, 4 GiB: 2^29 items, capped at 2^27 from 2.0.7 */
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.1.2", 4294967296ull, 1024, 0), 536870912ull);
    cr_expect_eq(results_peer_clpeak_buffer_bytes("1.x", 4294967296ull, 1024, 0), 2147483648ull);
    /* 10^9 B, 128 work-items: 125000000 items, 3814 x 32768 = 124977152 */
    cr_expect_eq(results_peer_clpeak_buffer_bytes("1.x", 1000000000ull, 128, 0), 499908608ull);
    cr_expect_eq(results_peer_clpeak_buffer_bytes("unknown", 1000000000ull, 128, 0), 0);
    cr_expect_eq(results_peer_clpeak_buffer_bytes("2.1.2", 0, 128, 0), 0);
}

Test(peers, cache_note_below_four_times_the_cache)
{
    results_peer_file *f = read_ok("babelstream-v6.0-rc-mibibytes.csv");
    results_peer_figure *copy = &f->figures[0]; /* 8388608 B */
    cr_assert_eq(results_peer_note_cache(copy, 2097152), BW_OK); /* 4 x 2 MiB = 8 MiB: not smaller */
    cr_expect_null(copy->note);
    cr_assert_eq(results_peer_note_cache(copy, 33554432), BW_OK);
    cr_assert_not_null(copy->note);
    cr_expect(strstr(copy->note, "buffer 8388608 B is smaller than 4x the device's reported cache (33554432 B)"),
              "%s", copy->note);
    cr_assert_eq(results_peer_note_cache(&f->figures[1], 0), BW_OK);
    cr_expect_null(f->figures[1].note);
    results_peer_file_free(f);
}

