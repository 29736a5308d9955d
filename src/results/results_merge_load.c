/* results_merge_load: where documents come from (results_merge.h): the
 * files and directories named (the scan: links, loops, FIFOs, outputs
 * that are inputs), journals (OUT.partial) assembled into documents,
 * duplicates counted once, peer files (clpeak, BabelStream) told apart
 * by content and kept aside, and a document already in memory. Each is
 * checked (results_merge_schema) and merged (results_merge.c) through the
 * loader of results_merge_loader.h. */
#include "results_merge.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bw_alloc.h"
#include "bw_file.h"
#include "results_json.h"
#include "results_merge_loader.h"
#include "results_merge_probe.h"
#include "results_merge_schema.h"
#include "results_peer_match.h"
#include "results_probe_fields.h"
#include "results_run_fields.h"
#include "results_schema.h"
#include "results_json_priv.h"
#include "results_merge_priv.h"
#include "results_peer_priv.h"
#include "results_peer_match_priv.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* OUT.partial, or OUT.partial.N: a journal an earlier run kept aside
 * (bwlab run moves a stale journal to a new name rather than delete it) */
static int journal_name(const char *s)
{
    if (ends_with(s, ".partial"))
        return 1;
    const char *dot = strrchr(s, '.');
    if (!dot || !dot[1] || dot - s < 8 || strncmp(dot - 8, ".partial", 8))
        return 0;
    for (const char *q = dot + 1; *q; q++)
        if (*q < '0' || *q > '9')
            return 0;
    return 1;
}

/* A journal (bwlab run's OUT.partial, results.md): the head of the results
 * document on the first line (with `devices`, the planned devices' objects,
 * or `runs`), then one result object per line. Assembled into a results document (*doc). A last line
 * cut short (the run stopped while writing it) is dropped with a note;
 * any other bad line rejects the file. */
static json_t *journal_doc(loader *L, const char *path, const char *text, report_check *c)
{
    json_t *doc = NULL, *results = json_array();
    const char *p = text;
    size_t line = 0;
    while (*p && !c->bad) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        int blank = 1;
        for (size_t i = 0; i < n; i++)
            if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                blank = 0;
        if (!blank) {
            json_error_t je;
            json_t *v = json_loadb(p, n, JSON_REJECT_DUPLICATES, &je);
            if (!v) {
                if (!nl && doc)
                    results_loader_diag(L, path, 0, "partial journal: line %zu is cut short (the run stopped while writing it), ignored",
                         line);
                else
                    report_check_fail(c, "line %zu is not valid JSON: %s (a journal holds one JSON object per line)", line,
                             je.text);
            } else if (!doc) {
                doc = v;
            } else if (json_array_append_new(results, v) != 0) {
                report_check_fail(c, "out of memory");
            }
        }
        p += n + (nl ? 1 : 0);
    }
    if (!doc && !c->bad)
        report_check_fail(c, "empty journal (no run header line)");
    if (c->bad) {
        json_decref(doc);
        json_decref(results);
        return NULL;
    }
    if (!json_is_object(doc)) {
        report_check_fail(c, "line 1 is %s, expected the run header object", results_json_kind(doc));
        json_decref(doc);
        json_decref(results);
        return NULL;
    }
    /* bwlab run's journal head lists the planned devices ("devices": the
     * runs[].device objects) where a document has runs[] */
    const json_t *devs = json_object_get(doc, RP_KEY(RP_DEVICES));
    if (!json_object_get(doc, RUN_KEY(RUND_RUNS)) && json_is_array(devs)) {
        json_t *runs = json_array();
        size_t i;
        const json_t *d;
        json_array_foreach(devs, i, d) {
            json_t *run = json_object();
            json_object_set(run, "device", (json_t *)d);
            json_array_append_new(runs, run);
        }
        json_object_set_new(doc, "runs", runs);
    }
    json_object_set_new(doc, "results", results);
    return doc;
}

static void load_root(loader *L, const char *path, json_t *root, report_check *c, int partial, uint64_t h, size_t len);

/* The CSV that bwlab itself writes (run, probe, roofline: "device_index,
 * device,"; compare: "pattern,family,access,space,"): a table, not the
 * results it was made from */
