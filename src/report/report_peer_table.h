/* report_peer_table: the peers of `bwlab compare` and `bwlab report`
 * (results_peer_match.h) beside each device's bwlab seq and tuned peak:
 * the "peers" table (text, Markdown, CSV), `peers[]` of the JSON and the
 * HTML section with its chart (docs/compare.md, "Peers in the output").
 * Formatting only; each writes nothing when no peer file was given, so
 * bwlab-only outputs stay as they were. */
#ifndef REPORT_PEER_TABLE_H
#define REPORT_PEER_TABLE_H

#include <jansson.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "results_merge.h"

/* The table, after a heading; md: GitHub-flavoured Markdown. */
void report_peer_table_text(const results_merged *m, int md, bw_buf *out);
/* A blank line, then a second CSV table with its own header. */
void report_peer_table_csv(const results_merged *m, bw_buf *out);
/* Sets root's "peers" array; BW_E_NOMEM or BW_OK. */
bw_code report_peer_table_json(const results_merged *m, json_t *root, bw_error *err);
/* The section "Peers": the table and the chart "bwlab and the peers, same
 * device". */
bw_code report_peer_table_html(const results_merged *m, bw_buf *out, bw_error *err);

#endif
