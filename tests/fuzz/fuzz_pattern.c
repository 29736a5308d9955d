/* libFuzzer target: the --pattern list splitter and the pattern-spec parser
 * (src/model/model_pattern.c; tests/fuzz/README.md). The input is a
 * --pattern list; each spec is parsed for a warp width and an --elem drawn
 * from a hash of the input. Checks (abort() on a violation):
 *   - every failure has a message and leaves no pattern;
 *   - a parsed pattern's canonical spec parses again to the same canonical
 *     spec, address expression and store expression;
 *   - its address expressions parse, and their canonical form is the one
 *     the pattern holds;
 *   - its lanes are within W. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "fuzz_pattern: " __VA_ARGS__);                                             \
        fputc('\n', stderr);                                                                       \
        abort();                                                                                   \
    } while (0)

static int same(const char *a, const char *b)
{
    return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

static void check_expr_text(const char *text, const model_expr *e, const char *spec)
{
    if (!text && !e)
        return;
    if (!text || !e)
        FAIL("'%s': expression text and tree disagree on presence", spec);
    model_expr *e2 = NULL;
    bw_error err = BW_ERROR_INIT;
    if (model_expr_parse(text, &e2, &err) != BW_OK)
        FAIL("'%s': its expression '%s' does not parse: %s", spec, text, bw_error_text(&err));
    char *a = model_expr_to_string(e), *b = model_expr_to_string(e2);
    if (a && b && (strcmp(a, text) != 0 || strcmp(b, text) != 0))
        FAIL("'%s': expression text '%s', tree prints '%s', re-parsed '%s'", spec, text, a, b);
    free(a);
    free(b);
    model_expr_free(e2);
}

static void check_spec(const char *spec, int W, int64_t elem)
{
    model_pattern *p = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_pattern_parse(spec, W, elem, &p, &err);
    if (rc != BW_OK) {
        if (p != NULL || bw_error_text(&err)[0] == '\0')
            FAIL("'%s' W=%d elem=%lld: failure (code %d) without a message or with a pattern", spec, W,
                 (long long)elem, (int)rc);
        bw_error_clear(&err);
        return;
    }
    if (!p->spec || !p->family || p->lanes != W || p->elem < 1)
        FAIL("'%s' W=%d: incomplete pattern", spec, W);
    for (int t = W; t < MODEL_MAX_LANES; t++)
        if (model_lanes_has(&p->active, t))
            FAIL("'%s' W=%d: lane %d active", spec, W, t);
    check_expr_text(p->expr_text, p->expr, spec);
    check_expr_text(p->store_text, p->store, spec);

    /* the canonical spec names the same pattern (no --elem: it says elem);
     * an --elem the families do not take (3) is refused above */
    model_pattern *q = NULL;
    if (model_pattern_parse(p->spec, W, 0, &q, &err) != BW_OK)
        FAIL("'%s' W=%d: canonical spec '%s' does not parse: %s", spec, W, p->spec, bw_error_text(&err));
    if (!same(q->spec, p->spec) || !same(q->expr_text, p->expr_text) || !same(q->store_text, p->store_text) ||
        q->elem != p->elem || memcmp(&q->active, &p->active, sizeof p->active) != 0)
        FAIL("'%s' W=%d: canonical spec '%s' re-parses as '%s' (expr '%s' vs '%s')", spec, W, p->spec, q->spec,
             p->expr_text ? p->expr_text : "-", q->expr_text ? q->expr_text : "-");
    model_pattern_free(q);
    model_pattern_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *list = malloc(size + 1);
    if (!list)
        return 0;
    memcpy(list, data, size);
    list[size] = '\0';
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    static const int widths[] = { 1, 4, 8, 16, 32, 64, 3, 1024 };
    static const int64_t elems[] = { 0, 0, 0, 0, 4, 8, 16, 3 };
    int W = widths[h & 7];
    int64_t elem = elems[(h >> 3) & 7];

    char **specs = NULL;
    size_t n = 0;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = model_pattern_split_list(list, &specs, &n, &err);
    if (rc != BW_OK) {
        if (bw_error_text(&err)[0] == '\0')
            FAIL("split of '%s' fails (code %d) without a message", list, (int)rc);
        bw_error_clear(&err);
    } else {
        if (n == 0)
            FAIL("split of '%s' succeeds with no spec", list);
        for (size_t i = 0; i < n && i < 64; i++)
            check_spec(specs[i], W, elem);
    }
    for (size_t i = 0; i < n; i++)
        free(specs[i]);
    free(specs);
    free(list);
    return 0;
}
