/* Issue 10, findings 6 and 7: where results go and what survives.
 * --output replaces regular files atomically and keeps their mode, writes
 * through devices, FIFOs and links, and fails on a full device; standard
 * output is checked at exit; SIGTERM writes the results like SIGINT; and
 * the journal OUT.partial keeps every finished pattern through a SIGKILL.
 * Runs are pinned to --device cpu and kept small. */
#include <criterion/criterion.h>
#include <errno.h>
#include <jansson.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bw_file.h"
#include "bwlab_config.h"
#include "test_util.h"

/* a quick run writing JSON to `out` */
static tu_result quick_run(const char *out)
{
    const char *argv[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.2",
                           "--no-roofline", "--format", "json", "--output", out, NULL };
    return tu_exec(argv, NULL);
}

static json_t *load_json(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    cr_assert_not_null(j, "%s: bad JSON (%s, line %d)", path, e.text, e.line);
    return j;
}

Test(cli_output, stdout_errors_fail_every_command)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    static const char *const cmds[] = { "--version", "model --expr 4*g", "patterns", "help run" };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char line[4200];
        snprintf(line, sizeof line, "'%s' %s > /dev/full", exe, cmds[i]);
        const char *argv[] = { "sh", "-c", line, NULL };
        tu_result r = tu_run_cmd(argv, NULL);
        cr_expect_eq(r.status, 1, "%s: exit %d", cmds[i], r.status);
        cr_expect(strstr(r.err, "No space left") != NULL, "%s: %s", cmds[i], r.err);
        tu_result_free(&r);
    }
}

