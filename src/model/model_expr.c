/* model_expr: the address language's tokenizer and parser, its exact
 * evaluator, and the printers of a parsed tree as plain text and as
 * OpenCL C in 64-bit and 32-bit forms (model_expr.h). */
#include "model_expr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_arith.h"
#include "model_expr_priv.h"

/* Parser recursion limit: a constant, so no input can grow the C stack
 * (left-leaning chains such as t+t+... are parsed by a loop, not recursion). */
#define MAX_DEPTH 1000

struct model_expr {
    model_expr_node *nodes;
    int count;
    int cap;
    int root;
    unsigned vars;
};

/* ---- tokenizer ---------------------------------------------------------- */

typedef enum tok_kind {
    TK_END,
    TK_NUM,
    TK_NAME,
    TK_OP, /* operator or punctuation, text in tok.op */
} tok_kind;

typedef struct token {
    tok_kind kind;
    int64_t value;
    int hex;
    const char *start;
    int len;
    int column;
} token;

typedef struct parser {
    const char *src;
    const char *p;
    token tok;
    model_expr *e;
    bw_error *err;
    bw_code rc;
    int depth;
} parser;

static const char *const two_char_ops[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
static const char one_char_ops[] = "+-*/%&|^~<>!?:(),";

static bw_code fail_at(parser *ps, const token *tk, const char *what)
{
    if (ps->rc != BW_OK)
        return ps->rc;
    char found[48];
    if (tk->kind == TK_END)
        snprintf(found, sizeof found, "end of expression");
    else
        snprintf(found, sizeof found, "'%.*s'", tk->len > 32 ? 32 : tk->len, tk->start);
    ps->rc = bw_error_set(ps->err, BW_E_SYNTAX, "bad expression '%s': %s at column %d, found %s",
                          ps->src, what, tk->column, found);
    return ps->rc;
}

static void next_token(parser *ps)
{
    const char *p = ps->p;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    token *t = &ps->tok;
    t->start = p;
    t->column = (int)(p - ps->src) + 1;
    t->hex = 0;
    if (!*p) {
        t->kind = TK_END;
        t->len = 0;
        ps->p = p;
        return;
    }
    if (isdigit((unsigned char)*p)) {
        int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
        const char *q = p + (hex ? 2 : 0);
        uint64_t v = 0;
        int ndig = 0, overflow = 0;
        for (;; q++) {
            int d;
            if (isdigit((unsigned char)*q))
                d = *q - '0';
            else if (hex && isxdigit((unsigned char)*q))
                d = tolower((unsigned char)*q) - 'a' + 10;
            else
                break;
            uint64_t base = hex ? 16u : 10u;
            if (v > (UINT64_MAX - (uint64_t)d) / base)
                overflow = 1;
            else
                v = v * base + (uint64_t)d;
            ndig++;
        }
        t->kind = TK_NUM;
        t->len = (int)(q - p);
        t->hex = hex;
        ps->p = q;
        if (hex && ndig == 0) {
            fail_at(ps, t, "hex literal without digits");
            return;
        }
        if (!hex && ndig > 1 && p[0] == '0') {
            /* C reads 010 as octal 8: never a silent 10 */
            fail_at(ps, t, "a decimal literal with a leading zero (C would read it as octal; write it without the "
                           "zero, or in hex as 0x...)");
            return;
        }
        if (overflow || v > (uint64_t)INT64_MAX) {
            if (ps->rc == BW_OK) {
                ps->rc = bw_error_set(ps->err, BW_E_RANGE,
                                      "bad expression '%s': literal '%.*s' at column %d does "
                                      "not fit in a signed 64-bit integer",
                                      ps->src, t->len, t->start, t->column);
            }
            return;
        }
        t->value = (int64_t)v;
        return;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        t->kind = TK_NAME;
        t->len = (int)(q - p);
        ps->p = q;
        return;
    }
    for (size_t i = 0; i < sizeof two_char_ops / sizeof two_char_ops[0]; i++) {
        if (p[0] == two_char_ops[i][0] && p[1] == two_char_ops[i][1]) {
            t->kind = TK_OP;
            t->len = 2;
            ps->p = p + 2;
            return;
        }
    }
    if (strchr(one_char_ops, *p)) {
        t->kind = TK_OP;
        t->len = 1;
        ps->p = p + 1;
        return;
    }
    t->kind = TK_OP;
    t->len = 1;
    /* report the whole UTF-8 sequence of a non-ASCII character */
    while (((unsigned char)p[t->len] & 0xC0) == 0x80)
        t->len++;
    fail_at(ps, t, "unexpected character");
}

static int tok_is(const token *t, const char *op)
{
    return t->kind == TK_OP && (size_t)t->len == strlen(op) && strncmp(t->start, op, (size_t)t->len) == 0;
}

static int name_is(const token *t, const char *name)
{
    return t->kind == TK_NAME && (size_t)t->len == strlen(name) &&
           strncmp(t->start, name, (size_t)t->len) == 0;
}

/* ---- tree building ------------------------------------------------------ */

static int add_node(parser *ps, model_expr_op op, int column, int a, int b, int c)
{
    model_expr *e = ps->e;
    if (e->count == e->cap) {
        int ncap = e->cap ? e->cap * 2 : 32;
        model_expr_node *n = realloc(e->nodes, (size_t)ncap * sizeof *n);
        if (!n) {
            if (ps->rc == BW_OK)
                ps->rc = bw_error_set(ps->err, BW_E_NOMEM, "out of memory parsing expression");
            return -1;
        }
        e->nodes = n;
        e->cap = ncap;
    }
    model_expr_node *n = &e->nodes[e->count];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->column = column;
    n->kid[0] = a;
    n->kid[1] = b;
    n->kid[2] = c;
    return e->count++;
}

/* binary operator table, C precedence: larger binds tighter */
static const struct {
    const char *text;
    model_expr_op op;
    int prec;
} binops[] = {
    { "||", MODEL_OP_LOR, 1 },  { "&&", MODEL_OP_LAND, 2 }, { "|", MODEL_OP_BOR, 3 },
    { "^", MODEL_OP_BXOR, 4 },  { "&", MODEL_OP_BAND, 5 },  { "==", MODEL_OP_EQ, 6 },
    { "!=", MODEL_OP_NE, 6 },   { "<", MODEL_OP_LT, 7 },    { "<=", MODEL_OP_LE, 7 },
    { ">", MODEL_OP_GT, 7 },    { ">=", MODEL_OP_GE, 7 },   { "<<", MODEL_OP_SHL, 8 },
    { ">>", MODEL_OP_SHR, 8 },  { "+", MODEL_OP_ADD, 9 },   { "-", MODEL_OP_SUB, 9 },
    { "*", MODEL_OP_MUL, 10 },  { "/", MODEL_OP_DIV, 10 },  { "%", MODEL_OP_MOD, 10 },
};

static int binop_lookup(const token *t, model_expr_op *op)
{
    if (t->kind != TK_OP)
        return 0;
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++) {
        if (tok_is(t, binops[i].text)) {
            *op = binops[i].op;
            return binops[i].prec;
        }
    }
    return 0;
}

