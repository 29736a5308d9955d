/* model_bank: local-memory bank conflicts of one warp-instruction: the
 * distinct words each bank is hit by, lanes reading one word sharing a
 * broadcast, and the worst bank (model_bank.h). */
#include "model_bank.h"

#include <stdlib.h>
#include <string.h>

#include "model_warp.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void model_bank_count(const model_geometry *geo, const int64_t *addr, const model_lanes *active,
                      model_bank *out)
{
    memset(out, 0, sizeof *out);
    out->banks = geo->banks;
    out->bank_width = geo->bank_width;
    if (geo->banks <= 0)
        return;
    int64_t words[MODEL_MAX_LANES];
    int n = 0;
    for (int t = 0; t < geo->lanes; t++)
        if (model_lanes_has(active, t))
            words[n++] = model_unit_of(addr[t], geo->bank_width);
    if (n == 0)
        return;
    qsort(words, (size_t)n, sizeof words[0], cmp_i64);
    int per_bank[MODEL_MAX_BANKS];
    memset(per_bank, 0, sizeof per_bank);
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && words[i] == words[i - 1])
            continue; /* same word: one broadcast */
        distinct++;
        int64_t bank = words[i] % geo->banks;
        if (bank < 0)
            bank += geo->banks;
        per_bank[bank]++;
    }
    int ways = 0, worst = 0;
    for (int b = 0; b < geo->banks; b++) {
        if (per_bank[b] > ways) {
            ways = per_bank[b];
            worst = b;
        }
    }
    out->applicable = 1;
    out->conflict_ways = ways;
    out->distinct_words = distinct;
    out->worst_bank = worst;
}
