/* The pattern catalogue: specs, addresses (worked by hand for W = 32),
 * permutations, lane masks, and errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_bank.h"
#include "model_launch.h"
#include "model_pattern.h"
#include "model_warp.h"
#include "test_util.h"

static model_pattern *pat(const char *spec, int W, int64_t elem)
{
    model_pattern *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_pattern_parse(spec, W, elem, &p, &err), BW_OK, "%s: %s", spec, bw_error_text(&err));
    return p;
}

static int64_t addr(const model_pattern *p, int64_t t, int64_t w)
{
    model_expr_env env = { t, w, w * p->lanes + t, p->lanes };
    int64_t v = 0;
    cr_assert_eq(model_expr_eval(p->expr, &env, &v, NULL), BW_OK);
    return v;
}

Test(model_pattern, canonical_specs)
{
    static const char *const cases[][2] = {
        { "seq", "seq" },
        { "seq:elem=4", "seq" },
        { "seq:elem=16", "seq:elem=16" },
        { "stride", "stride:s=2" },
        { "stride:elem=8,s=4", "stride:s=4,elem=8" },
        { "aos:field=4,struct=12", "aos:struct=12,field=4" },
        { "offset:bytes=0x10", "offset:bytes=16" },
        { "matrix-col", "matrix-col:n=4096" },
        { "permute", "permute:seed=1" },
        { "mixed", "mixed:s=32" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = pat(cases[i][0], 32, 0);
        cr_expect_str_eq(p->spec, cases[i][1]);
        model_pattern_free(p);
    }
    model_pattern *p = pat("seq", 32, 8);
    cr_expect_str_eq(p->spec, "seq:elem=8");
    cr_expect_eq(p->elem, 8);
    model_pattern_free(p);
}

Test(model_pattern, addresses)
{
    model_pattern *p = pat("seq", 32, 0);
    cr_expect_eq(addr(p, 5, 2), 4 * 69);
    model_pattern_free(p);
    p = pat("offset:bytes=4", 32, 0);
    cr_expect_eq(addr(p, 0, 1), 4 + 128);
    model_pattern_free(p);
    p = pat("stride:s=3,elem=8", 32, 0);
    cr_expect_eq(addr(p, 2, 1), 24 * 34);
    model_pattern_free(p);
    p = pat("reverse", 32, 0);
    cr_expect_eq(addr(p, 0, 1), 4 * 63);
    cr_expect_eq(addr(p, 31, 1), 4 * 32);
    model_pattern_free(p);
    p = pat("broadcast", 32, 0);
    for (int t = 0; t < 32; t++)
        cr_expect_eq(addr(p, t, 3), 384);
    model_pattern_free(p);
    p = pat("one-lane", 32, 0);
    cr_expect_eq(model_lanes_count(&p->active), 1);
    cr_expect(model_lanes_has(&p->active, 0));
    cr_expect_eq(addr(p, 0, 2), 256);
    model_pattern_free(p);
    p = pat("aos:struct=12,field=4", 32, 0);
    cr_expect_eq(addr(p, 1, 0), 16);
    model_pattern_free(p);
    p = pat("matrix-row:n=64", 32, 0);
    cr_expect_eq(addr(p, 1, 2), 4 * 65);
    model_pattern_free(p);
    /* item g reads row g % n, column g / n */
    p = pat("matrix-col:n=64", 32, 0);
    cr_expect_eq(addr(p, 1, 0), 4 * 64);
    cr_expect_eq(addr(p, 1, 2), 4 * (1 * 64 + 1));
    model_pattern_free(p);
    /* first half sequential, second half 32 elements apart after them,
     * each warp in its own block of 32*32 elements */
    p = pat("mixed:s=32", 32, 0);
    cr_expect_eq(addr(p, 3, 0), 12);
    cr_expect_eq(addr(p, 16, 0), 64);
    cr_expect_eq(addr(p, 17, 0), 4 * (16 + 32));
    cr_expect_eq(addr(p, 0, 1), 4 * 1024);
    model_pattern_free(p);
}

