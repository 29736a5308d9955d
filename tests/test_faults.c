/* Faults injected through the test-only hook (src/base/bw_hook.h,
 * $BWLAB_TEST_FAULTS; compiled into every build but a release one): a
 * kernel that fails validation, a build failure, an allocation the device
 * refuses, a device error mid-run, and a signal at each phase (building,
 * validating, measuring, writing). Each is reported, the other patterns
 * still run where they can, and what was measured is written. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bw_file.h"
#include "bwlab_config.h"
#include "test_util.h"

#ifndef BWLAB_FAULT_HOOKS
#define SKIP_WITHOUT_HOOKS() cr_skip("built without fault hooks (a release build, or -Dfault_hooks=disabled)")
#else
#define SKIP_WITHOUT_HOOKS() ((void)0)
#endif

/* Signals that stop a run cleanly: exit 128 + the signal, the results
 * so far written. */
static const int stop_signals[] = { SIGINT, SIGTERM };

typedef struct run {
    tu_result r;
    json_t *doc;   /* the --output file, or NULL */
    char *journal; /* the text of OUT.partial, or NULL */
} run;

/* bwlab run on the CPU with faults and the options in opts (NULL-ended),
 * JSON to a file; the file and the journal it left are read back */
static run run_opts(const char *faults, const char *const *opts)
{
    char *dir = tu_temp_dir();
    cr_assert_not_null(dir);
    char out[4200], env[512];
    snprintf(out, sizeof out, "%s/out.json", dir);
    snprintf(env, sizeof env, "BWLAB_TEST_FAULTS=%s", faults);
    const char *argv[32] = { "run", "--device", "cpu" };
    size_t n = 3;
    for (size_t i = 0; opts[i] && n < 28; i++)
        argv[n++] = opts[i];
    argv[n++] = "--quiet";
    argv[n++] = "--output";
    argv[n++] = out;
    argv[n] = NULL;
    run x;
    x.r = tu_exec(argv, (const char *[]){ env, NULL });
    char *text = NULL;
    x.doc = NULL;
    if (bw_file_read(out, &text, NULL, NULL) == BW_OK) {
        json_error_t je;
        x.doc = json_loads(text, 0, &je);
        cr_assert_not_null(x.doc, "%s: the results file is not JSON: %s", faults, je.text);
    }
    free(text);
    snprintf(out, sizeof out, "%s/out.json.partial", dir);
    if (bw_file_read(out, &x.journal, NULL, NULL) != BW_OK)
        x.journal = NULL;
    tu_rmdir(dir);
    free(dir);
    return x;
}

/* bwlab run of the patterns on the CPU with faults, small and without the roofline */
static run run_with(const char *faults, const char *patterns)
{
    return run_opts(faults, (const char *[]){ "--pattern", patterns, "--size", "4M", "--budget", "0.3",
                                              "--no-roofline", NULL });
}

static void run_free(run *x)
{
    tu_result_free(&x->r);
    json_decref(x->doc);
    free(x->journal);
}

/* the result whose canonical spec is `pattern`, or starts with it and a
 * parameter the run filled in ("transpose:version=naive" for
 * "transpose:version=naive,n=1024") */
static json_t *result(const run *x, const char *pattern)
{
    json_t *rs = json_object_get(x->doc, "results"), *v;
    size_t i, n = strlen(pattern);
    json_array_foreach(rs, i, v) {
        const char *spec = json_string_value(json_object_get(v, "pattern"));
        if (spec && strncmp(spec, pattern, n) == 0 && (spec[n] == '\0' || spec[n] == ','))
            return v;
    }
    cr_assert_fail("no result for %s", pattern);
    return NULL;
}

/* A failed pattern's reason is in "validation" (docs/results.md). */
static const char *field(json_t *v, const char *key)
{
    const char *s = json_string_value(json_object_get(v, key));
    return s ? s : "(null)";
}

/* The untouched patterns were validated, and measured or judged not
 * measurable on their own merits: never failed because of the other. */
static void expect_others_ran(const run *x, const char *const *names)
{
    for (; *names; names++) {
        json_t *v = result(x, *names);
        cr_expect_str_eq(field(v, "validation"), "ok", "%s", *names);
        cr_expect_str_neq(field(v, "status"), "failed", "%s: %s", *names, field(v, "validation"));
        cr_expect_str_neq(field(v, "status"), "not-run", "%s", *names);
    }
}