static int parse_cond(parser *ps);

static int enter(parser *ps)
{
    if (++ps->depth > MAX_DEPTH) {
        fail_at(ps, &ps->tok, "expression nests too deeply (limit 1000 brackets and operators)");
        return 0;
    }
    return 1;
}

static int expect(parser *ps, const char *op, const char *what)
{
    if (ps->rc != BW_OK)
        return 0;
    if (!tok_is(&ps->tok, op)) {
        char msg[96];
        snprintf(msg, sizeof msg, "expected %s", what);
        fail_at(ps, &ps->tok, msg);
        return 0;
    }
    next_token(ps);
    return ps->rc == BW_OK;
}

static int parse_unary(parser *ps);

static int parse_primary(parser *ps)
{
    token t = ps->tok;
    if (ps->rc != BW_OK)
        return -1;
    if (t.kind == TK_NUM) {
        int n = add_node(ps, MODEL_OP_NUM, t.column, -1, -1, -1);
        if (n < 0)
            return -1;
        ps->e->nodes[n].value = t.value;
        ps->e->nodes[n].hex = t.hex;
        next_token(ps);
        return n;
    }
    if (t.kind == TK_NAME) {
        static const struct {
            const char *name;
            model_expr_var var;
        } vars[] = { { "t", MODEL_VAR_T }, { "w", MODEL_VAR_W }, { "g", MODEL_VAR_G },
                     { "W", MODEL_VAR_WIDTH } };
        for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
            if (name_is(&t, vars[i].name)) {
                int n = add_node(ps, MODEL_OP_VAR, t.column, -1, -1, -1);
                if (n < 0)
                    return -1;
                ps->e->nodes[n].var = vars[i].var;
                ps->e->vars |= 1u << vars[i].var;
                next_token(ps);
                return n;
            }
        }
        if (name_is(&t, "min") || name_is(&t, "max")) {
            model_expr_op op = name_is(&t, "min") ? MODEL_OP_MIN : MODEL_OP_MAX;
            next_token(ps);
            if (!expect(ps, "(", "'(' after min/max"))
                return -1;
            int a = parse_cond(ps);
            if (a < 0 || !expect(ps, ",", "',' between the two arguments"))
                return -1;
            int b = parse_cond(ps);
            if (b < 0 || !expect(ps, ")", "')' closing min/max"))
                return -1;
            return add_node(ps, op, t.column, a, b, -1);
        }
        fail_at(ps, &t, "unknown name (allowed: t, w, g, W, min, max)");
        return -1;
    }
    if (tok_is(&t, "(")) {
        next_token(ps);
        int a = parse_cond(ps);
        if (a < 0 || !expect(ps, ")", "')'"))
            return -1;
        return a;
    }
    fail_at(ps, &t, "expected a number, t, w, g, W, min(), max() or '('");
    return -1;
}

