/* The HTML report in a real browser: `bwlab report` on the checked-in
 * sample result and probe files, rendered once by headless Chromium, which takes a
 * screenshot, dumps the DOM, logs the console to stderr and the network to
 * a net log. Asserted: every chart is in the DOM with its number of data
 * points (worked out from the sample files, see test_report_chart.c), no
 * console message (the page has no script: any message is an error, e.g.
 * an SVG attribute Chromium cannot parse), and no request by the page. A
 * second test feeds the same checks a page that breaks both rules, so
 * they are known to catch it. Without Chromium both tests are skipped with
 * a message, never passed. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

/* The browser's path in PATH (chromium, or chromium-browser), or NULL. */
static char *find_chromium(void)
{
    static const char *const names[] = { "chromium", "chromium-browser" };
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    for (size_t n = 0; n < 2; n++) {
        char *copy = strdup(path), *save = NULL;
        for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", dir, names[n]);
            if (access(full, X_OK) == 0) {
                free(copy);
                return strdup(full);
            }
        }
        free(copy);
    }
    return NULL;
}

typedef struct browser_run {
    tu_result r;        /* out: the DOM; err: the browser's log */
    char netlog[4200];
    char shot[4200];
} browser_run;

/* Renders file `html` (absolute path) once, in a fresh profile under dir. */
static void render(const char *chromium, const char *dir, const char *html, browser_run *b)
{
    char profile[4200], url[4200], netarg[4300], shotarg[4300];
    snprintf(profile, sizeof profile, "--user-data-dir=%s/profile", dir);
    snprintf(b->netlog, sizeof b->netlog, "%s/net.json", dir);
    snprintf(b->shot, sizeof b->shot, "%s/shot.png", dir);
    snprintf(netarg, sizeof netarg, "--log-net-log=%s", b->netlog);
    snprintf(shotarg, sizeof shotarg, "--screenshot=%s", b->shot);
    snprintf(url, sizeof url, "file://%s", html);
    const char *argv[] = { "timeout", "120", chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", "--no-first-run", profile, "--enable-logging=stderr",
                           "--v=0", netarg, shotarg, "--window-size=1400,3000",
                           "--hide-scrollbars", "--dump-dom", url, NULL };
    b->r = tu_run_cmd(argv, NULL);
}

/* Console lines of the browser's log: "...:CONSOLE..." */
static size_t console_lines(const char *log, char *first, size_t n)
{
    size_t count = 0;
    first[0] = '\0';
    for (const char *p = strstr(log, ":CONSOLE"); p; p = strstr(p + 1, ":CONSOLE")) {
        if (count++ == 0) {
            const char *eol = strchr(p, '\n');
            size_t len = eol ? (size_t)(eol - p) : strlen(p);
            snprintf(first, n, "%.*s", (int)(len < n - 1 ? len : n - 1), p);
        }
    }
    return count;
}

/* Requests the page made, from the net log: URL_REQUEST_START_JOB events
 * with an initiator. Chromium's own background requests (which the flags
 * do not all stop) carry the initiator "not an origin"; a page's, loaded
 * from file://, carry its origin ("null"). The first URL goes to first. */
static size_t page_requests(const char *netlog, char *first, size_t n)
{
    json_error_t je;
    json_t *root = json_load_file(netlog, 0, &je);
    cr_assert(root, "the net log %s parses: %s (line %d)", netlog, je.text, je.line);
    json_t *types = json_object_get(json_object_get(root, "constants"), "logEventTypes");
    json_t *start = json_object_get(types, "URL_REQUEST_START_JOB");
    cr_assert(json_is_integer(start), "the net log names URL_REQUEST_START_JOB");
    size_t count = 0, i;
    json_t *ev;
    first[0] = '\0';
    json_array_foreach(json_object_get(root, "events"), i, ev)
    {
        if (json_integer_value(json_object_get(ev, "type")) != json_integer_value(start))
            continue;
        json_t *params = json_object_get(ev, "params");
        const char *init = json_string_value(json_object_get(params, "initiator"));
        const char *url = json_string_value(json_object_get(params, "url"));
        if (!url || (init && strcmp(init, "not an origin") == 0))
            continue; /* an event's end (no URL), or the browser's own */
        if (count++ == 0)
            snprintf(first, n, "%s (initiator %s)", url ? url : "?", init ? init : "none");
    }
    json_decref(root);
    return count;
}

