/* model_linear: an address expression read as one linear function of the
 * global id, A(g) = a*g + b, the exact test by which two patterns are known
 * to give every lane the same address (bench_plan_same_addresses). */
#ifndef MODEL_LINEAR_H
#define MODEL_LINEAR_H

#include <stdint.h>

#include "model_expr.h"

/* 1, with *a and *b set, when e is built from constants, t, w, g and W by
 * +, -, unary minus and plus, multiplication with a constant side and a
 * left shift by a constant (0..63), and its value with W lanes per warp
 * (W > 0) is a*g + b at every lane t < W of every warp w (g = w*W + t).
 * 0 otherwise, and when a coefficient passes int64. The test reads the
 * tree, so an expression that computes a*g + b another way (g / 1,
 * g*g - g*g + g) answers 0, never a wrong 1. It
 * says nothing of overflow at a given g: a caller compares expressions
 * that have both been evaluated over their launch. */
int model_linear_of(const model_expr *e, int64_t W, int64_t *a, int64_t *b);

#endif
