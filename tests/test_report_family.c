/* A kernel family's entries beside the catalogue's: every family the
 * model's catalogue names reaches, by the same key, a bench entry
 * (bench_family.h, whose doc_keys writes the family's own keys of the
 * run's document) and a report entry (report_section.h, its place in the
 * run's table), and the entries agree on which families stand apart. */
#include <criterion/criterion.h>
#include <string.h>

#include "bench_family.h"
#include "model_pattern.h"
#include "report_figure_kit.h"
#include "report_figures.h"
#include "report_section.h"

Test(report_family, every_catalogue_family_reaches_the_entries_of_its_kernel)
{
    size_t n = 0;
    const model_pattern_family *fams = model_pattern_families(&n);
    cr_assert(n > 10);
    for (size_t i = 0; i < n; i++) {
        const bench_family *bf = bench_family_of(fams[i].kernel);
        cr_assert_not_null(bf, "%s: no bench entry for kernel %s", fams[i].name, fams[i].kernel);
        cr_expect_str_eq(report_section_of_kernel(fams[i].kernel)->kernel, fams[i].kernel, "%s", fams[i].name);
        /* a result reaches the same entry from its pattern family's name */
        cr_expect_eq(report_section_of_family(fams[i].name), report_section_of_kernel(fams[i].kernel), "%s",
                     fams[i].name);
    }
    /* the table holds each kernel once */
    for (size_t a = 0; a < REPORT_SECTIONS; a++)
        for (size_t b = a + 1; b < REPORT_SECTIONS; b++)
            cr_expect_str_neq(report_section_table[a]->kernel, report_section_table[b]->kernel);
    /* an expression, or a name the catalogue does not hold, runs the gather kernel */
    cr_expect_eq(report_section_of_family("expr"), &report_section_gather);
    cr_expect_eq(report_section_of_family(NULL), &report_section_gather);
}

Test(report_family, the_families_with_a_kernel_of_their_own_stand_apart)
{
    cr_expect_not(report_section_gather.apart);
    cr_expect_null(report_section_gather.rows);
    cr_expect(report_section_gather.gather_index);
    cr_expect_null(bench_family_of(MODEL_PATTERN_KERNEL_GATHER)->doc_keys);
    const report_section *own[] = { &report_section_bank, &report_section_transpose, &report_section_record };
    for (size_t i = 0; i < 3; i++) {
        const bench_family *bf = bench_family_of(own[i]->kernel);
        cr_expect(own[i]->apart, "%s", own[i]->kernel);
        cr_expect_not_null(own[i]->rows, "%s", own[i]->kernel);
        cr_expect_not_null(bf->doc_keys, "%s", own[i]->kernel);
        /* the document writer's notion of apart (a family with an access
         * mode of its own) is the table's */
        cr_expect_neq(bf->access, 0u, "%s", own[i]->kernel);
    }
    cr_expect_eq(bench_family_of(MODEL_PATTERN_KERNEL_GATHER)->access, 0u);
    /* bank.cl's index arithmetic is its own; transposes and records take --index */
    cr_expect_not(report_section_bank.gather_index);
    cr_expect(report_section_transpose.gather_index && report_section_record.gather_index);
}

/* A family's chart is its entry's: the bank entry gives the bank-conflict
 * figure, and the report's figures take it from there, between its own
 * global figures (stride, model, ramp, roofline) and the probe's (cache,
 * latency, transfers); no other entry gives one. */
Test(report_family, a_familys_chart_comes_from_its_entry)
{
    cr_assert_not_null(report_section_bank.figure);
    cr_expect_str_eq(report_section_bank.figure->id, "bank");
    cr_expect_null(report_section_gather.figure);
    cr_expect_null(report_section_transpose.figure);
    cr_expect_null(report_section_record.figure);
    results_merged m;
    memset(&m, 0, sizeof m);
    report_figure *figs = NULL;
    size_t n = 0;
    bw_error err = BW_ERROR_INIT;
    cr_assert_eq(report_figures_build(&m, &figs, &n, &err), BW_OK, "%s", bw_error_text(&err));
    static const char *const ids[] = { "stride", "model", "ramp", "roofline", "bank", "cache", "latency",
                                       "transfers" };
    cr_assert_eq(n, sizeof ids / sizeof ids[0]);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(figs[i].id, ids[i]);
    cr_expect_eq(figs[4].id, report_section_bank.figure->id, "the entry's own id, not a copy of it");
    cr_expect(figs[4].n_charts == 0 && figs[4].absent && strstr(figs[4].absent, "no bank items"), "%s",
              figs[4].absent ? figs[4].absent : "(no reason)");
    report_figures_free(figs, n);
}
