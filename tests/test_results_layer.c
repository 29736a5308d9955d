/* The results layer stands on base and model alone: this test binary links
 * src/results and nothing above it (tests/meson.build gives it no bench,
 * ocl or report dependency), reads a result document and a peer file with
 * it, finds no OpenCL library in its own process, and follows every
 * #include of src/results to show none reaches bench, ocl, report or cli. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results_csv.h"
#include "results_fields.h"
#include "results_probe_fields.h"
#include "results_roofline_keys.h"
#include "results_merge.h"
#include "results_peer.h"
#include "results_run_fields.h"
#include "results_schema.h"
#include "results_tune_keys.h"
#include "test_keys.h"
#include "test_util.h"
#include "results_merge_priv.h"
#include "results_peer_priv.h"

Test(results_layer, links_without_opencl_and_reads_a_document)
{
    char found[512];
    cr_expect(!tu_loaded_library("libOpenCL", found, sizeof found), "the results layer's test loaded %s", found);
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/results/sample-amd-mi300x.json", tu_source_root());
    const char *paths[] = { path };
    results_merged *m = NULL;
    cr_assert_eq(results_load_paths(paths, 1, &m, NULL), BW_OK);
    cr_assert_eq(m->n_devices, 1);
    /* the sample's first rows, read by hand from the file: seq copy 4000 GB/s */
    cr_assert_str_eq(m->rows[0].pattern, "seq");
    cr_assert_str_eq(m->rows[0].access, "copy");
    const results_merge_entry *e = results_merged_entry(m, 0, 0);
    cr_assert(e);
    cr_expect_float_eq(e->effective_gbs, 4000.0, 1e-9);
    results_merged_free(m);
}

Test(results_layer, reads_a_babelstream_file)
{
    static const char csv[] = "function,num_times,n_elements,sizeof,max_mbytes_per_sec,min_runtime,max_runtime,"
                              "avg_runtime\nCopy,100,33554432,8,181234.5,0.0029623,0.00355476,0.00311041\n";
    results_peer_file *f = NULL;
    cr_assert_eq(results_peer_read(csv, sizeof csv - 1, "b.csv", &f, NULL), BW_OK);
    cr_assert(f);
    cr_expect_eq(f->format, RESULTS_PEER_BABELSTREAM_CSV);
    cr_assert_eq(f->n_figures, 1);
    /* 181234.5 MB/s is 181.2345 GB/s; Copy touches two arrays of 2^25 doubles */
    cr_expect_float_eq(f->figures[0].value, 181.2345, 1e-9);
    cr_expect_eq(f->figures[0].unit, RESULTS_PEER_GBS);
    cr_expect_eq(f->figures[0].buffer_bytes, (uint64_t)2 * 33554432 * 8);
    results_peer_file_free(f);
}

Test(results_layer, includes_nothing_above_base_and_model)
{
    static const char *const dirs[] = { "src/results", "src/results/include", "src/model", "src/model/include",
                                        "src/base" };
    static const char *const above[] = { "bench_", "ocl_", "report_", "cli_", "CL/" };
    tu_layer_includes_nothing_of("src/results", dirs, 5, above, 5);
    tu_layer_includes_nothing_of("src/results/include", dirs, 5, above, 5);
}

/* The kind column ("measured", "modeled" or empty) of the row of the
 * results[] table whose first cell names `key` (a cell may name several:
 * "`items`, `local_size`"), into kind; 0 when no row names it. */
static int doc_row(const char *sec, const char *key, char *kind, size_t n)
{
    char want[128];
    snprintf(want, sizeof want, "`%s`", key);
    for (const char *line = sec; (line = strstr(line, "\n| ")); line++) {
        const char *cell = line + 3, *bar = strstr(cell, " |");
        if (!bar)
            break;
        const char *hit = strstr(cell, want);
        if (!hit || hit > bar)
            continue;
        const char *k = bar + 2, *end = strstr(k, "|");
        while (k < end && *k == ' ')
            k++;
        size_t len = 0;
        while (k + len < end && k[len] != ' ')
            len++;
        snprintf(kind, n, "%.*s", (int)len, k);
        return 1;
    }
    return 0;
}

/* Every key of the field table has a row in docs/results.md's results[]
 * table, and the row's kind column says "measured" for the table's
 * measured figures. */
Test(results_layer, every_field_of_the_table_has_its_row_in_the_docs)
{
    char *sec = tu_results_doc_section("\n## `results[]`");
    for (size_t i = 0; i < RF_COUNT; i++) {
        const results_field *fd = &RESULTS_FIELDS[i];
        char kind[32] = "";
        int found = doc_row(sec, fd->key, kind, sizeof kind);
        cr_expect(found, "docs/results.md's results[] table has no row for '%s'", fd->key);
        if (found && fd->measured)
            cr_expect_str_eq(kind, "measured", "'%s' is a measured figure: its row's kind is '%s'", fd->key, kind);
    }
    free(sec);
}

