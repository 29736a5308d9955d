/* report_run_doc: the run's results document as the run's writers read
 * it (report_run.c: table, Markdown, CSV; report_section_*.c: the
 * sections of the bank, transpose and record families): one device's
 * run with its results, and typed reads of the document's values. A
 * private header of those files, not an interface of report. Everything
 * points into the document, which the caller owns. */
#ifndef REPORT_RUN_DOC_H
#define REPORT_RUN_DOC_H

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "bw_buf.h"

struct report_section;

/* the access modes, in the order of the document's names */
enum { RD_COPY, RD_READ, RD_WRITE, RD_MODES };
#define RD_BIT(a) (1u << (a))

/* One device's run: runs[k] and its results[], each with its family's
 * section entry (report_section_of). */
typedef struct report_doc_run {
    const json_t *doc;
    const json_t *run;
    const json_t **items;
    const struct report_section **sec;
    size_t n;
    int explain; /* --explain: the sentences under each row */
} report_doc_run;

/* a string of the document, or NULL */
static inline const char *rd_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* a number of the document; NAN where it holds null or nothing */
static inline double rd_num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* a whole number of the document; 0 where it holds none */
static inline long long rd_int(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* whether the document's string at key is want (no string: not) */
static inline int rd_is(const json_t *o, const char *key, const char *want)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s && !strcmp(s, want);
}

/* the result's pattern spec; "" where the document names none */
static inline const char *rd_spec(const json_t *o)
{
    const char *s = json_string_value(json_object_get(o, "pattern"));
    return s ? s : "";
}

static inline int rd_true(const json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

static inline int rd_has(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return v && !json_is_null(v);
}

/* whether result o was measured ("status": "ok") */
static inline int rd_ok(const json_t *o)
{
    const char *s = rd_str(o, "status");
    return s && !strcmp(s, "ok");
}

/* its access mode (RD_COPY, RD_READ, RD_WRITE) */
static inline int rd_access(const json_t *o)
{
    const char *a = rd_str(o, "access");
    return !a ? RD_COPY : !strcmp(a, "read") ? RD_READ : !strcmp(a, "write") ? RD_WRITE : RD_COPY;
}

/* why a result has no bandwidth: a failed one's validation holds it, an
 * unmeasurable or unrun one's status_reason; "?" where neither says */
static inline const char *rd_failure(const json_t *o)
{
    const char *s = rd_str(o, "status");
    const char *why = s && !strcmp(s, "failed") ? rd_str(o, "validation") : rd_str(o, "status_reason");
    return why ? why : "?";
}

/* the modeled bytes of the launch (loads + stores): requested,
 * instruction model, footprint */
static inline double rd_requested(const json_t *o)
{
    return rd_num(json_object_get(o, "model"), "requested_bytes");
}
static inline double rd_upper(const json_t *o)
{
    return rd_num(json_object_get(o, "model"), "instruction_model_bytes");
}
static inline double rd_lower(const json_t *o)
{
    return rd_num(json_object_get(o, "model"), "footprint_bytes");
}

/* A cell of a ratio: "%.2f", or "-" where it is not valid or not
 * finite, right-aligned in width (0: as it is). */
void report_cell_ratio(bw_buf *out, double v, int valid, int width);
/* The failure's first line after its lead: "FAILED: " (text), "failed:
 * " (Markdown), "not run: ", or none for one too short to time. */
void report_run_failure(bw_buf *out, const json_t *o, int md);
/* Markdown text: '|' escaped, a newline a space, control bytes \xNN */
void report_md_escape(bw_buf *out, const char *s);
/* One row of a section apart from the global table (bank, transpose,
 * record): GB/s, vs its reference, best, and cells (the modeled ways, or
 * the record's ratios); md: Markdown. */
void report_section_row(bw_buf *out, const json_t *o, const char *cells, int md);
/* the modeled ways of a result: "8-way", or "n/a" where there are none */
void report_ways_text(char *buf, size_t n, const json_t *o);

#endif
