/* Sizing a plan against limits passed in (no device needed): where the
 * cache figure comes from (device, host sysfs, default), the joint memory
 * budget, 32-bit address spaces, work-group limits of the device and of
 * the built kernel; and validation of dst a chunk at a time against a
 * regenerated source; and the cache figure's source as the results
 * record it. Every expected value is worked out from the inputs. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_run_priv.h"
#include "bench_family.h"
#include "bench_device.h"
#include "bench_fit.h"
#include "bench_host.h"
#include "bench_plan_priv.h"
#include "bench_unroll_memory.h"
#include "bench_validate.h"
#include "report_format.h"
#include "bench_run.h"
#include "report_results.h"
#include "test_util.h"

#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)

/* W = 8 lanes, 64-byte sectors and lines */
static const model_geometry geo8 = { 8, 64, 64, 0, 4, 0 };

static bench_limits limits(uint64_t cache, uint64_t max_alloc, uint64_t global, uint64_t max_wg)
{
    bench_limits l;
    memset(&l, 0, sizeof l);
    l.cache_bytes = cache;
    l.max_alloc_bytes = max_alloc;
    l.global_mem_bytes = global;
    l.max_work_group = max_wg;
    l.address_bits = 64;
    return l;
}

static bw_code plan(const char *spec, const char *expr, uint64_t size, int64_t local, const bench_limits *lim,
                    bench_plan **p, bw_error *err)
{
    const char *specs[] = { spec };
    const char *exprs[] = { expr };
    bench_plan_opts o = { .specs = specs, .nspecs = spec ? 1 : 0, .exprs = exprs, .nexprs = expr ? 1 : 0, .size = size, .local_size = local };
    return bench_plan_make(&o, &geo8, lim, p, err);
}

static const bench_item *item(const bench_plan *p, const char *spec)
{
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->items[i].spec, spec))
            return &p->items[i];
    cr_assert_fail("no item %s", spec);
    return NULL;
}

/* ---- the host's last-level cache from a sysfs tree ---- */

static void cache_index(const char *root, int idx, const char *level, const char *type, const char *size)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/devices/system/cpu/cpu0/cache/index%d", root, idx);
    char part[4096];
    /* mkdir -p */
    for (char *s = strchr(dir + strlen(root) + 1, '/');; s = strchr(s + 1, '/')) {
        snprintf(part, sizeof part, "%.*s", s ? (int)(s - dir) : (int)strlen(dir), dir);
        mkdir(part, 0755);
        if (!s)
            break;
    }
    char text[64];
    snprintf(text, sizeof text, "%s\n", level);
    tu_write_file(dir, "level", text);
    snprintf(text, sizeof text, "%s\n", type);
    tu_write_file(dir, "type", text);
    snprintf(text, sizeof text, "%s\n", size);
    tu_write_file(dir, "size", text);
}

/* K items per work-item: the largest power of two up to the asked K whose
 * launch (items / K) is whole work-groups and whole warps, worked out by
 * hand; 1 for a launch that splits no further */
Test(bench_plan, unroll_falls_back_to_a_divisor_that_fits)
{
    bench_plan p;
    memset(&p, 0, sizeof p);
    p.geo.lanes = 32;
    bench_item it;
    memset(&it, 0, sizeof it);
    it.fam = &bench_family_gather;
    static const struct {
        int64_t items, local;
        int want, got;
    } cases[] = {
        { 4096, 256, 16, 16 }, /* 4096 = 16 x 256 */
        { 1536, 256, 4, 2 },   /* 1536 / 4 = 384, not whole groups; / 2 = 768 = 3 x 256 */
        { 768, 256, 8, 1 },    /* 3 groups: no split */
        { 768, 64, 4, 4 },     /* 192 = 3 x 64 */
        { 1024, 16, 16, 16 },  /* groups of 16 in 32-lane warps: the unit is a warp; 1024 / 16 = 64, 2 warps */
        { 1024, 16, 16, 16 },
        { 32 * 3 * 4, 16, 8, 4 }, /* 384 / 8 = 48 is no whole warp; / 4 = 96 = 3 warps */
        { 96, 32, 2, 1 },      /* 48 is no whole warp */
        { 8192, 256, 1, 1 },
        { 8192, 256, 0, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        it.items = cases[k].items;
        it.local_size = cases[k].local;
        it.unroll_want = cases[k].want;
        bench_plan_fit_unroll(&p, &it);
        cr_expect_eq(bench_item_unroll(&it), cases[k].got, "case %zu", k);
        cr_expect_eq(it.launch_items, cases[k].got > 1 ? cases[k].items / cases[k].got : 0, "case %zu", k);
    }
    cr_expect(bench_unroll_valid(1) && bench_unroll_valid(16) && bench_unroll_valid(4));
    cr_expect(!bench_unroll_valid(0) && !bench_unroll_valid(3) && !bench_unroll_valid(32) && !bench_unroll_valid(-2));
}

/* auto's choice from the calibration's ladder: the smallest K within 3%
 * of the best rate in every mode measured, K = 1 << index; where none
 * is, the K whose worse mode is nearest its best; 0 with nothing measured */
Test(bench_plan, unroll_choice_is_the_smallest_within_three_percent)
{
    const double a[BENCH_FIT_UNROLLS] = { 10.0, 20.0, 20.5, 20.6, 19.0 }; /* 0.97 x 20.6 = 19.98 */
    cr_expect_eq(bench_fit_unroll_choose(a, NULL), 2);
    const double b[BENCH_FIT_UNROLLS] = { 30.0, 29.0, 29.5, 30.5, 30.9 }; /* 0.97 x 30.9 = 29.97 */
    cr_expect_eq(bench_fit_unroll_choose(b, NULL), 1);
    const double c[BENCH_FIT_UNROLLS] = { 10.0, 19.0, 0, 0, 25.0 }; /* 24.25: only 16 */
    cr_expect_eq(bench_fit_unroll_choose(c, NULL), 16);
    const double d[BENCH_FIT_UNROLLS] = { 0, 0, 0, 0, 0 };
    cr_expect_eq(bench_fit_unroll_choose(d, NULL), 0);
    const double e[BENCH_FIT_UNROLLS] = { 0, 8.0, 7.9, 0, 0 }; /* K = 1 not measured */
    cr_expect_eq(bench_fit_unroll_choose(e, NULL), 2);
    /* both modes: copy is at its best from K = 2 on (a), read from K = 8:
     * 10, 14, 19, 24, 24.5 GB/s, 0.97 x 24.5 = 23.77 */
    const double r[BENCH_FIT_UNROLLS] = { 10.0, 14.0, 19.0, 24.0, 24.5 };
    cr_expect_eq(bench_fit_unroll_choose(a, r), 8);
    /* no K has both within 3%: copy falls at 16 (b' below), read peaks
     * there; the worse mode's ratio per K: 10/25 .. , K = 8 gives
     * min(30/30, 22/25) = 0.88, K = 16 min(24/30, 25/25) = 0.80 */
    const double c2[BENCH_FIT_UNROLLS] = { 30.0, 30.0, 30.0, 30.0, 24.0 };
    const double r2[BENCH_FIT_UNROLLS] = { 10.0, 14.0, 19.0, 22.0, 25.0 };
    cr_expect_eq(bench_fit_unroll_choose(c2, r2), 8);
    /* read not measured at all: copy's rule */
    cr_expect_eq(bench_fit_unroll_choose(a, d), 2);
}

/* Each mode its own K: read items at unroll_read, copy and write items at
 * unroll, from the options and from bench_plan_set_unrolls. */
Test(bench_plan, read_items_take_their_own_k)
{
    const char *specs[] = { "seq", "stride:s=2" };
    bench_limits lim = limits(64 * MiB, 512 * MiB, 4 * GiB, 4096);
    bench_plan_opts o = { .specs = specs, .nspecs = 2, .size = (uint64_t)16 << 20, .unroll = 2, .unroll_read = 8,
                          .access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                                    BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE) };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    for (int pass = 0; pass < 2; pass++) {
        int kc = pass ? 4 : 2, kr = pass ? 1 : 8;
        size_t reads = 0, others = 0;
        for (size_t i = 0; i < p->n; i++) {
            const bench_item *it = &p->items[i];
            int want = it->access == BENCH_ACCESS_READ ? kr : kc;
            reads += it->access == BENCH_ACCESS_READ;
            others += it->access != BENCH_ACCESS_READ;
            cr_expect_eq(bench_item_unroll(it), want, "pass %d: %s (%s) at K = %d", pass, it->spec,
                         bench_access_name(it->access), bench_item_unroll(it));
        }
        cr_expect(reads >= 2 && others >= 4, "read %zu, copy and write %zu", reads, others);
        bench_plan_set_unrolls(p, 4, 1);
    }
    bench_plan_free(p);
}

/* The unroll memory's average, worked by hand: each calibration's rates
 * over its mode's best, averaged with the kept scores weighing
 * min(runs, 3) calibrations; a K the memory lacks takes the new score; it
 * keeps 4 calibrations at most; and it survives a store and a lookup. */
