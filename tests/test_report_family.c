/* The report's family entries (report_family.h): every kernel family the
 * model's catalogue names reaches an entry of its own by the same key as
 * its bench entry, and the entries say what the run's table and JSON
 * document show of each family. */
#include <criterion/criterion.h>
#include <string.h>

#include "bench_family.h"
#include "model_pattern.h"
#include "report_family.h"

/* an item of catalogue family f, as the plan makes one: fam from the bench table */
static bench_item item_of(const model_pattern_family *f)
{
    bench_item it;
    memset(&it, 0, sizeof it);
    it.fam = bench_family_of(f->kernel);
    return it;
}

Test(report_family, every_catalogue_family_reaches_the_entry_of_its_kernel)
{
    size_t n = 0;
    const model_pattern_family *fams = model_pattern_families(&n);
    cr_assert(n > 10);
    for (size_t i = 0; i < n; i++) {
        bench_item it = item_of(&fams[i]);
        cr_assert_not_null(it.fam, "%s: no bench entry for kernel %s", fams[i].name, fams[i].kernel);
        const report_family *rf = report_family_of(&it);
        cr_expect_str_eq(rf->kernel, fams[i].kernel, "%s", fams[i].name);
    }
    /* the table holds each kernel once */
    for (size_t a = 0; a < REPORT_FAMILIES; a++)
        for (size_t b = a + 1; b < REPORT_FAMILIES; b++)
            cr_expect_str_neq(report_family_table[a]->kernel, report_family_table[b]->kernel);
}

Test(report_family, the_families_with_a_kernel_of_their_own_stand_apart)
{
    cr_expect_not(report_family_gather.section->apart);
    cr_expect_null(report_family_gather.section->rows);
    cr_expect_null(report_family_gather.json);
    cr_expect(report_family_gather.section->gather_index);
    const report_family *own[] = { &report_family_bank, &report_family_transpose, &report_family_record };
    for (size_t i = 0; i < 3; i++) {
        cr_expect(own[i]->section->apart, "%s", own[i]->kernel);
        cr_expect_not_null(own[i]->section->rows, "%s", own[i]->kernel);
        cr_expect_not_null(own[i]->json, "%s", own[i]->kernel);
        /* the document's entry and the table's answer to the same key */
        cr_expect_str_eq(own[i]->section->kernel, own[i]->kernel);
        cr_expect_eq(report_section_of_kernel(own[i]->kernel), own[i]->section);
    }
    /* bank.cl's index arithmetic is its own; transposes and records take --index */
    cr_expect_not(report_family_bank.section->gather_index);
    cr_expect(report_family_transpose.section->gather_index && report_family_record.section->gather_index);
}

/* A result's pattern family reaches its kernel's section through the
 * model's catalogue; an expression, or a name the catalogue does not
 * hold, runs the gather kernel */
Test(report_family, a_result_family_reaches_its_section)
{
    size_t n = 0;
    const model_pattern_family *fams = model_pattern_families(&n);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(report_section_of_family(fams[i].name)->kernel, fams[i].kernel, "%s", fams[i].name);
    cr_expect_eq(report_section_of_family("expr"), &report_section_gather);
    cr_expect_eq(report_section_of_family(NULL), &report_section_gather);
}
