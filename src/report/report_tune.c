/* report_tune: `bwlab tune`'s table rendered from its results document,
 * and a tuned configuration and peak in words (report_tune.h). */
#include "report_tune.h"

#include <math.h>
#include <string.h>

#include "bw_format.h"
#include "report_device_head.h"
#include "report_format.h"
#include "results_tune_keys.h"
#include "report_device_head_priv.h"
#include "report_tune_priv.h"

/* the document's two modes, in the order the table shows them */
static const results_tune_key_id modes[] = { RT_READ, RT_COPY };

static const char *text(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* a number, NAN when the document holds null */
static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long whole(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

static int flag(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

void report_tune_config(bw_buf *out, const json_t *c)
{
    long long w = whole(c, RT_KEY(RT_VECTOR_WIDTH));
    if (w == 1)
        bw_buf_puts(out, "uint");
    else
        bw_buf_printf(out, "uint%lld", w);
    bw_buf_printf(out, " x %lld per work-item, %lld per group, %s layout", whole(c, RT_KEY(RT_ELEMS_PER_ITEM)),
                  whole(c, RT_KEY(RT_LOCAL_SIZE)), text(c, RT_KEY(RT_LAYOUT)));
}

void report_tune_peak_text(bw_buf *out, const char *mode, const json_t *p)
{
    if (!json_is_object(p)) {
        bw_buf_printf(out, "%s not measured", mode);
        return;
    }
    bw_buf_printf(out, "%s %.1f GB/s with ", mode, num(p, RT_KEY(RT_GBS)));
    report_tune_config(out, p);
}

/* the search's head line: tuned now, or read from the cache */
static void source_line(const json_t *d, const json_t *r, bw_buf *out)
{
    if (r) {
        bw_buf_puts(out, "tuned now: ");
        report_bytes(out, (double)whole(d, RT_KEY(RT_BUFFER_BYTES)));
        const char *ws = text(d, RT_KEY(RT_WORKING_SET_SOURCE));
        bw_buf_printf(out, " buffers (%s); %zu kernel shapes in %lld of 4 search stages, %lld final rounds, "
                           "%.1f s of a %.1f s budget%s\n",
                      ws && !strcmp(ws, "--size") ? "--size" : "auto, as bwlab run sizes its working set",
                      json_array_size(json_object_get(r, RT_KEY(RT_CANDIDATES))), whole(r, RT_KEY(RT_STAGES)), whole(r, RT_KEY(RT_FINAL_ROUNDS)),
                      num(r, RT_KEY(RT_ELAPSED_S)), num(r, RT_KEY(RT_BUDGET_S)),
                      flag(r, RT_KEY(RT_BUDGET_ENDED)) ? "; later stages skipped for the budget" : "");
    } else {
        bw_buf_printf(out, "from the cache (tuned on %s, ", text(d, RT_KEY(RT_DATE)));
        report_bytes(out, (double)whole(d, RT_KEY(RT_BUFFER_BYTES)));
        bw_buf_puts(out, " buffers); --retune measures again\n");
    }
}

/* one kernel shape of the search */
static void candidate_line(const json_t *c, bw_buf *out)
{
    char type[24];
    long long w = whole(c, RT_KEY(RT_VECTOR_WIDTH));
    if (w == 1)
        snprintf(type, sizeof type, "uint");
    else
        snprintf(type, sizeof type, "uint%lld", w);
    bw_buf_printf(out, "  %-6s  %5lld  %-6s  %-2lld  %5lld  %-10s", text(c, RT_KEY(RT_FAMILY)), whole(c, RT_KEY(RT_STAGE)), type,
                  whole(c, RT_KEY(RT_ELEMS_PER_ITEM)), whole(c, RT_KEY(RT_LOCAL_SIZE)), text(c, RT_KEY(RT_LAYOUT)));
    const json_t *t = json_object_get(c, RT_KEY(RT_TIME_NS));
    long long count = whole(t, RTIME_KEY(RTIME_COUNT));
    const char *status = text(c, RT_KEY(RT_STATUS));
    if (status && !strcmp(status, "ok") && count) {
        bw_buf_printf(out, "  %8.2f  %10.1f µs  ok, %lld launches", num(c, RT_KEY(RT_GBS)), num(t, RTIME_KEY(RTIME_MEDIAN)) / 1000.0,
                      count);
        if (flag(c, RT_KEY(RT_BEST)))
            bw_buf_puts(out, ", BEST");
        else if (flag(c, RT_KEY(RT_FINALIST)))
            bw_buf_puts(out, ", finalist");
    } else {
        const char *why = text(c, RT_KEY(RT_FAILURE));
        bw_buf_printf(out, "  %8s  %13s  %s", "-", "-", why ? why : status ? status : "");
    }
    bw_buf_putc(out, '\n');
}

void report_tune_table(const json_t *doc, bw_buf *out)
{
    size_t k;
    const json_t *d;
    json_array_foreach(json_object_get(doc, RT_KEY(RT_DEVICES)), k, d) {
        if (k)
            bw_buf_putc(out, '\n');
        report_device_line_json(out, "", json_object_get(d, RT_KEY(RT_DEVICE)));
        /* a device with an entry (tuned or cached) has its date */
        if (report_device_unmeasured(out, text(d, RT_KEY(RT_FAILURE)), json_object_get(d, RT_KEY(RT_DATE)) != NULL, "tuned"))
            continue;
        const json_t *r = json_object_get(d, RT_KEY(RT_SEARCH));
        if (!json_is_object(r))
            r = NULL;
        int interrupted = r && flag(r, RT_KEY(RT_INTERRUPTED));
        if (interrupted)
            bw_buf_printf(out, "INTERRUPTED after %.1f s: the kernel shapes measured so far, no winner chosen\n",
                          num(r, RT_KEY(RT_ELAPSED_S)));
        source_line(d, r, out);
        for (size_t mo = 0; mo < sizeof modes / sizeof *modes; mo++) {
            const json_t *p = json_object_get(d, RT_KEY(modes[mo]));
            bw_buf_printf(out, "  peak %-4s  ", RT_KEY(modes[mo]));
            if (!json_is_object(p)) {
                bw_buf_puts(out, interrupted ? "not chosen: the search was interrupted\n"
                                             : "not measured: no kernel shape of this family validated and "
                                               "timed\n");
                continue;
            }
            bw_buf_printf(out, "%8.2f GB/s  measured, with ", num(p, RT_KEY(RT_GBS)));
            report_tune_config(out, p);
            const char *words = text(json_object_get(d, RT_KEY(RT_PLAUSIBILITY)), RT_KEY(modes[mo]));
            if (words)
                bw_buf_printf(out, "; %s", words);
            bw_buf_putc(out, '\n');
        }
        const char *note = text(d, RT_KEY(RT_CACHE_NOTE));
        if (note) { /* it names the cache's path: outside text */
            bw_buf_puts(out, "  cache: ");
            bw_quote_append(out, note, strlen(note), 0, 0);
            bw_buf_putc(out, '\n');
        }
        if (!r)
            continue;
        bw_buf_puts(out, "\n  family  stage  vector  K   local  layout          GB/s   time (median)  status\n");
        size_t i;
        const json_t *c;
        json_array_foreach(json_object_get(r, RT_KEY(RT_CANDIDATES)), i, c)
            candidate_line(c, out);
    }
    bw_buf_printf(out, "\nGB/s: measured, requested bytes (loads + stores) / median kernel time (event profiling). "
                       "read: each work-item XORs its K vectors\nand stores one word; copy: every vector loaded "
                       "and stored. Every kernel shape was validated before it was timed. Cache: ");
    const char *cache = text(doc, RT_KEY(RT_CACHE_FILE));
    if (cache)
        bw_quote_append(out, cache, strlen(cache), 0, 0);
    bw_buf_putc(out, '\n');
}
