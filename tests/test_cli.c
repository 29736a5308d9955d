/* The bwlab executable: global options, `model` and `patterns`, the
 * issue's worked checks through JSON, and a table of bad inputs that must
 * each exit 2 with a one-line message naming the bad value. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "model_pattern.h"
#include "test_util.h"

static tu_result run(const char *const *argv)
{
    return tu_exec(argv, NULL);
}

static double num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_number(v), "key %s missing or not a number", key);
    return json_number_value(v);
}

Test(cli, version_and_help)
{
    tu_result r = run((const char *[]){ "--version", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strncmp(r.out, "bwlab ", 6) == 0 && r.out[6] >= '0' && r.out[6] <= '9', "%s", r.out);
    tu_result_free(&r);
    r = run((const char *[]){ "--help", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "model") && strstr(r.out, "patterns"), "%s", r.out);
    tu_result_free(&r);
    r = run((const char *[]){ "help", "model", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: bwlab model") && strstr(r.out, "--expr"), "%s", r.out);
    tu_result_free(&r);
    r = run((const char *[]){ "model", "--help", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "--roofline") != NULL);
    tu_result_free(&r);
    /* bwlab help run, in several strings: its options, its exit status,
     * then the families with kernels of their own */
    const char *runs[][3] = { { "help", "run", NULL }, { "run", "--help", NULL } };
    for (size_t i = 0; i < 2; i++) {
        r = run(runs[i]);
        cr_expect_eq(r.status, 0);
        const char *opts = strstr(r.out, "--no-roofline"), *exits = strstr(r.out, "Exit status:");
        const char *fams = strstr(r.out, "Pattern families with kernels of their own");
        cr_expect(opts && exits && fams && opts < exits && exits < fams, "%s", r.out);
        cr_expect(fams && strstr(fams, "transpose") && strstr(fams, "record") && strstr(fams, "layout=aos") &&
                      strstr(fams, "bank"),
                  "%s", r.out);
        tu_result_free(&r);
    }
}

