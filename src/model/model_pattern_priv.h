/* model_pattern_priv: what only src/model and its tests use of
 * model_pattern.h: adding a family to the catalogue (tests add a toy family
 * this way). */
#ifndef MODEL_PATTERN_PRIV_H
#define MODEL_PATTERN_PRIV_H

#include "model_pattern.h"

/* Appends a copy of f to the catalogue: from then on it is parsed,
 * modeled, planned, measured and reported like a built-in family, the
 * way docs/design.md's "Adding a family" says (tests add a toy family
 * this way). f's strings and functions must outlive the process's use of
 * it. BW_E_USAGE for a name already there or an entry without a name,
 * kernel, build or explain; BW_E_RANGE when the catalogue is full. */
bw_code model_pattern_family_add(const model_pattern_family *f, bw_error *err);

#endif
