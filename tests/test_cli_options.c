/* Options, one rule for every command. The repeat test reads
 * the commands from `bwlab --help` and each command's options from `bwlab
 * help CMD` (the lines that define them), gives each option twice and
 * asserts the one behaviour: exit 2, "option '--NAME' given twice", nothing
 * on stdout; an option documented "may repeat" is accepted twice instead.
 * Every repeat is refused while the options are read, before any device
 * work, so the test is fast. Then: bad input on a machine without OpenCL
 * is exit 2, never 3; and the messages that must say what happened.
 * And the option tables (cli_command.options) against the real `bwlab
 * help CMD`: every option of a table is in its command's help, and the
 * help names no option its table lacks. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bw_buf.h"
#include "cli.h"
#include "cli_option.h"
#include "test_util.h"

/* the subcommands `bwlab --help` lists, into names (at most max) */
static size_t list_commands(char names[][32], size_t max)
{
    const char *argv[] = { "--help", NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_assert_eq(r.status, 0, "bwlab --help: exit %d", r.status);
    const char *p = strstr(r.out, "Commands:\n");
    cr_assert_not_null(p, "bwlab --help lists no commands: %s", r.out);
    size_t n = 0;
    for (p = strchr(p, '\n') + 1; *p == ' ' && n < max; p = strchr(p, '\n') + 1) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " \n");
        cr_assert_lt(len, 32);
        memcpy(names[n], p, len);
        names[n++][len] = '\0';
        if (!strchr(p, '\n'))
            break;
    }
    tu_result_free(&r);
    return n;
}

typedef struct opt_doc {
    char name[40];
    int takes_value; /* the help shows a value after the name (FILE, N, a|b) */
    int repeatable;  /* its help line says "may repeat" */
} opt_doc;

/* the options `bwlab help CMD` defines: every --name on a line that
 * starts with "  --" (the option column), the first of each name kept */
static size_t list_options(const char *cmd, opt_doc *o, size_t max)
{
    const char *argv[] = { "help", cmd, NULL };
    tu_result r = tu_exec(argv, NULL);
    cr_assert_eq(r.status, 0, "bwlab help %s: exit %d", cmd, r.status);
    size_t n = 0;
    for (const char *line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "  --", 4) != 0)
            continue;
        size_t line_len = strcspn(line, "\n");
        /* the option column ends at the first run of two spaces after it */
        const char *desc = strstr(line + 2, "  ");
        size_t col = desc && (size_t)(desc - line) < line_len ? (size_t)(desc - line) : line_len;
        int rep = 0;
        for (const char *q = line; q < line + line_len - 9; q++)
            rep |= !strncmp(q, "may repeat", 10);
        for (const char *q = line; q < line + col; q++) {
            if (strncmp(q, "--", 2) != 0 || !islower((unsigned char)q[2]))
                continue;
            const char *e = q + 2;
            while (islower((unsigned char)*e) || isdigit((unsigned char)*e) || *e == '-')
                e++;
            size_t len = (size_t)(e - q - 2);
            char name[40];
            cr_assert_lt(len, sizeof name);
            memcpy(name, q + 2, len);
            name[len] = '\0';
            int known = 0;
            for (size_t k = 0; k < n; k++)
                known |= !strcmp(o[k].name, name);
            if (!known && n < max) {
                snprintf(o[n].name, sizeof o[n].name, "%s", name);
                /* a value: " X" where X is upper case, a digit, or a list a|b */
                const char *v = *e == ' ' ? e + 1 : NULL;
                o[n].takes_value = v && v < line + col &&
                                   (isupper((unsigned char)*v) || isdigit((unsigned char)*v) ||
                                    (islower((unsigned char)*v) && memchr(v, '|', strcspn(v, " ,\n"))));
                o[n].repeatable = rep;
                n++;
            }
            q = e - 1;
        }
    }
    tu_result_free(&r);
    return n;
}

/* a value the option accepts, so that the second occurrence is what fails
 * (the first is parsed as it comes) */