static const char *const others[] = { "seq", "offset:bytes=4", NULL };
#define THREE "seq,stride:s=2,offset:bytes=4"

Test(faults, validation_failure_fails_one_pattern, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    run x = run_with("validate=stride:s=2", THREE);
    cr_expect_eq(x.r.status, 1, "%s", x.r.err);
    cr_expect(strstr(x.r.err, "'stride:s=2' failed") != NULL, "%s", x.r.err);
    cr_assert_not_null(x.doc, "no results file");
    json_t *v = result(&x, "stride:s=2");
    cr_expect_str_eq(field(v, "status"), "failed");
    cr_expect(strstr(field(v, "validation"), "dst[0] differs") != NULL, "%s", field(v, "validation"));
    cr_expect(json_is_null(json_object_get(v, "effective_gbs")), "a pattern that failed validation has a figure");
    expect_others_ran(&x, others);
    run_free(&x);
}

Test(faults, build_failure_fails_one_pattern, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    /* the program of all three fails, then each is built alone */
    run x = run_with("build=stride:s=2", THREE);
    cr_expect_eq(x.r.status, 1, "%s", x.r.err);
    cr_expect(strstr(x.r.err, "kernel build failed for stride:s=2") != NULL, "%s", x.r.err);
    cr_assert_not_null(x.doc, "no results file");
    json_t *v = result(&x, "stride:s=2");
    cr_expect_str_eq(field(v, "status"), "failed");
    cr_expect(strstr(field(v, "validation"), "kernel build failed") != NULL, "%s", field(v, "validation"));
    expect_others_ran(&x, others);
    run_free(&x);

    /* a bank and a transpose kernel are built on their own */
    x = run_with("build=bank", "seq,bank:pitch=33,transpose:version=naive");
    cr_expect_eq(x.r.status, 1, "%s", x.r.err);
    cr_assert_not_null(x.doc, "no results file");
    cr_expect_str_eq(field(result(&x, "bank:pitch=33,stride=1"), "status"), "failed");
    expect_others_ran(&x, (const char *const[]){ "seq", "transpose:version=naive", NULL });
    run_free(&x);

    /* a record kernel too (every family with a program of its own is
     * built through one helper): the aos form fails with the build's
     * message, on stderr and in its result, and its soa reference, built
     * apart, still runs */
    x = run_with("build=layout=aos", "seq,record:fields=3,n=4096");
    cr_expect_eq(x.r.status, 1, "%s", x.r.err);
    cr_expect(strstr(x.r.err, "kernel build failed for record:fields=3,type=float,layout=aos") != NULL, "%s",
              x.r.err);
    cr_assert_not_null(x.doc, "no results file");
    v = result(&x, "record:fields=3,type=float,layout=aos");
    cr_expect_str_eq(field(v, "status"), "failed");
    cr_expect(strstr(field(v, "validation"), "kernel build failed for record:") != NULL, "%s",
              field(v, "validation"));
    expect_others_ran(&x, (const char *const[]){ "seq", "record:fields=3,type=float,layout=soa", NULL });
    run_free(&x);
}

Test(faults, refused_allocation_is_reported, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    /* the shared buffers: no pattern can run; each says why, and the
     * results file is still written */
    static const char *const bufs[] = { "alloc=src", "alloc=dst" };
    for (size_t b = 0; b < 2; b++) {
        run x = run_with(bufs[b], THREE);
        cr_expect_eq(x.r.status, 1, "%s: %s", bufs[b], x.r.err);
        cr_expect(strstr(x.r.err, "CL_MEM_OBJECT_ALLOCATION_FAILURE") != NULL, "%s", x.r.err);
        cr_expect(strstr(x.r.err, bufs[b] + 6) != NULL, "%s: the buffer is not named: %s", bufs[b], x.r.err);
        cr_assert_not_null(x.doc, "%s: no results file", bufs[b]);
        json_t *v = result(&x, "seq");
        cr_expect_str_eq(field(v, "status"), "failed");
        cr_expect(strstr(field(v, "validation"), "clCreateBuffer") != NULL, "%s", field(v, "validation"));
        run_free(&x);
    }
}

