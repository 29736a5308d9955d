/* report_section: the report's side of a kernel family in the run's
 * table, one entry per family, reached from the same key as the model's
 * catalogue entry and the bench entry (model_pattern_family.kernel,
 * bench_family.kernel: MODEL_PATTERN_KERNEL_*): whether its rows stand
 * apart from the global table, whether its kernels' index arithmetic is
 * the gather kernels', and the section of the table that shows its rows,
 * rendered from the results document. The writers ask the entry; none of
 * them tests a family by name (docs/design.md, "Adding a family"). Each
 * entry with a section lives in its own file (report_section_bank.c,
 * _transpose.c, _record.c); the gather families' entry, which has none,
 * in report_section.c. Entries are static tables, never freed. */
#ifndef REPORT_SECTION_H
#define REPORT_SECTION_H

#include "bw_buf.h"
#include "report_run_doc.h"

typedef struct report_section {
    const char *kernel; /* MODEL_PATTERN_KERNEL_*: the key of the model's and the bench's entries */
    /* its rows only in its own section, never in the global table (bank:
     * local-memory figures, which no global column means) */
    int apart;
    /* its kernels' index arithmetic is the gather kernels' (--index): the
     * table's index line counts them */
    int gather_index;
    /* Appends its section of a run's table (md: Markdown) after the global
     * table: its rows and what their columns mean. Called only when the
     * run has results of the family; NULL: no section. */
    void (*rows)(const report_doc_run *run, int md, bw_buf *out);
    /* its figure in the HTML report, after the report's global figures
     * (report_figures_build; report_figure_kit.h), or NULL */
    const struct report_figure_def *figure;
} report_section;

extern const report_section report_section_gather, report_section_bank, report_section_transpose,
    report_section_record;

/* Every entry, in the order the run's table shows their sections. */
#define REPORT_SECTIONS 4
extern const report_section *const report_section_table[REPORT_SECTIONS];

/* The entry of a kernel family's key; the gather entry for a kernel
 * family without one of its own. */
const report_section *report_section_of_kernel(const char *kernel);
/* The entry of a result's pattern family ("family": the catalogue's name;
 * an expression or a family the catalogue does not hold runs the gather
 * kernel). */
const report_section *report_section_of_family(const char *family);

#endif
