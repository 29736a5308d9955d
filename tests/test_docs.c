/* The repository stands on its own: every document, path and section that
 * the code, data, scripts and docs cite exists in the repository.
 *
 * Every text file of the source tree (build folders and hidden folders
 * aside) is scanned for
 *   - Markdown links `](target)` to local files,
 *   - any word ending in ".md",
 *   - paths under the project's top-level folders (src/, cl/, data/, docs/,
 *     tools/, tests/) with a file extension,
 *   - sections cited as "design.md §N[.M]",
 * and each must resolve: against the citing file's folder, the repository
 * root, or docs/. */
#define _GNU_SOURCE /* nftw with FTW_ACTIONRETVAL */
#include <criterion/criterion.h>
#include <ftw.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bw_buf.h"
#include "bw_file.h"
#include "test_util.h"

static const char *root;
static bw_buf problems = BW_BUF_INIT;
static size_t files_scanned, refs_checked;

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Whether `ref` names something that exists, seen from file `from`. */
static int resolves(const char *from, const char *ref)
{
    char path[8192];
    const char *slash = strrchr(from, '/');
    int dir_len = slash ? (int)(slash - from) : 0;
    snprintf(path, sizeof path, "%.*s/%s", dir_len, from, ref);
    if (exists(path))
        return 1;
    snprintf(path, sizeof path, "%s/%s", root, ref);
    if (exists(path))
        return 1;
    snprintf(path, sizeof path, "%s/docs/%s", root, ref);
    return exists(path);
}

static void problem(const char *file, const char *what, const char *ref, size_t len)
{
    bw_buf_printf(&problems, "%s: %s '%.*s'\n", file + strlen(root) + 1, what, (int)len, ref);
}

/* Applies `re` to the whole text; group `group` is the reference. */
static void check_refs(const char *file, const char *text, const char *pattern, int group, const char *what)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED), 0, "bad pattern %s", pattern);
    regmatch_t m[4];
    for (const char *s = text; regexec(&re, s, 4, m, s == text ? 0 : REG_NOTBOL) == 0; s += m[0].rm_eo) {
        const char *ref = s + m[group].rm_so;
        size_t len = (size_t)(m[group].rm_eo - m[group].rm_so);
        char buf[4096];
        if (len == 0 || len >= sizeof buf)
            continue;
        memcpy(buf, ref, len);
        buf[len] = '\0';
        /* globs and placeholders name families of files, not one */
        if (strpbrk(buf, "*<>{}$"))
            continue;
        refs_checked++;
        if (!resolves(file, buf))
            problem(file, what, ref, len);
        if (m[0].rm_eo == 0)
            break;
    }
    regfree(&re);
}

static char *design_text;

/* "design.md §2.3": the page must carry that section mark or heading. */
static void check_sections(const char *file, const char *text)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, "design\\.md +(§|section +)([0-9]+(\\.[0-9]+)?)", REG_EXTENDED), 0);
    regmatch_t m[4];
    for (const char *s = text; regexec(&re, s, 4, m, s == text ? 0 : REG_NOTBOL) == 0; s += m[0].rm_eo) {
        char num[32], mark[48], heading[48];
        size_t len = (size_t)(m[2].rm_eo - m[2].rm_so);
        snprintf(num, sizeof num, "%.*s", (int)len, s + m[2].rm_so);
        snprintf(mark, sizeof mark, "§%s", num);
        snprintf(heading, sizeof heading, "## %s.", num);
        refs_checked++;
        if (!strstr(design_text, mark) && !strstr(design_text, heading))
            problem(file, "cites a section docs/design.md does not have:", s + m[0].rm_so,
                    (size_t)(m[0].rm_eo - m[0].rm_so));
    }
    regfree(&re);
}