Test(faults, device_error_mid_run_keeps_the_others, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    run x = run_with("launch=stride:s=2@2", THREE);
    cr_expect_eq(x.r.status, 1, "%s", x.r.err);
    cr_expect(strstr(x.r.err, "CL_OUT_OF_RESOURCES") != NULL, "%s", x.r.err);
    cr_assert_not_null(x.doc, "no results file");
    json_t *v = result(&x, "stride:s=2");
    cr_expect_str_eq(field(v, "status"), "failed");
    cr_expect(strstr(field(v, "validation"), "CL_OUT_OF_RESOURCES") != NULL, "%s", field(v, "validation"));
    expect_others_ran(&x, others);
    /* the others were timed to the end */
    json_t *seq = result(&x, "seq");
    if (strcmp(field(seq, "status"), "ok") == 0)
        cr_expect_geq(json_integer_value(json_object_get(json_object_get(seq, "time_ns"), "count")), 3);
    run_free(&x);
}

/* A signal as a phase begins: exit 128 + the signal, the results file
 * written and marked interrupted, what was validated kept. */
Test(faults, signal_at_each_phase, .timeout = 600)
{
    SKIP_WITHOUT_HOOKS();
    static const char *const phases[] = { "building", "validating", "measuring" };
    for (size_t s = 0; s < sizeof stop_signals / sizeof stop_signals[0]; s++) {
        for (size_t p = 0; p < 3; p++) {
            char faults[64];
            snprintf(faults, sizeof faults, "signal=%s@%d", phases[p], stop_signals[s]);
            run x = run_with(faults, THREE);
            cr_expect_eq(x.r.status, 128 + stop_signals[s], "%s: %s", faults, x.r.err);
            cr_expect(strstr(x.r.err, "interrupted") != NULL, "%s: %s", faults, x.r.err);
            cr_assert_not_null(x.doc, "%s: no results file", faults);
            cr_expect(json_is_true(json_object_get(x.doc, "interrupted")), "%s", faults);
            static const char *const all[] = { "seq", "stride:s=2", "offset:bytes=4" };
            for (size_t i = 0; i < 3; i++) {
                json_t *v = result(&x, all[i]);
                const char *st = field(v, "status");
                cr_expect_str_neq(st, "failed", "%s: %s", faults, all[i]);
                if (p == 0)
                    cr_expect_str_eq(st, "not-run", "%s: %s", faults, all[i]);
                /* validated before the timing began, but not timed: the
                 * validation still stands */
                if (p == 2) {
                    cr_expect_str_eq(st, "not-run", "%s: %s", faults, all[i]);
                    cr_expect_str_eq(field(v, "validation"), "ok", "%s: %s", faults, all[i]);
                }
            }
            if (p == 1) /* the first pattern is validated before the signal is seen */
                cr_expect_str_eq(field(result(&x, "stride:s=2"), "status"), "not-run", "%s", faults);
            run_free(&x);
        }
        /* while writing: the handler stays, the write finishes, then the
         * exit status says the signal came. The file is whole, with every
         * pattern measured, and the journal has done its work. */
        char faults[64];
        snprintf(faults, sizeof faults, "signal=writing@%d", stop_signals[s]);
        run x = run_with(faults, THREE);
        cr_expect_eq(x.r.status, 128 + stop_signals[s], "%s: %s", faults, x.r.err);
        cr_assert_not_null(x.doc, "%s: the results were not written", faults);
        static const char *const all[] = { "seq", "stride:s=2", "offset:bytes=4" };
        for (size_t i = 0; i < 3; i++)
            cr_expect_str_neq(field(result(&x, all[i]), "status"), "not-run", "%s: %s", faults, all[i]);
        cr_expect_null(x.journal, "%s: the journal outlived the final write", faults);
        run_free(&x);
    }
}

/* An entry that matches nothing, or an unknown point, changes nothing. */
Test(faults, unmatched_entries_change_nothing, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    run x = run_with("validate=nosuch;frobnicate=seq;signal=nosuchphase@2", "seq");
    cr_assert_not_null(x.doc, "no results file: %s", x.r.err);
    cr_expect_str_eq(field(result(&x, "seq"), "validation"), "ok");
    cr_expect_neq(x.r.status, 130);
    run_free(&x);
}

