/* model_expr: address expressions (docs/design.md §2.5).
 *
 * A pattern's byte addresses are one C-like expression of 64-bit signed
 * integers over the lane `t`, the warp index `w`, the global id `g` (= w*W+t)
 * and the warp width `W`. The same parsed tree is evaluated by the model and,
 * re-printed, compiled into the OpenCL kernel, so the two cannot drift.
 *
 * Grammar (C precedence and associativity):
 *   cond    := lor [ '?' cond ':' cond ]
 *   lor     := land { '||' land }     ... down through
 *   | ^ & == != < <= > >= << >> + - * / %
 *   unary   := ('-' | '+' | '!' | '~') unary | primary
 *   primary := NUMBER | 't' | 'w' | 'g' | 'W' | '(' cond ')'
 *            | ('min' | 'max') '(' cond ',' cond ')'
 * NUMBER is decimal or 0x-hex and must fit in int64.
 *
 * Evaluation is exact: division or modulo by zero, any signed overflow, and
 * shift counts outside 0..63 are errors (never undefined behaviour). `>>` is
 * an arithmetic (flooring) shift; `<<` is multiplication by 2^k. */
#ifndef MODEL_EXPR_H
#define MODEL_EXPR_H

#include <stdint.h>

#include "bw_buf.h"
#include "bw_error.h"

typedef enum model_expr_op {
    MODEL_OP_NUM,
    MODEL_OP_VAR,
    /* unary */
    MODEL_OP_NEG,
    MODEL_OP_POS,
    MODEL_OP_NOT,
    MODEL_OP_BITNOT,
    /* binary */
    MODEL_OP_MUL,
    MODEL_OP_DIV,
    MODEL_OP_MOD,
    MODEL_OP_ADD,
    MODEL_OP_SUB,
    MODEL_OP_SHL,
    MODEL_OP_SHR,
    MODEL_OP_LT,
    MODEL_OP_LE,
    MODEL_OP_GT,
    MODEL_OP_GE,
    MODEL_OP_EQ,
    MODEL_OP_NE,
    MODEL_OP_BAND,
    MODEL_OP_BXOR,
    MODEL_OP_BOR,
    MODEL_OP_LAND,
    MODEL_OP_LOR,
    MODEL_OP_MIN,
    MODEL_OP_MAX,
    /* ternary */
    MODEL_OP_COND,
    MODEL_OP__COUNT
} model_expr_op;

typedef enum model_expr_var {
    MODEL_VAR_T, /* lane in warp */
    MODEL_VAR_W, /* warp index */
    MODEL_VAR_G, /* global id */
    MODEL_VAR_WIDTH /* W, lanes per warp */
} model_expr_var;

/* One node of the tree. Children are indices into the node array. */
typedef struct model_expr_node {
    model_expr_op op;
    int64_t value;     /* MODEL_OP_NUM */
    int hex;           /* MODEL_OP_NUM written in hex: re-printed in hex */
    model_expr_var var; /* MODEL_OP_VAR */
    int kid[3];        /* -1 when unused; COND: cond, then, else */
    int column;        /* 1-based source column of the token, for messages */
} model_expr_node;

typedef struct model_expr model_expr; /* opaque, immutable after parsing */

/* Values of the variables for one lane. */
typedef struct model_expr_env {
    int64_t t, w, g, W;
} model_expr_env;

/* Longest accepted expression text, in bytes. */
#define MODEL_EXPR_MAX_LEN 65536
/* Deepest accepted tree (every recursive walk is bounded by it), and the
 * deepest bracket nesting of the OpenCL form (clang's limit is 256; the
 * kernel around BW_ADDR takes some). Either, exceeded, is a BW_E_SYNTAX
 * error of model_expr_parse. Every accepted tree's canonical form
 * re-parses. */
#define MODEL_EXPR_MAX_HEIGHT 200
#define MODEL_EXPR_MAX_BRACKETS 224

/* Parses `src`. On success *out owns a new expression (free with
 * model_expr_free). On failure returns BW_E_SYNTAX (or BW_E_RANGE for a
 * literal too large) with a message naming the column and the offending
 * token, and *out is NULL. */
bw_code model_expr_parse(const char *src, model_expr **out, bw_error *err);
void model_expr_free(model_expr *e);

/* Evaluates for one lane. Fails with BW_E_EVAL on division by zero, overflow
 * or a bad shift count; the message names the operator's column and the
 * lane/warp. */
bw_code model_expr_eval(const model_expr *e, const model_expr_env *env, int64_t *out,
                        bw_error *err);

/* OpenCL C form: fully parenthesised, every value of type long, helper
 * calls bw_min/bw_max/bw_shr/bw_shl that the kernel prelude defines. */
void model_expr_print_opencl(const model_expr *e, bw_buf *out);
/* The same in 32-bit form: every value of type int, literals without a
 * suffix, helpers bw_min32/bw_max32/bw_shr32/bw_shl32. It computes the
 * model's values only where model_index_fits32 has proved that every one
 * fits in int for the launch. */
void model_expr_print_opencl32(const model_expr *e, bw_buf *out);

/* Convenience: canonical text as a new heap string (NULL on no memory). */
char *model_expr_to_string(const model_expr *e);

#endif