Test(bench_plan, the_unroll_memory_averages_the_last_calibrations)
{
    bench_unroll_memory m;
    memset(&m, 0, sizeof m);
    const double c1[5] = { 40, 20, 10, 0, 0 }, r1[5] = { 10, 20, 40, 40, 20 };
    bench_unroll_memory_add(&m, c1, r1);
    cr_expect_eq(m.runs, 1);
    cr_expect_float_eq(m.copy[0], 1.0, 1e-12);
    cr_expect_float_eq(m.copy[1], 0.5, 1e-12);
    cr_expect_float_eq(m.copy[3], 0.0, 1e-12, "not measured: 0");
    cr_expect_float_eq(m.read[2], 1.0, 1e-12);
    /* second: copy 30, 30, 30, 15, 0 (best 30): 1, 1, 1, 0.5 -> means
     * (1 + 1) / 2, (0.5 + 1) / 2, (0.25 + 1) / 2, K = 8 new: 0.5 */
    const double c2[5] = { 30, 30, 30, 15, 0 }, r2[5] = { 0, 0, 0, 0, 0 };
    bench_unroll_memory_add(&m, c2, r2);
    cr_expect_eq(m.runs, 2);
    cr_expect_float_eq(m.copy[0], 1.0, 1e-12);
    cr_expect_float_eq(m.copy[1], 0.75, 1e-12);
    cr_expect_float_eq(m.copy[2], 0.625, 1e-12);
    cr_expect_float_eq(m.copy[3], 0.5, 1e-12);
    cr_expect_float_eq(m.read[2], 1.0, 1e-12, "a mode not measured keeps its scores");
    /* two more make 4: copy[1] goes 0.75 -> (0.75*2 + 1)/3 = 0.8333 ->
     * (0.8333*3 + 1)/4 = 0.875; a fifth (K = 2 at 5 of 10: 0.5) weighs
     * the kept ones as 3: (0.875*3 + 0.5)/4 */
    bench_unroll_memory_add(&m, c2, r2);
    cr_expect_float_eq(m.copy[1], 2.5 / 3, 1e-12);
    bench_unroll_memory_add(&m, c2, r2);
    cr_expect_eq(m.runs, 4);
    cr_expect_float_eq(m.copy[1], 0.875, 1e-12);
    const double c5[5] = { 10, 5, 10, 10, 10 };
    bench_unroll_memory_add(&m, c5, r2);
    cr_expect_eq(m.runs, 4, "four calibrations at most");
    cr_expect_float_eq(m.copy[1], (0.875 * 3 + 0.5) / 4, 1e-12);
    /* a store and a lookup give it back; another key has none */
    char *dir = tu_temp_dir(), path[4200];
    snprintf(path, sizeof path, "%s/sub/unroll.json", dir);
    bench_tune_key k = { "dev", "vendor", "1.0", "OpenCL 3.0", "0.1" }, other = { "dev B", "vendor", "1.0",
                                                                                     "OpenCL 3.0", "0.1" };
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_unroll_memory_store(path, &k, &m, &err), BW_OK, "%s", bw_error_text(&err));
    bench_unroll_memory got;
    cr_assert_eq(bench_unroll_memory_lookup(path, &k, &got, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(got.runs, 4);
    for (int i = 0; i < 5; i++) {
        cr_expect_float_eq(got.copy[i], m.copy[i], 1e-12);
        cr_expect_float_eq(got.read[i], m.read[i], 1e-12);
    }
    cr_expect_eq(got.copy_k, 0, "no K chosen yet");
    /* the K last chosen travels with the scores */
    m.copy_k = 2;
    m.read_k = 8;
    cr_assert_eq(bench_unroll_memory_store(path, &k, &m, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(bench_unroll_memory_lookup(path, &k, &got, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(got.copy_k, 2);
    cr_expect_eq(got.read_k, 8);
    cr_assert_eq(bench_unroll_memory_lookup(path, &other, &got, &err), BW_OK);
    cr_expect_eq(got.runs, 0);
    /* a last K off the ladder is a malformed file */
    tu_write_file(dir, "sub/unroll.json",
                  "{\"schema\": \"bwlab.unroll\", \"schema_version\": 1, \"entries\": [{\"key\": {\"device\": \"dev\", "
                  "\"vendor\": \"vendor\", \"driver_version\": \"1.0\", \"platform_version\": \"OpenCL 3.0\", "
                  "\"bwlab_version\": \"0.1\"}, \"runs\": 2, \"copy\": [1, 1, 0, 0, 0], \"read\": [0, 0, 0, 0, 0], "
                  "\"copy_k\": 3}]}");
    cr_expect_eq(bench_unroll_memory_lookup(path, &k, &got, &err), BW_E_FORMAT);
    bw_error_clear(&err);
    /* a score out of 0..1 is a malformed file, named */
    tu_write_file(dir, "sub/unroll.json",
                  "{\"schema\": \"bwlab.unroll\", \"schema_version\": 1, \"entries\": [{\"key\": {\"device\": \"dev\", "
                  "\"vendor\": \"vendor\", \"driver_version\": \"1.0\", \"platform_version\": \"OpenCL 3.0\", "
                  "\"bwlab_version\": \"0.1\"}, \"runs\": 2, \"copy\": [1, 1.5, 0, 0, 0], \"read\": [0, 0, 0, 0, 0]}]}");
    cr_expect_eq(bench_unroll_memory_lookup(path, &k, &got, &err), BW_E_FORMAT);
    cr_expect(strstr(bw_error_text(&err), "unroll.json") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    tu_rmdir(dir);
}

/* auto's K with the K the device last ran, worked by hand (WITHIN 3%,
 * BAND 1%: the last K stays while at least 0.96 of the best, whatever
 * the smaller Ks score; below that, the smallest K within 0.97) */
Test(bench_plan, the_last_k_holds_within_the_band)
{
    const double edge[5] = { 0.972, 1, 0.9, 0.8, 0.5 };
    cr_expect_eq(bench_fit_unroll_keep(edge, 0), 1, "no last K: the smallest within 3%");
    cr_expect_eq(bench_fit_unroll_keep(edge, 1), 1);
    cr_expect_eq(bench_fit_unroll_keep(edge, 2), 2, "K = 2 is the best: it stays");
    const double tie[5] = { 0.995, 1, 0.9, 0.8, 0.5 };
    cr_expect_eq(bench_fit_unroll_keep(tie, 2), 2, "K = 1 at 0.995 ties with K = 2: no move");
    cr_expect_eq(bench_fit_unroll_keep(tie, 4), 1, "K = 4 at 0.9 fell out: the smallest within 3%");
    const double out[5] = { 0.5, 0.95, 1, 0.9, 0.5 };
    cr_expect_eq(bench_fit_unroll_keep(out, 2), 4, "K = 2 at 0.95 fell clearly out");
    const double near[5] = { 0.5, 0.965, 1, 0.9, 0.5 };
    cr_expect_eq(bench_fit_unroll_keep(near, 2), 2, "K = 2 at 0.965 holds");
    cr_expect_eq(bench_fit_unroll_keep(near, 0), 4);
    const double big[5] = { 0.5, 0.6, 1, 0.99, 0.7 };
    cr_expect_eq(bench_fit_unroll_keep(big, 8), 8, "K = 8 at 0.99 holds beside K = 4 at 1");
    cr_expect_eq(bench_fit_unroll_keep(big, 16), 4, "K = 16 at 0.7 fell out");
    const double edge4[5] = { 0.5, 0.6, 1, 0.9601, 0.7 };
    cr_expect_eq(bench_fit_unroll_keep(edge4, 8), 8, "0.9601 is above 0.96");
    const double below4[5] = { 0.5, 0.6, 1, 0.9599, 0.7 };
    cr_expect_eq(bench_fit_unroll_keep(below4, 8), 4, "0.9599 is below 0.96");
    const double unmeasured[5] = { 1, 0.9, 0.8, 0.7, 0 };
    cr_expect_eq(bench_fit_unroll_keep(unmeasured, 16), 1, "a last K not measured: the plain choice");
    /* scores whose best is below 1 (an average): K = 1 at 0.956 is
     * 0.9696 of 0.986, short of 0.97, yet above 0.96; K = 4 at 0.923 is
     * 0.936 of it, below */
    const double avg[5] = { 0.956, 0.986, 0.923, 0.84, 0.51 };
    cr_expect_eq(bench_fit_unroll_keep(avg, 0), 2);
    cr_expect_eq(bench_fit_unroll_keep(avg, 1), 1);
    cr_expect_eq(bench_fit_unroll_keep(avg, 2), 2);
    cr_expect_eq(bench_fit_unroll_keep(avg, 4), 2);
}

/* One K's ladder rate, worked by hand (AGREE 1.25): the paired estimate
 * while within a quarter of the K's own median, else the own median */
Test(bench_plan, a_ladder_rate_is_paired_unless_it_disagrees_with_its_own_median)
{
    cr_expect_float_eq(bench_fit_ladder_rate(65.0, 62.5, 1.0896), 68.1, 1e-9, "68.1 is 1.048 of 65");
    cr_expect_float_eq(bench_fit_ladder_rate(62.0, 44.4, 3.14), 62.0, 1e-9, "139.4 is 2.25 of 62: own");
    cr_expect_float_eq(bench_fit_ladder_rate(40.0, 50.0, 1.0), 50.0, 1e-9, "50 is exactly 1.25 of 40");
    cr_expect_float_eq(bench_fit_ladder_rate(40.0, 50.0, 1.01), 40.0, 1e-9, "50.5 is above 1.25 of 40");
    cr_expect_float_eq(bench_fit_ladder_rate(50.0, 40.0, 1.0), 40.0, 1e-9, "40 is exactly 50 / 1.25");
    cr_expect_float_eq(bench_fit_ladder_rate(50.0, 40.0, 0.99), 50.0, 1e-9, "39.6 is below 50 / 1.25");
    cr_expect_float_eq(bench_fit_ladder_rate(30.0, 0.0, 1.0), 30.0, 1e-9, "no reference rate");
    cr_expect_float_eq(bench_fit_ladder_rate(30.0, 40.0, NAN), 30.0, 1e-9, "no paired ratio");
}

Test(bench_plan, host_llc_from_sysfs)
{
    char *root = tu_temp_dir();
    cache_index(root, 0, "1", "Data", "32K");
    cache_index(root, 1, "1", "Instruction", "32K");
    cache_index(root, 2, "2", "Unified", "1024K");
    cache_index(root, 3, "3", "Unified", "32768K");
    uint64_t bytes = 0;
    char src[512] = "";
    cr_assert_eq(bench_host_llc(root, &bytes, src, sizeof src), 1);
    cr_expect_eq(bytes, 32 * MiB);
    char want[600];
    snprintf(want, sizeof want, "host sysfs (%s/devices/system/cpu/cpu0/cache/index3)", root);
    cr_expect_str_eq(src, want);
    /* an instruction cache of a higher level does not count; M suffixes */
    cache_index(root, 3, "3", "Instruction", "64M");
    cache_index(root, 4, "2", "Unified", "2M");
    cr_assert_eq(bench_host_llc(root, &bytes, src, sizeof src), 1);
    cr_expect_eq(bytes, 2 * MiB, "the larger of two level-2 data caches");
    cr_expect(strstr(src, "/index4)") != NULL, "%s", src);
    tu_rmdir(root);
    free(root);
    /* no tree: nothing found, nothing changed */
    bytes = 7;
    cr_expect_eq(bench_host_llc("/nonexistent-bwlab-root", &bytes, src, sizeof src), 0);
    cr_expect_eq(bytes, 7);
}

/* ---- the working-set target and where its cache figure came from ---- */

Test(bench_plan, cache_figure_sources)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* the device's cache: 4 x 32 MiB */
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 128 * MiB);
    cr_expect_eq(p->cache_bytes, 32 * MiB);
    cr_expect_str_eq(p->cache_source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    cr_expect_eq(p->budget_bytes, 3 * GiB);
    /* the twin's slice stays in the same cache */
    cr_expect_eq(p->twin_cache_bytes, 32 * MiB);
    cr_expect_str_eq(p->twin_cache_source, "CL_DEVICE_GLOBAL_MEM_CACHE_SIZE");
    bench_plan_free(p);
    /* a CPU device reporting none: the host's 48 MiB, 4 x = 192 MiB */
    l = limits(0, GiB, 4 * GiB, 4096);
    l.host_llc_bytes = 48 * MiB;
    snprintf(l.host_llc_source, sizeof l.host_llc_source, "host sysfs (/sys/devices/system/cpu/cpu0/cache/index3)");
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 192 * MiB);
    cr_expect_eq(p->cache_bytes, 48 * MiB);
    cr_expect_str_eq(p->cache_source, "host sysfs (/sys/devices/system/cpu/cpu0/cache/index3)");
    cr_expect_eq(p->items[0].items, (int64_t)(192 * MiB / 4));
    cr_expect_eq(p->twin_cache_bytes, 48 * MiB);
    bench_plan_free(p);
    /* ... and with --size, which needs no cache figure, the twin still has the host's */
    cr_assert_eq(plan("seq", NULL, 4 * MiB, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->cache_bytes, 0);
    cr_expect_eq(p->twin_cache_bytes, 48 * MiB);
    cr_expect_str_eq(p->twin_cache_source, "host sysfs (/sys/devices/system/cpu/cpu0/cache/index3)");
    bench_plan_free(p);
    /* nothing known: 256 MiB per array */
    l = limits(0, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 256 * MiB);
    cr_expect_eq(p->cache_bytes, 0);
    cr_expect_str_eq(p->cache_source, "default (no cache size known)");
    /* the twin assumes a quarter of the 64 MiB that 256 MiB allows for */
    cr_expect_eq(p->twin_cache_bytes, 16 * MiB);
    cr_expect_str_eq(p->twin_cache_source, "assumed (neither the device nor the host reports a cache size)");
    bench_plan_free(p);
    /* ... within a quarter of a 512 MiB device */
    l = limits(0, 256 * MiB, 512 * MiB, 4096);
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 128 * MiB);
    bench_plan_free(p);
    /* a GPU reporting none ignores the host's cache: its 512 MiB floor */
    l = limits(0, 8 * GiB, 80 * GiB, 1024);
    l.is_gpu = 1;
    l.host_llc_bytes = 32 * MiB;
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 512 * MiB);
    cr_expect_str_eq(p->cache_source, "default (no cache size known)");
    /* and no figure for its twins: none */
    cr_expect_eq(p->twin_cache_bytes, 0);
    cr_expect_str_eq(p->twin_cache_source, "none (the device reports no cache size)");
    bench_plan_free(p);
    /* --size */
    l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, 4 * MiB, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_str_eq(p->cache_source, "--size");
    cr_expect_eq(p->cache_bytes, 0);
    cr_expect_eq(p->target_auto, 0);
    cr_expect_eq(p->twin_cache_bytes, 32 * MiB);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* ---- src and dst together within 3/4 of global memory ---- */

Test(bench_plan, memory_budget)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* 64 MiB cache: target 4 x 64 = 256 MiB (also a quarter of 1 GiB).
     * stride:s=64 touches one 64 B sector per item: 4M items spanning
     * 4M x 256 B = 1 GiB of src. "0" touches one sector in all, so its
     * launch is held to 4 x 256 MiB / 4 B = 256M items, 1 GiB of dst. The
     * 512 MiB largest allocation cuts both to at most 512 MiB. */
    const char *const twins[] = { "stride:s=64" };
    const char *const exprs[] = { "0" };
    bench_plan_opts o = { .specs = twins, .nspecs = 1, .exprs = exprs, .nexprs = 1 };
    /* with 4 GiB (a 3 GiB budget) the 512 + 512 MiB fit together */
    bench_limits roomy = limits(64 * MiB, 512 * MiB, 4 * GiB, 4096);
    cr_assert_eq(bench_plan_make(&o, &geo8, &roomy, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->target_bytes, 256 * MiB);
    const bench_item *st = item(p, "stride:s=64"), *ex = item(p, "expr:0");
    cr_expect_gt(p->src_bytes, 384 * MiB);
    cr_expect_leq(p->src_bytes, 512 * MiB);
    cr_expect_gt(p->dst_bytes, 384 * MiB);
    cr_expect_leq(p->dst_bytes, 512 * MiB);
    cr_assert_not_null(st->size_note);
    cr_expect(strstr(st->size_note, "largest allocation") != NULL, "%s", st->size_note);
    cr_assert_not_null(ex->size_note);
    bench_plan_free(p);
    /* with 1 GiB the budget is 768 MiB: each buffer is held to 384 MiB */
    bench_limits tight = limits(64 * MiB, 512 * MiB, GiB, 4096);
    cr_assert_eq(bench_plan_make(&o, &geo8, &tight, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->budget_bytes, 768 * MiB);
    cr_expect_eq(p->target_bytes, 256 * MiB);
    st = item(p, "stride:s=64");
    ex = item(p, "expr:0");
    cr_expect_leq(p->src_bytes + p->dst_bytes, 768 * MiB);
    cr_expect_leq((uint64_t)st->span.max_end, 384 * MiB);
    cr_expect_gt((uint64_t)st->span.max_end, 300 * MiB, "shrunk no more than needed");
    cr_expect_leq((uint64_t)(ex->items * 4), 384 * MiB);
    cr_expect_gt((uint64_t)(ex->items * 4), 300 * MiB);
    cr_assert_not_null(st->size_note);
    cr_expect(strstr(st->size_note, "memory budget") != NULL, "%s", st->size_note);
    cr_expect(strstr(ex->size_note, "memory budget") != NULL, "%s", ex->size_note);
    /* seq (added as reference), 256 MiB each way, was within half the budget */
    const bench_item *sq = item(p, "seq");
    cr_expect_eq(sq->items, (int64_t)(64 * MiB));
    cr_expect_null(sq->size_note);
    bench_plan_free(p);
    /* --size: src and dst of 400 MiB each are 800 MiB > 768: an error that
     * says what fits (384 MiB = 402653184 B); 384 MiB itself fits */
    cr_expect_eq(plan("seq", NULL, 400 * MiB, 0, &tight, &p, &err), BW_E_TOOBIG);
    cr_expect(strstr(bw_error_text(&err), "--size 400.00 MiB") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "768.00 MiB") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "use --size 402653184 or less") != NULL, "%s", bw_error_text(&err));
    cr_assert_eq(plan("seq", NULL, 384 * MiB, 0, &tight, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->src_bytes + p->dst_bytes, 768 * MiB);
    /* the trace buffer: 8 B per work-item of the largest launch, 96M items */
    cr_expect_eq(bench_plan_trace_bytes(p), 96 * MiB * 8);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* ---- a 32-bit device: buffers and offsets below 4 GiB ---- */

Test(bench_plan, address_bits)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* 512 MiB cache: target 2 GiB; stride:s=64 wants 2 GiB / 64 B = 32M
     * items whose offsets reach 32M x 256 B = 8 GiB */
    bench_limits l = limits(512 * MiB, 16 * GiB, 64 * GiB, 1024);
    cr_assert_eq(plan("stride:s=64", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    const bench_item *st = item(p, "stride:s=64");
    cr_expect_eq(st->items, (int64_t)(32 * MiB));
    cr_expect_eq((uint64_t)st->span.max_end, (32 * MiB - 1) * 256 + 4);
    cr_expect_null(st->size_note);
    bench_plan_free(p);
    l.address_bits = 32;
    cr_assert_eq(plan("stride:s=64", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    st = item(p, "stride:s=64");
    cr_expect_leq((uint64_t)st->span.max_end, 4 * GiB);
    cr_expect_leq(p->src_bytes, 4 * GiB);
    cr_expect_lt(st->items, (int64_t)(16 * MiB + 1));
    cr_assert_not_null(st->size_note);
    cr_expect(strstr(st->size_note, "32-bit") != NULL, "%s", st->size_note);
    /* seq at 2 GiB fits a 32-bit device as it is */
    cr_expect_eq(item(p, "seq")->items, (int64_t)(512 * MiB));
    bench_plan_free(p);
    cr_expect_eq(plan("seq", NULL, 5 * GiB, 0, &l, &p, &err), BW_E_TOOBIG);
    cr_expect(strstr(bw_error_text(&err), "CL_DEVICE_ADDRESS_BITS") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "use --size 4294967296 or less") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

/* ---- work-groups: the device's limit, the kernel's, and --local ---- */

Test(bench_plan, work_group_limits)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 64);
    /* automatic: 256 lowered to the device's 64 */
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->local_size, 64);
    cr_expect_eq(p->local_given, 0);
    cr_expect_eq(p->items[0].local_size, 64);
    cr_expect_eq(p->items[0].items % 64, 0);
    bench_plan_free(p);
    /* a device allowing less than a warp: the message does not blame --local */
    l.max_work_group = 4;
    cr_expect_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_E_UNSUPPORTED);
    cr_expect(strstr(bw_error_text(&err), "--local") == NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "at most 4 work-items") != NULL, "%s", bw_error_text(&err));
    /* --local 512 on a 64 device: it does, and says what fits */
    l.max_work_group = 64;
    cr_expect_eq(plan("seq", NULL, 0, 512, &l, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "--local 512") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "use --local 64 or less") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

Test(bench_plan, kernel_work_group_limit)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    /* seq: 128 MiB / 4 B = 32M = 2^25 items in groups of 256 */
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].items, (int64_t)(32 * MiB));
    cr_expect_eq(bench_plan_fit_kernel(p, 0, 4096, &err), BW_OK);
    cr_expect_eq(p->items[0].local_size, 256, "a kernel allowing more changes nothing");
    /* a kernel allowing 100: multiples of 8 below it are 96, 88, 80, 72,
     * 64; of these only 64 divides 2^25 */
    cr_expect_eq(bench_plan_fit_kernel(p, 0, 100, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].local_size, 64);
    cr_expect_eq(p->items[0].items, (int64_t)(32 * MiB), "the launch stays as modeled");
    /* less than a warp */
    cr_expect_eq(bench_plan_fit_kernel(p, 0, 7, &err), BW_E_UNSUPPORTED);
    cr_expect(strstr(bw_error_text(&err), "--local") == NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "CL_KERNEL_WORK_GROUP_SIZE") != NULL, "%s", bw_error_text(&err));
    bench_plan_free(p);
    /* --local 256 given: the pattern fails and names what fits */
    cr_assert_eq(plan("seq", NULL, 0, 256, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->local_given, 1);
    cr_expect_eq(bench_plan_fit_kernel(p, 0, 100, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "--local 256") != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "use --local 96 or less") != NULL, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].local_size, 256);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* ---- the source stream and chunked validation ---- */

Test(bench_plan, random_stream_is_seekable)
{
    /* SplitMix64's first output from seed 0 is 0xe220a8397b1dcdaf */
    uint8_t w[8];
    bench_fill_random(w, 8, 0);
    uint64_t z;
    memcpy(&z, w, 8);
    cr_expect_eq(z, UINT64_C(0xe220a8397b1dcdaf));
    uint8_t whole[256], part[64];
    bench_fill_random(whole, sizeof whole, 12345);
    const uint64_t cuts[][2] = { { 0, 8 }, { 13, 3 }, { 5, 20 }, { 200, 56 }, { 64, 64 } };
    for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++) {
        bench_fill_random_at(part, cuts[k][0], cuts[k][1], 12345);
        cr_expect(!memcmp(part, whole + cuts[k][0], cuts[k][1]), "offset %llu", (unsigned long long)cuts[k][0]);
    }
    /* the sentinel: byte i is 0xa5 ^ (37 i mod 256) */
    uint8_t s1[1300], s2[1000];
    bench_fill_sentinel(s1, sizeof s1);
    cr_expect_eq(s1[0], 0xa5);
    cr_expect_eq(s1[1], 0xa5 ^ 37);
    cr_expect_eq(s1[1031], 0xa5 ^ (1031 * 37 % 256));
    bench_fill_sentinel_at(s2, 200, sizeof s2);
    cr_expect(!memcmp(s1 + 200, s2, sizeof s2));
}

