/* report_family: the table of the report's family entries and their
 * lookup by the kernel family's key (report_family.h); the gather
 * families' entry, which adds nothing to the global table's rows. */
#include "report_family.h"

#include <string.h>

#include "bench_family.h"
#include "model_pattern.h"

const report_family report_family_gather = {
    .kernel = MODEL_PATTERN_KERNEL_GATHER,
    .section = &report_section_gather,
};

const report_family *const report_family_table[REPORT_FAMILIES] = {
    &report_family_gather,
    &report_family_bank,
    &report_family_transpose,
    &report_family_record,
};

const report_family *report_family_of(const bench_item *it)
{
    for (size_t f = 0; f < REPORT_FAMILIES; f++)
        if (!strcmp(report_family_table[f]->kernel, it->fam->kernel))
            return report_family_table[f];
    return &report_family_gather;
}

int report_family_has(const bench_plan *plan, const report_family *f)
{
    for (size_t i = 0; i < plan->n; i++)
        if (report_family_of(&plan->items[i]) == f)
            return 1;
    return 0;
}