static int is_text(const char *path)
{
    static const char *const ext[] = { ".c", ".h", ".cl", ".json", ".md", ".sh", ".build", ".txt", ".supp" };
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!strcmp(base, "run") || !strcmp(base, "meson_options.txt") || !strcmp(base, ".gitignore"))
        return 1;
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && !strcmp(path + n - k, ext[i]))
            return 1;
    }
    return 0;
}

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    const char *base = path + ftw->base;
    if (flag == FTW_D && ftw->level > 0 &&
        ((base[0] == '.' && strcmp(base, ".ci")) || !strncmp(base, "build", 5) || !strcmp(base, "subprojects")))
        return FTW_SKIP_SUBTREE;
    if (flag != FTW_F || !is_text(path))
        return FTW_CONTINUE;
    /* this file's fixtures dangle on purpose */
    if (!strcmp(base, "test_docs.c"))
        return FTW_CONTINUE;
    char *text = NULL;
    if (bw_file_read(path, &text, NULL, NULL) != BW_OK)
        return FTW_CONTINUE;
    files_scanned++;
    check_refs(path, text, "\\]\\(([^)#: ]+)(#[^)]*)?\\)", 1, "links to a missing file");
    check_refs(path, text, "([A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md)([^A-Za-z0-9_]|$)", 1, "cites a missing document");
    check_refs(path, text,
               "(^|[^A-Za-z0-9_./-])((src|cl|data|docs|tools|tests)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\\."
               "(c|h|cl|json|md|sh|supp))([^A-Za-z0-9_]|$)",
               2, "names a missing file");
    check_sections(path, text);
    free(text);
    return FTW_CONTINUE;
}

Test(docs, every_reference_resolves_inside_the_repository)
{
    root = tu_source_root();
    char path[4200];
    snprintf(path, sizeof path, "%s/docs/design.md", root);
    cr_assert_eq(bw_file_read(path, &design_text, NULL, NULL), BW_OK, "the repository has no docs/design.md");
    cr_assert_eq(nftw(root, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL), 0);
    cr_expect_gt(files_scanned, 50, "only %zu files scanned under %s", files_scanned, root);
    cr_expect_gt(refs_checked, 20, "only %zu references found", refs_checked);
    cr_expect(bw_buf_str(&problems)[0] == '\0', "references that resolve nowhere in the repository:\n%s",
              bw_buf_str(&problems));
    free(design_text);
    bw_buf_free(&problems);
}

/* The scan itself finds what it must: a missing document, a missing path
 * and a missing section, and accepts what exists. */
Test(docs, the_scan_catches_each_kind_of_dangling_reference)
{
    char *dir = tu_temp_dir();
    root = dir;
    design_text = strdup("## 2. Model\n- §2.1 one warp\n");
    tu_write_file(dir, "a.md", "see [b](b.md), [c](missing.md) and notes.md; src/x.c and src/there.c; "
                               "design.md §2.1 and design.md §7.2\n");
    tu_write_file(dir, "b.md", "ok\n");
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/src", dir);
    cr_assert_eq(mkdir(sub, 0700), 0);
    tu_write_file(sub, "there.c", "/* docs/b.md is not there, b.md is */\n");
    cr_assert_eq(nftw(dir, visit, 32, FTW_PHYS | FTW_ACTIONRETVAL), 0);
    const char *p = bw_buf_str(&problems);
    cr_expect(strstr(p, "a.md: links to a missing file 'missing.md'"), "%s", p);
    cr_expect(strstr(p, "a.md: cites a missing document 'notes.md'"), "%s", p);
    cr_expect(strstr(p, "a.md: names a missing file 'src/x.c'"), "%s", p);
    cr_expect(strstr(p, "design.md §7.2"), "%s", p);
    cr_expect(!strstr(p, "§2.1"), "%s", p);
    cr_expect(!strstr(p, "'b.md'"), "%s", p);
    cr_expect(!strstr(p, "'src/there.c'"), "%s", p);
    cr_expect(strstr(p, "src/there.c: cites a missing document 'docs/b.md'"), "%s", p);
    free(design_text);
    bw_buf_free(&problems);
    tu_rmdir(dir);
    free(dir);
}
