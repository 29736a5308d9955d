/* bw_error: the name, message and exit status of each code of the error
 * list, and setting, prefixing and clearing an error's detail (bw_error.h). */
#include "bw_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    const char *message;
    int status;
} bw_error_table[] = {
#define BW_X_ROW(N, n, s, m) { n, m, s },
    BW_ERRORS(BW_X_ROW)
#undef BW_X_ROW
};

static int code_ok(bw_code code)
{
    return (int)code >= 0 && code < BW_E__COUNT;
}

const char *bw_code_name(bw_code code)
{
    return code_ok(code) ? bw_error_table[code].name : "unknown";
}

const char *bw_code_message(bw_code code)
{
    return code_ok(code) ? bw_error_table[code].message : "unknown error";
}

int bw_code_exit_status(bw_code code)
{
    return code_ok(code) ? bw_error_table[code].status : 1;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

bw_code bw_error_setv(bw_error *err, bw_code code, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    free(err->msg);
    err->code = code;
    err->msg = fmt ? vformat(fmt, ap) : NULL;
    return code;
}

bw_code bw_error_set(bw_error *err, bw_code code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bw_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

bw_code bw_error_prefix(bw_error *err, const char *fmt, ...)
{
    if (!err)
        return BW_OK;
    if (!err->msg)
        return err->code;
    va_list ap;
    va_start(ap, fmt);
    char *head = vformat(fmt, ap);
    va_end(ap);
    if (!head)
        return err->code;
    size_t hl = strlen(head), ml = strlen(err->msg);
    char *joined = malloc(hl + ml + 1);
    if (joined) {
        memcpy(joined, head, hl);
        memcpy(joined + hl, err->msg, ml + 1);
        free(err->msg);
        err->msg = joined;
    }
    free(head);
    return err->code;
}

void bw_error_clear(bw_error *err)
{
    if (!err)
        return;
    free(err->msg);
    err->msg = NULL;
    err->code = BW_OK;
}

const char *bw_error_text(const bw_error *err)
{
    if (!err)
        return bw_code_message(BW_OK);
    return err->msg ? err->msg : bw_code_message(err->code);
}