typedef struct fake_dst {
    const uint8_t *bytes;
    uint64_t size, reads, most;
} fake_dst;

static bw_code read_fake(void *ctx, uint64_t offset, void *buf, uint64_t n, bw_error *err)
{
    fake_dst *f = ctx;
    if (offset + n > f->size)
        return bw_error_set(err, BW_E_IO, "read past the end");
    memcpy(buf, f->bytes + offset, n);
    f->reads++;
    f->most = n > f->most ? n : f->most;
    return BW_OK;
}

Test(bench_plan, chunked_validation_equals_whole)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT, err2 = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    /* stride:s=2 of floats: item g loads src[8g .. 8g+4); --size 16 KiB is
     * 256 sectors of footprint, one per 8 items: 2048 items */
    cr_assert_eq(plan("stride:s=2", NULL, 16384, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    const bench_item *it = item(p, "stride:s=2");
    int64_t n = it->items;
    cr_assert_eq(n, 2048);
    const uint64_t seed = 99;
    uint8_t *src = malloc(p->src_bytes), *dst = malloc((size_t)n * 4), buf[100];
    bench_fill_random(src, p->src_bytes, seed);
    for (int64_t g = 0; g < n; g++)
        memcpy(dst + g * 4, src + g * 8, 4);
    fake_dst f = { dst, (uint64_t)n * 4, 0, 0 };
    cr_expect_eq(bench_validate_copy(&geo8, it, src, p->src_bytes, dst, &err), BW_OK, "%s", bw_error_text(&err));
    /* 100-byte chunks: whole warps, so 24 items (96 B) each; 2048 / 24 -> 86 reads */
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed, p->src_bytes, read_fake, &f, buf, sizeof buf, &err),
                 BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(f.reads, 86);
    cr_expect_eq(f.most, 96);
    /* one wrong element in a late chunk: both find it and say the same */
    dst[2000 * 4 + 1] ^= 0x40;
    cr_expect_eq(bench_validate_copy(&geo8, it, src, p->src_bytes, dst, &err), BW_E_VALIDATION);
    f.reads = 0;
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed, p->src_bytes, read_fake, &f, buf, sizeof buf, &err2),
                 BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err2), "1 of 2048 work-items") != NULL, "%s", bw_error_text(&err2));
    cr_expect(strstr(bw_error_text(&err2), "work-item 2000 (lane 0 of warp 250)") != NULL, "%s",
              bw_error_text(&err2));
    cr_expect(strstr(bw_error_text(&err2), "from byte 16000") != NULL, "%s", bw_error_text(&err2));
    cr_expect_str_eq(bw_error_text(&err), bw_error_text(&err2));
    /* a different seed is a different source: every item is wrong */
    dst[2000 * 4 + 1] ^= 0x40;
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed + 1, p->src_bytes, read_fake, &f, buf, sizeof buf,
                                             &err2),
                 BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err2), "2048 of 2048") != NULL, "%s", bw_error_text(&err2));
    /* a failed read is returned as it is */
    f.size = 1000;
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed, p->src_bytes, read_fake, &f, buf, sizeof buf, &err2),
                 BW_E_IO);
    free(src);
    free(dst);
    bench_plan_free(p);
    bw_error_clear(&err);
    bw_error_clear(&err2);
}

Test(bench_plan, chunked_validation_checks_inactive_lanes)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT, err2 = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    /* one-lane: lane 0 of each warp of 8 loads src[4g]; the others must
     * leave dst's sentinel alone */
    cr_assert_eq(plan("one-lane", NULL, 4096, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    const bench_item *it = item(p, "one-lane");
    int64_t n = it->items;
    const uint64_t seed = 5;
    uint8_t *src = malloc(p->src_bytes), *dst = malloc((size_t)n * 4), buf[64];
    bench_fill_random(src, p->src_bytes, seed);
    bench_fill_sentinel(dst, (uint64_t)n * 4);
    for (int64_t g = 0; g < n; g += 8)
        memcpy(dst + g * 4, src + g * 4, 4);
    fake_dst f = { dst, (uint64_t)n * 4, 0, 0 };
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed, p->src_bytes, read_fake, &f, buf, sizeof buf, &err),
                 BW_OK, "%s", bw_error_text(&err));
    /* an inactive lane that stored something, late in the buffer */
    int64_t g = n - 3;
    cr_assert_neq(g % 8, 0);
    dst[g * 4] ^= 1;
    cr_expect_eq(bench_validate_copy(&geo8, it, src, p->src_bytes, dst, &err), BW_E_VALIDATION);
    cr_expect_eq(bench_validate_copy_chunked(&geo8, it, seed, p->src_bytes, read_fake, &f, buf, sizeof buf, &err2),
                 BW_E_VALIDATION);
    char want[96];
    snprintf(want, sizeof want, "work-item %lld (lane 5 of warp %lld) is inactive", (long long)g,
             (long long)(g / 8));
    cr_expect(strstr(bw_error_text(&err2), want) != NULL, "%s", bw_error_text(&err2));
    cr_expect_str_eq(bw_error_text(&err), bw_error_text(&err2));
    free(src);
    free(dst);
    bench_plan_free(p);
    bw_error_clear(&err);
    bw_error_clear(&err2);
}

/* ---- the recorded source of the cache figure ---- */

static char *header_of(const bench_plan *p, int json)
{
    bench_device d;
    memset(&d, 0, sizeof d);
    d.platform_name = d.platform_vendor = d.platform_version = d.name = d.vendor = "x";
    d.driver_version = d.device_version = d.opencl_c_version = d.extensions = "x";
    d.local_mem_type = "local";
    d.type_name = "cpu";
    d.profile_name = "cpu";
    d.profile_why = "test";
    d.geo = p->geo;
    bench_result *res = calloc(p->n, sizeof *res);
    for (size_t i = 0; i < p->n; i++) {
        res[i].status = BENCH_NOT_RUN;
        res[i].failure = "not measured";
        res[i].reference = -1;
    }
    bench_run_info info;
    memset(&info, 0, sizeof info);
    bench_settings s = bench_settings_default();
    bench_run_doc run = { .device = &d, .is_default = 1, .plan = p, .results = res, .info = &info };
    char *argv[] = { "bwlab", NULL };
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 1, argv, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    if (json)
        cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK, "%s", bw_error_text(&err));
    else
        report_results_table(&m, &run, 1, &b);
    char *text = strdup(bw_buf_str(&b));
    bw_buf_free(&b);
    free(res);
    return text;
}

