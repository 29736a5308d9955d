/* results_json: what the writers and readers of result documents share
 * about JSON: a document's head, its numbers and text, its dump, and
 * value kinds for the readers' messages. */
#ifndef RESULTS_JSON_H
#define RESULTS_JSON_H

#include <jansson.h>

#include "bw_buf.h"
#include "bw_error.h"

/* s, or "" for a string a file did not hold (NULL) */
const char *results_or_empty(const char *s);

/* JSON real, or null when !valid or not finite */
json_t *results_json_real(double v, int valid);

/* The head every bwlab JSON document starts with: schema, schema_version,
 * tool {name, version}, date and command_line. New reference; NULL when
 * out of memory. */
json_t *results_json_document(const char *schema, int version, const char *date, int argc, char *const *argv);

/* Serialises `root` (consumed) with 2-space indentation and a final newline. */
bw_code results_json_dump(json_t *root, bw_buf *out, bw_error *err);
/* The same as one compact line (JSON lines), newline included. */
bw_code results_json_line(json_t *root, bw_buf *out, bw_error *err);
/* A JSON string that never vanishes: jansson refuses text that is not
 * UTF-8 (a profile's "why", a build log, a driver string), so such bytes
 * become '?'; NULL becomes JSON null. New reference; NULL only when out
 * of memory. */
json_t *results_json_text(const char *s);

/* A comma-separated list ("lanes,dram_unit") as a JSON array of its
 * words, at most 63 characters of it read. New reference. */
json_t *results_json_words(const char *list);

#endif
