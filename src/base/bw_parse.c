/* bw_parse: strict parsing of integers, floating-point numbers and byte
 * counts with K, M, G, T suffixes: one whole number, no stray sign, no
 * trailing characters, no wrap-around (bw_parse.h). */
#include "bw_parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_blank(const char *s)
{
    return !s || !*s;
}

/* strtoull accepts leading blanks and '-' (wrapping the value); refuse both. */
static bw_code parse_unsigned_digits(const char *s, const char *what, uint64_t *out,
                                     const char **end, bw_error *err)
{
    if (is_blank(s) || !isdigit((unsigned char)s[0]))
        return bw_error_set(err, BW_E_USAGE, "%s: '%s' is not a non-negative integer",
                            what, s ? s : "");
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    if (base == 16 && !isxdigit((unsigned char)s[2]))
        return bw_error_set(err, BW_E_USAGE, "%s: '%s' is not a valid hex number", what, s);
    char *e = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &e, base);
    if (errno == ERANGE)
        return bw_error_set(err, BW_E_RANGE, "%s: '%s' does not fit in 64 bits", what, s);
    *out = (uint64_t)v;
    *end = e;
    return BW_OK;
}

bw_code bw_parse_u64(const char *s, const char *what, uint64_t *out, bw_error *err)
{
    const char *end = NULL;
    uint64_t v = 0;
    bw_code rc = parse_unsigned_digits(s, what, &v, &end, err);
    if (rc != BW_OK)
        return rc;
    if (*end)
        return bw_error_set(err, BW_E_USAGE, "%s: '%s' is not a non-negative integer", what, s);
    *out = v;
    return BW_OK;
}

bw_code bw_parse_i64(const char *s, const char *what, int64_t *out, bw_error *err)
{
    if (is_blank(s))
        return bw_error_set(err, BW_E_USAGE, "%s: '' is not an integer", what);
    int neg = s[0] == '-';
    uint64_t mag = 0;
    const char *end = NULL;
    bw_error inner = BW_ERROR_INIT;
    bw_code rc = parse_unsigned_digits(s + neg, what, &mag, &end, &inner);
    if (rc == BW_OK && *end)
        rc = BW_E_USAGE;
    bw_error_clear(&inner);
    if (rc == BW_E_USAGE)
        return bw_error_set(err, rc, "%s: '%s' is not an integer", what, s);
    if (rc != BW_OK || mag > (uint64_t)INT64_MAX + (uint64_t)neg)
        return bw_error_set(err, BW_E_RANGE, "%s: '%s' does not fit in 64 bits", what, s);
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return BW_OK;
}

bw_code bw_parse_double(const char *s, const char *what, double *out, bw_error *err)
{
    if (is_blank(s) || isspace((unsigned char)s[0]))
        return bw_error_set(err, BW_E_USAGE, "%s: '%s' is not a number", what, s ? s : "");
    char *e = NULL;
    errno = 0;
    double v = strtod(s, &e);
    if (*e || e == s)
        return bw_error_set(err, BW_E_USAGE, "%s: '%s' is not a number", what, s);
    if (errno == ERANGE || !isfinite(v))
        return bw_error_set(err, BW_E_RANGE, "%s: '%s' is out of range", what, s);
    *out = v;
    return BW_OK;
}

bw_code bw_parse_bytes(const char *s, const char *what, uint64_t *out, bw_error *err)
{
    const char *end = NULL;
    uint64_t v = 0;
    bw_code rc = parse_unsigned_digits(s, what, &v, &end, err);
    if (rc != BW_OK)
        return rc;
    static const char units[] = "KMGT";
    unsigned shift = 0;
    const char *p = end;
    const char *u = *p ? strchr(units, toupper((unsigned char)*p)) : NULL;
    if (u) {
        shift = 10u * (unsigned)(u - units + 1);
        p++;
        if (p[0] == 'i' && p[1] == 'B')
            p += 2;
        else if (p[0] == 'B')
            p++;
    } else if (*p == 'B') {
        p++;
    }
    if (*p)
        return bw_error_set(err, BW_E_USAGE,
                            "%s: '%s' is not a byte count (use e.g. 4096, 64K, 256M, 1G)", what, s);
    if (shift && v > (UINT64_MAX >> shift))
        return bw_error_set(err, BW_E_RANGE, "%s: '%s' does not fit in 64 bits", what, s);
    *out = v << shift;
    return BW_OK;
}