/* bwlab run with the short roofline (the default), patterns small */
static run run_roofline_with(const char *faults)
{
    return run_opts(faults, (const char *[]){ "--pattern", "seq,stride:s=2", "--size", "8M", "--budget", "0.3",
                                              NULL });
}

/* A signal as the run's roofline begins, and as its timing rounds begin:
 * exit 128 + the signal, the patterns' results kept, the roofline marked
 * interrupted (its kernels never timed: no figure), the document too. */
Test(faults, signal_in_the_runs_roofline, .timeout = 600)
{
    SKIP_WITHOUT_HOOKS();
    static const char *const phases[] = { "roofline", "roof-rounds" };
    for (size_t p = 0; p < 2; p++) {
        char faults[64];
        snprintf(faults, sizeof faults, "signal=%s@%d", phases[p], SIGTERM);
        run x = run_roofline_with(faults);
        cr_expect_eq(x.r.status, 143, "%s: %s", faults, x.r.err);
        cr_expect(strstr(x.r.err, "interrupted by SIGTERM") != NULL, "%s: %s", faults, x.r.err);
        cr_assert_not_null(x.doc, "%s: no results file", faults);
        cr_expect(json_is_true(json_object_get(x.doc, "interrupted")), "%s", faults);
        static const char *const pats[] = { "seq", "stride:s=2" };
        for (size_t i = 0; i < 2; i++) {
            json_t *v = result(&x, pats[i]);
            cr_expect_str_eq(field(v, "status"), "ok", "%s: %s", faults, pats[i]);
            cr_expect_str_eq(field(v, "validation"), "ok", "%s: %s", faults, pats[i]);
        }
        json_t *roof = json_object_get(json_array_get(json_object_get(x.doc, "runs"), 0), "roofline");
        cr_assert(json_is_object(roof), "%s: no roofline entry", faults);
        cr_expect_str_eq(field(roof, "status"), "interrupted", "%s", faults);
        cr_expect(json_is_true(json_object_get(roof, "interrupted")), "%s", faults);
        json_t *pf = json_object_get(roof, "peak_fma");
        cr_expect_eq(json_integer_value(json_object_get(json_object_get(pf, "time_ns"), "count")), 0, "%s", faults);
        cr_expect(json_is_null(json_object_get(roof, "peak_gflops")), "%s: a figure from no launch", faults);
        cr_expect_null(x.journal, "%s: the journal outlived the final write", faults);
        run_free(&x);
    }
}

/* bwlab roofline or tune with a signal at `phase`, JSON to a file */
static run command_with(const char *cmd, const char *phase, int sig, const char *cache_dir)
{
    char *dir = tu_temp_dir();
    cr_assert_not_null(dir);
    char out[4200], env[512], cache[4300];
    snprintf(out, sizeof out, "%s/out.json", dir);
    snprintf(env, sizeof env, "BWLAB_TEST_FAULTS=signal=%s@%d", phase, sig);
    snprintf(cache, sizeof cache, "BWLAB_CACHE_DIR=%s", cache_dir);
    run x;
    if (!strcmp(cmd, "tune"))
        x.r = tu_exec((const char *[]){ "tune", "--device", "cpu", "--retune", "--size", "8M", "--budget", "2",
                                        "--format", "json", "--output", out, NULL },
                      (const char *[]){ env, cache, NULL });
    else
        x.r = tu_exec((const char *[]){ "roofline", "--device", "cpu", "--budget", "1", "--format", "json",
                                        "--output", out, NULL },
                      (const char *[]){ env, NULL });
    char *text = NULL;
    x.doc = NULL;
    x.journal = NULL;
    if (bw_file_read(out, &text, NULL, NULL) == BW_OK) {
        json_error_t je;
        x.doc = json_loads(text, 0, &je);
        cr_assert_not_null(x.doc, "%s %s: the results file is not JSON: %s", cmd, phase, je.text);
    }
    free(text);
    tu_rmdir(dir);
    free(dir);
    return x;
}

/* bwlab roofline: SIGINT as it begins and as its rounds begin gives exit
 * 130 and the document marked interrupted; as the results are written,
 * the write finishes (a whole document, measured), then exit 130. */
