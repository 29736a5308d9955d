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
/* Most loads one work-item of a family makes (record: one per field). */
#define MODEL_PATTERN_MAX_LOADS 8
#define MODEL_PATTERN_DEFAULT_ELEM 4

typedef struct model_pattern_param {
    const char *key;
    int64_t def;
    int64_t min, max;
    const char *meaning;
    /* NULL: the value is a number. Else the value's names, names[v] for v
     * in min..max (min 0), NULL-terminated: the spec and the canonical
     * spec say the name ("version=tiled"). */
    const char *const *names;
} model_pattern_param;

/* The memory space a family's addresses fall in. */
typedef enum model_pattern_space {
    MODEL_PATTERN_SPACE_GLOBAL, /* device memory: sectors and lines (§2.1) */
    MODEL_PATTERN_SPACE_LOCAL,  /* work-group local memory: banks (§2.2) */
} model_pattern_space;

/* How the planner sizes a launch of the family. */
typedef enum model_pattern_sizing {
    /* enough work-items that the modeled load footprint reaches the target */
    MODEL_PATTERN_SIZING_FOOTPRINT,
    /* the whole n x n matrix once (the family has a parameter "n"); a
     * matrix larger than the buffers allow is an error, not a smaller run */
    MODEL_PATTERN_SIZING_MATRIX,
    /* a local-memory tile per work-group: a fixed number of work-groups,
     * no global working-set target (the family reads local memory) */
    MODEL_PATTERN_SIZING_LOCAL_TILE,
    /* an n x n matrix of 4-byte words transposed once, one work-item per
     * element (the family has a parameter "n", a multiple of W, the tile
     * edge); bwlab run sizes n from the working set where the spec does
     * not give it */
    MODEL_PATTERN_SIZING_TRANSPOSE,
    /* n records of F fields, one work-item per record (the family has
     * parameters "fields" and "n"); bwlab run sizes n from the working set
     * where the spec does not give it */
    MODEL_PATTERN_SIZING_RECORDS,
} model_pattern_sizing;

/* The kernel families: global-memory loads (cl/gather.cl), local-memory
 * tile reads (cl/bank.cl) and matrix transposes (cl/transpose.cl). */
#define MODEL_PATTERN_KERNEL_GATHER "gather"
#define MODEL_PATTERN_KERNEL_BANK "bank"
#define MODEL_PATTERN_KERNEL_TRANSPOSE "transpose"
#define MODEL_PATTERN_KERNEL_RECORD "record"
/* the references the bank and transpose rows are read against */
#define MODEL_PATTERN_BANK_REFERENCE "bank:pitch=33"
#define MODEL_PATTERN_TRANSPOSE_REFERENCE "transpose:version=copy"

/* The transpose family's versions: the values of its parameter "version". */
typedef enum model_transpose_version {
    MODEL_TRANSPOSE_NAIVE,  /* out[x*n + y] = in[y*n + x]: coalesced loads, strided stores */
    MODEL_TRANSPOSE_TILED,  /* through a W x W local tile of pitch W */
    MODEL_TRANSPOSE_PADDED, /* the tile padded to pitch W + 1 */
    MODEL_TRANSPOSE_COPY,   /* out[i] = in[i]: the reference */
} model_transpose_version;

/* The record family's field types and layouts: the values of its
 * parameters "type" and "layout". */
typedef enum model_record_type {
    MODEL_RECORD_FLOAT, /* 4-byte fields */
    MODEL_RECORD_UCHAR, /* 1-byte fields (an RGB pixel of bytes) */
} model_record_type;
typedef enum model_record_layout {
    MODEL_RECORD_AOS, /* array of structs: record g's field f at E*(F*g + f) */
    MODEL_RECORD_SOA, /* struct of arrays (planar): field f's plane at E*f*n, record g at E*g in it */
} model_record_layout;

struct model_pattern;

/* What a family's explanation is written from: the parsed pattern, the
 * geometry, and the model's figures for its launch, per warp. */
typedef struct model_pattern_facts {
    const struct model_pattern *pattern;
    int lanes;      /* W */
    int64_t sector; /* S, bytes */
    int64_t elem;   /* E, bytes per lane */
    double sectors; /* modeled sectors per warp (instruction model) */
    double useful;  /* requested bytes per warp, in sectors */
} model_pattern_facts;

