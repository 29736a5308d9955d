/* Benchmark of the launch model (not a test: timings vary run to run).
 *
 * For every catalogue pattern it times model_launch_count on a 2^26-item
 * launch (the target: well under a second each on a 2-core CI machine) and
 * the naive method on a 2^20-item launch (evaluate every lane, count each
 * warp, sort all sectors), and prints the speed-up per item measured in
 * this one run. The counts of both methods are compared at 2^20 items. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_launch.h"
#include "model_pattern.h"
#include "model_warp.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* naive reference: every lane evaluated, every warp counted, every sector sorted */
static int naive(const model_geometry *g, const model_pattern *p, int64_t items, model_traffic *t)
{
    int64_t W = g->lanes, nw = (items + W - 1) / W;
    int64_t *sec = malloc((size_t)items * 4 * sizeof *sec), ns = 0;
    if (!sec)
        return -1;
    memset(t, 0, sizeof *t);
    for (int64_t w = 0; w < nw; w++) {
        int64_t a[MODEL_MAX_LANES];
        int n = 0;
        for (int l = 0; l < W; l++) {
            int64_t gid = w * W + l;
            if (gid >= items || !model_lanes_has(&p->active, l))
                continue;
            model_expr_env env = { l, w, gid, W };
            if (model_expr_eval(p->expr, &env, &a[n], NULL) != BW_OK) {
                free(sec);
                return -1;
            }
            for (int64_t s = a[n] / g->sector; s <= (a[n] + p->elem - 1) / g->sector; s++)
                sec[ns++] = s;
            n++;
        }
        model_unit_counts u;
        model_warp_units(a, n, p->elem, g->sector, g->line, &u);
        t->instr_sectors += u.sectors;
        t->requested_bytes += p->elem * n;
    }
    qsort(sec, (size_t)ns, sizeof *sec, cmp64);
    for (int64_t i = 0; i < ns; i++)
        t->footprint_sectors += i == 0 || sec[i] != sec[i - 1];
    free(sec);
    return 0;
}

int main(void)
{
    const model_geometry g = { 32, 32, 128, 32, 4 };
    static const char *const specs[] = { "seq", "offset:bytes=4", "stride:s=16", "reverse", "permute",
                                         "broadcast", "one-lane", "aos:struct=12,field=4", "matrix-row:n=8192",
                                         "matrix-col:n=8192", "mixed:s=32", "seq:elem=16" };
    const int64_t big = INT64_C(1) << 26, small = INT64_C(1) << 20;
    int slow = 0, wrong = 0;
    printf("launch model, nvidia profile; %lld items timed, checked against the naive count at %lld items\n\n",
           (long long)big, (long long)small);
    printf("%-24s %14s %16s %12s  %s\n", "pattern", "model 2^26 ms", "naive 2^20 ms", "speed-up", "counts at 2^20");
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        model_pattern *p = NULL;
        bw_error err = BW_ERROR_INIT;
        if (model_pattern_parse(specs[i], g.lanes, 0, &p, &err) != BW_OK) {
            fprintf(stderr, "%s: %s\n", specs[i], bw_error_text(&err));
            return 1;
        }
        model_access a = { p->expr, p->elem, p->active, big, 0, 0 };
        model_launch l;
        double t0 = now_s();
        bw_code rc = model_launch_count(&g, &a, 1, &l, &err);
        double t_big = now_s() - t0;
        a.items = small;
        model_launch ls;
        rc = rc == BW_OK ? model_launch_count(&g, &a, 1, &ls, &err) : rc;
        model_traffic ref;
        t0 = now_s();
        int nrc = naive(&g, p, small, &ref);
        double t_naive = now_s() - t0;
        if (rc != BW_OK || nrc != 0) {
            fprintf(stderr, "%s: %s\n", specs[i], bw_error_text(&err));
            return 1;
        }
        int same = ls.loads.instr_sectors == ref.instr_sectors &&
                   ls.loads.footprint_sectors == ref.footprint_sectors &&
                   ls.loads.requested_bytes == ref.requested_bytes;
        /* per-item speed-up: naive time scaled by 64 (2^26 / 2^20 items) */
        double speedup = t_naive * (double)(big / small) / (t_big > 1e-9 ? t_big : 1e-9);
        printf("%-24s %14.2f %16.2f %11.0fx  %s\n", p->spec, t_big * 1e3, t_naive * 1e3, speedup,
               same ? "equal" : "DIFFERENT");
        slow += t_big >= 0.5;
        wrong += !same;
        model_pattern_free(p);
    }
    printf("\ntarget: every 2^26-item launch modeled in well under a second (< 500 ms here): %s\n",
           slow ? "MISSED" : "met");
    return slow || wrong ? 1 : 0;
}