/* sectors per warp of each catalogue pattern, nvidia profile, by hand */
Test(model_pattern, sectors_per_warp_on_nvidia)
{
    static const struct {
        const char *spec;
        int64_t sectors, lines;
    } cases[] = {
        { "seq", 4, 1 },          { "offset:bytes=4", 5, 2 },   { "stride:s=2", 8, 2 },
        { "stride:s=8", 32, 8 },  { "stride:s=32", 32, 32 },   { "reverse", 4, 1 },
        { "permute:seed=9", 4, 1 }, { "broadcast", 1, 1 },     { "one-lane", 1, 1 },
        { "aos:struct=12", 12, 3 }, { "aos:struct=16,field=8", 16, 4 }, { "matrix-row:n=4096", 4, 1 },
        { "matrix-col:n=4096", 32, 32 }, { "mixed:s=32", 18, 16 }, { "seq:elem=16", 16, 4 },
    };
    const model_geometry g = { 32, 32, 128, 32, 4, 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = pat(cases[i].spec, 32, 0);
        int64_t a[32];
        for (int t = 0; t < 32; t++)
            a[t] = model_lanes_has(&p->active, t) ? addr(p, t, 5) : 0;
        model_warp w;
        cr_assert_eq(model_warp_count(&g, p->elem, a, &p->active, &w, NULL), BW_OK);
        cr_expect_eq(w.sectors, cases[i].sectors, "%s: %lld sectors", cases[i].spec, (long long)w.sectors);
        cr_expect_eq(w.lines, cases[i].lines, "%s: %lld lines", cases[i].spec, (long long)w.lines);
        model_pattern_free(p);
    }
}

Test(model_pattern, permute_is_a_permutation)
{
    static const int widths[] = { 1, 2, 4, 8, 16, 32, 64, 6, 12, 48, 100 };
    int non_identity = 0;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        for (int seed = 0; seed < 20; seed++) {
            char spec[64];
            snprintf(spec, sizeof spec, "permute:seed=%d", seed);
            int W = widths[i];
            model_pattern *p = pat(spec, W, 0);
            int seen[128] = { 0 }, moved = 0;
            for (int t = 0; t < W; t++) {
                int64_t a = addr(p, t, 3);
                int64_t lane = a / 4 - 3 * W;
                cr_assert(a % 4 == 0 && lane >= 0 && lane < W, "%s W=%d lane %d -> %lld", spec, W, t, (long long)a);
                cr_assert(!seen[lane], "%s W=%d: lane %lld twice", spec, W, (long long)lane);
                seen[lane] = 1;
                moved += lane != t;
            }
            non_identity += W >= 8 && moved > W / 2;
            model_pattern_free(p);
        }
    }
    cr_expect(non_identity > 100, "permutations look too ordered (%d)", non_identity);
}

typedef struct {
    const char *spec;
    int64_t elem;
    const char *needle;
} bad_spec;

