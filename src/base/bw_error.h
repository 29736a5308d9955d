/* bw_error: the one error list of bwlab, and an error value that carries a
 * formatted detail message.
 *
 * Library code returns a bw_code and, when given a bw_error, fills it with a
 * message in the style "what went wrong 'bad value' (what to do)": no capital,
 * no full stop. Only src/cli turns errors into output and exit statuses. */
#ifndef BW_ERROR_H
#define BW_ERROR_H

#include <stdarg.h>

/* X(NAME, "name", exit status, generic message) */
#define BW_ERRORS(X)                                                        \
    X(OK, "ok", 0, "success")                                               \
    X(NOMEM, "nomem", 1, "out of memory")                                   \
    X(USAGE, "usage", 2, "invalid argument")                                \
    X(SYNTAX, "syntax", 2, "syntax error")                                  \
    X(EVAL, "eval", 2, "expression cannot be evaluated")                    \
    X(RANGE, "range", 2, "value out of range")                              \
    X(FORMAT, "format", 2, "malformed input")                               \
    X(IO, "io", 1, "input/output error")                                    \
    X(NOPLATFORM, "noplatform", 3, "no OpenCL platform found")              \
    X(NODEVICE, "nodevice", 2, "no OpenCL device matches")                  \
    X(OPENCL, "opencl", 1, "OpenCL call failed")                            \
    X(BUILD, "build", 1, "kernel build failed")                             \
    X(TOOBIG, "toobig", 2, "too large for the device")                      \
    X(UNSUPPORTED, "unsupported", 2, "not supported")                       \
    X(VALIDATION, "validation", 1, "result validation failed")              \
    X(INTERRUPTED, "interrupted", 130, "interrupted")

typedef enum bw_code {
#define BW_X_ENUM(NAME, name, status, msg) BW_E_##NAME,
    BW_ERRORS(BW_X_ENUM)
#undef BW_X_ENUM
    BW_E__COUNT
} bw_code;

#define BW_OK BW_E_OK

/* Short lower-case name of a code ("usage", "opencl"); never NULL. */
const char *bw_code_name(bw_code code);
/* Generic message of a code; never NULL. */
const char *bw_code_message(bw_code code);
/* The process exit status the CLI uses for a code (documented in docs/guide.md). */
int bw_code_exit_status(bw_code code);

/* An error value. Zero-initialise it (BW_ERROR_INIT); msg is owned by the
 * value and freed by bw_error_clear. */
typedef struct bw_error {
    bw_code code;
    char *msg;
} bw_error;

#define BW_ERROR_INIT { BW_OK, NULL }

#if defined(__GNUC__)
#define BW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BW_PRINTF(a, b)
#endif

/* Records code and a formatted message in err (replacing any earlier one)
 * and returns code, so callers can write `return bw_error_set(...)`.
 * err may be NULL: then only code is returned. */
bw_code bw_error_set(bw_error *err, bw_code code, const char *fmt, ...) BW_PRINTF(3, 4);
bw_code bw_error_setv(bw_error *err, bw_code code, const char *fmt, va_list ap);
/* Prepends context ("while X: ") to the message of an error already set;
 * returns its code. No-op on NULL or on an error without a message. */
bw_code bw_error_prefix(bw_error *err, const char *fmt, ...) BW_PRINTF(2, 3);
/* Frees the message and resets to BW_OK. Accepts NULL. */
void bw_error_clear(bw_error *err);
/* The message, or the code's generic message when none was set. */
const char *bw_error_text(const bw_error *err);

#endif