Test(bench_plan, cache_source_is_reported)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(0, GiB, 4 * GiB, 4096);
    l.host_llc_bytes = 48 * MiB;
    snprintf(l.host_llc_source, sizeof l.host_llc_source, "host sysfs (/sys/devices/system/cpu/cpu0/cache/index3)");
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    char *t = header_of(p, 0);
    cr_expect(strstr(t, "working set: 192.00 MiB per pattern (auto, from the 48.00 MiB last-level cache in host "
                        "sysfs (/sys/devices/system/cpu/cpu0/cache/index3); the device reports none)") != NULL,
              "%s", t);
    cr_expect(strstr(t, "twins:") == NULL, "a known cache needs no word on the twins: %s", t);
    free(t);
    t = header_of(p, 1);
    json_t *o = json_loads(t, 0, NULL);
    cr_assert_not_null(o, "%s", t);
    json_t *run = json_array_get(json_object_get(o, "runs"), 0);
    cr_expect_eq(json_integer_value(json_object_get(run, "working_set_cache_bytes")), (json_int_t)(48 * MiB));
    cr_expect_str_eq(json_string_value(json_object_get(run, "working_set_cache_source")),
                     "host sysfs (/sys/devices/system/cpu/cpu0/cache/index3)");
    cr_expect_str_eq(json_string_value(json_object_get(run, "working_set_source")), "auto");
    cr_expect_eq(json_integer_value(json_object_get(run, "memory_budget_bytes")), (json_int_t)(3 * GiB));
    json_decref(o);
    free(t);
    bench_plan_free(p);
    /* nothing known */
    l.host_llc_bytes = 0;
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    t = header_of(p, 0);
    cr_expect(strstr(t, "working set: 256.00 MiB per pattern (auto, default: no cache size known)") != NULL, "%s", t);
    cr_expect(strstr(t, "twins: slices sized for an assumed 16.00 MiB last-level cache") != NULL, "%s", t);
    free(t);
    t = header_of(p, 1);
    o = json_loads(t, 0, NULL);
    run = json_array_get(json_object_get(o, "runs"), 0);
    cr_expect(json_is_null(json_object_get(run, "working_set_cache_bytes")));
    cr_expect_str_eq(json_string_value(json_object_get(run, "working_set_cache_source")),
                     "default (no cache size known)");
    cr_expect_eq(json_integer_value(json_object_get(run, "twin_cache_bytes")), (json_int_t)(16 * MiB));
    cr_expect_str_eq(json_string_value(json_object_get(run, "twin_cache_source")),
                     "assumed (neither the device nor the host reports a cache size)");
    json_decref(o);
    free(t);
    bench_plan_free(p);
    /* --size */
    cr_assert_eq(plan("seq", NULL, MiB, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    t = header_of(p, 1);
    o = json_loads(t, 0, NULL);
    run = json_array_get(json_object_get(o, "runs"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(run, "working_set_source")), "--size");
    cr_expect_str_eq(json_string_value(json_object_get(run, "working_set_cache_source")), "--size");
    json_decref(o);
    free(t);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* ---- read mode: the loads alone ---- */

static bw_code plan_access(const char *spec, uint64_t size, unsigned access, bench_plan **p, bw_error *err)
{
    const char *specs[] = { spec };
    bench_plan_opts o = { .specs = specs, .nspecs = spec ? 1 : 0, .size = size, .access = access };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    return bench_plan_make(&o, &geo8, &l, p, err);
}

static const unsigned READ = BENCH_ACCESS_BIT(BENCH_ACCESS_READ), COPY = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);

Test(bench_plan, read_mode_counts_the_loads_alone)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* seq of floats, --size 1 MiB: 262144 items. A warp of 8 lanes loads
     * 32 B, half a 64 B sector: 32768 warp-instructions of one sector each
     * (2 MiB instruction-model), 16384 distinct sectors (1 MiB footprint) */
    cr_assert_eq(plan_access("seq", MiB, READ, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 1, "seq is its own reference in read mode");
    const bench_item *it = &p->items[0];
    cr_expect_eq(it->access, BENCH_ACCESS_READ);
    cr_expect_eq(it->items, 262144);
    cr_expect_eq(it->model.loads.requested_bytes, 1048576);
    cr_expect_eq(it->model.loads.instr_sectors * 64, 2097152);
    cr_expect_eq(it->model.loads.footprint_sectors * 64, 1048576);
    cr_expect_eq(it->model.stores.requested_bytes, 0);
    cr_expect_eq(it->model.stores.instr_sectors, 0);
    cr_expect_eq(it->model.stores.footprint_sectors, 0);
    cr_expect_eq(it->model.stores.instructions, 0);
    cr_expect_eq(bench_plan_reference(p, 0), 0);
    bench_plan_free(p);
    /* the same in copy mode adds the 1 MiB store of dst[g] */
    cr_assert_eq(plan_access("seq", MiB, COPY, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].model.loads.requested_bytes, 1048576);
    cr_expect_eq(p->items[0].model.stores.requested_bytes, 1048576);
    bench_plan_free(p);
    /* stride:s=2: item g loads bytes 8g..8g+3; 1 MiB of footprint is 16384
     * sectors of 8 items each: 131072 items, 512 KiB requested; a warp
     * spans exactly one sector: 16384 instructions of one sector */
    cr_assert_eq(plan_access("stride:s=2", MiB, READ, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 2);
    it = item(p, "stride:s=2");
    cr_expect_eq(it->items, 131072);
    cr_expect_eq(it->model.loads.requested_bytes, 524288);
    cr_expect_eq(it->model.loads.instr_sectors * 64, 1048576);
    cr_expect_eq(it->model.loads.footprint_sectors * 64, 1048576);
    cr_expect_eq(it->model.stores.requested_bytes, 0);
    cr_expect_eq(it->model.stores.instr_sectors, 0);
    /* the reference: seq in read mode, added for it */
    cr_expect_str_eq(p->items[1].spec, "seq");
    cr_expect_eq(p->items[1].access, BENCH_ACCESS_READ);
    cr_expect_eq(p->items[1].added_as_reference, 1);
    cr_expect_eq(bench_plan_reference(p, 0), 1);
    bench_plan_free(p);
    bw_error_clear(&err);
}

Test(bench_plan, each_mode_has_its_own_seq_reference)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    /* both modes: the pattern in copy then read, then seq in each mode */
    cr_assert_eq(plan_access("stride:s=2", MiB, COPY | READ, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 4);
    static const char *const spec[] = { "stride:s=2", "stride:s=2", "seq", "seq" };
    static const bench_access mode[] = { BENCH_ACCESS_COPY, BENCH_ACCESS_READ, BENCH_ACCESS_COPY, BENCH_ACCESS_READ };
    for (size_t i = 0; i < 4; i++) {
        cr_expect_str_eq(p->items[i].spec, spec[i]);
        cr_expect_eq(p->items[i].access, mode[i], "item %zu", i);
        cr_expect_eq(p->items[i].added_as_reference, i >= 2);
    }
    cr_expect_eq(bench_plan_reference(p, 0), 2);
    cr_expect_eq(bench_plan_reference(p, 1), 3);
    cr_expect_eq(bench_plan_reference(p, 2), 2);
    cr_expect_eq(bench_plan_reference(p, 3), 3);
    /* copy's stores double seq's requested bytes, read's do not */
    cr_expect_eq(p->items[2].model.loads.requested_bytes + p->items[2].model.stores.requested_bytes,
                 2 * p->items[3].model.loads.requested_bytes);
    cr_expect_str_eq(bench_access_name(p->items[1].access), "read");
    cr_expect_str_eq(bench_access_name(p->items[0].access), "copy");
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* Which items give every lane the same addresses as seq, worked out from
 * their definitions: stride:s=1 is 4*(1*g), offset:bytes=0 is 4*g + 0,
 * and the two expressions are 4*g written two ways (W = 8 here); stride 2,
 * reverse, offset 4, seq:elem=16 and seq read differ in their addresses,
 * element or mode. */
Test(bench_plan, the_same_addresses_are_recognised_exactly)
{
    static const char *const specs[] = { "seq", "stride:s=1", "offset:bytes=0", "stride:s=2", "reverse",
                                         "offset:bytes=4", "seq:elem=16" };
    static const char *const exprs[] = { "4*g", "4*(w*W + t)", "4*(w*8 + t)", "4*(w*16 + t)" };
    bench_plan_opts o = { .specs = specs, .nspecs = 7, .exprs = exprs, .nexprs = 4, .size = MiB,
                          .access = COPY | READ };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    long seq_copy = -1, seq_read = -1;
    for (size_t i = 0; i < p->n; i++)
        if (!strcmp(p->items[i].spec, "seq"))
            *(p->items[i].access == BENCH_ACCESS_READ ? &seq_read : &seq_copy) = (long)i;
    cr_assert(seq_copy >= 0 && seq_read >= 0);
    static const struct {
        const char *spec;
        int same;
    } want[] = {
        { "seq", 1 },           { "stride:s=1", 1 },      { "offset:bytes=0", 1 }, { "expr:4 * g", 1 },
        { "expr:4 * (w * W + t)", 1 }, { "expr:4 * (w * 8 + t)", 1 }, { "expr:4 * (w * 16 + t)", 0 },
        { "stride:s=2", 0 },    { "reverse", 0 },         { "offset:bytes=4", 0 }, { "seq:elem=16", 0 },
    };
    size_t seen = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].access != BENCH_ACCESS_COPY)
            continue;
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            if (!strcmp(p->items[i].spec, want[k].spec)) {
                seen++;
                cr_expect_eq(bench_plan_same_addresses(p, i, (size_t)seq_copy), want[k].same, "%s", want[k].spec);
                cr_expect_eq(bench_plan_same_addresses(p, (size_t)seq_copy, i), want[k].same, "%s, turned round",
                             want[k].spec);
                /* never across modes: a read is not a copy */
                cr_expect_eq(bench_plan_same_addresses(p, i, (size_t)seq_read), 0, "%s against seq read",
                             want[k].spec);
            }
    }
    cr_expect_eq(seen, sizeof want / sizeof want[0], "every item planned in copy mode");
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* The default set: copy for every pattern, plus read for seq at 4 and 16
 * bytes and the seven strides, and write for seq (4 bytes), the seven
 * strides, offset:bytes=4 and reverse; --access read: every pattern in
 * read mode. */
Test(bench_plan, default_set_reads_seq_and_the_strides)
{
    size_t nd = 0;
    char **defaults = bench_plan_default_specs(0, 64, &nd);
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(plan_access(NULL, 4 * MiB, 0, &p, &err), BW_OK, "%s", bw_error_text(&err));
    static const char *const reads[] = { "seq", "seq:elem=16", "stride:s=1", "stride:s=2", "stride:s=4",
                                         "stride:s=8", "stride:s=16", "stride:s=32", "stride:s=64" };
    static const char *const writes[] = { "seq",         "stride:s=1",  "stride:s=2",     "stride:s=4",
                                          "stride:s=8",  "stride:s=16", "stride:s=32",    "stride:s=64",
                                          "offset:bytes=4", "reverse" };
    size_t ncopy = 0, nread = 0, nbank = 0, nwrite = 0;
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_eq(it->added_as_reference, 0, "%s: the default set has its references", it->spec);
        if (bench_family_is(it, MODEL_PATTERN_KERNEL_BANK)) {
            /* bank items are measured once, reading local memory, against bank:pitch=33 */
            nbank++;
            cr_expect_eq(it->access, BENCH_ACCESS_READ, "%s", it->spec);
            long ref = bench_plan_reference(p, i);
            cr_assert_geq(ref, 0);
            cr_expect_str_eq(p->items[ref].spec, "bank:pitch=33,stride=1");
            continue;
        }
        if (it->access == BENCH_ACCESS_COPY) {
            ncopy++;
            continue;
        }
        if (it->access == BENCH_ACCESS_WRITE) {
            nwrite++;
            int listed = 0;
            for (size_t k = 0; k < sizeof writes / sizeof writes[0]; k++)
                listed |= !strcmp(writes[k], it->spec);
            cr_expect(listed, "%s is written by default", it->spec);
            /* its reference: seq, written; its stores are the pattern's, one-to-one */
            long ref = bench_plan_reference(p, i);
            cr_assert_geq(ref, 0);
            cr_expect_eq(p->items[ref].access, BENCH_ACCESS_WRITE);
            cr_expect_str_eq(p->items[ref].spec, "seq");
            cr_expect_eq(it->model.stores.written_bytes, it->model.stores.requested_bytes, "%s", it->spec);
            cr_expect_eq(it->model.loads.requested_bytes, it->items * it->elem, "%s: loads src[g]", it->spec);
            continue;
        }
        nread++;
        int listed = 0;
        for (size_t k = 0; k < sizeof reads / sizeof reads[0]; k++)
            listed |= !strcmp(reads[k], it->spec);
        cr_expect(listed, "%s is read by default", it->spec);
        /* its reference: seq of its element size, in read mode */
        long ref = bench_plan_reference(p, i);
        cr_assert_geq(ref, 0);
        cr_expect_eq(p->items[ref].access, BENCH_ACCESS_READ);
        cr_expect_str_eq(p->items[ref].spec, it->elem == 16 ? "seq:elem=16" : "seq");
    }
    cr_expect_eq(nbank, 6, "32-way, conflict-free, 16-, 8-, 4- and 2-way");
    cr_expect_eq(ncopy + nbank, nd, "every default pattern in copy mode, bank items once");
    cr_expect_eq(nread, 9);
    cr_expect_eq(nwrite, 10);
    cr_expect_null(p->note, "no default write pattern is left out: %s", p->note ? p->note : "");
    bench_plan_free(p);
    cr_assert_eq(plan_access(NULL, 4 * MiB, READ, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->n, nd);
    for (size_t i = 0; i < p->n; i++)
        cr_expect_eq(p->items[i].access, BENCH_ACCESS_READ, "%s", p->items[i].spec);
    bench_plan_free(p);
    for (size_t i = 0; i < nd; i++)
        free(defaults[i]);
    free(defaults);
    bw_error_clear(&err);
}

/* Read-mode validation on host buffers: every lane of a warp loads the
 * warp's first element (4*8*w: a broadcast), so a key taken from one
 * work-item is due in all 8 lanes of its warp. */
Test(bench_plan, read_validation_predicts_every_store)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    const char *exprs[] = { "32*w" };
    bench_plan_opts o = { .exprs = exprs, .nexprs = 1, .size = 16384, .access = READ };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    const bench_item *it = item(p, "expr:32 * w");
    int64_t n = it->items;
    const uint64_t seed = 7;
    uint8_t keys[BENCH_READ_KEYS * 4];
    cr_assert_eq(bench_read_keys(&geo8, it, seed, keys, BENCH_READ_KEYS, &err), BW_OK, "%s", bw_error_text(&err));
    /* the first key is the element at byte 0, the second the last warp's */
    uint8_t *src = malloc(p->src_bytes);
    bench_fill_random(src, p->src_bytes, seed);
    cr_expect(!memcmp(keys, src, 4));
    cr_expect(!memcmp(keys + 4, src + 32 * (n / 8 - 1), 4));
    /* dst as a right kernel leaves it: the element where it is a key */
    uint8_t *dst = malloc((size_t)n * 4);
    bench_fill_sentinel(dst, (uint64_t)n * 4);
    int64_t stored = 0;
    for (int64_t g = 0; g < n; g++) {
        const uint8_t *v = src + 32 * (g / 8);
        for (int k = 0; k < BENCH_READ_KEYS; k++) {
            if (!memcmp(v, keys + 4 * k, 4)) {
                memcpy(dst + 4 * g, v, 4);
                stored++;
                break;
            }
        }
    }
    cr_expect_geq(stored, 16, "at least the first and the last warp store");
    cr_expect_eq(stored % 8, 0, "whole warps store");
    fake_dst f = { dst, (uint64_t)n * 4, 0, 0 };
    uint8_t buf[256];
    cr_expect_eq(bench_validate_read_chunked(&geo8, it, seed, p->src_bytes, keys, BENCH_READ_KEYS, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_OK, "%s", bw_error_text(&err));
    /* lane 3 of warp 0 skipped its load: no store where one was due */
    uint8_t keep[4];
    memcpy(keep, dst + 12, 4);
    bench_fill_sentinel_at(dst + 12, 12, 4);
    cr_expect_eq(bench_validate_read_chunked(&geo8, it, seed, p->src_bytes, keys, BENCH_READ_KEYS, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "1 of ") && strstr(bw_error_text(&err), "work-item 3 (lane 3 of warp 0)") &&
                  strstr(bw_error_text(&err), "should load"),
              "%s", bw_error_text(&err));
    bw_error_clear(&err);
    memcpy(dst + 12, keep, 4);
    /* warp 1 stored though its element is no key (it equals none by the
     * pseudo-random data, checked here) */
    int keyed = 0;
    for (int k = 0; k < BENCH_READ_KEYS; k++)
        keyed |= !memcmp(src + 32, keys + 4 * k, 4);
    cr_assert(!keyed);
    memcpy(dst + 4 * 9, src + 32, 4);
    cr_expect_eq(bench_validate_read_chunked(&geo8, it, seed, p->src_bytes, keys, BENCH_READ_KEYS, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_E_VALIDATION);
    cr_expect(strstr(bw_error_text(&err), "work-item 9 (lane 1 of warp 1)") &&
                  strstr(bw_error_text(&err), "store nothing"),
              "%s", bw_error_text(&err));
    free(src);
    free(dst);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* a warp of 1000 lanes (a profile may say so) validates in
 * windows of whole warps, past the first 2^20 items too */
Test(bench_plan, validation_windows_hold_whole_odd_warps)
{
    static const model_geometry geo1000 = { 1000, 64, 64, 0, 4, 0 };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    const char *specs[] = { "seq" };
    bench_plan_opts o = { .specs = specs, .nspecs = 1, .size = 6 * MiB, .local_size = 1000 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo1000, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    const bench_item *it = item(p, "seq");
    cr_assert_gt(it->items, (int64_t)1 << 20, "%lld items", (long long)it->items);
    uint8_t *src = malloc(p->src_bytes), *dst = malloc((size_t)it->items * 4);
    bench_fill_random(src, p->src_bytes, 7);
    memcpy(dst, src, (size_t)it->items * 4); /* seq: item g loads src[4g] */
    cr_expect_eq(bench_validate_copy(&geo1000, it, src, p->src_bytes, dst, &err), BW_OK, "%s", bw_error_text(&err));
    free(src);
    free(dst);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* a nonsense cache size does not wrap the working-set target */
Test(bench_plan, huge_reported_cache_does_not_wrap)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(UINT64_MAX / 2, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, 0, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    /* 4 x the cache is beyond any memory: held to the largest allocation */
    cr_expect_eq(p->target_bytes, GiB);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* identical specs are measured once, and the plan says how many merged */
Test(bench_plan, identical_specs_merge)
{
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    const char *specs[250];
    for (int i = 0; i < 250; i++)
        specs[i] = i % 2 ? "seq" : "stride:s=2";
    bench_plan_opts o = { .specs = specs, .nspecs = 250, .size = MiB };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->n, 2);
    cr_expect_eq(p->merged, 248);
    cr_expect_str_eq(p->items[0].spec, "stride:s=2");
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* CSV numbers: integers whole, reals that read back exactly, in
 * the fewest digits (the expected texts are Python's repr of each double) */
Test(bench_plan, csv_numbers_round_trip)
{
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        { 2101740.0, ",2101740" }, { 664.0, ",664" }, { 0.1, ",0.1" }, { -3.5, ",-3.5" },
        { 1.0 / 3.0, ",0.3333333333333333" }, { 1e300, ",1e+300" }, { 0.1 + 0.2, ",0.30000000000000004" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bw_buf b = BW_BUF_INIT;
        report_csv_num(&b, cases[i].v, 1);
        cr_expect_str_eq(bw_buf_str(&b), cases[i].want);
        cr_expect_eq(strtod(bw_buf_str(&b) + 1, NULL), cases[i].v);
        bw_buf_free(&b);
    }
    bw_buf b = BW_BUF_INIT;
    report_csv_num(&b, 1.0, 0);
    report_csv_num(&b, NAN, 1);
    cr_expect_str_eq(bw_buf_str(&b), ",,");
    bw_buf_free(&b);
}

/* text that is not UTF-8 (a driver's profile reason, a build log
 * in a failure) keeps its JSON key, with '?' for the bad bytes */
Test(bench_plan, non_utf8_text_keeps_its_json_keys)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, MiB, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    bench_device d;
    memset(&d, 0, sizeof d);
    d.platform_name = d.platform_vendor = d.platform_version = d.name = d.vendor = "x";
    d.driver_version = d.device_version = d.opencl_c_version = d.extensions = "x";
    d.local_mem_type = "local";
    d.type_name = "cpu";
    d.profile_name = "cpu";
    d.profile_why = "lanes from \xff\xfe driver";
    d.geo = p->geo;
    bench_result res;
    memset(&res, 0, sizeof res);
    res.status = BENCH_FAILED;
    res.failure = "build log: \xc3\x28 bad";
    res.reference = -1;
    bench_run_info info;
    memset(&info, 0, sizeof info);
    bench_settings s = bench_settings_default();
    bench_run_doc run = { .device = &d, .is_default = 1, .plan = p, .results = &res, .info = &info };
    char *argv[] = { "bwlab", "\xff", NULL };
    bench_run_meta m = { "2026-01-01T00:00:00Z", "host", "os", 2, argv, &s, NULL, 0 };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(bench_run_json(&m, &run, 1, &b, &err), BW_OK, "%s", bw_error_text(&err));
    json_error_t je;
    json_t *doc = json_loads(bw_buf_str(&b), 0, &je);
    cr_assert_not_null(doc, "%s", je.text);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "profile"), "why")), "lanes from ?? driver");
    json_t *r0 = json_array_get(json_object_get(doc, "results"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(r0, "validation")), "build log: ?( bad");
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(doc, "command_line"), 1)), "?");
    json_decref(doc);
    bw_buf_free(&b);
    bench_plan_free(p);
    bw_error_clear(&err);
}