Test(model_pattern, errors_name_the_bad_part)
{
    static const bad_spec cases[] = {
        { "nope", 0, "'nope'" },
        { "stride:q=1", 0, "'q'" },
        { "stride:s=0", 0, "s=0" },
        { "stride:s=abc", 0, "abc" },
        { "seq:elem=3", 0, "elem=3" },
        { "stride:s=2,s=3", 0, "twice" },
        { "stride:", 0, "nothing after" },
        { "stride:s", 0, "'s'" },
        { "aos:struct=8,field=6", 0, "field=6" },
        { "aos:struct=2", 0, "struct=2" },
        { "seq:elem=16", 8, "elem=16" },
        { "", 0, "empty" },
        { "matrix-col:n=99999999", 0, "n=99999999" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = NULL;
        bw_error err = BW_ERROR_INIT;
        bw_code rc = model_pattern_parse(cases[i].spec, 32, cases[i].elem, &p, &err);
        cr_expect(rc == BW_E_USAGE || rc == BW_E_RANGE, "'%s' gave %d", cases[i].spec, rc);
        cr_expect_null(p);
        cr_expect(strstr(bw_error_text(&err), cases[i].needle) != NULL, "'%s': %s", cases[i].spec,
                  bw_error_text(&err));
        bw_error_clear(&err);
    }
}

static void expect_split(const char *list, size_t n, const char *const *want)
{
    char **specs = NULL;
    size_t got = 0;
    cr_assert_eq(model_pattern_split_list(list, &specs, &got, NULL), BW_OK, "%s", list);
    cr_assert_eq(got, n, "%s", list);
    for (size_t i = 0; i < n; i++) {
        cr_expect_str_eq(specs[i], want[i]);
        free(specs[i]);
    }
    free(specs);
}

Test(model_pattern, split_lists)
{
    expect_split("aos:struct=12,field=0,seq", 2, (const char *const[]){ "aos:struct=12,field=0", "seq" });
    expect_split("stride:s=2,stride:s=4", 2, (const char *const[]){ "stride:s=2", "stride:s=4" });
    expect_split("seq,elem=16", 1, (const char *const[]){ "seq:elem=16" });
    expect_split("seq", 1, (const char *const[]){ "seq" });
    char **specs = NULL;
    size_t n = 0;
    cr_expect_eq(model_pattern_split_list("s=2", &specs, &n, NULL), BW_E_USAGE);
    cr_expect_eq(model_pattern_split_list("seq,,stride", &specs, &n, NULL), BW_E_USAGE);
    cr_expect_eq(model_pattern_split_list("", &specs, &n, NULL), BW_E_USAGE);
    for (size_t i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
}

Test(model_pattern, every_family_builds_for_every_profile_width)
{
    size_t n;
    const model_pattern_family *f = model_pattern_families(&n);
    cr_expect_geq(n, 11);
    static const int widths[] = { 1, 8, 16, 32, 64 };
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 5; k++)
            model_pattern_free(pat(f[i].name, widths[k], 0));
}

/* The catalogue is a table of complete descriptors: each one names its
 * parameters within their ranges, its builder and explanation, a memory
 * space, a kernel family with its file in cl/, and a sizing kind; seq is
 * the one reference. */
Test(model_pattern, every_descriptor_is_complete)
{
    size_t n;
    const model_pattern_family *f = model_pattern_families(&n);
    const char *root = getenv("BWLAB_SOURCE_ROOT");
    int refs = 0;
    for (size_t i = 0; i < n; i++) {
        cr_assert(f[i].name && *f[i].name);
        cr_expect_eq(model_pattern_family_find(f[i].name), &f[i], "%s: names must be unique", f[i].name);
        cr_expect(f[i].shows && *f[i].shows, "%s: no SHOWS text", f[i].name);
        cr_expect_not_null(f[i].build, "%s", f[i].name);
        cr_expect_not_null(f[i].explain, "%s", f[i].name);
        /* global families run in the gather kernel (the transpose family in
         * its own), local ones in the bank kernel */
        if (f[i].space == MODEL_PATTERN_SPACE_LOCAL) {
            cr_expect_str_eq(f[i].kernel, MODEL_PATTERN_KERNEL_BANK, "%s", f[i].name);
            cr_expect_eq(f[i].sizing, MODEL_PATTERN_SIZING_LOCAL_TILE, "%s", f[i].name);
        } else if (f[i].sizing == MODEL_PATTERN_SIZING_RECORDS) {
            cr_expect_eq(f[i].space, MODEL_PATTERN_SPACE_GLOBAL, "%s", f[i].name);
            cr_expect_str_eq(f[i].kernel, MODEL_PATTERN_KERNEL_RECORD, "%s", f[i].name);
        } else if (f[i].sizing == MODEL_PATTERN_SIZING_TRANSPOSE) {
            cr_expect_eq(f[i].space, MODEL_PATTERN_SPACE_GLOBAL, "%s", f[i].name);
            cr_expect_str_eq(f[i].kernel, MODEL_PATTERN_KERNEL_TRANSPOSE, "%s", f[i].name);
            cr_expect_not_null(f[i].build_store, "%s: the transpose's stores are its point", f[i].name);
        } else {
            cr_expect_eq(f[i].space, MODEL_PATTERN_SPACE_GLOBAL, "%s", f[i].name);
            cr_expect_str_eq(f[i].kernel, MODEL_PATTERN_KERNEL_GATHER, "%s", f[i].name);
        }
        if (root) {
            char path[1024];
            snprintf(path, sizeof path, "%s/cl/%s.cl", root, f[i].kernel);
            FILE *k = fopen(path, "r");
            cr_expect_not_null(k, "%s: no kernel file %s", f[i].name, path);
            if (k)
                fclose(k);
        }
        cr_expect_leq(f[i].nparams, MODEL_PATTERN_MAX_PARAMS);
        int has_n = 0;
        for (int k = 0; k < f[i].nparams; k++) {
            const model_pattern_param *p = &f[i].params[k];
            cr_expect(p->key && *p->key && p->meaning && *p->meaning, "%s: parameter %d", f[i].name, k);
            cr_expect(p->min <= p->def && p->def <= p->max, "%s: %s=%lld outside %lld..%lld", f[i].name, p->key,
                      (long long)p->def, (long long)p->min, (long long)p->max);
            /* named values: one name for each value min..max */
            if (p->names) {
                cr_expect_eq(p->min, 0, "%s: %s", f[i].name, p->key);
                for (int64_t v = 0; v <= p->max; v++)
                    cr_expect(p->names[v] && *p->names[v], "%s: %s=%lld has no name", f[i].name, p->key, (long long)v);
                cr_expect_null(p->names[p->max + 1], "%s: %s", f[i].name, p->key);
            }
            has_n |= !strcmp(p->key, "n");
        }
        if (f[i].sizing == MODEL_PATTERN_SIZING_MATRIX || f[i].sizing == MODEL_PATTERN_SIZING_TRANSPOSE ||
            f[i].sizing == MODEL_PATTERN_SIZING_RECORDS)
            cr_expect(has_n, "%s: a matrix family needs its order n", f[i].name);
        refs += f[i].is_reference;
    }
    cr_expect_eq(refs, 1);
    const model_pattern_family *seq = model_pattern_family_find("seq");
    cr_assert_not_null(seq);
    cr_expect(seq->is_reference);
    cr_expect_eq(model_pattern_family_find("matrix-row")->sizing, MODEL_PATTERN_SIZING_MATRIX);
    cr_expect_eq(model_pattern_family_find("matrix-col")->sizing, MODEL_PATTERN_SIZING_MATRIX);
    cr_expect_eq(model_pattern_family_find("stride")->sizing, MODEL_PATTERN_SIZING_FOOTPRINT);
    cr_expect_eq(model_pattern_family_find("bank")->space, MODEL_PATTERN_SPACE_LOCAL);
    cr_expect_null(model_pattern_family_find("expr"));
}

/* Every family's defaults, given by name alone or spelled out, give its
 * canonical spec and the address expression worked out by hand for W = 32
 * and E = 4 (permute's constants are the fixed generator's for seed 1; its
 * bijection is checked above). A new family needs its line here. */
Test(model_pattern, defaults_give_the_documented_expression)
{
    static const char *const cases[][3] = {
        { "seq", "seq", "4 * g" },
        { "offset", "offset:bytes=4", "4 + 4 * g" },
        { "stride", "stride:s=2", "8 * g" },
        { "reverse", "reverse", "4 * (32 * w + 31 - t)" },
        { "permute", "permute:seed=1",
          "4 * (32 * w + ((3 * (((13 * t + 7) & 31) ^ (((13 * t + 7) & 31) >> 2)) + 11) & 31))" },
        { "broadcast", "broadcast", "128 * w" },
        { "one-lane", "one-lane", "4 * g" },
        { "aos", "aos:struct=16,field=0", "16 * g + 0" },
        { "matrix-row", "matrix-row:n=4096", "4 * (g / 4096 * 4096 + g % 4096)" },
        { "matrix-col", "matrix-col:n=4096", "4 * (g % 4096 * 4096 + g / 4096)" },
        { "mixed", "mixed:s=32", "t < 16 ? 4 * (1024 * w + t) : 4 * (1024 * w + 16 + 32 * (t - 16))" },
        { "bank", "bank:pitch=32,stride=1", "4 * (1 * t % 32 * 32)" },
        /* naive: the loads are in[g] (the stores are strided) */
        { "transpose", "transpose:version=naive,n=1024", "4 * g" },
        /* field 0 of 12-byte records; fields 1 and 2 at +4 and +8 (load_base) */
        { "record", "record:fields=3,type=float,layout=aos,n=1048576", "12 * g" },
    };
    size_t n;
    const model_pattern_family *f = model_pattern_families(&n);
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        while (c < sizeof cases / sizeof cases[0] && strcmp(cases[c][0], f[i].name))
            c++;
        cr_assert_lt(c, sizeof cases / sizeof cases[0], "family %s has no documented expression", f[i].name);
        char spelled[256];
        int k = snprintf(spelled, sizeof spelled, "%s", f[i].name);
        for (int q = 0; q < f[i].nparams; q++) {
            if (f[i].params[q].names)
                k += snprintf(spelled + k, sizeof spelled - (size_t)k, "%c%s=%s", q ? ',' : ':', f[i].params[q].key,
                              f[i].params[q].names[f[i].params[q].def]);
            else
                k += snprintf(spelled + k, sizeof spelled - (size_t)k, "%c%s=%lld", q ? ',' : ':',
                              f[i].params[q].key, (long long)f[i].params[q].def);
        }
        const char *forms[] = { f[i].name, spelled };
        for (int m = 0; m < 2; m++) {
            model_pattern *p = pat(forms[m], 32, 0);
            cr_expect_eq(p->family, &f[i]);
            cr_expect_str_eq(p->spec, cases[c][1], "%s", forms[m]);
            cr_expect_str_eq(p->expr_text, cases[c][2], "%s", forms[m]);
            model_pattern_free(p);
        }
    }
}

