/* bench_unroll_memory: the averaged K calibrations of each device, kept in
 * unroll.json (bench_unroll_memory.h). */
#include "bench_unroll_memory.h"

#include <jansson.h>
#include <string.h>

#include "bench_fit.h"
#include "bench_keyed_cache.h"

_Static_assert(BENCH_UNROLL_MEMORY_KS == BENCH_FIT_UNROLLS, "the memory keeps one score per K of the ladder");

static const bench_keyed_cache UNROLL_MEMORY = { BENCH_UNROLL_MEMORY_FILE, BENCH_UNROLL_MEMORY_SCHEMA,
                                                 "the unroll memory", "the next bwlab run starts it again" };

bw_code bench_unroll_memory_path(char **path, bw_error *err)
{
    return bench_keyed_cache_path(&UNROLL_MEMORY, path, err);
}

/* scores[] from a JSON array of BENCH_UNROLL_MEMORY_KS numbers in 0..1 */
static int scores_of(json_t *a, double *scores)
{
    if (!json_is_array(a) || json_array_size(a) != BENCH_UNROLL_MEMORY_KS)
        return 0;
    for (size_t k = 0; k < BENCH_UNROLL_MEMORY_KS; k++) {
        json_t *v = json_array_get(a, k);
        scores[k] = json_is_number(v) ? json_number_value(v) : -1;
        if (!(scores[k] >= 0 && scores[k] <= 1))
            return 0;
    }
    return 1;
}

/* a last K: absent (0), or one of the ladder's */
static int last_k_of(json_t *v, int *k)
{
    *k = 0;
    if (!v)
        return 1;
    json_int_t n = json_is_integer(v) ? json_integer_value(v) : -1;
    for (int i = 0; i < BENCH_UNROLL_MEMORY_KS; i++)
        if (n == (json_int_t)1 << i)
            *k = (int)n;
    return *k > 0;
}

bw_code bench_unroll_memory_lookup(const char *path, const bench_tune_key *key, bench_unroll_memory *m, bw_error *err)
{
    memset(m, 0, sizeof *m);
    json_t *doc = NULL;
    bw_code rc = bench_keyed_cache_load(&UNROLL_MEMORY, path, &doc, err);
    if (rc != BW_OK || !doc)
        return rc;
    json_t *e = bench_keyed_cache_find(doc, key);
    if (e) {
        json_t *runs = json_object_get(e, "runs");
        m->runs = json_is_integer(runs) ? (int)json_integer_value(runs) : 0;
        if (m->runs < 1 || m->runs > BENCH_UNROLL_MEMORY_RUNS || !scores_of(json_object_get(e, "copy"), m->copy) ||
            !scores_of(json_object_get(e, "read"), m->read) || !last_k_of(json_object_get(e, "copy_k"), &m->copy_k) ||
            !last_k_of(json_object_get(e, "read_k"), &m->read_k)) {
            memset(m, 0, sizeof *m);
            rc = bw_error_set(err, BW_E_FORMAT,
                              "the unroll memory '%s' holds figures out of range for '%s'; remove it and the next "
                              "bwlab run starts it again",
                              path, key->device);
        }
    }
    json_decref(doc);
    return rc;
}

bw_code bench_unroll_memory_store(const char *path, const bench_tune_key *key, const bench_unroll_memory *m,
                                  bw_error *err)
{
    json_t *o = json_object(), *c = json_array(), *r = json_array();
    json_object_set_new(o, "runs", json_integer(m->runs));
    for (size_t k = 0; k < BENCH_UNROLL_MEMORY_KS; k++) {
        json_array_append_new(c, json_real(m->copy[k]));
        json_array_append_new(r, json_real(m->read[k]));
    }
    json_object_set_new(o, "copy", c);
    json_object_set_new(o, "read", r);
    if (m->copy_k > 0)
        json_object_set_new(o, "copy_k", json_integer(m->copy_k));
    if (m->read_k > 0)
        json_object_set_new(o, "read_k", json_integer(m->read_k));
    return bench_keyed_cache_store(&UNROLL_MEMORY, path, key, o, err);
}

/* one mode's scores averaged in: this calibration's rates over its best */
static void add_mode(double *avg, const double *gbs, int w)
{
    double best = 0;
    for (size_t k = 0; k < BENCH_UNROLL_MEMORY_KS; k++)
        best = gbs[k] > best ? gbs[k] : best;
    if (!(best > 0))
        return;
    for (size_t k = 0; k < BENCH_UNROLL_MEMORY_KS; k++) {
        double cur = gbs[k] > 0 ? gbs[k] / best : 0;
        if (cur > 0)
            avg[k] = avg[k] > 0 && w > 0 ? (avg[k] * w + cur) / (w + 1) : cur;
    }
}

void bench_unroll_memory_add(bench_unroll_memory *m, const double copy[BENCH_UNROLL_MEMORY_KS],
                             const double read[BENCH_UNROLL_MEMORY_KS])
{
    int w = m->runs < BENCH_UNROLL_MEMORY_RUNS - 1 ? m->runs : BENCH_UNROLL_MEMORY_RUNS - 1;
    add_mode(m->copy, copy, w);
    add_mode(m->read, read, w);
    m->runs = m->runs < BENCH_UNROLL_MEMORY_RUNS ? m->runs + 1 : BENCH_UNROLL_MEMORY_RUNS;
}