/* The sample validation checks (bench_validate_sample): on a launch of
 * 2048 items in groups of 8 (256 groups), groups 0, 1, 254, 255, 2..9 and
 * floor(k*256/27) for k = 1..26 are always in it (worked by hand: 9, 18, 28,
 * ..., 218, 227, 237, 246), ascending and distinct, at most 64 + 4 of them; a launch of at
 * most 64 groups is checked whole. A wrong element in a sampled group is
 * found and the message counts the work-items checked; one in a group the
 * sample skips is not, which is what sampling trades for time. */
Test(bench_plan, sampled_validation)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("stride:s=2", NULL, 16384, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    bench_item *it = (bench_item *)item(p, "stride:s=2");
    cr_assert_eq(it->items, 2048);
    it->local_size = 8;
    int64_t starts[BENCH_SAMPLE_GROUPS + BENCH_READ_KEYS], gi = 0;
    size_t n = bench_validate_sample(&geo8, it, 99, 0, starts, &gi);
    cr_expect_eq(gi, 8);
    cr_expect(n <= BENCH_SAMPLE_GROUPS && n >= 37, "%zu groups", n);
    int seen[256] = { 0 };
    for (size_t k = 0; k < n; k++) {
        cr_expect_eq(starts[k] % 8, 0);
        if (k)
            cr_expect_gt(starts[k], starts[k - 1], "ascending and distinct");
        seen[starts[k] / 8] = 1;
    }
    const int must[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 18, 28, 37, 47, 56, 66, 75, 85, 94, 104, 113, 123, 132,
                         142, 151, 161, 170, 180, 189, 199, 208, 218, 227, 237, 246, 254, 255 };
    for (size_t k = 0; k < sizeof must / sizeof must[0]; k++)
        cr_expect(seen[must[k]], "group %d not sampled", must[k]);
    /* a right result passes; a wrong one in sampled group 18 is found */
    const uint64_t seed = 99;
    uint8_t *src = malloc(p->src_bytes), *dst = malloc(2048 * 4), buf[256];
    bench_fill_random(src, p->src_bytes, seed);
    for (int64_t g = 0; g < 2048; g++)
        memcpy(dst + g * 4, src + g * 8, 4);
    fake_dst f = { dst, 2048 * 4, 0, 0 };
    cr_expect_eq(bench_validate_copy_sampled(&geo8, it, seed, p->src_bytes, starts, n, gi, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_OK, "%s", bw_error_text(&err));
    dst[(18 * 8 + 3) * 4] ^= 0x10;
    cr_expect_eq(bench_validate_copy_sampled(&geo8, it, seed, p->src_bytes, starts, n, gi, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_E_VALIDATION);
    char want[96];
    snprintf(want, sizeof want, "1 of %zu work-items checked (a sample of the launch's 2048)", n * 8);
    cr_expect(strstr(bw_error_text(&err), want) != NULL, "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "work-item 147 ") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    dst[(18 * 8 + 3) * 4] ^= 0x10;
    /* the last group: always sampled */
    dst[2047 * 4] ^= 0x01;
    cr_expect_eq(bench_validate_copy_sampled(&geo8, it, seed, p->src_bytes, starts, n, gi, read_fake, &f, buf,
                                             sizeof buf, &err),
                 BW_E_VALIDATION);
    bw_error_clear(&err);
    dst[2047 * 4] ^= 0x01;
    /* small launches are checked whole: 64 groups of 32 */
    it->local_size = 32;
    n = bench_validate_sample(&geo8, it, seed, 0, starts, &gi);
    cr_expect_eq(n, 64);
    cr_expect_eq(gi, 32);
    for (size_t k = 0; k < n; k++)
        cr_expect_eq(starts[k], (int64_t)k * 32);
    /* read mode adds the groups of the validation keys' items */
    it->local_size = 8;
    n = bench_validate_sample(&geo8, it, seed, 1, starts, &gi);
    cr_expect(n <= BENCH_SAMPLE_GROUPS + BENCH_READ_KEYS);
    free(src);
    free(dst);
    bench_plan_free(p);
}

/* Write mode's check by sample (bench_write_check_plan): stride:s=2 in
 * write mode stores work-item g's 4 bytes at byte 8g. Sampled groups 0
 * and 10 of 256 items store within [0, 2044) and [20480, 22524); each
 * store widened by the 64 KiB margin, the two windows meet, so there is
 * one, [0, 22524 + 65536) = [0, 88060), and the 512 stores write 512 distinct
 * words. A dst of 80002 bytes clips it to [0, 80000) (whole words). A
 * group at 1 MiB of dst is a window of its own. Worked by hand. */
Test(bench_plan, write_check_windows_by_sample)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(plan_access("stride:s=2", 4 * MiB, BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE), &p, &err), BW_OK, "%s",
                 bw_error_text(&err));
    const bench_item *it = item(p, "stride:s=2");
    cr_assert_eq(it->access, BENCH_ACCESS_WRITE);
    int64_t starts[] = { 0, 2560 };
    bench_write_check c;
    cr_assert_eq(bench_write_check_plan(&geo8, it, starts, 2, 256, p->dst_bytes, &c, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(c.nstores, 512);
    cr_expect_eq(c.words, 512);
    cr_assert_eq(c.nwindows, 1);
    cr_expect_eq(c.windows[0].lo, 0);
    cr_expect_eq(c.windows[0].hi, 88060);
    cr_expect_eq(c.window_bytes, 88060);
    cr_expect_eq(c.stores[1].addr, 8);
    cr_expect_eq(c.stores[1].g, 1);
    bench_write_check_free(&c);
    cr_assert_eq(bench_write_check_plan(&geo8, it, starts, 2, 256, 80002, &c, &err), BW_OK);
    cr_expect_eq(c.windows[0].hi, 80000);
    bench_write_check_free(&c);
    /* group 512 (g from 131072) stores from byte 1 MiB: far from group 0 */
    int64_t apart[] = { 0, 131072 };
    cr_assert_eq(bench_write_check_plan(&geo8, it, apart, 2, 256, p->dst_bytes, &c, &err), BW_OK);
    cr_assert_eq(c.nwindows, 2);
    cr_expect_eq(c.windows[0].hi, 2044 + 65536);
    cr_expect_eq(c.windows[1].lo, 1048576 - 65536);
    cr_expect_eq(c.windows[1].hi, 1048576 + 2044 + 65536);
    bench_write_check_free(&c);
    bench_plan_free(p);
}

/* ---- the working set a budget holds (bench_fit.h) ---- */

/* The run's estimate, by hand: seq copy at 64 MiB on the 8-lane profile
 * (64-byte sectors) is 16 Mi work-items, 2 Mi warp-instructions each way,
 * one sector each: 2 x 2 Mi x 64 B = 256 MiB of instruction-model bytes,
 * 26.8435456 ms at 10 GB/s. Its minimum: 0.2 s of launches is
 * ceil(7.45) = 8 launches (more than min_reps 5), its warm-up, and, as the
 * reference, its twin's 7 rounds of slices at 5/16 of a launch (its 8
 * launches already evict them): 8 + 1 + 2.1875 = 11.1875 launches,
 * 0.300312 s; no pattern is read against it, so it has no control slot.
 * No rate, no estimate. */
Test(bench_plan, run_estimate_by_hand)
{
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    cr_assert_eq(plan("seq", NULL, 64 * MiB, 0, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 1);
    cr_expect_eq(p->items[0].items, 16 * (int64_t)MiB);
    bench_settings s = bench_settings_default();
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 10.0), 11.1875 * 0.0268435456, 1e-9);
    /* no twins (a calibration run): 9 launches */
    s.no_twins = 1;
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 10.0), 9 * 0.0268435456, 1e-9);
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 0), 0, 1e-12);
    bench_plan_free(p);
}

