/* Local-memory bank conflicts (docs/design.md §2.2), hand-worked and against an
 * O(n^2) reference. */
#include <criterion/criterion.h>

#include "model_bank.h"
#include "model_expr.h"
#include "test_util.h"
#include "model_lanes_priv.h"

static const model_geometry nvidia = { 32, 32, 128, 32, 4, 0 };

static model_bank ways_of(const model_geometry *g, const char *src, model_lanes act)
{
    model_expr *e = NULL;
    cr_assert_eq(model_expr_parse(src, &e, NULL), BW_OK, "%s", src);
    int64_t addr[MODEL_MAX_LANES];
    for (int t = 0; t < g->lanes; t++) {
        model_expr_env env = { t, 0, t, g->lanes };
        cr_assert_eq(model_expr_eval(e, &env, &addr[t], NULL), BW_OK);
    }
    model_bank b;
    model_bank_count(g, addr, &act, &b);
    model_expr_free(e);
    return b;
}

Test(model_bank, worked_examples)
{
    model_lanes all = model_lanes_all(32);
    /* column of a 32x32 float tile: every lane in bank 0, 32 different words */
    model_bank b = ways_of(&nvidia, "128*t", all);
    cr_expect_eq(b.applicable, 1);
    cr_expect_eq(b.conflict_ways, 32);
    cr_expect_eq(b.banks, 32);
    cr_expect_eq(b.bank_width, 4);
    /* padding the row to 33 words puts lane t in bank t */
    cr_expect_eq(ways_of(&nvidia, "132*t", all).conflict_ways, 1);
    cr_expect_eq(ways_of(&nvidia, "4*t", all).conflict_ways, 1);
    /* stride 2 words: lanes t and t+16 share a bank */
    cr_expect_eq(ways_of(&nvidia, "8*t", all).conflict_ways, 2);
    /* stride 16 words: banks 0 and 16 only, 16 words each */
    cr_expect_eq(ways_of(&nvidia, "64*t", all).conflict_ways, 16);
    /* broadcast: one word, one cycle */
    cr_expect_eq(ways_of(&nvidia, "20", all).conflict_ways, 1);
    /* pairs of lanes share a word: 16 words in 16 banks */
    cr_expect_eq(ways_of(&nvidia, "4*(t/2)", all).conflict_ways, 1);
    /* lanes 0,1 read word 0, lane 2 reads word 32: bank 0 serves 2 words */
    cr_expect_eq(ways_of(&nvidia, "t < 2 ? 0 : 128", model_lanes_first(32, 3)).conflict_ways, 2);
    /* bytes of one word count as that word */
    cr_expect_eq(ways_of(&nvidia, "t % 4", all).conflict_ways, 1);
    /* a negative word floors: byte -4 is word -1, bank 31, same as word 31 */
    cr_expect_eq(ways_of(&nvidia, "t == 0 ? -4 : 124", model_lanes_first(32, 2)).conflict_ways, 2);
    /* 16 banks (intel-xe): stride 4 words hits 4 banks, 8 lanes each of 32 */
    const model_geometry xe = { 32, 64, 64, 16, 4, 0 };
    cr_expect_eq(ways_of(&xe, "16*t", all).conflict_ways, 8);
}

Test(model_bank, not_applicable)
{
    const model_geometry cpu = { 8, 64, 64, 0, 4, 0 };
    model_bank b = ways_of(&cpu, "128*t", model_lanes_all(8));
    cr_expect_eq(b.applicable, 0);
    b = ways_of(&nvidia, "128*t", model_lanes_first(32, 0));
    cr_expect_eq(b.applicable, 0);
}

Test(model_bank, matches_reference)
{
    uint64_t st = 4242;
    for (int i = 0; i < 3000; i++) {
        model_geometry g = nvidia;
        g.lanes = (int)tu_range(&st, 1, 64);
        g.banks = (int)tu_range(&st, 1, 40);
        g.bank_width = tu_range(&st, 1, 8);
        int64_t addr[MODEL_MAX_LANES];
        model_lanes act = model_lanes_first(g.lanes, 0);
        for (int t = 0; t < g.lanes; t++) {
            addr[t] = tu_range(&st, -500, tu_range(&st, 0, 1) ? 200 : 20000);
            if (tu_range(&st, 0, 3))
                model_lanes_set(&act, t);
        }
        model_bank b;
        model_bank_count(&g, addr, &act, &b);
        /* reference: for each active lane, count the distinct words of its
         * bank among all active lanes */
        int want = 0;
        for (int t = 0; t < g.lanes; t++) {
            if (!model_lanes_has(&act, t))
                continue;
            int64_t wt = addr[t] >= 0 ? addr[t] / g.bank_width : -((-addr[t] + g.bank_width - 1) / g.bank_width);
            int64_t bank = ((wt % g.banks) + g.banks) % g.banks;
            int count = 0;
            for (int u = 0; u < g.lanes; u++) {
                if (!model_lanes_has(&act, u))
                    continue;
                int64_t wu = addr[u] >= 0 ? addr[u] / g.bank_width : -((-addr[u] + g.bank_width - 1) / g.bank_width);
                if (((wu % g.banks) + g.banks) % g.banks != bank)
                    continue;
                int first = 1; /* count each word once: at its first lane */
                for (int v = 0; v < u; v++) {
                    int64_t wv = addr[v] >= 0 ? addr[v] / g.bank_width : -((-addr[v] + g.bank_width - 1) / g.bank_width);
                    if (model_lanes_has(&act, v) && wv == wu)
                        first = 0;
                }
                count += first;
            }
            if (count > want)
                want = count;
        }
        if (model_lanes_count(&act) == 0) {
            cr_assert_eq(b.applicable, 0);
            continue;
        }
        cr_assert_eq(b.applicable, 1);
        cr_assert_eq(b.conflict_ways, want, "case %d", i);
        cr_assert(b.conflict_ways >= 1);
    }
}
