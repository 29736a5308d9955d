/* report_family: the run document's side of a kernel family, one entry
 * per family, reached from the same key as the model's catalogue entry and
 * the bench entry (model_pattern_family.kernel, bench_family.kernel:
 * MODEL_PATTERN_KERNEL_*): the keys of its own on a result in the JSON
 * document, and its entry of the run's table (report_section), which the
 * renderers reach from the document. The writers ask the entry; none of
 * them tests a family by name (docs/design.md, "Adding a family"). Each
 * entry with keys of its own lives in its own file: report_bank.c,
 * report_transpose.c, report_record.c; the gather families' entry, which
 * has none, in report_family.c. Entries are static tables, never freed. */
#ifndef REPORT_FAMILY_H
#define REPORT_FAMILY_H

#include <jansson.h>
#include <stddef.h>

#include "bench_plan.h"
#include "bw_buf.h"
#include "report_results.h"
#include "report_section.h"

typedef struct report_family {
    const char *kernel; /* MODEL_PATTERN_KERNEL_*: the key of the model's and the bench's entries */
    /* its entry of the run's table, rendered from the document: whether
     * its rows stand apart, its index arithmetic, its section */
    const report_section *section;
    /* Sets the keys of its own on result object o of the run's item i
     * (docs/results.md, results[]); NULL: none. */
    void (*json)(json_t *o, const report_run *run, size_t i);
} report_family;

extern const report_family report_family_gather, report_family_bank, report_family_transpose,
    report_family_record;

/* Every entry, in the order the run's table shows their sections. */
#define REPORT_FAMILIES 4
extern const report_family *const report_family_table[REPORT_FAMILIES];

/* The entry of an item's kernel family (it->fam->kernel); the gather
 * entry for a kernel family without one of its own. */
const report_family *report_family_of(const bench_item *it);

/* Whether plan has items of family f. */
int report_family_has(const bench_plan *plan, const report_family *f);

#endif
