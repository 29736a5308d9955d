/* bench_kernel: loading the kernel files once per run, and a plan's
 * OpenCL C program: bw_expr.cl once, then gather.cl once per pattern
 * behind that pattern's definitions (bench_kernel.h). */
#include "bench_kernel.h"

#include "bench_family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "bw_file.h"

struct bench_kernels {
    char *prelude;      /* bw_expr.cl */
    char *gather;       /* gather.cl */
    char *gather_path;
    char *dir;          /* --kernels, or NULL */
};

void bench_kernels_free(bench_kernels *k)
{
    if (!k)
        return;
    free(k->prelude);
    free(k->gather);
    free(k->gather_path);
    free(k->dir);
    free(k);
}

bw_code bench_kernel_source_load(const char *dir, const char *name, char **text, char **path_out, bw_error *err)
{
    char *path = NULL;
    bw_code rc = bw_file_find_resource("cl", name, dir, "--kernels", "BWLAB_KERNEL_DIR", &path, err);
    if (rc == BW_OK)
        rc = bw_file_read(path, text, NULL, err);
    if (rc == BW_OK && path_out)
        *path_out = path;
    else
        free(path);
    return rc;
}

bw_code bench_kernels_load(const char *dir, bench_kernels **out, bw_error *err)
{
    *out = NULL;
    bench_kernels *k = calloc(1, sizeof *k);
    if (!k)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (dir && !(k->dir = strdup(dir))) {
        free(k);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    bw_code rc = bench_kernel_source_load(dir, "bw_expr.cl", &k->prelude, NULL, err);
    if (rc == BW_OK)
        rc = bench_kernel_source_load(dir, BENCH_KERNEL_FILE, &k->gather, &k->gather_path, err);
    if (rc != BW_OK) {
        bench_kernels_free(k);
        return rc;
    }
    *out = k;
    return BW_OK;
}

const char *bench_kernels_dir(const bench_kernels *k)
{
    return k->dir;
}

const char *bench_kernels_path(const bench_kernels *k)
{
    return k->gather_path;
}

static const char *elem_type(int64_t elem)
{
    return elem == 16 ? "uint4" : elem == 8 ? "uint2" : "uint";
}

const char *bench_form_name(bench_form f)
{
    return f == BENCH_FORM_SCALAR ? "scalar" : f == BENCH_FORM_WARP ? "warp" : "plain";
}

unsigned bench_kernel_trace_arg(const bench_item *it)
{
    return it->access == BENCH_ACCESS_READ ? BENCH_KERNEL_ARG_KEY + 1 : BENCH_KERNEL_ARG_KEY;
}

void bench_kernel_name(size_t i, bench_form form, char *buf, size_t n)
{
    if (form == BENCH_FORM_PLAIN)
        snprintf(buf, n, "bw_gather_%zu", i);
    else
        snprintf(buf, n, "bw_gather_%zu_%s", i, bench_form_name(form));
}

/* the definitions gather.cl expects, for one pattern */
static void definitions(bw_buf *b, const bench_item *it, size_t i, bench_form form, int W, int sub_group,
                        int read_flag)
{
    static const char *const names[] = { "BW_KERNEL", "BW_W",     "BW_E",       "BW_ELEM",    "BW_LOAD",
                                         "BW_ACTIVE", "BW_ADDR",  "BW_INDEX32", "BW_REQD_SG", "BW_SCALAR",
                                         "BW_READ",   "BW_MATCH", "BW_WRITE",   "BW_STORE",   "BW_UNROLL",
                                         "BW_READ_FLAG", "BW_WARP" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        bw_buf_printf(b, "#undef %s\n", names[k]);
    char name[48];
    bench_kernel_name(i, form, name, sizeof name);
    bw_buf_printf(b, "/* pattern %s, %s form */\n#define BW_KERNEL %s\n", it->spec, bench_form_name(form), name);
    if (form == BENCH_FORM_SCALAR)
        bw_buf_puts(b, "#define BW_SCALAR 1\n");
    if (form == BENCH_FORM_WARP)
        bw_buf_puts(b, "#define BW_WARP 1\n");
    /* in the 32-bit form every index value is int, literals included */
    const char *sfx = it->index_bits == 32 ? "" : "L";
    if (it->index_bits == 32)
        bw_buf_puts(b, "#define BW_INDEX32 1\n");
    if (sub_group > 0)
        bw_buf_printf(b, "#define BW_REQD_SG %d\n", sub_group);
    bw_buf_printf(b, "#define BW_W %d%s\n#define BW_E %lld%s\n#define BW_ELEM %s\n", W, sfx, (long long)it->elem,
                  sfx, elem_type(it->elem));
    bw_buf_printf(b, "#define BW_UNROLL %d\n", bench_item_unroll(it));
    /* Loads through the byte address: p[a / E] costs a signed division's
     * fix-ups on every load, and stops PoCL vectorising contiguous
     * addresses into vector loads. Naturally aligned: a plain load;
     * 4-byte aligned only: vloadn. */
    if (!it->vload)
        bw_buf_puts(b, "#define BW_LOAD(p, a) (*(__global const BW_ELEM *)((__global const char *)(p) + (a)))\n");
    else
        bw_buf_printf(b,
                      "#define BW_LOAD(p, a) vload%lld(0, (__global const uint *)((__global const char *)(p) + (a)))\n",
                      (long long)(it->elem / 4));
    if (it->access == BENCH_ACCESS_WRITE) {
        /* write mode: the pattern's address is the store's, aligned as the loads' are */
        bw_buf_puts(b, "#define BW_WRITE 1\n");
        if (!it->vload)
            bw_buf_puts(b, "#define BW_STORE(p, a, v) (*(__global BW_ELEM *)((__global char *)(p) + (a)) = (v))\n");
        else
            bw_buf_printf(b, "#define BW_STORE(p, a, v) vstore%lld((v), 0, (__global uint *)((__global char *)(p) + (a)))\n",
                          (long long)(it->elem / 4));
    }
    if (it->access == BENCH_ACCESS_READ) {
        /* read mode: the loaded element against the key, every component */
        bw_buf_puts(b, "#define BW_READ 1\n");
        /* the warp form's lanes store in branches of their own: no flag */
        if (read_flag && form != BENCH_FORM_WARP)
            bw_buf_puts(b, "#define BW_READ_FLAG 1\n");
        bw_buf_puts(b, it->elem == 4 ? "#define BW_MATCH(v, k) ((v) == (k))\n" : "#define BW_MATCH(v, k) all((v) == (k))\n");
    }
    if (model_lanes_count(&it->active) == W) {
        bw_buf_puts(b, "#define BW_ACTIVE(t) 1\n");
    } else {
        /* the lane mask, 64 lanes a word */
        bw_buf_puts(b, "#define BW_ACTIVE(t) ((");
        int words = (W + 63) / 64;
        for (int k = 0; k < words; k++) {
            if (k + 1 < words)
                bw_buf_printf(b, "(t) < %d ? ", 64 * (k + 1));
            bw_buf_printf(b, "(0x%llxUL >> ((t) - %d))", (unsigned long long)it->active.bits[k], 64 * k);
            if (k + 1 < words)
                bw_buf_puts(b, " : ");
        }
        bw_buf_puts(b, ") & 1UL)\n");
    }
    bw_buf_puts(b, "#define BW_ADDR (");
    if (it->index_bits == 32)
        model_expr_print_opencl32(it->expr, b);
    else
        model_expr_print_opencl(it->expr, b);
    bw_buf_puts(b, ")\n");
}

bw_code bench_kernel_program(const bench_kernels *k, const bench_plan *plan, size_t first, size_t count,
                             int trace, char **source, bw_error *err)
{
    *source = NULL;
    bw_buf b = BW_BUF_INIT;
    bw_buf_puts(&b, "/* bwlab: one kernel per pattern */\n");
    if (trace)
        bw_buf_puts(&b, "#define BWLAB_TRACE 1\n");
    bw_buf_puts(&b, k->prelude);
    for (size_t i = first; i < first + count && i < plan->n; i++) {
        if (plan->items[i].fam->program)
            continue; /* a family with a program of its own (bench_family.program) */
        bench_form forms[2] = { BENCH_FORM_PLAIN, (bench_form)plan->items[i].alt_form };
        for (int f = 0; f < (plan->items[i].scalar_form ? 2 : 1); f++) {
            bw_buf_putc(&b, '\n');
            definitions(&b, &plan->items[i], i, forms[f], plan->geo.lanes, plan->reqd_sub_group_size,
                        plan->read_flag);
            bw_buf_puts(&b, k->gather);
        }
    }
    *source = bw_buf_steal(&b);
    if (!*source)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    return BW_OK;
}