static int parse_unary(parser *ps)
{
    if (ps->rc != BW_OK || !enter(ps))
        return -1;
    token t = ps->tok;
    model_expr_op op = MODEL_OP__COUNT;
    if (tok_is(&t, "-"))
        op = MODEL_OP_NEG;
    else if (tok_is(&t, "+"))
        op = MODEL_OP_POS;
    else if (tok_is(&t, "!"))
        op = MODEL_OP_NOT;
    else if (tok_is(&t, "~"))
        op = MODEL_OP_BITNOT;
    int n;
    if (op != MODEL_OP__COUNT) {
        next_token(ps);
        int a = parse_unary(ps);
        n = a < 0 ? -1 : add_node(ps, op, t.column, a, -1, -1);
    } else {
        n = parse_primary(ps);
    }
    ps->depth--;
    return n;
}

/* precedence climbing over the binary operators */
static int parse_binary(parser *ps, int min_prec)
{
    int lhs = parse_unary(ps);
    for (;;) {
        if (lhs < 0 || ps->rc != BW_OK)
            return -1;
        model_expr_op op;
        int prec = binop_lookup(&ps->tok, &op);
        if (prec == 0 || prec < min_prec)
            return lhs;
        int column = ps->tok.column;
        next_token(ps);
        if (!enter(ps))
            return -1;
        int rhs = parse_binary(ps, prec + 1);
        ps->depth--;
        if (rhs < 0)
            return -1;
        lhs = add_node(ps, op, column, lhs, rhs, -1);
    }
}

static int parse_cond(parser *ps)
{
    if (ps->rc != BW_OK || !enter(ps))
        return -1;
    int c = parse_binary(ps, 1);
    int n = c;
    if (c >= 0 && tok_is(&ps->tok, "?")) {
        int column = ps->tok.column;
        next_token(ps);
        int a = parse_cond(ps);
        if (a >= 0 && expect(ps, ":", "':' of the conditional")) {
            int b = parse_cond(ps);
            n = b < 0 ? -1 : add_node(ps, MODEL_OP_COND, column, c, a, b);
        } else {
            n = -1;
        }
    }
    ps->depth--;
    return n;
}