Test(cli, usage_errors_exit_2)
{
    const char *const *cases[] = {
        (const char *[]){ NULL },
        (const char *[]){ "frobnicate", NULL },
        (const char *[]){ "--bogus", NULL },
        (const char *[]){ "model", "--bogus", NULL },
        (const char *[]){ "help", "frobnicate", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_result r = run(cases[i]);
        cr_expect_eq(r.status, 2, "case %zu: %s", i, r.err);
        cr_expect(strstr(r.err, "usage:") != NULL, "case %zu: %s", i, r.err);
        cr_expect_str_eq(r.out, "");
        tu_result_free(&r);
    }
}

/* --unroll K changes which work-item issues a warp-instruction, not its
 * addresses: every K prints the same launch totals. stride:s=2 over
 * 65536 floats, by hand: 65536 x 4 B requested; lane g reads at 8g, so a
 * warp's 32 lanes span 256 B, 8 whole sectors read by no other warp:
 * 8 B per item of instruction model and of footprint, 524288 B */
Test(cli, model_launch_is_the_same_for_every_unroll)
{
    json_t *base = NULL;
    for (int k = 1; k <= 16; k *= 2) {
        char K[8];
        snprintf(K, sizeof K, "%d", k);
        json_t *j = tu_exec_json((const char *[]){ "model", "--pattern", "stride:s=2", "--launch", "--items", "65536",
                                                   "--unroll", K, "--format", "json", NULL });
        json_t *l = json_object_get(j, "launch");
        cr_assert(l);
        cr_expect_eq(json_integer_value(json_object_get(l, "unroll")), k);
        cr_expect_eq(json_integer_value(json_object_get(l, "work_items")), 65536 / k);
        cr_expect_eq(json_integer_value(json_object_get(l, "requested_bytes")), 65536 * 4);
        cr_expect_eq(json_integer_value(json_object_get(l, "footprint_bytes")), 65536 * 8);
        cr_expect_eq(json_integer_value(json_object_get(l, "instruction_model_bytes")), 65536 * 8);
        /* everything but the unroll's own two keys is the same as K = 1's */
        json_object_del(l, "unroll");
        json_object_del(l, "work_items");
        if (!base)
            base = j;
        else {
            cr_expect(json_equal(base, j), "K = %d changed the model", k);
            json_decref(j);
        }
    }
    json_decref(base);
}

/* --dram-unit 64 on the nvidia profile: a third granularity, worked by
 * hand (docs/model.md, "The DRAM unit"): offset:bytes=32's warp reads
 * bytes 32..159, 4 sectors but 3 units of 64 B (128 / 192 of them used);
 * its launch of 4096 floats touches bytes 32..16415: sectors 1..512
 * (16384 B) but units 0..256 (257, 16448 B).
 * Without a unit the keys are null, never a guess. */
Test(cli, model_dram_unit)
{
    json_t *j = tu_exec_json((const char *[]){ "model", "--pattern", "offset:bytes=32", "--dram-unit", "64",
                                               "--launch", "--items", "4096", "--format", "json", NULL });
    cr_expect_eq(num(j, "sectors"), 4);
    cr_expect_eq(num(j, "dram_unit_bytes"), 64);
    cr_expect_eq(num(j, "dram_units"), 3);
    cr_expect_float_eq(num(j, "dram_unit_efficiency"), 128.0 / 192.0, 1e-12);
    json_t *l = json_object_get(j, "launch");
    cr_expect_eq(json_integer_value(json_object_get(l, "dram_footprint_bytes")), 257 * 64);
    cr_expect_eq(json_integer_value(json_object_get(l, "footprint_bytes")), 512 * 32); /* sectors 1..512 */
    json_decref(j);
    j = tu_exec_json((const char *[]){ "model", "--pattern", "offset:bytes=32", "--launch", "--items", "4096",
                                       "--format", "json", NULL });
    cr_expect(json_is_null(json_object_get(j, "dram_unit_bytes")));
    cr_expect(json_is_null(json_object_get(j, "dram_units")));
    cr_expect(json_is_null(json_object_get(j, "dram_unit_efficiency")));
    cr_expect(json_is_null(json_object_get(json_object_get(j, "launch"), "dram_footprint_bytes")));
    json_decref(j);
}

Test(cli, worked_checks)
{
    json_t *j = tu_exec_json((const char *[]){ "model", "--expr", "4*t", "--format", "json", NULL });
    cr_expect_eq(num(j, "sectors"), 4);
    cr_expect_float_eq(num(j, "sector_efficiency"), 1.0, 1e-12);
    cr_expect_eq(num(j, "lines"), 1);
    cr_expect_eq(num(j, "lanes"), 32);
    cr_expect_eq(num(j, "active_lanes"), 32);
    cr_expect_eq(num(j, "elem_bytes"), 4);
    cr_expect_eq(num(j, "requested_bytes"), 128);
    cr_expect_eq(num(j, "distinct_bytes"), 128);
    cr_expect_eq(num(j, "sector_bytes"), 32);
    cr_expect_eq(num(j, "line_bytes"), 128);
    cr_expect_float_eq(num(j, "line_efficiency"), 1.0, 1e-12);
    json_decref(j);

    j = tu_exec_json((const char *[]){ "model", "--expr", "8*t", "--format", "json", NULL });
    cr_expect_eq(num(j, "sectors"), 8);
    cr_expect_float_eq(num(j, "sector_efficiency"), 0.5, 1e-12);
    cr_expect_eq(num(j, "lines"), 2);
    json_decref(j);

    j = tu_exec_json((const char *[]){ "model", "--expr", "8+4*t", "--format", "json", NULL });
    cr_expect_eq(num(j, "sectors"), 5);
    cr_expect_float_eq(num(j, "sector_efficiency"), 0.8, 1e-12);
    json_decref(j);

    j = tu_exec_json((const char *[]){ "model", "--space", "local", "--expr", "128*t", "--format", "json", NULL });
    cr_expect_eq(num(j, "conflict_ways"), 32);
    cr_expect_eq(num(j, "banks"), 32);
    cr_expect_eq(num(j, "bank_width"), 4);
    json_decref(j);
}

Test(cli, model_options)
{
    /* a pattern, a mask, a base and a warp */
    json_t *j = tu_exec_json((const char *[]){ "model", "--pattern", "stride:s=2", "--format", "json", NULL });
    cr_expect_str_eq(json_string_value(json_object_get(j, "pattern")), "stride:s=2");
    cr_expect_eq(num(j, "sectors"), 8);
    json_decref(j);
    j = tu_exec_json((const char *[]){ "model", "--expr", "4*g", "--mask", "0x1", "--base", "126", "--warp", "1",
                                   "--format", "json", NULL });
    cr_expect_eq(num(j, "active_lanes"), 1);
    cr_expect_eq(num(j, "sectors"), 2); /* lane 0 of warp 1: bytes 254..257, sectors 7 and 8 */
    json_decref(j);
    /* --lanes 64 on the cpu profile: no banks, so bank figures are null */
    j = tu_exec_json((const char *[]){ "model", "--profile", "cpu", "--lanes", "64", "--space", "local", "--expr",
                                   "4*t", "--format", "json", NULL });
    cr_expect_eq(num(j, "lanes"), 64);
    cr_expect(json_is_null(json_object_get(j, "conflict_ways")));
    cr_expect(json_is_null(json_object_get(j, "banks")));
    cr_expect_eq(num(j, "sectors"), 4); /* 256 bytes in 64-byte sectors */
    json_decref(j);
    /* a bank pattern is local by default: pitch 32, stride 4 puts rows 0, 4, ..., 28 in bank 0 (8-way) */
    j = tu_exec_json((const char *[]){ "model", "--pattern", "bank:pitch=32,stride=4", "--format", "json", NULL });
    cr_expect_str_eq(json_string_value(json_object_get(j, "space")), "local");
    cr_expect_eq(num(j, "conflict_ways"), 8);
    json_decref(j);
    /* on a profile without banks (PoCL's cpu) the bank figures do not apply: null, never a number */
    j = tu_exec_json((const char *[]){ "model", "--profile", "cpu", "--pattern", "bank:pitch=33", "--format", "json",
                                   NULL });
    cr_expect_str_eq(json_string_value(json_object_get(j, "space")), "local");
    cr_expect(json_is_null(json_object_get(j, "conflict_ways")));
    json_decref(j);
    /* --space global still gives the global figures of the same addresses */
    j = tu_exec_json((const char *[]){ "model", "--space", "global", "--pattern", "bank:pitch=33", "--format", "json",
                                   NULL });
    cr_expect_str_eq(json_string_value(json_object_get(j, "space")), "global");
    json_decref(j);
    /* launch bounds: 1000 floats, seq */
    j = tu_exec_json((const char *[]){ "model", "--pattern", "seq", "--launch", "--items", "1000", "--format", "json",
                                   NULL });
    json_t *loads = json_object_get(json_object_get(j, "launch"), "loads");
    cr_assert_not_null(loads);
    cr_expect_eq(num(loads, "requested_bytes"), 4000);
    cr_expect_eq(num(loads, "instruction_model_bytes"), 125 * 32);
    cr_expect_eq(num(loads, "footprint_bytes"), 125 * 32);
    json_t *launch = json_object_get(j, "launch");
    cr_expect_eq(num(launch, "items"), 1000);
    cr_expect_eq(num(launch, "warps"), 32);
    cr_expect_eq(num(launch, "requested_bytes"), 4000);
    cr_expect_float_eq(num(launch, "predicted_efficiency"), 4000.0 / (125 * 32), 1e-12);
    json_decref(j);
    /* as a store: the same figures under "stores" */
    j = tu_exec_json((const char *[]){ "model", "--expr", "8*g", "--items", "64", "--access", "store", "--format",
                                   "json", NULL });
    launch = json_object_get(j, "launch");
    cr_expect_eq(num(json_object_get(launch, "stores"), "instruction_model_bytes"), 16 * 32);
    cr_expect_eq(num(json_object_get(launch, "loads"), "requested_bytes"), 0);
    json_decref(j);
    /* the table labels every number's kind */
    tu_result r = run((const char *[]){ "model", "--pattern", "stride:s=2", "--launch", "--items", "4096", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "requested") && strstr(r.out, "modeled"), "%s", r.out);
    cr_expect(strstr(r.out, "50.0%") != NULL, "%s", r.out);
    tu_result_free(&r);
}

Test(cli, roofline)
{
    json_t *j = tu_exec_json((const char *[]){ "model", "--roofline", "--peak-gflops", "1000", "--peak-gbs", "250",
                                           "--intensity", "2", "--format", "json", NULL });
    cr_expect_float_eq(num(j, "ridge_intensity"), 4.0, 1e-12);
    cr_expect_float_eq(num(j, "intensity"), 2.0, 1e-12);
    cr_expect_float_eq(num(j, "attainable_gflops"), 500.0, 1e-9);
    cr_expect_str_eq(json_string_value(json_object_get(j, "bound")), "memory");
    json_decref(j);
    j = tu_exec_json((const char *[]){ "model", "--roofline", "--peak-gflops", "19500", "--peak-gbs", "1555", "--tile",
                                   "64", "--format", "json", NULL });
    cr_expect_str_eq(json_string_value(json_object_get(j, "bound")), "compute");
    cr_expect_eq(num(j, "min_tile_compute_bound"), 51);
    json_decref(j);
}

Test(cli, patterns_listing)
{
    json_t *j = tu_exec_json((const char *[]){ "patterns", "--format", "json", NULL });
    cr_assert(json_is_array(j));
    cr_expect_geq(json_array_size(j), 11);
    static const char *const names[] = { "seq",       "offset", "stride",     "reverse",    "permute", "broadcast",
                                         "one-lane",  "aos",    "matrix-row", "matrix-col", "mixed" };
    for (size_t k = 0; k < 11; k++) {
        int found = 0;
        for (size_t i = 0; i < json_array_size(j); i++) {
            json_t *o = json_array_get(j, i);
            if (!strcmp(json_string_value(json_object_get(o, "name")), names[k])) {
                found = 1;
                cr_expect(json_is_string(json_object_get(o, "shows")));
                cr_expect(json_is_array(json_object_get(o, "params")));
            }
        }
        cr_expect(found, "pattern %s missing", names[k]);
    }
    json_decref(j);
    tu_result r = run((const char *[]){ "patterns", NULL });
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "matrix-col") != NULL);
    tu_result_free(&r);
}

