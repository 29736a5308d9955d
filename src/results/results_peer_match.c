/* results_peer_match: peer files beside the merge, and the match of their
 * devices with bwlab's (results_peer_match.h). */
#include "results_peer_match.h"
#include "results_peer_priv.h"
#include "results_peer_match_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int results_peer_set_add(results_peer_set **set, results_peer_file *f, uint64_t hash, size_t size)
{
    if (!*set && !(*set = calloc(1, sizeof **set))) {
        results_peer_file_free(f);
        return 0;
    }
    results_peer_set *s = *set;
    if (s->n_files == s->cap_files) {
        size_t cap = s->cap_files ? 2 * s->cap_files : 4;
        results_peer_file **nf = realloc(s->files, cap * sizeof *nf);
        if (nf)
            s->files = nf;
        uint64_t *nh = nf ? realloc(s->hash, cap * sizeof *nh) : NULL;
        if (nh)
            s->hash = nh;
        size_t *ns = nh ? realloc(s->size, cap * sizeof *ns) : NULL;
        if (!ns) {
            results_peer_file_free(f);
            return 0;
        }
        s->size = ns;
        s->cap_files = cap;
    }
    s->hash[s->n_files] = hash;
    s->size[s->n_files] = size;
    s->files[s->n_files++] = f;
    return 1;
}

const results_peer_file *results_peer_set_same(const results_peer_set *s, uint64_t hash, size_t size)
{
    for (size_t i = 0; s && i < s->n_files; i++)
        if (s->hash[i] == hash && s->size[i] == size)
            return s->files[i];
    return NULL;
}

/* s without its leading and trailing blanks: *len bytes from the result */
static const char *trimmed(const char *s, size_t *len)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    *len = n;
    return s;
}

static int same_trimmed(const char *a, const char *b)
{
    size_t la, lb;
    a = trimmed(a, &la);
    b = trimmed(b, &lb);
    return la == lb && !memcmp(a, b, la);
}

/* the trimmed needle, case-insensitive, somewhere in hay */
static int contains_trimmed(const char *hay, const char *needle)
{
    size_t ln, lh = strlen(hay);
    needle = trimmed(needle, &ln);
    if (!ln)
        return 0;
    for (size_t i = 0; i + ln <= lh; i++)
        if (!strncasecmp(hay + i, needle, ln))
            return 1;
    return 0;
}

int results_peer_device_matches(const results_peer_device *p, const results_merge_device *d)
{
    if (!p->device || !d->name)
        return 0;
    if (!same_trimmed(p->device, d->name) && !contains_trimmed(d->name, p->device))
        return 0;
    return !p->driver || same_trimmed(p->driver, d->driver_version ? d->driver_version : "");
}

int results_peer_entry_charted(const results_peer_entry *e)
{
    return e->figure->unit == RESULTS_PEER_GBS &&
           (e->figure->role == RESULTS_PEER_READ || e->figure->role == RESULTS_PEER_STREAM);
}

/* the column of a peer device bwlab did not run: "NAME [DRIVER]" */
static char *own_column(const results_peer_device *p)
{
    size_t ln, lv = 0;
    const char *n = trimmed(p->device, &ln), *v = p->driver ? trimmed(p->driver, &lv) : "";
    size_t sz = ln + lv + 4;
    char *s = malloc(sz);
    if (!s)
        return NULL;
    if (lv)
        snprintf(s, sz, "%.*s [%.*s]", (int)ln, n, (int)lv, v);
    else
        snprintf(s, sz, "%.*s", (int)ln, n);
    return s;
}

/* clpeak's files hold no buffer size: worked out from the matched
 * device's limits. bwlab records CL_DEVICE_MAX_WORK_GROUP_SIZE, not
 * MAX_WORK_ITEM_SIZES[0]; clpeak takes min(that, 256), and both are 256
 * or more on the devices bwlab knows, so the group size stands in. */
static void clpeak_buffer(const results_peer_file *f, results_peer_figure *fig, const results_merge_device *d)
{
    if (strcmp(f->tool, "clpeak") != 0 || fig->role != RESULTS_PEER_READ || fig->buffer_bytes ||
        d->max_alloc_bytes <= 0 || d->max_work_group_size <= 0)
        return;
    int cpu = d->type && !strcmp(d->type, "cpu");
    fig->buffer_bytes = results_peer_clpeak_buffer_bytes(f->tool_version, (uint64_t)d->max_alloc_bytes,
                                                        (uint64_t)d->max_work_group_size, cpu);
}

static bw_code place(results_merged *m, const results_peer_file *f, results_peer_figure *fig, results_peer_entry *e)
{
    e->file = f;
    e->figure = fig;
    e->device = -1;
    const results_peer_device *p = fig->device != RESULTS_PEER_NO_DEVICE && fig->device < f->n_devices
                                      ? &f->devices[fig->device]
                                      : NULL;
    if (!p || !p->device) {
        e->column = strdup(RESULTS_PEER_NOT_NAMED);
        return e->column ? BW_OK : BW_E_NOMEM;
    }
    for (size_t d = 0; d < m->n_devices; d++) {
        if (!results_peer_device_matches(p, &m->devices[d]))
            continue;
        const results_merge_device *dv = &m->devices[d];
        e->device = (long)d;
        e->column = strdup(dv->label);
        if (!e->column)
            return BW_E_NOMEM;
        clpeak_buffer(f, fig, dv);
        return dv->cache_bytes > 0 ? results_peer_note_cache(fig, (uint64_t)dv->cache_bytes) : BW_OK;
    }
    e->column = own_column(p);
    return e->column ? BW_OK : BW_E_NOMEM;
}

bw_code results_peer_match(results_merged *m, bw_error *err)
{
    results_peer_set *s = m->peers;
    if (!s)
        return BW_OK;
    size_t n = 0;
    for (size_t i = 0; i < s->n_files; i++)
        n += s->files[i]->n_figures;
    if (n && !(s->entries = calloc(n, sizeof *s->entries)))
        return bw_error_set(err, BW_E_NOMEM, "out of memory matching peer files");
    for (size_t i = 0; i < s->n_files; i++) {
        results_peer_file *f = s->files[i];
        for (size_t k = 0; k < f->n_figures; k++) {
            bw_code rc = place(m, f, &f->figures[k], &s->entries[s->n_entries]);
            s->n_entries++;
            if (rc != BW_OK)
                return bw_error_set(err, rc, "out of memory matching peer files");
        }
    }
    return BW_OK;
}

void results_peer_set_free(results_peer_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_entries; i++)
        free(s->entries[i].column);
    free(s->entries);
    for (size_t i = 0; i < s->n_files; i++)
        results_peer_file_free(s->files[i]);
    free(s->files);
    free(s->hash);
    free(s->size);
    free(s);
}
