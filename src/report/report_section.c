/* report_section: the table of the run table's family entries, their
 * lookup by kernel family or pattern family (report_section.h), and the
 * gather families' entry, which adds no section of its own. */
#include "report_section.h"

#include <string.h>

#include "model_pattern.h"

const report_section report_section_gather = {
    .kernel = MODEL_PATTERN_KERNEL_GATHER,
    .gather_index = 1,
};

const report_section *const report_section_table[REPORT_SECTIONS] = {
    &report_section_gather,
    &report_section_bank,
    &report_section_transpose,
    &report_section_record,
};

const report_section *report_section_of_kernel(const char *kernel)
{
    for (size_t f = 0; kernel && f < REPORT_SECTIONS; f++)
        if (!strcmp(report_section_table[f]->kernel, kernel))
            return report_section_table[f];
    return &report_section_gather;
}

const report_section *report_section_of_family(const char *family)
{
    const model_pattern_family *f = family ? model_pattern_family_find(family) : NULL;
    return report_section_of_kernel(f ? f->kernel : NULL);
}