Test(faults, signal_in_roofline, .timeout = 600)
{
    SKIP_WITHOUT_HOOKS();
    static const char *const phases[] = { "roofline", "roof-rounds", "writing" };
    for (size_t p = 0; p < 3; p++) {
        run x = command_with("roofline", phases[p], SIGINT, "");
        cr_expect_eq(x.r.status, 130, "%s: %s", phases[p], x.r.err);
        cr_expect(strstr(x.r.err, "interrupted by SIGINT") != NULL, "%s: %s", phases[p], x.r.err);
        cr_assert_not_null(x.doc, "%s: no results file", phases[p]);
        json_t *d = json_array_get(json_object_get(x.doc, "devices"), 0);
        if (p < 2) {
            cr_expect(json_is_true(json_object_get(x.doc, "interrupted")), "%s", phases[p]);
            cr_expect_str_eq(field(d, "status"), "interrupted", "%s", phases[p]);
        } else {
            cr_expect_str_eq(field(d, "status"), "measured", "%s", phases[p]);
            cr_expect(json_is_number(json_object_get(d, "peak_gflops")), "%s", phases[p]);
        }
        run_free(&x);
    }
}

/* bwlab tune: SIGINT as the search begins and as its finals begin gives
 * exit 130, the document marked interrupted, no winner, and nothing
 * written to the tuning cache. */
Test(faults, signal_in_tune, .timeout = 600)
{
    SKIP_WITHOUT_HOOKS();
    static const char *const phases[] = { "tuning", "tune-finals" };
    for (size_t p = 0; p < 2; p++) {
        char *cache = tu_temp_dir();
        cr_assert_not_null(cache);
        run x = command_with("tune", phases[p], SIGINT, cache);
        cr_expect_eq(x.r.status, 130, "%s: %s", phases[p], x.r.err);
        cr_expect(strstr(x.r.err, "interrupted by SIGINT") != NULL, "%s: %s", phases[p], x.r.err);
        cr_assert_not_null(x.doc, "%s: no results file", phases[p]);
        cr_expect(json_is_true(json_object_get(x.doc, "interrupted")), "%s", phases[p]);
        json_t *d = json_array_get(json_object_get(x.doc, "devices"), 0);
        cr_expect_str_eq(field(d, "status"), "interrupted", "%s", phases[p]);
        cr_expect(json_is_null(json_object_get(d, "peak_read_gbs")), "%s: a winner from a search cut short", phases[p]);
        json_t *search = json_object_get(d, "search");
        cr_expect(json_is_true(json_object_get(search, "interrupted")), "%s", phases[p]);
        /* the finals begin after the first stage: its candidates were timed */
        if (p == 1)
            cr_expect_gt(json_array_size(json_object_get(search, "candidates")), 0, "%s", phases[p]);
        char path[4300];
        snprintf(path, sizeof path, "%s/tune.json", cache);
        cr_expect_neq(access(path, F_OK), 0, "%s: an interrupted search was cached", phases[p]);
        run_free(&x);
        tu_rmdir(cache);
        free(cache);
    }
}

/* Issue 16: a signal as a transpose's validation begins stops it between
 * its bands of rows, whatever the matrix's size: the run exits 128 + the
 * signal with its results written, and the transpose, whose validation
 * the signal cut short, is "not-run" and not "ok" (a validation that ran
 * to its end, as before, would say "ok"). The same for a record. */
Test(faults, signal_stops_a_transpose_validation, .timeout = 300)
{
    SKIP_WITHOUT_HOOKS();
    static const char *const specs[] = { "transpose:version=naive", "record:fields=3" };
    for (size_t k = 0; k < 2; k++) {
        run x = run_with("signal=validating@15", specs[k]);
        cr_expect_eq(x.r.status, 128 + SIGTERM, "%s: %s", specs[k], x.r.err);
        cr_assert_not_null(x.doc, "%s: no results file", specs[k]);
        cr_expect(json_is_true(json_object_get(x.doc, "interrupted")), "%s", specs[k]);
        json_t *v = result(&x, specs[k]);
        cr_expect_str_eq(field(v, "status"), "not-run", "%s", specs[k]);
        cr_expect_str_neq(field(v, "validation"), "ok", "%s", specs[k]);
        run_free(&x);
    }
}

