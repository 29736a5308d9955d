/* model_expr_priv: what only src/model and its tests use of model_expr.h:
 * the expression's tree, its variables, and its canonical printed form. */
#ifndef MODEL_EXPR_PRIV_H
#define MODEL_EXPR_PRIV_H

#include "model_expr.h"

/* The tree, for analyses (model_affine). Valid while e lives. */
const model_expr_node *model_expr_nodes(const model_expr *e, int *count, int *root);

/* Which variables occur (bit 1<<MODEL_VAR_x). */
unsigned model_expr_vars(const model_expr *e);

/* Canonical human form: minimal parentheses, spaces around binary
 * operators. Re-parsing it yields the same tree. */
void model_expr_print(const model_expr *e, bw_buf *out);

#endif
