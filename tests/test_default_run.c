/* default_run: the first run a new user makes — the default pattern set at
 * the default budget, with PoCL's kernel cache empty — measures every
 * default pattern and ends within its budget: compiling is planned beside
 * the timing rounds, and rounds are cut before a pattern is left out. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

/* entries in dir, other than . and .. */
static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open '%s'", dir);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

Test(default_run, the_first_run_from_an_empty_kernel_cache_measures_every_default_pattern, .timeout = 600)
{
    if (getenv("BWLAB_TEST_QUICK"))
        cr_skip("the sanitizer pass (BWLAB_TEST_QUICK): a full default run under ASan does not fit its budget by "
                "design; the plain pass runs it");
    char *cache = tu_temp_dir();
    cr_assert_eq(entries(cache), 0);
    char env[4200];
    snprintf(env, sizeof env, "POCL_CACHE_DIR=%s", cache);
    const char *argv[] = { "run", "--device", "cpu", "--format", "json", NULL };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tu_result r = tu_exec(argv, (const char *[]){ env, NULL });
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect_gt(entries(cache), 0, "PoCL wrote no kernel to its cache: the run did not start from an empty one");
    json_error_t je;
    json_t *doc = json_loads(r.out, 0, &je);
    cr_assert_not_null(doc, "%s: %s", je.text, r.out);
    json_t *rows = json_object_get(doc, "results");
    size_t ok = 0, n = json_array_size(rows), i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const char *st = json_string_value(json_object_get(row, "status"));
        ok += st && !strcmp(st, "ok");
        cr_expect(st && !strcmp(st, "ok"), "%s (%s): %s: %s", json_string_value(json_object_get(row, "pattern")),
                  json_string_value(json_object_get(row, "access")), st ? st : "(none)",
                  json_string_value(json_object_get(row, "budget_note")));
    }
    /* every planned row is in the results, a left-out one as not-run: the
     * default set is several families in three modes */
    cr_expect_gt(n, 40, "the default set has %zu rows", n);
    json_t *timing = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "timing");
    cr_expect_eq(json_array_size(json_object_get(timing, "left_out")), 0);
    double budget = json_number_value(json_object_get(json_object_get(doc, "settings"), "budget_s"));
    cr_expect_gt(budget, 0);
    /* the budget is the whole run's: process start and the final write are
     * the only time outside it */
    cr_expect_leq(wall, budget * 1.1, "%.1f s for a %.0f s budget, %zu of %zu rows measured", wall, budget, ok, n);
    json_decref(doc);
    tu_result_free(&r);
    tu_rmdir(cache);
    free(cache);
}