static const char *valid_value(const char *cmd, const char *opt)
{
    static const char *const table[][2] = {
        { "device", "cpu" },      { "format", "table" },    { "output", "/nonexistent-dir/x" },
        { "budget", "1" },        { "size", "4M" },         { "elem", "4" },
        { "expr", "4*g" },        { "pattern", "seq" },     { "local", "64" },
        { "rse", "1" },           { "index", "auto" },      { "kernels", "/tmp" },
        { "roofline-size", "4M" }, { "report", "/nonexistent-dir/x.html" },
        { "mode", "read" },       { "baseline", "x" },      { "title", "t" },
        { "active", "1" },        { "mask", "0x1" },        { "base", "0" },
        { "warp", "0" },          { "lanes", "32" },        { "sector", "32" },
        { "line", "128" },        { "banks", "32" },        { "bank-width", "4" },
        { "space", "global" },    { "items", "64" },        { "peak-gflops", "1" },
        { "peak-gbs", "1" },      { "intensity", "1" },     { "tile", "8" },
        { "fill", "random" },     { "unroll", "2" },        { "dram-unit", "64" },
    };
    if (!strcmp(opt, "access"))
        return !strcmp(cmd, "model") ? "load" : "copy";
    if (!strcmp(opt, "profile"))
        return !strcmp(cmd, "model") ? "nvidia" : "inferred";
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i][0], opt))
            return table[i][1];
    return "1";
}

Test(cli_options, every_option_given_twice_is_refused_alike, .timeout = 300)
{
    char cmds[32][32];
    size_t ncmd = list_commands(cmds, 32);
    /* the commands of the command table, help aside */
    cr_assert_geq(ncmd, 10, "bwlab --help lists %zu commands", ncmd);
    size_t tried = 0, repeatable = 0;
    for (size_t c = 0; c < ncmd; c++) {
        if (!strcmp(cmds[c], "help"))
            continue;
        opt_doc opts[64];
        size_t n = list_options(cmds[c], opts, 64);
        /* patterns has the fewest: --format */
        cr_expect_geq(n, 1, "bwlab help %s defines no option", cmds[c]);
        for (size_t i = 0; i < n; i++) {
            char flag[64];
            snprintf(flag, sizeof flag, "--%.40s", opts[i].name);
            const char *v = valid_value(cmds[c], opts[i].name);
            const char *argv[12];
            size_t k = 0;
            argv[k++] = cmds[c];
            /* compare and report want an operand; it is never reached */
            if (!strcmp(cmds[c], "compare") || !strcmp(cmds[c], "report"))
                argv[k++] = "/nonexistent-dir/r.json";
            for (int twice = 0; twice < 2; twice++) {
                argv[k++] = flag;
                if (opts[i].takes_value)
                    argv[k++] = v;
            }
            /* a repeatable option is accepted: the parse ends at --bogus,
             * after both, so nothing is measured */
            if (opts[i].repeatable)
                argv[k++] = "--bogus";
            argv[k] = NULL;
            tu_result r = tu_exec(argv, NULL);
            char want[96];
            snprintf(want, sizeof want, "option '%s' given twice", flag);
            cr_expect_eq(r.status, 2, "bwlab %s %s twice: exit %d: %.300s", cmds[c], flag, r.status, r.err);
            cr_expect_str_eq(r.out, "", "bwlab %s %s twice: output on bad input", cmds[c], flag);
            if (opts[i].repeatable) {
                cr_expect(strstr(r.err, "given twice") == NULL, "bwlab %s %s documented 'may repeat': %.300s",
                          cmds[c], flag, r.err);
                cr_expect(strstr(r.err, "unknown option '--bogus'") != NULL, "bwlab %s %s twice: %.300s", cmds[c],
                          flag, r.err);
                repeatable++;
            } else {
                cr_expect(strstr(r.err, want) != NULL, "bwlab %s %s twice: no \"%s\" in: %.300s", cmds[c], flag,
                          want, r.err);
            }
            tried++;
            tu_result_free(&r);
        }
    }
    /* run alone has 20 options and model 24: the help was read */
    cr_expect_geq(tried, 60, "only %zu options found in the commands' help", tried);
    /* run's --pattern and --expr */
    cr_expect_eq(repeatable, 2, "%zu options documented as repeatable, want run's --pattern and --expr", repeatable);
}

/* bad input on a machine with no OpenCL at all: exit 2 with the input's
 * own message, never 3 ("install a driver") */
