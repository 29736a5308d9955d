/* bw_parse: strict parsing of numbers given on the command line or in
 * pattern specs. The whole string must be one number: no sign where none is
 * allowed, no trailing characters, no silent wrap-around.
 *
 * `what` names the value in error messages (e.g. "--elem"). */
#ifndef BW_PARSE_H
#define BW_PARSE_H

#include <stdint.h>

#include "bw_error.h"

/* Unsigned decimal or 0x-hex integer. BW_E_USAGE on bad syntax, BW_E_RANGE
 * when it does not fit in 64 bits. */
bw_code bw_parse_u64(const char *s, const char *what, uint64_t *out, bw_error *err);
/* Signed decimal or 0x-hex integer (leading '-' allowed). */
bw_code bw_parse_i64(const char *s, const char *what, int64_t *out, bw_error *err);
/* Finite floating-point number. */
bw_code bw_parse_double(const char *s, const char *what, double *out, bw_error *err);
/* A byte count: an integer with an optional suffix K, M, G, T (powers of
 * 1024, optionally followed by "iB" or "B") or B. "64M" = 67108864. */
bw_code bw_parse_bytes(const char *s, const char *what, uint64_t *out, bw_error *err);

#endif
