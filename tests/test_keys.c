/* test_keys: a written results document and docs/results.md held to the
 * document's key tables (test_keys.h). */
#include "test_keys.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "results_doc_keys_priv.h"

static const char *const HEAD[] = { "schema", "schema_version", "tool", "date", "command_line", NULL };

static int in_head(const char *k)
{
    for (size_t i = 0; HEAD[i]; i++)
        if (!strcmp(HEAD[i], k))
            return 1;
    return 0;
}

typedef struct walk {
    const tu_key_table *tables;
    size_t n;
    char seen[8192]; /* " key key ... " */
} walk;

static int known(const walk *w, const char *k, const json_t *v)
{
    if (results_doc_key_find(RESULTS_TIMING_KEYS, RTIME_N, k, v))
        return 1;
    for (size_t t = 0; t < w->n; t++)
        if (results_doc_key_find(w->tables[t].keys, w->tables[t].n, k, v))
            return 1;
    return 0;
}

static void walk_node(walk *w, const json_t *o, const char *path, int top)
{
    if (json_is_array(o)) {
        size_t i;
        json_t *v;
        json_array_foreach((json_t *)o, i, v) walk_node(w, v, path, 0);
        return;
    }
    if (!json_is_object(o))
        return;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        if (top && in_head(k))
            continue;
        cr_expect(known(w, k, v), "%s.%s (a %s) is in no key table of the document", path, k,
                  json_is_object(v) ? "object" : json_is_array(v) ? "array" : json_is_string(v) ? "string"
                                               : json_is_boolean(v) ? "boolean" : "number");
        char word[128];
        snprintf(word, sizeof word, " %s ", k);
        if (!strstr(w->seen, word) && strlen(w->seen) + strlen(word) < sizeof w->seen)
            strcat(w->seen, word + 1);
        if (!strcmp(k, "device") && json_is_object(v))
            continue;
        char sub[512];
        snprintf(sub, sizeof sub, "%s.%s", path, k);
        walk_node(w, v, sub, 0);
    }
}

size_t tu_expect_doc_keys(const json_t *doc, const tu_key_table *tables, size_t n)
{
    walk *w = calloc(1, sizeof *w);
    cr_assert_not_null(w);
    w->tables = tables;
    w->n = n;
    w->seen[0] = ' ';
    walk_node(w, doc, "$", 1);
    size_t count = 0;
    for (const char *p = w->seen; *p; p++)
        count += *p == ' ';
    free(w);
    return count - 1;
}

char *tu_results_doc_section(const char *heading)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tu_source_root(), "docs/results.md");
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot read %s", path);
    static char doc[1 << 20];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    fclose(f);
    doc[n] = '\0';
    char *start = strstr(doc, heading);
    cr_assert_not_null(start, "docs/results.md has no section %s", heading);
    char *end = strstr(start + 1, "\n## ");
    size_t len = end ? (size_t)(end - start) : strlen(start);
    char *sec = malloc(len + 1);
    cr_assert_not_null(sec);
    memcpy(sec, start, len);
    sec[len] = '\0';
    return sec;
}

void tu_expect_keys_documented(const char *heading, const tu_key_table *tables, size_t n)
{
    char *start = tu_results_doc_section(heading);
    for (size_t t = 0; t < n; t++)
        for (size_t i = 0; i < tables[t].n; i++) {
            char want[96], array[96];
            snprintf(want, sizeof want, "`%s`", tables[t].keys[i].key);
            snprintf(array, sizeof array, "`%s[]`", tables[t].keys[i].key);
            cr_expect(strstr(start, want) || strstr(start, array), "docs/results.md's %s does not name the key '%s'",
                      heading, tables[t].keys[i].key);
        }
    free(start);
}