static void print_cl(const model_expr *e, int i, int bits, bw_buf *out);

/* Tree height, without recursion: children are always created before their
 * parent, so one pass in node order sees every child's height first. */
static int tree_height(const model_expr *e)
{
    int *h = malloc((size_t)e->count * sizeof *h);
    if (!h)
        return -1;
    int best = 0;
    for (int i = 0; i < e->count; i++) {
        int m = 0;
        for (int k = 0; k < 3; k++) {
            int c = e->nodes[i].kid[k];
            if (c >= 0 && h[c] > m)
                m = h[c];
        }
        h[i] = m + 1;
        best = h[i] > best ? h[i] : best;
    }
    free(h);
    return best;
}

/* Deepest bracket nesting of an OpenCL form. */
static int bracket_depth(const char *s)
{
    int d = 0, best = 0;
    for (; s && *s; s++) {
        if (*s == '(')
            best = ++d > best ? d : best;
        else if (*s == ')')
            d--;
    }
    return best;
}

/* Every walk of the tree (evaluation, printing, the affine analysis) is
 * recursive with depth = tree height, so the height is bounded here, once,
 * for every consumer. The OpenCL form must also stay within what OpenCL C
 * compilers accept (clang: 256 nested brackets, minus what the kernel puts
 * around BW_ADDR), so an expression that would build no kernel is refused
 * now, as bad input, not later as a build failure. */
static bw_code check_shape(const model_expr *e, const char *src, bw_error *err)
{
    int height = tree_height(e);
    if (height < 0)
        return bw_error_set(err, BW_E_NOMEM, "out of memory parsing expression");
    if (height > MODEL_EXPR_MAX_HEIGHT)
        return bw_error_set(err, BW_E_SYNTAX,
                            "bad expression '%.60s%s': its tree is %d levels deep, more than "
                            "the limit %d (a chain a+b+c+... adds one level per operator); "
                            "shorten it",
                            src, strlen(src) > 60 ? "..." : "", height, MODEL_EXPR_MAX_HEIGHT);
    bw_buf b = BW_BUF_INIT;
    print_cl(e, e->root, 64, &b);
    if (bw_buf_failed(&b)) {
        bw_buf_free(&b);
        return bw_error_set(err, BW_E_NOMEM, "out of memory parsing expression");
    }
    int depth = bracket_depth(bw_buf_str(&b));
    bw_buf_free(&b);
    if (depth > MODEL_EXPR_MAX_BRACKETS)
        return bw_error_set(err, BW_E_SYNTAX,
                            "bad expression '%.60s%s': its OpenCL form nests brackets %d deep, "
                            "more than the %d that OpenCL compilers accept in a kernel; "
                            "shorten it or use fewer nested operators",
                            src, strlen(src) > 60 ? "..." : "", depth, MODEL_EXPR_MAX_BRACKETS);
    return BW_OK;
}

bw_code model_expr_parse(const char *src, model_expr **out, bw_error *err)
{
    *out = NULL;
    if (!src)
        src = "";
    if (strlen(src) > MODEL_EXPR_MAX_LEN)
        return bw_error_set(err, BW_E_SYNTAX, "bad expression: longer than %d bytes",
                            MODEL_EXPR_MAX_LEN);
    model_expr *e = calloc(1, sizeof *e);
    if (!e)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    parser ps = { .src = src, .p = src, .e = e, .err = err, .rc = BW_OK };
    next_token(&ps);
    if (ps.rc == BW_OK && ps.tok.kind == TK_END) {
        bw_error_set(err, BW_E_SYNTAX, "bad expression: it is empty (example: '4*g')");
        ps.rc = BW_E_SYNTAX;
    }
    int root = ps.rc == BW_OK ? parse_cond(&ps) : -1;
    if (ps.rc == BW_OK && ps.tok.kind != TK_END)
        fail_at(&ps, &ps.tok, "expected an operator or the end");
    if (ps.rc != BW_OK || root < 0) {
        model_expr_free(e);
        return ps.rc != BW_OK ? ps.rc : bw_error_set(err, BW_E_SYNTAX, "bad expression '%s'", src);
    }
    e->root = root;
    if ((ps.rc = check_shape(e, src, err)) != BW_OK) {
        model_expr_free(e);
        return ps.rc;
    }
    *out = e;
    return BW_OK;
}