Test(cli_options, bad_input_without_opencl_is_bad_input)
{
    static const struct {
        const char *cmd;
        const char *args[8];
        const char *fragment;
    } cases[] = {
        { "run", { "--pattern", "stride:s=2,s=3", NULL }, "parameter 's' given twice" },
        { "run", { "--pattern", "nosuch", NULL }, "unknown pattern 'nosuch'" },
        { "run", { "--expr", "4*q", NULL }, "unknown name" },
        { "run", { "--pattern", "transpose", "--access", "read", NULL }, "runs in copy mode only" },
        { "run", { "--pattern", "record", "--elem", "8", NULL }, "set the element size" },
        { "run", { "--output", "a", "--output", "b", NULL }, "option '--output' given twice" },
        { "tune", { "--device", "cpu", "--device", "cpu", NULL }, "option '--device' given twice" },
        { "tune", { "--budget", "-1", NULL }, "--budget: '-1'" },
        { "roofline", { "--size", "abc", NULL }, "--size: 'abc'" },
        { "roofline", { "--format", "json", "--format", "csv", NULL }, "option '--format' given twice" },
        { "probe", { "--quick", "--quick", NULL }, "option '--quick' given twice" },
        { "devices", { "--device", "0", "--device", "1", NULL }, "option '--device' given twice" },
        { "devices", { "--format", "xml", NULL }, "'xml' is not one of table|json" },
        { "model", { "--profile", "inferred", "--pattern", "stride:s=2,s=3", NULL }, "parameter 's' given twice" },
        { "model", { "--profile", "inferred", "--expr", "010", NULL }, "leading zero" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_result r = tu_exec_without_opencl(cases[i].cmd, cases[i].args);
        cr_expect_eq(r.status, 2, "case %zu (%s %s): exit %d: %.300s", i, cases[i].cmd, cases[i].args[0], r.status,
                     r.err);
        cr_expect(strstr(r.err, cases[i].fragment) != NULL, "case %zu (%s): no '%s' in: %.300s", i, cases[i].cmd,
                  cases[i].fragment, r.err);
        cr_expect(strstr(r.err, "install an OpenCL driver") == NULL, "case %zu: %.300s", i, r.err);
        tu_result_free(&r);
    }
}

/* a results file of schema_version v, else valid: the shipped sample */
static char *results_with_version(const char *dir, const char *name, const char *version)
{
    char src[4096];
    snprintf(src, sizeof src, "%s/tests/data/results/pocl-cpu.json", tu_source_root());
    FILE *f = fopen(src, "rb");
    cr_assert_not_null(f, "%s", src);
    bw_buf b = BW_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        bw_buf_putn(&b, chunk, got);
    fclose(f);
    const char *s = bw_buf_str(&b);
    const char *key = strstr(s, "\"schema_version\": ");
    cr_assert_not_null(key);
    const char *end = key + strlen("\"schema_version\": ");
    while (isdigit((unsigned char)*end))
        end++;
    bw_buf out = BW_BUF_INIT;
    bw_buf_putn(&out, s, (size_t)(key - s));
    bw_buf_printf(&out, "\"schema_version\": %s", version);
    bw_buf_puts(&out, end);
    tu_write_file(dir, name, bw_buf_str(&out));
    bw_buf_free(&b);
    bw_buf_free(&out);
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    return path;
}

Test(cli_options, schema_version_below_one_is_not_valid)
{
    char *dir = tu_temp_dir();
    const char *versions[] = { "0", "-1" };
    for (int i = 0; i < 2; i++) {
        char *path = results_with_version(dir, i ? "m1.json" : "z.json", versions[i]);
        const char *args[] = { path, NULL };
        tu_result r = tu_exec_without_opencl("compare", args);
        char want[96];
        snprintf(want, sizeof want, "schema_version %s is not a valid schema version", versions[i]);
        cr_expect_eq(r.status, 2, "schema_version %s: exit %d", versions[i], r.status);
        cr_expect(strstr(r.err, want) != NULL, "no '%s' in: %.400s", want, r.err);
        cr_expect(strstr(r.err, "newer bwlab") == NULL, "%.400s", r.err);
        tu_result_free(&r);
        free(path);
    }
    /* a version from the future still says so */
    char *path = results_with_version(dir, "new.json", "99");
    const char *args[] = { path, NULL };
    tu_result r = tu_exec_without_opencl("compare", args);
    cr_expect(strstr(r.err, "a newer bwlab wrote it") != NULL, "%.400s", r.err);
    tu_result_free(&r);
    free(path);
    tu_rmdir(dir);
    free(dir);
}

Test(cli_options, a_kernel_that_is_a_directory_says_so)
{
    char *dir = tu_temp_dir();
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/gather.cl", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    /* the other kernel of the gather family is there, as it should be */
    char expr_src[4096];
    snprintf(expr_src, sizeof expr_src, "%s/cl/bw_expr.cl", tu_source_root());
    FILE *f = fopen(expr_src, "rb");
    cr_assert_not_null(f, "%s", expr_src);
    bw_buf text = BW_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        bw_buf_putn(&text, chunk, got);
    fclose(f);
    tu_write_file(dir, "bw_expr.cl", bw_buf_str(&text));
    bw_buf_free(&text);
    const char *argv[] = { "run", "--device", "cpu", "--pattern", "seq", "--kernels", dir, NULL };
    tu_result r = tu_exec(argv, NULL);
    char want[4300];
    snprintf(want, sizeof want, "'%s/gather.cl' is a directory, not a regular file", dir);
    if (r.status == 3)
        cr_skip("no OpenCL device here: %.200s", r.err);
    cr_expect_eq(r.status, 1, "exit %d: %.300s", r.status, r.err);
    cr_expect(strstr(r.err, want) != NULL, "no \"%s\" in: %.400s", want, r.err);
    cr_expect(strstr(r.err, "has no file") == NULL, "%.400s", r.err);
    tu_result_free(&r);
    rmdir(sub);
    tu_rmdir(dir);
    free(dir);
}

/* BWLAB_CACHE_DIR naming a regular file: said, and no promise of a
 * tune.json.malformed that is never made */
Test(cli_options, a_cache_directory_that_is_a_file_is_named, .timeout = 120)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "cachefile", "not a directory\n");
    char env_cache[4300];
    snprintf(env_cache, sizeof env_cache, "BWLAB_CACHE_DIR=%s/cachefile", dir);
    const char *env[] = { env_cache, NULL };
    const char *argv[] = { "tune", "--device", "cpu", "--budget", "0.3", "--size", "1M", NULL };
    tu_result r = tu_exec(argv, env);
    if (r.status == 3)
        cr_skip("no OpenCL device here: %.200s", r.err);
    char want[4400];
    snprintf(want, sizeof want, "the cache directory '%s/cachefile' is not a directory (it is a file)", dir);
    cr_expect(strstr(r.err, want) != NULL, "no \"%s\" in: %.500s", want, r.err);
    cr_expect(strstr(r.err, ".malformed") == NULL, "a promise that is not kept: %.500s", r.err);
    /* the measurement stands; the cache that cannot be written is exit 1 */
    cr_expect_eq(r.status, 1, "exit %d: %.300s", r.status, r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* XDG_CACHE_HOME naming a file: PoCL lists no device; the error names the
 * cache directory before it suggests a driver */
Test(cli_options, an_unusable_pocl_cache_is_named)
{
    char *dir = tu_temp_dir();
    tu_write_file(dir, "xdgfile", "x\n");
    char env_xdg[4300];
    snprintf(env_xdg, sizeof env_xdg, "XDG_CACHE_HOME=%s/xdgfile", dir);
    const char *env[] = { env_xdg, "POCL_CACHE_DIR=", NULL };
    const char *argv[] = { "devices", NULL };
    tu_result r = tu_exec(argv, env);
    if (r.status == 0)
        cr_skip("a device is listed without PoCL's cache (another driver, or a PoCL that needs none)");
    char want[4400];
    snprintf(want, sizeof want, "PoCL's cache directory cannot be made: '%s/xdgfile' (from XDG_CACHE_HOME) is a file",
             dir);
    cr_expect_eq(r.status, 3, "exit %d: %.300s", r.status, r.err);
    cr_expect(strstr(r.err, want) != NULL, "no \"%s\" in: %.500s", want, r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* a pattern name with a newline and an escape sequence, read from a
 * results file: one table row, one Markdown row, no raw control byte */
Test(cli_options, a_hostile_pattern_name_keeps_its_row)
{
    char src[4096];
    snprintf(src, sizeof src, "%s/tests/data/results/pocl-cpu.json", tu_source_root());
    FILE *f = fopen(src, "rb");
    cr_assert_not_null(f);
    bw_buf b = BW_BUF_INIT;
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        bw_buf_putn(&b, chunk, got);
    fclose(f);
    const char *s = bw_buf_str(&b);
    const char *key = strstr(s, "\"pattern\": \"stride:s=2\"");
    cr_assert_not_null(key, "the sample has a stride:s=2 row");
    bw_buf out = BW_BUF_INIT;
    bw_buf_putn(&out, s, (size_t)(key - s));
    bw_buf_puts(&out, "\"pattern\": \"stride:s=2\\nHOSTILE | \\u001b[2J\"");
    bw_buf_puts(&out, key + strlen("\"pattern\": \"stride:s=2\""));
    char *dir = tu_temp_dir();
    tu_write_file(dir, "h.json", bw_buf_str(&out));
    char path[4200];
    snprintf(path, sizeof path, "%s/h.json", dir);
    const char *formats[] = { "table", "md" };
    for (int k = 0; k < 2; k++) {
        const char *args[] = { path, "--format", formats[k], NULL };
        tu_result r = tu_exec_without_opencl("compare", args);
        cr_expect_eq(r.status, 0, "%s: exit %d: %.300s", formats[k], r.status, r.err);
        int rows = 0;
        for (const char *line = r.out; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            size_t len = strcspn(line, "\n");
            const char *hit = strstr(line, "HOSTILE");
            if (!hit || (size_t)(hit - line) > len)
                continue;
            rows++;
            /* the name escaped, in its row's line */
            const char *name = strstr(line, "stride:s=2\\x0aHOSTILE");
            cr_expect(name && (size_t)(name - line) < len, "%s: the row lacks the escaped name: %.*s", formats[k],
                      (int)len, line);
        }
        cr_expect_geq(rows, 1, "%s: no row of the hostile name", formats[k]);
        for (const char *p = r.out; *p; p++)
            if (*p == 0x1b) {
                cr_expect(0, "%s: a raw escape byte in the output", formats[k]);
                break;
            }
        tu_result_free(&r);
    }
    bw_buf_free(&b);
    bw_buf_free(&out);
    tu_rmdir(dir);
    free(dir);
}

/* 1 when opts (a table, or NULL) has an entry named name */
static int table_has(const cli_option *opts, const char *name, size_t len)
{
    for (const cli_option *o = opts; o && o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return 1;
    return 0;
}

/* 1 when "--NAME" (not a longer option's start) is in text */
static int mentions(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(text, "--"); p; p = strstr(p + 1, "--"))
        if (!strncmp(p + 2, name, len) && !(islower((unsigned char)p[2 + len]) || p[2 + len] == '-' ||
                                             isdigit((unsigned char)p[2 + len])))
            return 1;
    return 0;
}

/* 1 when the first option text names is --NAME */
static int first_option_is(const char *text, const char *name)
{
    const char *p = strstr(text, "--");
    size_t len = strlen(name);
    return p && !strncmp(p + 2, name, len) &&
           !(islower((unsigned char)p[2 + len]) || isdigit((unsigned char)p[2 + len]) || p[2 + len] == '-');
}

/* The command the help names last before `at` on its line ("bwlab run
 * --transfers", "bwlab probe files (--format json)"): an option of another
 * command is named with it. NULL when none is. */
static const cli_command *named_before(const char *help, const char *at)
{
    const char *line = at;
    while (line > help && line[-1] != '\n')
        line--;
    size_t n;
    const cli_command *cmds = cli_commands(&n);
    const cli_command *best = NULL;
    const char *best_at = NULL;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(cmds[i].name);
        for (const char *p = line; p + len <= at; p++) {
            int word = (p == line || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[len]);
            if (word && !strncmp(p, cmds[i].name, len) && (!best_at || p > best_at)) {
                best = &cmds[i];
                best_at = p;
            }
        }
    }
    return best;
}

Test(cli_options, every_table_option_is_in_the_help_and_the_help_names_no_other)
{
    size_t n;
    const cli_command *cmds = cli_commands(&n);
    cr_assert_geq(n, 10, "%zu commands", n);
    size_t checked = 0;
    for (size_t c = 0; c < n; c++) {
        const char *argv[] = { "help", cmds[c].name, NULL };
        tu_result r = tu_exec(argv, NULL);
        cr_assert_eq(r.status, 0, "bwlab help %s: exit %d", cmds[c].name, r.status);
        /* after the synopsis (generated from the table: it names them all)
         * and the summary: the option lines and the prose */
        const char *body = strstr(r.out, "\n\n");
        body = body ? strstr(body + 2, "\n\n") : NULL;
        body = body ? body + 2 : "";
        size_t entries = 0;
        for (const cli_option *o = cmds[c].options; o && o->name; o++)
            entries++;
        cr_expect_leq(entries, CLI_OPTIONS_MAX, "%s: %zu options, more than the parser takes", cmds[c].name,
                      entries);
        for (const cli_option *o = cmds[c].options; o && o->name; o++, checked++) {
            cr_expect(mentions(body, o->name), "bwlab help %s: no --%s (beside its synopsis), which its table has",
                      cmds[c].name, o->name);
            /* the repeat rule is the table's, and the help says it */
            char line[256];
            const char *at = strstr(body, "may repeat");
            int said = 0;
            for (; at; at = strstr(at + 1, "may repeat")) {
                const char *start = at;
                while (start > body && start[-1] != '\n')
                    start--;
                snprintf(line, sizeof line, "%.*s", (int)(at - start), start);
                said |= first_option_is(line, o->name);
            }
            cr_expect_eq(said, (o->flags & CLI_OPT_REPEAT) != 0,
                         "bwlab help %s: --%s %s 'may repeat' but its table says CLI_OPT_REPEAT is %s",
                         cmds[c].name, o->name, said ? "says" : "does not say",
                         (o->flags & CLI_OPT_REPEAT) ? "set" : "clear");
        }
        for (const char *p = strstr(r.out, "--"); p; p = strstr(p + 2, "--")) {
            const char *e = p + 2;
            while (islower((unsigned char)*e) || isdigit((unsigned char)*e) || *e == '-')
                e++;
            size_t len = (size_t)(e - p - 2);
            if (!len || table_has(cmds[c].options, p + 2, len))
                continue;
            const cli_command *other = named_before(r.out, p);
            cr_expect(other && other != &cmds[c] && table_has(other->options, p + 2, len),
                      "bwlab help %s names --%.*s, which is not in its table (nor in that of a command it names "
                      "before it on the line)",
                      cmds[c].name, (int)len, p + 2);
        }
        tu_result_free(&r);
    }
    /* run alone has 20 */
    cr_expect_geq(checked, 60, "only %zu options in the tables", checked);
}

Test(cli_options, a_new_option_in_a_table_is_parsed_and_listed)
{
    /* a table of two, through the real parser and help generator */
    typedef struct st {
        const char *name;
        int flag;
    } st;
    static const cli_option opts[] = {
        { .name = "name", .metavar = "TEXT", .help = "a name\nover two lines", .set = cli_set_string,
          .offset = offsetof(st, name) },
        { .name = "flag", .flags = CLI_OPT_NEWLINE, .help = "a flag", .set = cli_set_flag,
          .offset = offsetof(st, flag) },
        CLI_OPTION_END,
    };
    const cli_command cmd = { "demo", "a demo", NULL, opts, NULL, NULL, NULL };
    bw_buf b = BW_BUF_INIT;
    cli_options_usage(&cmd, &b);
    cr_expect_str_eq(bw_buf_str(&b), "bwlab demo [--name TEXT]\n           [--flag]");
    bw_buf_free(&b);
    cli_options_help(&cmd, &b);
    cr_expect_str_eq(bw_buf_str(&b), "  --name TEXT         a name\n"
                                     "                      over two lines\n"
                                     "  --flag              a flag\n");
    bw_buf_free(&b);
    char a0[] = "demo", a1[] = "--flag", a2[] = "--name", a3[] = "x";
    char *argv[] = { a0, a1, a2, a3, NULL };
    st s = { NULL, 0 };
    int operands = -1;
    cr_assert_eq(cli_options_parse(&cmd, 4, argv, &s, &operands), 0);
    cr_expect_eq(s.flag, 1);
    cr_expect_str_eq(s.name, "x");
    cr_expect_eq(operands, 4);
}