static int bwlab_csv(const char *text, size_t len)
{
    static const char *const heads[] = { "device_index,device,", "pattern,family,access,space," };
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        if (len >= strlen(heads[i]) && !strncmp(text, heads[i], strlen(heads[i])))
            return 1;
    return 0;
}

/* A clpeak or BabelStream file, recognised by its content, kept beside the
 * merge (results_peer_match.h); a malformed one is named and skipped, a
 * copy of one already read (h, len) counted once. 0 when text is none,
 * nor a .csv or .xml (then it is bwlab's to read). */
static int read_peer(loader *L, const char *path, const char *text, size_t len, uint64_t h)
{
    const results_peer_file *same = results_peer_set_same(L->m->peers, h, len);
    if (same && results_peer_sniff(text, len) != RESULTS_PEER_NONE) {
        results_loader_diag(L, path, 0, "identical to %s: counted once", same->name);
        return 1;
    }
    results_peer_file *pf = NULL;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = results_peer_read(text, len, path, &pf, &err);
    if (rc == BW_E_NOMEM) {
        L->nomem = 1;
    } else if (rc != BW_OK) {
        /* the reader's message names the file already */
        const char *msg = bw_error_text(&err);
        size_t pl = strlen(path);
        if (!strncmp(msg, path, pl) && !strncmp(msg + pl, ": ", 2))
            msg += pl + 2;
        results_loader_diag(L, path, 1, "%s", msg);
    } else if (pf) {
        /* read, yet nothing of it can stand beside a bwlab figure: said, not dropped in silence */
        if (pf->n_figures == 0)
            results_loader_diag(L, path, 0, "no row maps to a figure bwlab compares: its %zu row%s held %s",
                               pf->n_left_out, pf->n_left_out == 1 ? "" : "s", pf->left_out_what);
        if (!results_peer_set_add(&L->m->peers, pf, h, len))
            L->nomem = 1;
    } else if (ends_with(path, ".csv") && bwlab_csv(text, len)) {
        results_loader_diag(L, path, 0, "bwlab's own CSV output: not read (compare and report read the JSON "
                                       "results, --format json)");
    } else if (ends_with(path, ".csv") || ends_with(path, ".xml")) {
        results_loader_diag(L, path, 1, "neither a bwlab result file nor a clpeak or BabelStream file (recognised "
                                       "by content, not by name)");
    } else {
        return 0;
    }
    bw_error_clear(&err);
    return 1;
}

/* Memory ran out reading path: the whole load fails (exit 1, the host's
 * fault, never the input's), naming the file and its size. No allocation
 * here: there may be none to be had. */
static void out_of_memory(loader *L, const char *path, double bytes)
{
    L->nomem = 1;
    if (!L->nomem_file[0]) {
        snprintf(L->nomem_file, sizeof L->nomem_file, "%s", path);
        L->nomem_mb = bytes / 1e6;
    }
}

static double file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size : 0;
}

static void read_file(loader *L, const char *path)
{
    results_merged *m = L->m;
    char *text = NULL;
    size_t len = 0;
    bw_error err = BW_ERROR_INIT;
    bw_code rrc = bw_file_read_regular(path, &text, &len, &err);
    if (rrc == BW_E_NOMEM) {
        out_of_memory(L, path, file_bytes(path));
        bw_error_clear(&err);
        return;
    }
    if (rrc != BW_OK) {
        results_loader_diag(L, path, 1, "cannot be read: %s", bw_error_text(&err));
        bw_error_clear(&err);
        return;
    }
    size_t blank = 0;
    while (blank < len && (text[blank] == ' ' || text[blank] == '\n' || text[blank] == '\t' || text[blank] == '\r'))
        blank++;
    if (blank == len) {
        results_loader_diag(L, path, 1, "empty file (no results: was the run stopped before it wrote them?)");
        free(text);
        return;
    }
    uint64_t h = results_loader_fnv1a(text, len);
    for (size_t i = 0; i < m->n_files; i++) {
        if (L->hash[i] == h && L->len[i] == len) {
            m->files[i].duplicates++;
            results_loader_diag(L, path, 0, "identical to %s: counted once", m->files[i].path);
            free(text);
            return;
        }
    }
    int partial = journal_name(path);
    if (!partial && read_peer(L, path, text, len, h)) {
        free(text);
        return;
    }
    report_check c = { { 0 }, 0 };
    json_t *root = NULL;
    if (partial) {
        root = journal_doc(L, path, text, &c);
    } else {
        json_error_t je;
        unsigned long failed = bw_alloc_failures();
        root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
        if (!root && (json_error_code(&je) == json_error_out_of_memory || bw_alloc_failures() != failed)) {
            free(text);
            out_of_memory(L, path, (double)len);
            return;
        }
        if (!root)
            report_check_fail(&c, "invalid JSON at line %d, column %d: %s", je.line, je.column, je.text);
    }
    free(text);
    load_root(L, path, root, &c, partial, h, len);
}

