/* model_bank: local (shared) memory bank conflicts (docs/design.md §2.2).
 *
 * Lane t's word is floor(A(t) / bank_width) and its bank is word mod banks.
 * conflict_ways is the largest number of distinct words that fall in one
 * bank: lanes reading the same word are served by one broadcast. */
#ifndef MODEL_BANK_H
#define MODEL_BANK_H

#include <stdint.h>

#include "bw_error.h"
#include "model_geometry.h"
#include "model_lanes.h"

typedef struct model_bank {
    int applicable;     /* 0 when the profile has no banks or no lane is active */
    int banks;
    int64_t bank_width;
    int conflict_ways;  /* serialized cycles, >= 1 when applicable */
    int distinct_words;
    int worst_bank;     /* a bank that reaches conflict_ways (lowest number) */
} model_bank;

/* Always succeeds; `out` says whether the figures apply. */
void model_bank_count(const model_geometry *geo, const int64_t *addr, const model_lanes *active,
                      model_bank *out);

#endif