/* Grouped rounds, by hand: seq and stride:s=2 in copy mode at 64 MiB on
 * geo8 (8 lanes, 64-byte sectors), at 10 GB/s. seq: 16 Mi items, 2 Mi
 * warps, a 64-byte sector each for its loads and one for its stores:
 * 256 MiB, t1 = 26.8435456 ms, its own minimum max(5, ceil(0.2 / t1)) = 8.
 * stride:s=2: 8 Mi items over the same span, each warp's loads in one
 * sector and its stores in one: 128 MiB, t2 = t1 / 2, its minimum
 * ceil(0.2 / t2) = 15. seq, its reference, launches until stride:s=2 has
 * its 15 rounds, and a second time each round in its control slot: 30
 * launches; seq's twin after them adds its slices only, 7 x 5/16 = 2.1875
 * launches; each makes one warm-up. In units of t2: 2 x (30 + 2.1875 + 1)
 * + (15 + 1) = 82.375. Priced alone, each at its own minimum and with no
 * control (seq alone is read against by none), it would be 2 x 11.1875 +
 * 16 = 38.375. A third member, offset:bytes=0 (seq's addresses: t1, its
 * minimum 8), stops at its own 8 rounds, not its group's 15: 2 x (8 + 1)
 * = 18 more, 100.375. */
Test(bench_plan, run_estimate_groups_the_rounds)
{
    const char *specs[] = { "seq", "stride:s=2" };
    bench_plan_opts o = { .specs = specs, .nspecs = 2, .size = 64 * MiB };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 2);
    cr_assert_eq(item(p, "seq")->items, 16 * (int64_t)MiB);
    cr_assert_eq(item(p, "stride:s=2")->items, 8 * (int64_t)MiB);
    size_t s2 = !strcmp(p->items[0].spec, "stride:s=2") ? 0 : 1;
    cr_assert_eq(bench_plan_reference(p, s2), (long)(1 - s2), "seq is stride:s=2's reference");
    bench_settings s = bench_settings_default();
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 10.0), 82.375 * 0.0134217728, 1e-9);
    bench_plan_free(p);
    const char *three[] = { "seq", "stride:s=2", "offset:bytes=0" };
    bench_plan_opts o3 = { .specs = three, .nspecs = 3, .size = 64 * MiB };
    cr_assert_eq(bench_plan_make(&o3, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 3);
    cr_assert_eq(item(p, "offset:bytes=0")->items, 16 * (int64_t)MiB);
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 10.0), 100.375 * 0.0134217728, 1e-9);
    bench_plan_free(p);
}

/* A reference's control launches, by hand: one per run of at most six
 * members (bench_round). seq read against by seven members on geo8 at
 * 64 MiB and 10 GB/s: stride:s=1, offset:bytes=0, reverse and
 * permute:seed=1, 2 and 3 (16 Mi items each, every warp's lanes within
 * one 64-byte sector each way: seq's bytes, t1, minimum 8 rounds) and
 * stride:s=2 (t2 = t1 / 2,
 * minimum 15). seq launches its group's 15 rounds, each once in its own
 * slot and in two runs' control slots: 45, its twin's 2.1875 and one
 * warm-up, 48.1875 t1; the six at t1: 6 x (8 + 1) = 54 t1; stride:s=2
 * (15 + 1) t2 = 8 t1. In units of t2: 2 x (48.1875 + 54 + 8) = 220.375
 * (with one control launch a round, as for six members, 190.375). */
Test(bench_plan, run_estimate_prices_a_control_launch_per_run_of_six)
{
    const char *specs[] = { "seq", "stride:s=1", "offset:bytes=0", "reverse", "permute:seed=1",
                            "permute:seed=2", "permute:seed=3", "stride:s=2" };
    bench_plan_opts o = { .specs = specs, .nspecs = 8, .size = 64 * MiB };
    bench_limits l = limits(32 * MiB, GiB, 4 * GiB, 4096);
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 8);
    long seq = bench_plan_reference(p, (size_t)(item(p, "stride:s=2") - p->items));
    for (size_t i = 1; i < 8; i++) {
        cr_assert_eq(bench_plan_reference(p, (size_t)(item(p, specs[i]) - p->items)), seq, "%s", specs[i]);
        cr_assert_eq(item(p, specs[i])->items, (i < 7 ? 16 : 8) * (int64_t)MiB, "%s", specs[i]);
    }
    bench_settings s = bench_settings_default();
    cr_expect_float_eq(bench_run_estimate_s(p, &s, 10.0), 220.375 * 0.0134217728, 1e-9);
    bench_plan_free(p);
}

/* The kernels a plan prepares, counted by hand: seq moves one contiguous
 * run per warp and has one form; stride:s=2 is timed in both forms (two
 * kernels); a bank conflict item has a program of its own (one), and so
 * has the padded reference added beside it; a pattern left out prepares
 * none. */