/* Memory that runs out inside jansson, at many points of a command (the
 * hook lib_alloc@N fails its allocations from the (N+1)th on): each of
 * compare, report, run and probe ends with exit 0 (it needed fewer) or
 * exit 1 saying "out of memory", never exit 2 (a false "bad input"),
 * never a crash or a sanitizer's report. */
Test(faults, memory_that_runs_out_is_exit_1_never_a_crash_or_bad_input, .timeout = 600)
{
    SKIP_WITHOUT_HOOKS();
    char *dir = tu_temp_dir();
    char h100[4200], mi300[4200], html[4300], cache[4300], env_cache[4400];
    snprintf(h100, sizeof h100, "%s/tests/data/results/sample-nvidia-h100.json", tu_source_root());
    snprintf(mi300, sizeof mi300, "%s/tests/data/results/sample-amd-mi300x.json", tu_source_root());
    snprintf(html, sizeof html, "%s/r.html", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(env_cache, sizeof env_cache, "BWLAB_CACHE_DIR=%s", cache);
    const char *const compare[] = { "compare", h100, mi300, "--format", "json", NULL };
    const char *const report[] = { "report", h100, "--output", html, NULL };
    const char *const run_seq[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.2",
                                    "--no-roofline", "--format", "json", NULL };
    const char *const probe[] = { "probe", "--device", "cpu", "--quick", "--format", "json", NULL };
    static const long many[] = { 0, 3, 30, 300, 1000, 3000, 10000, 16000, 30000 };
    static const long few[] = { 0, 100, 2000 };
    /* the sanitizer pass (BWLAB_TEST_QUICK): every other point, and the
     * probe at its first only (a whole probe per point is its longest part) */
    int quick = getenv("BWLAB_TEST_QUICK") != NULL;
    const struct {
        const char *const *argv;
        const long *n;
        size_t count;
    } cmds[] = { { compare, many, 9 }, { report, many, 9 }, { run_seq, many, 7 }, { probe, few, quick ? 1 : 3 } };
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        int failed = 0;
        for (size_t i = 0; i < cmds[c].count; i += quick && cmds[c].count > 3 ? 2 : 1) {
            /* the probe's ladder as on a host with a 32 MiB cache, whatever
             * this one reports (a 300 MiB one triples its time) */
            char faults[64];
            snprintf(faults, sizeof faults, "BWLAB_TEST_FAULTS=lib_alloc@%ld;probe_llc@32", cmds[c].n[i]);
            tu_result r = tu_exec(cmds[c].argv, (const char *[]){ faults, env_cache, NULL });
            cr_expect(r.status == 0 || r.status == 1, "%s at %ld: exit %d: %s", cmds[c].argv[0], cmds[c].n[i],
                      r.status, r.err);
            if (r.status == 1)
                cr_expect(strstr(r.err, "out of memory"), "%s at %ld: %s", cmds[c].argv[0], cmds[c].n[i], r.err);
            cr_expect(strstr(r.err, "Sanitizer") == NULL && strstr(r.err, "runtime error") == NULL, "%s at %ld: %s",
                      cmds[c].argv[0], cmds[c].n[i], r.err);
            failed += r.status == 1;
            tu_result_free(&r);
        }
        cr_expect_gt(failed, 0, "%s: no allocation failed: the hook did not act", cmds[c].argv[0]);
    }
    tu_rmdir(dir);
    free(dir);
}

/* A results file whose reading runs out of memory is named with its size:
 * exit 1, not "invalid JSON" (exit 2) */
Test(faults, a_file_read_out_of_memory_is_named_with_its_size)
{
    SKIP_WITHOUT_HOOKS();
    char h100[4200], want[4400];
    snprintf(h100, sizeof h100, "%s/tests/data/results/sample-nvidia-h100.json", tu_source_root());
    tu_result r = tu_exec((const char *[]){ "compare", h100, NULL },
                          (const char *[]){ "BWLAB_TEST_FAULTS=lib_alloc@30", "OCL_ICD_VENDORS=/nonexistent", NULL });
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "bwlab compare: error: out of memory reading '%s' (0.1 MB)", h100);
    cr_expect(strstr(r.err, want), "stderr lacks '%s': %s", want, r.err);
    tu_result_free(&r);
}