void model_expr_free(model_expr *e)
{
    if (!e)
        return;
    free(e->nodes);
    free(e);
}

const model_expr_node *model_expr_nodes(const model_expr *e, int *count, int *root)
{
    if (count)
        *count = e->count;
    if (root)
        *root = e->root;
    return e->nodes;
}

unsigned model_expr_vars(const model_expr *e)
{
    return e->vars;
}

/* ---- evaluation --------------------------------------------------------- */

typedef struct evaluator {
    const model_expr *e;
    const model_expr_env *env;
    bw_error *err;
} evaluator;

static bw_code eval_fail(evaluator *ev, const model_expr_node *n, const char *why)
{
    return bw_error_set(ev->err, BW_E_EVAL, "%s at column %d for lane t=%lld, warp w=%lld",
                        why, n->column, (long long)ev->env->t, (long long)ev->env->w);
}

static bw_code eval_node(evaluator *ev, int i, int64_t *out)
{
    const model_expr_node *n = &ev->e->nodes[i];
    int64_t a = 0, b = 0;
    bw_code rc;
    switch (n->op) {
    case MODEL_OP_NUM:
        *out = n->value;
        return BW_OK;
    case MODEL_OP_VAR:
        switch (n->var) {
        case MODEL_VAR_T: *out = ev->env->t; break;
        case MODEL_VAR_W: *out = ev->env->w; break;
        case MODEL_VAR_G: *out = ev->env->g; break;
        default: *out = ev->env->W; break;
        }
        return BW_OK;
    case MODEL_OP_LAND:
    case MODEL_OP_LOR:
        if ((rc = eval_node(ev, n->kid[0], &a)) != BW_OK)
            return rc;
        if ((n->op == MODEL_OP_LAND) == (a == 0)) {
            *out = n->op == MODEL_OP_LOR;
            return BW_OK;
        }
        if ((rc = eval_node(ev, n->kid[1], &b)) != BW_OK)
            return rc;
        *out = b != 0;
        return BW_OK;
    case MODEL_OP_COND:
        if ((rc = eval_node(ev, n->kid[0], &a)) != BW_OK)
            return rc;
        return eval_node(ev, n->kid[a ? 1 : 2], out);
    default:
        break;
    }
    if ((rc = eval_node(ev, n->kid[0], &a)) != BW_OK)
        return rc;
    if (n->kid[1] >= 0 && (rc = eval_node(ev, n->kid[1], &b)) != BW_OK)
        return rc;
    model_arith_status st = model_arith_apply(n->op, a, b, out);
    if (st != MODEL_ARITH_OK)
        return eval_fail(ev, n, model_arith_reason(st));
    return BW_OK;
}

bw_code model_expr_eval(const model_expr *e, const model_expr_env *env, int64_t *out,
                        bw_error *err)
{
    evaluator ev = { e, env, err };
    return eval_node(&ev, e->root, out);
}

/* ---- printing ----------------------------------------------------------- */

static int op_prec(model_expr_op op)
{
    switch (op) {
    case MODEL_OP_COND: return 0;
    case MODEL_OP_LOR: return 1;
    case MODEL_OP_LAND: return 2;
    case MODEL_OP_BOR: return 3;
    case MODEL_OP_BXOR: return 4;
    case MODEL_OP_BAND: return 5;
    case MODEL_OP_EQ:
    case MODEL_OP_NE: return 6;
    case MODEL_OP_LT:
    case MODEL_OP_LE:
    case MODEL_OP_GT:
    case MODEL_OP_GE: return 7;
    case MODEL_OP_SHL:
    case MODEL_OP_SHR: return 8;
    case MODEL_OP_ADD:
    case MODEL_OP_SUB: return 9;
    case MODEL_OP_MUL:
    case MODEL_OP_DIV:
    case MODEL_OP_MOD: return 10;
    case MODEL_OP_NEG:
    case MODEL_OP_POS:
    case MODEL_OP_NOT:
    case MODEL_OP_BITNOT: return 11;
    default: return 12; /* NUM, VAR, MIN, MAX */
    }
}