Test(bench_plan, a_plan_counts_its_kernels)
{
    bench_limits l = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    const char *specs[] = { "seq", "stride:s=2", "bank:pitch=32,stride=2" };
    bench_plan_opts o = { .specs = specs, .nspecs = 3, .size = 8 * MiB, .scalar_form = 1 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    /* the bank item's padded reference is added beside it */
    cr_assert_eq(p->n, 4);
    cr_expect_str_eq(p->items[3].spec, "bank:pitch=33,stride=1");
    cr_expect_eq(bench_fit_kernels(p), 5);
    cr_assert_eq(bench_plan_leave_out(p, 1, "left out by the test", &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(bench_fit_kernels(p), 3);
    bench_plan_free(p);
    o.scalar_form = 0; /* one form for every pattern */
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(bench_fit_kernels(p), 4);
    bench_plan_free(p);
}

/* Fitting the default set to a budget on a device that reports a 480 MiB
 * cache: the auto target is 4 x, 1920 MiB; with all the time it needs the
 * plan stays as it is; with 5 s, which no size holds (the default set's
 * minimum of launches, at least 0.2 s of launches a pattern, is well over
 * 5 s at any size),
 * it steps by 1/sqrt(2) in whole MiB, 1357, 959, 678, and stops at the
 * cache figure, 480 MiB, with every buffer within twice that: their fill
 * at 2 GB/s is then at most 4 x 480 MiB / 2 GB/s = 1.007 s, within a
 * quarter of 5 s. With 1 s that fill is more than a quarter, so it steps
 * on below the floor, 339, 239, 168 (where stride 64's loads and stores
 * span the 2 x cap, so both buffers hold 2 x 168 MiB: 0.352 s, checked
 * below), to 118 MiB, whose fill, at most 4 x 118 MiB / 2 GB/s =
 * 0.247 s, is within a quarter of 1 s. In between it stops at the first
 * size whose estimate fits. */
Test(bench_plan, fit_the_working_set_to_a_budget)
{
    bench_limits l = limits(480 * MiB, 4 * GiB, 16 * GiB, 4096);
    bench_plan_opts o = { .scalar_form = 1 };
    bench_settings s = bench_settings_default();
    bench_fit_rate rate = { 256 * MiB, 20.0, 2.0, 1.0, 1.5, { 0 }, { 0 }, 0, 0 };
    bench_plan *p = NULL, *full = NULL;
    bench_fit_choice c;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &full, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect(bench_fit_may_shrink(full, 50.0));
    cr_assert_eq(bench_fit_choose(&o, &geo8, &l, &s, &rate, 1e6, full, &p, &c, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_expect_eq(c.auto_bytes, 1920 * MiB);
    cr_expect_eq(c.bytes, 1920 * MiB);
    cr_expect_null(p, "the auto plan fits: nothing fitted");
    cr_expect_str_eq(c.note, "");
    double at_auto = c.auto_s;

    cr_assert_eq(bench_fit_choose(&o, &geo8, &l, &s, &rate, 5.0, full, &p, &c, &err), BW_OK);
    cr_assert_not_null(p);
    cr_expect_eq(c.floor_bytes, 480 * MiB);
    cr_expect_eq(c.bytes, 480 * MiB);
    cr_expect_eq(p->target_bytes, 480 * MiB);
    cr_expect(!bench_fit_may_shrink(p, 50.0), "at the floor");
    cr_expect(bench_fit_may_shrink(p, 5.0), "a short budget may go below the floor");
    cr_expect_eq(p->fitted_from, 1920 * MiB);
    cr_expect(p->target_auto, "a fitted target is still the automatic one");
    cr_expect_eq(p->cache_bytes, 480 * MiB);
    cr_expect_leq(p->src_bytes, 960 * MiB);
    cr_expect_leq(p->dst_bytes, 960 * MiB);
    cr_expect_lt(c.need_s, at_auto);
    cr_assert_not_null(p->fit_note);
    cr_expect(strstr(p->fit_note, "working set 480.00 MiB per pattern, fitted to the 50 s budget: at 1.88 GiB "
                                  "(4 x the 480.00 MiB cache)") != NULL, "%s", p->fit_note);
    cr_expect(strstr(p->fit_note, "--size 1920M") != NULL, "%s", p->fit_note);
    cr_expect(strstr(p->fit_note, "; no smaller working set is tried: below the cache figure the cache would "
                                  "serve part of it;") != NULL,
              "5 s holds no size: the floor is said, %s", p->fit_note);
    bench_plan_free(p);

    /* 1 s: below the floor, since the fill alone would take most of it;
     * 168 MiB's buffers, each at the 2 x cap, do not fit a quarter of it */
    bench_plan_opts o168 = o;
    o168.size = 168 * MiB;
    o168.span_cap = 2 * o168.size;
    cr_assert_eq(bench_plan_make(&o168, &geo8, &l, &p, &err), BW_OK);
    /* each 2 x 168 MiB less the last element's rounding (a few bytes) */
    cr_expect(p->src_bytes <= 336 * MiB && p->src_bytes > 336 * MiB - 4096, "src %llu",
              (unsigned long long)p->src_bytes);
    cr_expect(p->dst_bytes <= 336 * MiB && p->dst_bytes > 336 * MiB - 4096, "dst %llu",
              (unsigned long long)p->dst_bytes);
    cr_expect_gt((double)(p->src_bytes + p->dst_bytes) / 2e9, 0.25, "their fill: more than a quarter of 1 s");
    bench_plan_free(p);
    cr_assert_eq(bench_fit_choose(&o, &geo8, &l, &s, &rate, 1.0, full, &p, &c, &err), BW_OK);
    cr_assert_not_null(p);
    cr_expect_eq(c.bytes, 118 * MiB);
    cr_expect_leq(p->src_bytes, 236 * MiB);
    cr_expect_leq(p->dst_bytes, 236 * MiB);
    cr_expect(strstr(p->fit_note, "; below the cache figure, since the buffers' fill alone would take most of so "
                                  "short a budget: the cache may serve part of each launch;") != NULL,
              "%s", p->fit_note);
    bench_plan_free(p);

    /* the steps' estimates, each from the plan at that size: a budget
     * between those of 959 and 678 MiB stops at 678 */
    double est[2];
    const uint64_t sizes[] = { 959 * MiB, 678 * MiB };
    for (int k = 0; k < 2; k++) {
        bench_plan_opts so = o;
        so.size = sizes[k];
        so.span_cap = 2 * sizes[k];
        cr_assert_eq(bench_plan_make(&so, &geo8, &l, &p, &err), BW_OK);
        est[k] = bench_run_estimate_s(p, &s, rate.copy_gbs) +
                 (double)(p->src_bytes + p->dst_bytes) / rate.fill_gbs / 1e9 + rate.build_s;
        bench_plan_free(p);
    }
    cr_assert_gt(est[0], est[1]);
    cr_assert_eq(bench_fit_choose(&o, &geo8, &l, &s, &rate, (est[0] + est[1]) / 2, full, &p, &c, &err), BW_OK);
    cr_expect_eq(c.bytes, 678 * MiB);
    cr_expect_float_eq(c.need_s, est[1], 1e-9);
    cr_expect(strstr(c.note, "no smaller working set") == NULL, "678 MiB fits: %s", c.note);
    bench_plan_free(p);

    /* each kernel's preparation priced (0.1 s, as PoCL's compile at first
     * launch on an empty cache): the same time no longer holds 678 MiB,
     * and the estimate at the size chosen carries 0.1 s a kernel */
    bench_fit_rate compiled = rate;
    compiled.prep_kernel_s = 0.1;
    cr_assert_eq(bench_fit_choose(&o, &geo8, &l, &s, &compiled, (est[0] + est[1]) / 2, full, &p, &c, &err), BW_OK);
    cr_assert_not_null(p);
    cr_expect_lt(c.bytes, 678 * MiB);
    double bare = bench_run_estimate_s(p, &s, rate.copy_gbs) +
                  (double)(p->src_bytes + p->dst_bytes) / rate.fill_gbs / 1e9 + rate.build_s;
    cr_expect_float_eq(c.need_s, bare + 0.1 * (double)bench_fit_kernels(p), 1e-9);
    cr_expect_gt(bench_fit_kernels(p), p->n, "the default set times some patterns in both forms");
    cr_expect(strstr(p->fit_note, "its kernels' preparation") != NULL, "%s", p->fit_note);
    bench_plan_free(p);
    bench_plan_free(full);

    /* a 32 MiB cache: auto 128 MiB, under the 256 MiB floor: not fitted to
     * a budget of 30 s or more, so no calibration is spent on it; a
     * shorter one may take it below the floor (29.9 s: just under) */
    bench_limits small = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    cr_assert_eq(bench_plan_make(&o, &geo8, &small, &p, &err), BW_OK);
    cr_expect_eq(p->target_bytes, 128 * MiB);
    cr_expect(!bench_fit_may_shrink(p, 50.0));
    cr_expect(!bench_fit_may_shrink(p, 30.0));
    cr_expect(bench_fit_may_shrink(p, 29.9));
    bench_plan_free(p);
    /* no cache reported (PoCL on a Zen 5 guest): the 256 MiB default, the
     * floor itself; a 5 s budget may fit it, a 50 s one does not try */
    bench_limits none = limits(0, 4 * GiB, 16 * GiB, 4096);
    cr_assert_eq(bench_plan_make(&o, &geo8, &none, &p, &err), BW_OK);
    cr_expect_eq(p->target_bytes, 256 * MiB);
    cr_expect(!bench_fit_may_shrink(p, 50.0));
    cr_expect(bench_fit_may_shrink(p, 5.0));
    bench_plan_free(p);
    /* at 32 MiB nothing smaller may be tried, whatever the budget */
    cr_assert_eq(bench_plan_make(&(bench_plan_opts){ .scalar_form = 1, .size = 32 * MiB }, &geo8, &none, &p, &err),
                 BW_OK);
    cr_expect_eq(p->target_bytes, 32 * MiB);
    cr_expect(!bench_fit_may_shrink(p, 5.0));
    bench_plan_free(p);
}

/* --size 128 MiB on geo8 (64-byte sectors): seq copies 32 Mi elements,
 * src and dst 128 MiB each; stride:s=32 and stride:s=64 read one sector a
 * work-item, 2 Mi of them, at 128 and 256 B apart: src spans
 * (2 Mi - 1) x 128 + 4 and (2 Mi - 1) x 256 + 4 bytes, 256 and 512 MiB
 * less 124 and 252 B, and dst is 8 MiB. The buffers: src 512 MiB, dst
 * 128 MiB, which is 384 MiB more than seq's own: worth a check. With the
 * launches made negligible (no minimum time, a 10^6 GB/s copy rate) the
 * estimate is the fill at 1 GB/s: 671088400 B (src rounded up to 16) is
 * 0.671 s; without stride:s=64, 268435344 + 134217728 B: 0.403 s; without
 * both, 2 x 128 MiB: 0.268 s. So 1 s keeps all; 0.6 s leaves out stride 64
 * (0.403 fits); 0.35 s both; 0.2 s both, and fits nothing narrower (seq is
 * the others' reference); with a bound of 0.25 s, even seq's fill breaks
 * it: refused. A fill within a quarter of the time is never a reason. */
Test(bench_plan, buffers_the_budget_cannot_fill_are_left_out)
{
    const char *specs[] = { "seq", "stride:s=32", "stride:s=64" };
    bench_plan_opts o = { .specs = specs, .nspecs = 3, .size = 128 * MiB };
    bench_limits l = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    bench_settings s = bench_settings_default();
    s.min_total_s = 0;
    bench_fit_rate rate = { 32 * MiB, 1e6, 1.0, 0.0, 0.5, { 0 }, { 0 }, 0, 0 };
    bench_fit_choice c;
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    const double all = 671088400 / 1e9, no64 = 402653072 / 1e9, none = 268435456 / 1e9;
    const double avail[] = { 1.0, 0.6, 0.35, 0.2 };
    const int out64[] = { 0, 1, 1, 1 }, out32[] = { 0, 0, 1, 1 };
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
        cr_assert_eq(p->n, 3);
        cr_expect_eq(p->src_bytes, 536870672);
        cr_expect_eq(p->dst_bytes, 128 * MiB);
        cr_expect(bench_fit_buffers_worth(p));
        cr_assert_eq(bench_fit_buffers(p, &s, &rate, avail[k], 10.0, &c, &err), BW_OK, "%s", bw_error_text(&err));
        cr_expect_float_eq(c.auto_s, all, 1e-3, "%f", c.auto_s);
        cr_expect_eq(item(p, "stride:s=64")->left_out != NULL, out64[k], "%.2f s", avail[k]);
        cr_expect_eq(item(p, "stride:s=32")->left_out != NULL, out32[k], "%.2f s", avail[k]);
        cr_expect_null(item(p, "seq")->left_out, "the reference stays");
        cr_expect_float_eq(c.need_s, out32[k] ? none : out64[k] ? no64 : all, 1e-3, "%f", c.need_s);
        cr_expect_eq(p->src_bytes, out32[k] ? 128 * MiB : out64[k] ? 268435344 : 536870672);
        cr_expect_eq(p->dst_bytes, 128 * MiB);
        if (!out64[k]) {
            cr_expect_str_eq(c.note, "");
            cr_expect_null(p->note);
        } else {
            cr_assert_not_null(p->note);
            cr_expect(strstr(p->note, out32[k] ? "left out before the buffers are made, widest first: stride:s=64, "
                                                 "stride:s=32; at --size 128.00 MiB"
                                               : "widest first: stride:s=64; at --size 128.00 MiB") != NULL,
                      "%s", p->note);
            cr_expect_str_eq(c.note, p->note);
            cr_expect(strstr(item(p, "stride:s=64")->left_out,
                             "left out before measuring: at --size 128.00 MiB its buffers (src 512.00 MiB, dst "
                             "8.00 MiB) are wider than") != NULL,
                      "%s", item(p, "stride:s=64")->left_out);
        }
        bench_plan_free(p);
    }
    /* seq's own fill, 0.268 s, beyond a 0.25 s bound */
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK);
    cr_expect_eq(bench_fit_buffers(p, &s, &rate, 0.2, 0.25, &c, &err), BW_E_RANGE);
    cr_expect(strstr(bw_error_text(&err), "--size 128.00 MiB: the buffers of the patterns the others are read "
                                          "against (src 128.00 MiB, dst 128.00 MiB) would take about 0.3 s") != NULL,
              "%s", bw_error_text(&err));
    cr_expect(strstr(bw_error_text(&err), "use a --budget of at least") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
    bench_plan_free(p);
    /* launches, not the fill, over the time: the fill (6.7 ms at 100 GB/s)
     * is within a quarter of it, so nothing is left out here (the runner
     * leaves out the costliest launches) */
    bench_fit_rate slow = { 32 * MiB, 0.001, 100.0, 0.0, 0.5, { 0 }, { 0 }, 0, 0 };
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK);
    cr_assert_eq(bench_fit_buffers(p, &s, &slow, 1.0, 10.0, &c, &err), BW_OK);
    cr_expect_gt(c.need_s, 1.0);
    for (size_t i = 0; i < p->n; i++)
        cr_expect_null(p->items[i].left_out, "%s", p->items[i].spec);
    bench_plan_free(p);
    /* 64 MiB: stride 64's extra 192 MiB is under the check's 256 */
    o.size = 64 * MiB;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK);
    cr_expect(!bench_fit_buffers_worth(p));
    bench_plan_free(p);
    /* seq alone, whose buffers pass 1 GiB: worth it */
    o.nspecs = 1;
    o.size = 600 * MiB;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK);
    cr_expect(bench_fit_buffers_worth(p));
    bench_plan_free(p);
}

/* A transpose sized from the working set (4 MiB: n = sqrt(1 Mi) = 1024
 * on geo8) has its model counted within the plan's model_s: its tiled
 * addresses change shape every 8 x 8 tile. Unbounded (0) or ample, n is
 * the working set's; with no time at all it is the timed probe's own
 * n = 64 W = 512, said in the size note, and the copy it is read against
 * is sized at that n too (one n for all the plan's automatic transposes). */
Test(bench_plan, an_automatic_transpose_is_counted_within_the_models_time)
{
    const char *specs[] = { "transpose:version=tiled" };
    bench_limits l = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    const double budgets[] = { 0, 1e6, 1e-9 };
    const int64_t want[] = { 1024, 1024, 512 };
    for (int k = 0; k < 3; k++) {
        bench_plan_opts o = { .specs = specs, .nspecs = 1, .size = 4 * MiB, .model_s = budgets[k] };
        bench_plan *p = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
        cr_assert_eq(p->n, 2, "the tiled transpose and its copy");
        char tiled[64], copy[64];
        snprintf(tiled, sizeof tiled, "transpose:version=tiled,n=%lld", (long long)want[k]);
        snprintf(copy, sizeof copy, "transpose:version=copy,n=%lld", (long long)want[k]);
        const bench_item *t = item(p, tiled), *c = item(p, copy);
        cr_expect_eq(t->items, want[k] * want[k]);
        cr_expect_eq(bench_plan_reference(p, (size_t)(t - p->items)), (long)(c - p->items));
        if (want[k] == 1024) {
            cr_expect_null(t->size_note, "%s", t->size_note);
        } else {
            cr_assert_not_null(t->size_note);
            cr_expect(strstr(t->size_note, "n = 512 (a 1.00 MiB matrix), below the working set's n = 1024 (4.00 "
                                           "MiB): its addresses change shape every tile") != NULL,
                      "%s", t->size_note);
            cr_expect_str_eq(c->size_note, t->size_note);
        }
        bench_plan_free(p);
    }
}

/* A user's expression whose shape changes from warp to warp (an xor) is
 * counted warp by warp: at a 256 KiB working set of 4-byte loads, 64 Ki
 * work-items, or, with no time for the model, the sizing probe's own
 * 8 x 1024 = 8192, said in its size note. A catalogue pattern is never
 * capped so (seq keeps its 64 Ki). */
Test(bench_plan, a_users_expression_is_counted_within_the_models_time)
{
    const char *exprs[] = { "(g ^ (g >> 3)) * 4" };
    const char *specs[] = { "seq" };
    bench_limits l = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    const double budgets[] = { 0, 1e-9 };
    const int64_t want[] = { 65536, 8192 };
    for (int k = 0; k < 2; k++) {
        bench_plan_opts o = { .specs = specs, .nspecs = 1, .exprs = exprs, .nexprs = 1, .size = 256 * 1024,
                              .model_s = budgets[k] };
        bench_plan *p = NULL;
        bw_error err = BW_ERROR_INIT;
        cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
        const bench_item *e = item(p, "expr:(g ^ (g >> 3)) * 4");
        cr_expect_eq(e->items, want[k]);
        cr_expect_eq(item(p, "seq")->items, 65536);
        cr_expect_null(item(p, "seq")->size_note);
        if (k == 0)
            cr_expect_null(e->size_note, "%s", e->size_note);
        else
            cr_expect(e->size_note && strstr(e->size_note, "counted and launched at 8192 work-items, below the 65536 "
                                                           "the working set asks: the expression's addresses change "
                                                           "shape from warp to warp") != NULL,
                      "%s", e->size_note);
        bench_plan_free(p);
    }
}

/* --elem 16 with the default set: a 16-byte field does not fit the
 * 12-byte struct, nor at offset 4 the 16-byte one, so those two aos specs
 * are left out, named in the plan's note; field 8 of a 32-byte struct
 * stays (8 + 16 <= 32). Named, the same spec is still an error. */
Test(bench_plan, an_elem_the_default_aos_specs_cannot_hold_leaves_them_out)
{
    bench_limits l = limits(32 * MiB, 4 * GiB, 16 * GiB, 4096);
    bench_plan_opts o = { .elem = 16, .size = 16 * MiB };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    int aos = 0;
    for (size_t i = 0; i < p->n; i++)
        if (!strncmp(p->items[i].spec, "aos:", 4)) {
            cr_expect_str_eq(p->items[i].spec, "aos:struct=32,field=8,elem=16");
            aos++;
        }
    cr_expect_eq(aos, 1);
    cr_assert_not_null(p->note);
    cr_expect(strstr(p->note, "not in the default set at --elem 16: aos:struct=12,field=0,elem=16, "
                              "aos:struct=16,field=4,elem=16 (") != NULL, "%s", p->note);
    bench_plan_free(p);
    const char *specs[] = { "aos:struct=12,field=0" };
    bench_plan_opts named = { .elem = 16, .size = 16 * MiB, .specs = specs, .nspecs = 1 };
    cr_expect_eq(bench_plan_make(&named, &geo8, &l, &p, &err), BW_E_USAGE);
    cr_expect(strstr(bw_error_text(&err), "struct=12 is smaller than the element") != NULL, "%s", bw_error_text(&err));
    bw_error_clear(&err);
}

/* ---- the kernel-family table (bench_family.h) ---- */

/* Every catalogue family's kernel has its entry, found by name, and the
 * entries say what each kernel family is: gather shares the plan's
 * program in every access mode; bank reads local memory only and has no
 * modeled traffic; transpose and record copy only and size n; record
 * stores one 4-byte fold per work-item. */
Test(bench_plan, every_kernel_family_has_its_entry)
{
    size_t nfam = 0;
    const model_pattern_family *fams = model_pattern_families(&nfam);
    for (size_t i = 0; i < nfam; i++) {
        const bench_family *f = bench_family_of(fams[i].kernel);
        cr_assert_not_null(f, "%s: no entry for kernel '%s'", fams[i].name, fams[i].kernel);
        cr_expect_str_eq(f->kernel, fams[i].kernel);
        cr_expect_str_eq(f->space, fams[i].space == MODEL_PATTERN_SPACE_LOCAL ? "local" : "global", "%s",
                         fams[i].name);
    }
    cr_expect_null(bench_family_of("no-such-kernel"));
    const unsigned copy = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY), read = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    cr_expect_eq(bench_family_gather.access, 0u);
    cr_expect_null(bench_family_gather.program, "the shared gather program");
    cr_expect_null(bench_family_gather.no_twin);
    cr_expect_eq(bench_family_bank.access, read);
    cr_expect_not(bench_family_bank.modeled);
    cr_expect_eq(bench_family_transpose.access, copy);
    cr_expect_eq(bench_family_record.access, copy);
    cr_expect(bench_family_transpose.sized_n && bench_family_record.sized_n);
    cr_expect_not(bench_family_gather.sized_n || bench_family_bank.sized_n);
    const bench_family *own[] = { &bench_family_bank, &bench_family_transpose, &bench_family_record };
    for (size_t i = 0; i < 3; i++) {
        cr_expect_not_null(own[i]->program, "%s", own[i]->kernel);
        cr_expect_not_null(own[i]->no_twin, "%s", own[i]->kernel);
    }
}

