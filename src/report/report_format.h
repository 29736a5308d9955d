/* report_format: small helpers shared by the report writers: number
 * formatting and CSV fields (the JSON writing helpers are results_json's). */
#ifndef REPORT_FORMAT_H
#define REPORT_FORMAT_H

#include <jansson.h>
#include <stdint.h>

#include "bw_buf.h"
#include "bw_error.h"
#include "results_json.h"

/* "512 B", "4.00 KiB", "1.50 GiB" */
void report_bytes(bw_buf *out, double bytes);
/* "50.0%" ; "n/a" when !valid */
void report_percent(bw_buf *out, double fraction, int valid);
/* A figure for a table cell, a Markdown or HTML page or a tooltip, in a
 * bounded width: prec decimals ("%.*f") while |v| < 1e9, else three
 * significant digits ("%.3g": 1e+300 GB/s never prints 300 digits); "n/a"
 * when v is not finite (never "nan" or "inf"). At most 16 characters for
 * prec <= 4. Writes and returns buf (REPORT_NUM_MAX bytes);
 * REPORT_FIXED(v, prec) gives a buffer of its own for one full expression. */
#define REPORT_NUM_MAX 32
const char *report_num_fixed(char *buf, double v, int prec);
#define REPORT_FIXED(v, prec) report_num_fixed((char[REPORT_NUM_MAX]){ 0 }, (v), (prec))
/* A CSV field, its control bytes and newlines written \xNN
 * (bw_quote_append), then quoted (RFC 4180) where it holds a comma or a
 * quote. */
void report_csv_field(bw_buf *out, const char *s);
/* ",number", or "," alone when !valid or not finite: a whole number as an
 * integer, any other in the fewest digits (15 to 17) that read back as the
 * same double. */
void report_csv_num(bw_buf *out, double v, int valid);
#endif
