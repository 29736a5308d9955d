/* model_pattern: the pattern catalogue, the single source of every
 * measured and modeled address.
 *
 * A pattern spec is NAME[:key=value,...] (e.g. "stride:s=2",
 * "aos:struct=12,field=4,elem=8"). Every family takes elem=4|8|16 (bytes per
 * lane, default 4) besides its own parameters. A parsed pattern holds its
 * canonical spec, its address expression (bytes, over t, w, g for a given
 * warp width W) and the lanes active in every warp. */
#ifndef MODEL_PATTERN_H
#define MODEL_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "model_expr.h"
#include "model_lanes.h"

#define MODEL_PATTERN_MAX_PARAMS 4
#define MODEL_PATTERN_DEFAULT_ELEM 4

typedef struct model_pattern_param {
    const char *key;
    int64_t def;
    int64_t min, max;
    const char *meaning;
} model_pattern_param;

typedef struct model_pattern_family {
    const char *name;
    const char *shows; /* the classic case it illustrates */
    int nparams;
    model_pattern_param params[MODEL_PATTERN_MAX_PARAMS];
} model_pattern_family;

typedef struct model_pattern {
    const model_pattern_family *family;
    int64_t params[MODEL_PATTERN_MAX_PARAMS]; /* in family order */
    int64_t elem;       /* bytes per lane */
    int lanes;          /* W the addresses were built for */
    char *spec;         /* canonical spec, defaults included, elem only when not 4 */
    char *expr_text;    /* canonical address expression */
    model_expr *expr;
    model_lanes active; /* lanes executing the access in every warp */
} model_pattern;

/* The catalogue, in presentation order. */
const model_pattern_family *model_pattern_families(size_t *count);
const model_pattern_family *model_pattern_family_find(const char *name);

/* Parses a spec for warp width W. elem_override > 0 (from --elem) sets the
 * element size; it conflicts with a different elem= in the spec. Errors
 * (BW_E_USAGE / BW_E_RANGE) name the pattern, key and value and list what
 * is allowed. *out is owned by the caller (model_pattern_free). */
bw_code model_pattern_parse(const char *spec, int W, int64_t elem_override, model_pattern **out,
                            bw_error *err);
void model_pattern_free(model_pattern *p);

/* Value of a named parameter of a parsed pattern (0 when absent). */
int64_t model_pattern_param_value(const model_pattern *p, const char *key);

/* Splits a --pattern list: comma-separated items; an item "k=v" continues
 * the previous pattern's parameters ("aos:struct=12,field=0,seq" is two
 * patterns). Appends each spec as a new heap string to *specs (grown with
 * realloc; *n updated). */
bw_code model_pattern_split_list(const char *list, char ***specs, size_t *n, bw_error *err);

#endif
