/* `bwlab compare` and `bwlab report` link no OpenCL code: this binary links
 * the report's rendering library alone (tests/meson.build gives it
 * bw_report_dep: results, model, base; no bench, no ocl), renders the
 * comparison and the HTML page of recorded result files through the very
 * calls those commands make, and finds no OpenCL library in its process. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "report_compare.h"
#include "report_html.h"
#include "results_merge.h"
#include "test_util.h"

static results_merged *load_samples(void)
{
    static char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/tests/data/results/%s", tu_source_root(), "sample-nvidia-h100.json");
    snprintf(b, sizeof b, "%s/tests/data/results/%s", tu_source_root(), "sample-amd-mi300x.json");
    const char *paths[] = { a, b };
    results_merged *m = NULL;
    cr_assert_eq(results_load_paths(paths, 2, &m, NULL), BW_OK);
    return m;
}

Test(report_link, compare_renders_without_opencl)
{
    char found[512];
    cr_expect(!tu_loaded_library("libOpenCL", found, sizeof found), "the report's rendering loaded %s", found);
    results_merged *m = load_samples();
    report_compare_opts o = { NULL, 0, NULL, "2026-01-01T00:00:00Z" };
    bw_buf b = BW_BUF_INIT;
    report_compare_table(m, &o, &b);
    /* both devices' seq copy figures, as the sample files hold them, each 1.00 of itself */
    cr_expect(strstr(bw_buf_str(&b), "3000.00 (1.00)"), "%s", bw_buf_str(&b));
    cr_expect(strstr(bw_buf_str(&b), "4000.00 (1.00)"), "%s", bw_buf_str(&b));
    bw_buf_free(&b);
    results_merged_free(m);
}

Test(report_link, the_html_report_renders_without_opencl)
{
    results_merged *m = load_samples();
    report_html_options o = { "link test", NULL, 0, NULL };
    bw_buf b = BW_BUF_INIT;
    cr_assert_eq(report_html_render(m, &o, &b, NULL), BW_OK);
    cr_expect(strstr(bw_buf_str(&b), "<svg"), "the page has its charts");
    cr_expect(strstr(bw_buf_str(&b), "link test"));
    bw_buf_free(&b);
    results_merged_free(m);
}