/* A pattern family: everything the model knows about it, in one place: one
 * entry in the catalogue (model_pattern.c) with its build and explain
 * functions. A family with a kernel of its own also needs a bench entry
 * (src/bench/bench_family.h) and a kernel file in cl/ (docs/design.md,
 * "Adding a family"). */
typedef struct model_pattern_family {
    const char *name;
    const char *shows; /* the classic case it illustrates (bwlab patterns) */
    int nparams;
    model_pattern_param params[MODEL_PATTERN_MAX_PARAMS]; /* besides elem */
    model_pattern_space space;
    const char *kernel;         /* kernel family that runs it: cl/<kernel>.cl */
    model_pattern_sizing sizing;
    int is_reference;           /* seq: the coalesced reference of every other pattern */
    int elem_fixed;             /* > 0: the only element size the family takes (bank: 4);
                                 * < 0: build sets it from the parameters (record: type) */
    /* Appends the address expression (bytes, over t, w, g) of p, whose
     * params, elem and lanes are set, to expr; may narrow p->active (all
     * lanes on entry). Fails (BW_E_USAGE) on parameters that do not fit
     * together. */
    bw_code (*build)(struct model_pattern *p, bw_buf *expr, bw_error *err);
    /* NULL: the family's kernel stores each work-item's element at dst[g]
     * (elem*g). Else appends the store address expression (bytes, over t,
     * w, g) of p, called after build. */
    bw_code (*build_store)(struct model_pattern *p, bw_buf *expr, bw_error *err);
    /* Appends the one-sentence explanation (ends with '.') of a launch. */
    void (*explain)(const model_pattern_facts *f, bw_buf *out);
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
    char *store_text;   /* canonical store expression, NULL: dst[g] (family build_store) */
    model_expr *store;  /* NULL: dst[g] */
    unsigned given;     /* bit i: params[i] was given in the spec */
    /* Loads per work-item: each is one warp-instruction at expr + load_base[k]
     * bytes (k < loads). 1 load at base 0 for every family but record,
     * whose build sets one per field. */
    int loads;
    int64_t load_base[MODEL_PATTERN_MAX_LOADS];
} model_pattern;

/* The catalogue, in presentation order: a static table (never NULL, not
 * to be freed); *count receives its length. */
const model_pattern_family *model_pattern_families(size_t *count);
/* The family called name, or NULL: the only place a family is looked up by
 * name. */
const model_pattern_family *model_pattern_family_find(const char *name);

/* The catalogue holds the built-in families and room for more. */
#define MODEL_PATTERN_FAMILIES_MAX 32

/* Parses a spec for warp width W. elem_override > 0 (from --elem) sets the
 * element size; it conflicts with a different elem= in the spec. Errors
 * (BW_E_USAGE / BW_E_RANGE) name the pattern, key and value and list what
 * is allowed. *out is owned by the caller (model_pattern_free). */
bw_code model_pattern_parse(const char *spec, int W, int64_t elem_override, model_pattern **out,
                            bw_error *err);
void model_pattern_free(model_pattern *p);

/* Value of a named parameter of a parsed pattern (0 when absent). */
int64_t model_pattern_param_value(const model_pattern *p, const char *key);
/* Whether the spec gave the family's parameter key (1), or it took its
 * default (0); 0 as well for a key the family does not have, elem
 * included (elem is every family's, not one of its parameters). */
int model_pattern_given(const model_pattern *p, const char *key);

/* Sector counts in the explanations' words, written into buf (n bytes) and
 * returned: "1 sector", "4 sectors", "0.5 sectors" (averages without
 * noise digits); the _worth_ form says "1 sector's worth", "0.5 sectors'
 * worth". Cannot fail; truncates to n. */
const char *model_pattern_sectors_words(char *buf, size_t n, double v);
const char *model_pattern_worth_words(char *buf, size_t n, double v);

/* Splits a --pattern list: comma-separated items; an item "k=v" continues
 * the previous pattern's parameters ("aos:struct=12,field=0,seq" is two
 * patterns). Appends each spec as a new heap string to *specs (grown with
 * realloc; *n updated). */
bw_code model_pattern_split_list(const char *list, char ***specs, size_t *n, bw_error *err);

#endif
