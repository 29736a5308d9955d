/* nftw; dl_iterate_phdr */
#define _XOPEN_SOURCE 700
#define _GNU_SOURCE
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "bw_file.h"

static char *slurp_fd(int fd)
{
    bw_buf b = BW_BUF_INIT;
    char tmp[4096];
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, tmp, sizeof tmp)) > 0)
        bw_buf_putn(&b, tmp, (size_t)n);
    bw_buf_puts(&b, "");
    return bw_buf_steal(&b);
}

/* runs file (searched in PATH when it has no slash) with argv[0] = file */
static int run_program(const char *file, const char *const *argv, const char *const *env,
                       char **out, char **err)
{
    char out_path[] = "/tmp/bwlab-test-outXXXXXX", err_path[] = "/tmp/bwlab-test-errXXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    unlink(out_path);
    unlink(err_path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fo, 1);
        dup2(fe, 2);
        for (const char *const *e = env; e && *e; e++) {
            const char *eq = strchr(*e, '=');
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
            if (eq[1])
                setenv(name, eq + 1, 1);
            else
                unsetenv(name);
        }
        int argc = 0;
        while (argv[argc])
            argc++;
        char **args = calloc((size_t)argc + 2, sizeof *args);
        args[0] = (char *)file;
        for (int i = 0; i < argc; i++)
            args[i + 1] = (char *)argv[i];
        execvp(file, args);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char *o = slurp_fd(fo), *e = slurp_fd(fe);
    close(fo);
    close(fe);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

int tu_run(const char *const *argv, const char *const *env, char **out, char **err)
{
    const char *exe = getenv("BWLAB_EXE");
    return run_program(exe ? exe : "bwlab", argv, env, out, err);
}

tu_result tu_run_cmd(const char *const *argv, const char *const *env)
{
    tu_result r;
    r.status = run_program(argv[0], argv + 1, env, &r.out, &r.err);
    return r;
}

tu_result tu_exec(const char *const *argv, const char *const *env)
{
    tu_result r;
    r.status = tu_run(argv, env, &r.out, &r.err);
    return r;
}

tu_result tu_exec_without_opencl(const char *cmd, const char *const *args)
{
    const char *argv[32] = { cmd };
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    char *empty = tu_temp_dir();
    char env_vendors[4200];
    snprintf(env_vendors, sizeof env_vendors, "OCL_ICD_VENDORS=%s", empty ? empty : "/nonexistent");
    const char *env[] = { env_vendors, NULL };
    tu_result r = tu_exec(argv, env);
    if (empty) {
        tu_rmdir(empty);
        free(empty);
    }
    return r;
}

void tu_result_free(tu_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

json_t *tu_exec_json(const char *const *argv)
{
    return tu_exec_json_env(argv, NULL);
}

json_t *tu_exec_json_env(const char *const *argv, const char *const *env)
{
    tu_result r = tu_exec(argv, env);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect_str_eq(r.err, "");
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    cr_assert_not_null(j, "bad JSON (%s): %s", e.text, r.out);
    tu_result_free(&r);
    return j;
}

const char *tu_source_root(void)
{
    const char *s = getenv("BWLAB_SOURCE_ROOT");
    return s ? s : ".";
}

uint64_t tu_rand(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

int64_t tu_range(uint64_t *state, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int64_t)(span ? tu_rand(state) % span : tu_rand(state));
}

void tu_random_expr(uint64_t *st, int depth, bw_buf *out)
{
    static const char *const leaves[] = { "t", "w", "g", "W" };
    static const char *const bin[] = { "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
                                       "<", "<=", ">", ">=", "==", "!=", "&&", "||" };
    int k = depth <= 0 ? 0 : (int)tu_range(st, 0, 9);
    if (k <= 2) {
        if (tu_range(st, 0, 1))
            bw_buf_puts(out, leaves[tu_range(st, 0, 3)]);
        else if (tu_range(st, 0, 3) == 0)
            bw_buf_printf(out, "0x%llx", (unsigned long long)tu_range(st, 0, 300));
        else
            bw_buf_printf(out, "%lld", (long long)tu_range(st, 0, tu_range(st, 0, 1) ? 9 : 70000));
        return;
    }
    if (k == 3) {
        static const char *const un[] = { "-", "+", "!", "~" };
        bw_buf_puts(out, un[tu_range(st, 0, 3)]);
        bw_buf_putc(out, '(');
        tu_random_expr(st, depth - 1, out);
        bw_buf_putc(out, ')');
        return;
    }
    if (k == 4) {
        bw_buf_puts(out, tu_range(st, 0, 1) ? "min(" : "max(");
        tu_random_expr(st, depth - 1, out);
        bw_buf_puts(out, ", ");
        tu_random_expr(st, depth - 1, out);
        bw_buf_putc(out, ')');
        return;
    }
    if (k == 5) {
        bw_buf_putc(out, '(');
        tu_random_expr(st, depth - 1, out);
        bw_buf_puts(out, " ? ");
        tu_random_expr(st, depth - 1, out);
        bw_buf_puts(out, " : ");
        tu_random_expr(st, depth - 1, out);
        bw_buf_putc(out, ')');
        return;
    }
    /* no parentheses half of the time, to exercise precedence */
    int paren = (int)tu_range(st, 0, 1);
    if (paren)
        bw_buf_putc(out, '(');
    tu_random_expr(st, depth - 1, out);
    bw_buf_printf(out, " %s ", bin[tu_range(st, 0, 17)]);
    tu_random_expr(st, depth - 1, out);
    if (paren)
        bw_buf_putc(out, ')');
}

void tu_random_address_expr(uint64_t *st, bw_buf *out)
{
    long long e = 1LL << tu_range(st, 0, 4);
    long long a = (long long)tu_range(st, 0, 40), b = (long long)tu_range(st, 0, 300);
    long long m = (long long)tu_range(st, 1, 97);
    switch (tu_range(st, 0, 9)) {
    case 0: bw_buf_printf(out, "%lld*g + %lld", e * (long long)tu_range(st, 0, 5), b); break;
    case 1: bw_buf_printf(out, "%lld*t + %lld*w + %lld", a, e * (long long)tu_range(st, 0, 40), b); break;
    case 2: bw_buf_printf(out, "%lld*((g %% %lld)*%lld + g / %lld)", e, m, m, m); break;
    case 3: bw_buf_printf(out, "t < %lld ? %lld*g : %lld + %lld*(t + w)", (long long)tu_range(st, 0, 40), e, b, a); break;
    case 4: bw_buf_printf(out, "%lld*(g ^ %lld) + %lld", e, (long long)tu_range(st, 0, 7), b); break;
    case 5: bw_buf_printf(out, "((g * %lld) & %lld) + (w >> %lld)*%lld", a, (1LL << tu_range(st, 2, 12)) - 1,
                          (long long)tu_range(st, 0, 3), b); break;
    case 6: bw_buf_printf(out, "max(%lld*g - %lld, %lld*t)", e, b, a); break;
    case 7: bw_buf_printf(out, "%lld*(w %% %lld) + %lld*t", b, m, e); break;
    case 8: bw_buf_printf(out, "(w == %lld) ? %lld : %lld*g + %lld", (long long)tu_range(st, 0, 20), b, e, a); break;
    default: {
        bw_buf sub = BW_BUF_INIT;
        tu_random_expr(st, 3, &sub);
        bw_buf_printf(out, "%lld*g + ((%s) & 255)", e, bw_buf_str(&sub));
        bw_buf_free(&sub);
    }
    }
}

char *tu_temp_dir(void)
{
    char tmpl[] = "/tmp/bwlab-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

void tu_write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* no system("rm -rf"): forking a shell from a process with OpenCL worker
 * threads upsets LeakSanitizer */
void tu_rmdir(const char *dir)
{
    if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

typedef struct lib_search {
    const char *part;
    char *found;
    size_t n;
} lib_search;

static int find_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    lib_search *s = data;
    if (info->dlpi_name && strstr(info->dlpi_name, s->part)) {
        snprintf(s->found, s->n, "%s", info->dlpi_name);
        return 1;
    }
    return 0;
}

int tu_loaded_library(const char *part, char *found, size_t n)
{
    lib_search s = { part, found, n };
    if (n)
        found[0] = '\0';
    return dl_iterate_phdr(find_library, &s);
}

int tu_include_reaches(const char *root, const char *const *dirs, size_t ndirs, const char *const *bad, size_t nbad,
                       const char *file, char *why, size_t n)
{
    static int depth;
    for (size_t i = 0; i < nbad; i++)
        if (!strncmp(file, bad[i], strlen(bad[i]))) {
            snprintf(why, n, "%s", file);
            return 1;
        }
    if (depth > 12)
        return 0;
    for (size_t i = 0; i < ndirs; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s/%s", root, dirs[i], file);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        char line[1024];
        int hit = 0;
        while (!hit && fgets(line, sizeof line, f)) {
            char inc[256];
            if (sscanf(line, " #include \"%255[^\"]\"", inc) != 1 && sscanf(line, " #include <%255[^>]>", inc) != 1)
                continue;
            if (!strcmp(inc, file))
                continue;
            depth++;
            int r = tu_include_reaches(root, dirs, ndirs, bad, nbad, inc, why, n);
            depth--;
            if (r) {
                size_t l = strlen(why);
                snprintf(why + l, n - l, " <- %s", file);
                hit = 1;
            }
        }
        fclose(f);
        return hit;
    }
    return 0;
}

void tu_layer_includes_nothing_of(const char *dir, const char *const *dirs, size_t ndirs, const char *const *bad,
                                  size_t nbad)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", tu_source_root(), dir);
    DIR *d = opendir(path);
    cr_assert(d, "cannot read %s", path);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 3 || (strcmp(de->d_name + l - 2, ".c") && strcmp(de->d_name + l - 2, ".h")))
            continue;
        char why[4096] = "";
        cr_expect(!tu_include_reaches(tu_source_root(), dirs, ndirs, bad, nbad, de->d_name, why, sizeof why),
                  "%s includes %s", dir, why);
        files++;
    }
    closedir(d);
    cr_expect(files > 10, "%s holds %zu sources", dir, files);
}

