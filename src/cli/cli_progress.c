/* cli_progress: the status line of run and probe on standard error
 * (cli_progress.h). */
#include "cli_progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench_run.h"
#include "bw_buf.h"
#include "bw_format.h"

cli_progress_mode cli_progress_mode_of(int quiet)
{
    if (quiet || !isatty(STDERR_FILENO))
        return CLI_PROGRESS_NONE;
    const char *term = getenv("TERM");
    if (!term || !*term || !strcmp(term, "dumb"))
        return CLI_PROGRESS_PLAIN;
    return CLI_PROGRESS_REDRAW;
}

int cli_progress_width(void)
{
    const char *cols = getenv("COLUMNS");
    if (cols && *cols) {
        char *end = NULL;
        long n = strtol(cols, &end, 10);
        if (*end == '\0' && n >= 20 && n <= 1000)
            return (int)n;
    }
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

/* the first `cols` characters of s (UTF-8: continuation bytes take no column) */
static size_t cut_at_columns(const char *s, size_t cols)
{
    size_t i = 0, used = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xc0) == 0x80)
            continue;
        if (used == cols)
            break;
        used++;
    }
    return i;
}

void cli_progress_show(cli_progress_mode m, const char *fmt, ...)
{
    if (m == CLI_PROGRESS_NONE)
        return;
    char raw[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    bw_buf b = BW_BUF_INIT;
    bw_quote_append(&b, raw, strlen(raw), 0, 0);
    const char *text = bw_buf_failed(&b) ? "" : bw_buf_str(&b);
    if (m == CLI_PROGRESS_PLAIN) {
        fprintf(stderr, "%s\n", text);
    } else {
        size_t n = cut_at_columns(text, (size_t)cli_progress_width() - 1);
        fprintf(stderr, "\r\033[K%.*s", (int)n, text);
    }
    fflush(stderr);
    bw_buf_free(&b);
}

void cli_progress_clear(cli_progress_mode m)
{
    if (m != CLI_PROGRESS_REDRAW)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* a few redraws a second at most: the runner reports after every launch */
#define PROGRESS_REDRAW_S 0.25

void cli_progress_runner(cli_progress_state *st, const bench_progress *p)
{
    if (!strcmp(p->phase, "idle")) {
        cli_progress_clear(st->mode);
        return;
    }
    if (!strcmp(p->phase, "roofline")) {
        cli_progress_show(st->mode, "[roofline] measuring the device's roof, about %.0f s",
                          BENCH_PIPELINE_ROOFLINE_S);
        return;
    }
    if (!strcmp(p->phase, "transfers")) {
        cli_progress_show(st->mode, "[transfers] host<->device copies and launch latency");
        return;
    }
    if (st->mode == CLI_PROGRESS_NONE)
        return;
    double now = bench_now_s();
    int same_phase = !strcmp(st->last_phase, p->phase);
    /* plain lines: one per phase, not one per redraw */
    if (same_phase && (st->mode == CLI_PROGRESS_PLAIN || now - st->last_draw < PROGRESS_REDRAW_S))
        return;
    st->last_draw = now;
    snprintf(st->last_phase, sizeof st->last_phase, "%s", p->phase);
    char eta[48] = "";
    if (p->remaining_s >= 0)
        snprintf(eta, sizeof eta, ", %.0f s of the budget left", p->remaining_s);
    if (!strcmp(p->phase, "measuring"))
        cli_progress_show(st->mode, "[measuring] %zu of %zu patterns stable, %.0f s elapsed%s", p->done, p->total,
                          p->elapsed_s, eta);
    else if (p->spec && *p->spec)
        cli_progress_show(st->mode, "[%s %zu/%zu] %s, %.0f s elapsed%s", p->phase, p->done + 1, p->total, p->spec,
                          p->elapsed_s, eta);
    else
        cli_progress_show(st->mode, "[%s %zu/%zu] %.0f s elapsed%s", p->phase, p->done + 1, p->total, p->elapsed_s,
                          eta);
}
