/* report_family: the report's side of a kernel family, one entry per
 * family, reached from the same key as the model's catalogue entry and the
 * bench entry (model_pattern_family.kernel, bench_family.kernel:
 * MODEL_PATTERN_KERNEL_*): whether its rows stand apart from the run's
 * global table, the section of the table that shows them, and the keys of
 * its own on a result in the JSON document. The writers ask the entry;
 * none of them tests a family by name (docs/design.md, "Adding a family").
 * Each entry with figures of its own lives in its own file: report_bank.c,
 * report_transpose.c, report_record.c; the gather families' entry, which
 * has none, in report_family.c. Entries are static tables, never freed. */
#ifndef REPORT_FAMILY_H
#define REPORT_FAMILY_H

#include <jansson.h>
#include <stddef.h>

#include "bench_plan.h"
#include "bw_buf.h"
#include "report_results.h"

typedef struct report_family {
    const char *kernel; /* MODEL_PATTERN_KERNEL_*: the key of the model's and the bench's entries */
    /* its rows only in its own section, never in the global table (bank:
     * local-memory figures, which no global column means) */
    int apart;
    /* its kernels' index arithmetic is the gather kernels' (--index): the
     * table's index line counts them */
    int gather_index;
    /* Appends its section of a run's table (md: Markdown) after the global
     * table: its rows and what their columns mean. Called only when the
     * run's plan has items of the family; NULL: no section. */
    void (*section)(const report_run *run, int md, bw_buf *out);
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