static size_t count_in_figure(const char *dom, const char *id, const char *needle)
{
    char key[64];
    snprintf(key, sizeof key, "data-figure=\"%s\"", id);
    const char *start = strstr(dom, key);
    if (!start)
        return (size_t)-1;
    const char *end = strstr(start + 1, "data-figure=");
    size_t n = 0;
    for (const char *p = strstr(start, needle); p && (!end || p < end); p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Whether path is a PNG image of w x h pixels (its IHDR chunk). */
static int is_png(const char *path, unsigned w, unsigned h)
{
    unsigned char head[24] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    unsigned pw = (unsigned)head[16] << 24 | (unsigned)head[17] << 16 | (unsigned)head[18] << 8 | head[19];
    unsigned ph = (unsigned)head[20] << 24 | (unsigned)head[21] << 16 | (unsigned)head[22] << 8 | head[23];
    return got == sizeof head && memcmp(head, png, 8) == 0 && memcmp(head + 12, "IHDR", 4) == 0 &&
           pw == w && ph == h;
}

Test(report_browser, samples_render_with_every_chart, .timeout = 240)
{
    char *chromium = find_chromium();
    if (!chromium)
        cr_skip("chromium is not installed (tools/test.sh installs Debian's chromium): "
                "the HTML report was not rendered in a browser");
    char *dir = tu_temp_dir();
    cr_assert(dir);
    char html[4200], samples[4200], probes[4200];
    snprintf(html, sizeof html, "%s/report.html", dir);
    snprintf(samples, sizeof samples, "%s/tests/data/results", tu_source_root());
    snprintf(probes, sizeof probes, "%s/tests/data/probe", tu_source_root());
    const char *argv[] = { "report", samples, probes, "--output", html, NULL };
    tu_result w = tu_exec(argv, NULL);
    cr_assert_eq(w.status, 0, "bwlab report: %s", w.err);
    tu_result_free(&w);

    browser_run b;
    render(chromium, dir, html, &b);
    cr_assert_eq(b.r.status, 0, "chromium exited %d: %s", b.r.status, b.r.err);
    const char *dom = b.r.out;
    cr_assert(strstr(dom, "</html>"), "the DOM was dumped");
    cr_expect(is_png(b.shot, 1400, 3000), "a 1400 x 3000 PNG screenshot at %s", b.shot);

    /* the charts and their points in the DOM the browser built (the
     * figures' counts worked out in test_report_chart.c, the probe
     * charts' in test_compare_probe.c) */
    static const struct {
        const char *id;
        size_t charts, points;
    } want[] = {
        { "stride", 3, 90 }, { "model", 1, 76 }, { "ramp", 6, 246 }, { "roofline", 1, 33 }, { "bank", 1, 3 },
        { "cache", 1, 53 },  { "latency", 1, 94 }, { "transfers", 1, 112 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_expect_eq(count_in_figure(dom, want[i].id, "<svg class=\"chart\""), want[i].charts,
                     "figure %s: its charts", want[i].id);
        cr_expect_eq(count_in_figure(dom, want[i].id, "class=\"pt\""), want[i].points,
                     "figure %s: its data points", want[i].id);
        cr_expect_eq(count_in_figure(dom, want[i].id, "<title>"), want[i].points,
                     "figure %s: a tooltip per point", want[i].id);
    }

    char first[512];
    cr_expect_eq(console_lines(b.r.err, first, sizeof first), 0, "a console message: %s", first);
    cr_expect_eq(page_requests(b.netlog, first, sizeof first), 0, "the page requested %s", first);

    tu_result_free(&b.r);
    tu_rmdir(dir);
    free(dir);
    free(chromium);
}

/* The checks above catch what they look for: a page with an SVG path
 * Chromium cannot parse and an image from the network. */
Test(report_browser, checks_catch_console_errors_and_requests, .timeout = 240)
{
    char *chromium = find_chromium();
    if (!chromium)
        cr_skip("chromium is not installed (tools/test.sh installs Debian's chromium): "
                "the browser checks were not exercised");
    char *dir = tu_temp_dir();
    cr_assert(dir);
    tu_write_file(dir, "bad.html",
                  "<!DOCTYPE html><html><body><svg width=\"10\" height=\"10\">"
                  "<path d=\"M 0 0 L x\"/></svg><img src=\"http://127.0.0.1:9/x.png\">"
                  "</body></html>\n");
    char html[4200];
    snprintf(html, sizeof html, "%s/bad.html", dir);
    browser_run b;
    render(chromium, dir, html, &b);
    cr_assert_eq(b.r.status, 0, "chromium exited %d: %s", b.r.status, b.r.err);
    char first[512];
    cr_expect_geq(console_lines(b.r.err, first, sizeof first), 1, "the bad path is logged");
    cr_expect_eq(page_requests(b.netlog, first, sizeof first), 1, "the image request is seen");
    cr_expect(strstr(first, "http://127.0.0.1:9/x.png"), "the request: %s", first);
    tu_result_free(&b.r);
    tu_rmdir(dir);
    free(dir);
    free(chromium);
}