/* Each family's explanation is one sentence that ends with a full stop. */
Test(model_pattern, every_family_explains_itself)
{
    size_t n;
    const model_pattern_family *f = model_pattern_families(&n);
    for (size_t i = 0; i < n; i++) {
        model_pattern *p = pat(f[i].name, 32, 0);
        model_pattern_facts facts = { p, 32, 32, 4, 4.0, 4.0 };
        bw_buf b = BW_BUF_INIT;
        f[i].explain(&facts, &b);
        const char *s = bw_buf_str(&b);
        cr_expect(strlen(s) > 20 && s[strlen(s) - 1] == '.', "%s: '%s'", f[i].name, s);
        bw_buf_free(&b);
        model_pattern_free(p);
    }
    char a[32];
    cr_expect_str_eq(model_pattern_sectors_words(a, sizeof a, 1.0), "1 sector");
    cr_expect_str_eq(model_pattern_sectors_words(a, sizeof a, 4.5), "4.5 sectors");
    cr_expect_str_eq(model_pattern_worth_words(a, sizeof a, 1.0), "1 sector's worth");
    cr_expect_str_eq(model_pattern_worth_words(a, sizeof a, 0.5), "0.5 sectors' worth");
}

/* The bank family's ways through model_bank on the nvidia profile (32
 * banks of 4 bytes, W = 32), worked by hand: lane t's word is
 * ((S*t) mod 32) * P and its bank that word mod 32.
 * - pitch 32: words 0, 32, ..., 992, all in bank 0: 32 distinct, 32-way;
 * - pitch 33: word 33r is in bank r: one word per bank, 1-way;
 * - pitch 32, stride 2: rows 0, 2, ..., 30 (lanes t and t+16 share a word,
 *   one broadcast), all in bank 0: 16-way; stride 4: 8 rows, 8-way;
 *   stride 8: 4-way; stride 16: 2-way;
 * - pitch 33, stride 2: rows 0, 2, ..., 30 in banks 0, 2, ..., 30: 1-way;
 * - pitch 34: word 34r is in bank 2r mod 32, rows r and r+16 share it: 2-way. */
