/* Each layer's public set (src/<layer>/include) holds what a layer above
 * uses and nothing more: every public header is included from outside its
 * layer (another layer's sources, tools/), directly or through a public
 * header of its own layer that is; and every function a public header
 * declares is called from above (what the layer alone calls sits in its
 * private headers). Tests do not count as users: they see every private
 * header (tests/meson.build, private_inc). The scan is checked on a
 * made-up tree first. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bw_buf.h"
#include "bw_file.h"
#include "test_util.h"

typedef struct src_file {
    char path[512]; /* relative to the root: "src/bench/include/bench_run.h" */
    char name[128]; /* "bench_run.h" */
    char *text;
} src_file;

typedef struct src_tree {
    src_file *f;
    size_t n, cap;
} src_tree;

static int is_source(const char *name)
{
    size_t n = strlen(name);
    return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* Every .c and .h directly in root/rel. */
static void add_dir(src_tree *t, const char *root, const char *rel)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, rel);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_source(e->d_name))
            continue;
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->f = realloc(t->f, t->cap * sizeof *t->f);
            cr_assert(t->f);
        }
        src_file *f = &t->f[t->n];
        snprintf(f->path, sizeof f->path, "%s/%s", rel, e->d_name);
        snprintf(f->name, sizeof f->name, "%s", e->d_name);
        char full[1700];
        snprintf(full, sizeof full, "%s/%s", root, f->path);
        f->text = NULL;
        cr_assert_eq(bw_file_read(full, &f->text, NULL, NULL), BW_OK, "cannot read %s", full);
        t->n++;
    }
    closedir(d);
}

/* src/<layer>/, src/<layer>/include/ of every layer, and tools/. */
static void load_tree(src_tree *t, const char *root)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/src", root);
    DIR *d = opendir(src);
    cr_assert(d, "no src/ under %s", root);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char rel[512];
        snprintf(rel, sizeof rel, "src/%s", e->d_name);
        add_dir(t, root, rel);
        snprintf(rel, sizeof rel, "src/%s/include", e->d_name);
        add_dir(t, root, rel);
    }
    closedir(d);
    add_dir(t, root, "tools");
}

static void free_tree(src_tree *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->f[i].text);
    free(t->f);
}

static int in_layer(const src_file *f, const char *layer)
{
    char pre[256];
    snprintf(pre, sizeof pre, "src/%s/", layer);
    return !strncmp(f->path, pre, strlen(pre));
}

static int is_public(const src_file *f, const char *layer)
{
    char pre[256];
    snprintf(pre, sizeof pre, "src/%s/include/", layer);
    return !strncmp(f->path, pre, strlen(pre));
}

static int includes(const src_file *f, const char *header)
{
    char line[256];
    snprintf(line, sizeof line, "#include \"%s\"", header);
    return strstr(f->text, line) != NULL;
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static int has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
        if ((p == text || !word_char(p[-1])) && !word_char(p[n]))
            return 1;
    return 0;
}

/* Public headers of `layer` that nothing outside it reaches, into out. */
static void unused_headers(const src_tree *t, const char *layer, bw_buf *out)
{
    int *used = calloc(t->n, sizeof *used);
    cr_assert(used);
    for (size_t i = 0; i < t->n; i++) {
        if (!is_public(&t->f[i], layer))
            continue;
        for (size_t j = 0; j < t->n && !used[i]; j++)
            used[i] = !in_layer(&t->f[j], layer) && includes(&t->f[j], t->f[i].name);
    }
    /* a header a used public header includes is reached too */
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (!is_public(&t->f[i], layer) || used[i])
                continue;
            for (size_t j = 0; j < t->n && !used[i]; j++)
                used[i] = used[j] && is_public(&t->f[j], layer) && includes(&t->f[j], t->f[i].name);
            changed |= used[i];
        }
    }
    for (size_t i = 0; i < t->n; i++)
        if (is_public(&t->f[i], layer) && !used[i])
            bw_buf_printf(out, "%s: public, but no layer above includes it\n", t->f[i].path);
    free(used);
}