/* `bwlab patterns --format json` lists every descriptor of the catalogue,
 * in its order, with each parameter's default and range, then elem */
Test(cli, patterns_json_lists_each_descriptor)
{
    size_t n;
    const model_pattern_family *f = model_pattern_families(&n);
    json_t *j = tu_exec_json((const char *[]){ "patterns", "--format", "json", NULL });
    cr_assert(json_is_array(j));
    cr_assert_eq(json_array_size(j), n);
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_array_get(j, i);
        cr_expect_str_eq(json_string_value(json_object_get(o, "name")), f[i].name);
        cr_expect_str_eq(json_string_value(json_object_get(o, "shows")), f[i].shows);
        json_t *ps = json_object_get(o, "params");
        cr_assert_eq(json_array_size(ps), (size_t)f[i].nparams + 1, "%s", f[i].name);
        for (int k = 0; k < f[i].nparams; k++) {
            json_t *p = json_array_get(ps, (size_t)k);
            cr_expect_str_eq(json_string_value(json_object_get(p, "name")), f[i].params[k].key);
            if (f[i].params[k].names) {
                /* named values: the default's name, then every name allowed */
                cr_expect_str_eq(json_string_value(json_object_get(p, "default")),
                                 f[i].params[k].names[f[i].params[k].def]);
                json_t *allowed = json_object_get(p, "allowed");
                cr_assert_eq(json_array_size(allowed), (size_t)(f[i].params[k].max + 1), "%s", f[i].name);
                for (int64_t v = 0; v <= f[i].params[k].max; v++)
                    cr_expect_str_eq(json_string_value(json_array_get(allowed, (size_t)v)), f[i].params[k].names[v]);
                continue;
            }
            cr_expect_eq(json_integer_value(json_object_get(p, "default")), f[i].params[k].def);
            cr_expect_eq(json_integer_value(json_object_get(p, "min")), f[i].params[k].min);
            cr_expect_eq(json_integer_value(json_object_get(p, "max")), f[i].params[k].max);
        }
        json_t *e = json_array_get(ps, (size_t)f[i].nparams);
        cr_expect_str_eq(json_string_value(json_object_get(e, "name")), "elem");
        /* record: the type sets elem, no value may be given */
        if (f[i].elem_fixed < 0)
            cr_expect_eq(json_array_size(json_object_get(e, "allowed")), 0, "%s", f[i].name);
        cr_expect_eq(json_integer_value(json_object_get(e, "default")), MODEL_PATTERN_DEFAULT_ELEM);
        cr_expect_str_eq(json_string_value(json_object_get(o, "kernel")), f[i].kernel);
    }
    /* transpose: global memory, its own kernel, version by name and n */
    json_t *tr = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(j, i), "name")), "transpose"))
            tr = json_array_get(j, i);
    cr_assert_not_null(tr);
    cr_expect_str_eq(json_string_value(json_object_get(tr, "space")), "global");
    cr_expect_str_eq(json_string_value(json_object_get(tr, "kernel")), "transpose");
    json_t *tp = json_object_get(tr, "params");
    cr_assert_eq(json_array_size(tp), 3);
    json_t *ver = json_array_get(tp, 0);
    cr_expect_str_eq(json_string_value(json_object_get(ver, "name")), "version");
    cr_expect_str_eq(json_string_value(json_object_get(ver, "default")), "naive");
    json_t *vs = json_object_get(ver, "allowed");
    cr_assert_eq(json_array_size(vs), 4);
    static const char *const versions[] = { "naive", "tiled", "padded", "copy" };
    for (size_t v = 0; v < 4; v++)
        cr_expect_str_eq(json_string_value(json_array_get(vs, v)), versions[v]);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(tp, 1), "name")), "n");
    /* record: global memory, its own kernel, fields, type, layout and n */
    json_t *rec = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(j, i), "name")), "record"))
            rec = json_array_get(j, i);
    cr_assert_not_null(rec);
    cr_expect_str_eq(json_string_value(json_object_get(rec, "space")), "global");
    cr_expect_str_eq(json_string_value(json_object_get(rec, "kernel")), "record");
    json_t *rp = json_object_get(rec, "params");
    cr_assert_eq(json_array_size(rp), 5, "fields, type, layout, n, elem");
    static const char *const rkeys[] = { "fields", "type", "layout", "n", "elem" };
    for (size_t k = 0; k < 5; k++)
        cr_expect_str_eq(json_string_value(json_object_get(json_array_get(rp, k), "name")), rkeys[k]);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(rp, 0), "default")), 3);
    json_t *types = json_object_get(json_array_get(rp, 1), "allowed"), *layouts = json_object_get(json_array_get(rp, 2), "allowed");
    cr_assert_eq(json_array_size(types), 2);
    cr_expect_str_eq(json_string_value(json_array_get(types, 0)), "float");
    cr_expect_str_eq(json_string_value(json_array_get(types, 1)), "uchar");
    cr_assert_eq(json_array_size(layouts), 2);
    cr_expect_str_eq(json_string_value(json_array_get(layouts, 0)), "aos");
    cr_expect_str_eq(json_string_value(json_array_get(layouts, 1)), "soa");
    /* bank: local memory, the bank kernel, pitch and stride, floats only */
    json_t *bank = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(j, i), "name")), "bank"))
            bank = json_array_get(j, i);
    cr_assert_not_null(bank);
    cr_expect_str_eq(json_string_value(json_object_get(bank, "space")), "local");
    cr_expect_str_eq(json_string_value(json_object_get(bank, "kernel")), "bank");
    json_t *bp = json_object_get(bank, "params");
    cr_assert_eq(json_array_size(bp), 3);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(bp, 0), "name")), "pitch");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(bp, 0), "default")), 32);
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(bp, 1), "name")), "stride");
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(bp, 1), "default")), 1);
    cr_expect_eq(json_array_size(json_object_get(json_array_get(bp, 2), "allowed")), 1);
    cr_expect_str_eq(json_string_value(json_object_get(bank, "spec")), "bank:pitch=32,stride=1");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(j, 0), "space")), "global");
    json_decref(j);
}