/* Items take their family from the catalogue (an --expr: gather), n given
 * or not is read by key (auto_n), and the record family's reference and
 * destination come from its entry: 512 uchar records of 6 fields (n
 * given) add record:fields=6,type=uchar,layout=soa,n=512, and store
 * 512 x 4 B of folds, not 512 x 1 B; the expression adds seq. */
Test(bench_plan, items_go_through_their_family_entry)
{
    bench_limits lim = limits(1 << 20, 1 << 30, 4ull << 30, 1024);
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(plan("record:fields=6,type=uchar,n=512", "4*g", 4 << 20, 0, &lim, &p, &err), BW_OK, "%s",
                 bw_error_text(&err));
    cr_assert_eq(p->n, 4, "the record, the expression, the added soa form and seq");
    const bench_item *rec = item(p, "record:fields=6,type=uchar,layout=aos,n=512");
    const bench_item *ex = item(p, "expr:4 * g");
    const bench_item *soa = item(p, "record:fields=6,type=uchar,layout=soa,n=512");
    cr_expect_eq(rec->fam, &bench_family_record);
    cr_expect_eq(ex->fam, &bench_family_gather);
    cr_expect_not(rec->auto_n, "n was given");
    cr_expect(soa->added_as_reference);
    cr_expect(bench_family_is_reference(soa));
    cr_expect_not(bench_family_is_reference(rec));
    cr_expect_not(bench_plan_is_seq_reference(soa), "a soa form is no seq");
    cr_expect_eq(rec->elem, 1);
    cr_expect_eq(bench_family_dst_bytes(rec), 512 * 4);
    cr_expect_eq(bench_plan_reference(p, 0), 2);
    cr_expect_str_eq(p->items[3].spec, "seq");
    cr_expect_eq(bench_plan_reference(p, 1), 3);
    cr_expect(bench_plan_is_seq_reference(&p->items[3]));
    bench_plan_free(p);
    /* without n: sized from the working set */
    cr_assert_eq(plan("record:fields=3", NULL, 4 << 20, 0, &lim, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect(p->items[0].auto_n);
    cr_expect_eq(p->items[0].fam, &bench_family_record);
    bench_plan_free(p);
}

/* The second kernel form a CPU run builds for each gather pattern
 * (bench_item.alt_form), worked by hand from the addresses at W = 8,
 * E = 4 (a warp's bytes: 32):
 * - seq, offset:bytes=4, one-lane: lanes at consecutive elements: none;
 * - reverse, lane t at 4 (8w + 7 - t): within 28 bytes of the lowest: warp;
 * - broadcast, every lane at 32w: within 0: warp;
 * - permute:seed=3: the warp's 8 elements in another order: warp;
 * - 4*(g ^ 9): pairs swapped, in the neighbouring warp's elements: warp;
 * - 4*(g + t/4): lanes at 0, 4, 8, 12, 20, 24, 28, 32: 32 bytes from the
 *   lowest, one warp's bytes and no less: scalar;
 * - stride:s=2 (56 bytes) and aos:struct=12,field=0 (84): scalar;
 * - reverse with a work-group of 12 work-items (not whole warps): scalar. */
/* The warp form's work-group (bench_item_warp_group), at W = 8: 64
 * work-items (warps) where the kernel allows 64, the launch's warps are a
 * multiple of 64 and 64 * 8 = 512 items a multiple of local_size; else
 * local_size / 8. Worked by hand:
 * - local 256, 2^20 items, K 1: 131072 warps, 512 % 256 = 0: 64;
 * - the same with the kernel's limit unknown (0) or 32: 32;
 * - 768 items: 96 warps, not a multiple of 64: 32;
 * - local 1024: 512 items is not a multiple of 1024: 128;
 * - 8192 items at K 16: 64 warps a launch: 64; 4096 at K 16: 32 warps: 32;
 * - local 64 and 2^20 items at K 4: 32768 warps: 64 (8 warps a group before). */
Test(bench_plan, the_warp_form_groups_64_warps_where_they_divide)
{
    static const struct {
        int64_t local, items, kmax;
        int k;
        int64_t want;
    } cases[] = {
        { 256, 1 << 20, 4096, 1, 64 }, { 256, 1 << 20, 0, 1, 32 },  { 256, 1 << 20, 32, 1, 32 },
        { 256, 768, 4096, 1, 32 },     { 1024, 1 << 20, 4096, 1, 128 }, { 256, 8192, 4096, 16, 64 },
        { 256, 4096, 4096, 16, 32 },   { 64, 1 << 20, 4096, 4, 64 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        bench_item it;
        memset(&it, 0, sizeof it);
        it.local_size = cases[k].local;
        it.items = cases[k].items;
        it.unroll = cases[k].k;
        it.warp_kernel_max = cases[k].kmax;
        cr_expect_eq(bench_item_warp_group(&it, 8), cases[k].want, "case %zu: %lld", k,
                     (long long)bench_item_warp_group(&it, 8));
    }
}

Test(bench_plan, each_gather_pattern_gets_the_form_its_warps_allow)
{
    bench_limits l = limits(0, 4 * GiB, 16 * GiB, 4096);
    const char *specs[] = { "seq", "offset:bytes=4", "one-lane", "reverse", "broadcast", "permute:seed=3",
                            "stride:s=2", "aos:struct=12,field=0" };
    const char *exprs[] = { "4*(g ^ 9)", "4*(g + t/4)" };
    const int want[] = { -1, -1, -1, BENCH_FORM_WARP, BENCH_FORM_WARP, BENCH_FORM_WARP, BENCH_FORM_SCALAR,
                         BENCH_FORM_SCALAR, BENCH_FORM_WARP, BENCH_FORM_SCALAR };
    bench_plan_opts o = { .specs = specs, .nspecs = 8, .exprs = exprs, .nexprs = 2, .size = 4 * MiB,
                          .scalar_form = 1 };
    bench_plan *p = NULL;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(bench_plan_make(&o, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_assert_eq(p->n, 10);
    for (size_t i = 0; i < p->n; i++) {
        const bench_item *it = &p->items[i];
        cr_expect_eq(it->scalar_form, want[i] >= 0, "%s", it->spec);
        if (want[i] >= 0)
            cr_expect_eq(it->alt_form, want[i], "%s: form %d", it->spec, it->alt_form);
    }
    bench_plan_free(p);

    /* a work-group that is not whole warps: the warp form cannot split it */
    const char *rev[] = { "reverse" };
    bench_plan_opts o12 = { .specs = rev, .nspecs = 1, .size = 4 * MiB, .scalar_form = 1, .local_size = 12 };
    bw_code rc = bench_plan_make(&o12, &geo8, &l, &p, &err);
    if (rc == BW_OK) {
        cr_expect_eq(p->items[0].alt_form, BENCH_FORM_SCALAR);
        bench_plan_free(p);
    } else {
        cr_expect_eq(rc, BW_E_USAGE, "%s", bw_error_text(&err));
        bw_error_clear(&err);
    }
    /* and GPUs (no scalar_form) build the plain form alone */
    bench_plan_opts gpu = { .specs = rev, .nspecs = 1, .size = 4 * MiB };
    cr_assert_eq(bench_plan_make(&gpu, &geo8, &l, &p, &err), BW_OK, "%s", bw_error_text(&err));
    cr_expect_eq(p->items[0].scalar_form, 0);
    bench_plan_free(p);
}