/* A parsed document (root, consumed; c holds why it did not parse)
 * checked and merged as the file `path`; h and len identify its bytes
 * for the duplicate test. */
static void load_root(loader *L, const char *path, json_t *root, report_check *c, int partial, uint64_t h, size_t len)
{
    results_merged *m = L->m;
    /* bwlab's other documents (data/results holds a device's tune beside
     * its run and probe): named in a note and passed over, not an error */
    const char *schema = json_is_object(root) ? json_string_value(json_object_get(root, "schema")) : NULL;
    const char *other = !schema                                   ? NULL
                        : !strcmp(schema, RESULTS_TUNE_SCHEMA)     ? "a bwlab tune document: its peaks reach a run "
                                                                     "through the tuning cache (runs[].peak_read_gbs)"
                        : !strcmp(schema, RESULTS_ROOFLINE_SCHEMA) ? "a bwlab roofline document: a run carries its "
                                                                     "short roofline (runs[].roofline)"
                        : !strcmp(schema, RESULTS_COMPARE_SCHEMA)  ? "a bwlab compare document: compare its inputs"
                                                                   : NULL;
    if (!c->bad && !partial && other) {
        results_loader_diag(L, path, 0, "not compared: %s", other);
        L->passed_over++;
        json_decref(root);
        return;
    }
    /* a bwlab probe results file, beside run results */
    int probe = !c->bad && !partial && json_is_object(root) &&
                json_is_string(json_object_get(root, "schema")) &&
                !strcmp(json_string_value(json_object_get(root, "schema")), RESULTS_PROBE_SCHEMA);
    if (probe) {
        if (!results_merge_probe_check_doc(root, c->msg, sizeof c->msg))
            c->bad = 1;
    } else if (!c->bad) {
        report_check_doc(c, root);
    }
    if (c->bad) {
        results_loader_diag(L, path, 1, "%s%s", partial ? "partial journal: " : "", c->msg);
        json_decref(root);
        return;
    }
    /* a document assembled from a journal says so itself */
    if (json_is_true(json_object_get(root, RUN_KEY(RUND_PARTIAL))))
        partial = 1;
    size_t cap = L->cap_files;
    if (!GROW(m->files, m->n_files, L->cap_files)) {
        L->nomem = 1;
        json_decref(root);
        return;
    }
    if (cap != L->cap_files) {
        uint64_t *nh = realloc(L->hash, L->cap_files * sizeof *nh);
        if (nh)
            L->hash = nh;
        size_t *nl = realloc(L->len, L->cap_files * sizeof *nl);
        if (nl)
            L->len = nl;
        if (!nh || !nl) {
            L->nomem = 1;
            json_decref(root);
            return;
        }
    }
    size_t fi = m->n_files;
    m->files[fi].path = strdup(path);
    m->files[fi].partial = partial;
    m->files[fi].duplicates = 0;
    L->hash[fi] = h;
    L->len[fi] = len;
    m->n_files++;
    if (!m->files[fi].path ||
        !(probe ? results_merge_probe_doc(L, root, path, (int)fi) : results_merge_doc(L, root, path, (int)fi, partial)))
        L->nomem = 1;
    if (partial)
        results_loader_diag(L, path, 0, "partial: %zu results of a run that did not finish",
                            json_array_size(json_object_get(root, RUN_KEY(RUND_RESULTS))));
    json_decref(root);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the directory scan ---- */

/* A set of files by device and inode: a directory reached again (a link
 * back: `a -> .`) is not read again, and a file reached by a second name
 * (a link, a hard link, a path given twice) is read once. Open
 * addressing; pos is the first path's index + 1 (0: empty). */
typedef struct inode_ent {
    dev_t dev;
    ino_t ino;
    size_t pos;
} inode_ent;

typedef struct inode_set {
    inode_ent *e;
    size_t cap, n; /* cap: a power of two, or 0 */
} inode_set;

static size_t inode_slot(const inode_set *s, dev_t dev, ino_t ino)
{
    size_t i = (size_t)results_loader_mix64((uint64_t)dev * 0x9E3779B97F4A7C15ULL ^ (uint64_t)ino) & (s->cap - 1);
    while (s->e[i].pos && !(s->e[i].dev == dev && s->e[i].ino == ino))
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* the position + 1 of the first path with this file, else 0 after
 * adding it at pos (or -1: out of memory) */
static long long inode_add(inode_set *s, dev_t dev, ino_t ino, size_t pos)
{
    if (s->cap) {
        size_t i = inode_slot(s, dev, ino);
        if (s->e[i].pos)
            return (long long)s->e[i].pos;
    }
    if ((s->n + 1) * 2 > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        inode_ent *ne = calloc(nc, sizeof *ne);
        if (!ne)
            return -1;
        inode_set t = { ne, nc, 0 };
        for (size_t k = 0; k < s->cap; k++)
            if (s->e[k].pos)
                ne[inode_slot(&t, s->e[k].dev, s->e[k].ino)] = s->e[k];
        free(s->e);
        s->e = ne;
        s->cap = nc;
    }
    size_t i = inode_slot(s, dev, ino);
    s->e[i].dev = dev;
    s->e[i].ino = ino;
    s->e[i].pos = pos + 1;
    s->n++;
    return 0;
}

/* the entries a directory scan names on stderr before it sums up the rest */
#define SCAN_NAMED_SKIPS 5

/* One file to read, found before any is read (so that an output that is
 * one of them is refused first). */
typedef struct scan_item {
    char *path;
    dev_t dev;
    ino_t ino;
} scan_item;

typedef struct scan {
    loader *L;
    scan_item *items;
    size_t n, cap;
    inode_set files, dirs;
    size_t named, more; /* skipped entries named, and past those */
} scan;

static void skip_note(scan *S, const char *path, const char *fmt, ...) BW_PRINTF(3, 4);
static void skip_note(scan *S, const char *path, const char *fmt, ...)
{
    if (S->named >= SCAN_NAMED_SKIPS) {
        S->more++;
        return;
    }
    S->named++;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    results_loader_diag(S->L, path, 0, "%s", buf);
}

/* adds a regular file to read, or notes that it is one already listed */
static void scan_add(scan *S, const char *path, const struct stat *st)
{
    long long first = inode_add(&S->files, st->st_dev, st->st_ino, S->n);
    if (first < 0) {
        S->L->nomem = 1;
        return;
    }
    if (first > 0) {
        skip_note(S, path, "the same file as %s (a link or a second name): read once",
                  S->items[first - 1].path);
        return;
    }
    if (!GROW(S->items, S->n, S->cap) || !(S->items[S->n].path = strdup(path))) {
        S->L->nomem = 1;
        return;
    }
    S->items[S->n].dev = st->st_dev;
    S->items[S->n].ino = st->st_ino;
    S->n++;
}

/* Every *.json, *.partial, *.partial.N, *.xml and *.csv (peer files) under dir (whose stat is st), in
 * name order, depth first; the number of result files found. Links are
 * followed, but a directory already scanned (by device and inode) is not
 * entered again, so `a -> .` ends; only regular files are listed: FIFOs,
 * sockets, devices and dangling links are named and skipped, never
 * opened. */
static size_t scan_dir(scan *S, const char *dir, const struct stat *dst, int depth)
{
    loader *L = S->L;
    long long seen = inode_add(&S->dirs, dst->st_dev, dst->st_ino, 0);
    if (seen < 0) {
        L->nomem = 1;
        return 0;
    }
    if (seen > 0) {
        skip_note(S, dir, "skipped: a link to a directory already read (a loop or a second name)");
        return 0;
    }
    if (depth >= 32) {
        skip_note(S, dir, "skipped: more than 32 directories deep");
        return 0;
    }
    DIR *d = opendir(dir);
    if (!d) {
        results_loader_diag(L, dir, 1, "cannot be read: %s", strerror(errno));
        return 0;
    }
    char **names = NULL;
    size_t n = 0, cap = 0, found = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        if (!GROW(names, n, cap) || !(names[n] = strdup(de->d_name))) {
            L->nomem = 1;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n && !L->nomem; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(pl);
        if (!p) {
            L->nomem = 1;
            break;
        }
        snprintf(p, pl, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", names[i]);
        struct stat st, lst;
        int result_name = ends_with(p, ".json") || journal_name(p) || ends_with(p, ".xml") || ends_with(p, ".csv");
        if (lstat(p, &lst) != 0) {
            skip_note(S, p, "skipped: cannot be examined: %s", strerror(errno));
        } else if (S_ISLNK(lst.st_mode) && stat(p, &st) != 0) {
            skip_note(S, p, "skipped: a dangling link (%s)", strerror(errno));
        } else {
            if (!S_ISLNK(lst.st_mode))
                st = lst;
            if (S_ISDIR(st.st_mode)) {
                found += scan_dir(S, p, &st, depth + 1);
            } else if (!S_ISREG(st.st_mode)) {
                skip_note(S, p, "skipped: %s, not a regular file (only regular files are read)",
                          bw_file_kind(st.st_mode));
            } else if (result_name) {
                scan_add(S, p, &st);
                found++;
            }
        }
        free(p);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return found;
}

/* the index of the item that is `output`'s file, or -1 */
static long long output_input(const scan *S, const char *output)
{
    struct stat st;
    if (!output || !*output || !strcmp(output, "-") || stat(output, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    for (size_t i = 0; i < S->n; i++)
        if (S->items[i].dev == st.st_dev && S->items[i].ino == st.st_ino)
            return (long long)i;
    return -1;
}

/* files read so far: bwlab's and the peers' */
static size_t files_read(const loader *L)
{
    return L->m->n_files + (L->m->peers ? L->m->peers->n_files : 0);
}

/* ---- the figures ---- */

/* Frees the loader's indexes and finishes the merge of n inputs: *out,
 * or the first failure (rc, then out of memory, then no results). */
static bw_code loader_end(loader *L, bw_code rc, size_t n, results_merged **out, bw_error *err)
{
    free(L->hash);
    free(L->len);
    free(L->cap_samples);
    free(L->rows_by_key.slot);
    free(L->entries_by_key.slot);
    if (rc != BW_OK) {
        results_merged_free(L->m);
        return rc;
    }
    if (L->nomem || !results_merge_finish(L->m)) {
        results_merged_free(L->m);
        if (L->nomem_file[0])
            return bw_error_set(err, BW_E_NOMEM, "out of memory reading '%s' (%.1f MB)", L->nomem_file, L->nomem_mb);
        return bw_error_set(err, BW_E_NOMEM, "out of memory reading result files");
    }
    if (results_peer_match(L->m, err) != BW_OK) {
        results_merged_free(L->m);
        return BW_E_NOMEM;
    }
    *out = L->m;
    /* peer files alone make a table of their own */
    if (L->m->n_entries == 0 && L->m->n_probes == 0 && !(L->m->peers && L->m->peers->n_files > 0)) {
        if (L->passed_over)
            return bw_error_set(err, BW_E_FORMAT,
                                "no results to compare: the inputs hold no bwlab run or probe results (%zu bwlab "
                                "document%s of another kind passed over, named above)",
                                L->passed_over, L->passed_over == 1 ? "" : "s");
        return bw_error_set(err, BW_E_FORMAT, "no results to compare: none of the %zu input%s could be read", n,
                            n == 1 ? "" : "s");
    }
    return BW_OK;
}

bw_code results_load_paths(const char *const *paths, size_t n, results_merged **out, bw_error *err)
{
    return results_load_paths_opts(paths, n, NULL, out, err);
}

bw_code results_load_paths_opts(const char *const *paths, size_t n, const results_load_opts *opts,
                               results_merged **out, bw_error *err)
{
    *out = NULL;
    loader L;
    memset(&L, 0, sizeof L);
    L.m = calloc(1, sizeof *L.m);
    /* per path: its first item, and (directories) how many were found */
    size_t *first = calloc(n + 1, sizeof *first), *found = calloc(n + 1, sizeof *found);
    int *is_dir = calloc(n + 1, sizeof *is_dir);
    scan S;
    memset(&S, 0, sizeof S);
    S.L = &L;
    bw_code rc = BW_OK;
    if (!L.m || !first || !found || !is_dir) {
        L.nomem = 1;
        goto done;
    }
    L.m->baseline = -1;
    /* 1: list every file to read; nothing is read yet */
    for (size_t i = 0; i < n && !L.nomem; i++) {
        first[i] = S.n;
        S.named = S.more = 0;
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            results_loader_diag(&L, paths[i], 1, "cannot be read: %s", strerror(errno));
        } else if (S_ISDIR(st.st_mode)) {
            is_dir[i] = 1;
            found[i] = scan_dir(&S, paths[i], &st, 0);
        } else if (S_ISREG(st.st_mode)) {
            scan_add(&S, paths[i], &st);
        } else {
            /* named on the command line: an error, never opened (a FIFO would block) */
            results_loader_diag(&L, paths[i], 1, "%s, not a result file (name a regular file or a directory of them)",
                 bw_file_kind(st.st_mode));
        }
        if (S.more)
            results_loader_diag(&L, paths[i], 0, "%zu more entr%s skipped (not regular files, dangling links, links to a "
                                  "directory already read, or files already read): only the first %d are named",
                 S.more, S.more == 1 ? "y" : "ies", SCAN_NAMED_SKIPS);
    }
    first[n] = S.n;
    /* 2: an output that is one of the inputs would replace what is read */
    for (size_t o = 0; opts && o < opts->n_outputs && !L.nomem; o++) {
        long long k = output_input(&S, opts->outputs[o]);
        if (k >= 0) {
            const char *flag = opts->output_flags && opts->output_flags[o] ? opts->output_flags[o] : "--output";
            if (!strcmp(S.items[k].path, opts->outputs[o]))
                rc = bw_error_set(err, BW_E_USAGE, "%s: '%s' is also an input: writing it would replace the "
                                                   "results it holds (choose another output file)",
                                  flag, opts->outputs[o]);
            else
                rc = bw_error_set(err, BW_E_USAGE, "%s: '%s' is the input '%s' (the same file): writing it "
                                                   "would replace the results it holds (choose another output file)",
                                  flag, opts->outputs[o], S.items[k].path);
            goto done;
        }
    }
    /* 3: read them, in order */
    for (size_t i = 0; i < n && !L.nomem; i++) {
        size_t before = files_read(&L);
        for (size_t k = first[i]; k < first[i + 1] && !L.nomem; k++)
            read_file(&L, S.items[k].path);
        if (!is_dir[i])
            continue;
        if (found[i] == 0)
            results_loader_diag(&L, paths[i], 1, "directory without results (no *.json or *.partial file in it or below it)");
        else if (files_read(&L) == before)
            /* each of its files is named already */
            results_loader_diag(&L, paths[i], 0, "no file in this directory could be compared");
    }
done:
    for (size_t i = 0; i < S.n; i++)
        free(S.items[i].path);
    free(S.items);
    free(S.files.e);
    free(S.dirs.e);
    free(first);
    free(found);
    free(is_dir);
    return loader_end(&L, rc, n, out, err);
}

bw_code results_load_doc(const json_t *doc, const char *name, results_merged **out, bw_error *err)
{
    *out = NULL;
    loader L;
    memset(&L, 0, sizeof L);
    L.m = calloc(1, sizeof *L.m);
    if (!L.m) {
        L.nomem = 1;
        return loader_end(&L, BW_OK, 1, out, err);
    }
    L.m->baseline = -1;
    /* the merge clears out-of-range figures in place: the caller's
     * document stays as it was */
    json_t *root = json_deep_copy(doc);
    report_check c = { { 0 }, 0 };
    if (!root)
        L.nomem = 1;
    else
        load_root(&L, name, root, &c, 0, 0, 0);
    return loader_end(&L, BW_OK, 1, out, err);
}