/* Functions declared at the start of a line of `layer`'s public headers
 * (`bw_code bench_run(...`, `const char *bench_x(...`) whose names no file
 * outside the layer mentions, into out. */
static void unused_functions(const src_tree *t, const char *layer, bw_buf *out)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s_", layer);
    for (size_t i = 0; i < t->n; i++) {
        if (!is_public(&t->f[i], layer))
            continue;
        for (const char *line = t->f[i].text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
            if (!(*line >= 'a' && *line <= 'z') || !strncmp(line, "typedef", 7))
                continue;
            const char *eol = strchr(line, '\n');
            const char *paren = strchr(line, '(');
            if (!paren || (eol && paren > eol))
                continue;
            const char *s = paren;
            while (s > line && word_char(s[-1]))
                s--;
            char name[128];
            size_t n = (size_t)(paren - s);
            if (n == 0 || n >= sizeof name || strncmp(s, prefix, strlen(prefix)))
                continue;
            memcpy(name, s, n);
            name[n] = '\0';
            int used = 0;
            for (size_t j = 0; j < t->n && !used; j++)
                used = !in_layer(&t->f[j], layer) && has_word(t->f[j].text, name);
            if (!used)
                bw_buf_printf(out, "%s: declares %s(), which no layer above calls\n", t->f[i].path, name);
        }
    }
}

static void write_at(const char *root, const char *rel_dir, const char *name, const char *text)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", root, rel_dir);
    char *p = dir + strlen(root) + 1;
    for (char *s = strchr(p, '/');; s = strchr(s + 1, '/')) {
        if (s)
            *s = '\0';
        mkdir(dir, 0700);
        if (!s)
            break;
        *s = '/';
    }
    tu_write_file(dir, name, text);
}

Test(layers, the_scan_finds_an_unused_public_header_and_function)
{
    char *root = tu_temp_dir();
    write_at(root, "src/low/include", "low_a.h", "#include \"low_c.h\"\nint low_used(void);\nint low_unused(void);\n");
    write_at(root, "src/low/include", "low_b.h", "int low_b(void);\n");
    write_at(root, "src/low/include", "low_c.h", "typedef int low_t;\n");
    write_at(root, "src/low", "low.c", "#include \"low_b.h\"\nint low_unused(void) { return low_b(); }\n");
    write_at(root, "src/top", "top.c", "#include \"low_a.h\"\nint top(void) { return low_used(); }\n");
    src_tree t = { 0 };
    load_tree(&t, root);
    cr_assert_eq(t.n, 5);
    bw_buf p = BW_BUF_INIT;
    unused_headers(&t, "low", &p);
    unused_functions(&t, "low", &p);
    const char *s = bw_buf_str(&p);
    cr_expect(strstr(s, "low/include/low_b.h: public, but no layer above includes it"), "%s", s);
    cr_expect(!strstr(s, "low_a.h: public"), "%s", s);
    cr_expect(!strstr(s, "low_c.h"), "low_c.h is reached through low_a.h:\n%s", s);
    cr_expect(strstr(s, "low_a.h: declares low_unused()"), "%s", s);
    cr_expect(!strstr(s, "low_used()"), "%s", s);
    bw_buf_free(&p);
    free_tree(&t);
    tu_rmdir(root);
    free(root);
}

/* one check over every layer of the real tree: what it reports is a failure */
static void check_every_layer(void (*check)(const src_tree *, const char *, bw_buf *))
{
    static const char *const layers[] = { "model", "ocl", "results", "report", "bench" };
    src_tree t = { 0 };
    load_tree(&t, tu_source_root());
    cr_assert_gt(t.n, 150, "only %zu source files found under %s", t.n, tu_source_root());
    bw_buf p = BW_BUF_INIT;
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
        check(&t, layers[i], &p);
    cr_expect(bw_buf_str(&p)[0] == '\0', "%s", bw_buf_str(&p));
    bw_buf_free(&p);
    free_tree(&t);
}

Test(layers, every_public_header_is_used_above_its_layer)
{
    check_every_layer(unused_headers);
}

Test(layers, public_headers_declare_only_what_a_layer_above_calls)
{
    check_every_layer(unused_functions);
}
