/* libFuzzer target: the results-file reader of bwlab compare and bwlab
 * report (src/report/report_merge.c; tests/fuzz/README.md). The input is
 * one file:
 * a results document (docs/results.md) or, when it begins with '#', the
 * rest as an OUT.partial journal (JSON lines). It is written to a private
 * temporary directory and loaded with report_load_paths, then every
 * compare format is produced and a baseline set. Checks (abort() on a
 * violation): a failure has a message; the loader returns its object
 * whatever the input; every entry's row and device are in range; the JSON
 * output parses. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_compare.h"
#include "report_merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_results: " __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

static char dir[64];

static void cleanup(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/in.json", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/OUT.partial", dir);
    unlink(p);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", "/tmp/bwlab-fuzz-results-XXXXXX");
        if (!mkdtemp(dir))
            FAIL("mkdtemp failed");
        atexit(cleanup);
    }
    int journal = size > 0 && data[0] == '#';
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, journal ? "OUT.partial" : "in.json");
    FILE *f = fopen(path, "wb");
    if (!f)
        FAIL("cannot write %s", path);
    if (size > (size_t)journal)
        fwrite(data + journal, 1, size - (size_t)journal, f);
    fclose(f);

    const char *paths[] = { path };
    report_merged *m = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = report_load_paths(paths, 1, &m, &err);
    if (rc != BW_OK && rc != BW_E_FORMAT && rc != BW_E_IO)
        FAIL("unexpected code %d: %s", (int)rc, bw_error_text(&err));
    if (rc != BW_OK && bw_error_text(&err)[0] == '\0')
        FAIL("failure (code %d) without a message", (int)rc);
    bw_error_clear(&err);
    if (m) {
        for (size_t i = 0; i < m->n_diags; i++)
            if (!m->diags[i].message || !m->diags[i].message[0])
                FAIL("a diagnostic without a message");
        for (size_t r = 0; r < m->n_rows; r++)
            for (size_t d = 0; d < m->n_devices; d++)
                (void)report_merged_entry(m, r, d);
        if (rc == BW_OK) {
            char *argv[] = { "bwlab", "compare", path, NULL };
            report_compare_opts o = { NULL, 3, argv, "2026-01-01T00:00:00Z" };
            bw_buf out = BW_BUF_INIT;
            report_compare_table(m, &o, &out);
            report_compare_markdown(m, &o, &out);
            report_compare_csv(m, &o, &out);
            bw_buf_free(&out);
            if (report_compare_json(m, &o, &out, &err) == BW_OK) {
                json_error_t je;
                json_t *j = json_loads(bw_buf_str(&out), 0, &je);
                if (!j)
                    FAIL("compare JSON does not parse: %s", je.text);
                json_decref(j);
            }
            bw_error_clear(&err);
            bw_buf_free(&out);
            if (m->n_devices > 0 && report_merge_set_baseline(m, "0", &err) != BW_OK)
                bw_error_clear(&err);
            o.mode = "read";
            report_compare_table(m, &o, &out);
            bw_buf_free(&out);
        }
        report_merged_free(m);
    }
    return 0;
}