typedef struct {
    const char *args[12];
    const char *needle; /* the bad value, quoted in the message */
} bad_case;

Test(cli, bad_input_table)
{
    static const bad_case cases[] = {
        { { "model", "--expr", "4*", NULL }, "4*" },
        { { "model", "--expr", "x+1", NULL }, "'x'" },
        { { "model", "--pattern", "nope", NULL }, "nope" },
        { { "model", "--pattern", "stride:q=1", NULL }, "'q'" },
        { { "model", "--pattern", "stride:s=0", NULL }, "s=0" },
        { { "model", "--elem", "0", "--expr", "4*t", NULL }, "--elem" },
        { { "model", "--elem", "-4", "--expr", "4*t", NULL }, "-4" },
        { { "model", "--lanes", "0", "--expr", "4*t", NULL }, "--lanes" },
        { { "model", "--sector", "256", "--expr", "4*t", NULL }, "256" },
        { { "model", "--sector", "0", "--expr", "4*t", NULL }, "--sector" },
        { { "model", "--line", "96", "--sector", "64", "--expr", "4*t", NULL }, "96" },
        /* --mask 0 and --active 0 are the no-active-lane case (test_cli_bad checks their messages) */
        { { "model", "--mask", "0x1ffffffff", "--expr", "4*t", NULL }, "0x1ffffffff" },
        { { "model", "--mask", "xyz", "--expr", "4*t", NULL }, "xyz" },
        { { "model", "--active", "33", "--expr", "4*t", NULL }, "33" },
        { { "model", "--expr", "4*t", "--pattern", "seq", NULL }, "conflicting" },
        { { "model", "--active", "3", "--mask", "0x7", "--expr", "4*t", NULL }, "conflicting" },
        { { "model", "--pattern", "one-lane", "--mask", "0x3", NULL }, "conflicting" },
        { { "model", "--elem", "8", "--pattern", "seq:elem=16", NULL }, "conflicting" },
        { { "model", "--roofline", "--peak-gflops", "100", "--peak-gbs", "10", NULL }, "--intensity" },
        { { "model", "--peak-gflops", "100", "--peak-gbs", "10", "--intensity", "1", "--tile", "8", NULL },
          "conflicting" },
        { { "model", "--peak-gflops", "-5", "--peak-gbs", "10", "--intensity", "1", NULL }, "-5" },
        { { "model", "--peak-gflops", "abc", "--peak-gbs", "10", "--intensity", "1", NULL }, "abc" },
        { { "model", "--profile", "nosuch", "--expr", "4*t", NULL }, "nosuch" },
        { { "model", "--format", "xml", "--expr", "4*t", NULL }, "xml" },
        { { "model", "--space", "shared", "--expr", "4*t", NULL }, "shared" },
        { { "model", "--launch", "--expr", "4*t", NULL }, "--items" },
        { { "model", "--items", "0", "--expr", "4*t", NULL }, "--items" },
        { { "model", "--warp", "-1", "--expr", "4*t", NULL }, "-1" },
        { { "model", "--expr", "1/0", NULL }, "division by zero" },
        { { "model", NULL }, "address source" },
        { { "model", "--expr", "4*t", "extra", NULL }, "extra" },
        { { "model", "--expr", NULL }, "--expr" },
        { { "patterns", "--format", "csv", NULL }, "csv" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_result r = run(cases[i].args);
        cr_expect_eq(r.status, 2, "case %zu (%s %s): exit %d, %s", i, cases[i].args[1], cases[i].args[2] ? cases[i].args[2] : "",
                     r.status, r.err);
        cr_expect(strstr(r.err, cases[i].needle) != NULL, "case %zu wants '%s': %s", i, cases[i].needle, r.err);
        cr_expect(strstr(r.err, "error: ") != NULL, "case %zu: %s", i, r.err);
        /* the message itself is one line (a usage synopsis may follow) */
        const char *msg = strstr(r.err, "error: ");
        cr_expect(msg && strchr(msg, '\n') != NULL);
        cr_expect_str_eq(r.out, "", "case %zu printed data", i);
        tu_result_free(&r);
    }
}

/* bwlab model --access write: the warp's stores with their partial
 * sectors, and for a launch the stores beside the coalesced load
 * (docs/model.md, "Partial sectors"): offset:bytes=4 under nvidia touches
 * 5 sectors a warp, 2 of them partial, and over 1024 items only the first
 * and the last of 129 */
Test(cli, model_access_write_counts_partial_sectors)
{
    json_t *j = tu_exec_json((const char *[]){ "model", "--pattern", "offset:bytes=4", "--access", "write",
                                               "--format", "json", NULL });
    cr_assert_not_null(j);
    cr_expect_str_eq(json_string_value(json_object_get(j, "access")), "write");
    cr_expect_eq(json_integer_value(json_object_get(j, "sectors")), 5);
    cr_expect_eq(json_integer_value(json_object_get(j, "partial_sectors")), 2);
    json_decref(j);
    j = tu_exec_json((const char *[]){ "model", "--pattern", "offset:bytes=4", "--access", "write", "--launch",
                                       "--items", "1024", "--format", "json", NULL });
    cr_assert_not_null(j);
    json_t *l = json_object_get(j, "launch");
    cr_expect_str_eq(json_string_value(json_object_get(l, "access")), "write");
    json_t *st = json_object_get(l, "stores"), *ld = json_object_get(l, "loads");
    cr_expect_eq(json_integer_value(json_object_get(st, "footprint_bytes")), 129 * 32);
    cr_expect_eq(json_integer_value(json_object_get(ld, "footprint_bytes")), 4096, "src[g]: 128 sectors");
    cr_expect_eq(json_integer_value(json_object_get(l, "footprint_bytes")), 129 * 32, "the stores' at the top");
    json_decref(j);
    /* a store kind without a launch is still refused; write is not */
    tu_result r = run((const char *[]){ "model", "--pattern", "seq", "--access", "store", NULL });
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "--access store applies to a launch") != NULL, "%s", r.err);
    tu_result_free(&r);
}
