/* model_linear: the syntactic reading of an address expression as
 * c_g*g + c_w*w + c_t*t + c_0, and the condition under which that is one
 * linear function of g for every lane (model_linear.h). */
#include "model_linear.h"

#include <stddef.h>

#include "model_expr_priv.h"

__extension__ typedef __int128 i128;

/* the coefficients of g, w, t and the constant term */
typedef struct lin {
    i128 g, w, t, c;
} lin;

static int fits(i128 v)
{
    return v >= (i128)INT64_MIN && v <= (i128)INT64_MAX;
}

static int lin_fits(const lin *v)
{
    return fits(v->g) && fits(v->w) && fits(v->t) && fits(v->c);
}

static int is_const(const lin *v)
{
    return v->g == 0 && v->w == 0 && v->t == 0;
}

/* v times k, each coefficient within int64 (so that no product of two
 * fitting values passes __int128) */
static int scale(lin *v, i128 k)
{
    if (!fits(k))
        return 0;
    v->g *= k;
    v->w *= k;
    v->t *= k;
    v->c *= k;
    return lin_fits(v);
}

/* node n read as a linear form into *out; 0 where it is not one */
static int read_node(const model_expr_node *nodes, int n, int64_t W, lin *out)
{
    const model_expr_node *x = &nodes[n];
    lin l = { 0, 0, 0, 0 }, r = { 0, 0, 0, 0 };
    switch (x->op) {
    case MODEL_OP_NUM:
        *out = (lin){ 0, 0, 0, x->value };
        return 1;
    case MODEL_OP_VAR:
        *out = (lin){ x->var == MODEL_VAR_G, x->var == MODEL_VAR_W, x->var == MODEL_VAR_T,
                      x->var == MODEL_VAR_WIDTH ? W : 0 };
        return 1;
    case MODEL_OP_POS:
        return read_node(nodes, x->kid[0], W, out);
    case MODEL_OP_NEG:
        if (!read_node(nodes, x->kid[0], W, out))
            return 0;
        return scale(out, -1);
    case MODEL_OP_ADD:
    case MODEL_OP_SUB: {
        if (!read_node(nodes, x->kid[0], W, &l) || !read_node(nodes, x->kid[1], W, &r))
            return 0;
        i128 s = x->op == MODEL_OP_ADD ? 1 : -1;
        *out = (lin){ l.g + s * r.g, l.w + s * r.w, l.t + s * r.t, l.c + s * r.c };
        return lin_fits(out);
    }
    case MODEL_OP_MUL:
        if (!read_node(nodes, x->kid[0], W, &l) || !read_node(nodes, x->kid[1], W, &r))
            return 0;
        if (is_const(&l)) {
            *out = r;
            return scale(out, l.c);
        }
        if (is_const(&r)) {
            *out = l;
            return scale(out, r.c);
        }
        return 0;
    case MODEL_OP_SHL:
        if (!read_node(nodes, x->kid[0], W, &l) || !read_node(nodes, x->kid[1], W, &r) || !is_const(&r) ||
            r.c < 0 || r.c > 63)
            return 0;
        *out = l;
        return r.c < 63 && scale(out, (i128)1 << (int)r.c);
    default:
        return 0;
    }
}

int model_linear_of(const model_expr *e, int64_t W, int64_t *a, int64_t *b)
{
    int count = 0, root = -1;
    const model_expr_node *nodes = e ? model_expr_nodes(e, &count, &root) : NULL;
    lin v;
    if (!nodes || root < 0 || W <= 0 || !read_node(nodes, root, W, &v))
        return 0;
    /* g = w*W + t: c_g*g + c_w*w + c_t*t is a*g for every lane exactly when
     * c_w = W*c_t, and then a = c_g + c_t */
    if (v.w != (i128)W * v.t || !fits(v.g + v.t))
        return 0;
    *a = (int64_t)(v.g + v.t);
    *b = (int64_t)v.c;
    return 1;
}