static const char *op_text(model_expr_op op)
{
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++)
        if (binops[i].op == op)
            return binops[i].text;
    switch (op) {
    case MODEL_OP_NEG: return "-";
    case MODEL_OP_POS: return "+";
    case MODEL_OP_NOT: return "!";
    case MODEL_OP_BITNOT: return "~";
    case MODEL_OP_MIN: return "min";
    case MODEL_OP_MAX: return "max";
    default: return "?";
    }
}

static const char *var_text(model_expr_var v)
{
    static const char *const names[] = { "t", "w", "g", "W" };
    return names[v];
}

static int is_binary(model_expr_op op)
{
    return op >= MODEL_OP_MUL && op <= MODEL_OP_LOR;
}

/* Like gcc's -Wparentheses: an operand of a bitwise, shift or logical
 * operator that is a different binary operator gets parentheses even where
 * precedence makes them redundant, so "(a + b) & 31" never prints as
 * "a + b & 31". Returns the min_prec to print child `which` with. */
static int clarity_prec(const model_expr *e, const model_expr_node *n, int which, int min_prec)
{
    model_expr_op p = n->op, k = e->nodes[n->kid[which]].op;
    int picky = p == MODEL_OP_BAND || p == MODEL_OP_BXOR || p == MODEL_OP_BOR || p == MODEL_OP_SHL ||
                p == MODEL_OP_SHR || p == MODEL_OP_LOR || p == MODEL_OP_LAND;
    if (picky && is_binary(k) && k != p)
        return 13; /* above every precedence: always parenthesise */
    return min_prec;
}

static void print_plain(const model_expr *e, int i, int min_prec, bw_buf *out)
{
    const model_expr_node *n = &e->nodes[i];
    int prec = op_prec(n->op);
    int paren = prec < min_prec;
    if (paren)
        bw_buf_putc(out, '(');
    switch (n->op) {
    case MODEL_OP_NUM:
        if (n->hex)
            bw_buf_printf(out, "0x%llx", (unsigned long long)n->value);
        else
            bw_buf_printf(out, "%lld", (long long)n->value);
        break;
    case MODEL_OP_VAR:
        bw_buf_puts(out, var_text(n->var));
        break;
    case MODEL_OP_NEG:
    case MODEL_OP_POS:
    case MODEL_OP_NOT:
    case MODEL_OP_BITNOT: {
        bw_buf_puts(out, op_text(n->op));
        /* a nested prefix operator gets parentheses so "- -t" never prints */
        int kid_prec = op_prec(e->nodes[n->kid[0]].op);
        print_plain(e, n->kid[0], kid_prec == 11 ? 12 : 11, out);
        break;
    }
    case MODEL_OP_MIN:
    case MODEL_OP_MAX:
        bw_buf_puts(out, op_text(n->op));
        bw_buf_putc(out, '(');
        print_plain(e, n->kid[0], 0, out);
        bw_buf_puts(out, ", ");
        print_plain(e, n->kid[1], 0, out);
        bw_buf_putc(out, ')');
        break;
    case MODEL_OP_COND:
        print_plain(e, n->kid[0], 1, out);
        bw_buf_puts(out, " ? ");
        print_plain(e, n->kid[1], 0, out);
        bw_buf_puts(out, " : ");
        print_plain(e, n->kid[2], 0, out);
        break;
    default: /* left-associative binary */
        print_plain(e, n->kid[0], clarity_prec(e, n, 0, prec), out);
        bw_buf_printf(out, " %s ", op_text(n->op));
        print_plain(e, n->kid[1], clarity_prec(e, n, 1, prec + 1), out);
        break;
    }
    if (paren)
        bw_buf_putc(out, ')');
}