Test(cli_output, devices_are_written_through, .timeout = 120)
{
    tu_result r = quick_run("/dev/null");
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    struct stat st;
    cr_assert_eq(stat("/dev/null", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");

    r = quick_run("/dev/full");
    cr_expect_eq(r.status, 1, "exit %d", r.status);
    cr_expect(strstr(r.err, "cannot write '/dev/full': No space left on device") != NULL, "%s", r.err);
    /* the measurements are not lost: they went to stdout */
    cr_expect(strstr(r.out, "\"schema\": \"bwlab.results\"") != NULL);
    tu_result_free(&r);
    cr_assert_eq(stat("/dev/full", &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "/dev/full is no longer a device");
}

Test(cli_output, regular_files_keep_their_mode_and_links_stay_links, .timeout = 120)
{
    char *dir = tu_temp_dir();
    char target[4200], link[4200], plain[4200];
    snprintf(target, sizeof target, "%s/target.json", dir);
    snprintf(link, sizeof link, "%s/link.json", dir);
    snprintf(plain, sizeof plain, "%s/plain.json", dir);
    tu_write_file(dir, "target.json", "old");
    cr_assert_eq(chmod(target, 0600), 0);
    cr_assert_eq(symlink("target.json", link), 0);

    tu_result r = quick_run(link);
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
    cr_assert_eq(stat(target, &st), 0);
    cr_expect(S_ISREG(st.st_mode));
    cr_expect_eq(st.st_mode & 07777, 0600, "mode %o", st.st_mode & 07777);
    json_t *d = load_json(target);
    cr_expect_str_eq(json_string_value(json_object_get(d, "schema")), "bwlab.results");
    json_decref(d);

    /* a new file: 0666 less the umask (the test sets 022) */
    mode_t old = umask(022);
    r = quick_run(plain);
    umask(old);
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    cr_assert_eq(stat(plain, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0644, "mode %o", st.st_mode & 07777);

    /* nothing else left in the directory: no temp file, no journal */
    char line[4300];
    snprintf(line, sizeof line, "ls -A '%s' | wc -l", dir);
    const char *argv[] = { "sh", "-c", line, NULL };
    r = tu_run_cmd(argv, NULL);
    cr_expect_eq(atoi(r.out), 3, "left behind: %s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

Test(cli_output, fifos_are_written_through, .timeout = 120)
{
    char *dir = tu_temp_dir();
    char fifo[4200], copy[4200];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(copy, sizeof copy, "%s/copy.json", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    pid_t reader = fork();
    cr_assert_geq(reader, 0);
    if (reader == 0) {
        char cmd[8500];
        snprintf(cmd, sizeof cmd, "cat '%s' > '%s'", fifo, copy);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    tu_result r = quick_run(fifo);
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    int status = 0;
    waitpid(reader, &status, 0);
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    json_t *d = load_json(copy);
    json_decref(d);
    tu_rmdir(dir);
    free(dir);
}

/* Starts a long run writing to out; returns its pid. `hold` (a pattern
 * spec, or NULL) is never counted stable (the test-only hook "hold",
 * src/base/bw_hook.h), so the run stays alive until it is signalled
 * whatever the machine's noise: without it, patterns that all reach the
 * launch cap in the same round finish together, and the run can end
 * between two looks at the journal. */
static pid_t start_long_run(const char *out, const char *patterns, const char *hold)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    char faults[256] = "";
    if (hold)
        snprintf(faults, sizeof faults, "hold=%s", hold);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        if (hold)
            setenv("BWLAB_TEST_FAULTS", faults, 1);
        /* --rse 50: every other pattern is stable after its first 0.2 s of launches */
        execl(exe, exe, "run", "--device", "cpu", "--pattern", patterns, "--size", "32M", "--budget", "120",
              "--rse", "50", "--no-roofline", "--output", out, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* lines in a file (0 when it does not exist) */
static int count_lines(const char *path)
{
    char *text = NULL;
    if (bw_file_read(path, &text, NULL, NULL) != BW_OK)
        return 0;
    int n = 0;
    for (char *c = text; *c; c++)
        n += *c == '\n';
    free(text);
    return n;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Waits until the journal has `lines` lines while the run `pid` lives;
 * returns 1 when it did, 0 on timeout, -1 when the run ended first (then
 * *status holds its wait status and the run is reaped). */
static int wait_for_lines(const char *path, int lines, int timeout_s, pid_t pid, int *status)
{
    for (int i = 0; i < timeout_s * 20; i++) {
        if (count_lines(path) >= lines)
            return 1;
        if (waitpid(pid, status, WNOHANG) == pid)
            return -1;
        sleep_ms(50);
    }
    return 0;
}

/* the pattern a run keeps timing until it is signalled, where the build can hold one */
#define HELD_PATTERN "stride:s=16"
#ifdef BWLAB_FAULT_HOOKS
#define HOLD HELD_PATTERN
#else
#define HOLD NULL
#endif

Test(cli_output, sigterm_writes_results_like_sigint, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char out[4200], partial[4300];
    snprintf(out, sizeof out, "%s/r.json", dir);
    snprintf(partial, sizeof partial, "%s.partial", out);
    /* the journal's head line comes once the run has planned */
    pid_t pid = start_long_run(out, "seq," HELD_PATTERN, HOLD);
    int status = 0;
    int started = wait_for_lines(partial, 1, 120, pid, &status);
    cr_assert_neq(started, -1, "the run ended before its journal was seen (wait status %d)", status);
    kill(pid, SIGTERM);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(started, "no journal within 120 s");
    cr_assert(WIFEXITED(status), "killed by SIGTERM instead of writing the results");
    cr_expect_eq(WEXITSTATUS(status), 143);
    json_t *d = load_json(out);
    cr_expect(json_is_true(json_object_get(d, "interrupted")));
    cr_expect_eq(json_array_size(json_object_get(d, "results")), 2);
    json_decref(d);
    cr_expect_eq(access(partial, F_OK), -1, "the final write leaves no journal");
    tu_rmdir(dir);
    free(dir);
}

Test(cli_output, sigkill_keeps_the_journal, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char out[4200], partial[4300];
    snprintf(out, sizeof out, "%s/r.json", dir);
    snprintf(partial, sizeof partial, "%s.partial", out);
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks: nothing keeps the run alive until the SIGKILL");
#endif
    /* seq finishes; the held pattern keeps the run alive for the kill */
    pid_t pid = start_long_run(out, "seq," HELD_PATTERN, HOLD);
    int status = 0;
    int finished = wait_for_lines(partial, 2, 200, pid, &status);
    cr_assert_neq(finished, -1, "the run ended before the SIGKILL (wait status %d)", status);
    kill(pid, SIGKILL);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(finished, "no finished pattern in the journal within 200 s");
    cr_assert(WIFSIGNALED(status), "the run ended before the SIGKILL (exit %d)", WEXITSTATUS(status));
    cr_expect_eq(access(out, F_OK), -1, "no results file: the run was killed");
    char *text = NULL;
    cr_assert_eq(bw_file_read(partial, &text, NULL, NULL), BW_OK);
    char *nl = strchr(text, '\n');
    cr_assert_not_null(nl);
    *nl = '\0';
    json_error_t e;
    json_t *head = json_loads(text, 0, &e);
    cr_assert_not_null(head, "head line: %s", e.text);
    cr_expect_str_eq(json_string_value(json_object_get(head, "schema")), "bwlab.results");
    cr_expect(json_is_true(json_object_get(head, "partial")));
    cr_expect_eq(json_array_size(json_object_get(head, "devices")), 1);
    json_decref(head);
    /* every further line: one finished pattern, with its timings */
    int results = 0;
    for (char *line = nl + 1; *line; results++) {
        char *end = strchr(line, '\n');
        cr_assert_not_null(end, "a line cut short: %s", line);
        *end = '\0';
        json_t *r = json_loads(line, 0, &e);
        cr_assert_not_null(r, "result line: %s", e.text);
        const char *pattern = json_string_value(json_object_get(r, "pattern"));
        cr_expect(pattern && (!strcmp(pattern, "seq") || !strncmp(pattern, "stride", 6)), "%s", line);
        if (!strcmp(json_string_value(json_object_get(r, "status")), "ok")) {
            json_int_t n = json_integer_value(json_object_get(json_object_get(r, "time_ns"), "count"));
            cr_expect_geq(n, 1);
            cr_expect(json_number_value(json_object_get(r, "effective_gbs")) > 0);
            /* a figure not known yet is null, never a 0 */
            json_t *rel = json_object_get(r, "relative_to_seq");
            cr_expect(json_is_null(rel) || json_number_value(rel) > 0, "%s", line);
        }
        json_decref(r);
        line = end + 1;
    }
    cr_expect_geq(results, 1);
    /* and bwlab compare reads it, marked partial */
    tu_result c = tu_exec((const char *[]){ "compare", partial, NULL }, NULL);
    cr_expect_eq(c.status, 0, "compare: exit %d: %s", c.status, c.err);
    cr_expect(strstr(c.out, "PARTIAL") != NULL, "%s", c.out);
    tu_result_free(&c);
    free(text);
    tu_rmdir(dir);
    free(dir);
}

/* Issue 10, smaller ones: on a terminal the progress line is redrawn a few
 * times a second, not after every launch. The bound follows from the
 * throttle (at most one redraw per 0.25 s within a phase, plus one per
 * change of phase), whatever the machine's speed. */
Test(cli_output, progress_redraws_are_throttled, .timeout = 300)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int master = -1;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    cr_assert_geq(pid, 0, "forkpty failed");
    if (pid == 0) {
        execl(exe, exe, "run", "--device", "cpu", "--pattern", "seq,stride:s=2", "--size", "2M", "--budget", "2",
              "--rse", "0", "--no-roofline", "--output", "/dev/null", (char *)NULL);
        _exit(127);
    }
    char buf[4096];
    size_t redraws = 0, carry = 0;
    for (;;) {
        ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0)
            break;
        /* count "\r\033[K[" (a redraw of the progress line), across reads */
        for (ssize_t i = 0; i < n; i++) {
            static const char seq[] = "\r\033[K[";
            carry = buf[i] == seq[carry] ? carry + 1 : buf[i] == seq[0];
            if (carry == sizeof seq - 1) {
                redraws++;
                carry = 0;
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(master);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    /* phases: building, validating, measuring, each at most a few times */
    double bound = 4.0 * wall + 12;
    cr_expect_gt(redraws, 0, "no progress line on a terminal");
    cr_expect_leq((double)redraws, bound, "%zu redraws in %.1f s", redraws, wall);
}

/* Starts `bwlab CMD ARGS...` writing JSON to `out` (stderr to /dev/null),
 * with BWLAB_CACHE_DIR set to cache_dir when it is not NULL. */
static pid_t start_command(const char *const *args, const char *cache_dir)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        if (cache_dir)
            setenv("BWLAB_CACHE_DIR", cache_dir, 1);
        char *argv[16];
        size_t n = 0;
        argv[n++] = (char *)exe;
        for (; *args && n < 15; args++)
            argv[n++] = (char *)*args;
        argv[n] = NULL;
        execv(exe, argv);
        _exit(127);
    }
    return pid;
}

/* Sends SIGINT to a long roofline or tune 3 s after it starts (its handler
 * is in place before discovery) and waits at most 15 s for it to end:
 * a signal takes effect between launches and chunks, well within that.
 * Returns the wait status. */
static int interrupt_after_start(pid_t pid)
{
    sleep_ms(3000);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "it ended before the signal (wait status %d)", status);
    kill(pid, SIGINT);
    for (int i = 0; i < 15 * 20; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return status;
        sleep_ms(50);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    cr_assert_fail("no exit within 15 s of SIGINT");
    return status;
}

Test(cli_output, sigint_stops_roofline_and_writes_it, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char out[4200];
    snprintf(out, sizeof out, "%s/roof.json", dir);
    /* a 60 s budget: only the signal ends it this soon */
    pid_t pid = start_command((const char *[]){ "roofline", "--device", "cpu", "--budget", "60", "--format", "json",
                                                "--output", out, NULL },
                              NULL);
    int status = interrupt_after_start(pid);
    cr_assert(WIFEXITED(status), "killed by SIGINT instead of writing the results");
    cr_expect_eq(WEXITSTATUS(status), 130);
    json_t *d = load_json(out);
    cr_expect(json_is_true(json_object_get(d, "interrupted")));
    const char *st = json_string_value(json_object_get(json_array_get(json_object_get(d, "devices"), 0), "status"));
    /* interrupted while measuring, or (a very slow start) before it began */
    cr_expect(st && (!strcmp(st, "interrupted") || !strcmp(st, "not-run")), "status %s", st ? st : "(none)");
    json_decref(d);
    tu_rmdir(dir);
    free(dir);
}

Test(cli_output, sigint_stops_tune_and_writes_it, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char out[4200], cache[4300];
    snprintf(out, sizeof out, "%s/tune-out.json", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    cr_assert_eq(mkdir(cache, 0700), 0);
    pid_t pid = start_command((const char *[]){ "tune", "--device", "cpu", "--retune", "--size", "8M", "--budget",
                                                "60", "--format", "json", "--output", out, NULL },
                              cache);
    int status = interrupt_after_start(pid);
    cr_assert(WIFEXITED(status), "killed by SIGINT instead of writing the results");
    cr_expect_eq(WEXITSTATUS(status), 130);
    json_t *d = load_json(out);
    cr_expect(json_is_true(json_object_get(d, "interrupted")));
    json_t *dev = json_array_get(json_object_get(d, "devices"), 0);
    const char *st = json_string_value(json_object_get(dev, "status"));
    cr_expect(st && (!strcmp(st, "interrupted") || !strcmp(st, "not-run")), "status %s", st ? st : "(none)");
    cr_expect(json_is_null(json_object_get(dev, "peak_read_gbs")), "a winner from a search cut short");
    json_decref(d);
    char path[4400];
    snprintf(path, sizeof path, "%s/tune.json", cache);
    cr_expect_neq(access(path, F_OK), 0, "an interrupted search was cached");
    tu_rmdir(dir);
    free(dir);
}