/* Every runs[] key of the run table has a row in docs/results.md's runs[]
 * table, and the row of a measured figure says so. Every other key of the
 * table (the document's, and those of the objects nested in runs[] and
 * results[]) is named in the sections on the run document. */
Test(results_layer, every_runs_key_of_the_table_has_its_row_in_the_docs)
{
    char *sec = tu_results_doc_section("\n## `runs[]`");
    for (size_t i = 0; i < RUNF_COUNT; i++) {
        const results_doc_key *fd = &RESULTS_RUN_FIELDS[i];
        if (strncmp(fd->where, "run", 3))
            continue; /* a key of the document or of a nested object: below */
        char want[128];
        snprintf(want, sizeof want, "`%s`", fd->key);
        /* the row whose first cell names the key (a cell may name several) */
        const char *row = NULL;
        for (const char *line = sec; !row && (line = strstr(line, "\n| ")); line++) {
            const char *bar = strstr(line + 3, " |"), *hit = strstr(line + 3, want);
            if (bar && hit && hit < bar)
                row = line + 1;
        }
        cr_expect(row != NULL, "docs/results.md's runs[] table has no row for '%s'", fd->key);
        if (row && fd->kind && !strcmp(fd->kind, "measured")) {
            const char *eol = strchr(row, '\n');
            size_t len = eol ? (size_t)(eol - row) : strlen(row);
            char *line = strndup(row, len);
            cr_expect(strstr(line, "measured") != NULL, "'%s' is a measured figure: its row does not say so",
                      fd->key);
            free(line);
        }
    }
    free(sec);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* 1 when key stands as a whole word inside a `...` span of text */
static int in_code_span(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *open = strchr(text, '`'); open; open = strchr(open + 1, '`')) {
        const char *close = strchr(open + 1, '`');
        if (!close)
            return 0;
        for (const char *p = open + 1; p + n <= close; p++)
            if (!strncmp(p, key, n) && !word_char(p[-1]) && !word_char(p[n]))
                return 1;
        open = close;
    }
    return 0;
}

Test(results_layer, every_other_key_of_the_run_table_is_in_the_docs)
{
    static const char *const heads[] = { "\n## Top level", "\n## `runs[]`", "\n## `results[]`" };
    char *sec[3];
    for (size_t s = 0; s < 3; s++)
        sec[s] = tu_results_doc_section(heads[s]);
    size_t checked = 0;
    for (size_t i = 0; i < RUNF_COUNT; i++) {
        const results_doc_key *fd = &RESULTS_RUN_FIELDS[i];
        if (!strncmp(fd->where, "run", 3))
            continue;
        int found = 0;
        for (size_t s = 0; s < 3 && !found; s++)
            found = in_code_span(sec[s], fd->key);
        cr_expect(found, "docs/results.md names '%s' (%s) nowhere in its run document's sections", fd->key,
                  fd->where);
        checked++;
    }
    cr_expect_gt(checked, 80, "only %zu keys below runs[]'s own", checked);
    for (size_t s = 0; s < 3; s++)
        free(sec[s]);
}

/* docs/results.md's CSV header is the column table's, name for name */
Test(results_layer, the_docs_csv_header_is_the_column_table)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", tu_source_root(), "docs/results.md");
    FILE *f = fopen(path, "r");
    cr_assert(f);
    static char doc[1 << 20];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    const char *sec = strstr(doc, "\n## CSV and Markdown");
    cr_assert(sec);
    const char *open = strstr(sec, "with the header\n`");
    cr_assert(open, "the CSV section names no header");
    open += strlen("with the header\n`");
    const char *close = strchr(open, '`');
    cr_assert(close);
    /* the names as the docs list them, whitespace folded */
    char listed[4096] = "";
    size_t l = 0;
    for (const char *c = open; c < close && l + 1 < sizeof listed; c++)
        if (*c != ' ' && *c != '\n')
            listed[l++] = *c;
    listed[l] = '\0';
    bw_buf b = BW_BUF_INIT;
    results_csv_header(&b);
    char want[4096];
    snprintf(want, sizeof want, "%s", bw_buf_str(&b));
    want[strcspn(want, "\n")] = '\0';
    cr_expect_str_eq(listed, want);
    bw_buf_free(&b);
}


/* Every key of the tune, roofline and probe tables, and of the timing
 * object they share, is named in its section of docs/results.md. */
Test(results_layer, every_key_of_the_document_tables_is_in_the_docs)
{
    const tu_key_table timing = { RESULTS_TIMING_KEYS, RTIME_N };
    tu_expect_keys_documented("## `bwlab tune`", (tu_key_table[]){ { RESULTS_TUNE_KEYS, RT_COUNT }, timing }, 2);
    tu_expect_keys_documented("## `bwlab roofline`", (tu_key_table[]){ { RESULTS_ROOFLINE_KEYS, RR_COUNT }, timing },
                              2);
    tu_expect_keys_documented("## `bwlab probe`", (tu_key_table[]){ { RESULTS_PROBE_FIELDS, RP_COUNT } }, 1);
}