void model_expr_print(const model_expr *e, bw_buf *out)
{
    print_plain(e, e->root, 0, out);
}

char *model_expr_to_string(const model_expr *e)
{
    bw_buf b = BW_BUF_INIT;
    model_expr_print(e, &b);
    return bw_buf_steal(&b);
}

/* Whether node i is non-negative for every work-item, given that no value
 * overflows (the host checks that before a kernel is built) and that t, w,
 * g and W are never negative. Sign rules only: SUB, NEG and ~ are never
 * proven. */
static int nonneg(const model_expr *e, int i)
{
    const model_expr_node *n = &e->nodes[i];
    switch (n->op) {
    case MODEL_OP_NUM: return n->value >= 0;
    case MODEL_OP_VAR: return 1;
    case MODEL_OP_POS: return nonneg(e, n->kid[0]);
    case MODEL_OP_NOT:
    case MODEL_OP_LT:
    case MODEL_OP_LE:
    case MODEL_OP_GT:
    case MODEL_OP_GE:
    case MODEL_OP_EQ:
    case MODEL_OP_NE:
    case MODEL_OP_LAND:
    case MODEL_OP_LOR: return 1;
    case MODEL_OP_ADD:
    case MODEL_OP_MUL:
    case MODEL_OP_DIV:
    case MODEL_OP_MOD:
    case MODEL_OP_SHL:
    case MODEL_OP_SHR:
    case MODEL_OP_BOR:
    case MODEL_OP_BXOR:
    case MODEL_OP_MIN: return nonneg(e, n->kid[0]) && nonneg(e, n->kid[1]);
    case MODEL_OP_BAND:
    case MODEL_OP_MAX: return nonneg(e, n->kid[0]) || nonneg(e, n->kid[1]);
    case MODEL_OP_COND: return nonneg(e, n->kid[1]) && nonneg(e, n->kid[2]);
    default: return 0;
    }
}

/* a divisor that is a positive constant or W */
static int positive_divisor(const model_expr *e, int i)
{
    const model_expr_node *n = &e->nodes[i];
    return (n->op == MODEL_OP_NUM && n->value > 0) || (n->op == MODEL_OP_VAR && n->var == MODEL_VAR_WIDTH);
}

/* Whether subtrees i and j are the same expression. */
static int same_tree(const model_expr *e, int i, int j)
{
    if (i == j)
        return 1;
    if (i < 0 || j < 0)
        return 0;
    const model_expr_node *a = &e->nodes[i], *b = &e->nodes[j];
    if (a->op != b->op || (a->op == MODEL_OP_NUM && a->value != b->value) ||
        (a->op == MODEL_OP_VAR && a->var != b->var))
        return 0;
    for (int k = 0; k < 3; k++)
        if (!same_tree(e, a->kid[k], b->kid[k]))
            return 0;
    return 1;
}

/* For x / c * c + x % c (either order) the subtree x, else -1. C's
 * truncating division makes that sum x for every x and c != 0; compilers
 * fold it for powers of two only, so a row-major walk of a matrix whose
 * order is not one would pay a division and a remainder per load. */
static int div_mod_identity(const model_expr *e, const model_expr_node *n)
{
    if (n->op != MODEL_OP_ADD)
        return -1;
    for (int k = 0; k < 2; k++) {
        const model_expr_node *mul = &e->nodes[n->kid[k]], *mod = &e->nodes[n->kid[1 - k]];
        if (mul->op != MODEL_OP_MUL || mod->op != MODEL_OP_MOD)
            continue;
        const model_expr_node *div = &e->nodes[mul->kid[0]];
        if (div->op != MODEL_OP_DIV)
            continue;
        int x = div->kid[0], c = div->kid[1];
        const model_expr_node *cn = &e->nodes[c];
        if (cn->op == MODEL_OP_NUM && cn->value != 0 && same_tree(e, c, mul->kid[1]) &&
            same_tree(e, c, mod->kid[1]) && same_tree(e, x, mod->kid[0]))
            return x;
    }
    return -1;
}