Test(model_pattern, bank_ways_by_hand_on_nvidia)
{
    static const model_geometry nvidia = { 32, 32, 128, 32, 4, 0 };
    static const struct {
        const char *spec;
        int ways;
        int distinct;
    } cases[] = {
        { "bank:pitch=32", 32, 32 },          { "bank:pitch=33", 1, 32 },
        { "bank:pitch=32,stride=2", 16, 16 }, { "bank:pitch=32,stride=4", 8, 8 },
        { "bank:pitch=32,stride=8", 4, 4 },   { "bank:pitch=32,stride=16", 2, 2 },
        { "bank:pitch=33,stride=2", 1, 16 },  { "bank:pitch=33,stride=4", 1, 8 },
        { "bank:pitch=34", 2, 32 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = pat(cases[i].spec, 32, 0);
        int64_t a[MODEL_MAX_LANES];
        for (int t = 0; t < 32; t++)
            a[t] = addr(p, t, 0);
        model_bank b;
        model_bank_count(&nvidia, a, &p->active, &b);
        cr_expect_eq(b.applicable, 1, "%s", cases[i].spec);
        cr_expect_eq(b.conflict_ways, cases[i].ways, "%s", cases[i].spec);
        cr_expect_eq(b.distinct_words, cases[i].distinct, "%s", cases[i].spec);
        model_pattern_free(p);
    }
    /* lane 5 of pitch 33, stride 2: row 10, byte 4*330 */
    model_pattern *p = pat("bank:pitch=33,stride=2", 32, 0);
    cr_expect_eq(addr(p, 5, 0), 1320);
    /* lane 20 wraps: row 40 mod 32 = 8, byte 4*264 */
    cr_expect_eq(addr(p, 20, 0), 1056);
    model_pattern_free(p);
    /* the tile holds floats: any other element size is a usage error */
    model_pattern *q = NULL;
    cr_expect_eq(model_pattern_parse("bank:elem=8", 32, 0, &q, NULL), BW_E_USAGE);
    cr_expect_null(q);
    /* a profile without banks: the figures do not apply */
    static const model_geometry cpu = { 16, 64, 64, 0, 0, 0 };
    p = pat("bank:pitch=32", 16, 0);
    int64_t a[MODEL_MAX_LANES];
    for (int t = 0; t < 16; t++)
        a[t] = addr(p, t, 0);
    model_bank b;
    model_bank_count(&cpu, a, &p->active, &b);
    cr_expect_eq(b.applicable, 0);
    model_pattern_free(p);
}

/* The transpose family worked by hand for W = 32, n = 64 (2 x 2 tiles of
 * 32 x 32, work-groups of 1024): names for the version, the load and store
 * expressions of each version, and what does not fit. */
Test(model_pattern, transpose_versions_loads_and_stores)
{
    model_pattern *p = pat("transpose:version=tiled,n=64", 32, 0);
    cr_expect_str_eq(p->spec, "transpose:version=tiled,n=64");
    cr_expect_eq(model_pattern_param_value(p, "version"), MODEL_TRANSPOSE_TILED);
    cr_expect_eq(p->given, 3u, "version and n given");
    /* work-item 1024 + 33: group 1 = tile column 1, row 0; lx = 1, ly = 1:
     * loads in[(0*32 + 1)*64 + 32 + 1] = in[97], stores out[(32 + 1)*64 + 0 + 1] = out[2113] */
    model_expr_env env = { 33 % 32, (1024 + 33) / 32, 1024 + 33, 32 };
    int64_t a = 0;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(model_expr_eval(p->expr, &env, &a, &err), BW_OK);
    cr_expect_eq(a, 4 * 97);
    cr_assert_not_null(p->store);
    cr_assert_eq(model_expr_eval(p->store, &env, &a, &err), BW_OK);
    cr_expect_eq(a, 4 * 2113);
    model_pattern_free(p);
    /* naive: loads in[g], stores out[(g % 64)*64 + g / 64]: g = 65 (row 1, column 1) -> out[65]; g = 2 -> out[128] */
    p = pat("transpose:n=64", 32, 0);
    cr_expect_str_eq(p->spec, "transpose:version=naive,n=64");
    cr_expect_eq(p->given, 2u, "n given, version by default");
    env = (model_expr_env){ 2, 0, 2, 32 };
    cr_assert_eq(model_expr_eval(p->store, &env, &a, &err), BW_OK);
    cr_expect_eq(a, 4 * 128);
    cr_expect_str_eq(p->expr_text, "4 * g");
    model_pattern_free(p);
    /* copy: in[g] to out[g] */
    p = pat("transpose:version=copy", 32, 0);
    cr_expect_str_eq(p->store_text, "4 * g");
    model_pattern_free(p);
    /* seq stores at dst[g]: no store expression of its own */
    p = pat("seq", 32, 0);
    cr_expect_null(p->store);
    model_pattern_free(p);
    model_pattern *q = NULL;
    cr_expect_eq(model_pattern_parse("transpose:version=diagonal", 32, 0, &q, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "allowed naive, tiled, padded, copy") != NULL, "%s", bw_error_text(&err));
    cr_expect_eq(model_pattern_parse("transpose:n=48", 32, 0, &q, &err), BW_E_USAGE, "48 is no multiple of 32");
    cr_expect_eq(model_pattern_parse("transpose:elem=8", 32, 0, &q, &err), BW_E_USAGE);
    cr_expect_null(q);
}

/* Whole records on the nvidia profile (W = 32, 32-byte sectors, 128-byte
 * lines), worked out by hand, over 1024 records (32 warps):
 * - aos, 3 floats (12 B): field f of lane t at 12t + 4f. Field 0 covers
 *   bytes 0 .. 12*31 + 3 = 375 of 0 .. 383: sectors 0 .. 11, 12 sectors
 *   (3 lines) for 128 requested bytes; field 1 (4 .. 379) and field 2
 *   (8 .. 383) also 12 sectors each: 36 sectors per warp by the
 *   instruction model, but the three loads together cover the warp's 384
 *   bytes once, 12 sectors of footprint.
 * - soa, 3 floats: field f of lane t at 4t + f*4n: 128 contiguous bytes, 4
 *   sectors (1 line) per load, 12 per warp, footprint 12 too.
 *   So aos/soa = 3 by the instruction model and 1 by the footprint.
 * - aos, 6 floats (24 B): each field spans 24*31 + 4 = 748 bytes, 24
 *   sectors; 6 loads, 144 per warp, against soa's 6 x 4 = 24: 6 x.
 * - aos, RGB bytes (3 B): field f of lane t at 3t + f, bytes f .. 93 + f:
 *   3 sectors each, 9 per warp; soa 3 loads of 32 bytes, 1 sector each, 3
 *   per warp; footprint 96 bytes, 3 sectors, both. Lines repeat every 4
 *   warps (384 B = 3 lines): field 0 of warps 0..3 spans 0..95, 96..191,
 *   192..287, 288..383: 1, 2, 2 and 1 lines; fields 1 and 2 (one and two
 *   bytes on) the same, so 18 lines per 4 warps, 144 over 32 warps (the
 *   others' lines are per warp: every warp's span starts on a line). */
Test(model_pattern, record_aos_and_soa_sectors_by_hand_on_nvidia)
{
    static const model_geometry nv = { 32, 32, 128, 32, 4, 0 };
    static const struct {
        const char *spec;
        int64_t field_bases[6];
        int64_t instr_per_warp, footprint_per_warp, lines_per_warp, requested_per_warp;
    } cases[] = {
        { "record:fields=3,layout=aos,n=1024", { 0, 4, 8 }, 36, 12, 9, 384 },
        { "record:fields=3,layout=soa,n=1024", { 0, 4096, 8192 }, 12, 12, 3, 384 },
        { "record:fields=6,layout=aos,n=1024", { 0, 4, 8, 12, 16, 20 }, 144, 24, 36, 768 },
        { "record:fields=6,layout=soa,n=1024", { 0, 4096, 8192, 12288, 16384, 20480 }, 24, 24, 6, 768 },
        { "record:fields=3,type=uchar,layout=aos,n=1024", { 0, 1, 2 }, 9, 3, -144, 96 },
        { "record:fields=3,type=uchar,layout=soa,n=1024", { 0, 1024, 2048 }, 3, 3, 3, 96 },
    };
    const int64_t warps = 1024 / 32;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_pattern *p = pat(cases[i].spec, 32, 0);
        int F = (int)model_pattern_param_value(p, "fields");
        cr_expect_eq(p->loads, F, "%s", cases[i].spec);
        cr_expect_eq(p->elem, model_pattern_param_value(p, "type") == MODEL_RECORD_UCHAR ? 1 : 4);
        model_access acc[8];
        for (int f = 0; f < F; f++) {
            cr_expect_eq(p->load_base[f], cases[i].field_bases[f], "%s field %d", cases[i].spec, f);
            acc[f] = (model_access){ p->expr, p->elem, p->active, 1024, p->load_base[f], 0 };
        }
        model_launch l;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(model_launch_count(&nv, acc, (size_t)F, &l, &err), BW_OK, "%s", bw_error_text(&err));
        cr_expect_eq(l.loads.instructions, F * warps, "%s", cases[i].spec);
        cr_expect_eq(l.loads.requested_bytes, cases[i].requested_per_warp * warps, "%s", cases[i].spec);
        cr_expect_eq(l.loads.instr_sectors, cases[i].instr_per_warp * warps, "%s", cases[i].spec);
        cr_expect_eq(l.loads.footprint_sectors, cases[i].footprint_per_warp * warps, "%s", cases[i].spec);
        /* lines_per_warp < 0: minus the lines of the whole launch */
        cr_expect_eq(l.loads.instr_lines,
                     cases[i].lines_per_warp < 0 ? -cases[i].lines_per_warp : cases[i].lines_per_warp * warps, "%s",
                     cases[i].spec);
        /* field 0's instruction alone, warp 0: aos 3 floats 12 sectors for 128 B */
        if (i == 0) {
            int64_t addr[32];
            for (int t = 0; t < 32; t++)
                addr[t] = 12 * t;
            model_warp w;
            cr_assert_eq(model_warp_count(&nv, 4, addr, &p->active, &w, &err), BW_OK);
            cr_expect_eq(w.sectors, 12);
            cr_expect_eq(w.requested_bytes, 128);
        }
        model_pattern_free(p);
    }
    /* elem is the type's, never given */
    model_pattern *q = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_expect_eq(model_pattern_parse("record:elem=8", 32, 0, &q, &err), BW_E_USAGE);
    bw_error_clear(&err);
}

/* model_pattern_given answers by key what the spec said: the bit
 * positions behind it are the family's parameter order (transpose:
 * version 0, n 1; record: fields 0, type 1, layout 2, n 3). */
Test(model_pattern, given_by_key)
{
    model_pattern *p = pat("transpose:n=64", 32, 0);
    cr_expect(model_pattern_given(p, "n"));
    cr_expect_not(model_pattern_given(p, "version"), "version took its default");
    cr_expect_not(model_pattern_given(p, "pitch"), "no such parameter");
    cr_expect_not(model_pattern_given(p, "elem"));
    model_pattern_free(p);
    p = pat("record:layout=soa,fields=6", 32, 0);
    cr_expect(model_pattern_given(p, "fields"));
    cr_expect(model_pattern_given(p, "layout"));
    cr_expect_not(model_pattern_given(p, "type"));
    cr_expect_not(model_pattern_given(p, "n"), "n is sized by bwlab run where not given");
    model_pattern_free(p);
    p = pat("record:n=512", 32, 0);
    cr_expect(model_pattern_given(p, "n"));
    cr_expect_not(model_pattern_given(p, "fields"));
    model_pattern_free(p);
}