/* bits 64: every value long; bits 32: every value int (model_index has
 * proved that each one fits) */
static void print_cl(const model_expr *e, int i, int bits, bw_buf *out)
{
    const model_expr_node *n = &e->nodes[i];
    const char *type = bits == 32 ? "int" : "long";
    switch (n->op) {
    case MODEL_OP_NUM:
        bw_buf_printf(out, bits == 32 ? "%lld" : "%lldL", (long long)n->value);
        return;
    case MODEL_OP_VAR:
        bw_buf_puts(out, var_text(n->var));
        return;
    case MODEL_OP_NEG:
    case MODEL_OP_BITNOT:
        bw_buf_printf(out, "(%s(", op_text(n->op));
        print_cl(e, n->kid[0], bits, out);
        bw_buf_puts(out, "))");
        return;
    case MODEL_OP_POS:
        print_cl(e, n->kid[0], bits, out);
        return;
    case MODEL_OP_NOT:
        bw_buf_printf(out, "((%s)!(", type);
        print_cl(e, n->kid[0], bits, out);
        bw_buf_puts(out, "))");
        return;
    case MODEL_OP_COND:
        bw_buf_puts(out, "((");
        print_cl(e, n->kid[0], bits, out);
        bw_buf_puts(out, ") ? (");
        print_cl(e, n->kid[1], bits, out);
        bw_buf_puts(out, ") : (");
        print_cl(e, n->kid[2], bits, out);
        bw_buf_puts(out, "))");
        return;
    case MODEL_OP_MIN:
    case MODEL_OP_MAX:
    case MODEL_OP_SHL:
    case MODEL_OP_SHR: {
        const char *fn = n->op == MODEL_OP_MIN   ? "bw_min"
                         : n->op == MODEL_OP_MAX ? "bw_max"
                         : n->op == MODEL_OP_SHL ? "bw_shl"
                                                 : "bw_shr";
        bw_buf_printf(out, "%s%s(", fn, bits == 32 ? "32" : "");
        print_cl(e, n->kid[0], bits, out);
        bw_buf_puts(out, ", ");
        print_cl(e, n->kid[1], bits, out);
        bw_buf_putc(out, ')');
        return;
    }
    case MODEL_OP_ADD: {
        int x = div_mod_identity(e, n);
        if (x >= 0) {
            print_cl(e, x, bits, out);
            return;
        }
        break;
    }
    case MODEL_OP_DIV:
    case MODEL_OP_MOD:
        /* Division and remainder of non-negative values by a positive one
         * are the same signed or unsigned, and unsigned ones compile to
         * shifts and masks (powers of two) or cheaper sequences, and fold
         * (x / n * n + x % n is x) where signed ones cannot. */
        if (nonneg(e, n->kid[0]) && positive_divisor(e, n->kid[1])) {
            const char *u = bits == 32 ? "uint" : "ulong";
            bw_buf_printf(out, "((%s)((%s)(", type, u);
            print_cl(e, n->kid[0], bits, out);
            bw_buf_printf(out, ") %s (%s)(", op_text(n->op), u);
            print_cl(e, n->kid[1], bits, out);
            bw_buf_puts(out, ")))");
            return;
        }
        break;
    default:
        break;
    }
    /* comparisons and logical operators yield int in OpenCL C: widen */
    int widen = n->op >= MODEL_OP_LT && n->op <= MODEL_OP_NE;
    widen = bits != 32 && (widen || n->op == MODEL_OP_LAND || n->op == MODEL_OP_LOR);
    bw_buf_puts(out, widen ? "((long)((" : "((");
    print_cl(e, n->kid[0], bits, out);
    bw_buf_printf(out, ") %s (", op_text(n->op));
    print_cl(e, n->kid[1], bits, out);
    bw_buf_puts(out, widen ? ")))" : "))");
}

void model_expr_print_opencl(const model_expr *e, bw_buf *out)
{
    print_cl(e, e->root, 64, out);
}

void model_expr_print_opencl32(const model_expr *e, bw_buf *out)
{
    print_cl(e, e->root, 32, out);
}
