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

static char *slurp_file(const char *path)
{
    char *t = NULL;
    if (bw_file_read(path, &t, NULL, NULL) != BW_OK)
        return NULL;
    return t;
}

static void expect_file(const char *path, const char *text)
{
    char *t = slurp_file(path);
    cr_expect(t && !strcmp(t, text), "%s holds '%s', expected '%s'", path, t ? t : "(nothing)", text);
    free(t);
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

/* Standard output closed by the caller (`>&-`) is an error only where
 * something was to be written there: --version fails (exit 1, EBADF), a
 * compare or run with --output writes its file and succeeds, and nothing
 * meant for standard output lands in a file opened meanwhile. */
Test(cli_output, a_closed_stdout_is_an_error_only_when_written_to, .timeout = 120)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    char *dir = tu_temp_dir();
    char line[13000];
    snprintf(line, sizeof line, "'%s' --version >&-", exe);
    tu_result r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
    cr_expect_eq(r.status, 1, "--version: exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "cannot write to standard output: Bad file descriptor"), "%s", r.err);
    tu_result_free(&r);

    snprintf(line, sizeof line, "'%s' compare '%s/tests/data/results/sample-amd-mi300x.json' --output '%s/cmp.out' >&-",
             exe, tu_source_root(), dir);
    r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, (const char *[]){ "OCL_ICD_VENDORS=/nonexistent", NULL });
    cr_expect_eq(r.status, 0, "compare: exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    char path[4300];
    snprintf(path, sizeof path, "%s/cmp.out", dir);
    char *t = slurp_file(path);
    cr_expect(t && strstr(t, "seq"), "compare's output: %s", t ? t : "(none)");
    free(t);

    snprintf(line, sizeof line,
             "'%s' run --device cpu --pattern seq --size 2M --budget 0.2 --no-roofline --format json "
             "--output '%s/r.json' >&-",
             exe, dir);
    r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
    cr_expect_eq(r.status, 0, "run: exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    snprintf(path, sizeof path, "%s/r.json", dir);
    json_t *d = load_json(path);
    cr_expect_str_eq(json_string_value(json_object_get(d, "schema")), "bwlab.results");
    json_decref(d);
    snprintf(line, sizeof line, "ls -A '%s'", dir);
    r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
    cr_expect_str_eq(r.out, "cmp.out\nr.json\n", "left in the directory: %s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* A signal that comes while an output's temp copy exists (compare's or
 * report's, whose default action ends the process) acts once the copy is
 * renamed into place: the output is whole and no hidden .NAME.XXXXXX is
 * left. The hook raises SIGTERM right after the temp file is made. */
Test(cli_output, a_signal_while_an_output_is_replaced_leaves_no_temp_file)
{
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks: no signal can be raised at that moment");
#endif
    static const char *const cmds[] = { "compare", "report" };
    for (size_t i = 0; i < 2; i++) {
        char *dir = tu_temp_dir();
        char out[4300], input[4300];
        snprintf(out, sizeof out, "%s/%s.out", dir, cmds[i]);
        snprintf(input, sizeof input, "%s/tests/data/results/sample-amd-mi300x.json", tu_source_root());
        /* whole: what an undisturbed run writes */
        tu_result r = tu_exec((const char *[]){ cmds[i], input, "--output", out, NULL },
                              (const char *[]){ "OCL_ICD_VENDORS=/nonexistent", NULL });
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", cmds[i], r.status, r.err);
        tu_result_free(&r);
        char *whole = slurp_file(out);
        cr_assert_not_null(whole);
        cr_assert_eq(unlink(out), 0);
        r = tu_exec((const char *[]){ cmds[i], input, "--output", out, NULL },
                    (const char *[]){ "OCL_ICD_VENDORS=/nonexistent", "BWLAB_TEST_FAULTS=signal=replacing@15", NULL });
        cr_expect_eq(r.status, 128 + SIGTERM, "%s: exit %d: %s", cmds[i], r.status, r.err);
        tu_result_free(&r);
        /* whole: the undisturbed run's bytes, but for report's generation
         * time, which a slow host can put in another second: then the
         * same length, ending as the page ends */
        char *t = slurp_file(out);
        int same = t && (!strcmp(t, whole) || (!strcmp(cmds[i], "report") && strlen(t) == strlen(whole) &&
                                              strstr(t, "</html>\n") && !strcmp(strstr(t, "</html>\n"), "</html>\n")));
        cr_expect(same, "%s: the output is not whole: %.200s", cmds[i], t ? t : "(none)");
        free(t);
        free(whole);
        char line[4400];
        snprintf(line, sizeof line, "ls -A '%s'", dir);
        r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
        char want[64];
        snprintf(want, sizeof want, "%s.out\n", cmds[i]);
        cr_expect_str_eq(r.out, want, "%s: left in the directory: %s", cmds[i], r.out);
        tu_result_free(&r);
        tu_rmdir(dir);
        free(dir);
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

/* SIGTERM (a batch scheduler's limit), SIGHUP (a closed terminal, a
 * dropped ssh session) and SIGQUIT each stop a run as Ctrl-C does: the
 * results measured so far are written, marked interrupted, and the exit
 * status is 128 + the signal. */
Test(cli_output, sigterm_sighup_and_sigquit_write_results_like_sigint, .timeout = 300)
{
    static const int sigs[] = { SIGTERM, SIGHUP, SIGQUIT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        char *dir = tu_temp_dir();
        char out[4200], partial[4300];
        snprintf(out, sizeof out, "%s/r.json", dir);
        snprintf(partial, sizeof partial, "%s.partial", out);
        /* the journal's head line comes once the run has planned */
        pid_t pid = start_long_run(out, "seq," HELD_PATTERN, HOLD);
        int status = 0;
        int started = wait_for_lines(partial, 1, 120, pid, &status);
        cr_assert_neq(started, -1, "signal %d: the run ended before its journal was seen (wait status %d)", sigs[i],
                      status);
        kill(pid, sigs[i]);
        cr_assert_eq(waitpid(pid, &status, 0), pid);
        cr_assert(started, "no journal within 120 s");
        cr_assert(WIFEXITED(status), "killed by signal %d instead of writing the results", sigs[i]);
        cr_expect_eq(WEXITSTATUS(status), 128 + sigs[i]);
        json_t *d = load_json(out);
        cr_expect(json_is_true(json_object_get(d, "interrupted")), "signal %d", sigs[i]);
        cr_expect_eq(json_array_size(json_object_get(d, "results")), 2);
        json_decref(d);
        cr_expect_eq(access(partial, F_OK), -1, "signal %d: the final write leaves no journal", sigs[i]);
        tu_rmdir(dir);
        free(dir);
    }
}

/* A second run on the output of a run still measuring is refused (exit 2,
 * naming the first's PID) and leaves the first's journal where it is; the
 * first then writes its results and removes its own journal. A run whose
 * journal was moved aside behind its back (as on a file system without
 * locks) removes nothing at the end: what is at OUT.partial by then is
 * not its own. */
Test(cli_output, a_second_run_on_a_live_runs_output_is_refused, .timeout = 300)
{
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks: nothing keeps the first run alive while the second starts");
#endif
    char *dir = tu_temp_dir();
    char out[4200], partial[4300], aside[4300];
    snprintf(out, sizeof out, "%s/r.json", dir);
    snprintf(partial, sizeof partial, "%s.partial", out);
    snprintf(aside, sizeof aside, "%s.partial.moved", out);
    pid_t pid = start_long_run(out, "seq," HELD_PATTERN, HOLD);
    int status = 0;
    int started = wait_for_lines(partial, 1, 120, pid, &status);
    cr_assert_eq(started, 1, "no journal from the first run (%d, wait status %d)", started, status);
    tu_result r = tu_exec((const char *[]){ "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget",
                                            "0.2", "--no-roofline", "--output", out, NULL },
                          NULL);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    char want[64];
    snprintf(want, sizeof want, "(PID %ld)", (long)pid);
    cr_expect(strstr(r.err, want) && strstr(r.err, "still measuring"), "stderr lacks '%s': %s", want, r.err);
    tu_result_free(&r);
    cr_expect_geq(count_lines(partial), 1, "the first run's journal was moved or emptied");
    cr_expect_neq(access(out, F_OK), 0, "the refused run wrote the output");

    /* the first run's journal moved aside, another file in its place */
    cr_assert_eq(rename(partial, aside), 0);
    tu_write_file(dir, "r.json.partial", "another run's journal\n");
    kill(pid, SIGTERM);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 143, "wait status %d", status);
    json_t *d = load_json(out);
    cr_expect(json_is_true(json_object_get(d, "interrupted")));
    json_decref(d);
    expect_file(partial, "another run's journal\n");
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

/* Runs bwlab with args on a pseudo-terminal (its standard error and
 * output), the environment entries env set ("NAME=value"); returns all
 * it wrote there (caller frees) and its wait status in *status. */
static char *on_terminal(const char *const *args, const char *const *env, int *status)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    int master = -1;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    cr_assert_geq(pid, 0, "forkpty failed");
    if (pid == 0) {
        for (; env && *env; env++)
            putenv((char *)*env);
        char *argv[32];
        size_t n = 0;
        argv[n++] = (char *)exe;
        for (; *args && n < 31; args++)
            argv[n++] = (char *)*args;
        argv[n] = NULL;
        execv(exe, argv);
        _exit(127);
    }
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    for (;;) {
        if (cap - len < 4096) {
            cap *= 2;
            text = realloc(text, cap);
            cr_assert_not_null(text);
        }
        ssize_t n = read(master, text + len, cap - len - 1);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    text[len] = '\0';
    waitpid(pid, status, 0);
    close(master);
    return text;
}

/* Issue 10, smaller ones: on a terminal the progress line is redrawn a few
 * times a second, not after every launch. The bound follows from the
 * throttle (at most one redraw per 0.25 s within a phase, plus one per
 * change of phase), whatever the machine's speed. */
Test(cli_output, progress_redraws_are_throttled, .timeout = 300)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    char *text = on_terminal((const char *[]){ "run", "--device", "cpu", "--pattern", "seq,stride:s=2", "--size", "2M",
                                               "--budget", "2", "--rse", "0", "--no-roofline", "--output", "/dev/null",
                                               NULL },
                             (const char *[]){ "TERM=xterm", NULL }, &status);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    /* a redraw of the progress line: "\r\033[K[" */
    size_t redraws = 0;
    for (const char *p = strstr(text, "\r\033[K["); p; p = strstr(p + 1, "\r\033[K["))
        redraws++;
    free(text);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    /* phases: building, validating, measuring, each at most a few times */
    double bound = 4.0 * wall + 12;
    cr_expect_gt(redraws, 0, "no progress line on a terminal");
    cr_expect_leq((double)redraws, bound, "%zu redraws in %.1f s", redraws, wall);
}

/* TERM=dumb gets plain lines with no escape sequence; elsewhere each
 * redraw of the line is cut one column short of $COLUMNS; a status with
 * no pattern names none (no "] ,"). */
Test(cli_output, the_status_line_follows_term_and_columns, .timeout = 300)
{
    const char *args[] = { "run", "--device", "cpu", "--pattern", "seq,stride:s=2", "--size", "2M", "--budget", "2",
                           "--rse", "0", "--no-roofline", "--output", "/dev/null", NULL };
    int status = 0;
    char *text = on_terminal(args, (const char *[]){ "TERM=dumb", NULL }, &status);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, text);
    cr_expect(strchr(text, '\033') == NULL, "an escape sequence with TERM=dumb: %s", text);
    cr_expect(strstr(text, "[building 1/") != NULL, "no status line with TERM=dumb: %s", text);
    cr_expect(strstr(text, "] ,") == NULL, "a status naming an empty pattern: %s", text);
    /* a pty turns each \n into \r\n: every status is a line of its own */
    for (const char *p = strchr(text, '['); p; p = strchr(p + 1, '[')) {
        if (p != text && p[-1] != '\n')
            continue;
        const char *end = strchr(p, '\n');
        cr_expect(end && end[-1] == '\r', "a status line not ended: %s", p);
    }
    free(text);

    text = on_terminal(args, (const char *[]){ "TERM=xterm", "COLUMNS=40", NULL }, &status);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, text);
    size_t draws = 0;
    for (const char *p = strstr(text, "\r\033[K"); p; p = strstr(p + 1, "\r\033[K")) {
        const char *start = p + 4;
        size_t cols = 0;
        for (const char *q = start; *q && *q != '\r' && *q != '\n'; q++)
            cols += ((unsigned char)*q & 0xc0) != 0x80;
        draws += cols > 0;
        cr_expect_leq(cols, 39, "a redraw of %zu columns at COLUMNS=40: %.80s", cols, start);
    }
    cr_expect_gt(draws, 0, "no status line on a terminal: %s", text);
    free(text);
}

/* Starts `bwlab CMD ARGS...` writing JSON to `out` (stderr to /dev/null),
 * with BWLAB_CACHE_DIR set to cache_dir and BWLAB_TEST_FAULTS to faults
 * when they are not NULL. */
static pid_t start_command(const char *const *args, const char *cache_dir, const char *faults)
{
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        if (cache_dir)
            setenv("BWLAB_CACHE_DIR", cache_dir, 1);
        if (faults)
            setenv("BWLAB_TEST_FAULTS", faults, 1);
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
                              NULL, NULL);
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
#ifndef BWLAB_FAULT_HOOKS
    cr_skip("built without fault hooks: nothing keeps the search alive until the signal");
#endif
    /* The search ends once its finalists are stable, which a quiet host
     * can reach within the 3 s before the signal at any size: the hook
     * "hold=tune" keeps the finals going until the budget or a signal, on
     * any host, so the signal always finds the search alive. */
    pid_t pid = start_command((const char *[]){ "tune", "--device", "cpu", "--retune", "--size", "1M", "--budget",
                                                "60", "--format", "json", "--output", out, NULL },
                              cache, "hold=tune");
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

/* ---- no journal, input or output lost ---- */

/* An earlier run's OUT.partial (the only copy of what a killed run
 * measured) is moved to the first free OUT.partial.N and named on stderr,
 * both by a run that succeeds and by one that fails after planning (a
 * --kernels directory without bank.cl); the new run's own journal is
 * still removed once the results are written. */
Test(cli_output, an_earlier_journal_is_kept_under_a_new_name, .timeout = 300)
{
    char *dir = tu_temp_dir();
    char out[4200], partial[4300], p1[4300], p2[4300], p3[4300], kd[4300];
    snprintf(out, sizeof out, "%s/k.json", dir);
    snprintf(partial, sizeof partial, "%s.partial", out);
    snprintf(p1, sizeof p1, "%s.partial.1", out);
    snprintf(p2, sizeof p2, "%s.partial.2", out);
    snprintf(p3, sizeof p3, "%s.partial.3", out);
    tu_write_file(dir, "k.json.partial", "journal of a killed run\n");
    tu_write_file(dir, "k.json.partial.1", "an older one\n");
    tu_result r = quick_run(out);
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char want[9000];
    snprintf(want, sizeof want, "bwlab run: note: an earlier run's journal was at '%s': it is kept as '%s'", partial,
             p2);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    tu_result_free(&r);
    expect_file(p2, "journal of a killed run\n");
    expect_file(p1, "an older one\n");
    cr_expect_neq(access(partial, F_OK), 0, "the new run's own journal was left behind");
    json_t *d = load_json(out);
    json_decref(d);

    /* a run that fails after planning keeps it too */
    tu_write_file(dir, "k.json.partial", "journal of a second killed run\n");
    snprintf(kd, sizeof kd, "%s/kd", dir);
    cr_assert_eq(mkdir(kd, 0755), 0);
    static const char *const copied[] = { "gather.cl", "bw_expr.cl" };
    for (size_t i = 0; i < 2; i++) {
        char from[4200];
        snprintf(from, sizeof from, "%s/cl/%s", tu_source_root(), copied[i]);
        char *text = slurp_file(from);
        cr_assert_not_null(text, "%s", from);
        tu_write_file(kd, copied[i], text);
        free(text);
    }
    const char *argv[] = { "run", "--device", "cpu", "--pattern", "bank:pitch=32", "--size", "2M", "--budget", "0.2",
                           "--no-roofline", "--kernels", kd, "--format", "json", "--output", out, NULL };
    r = tu_exec(argv, NULL);
    cr_expect_neq(r.status, 0, "the run without bank.cl succeeded: %s", r.err);
    cr_expect(strstr(r.err, "bank.cl"), "%s", r.err);
    snprintf(want, sizeof want, "it is kept as '%s'", p3);
    cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
    tu_result_free(&r);
    expect_file(p3, "journal of a second killed run\n");
    expect_file(p2, "journal of a killed run\n");
    expect_file(p1, "an older one\n");
    tu_rmdir(dir);
    free(dir);
}

/* Two outputs on one file (the same path, a link, a hard link, or the
 * same new file), or an output over the cache the command reads or
 * writes, are refused with exit 2 before any device is looked up: these
 * run with no OpenCL at all. /dev/null twice is no conflict. */
Test(cli_output, two_outputs_on_one_file_are_refused)
{
    char *dir = tu_temp_dir();
    char same[4200], lnk[4200], hard[4200], cache[4200], tune[4300], probe[4300], vendors[4300], cache_env[4300];
    snprintf(same, sizeof same, "%s/same.out", dir);
    snprintf(lnk, sizeof lnk, "%s/link.out", dir);
    snprintf(hard, sizeof hard, "%s/hard.out", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(tune, sizeof tune, "%s/tune.json", cache);
    snprintf(probe, sizeof probe, "%s/probe.json", cache);
    snprintf(vendors, sizeof vendors, "OCL_ICD_VENDORS=%s/no-vendors", dir);
    snprintf(cache_env, sizeof cache_env, "BWLAB_CACHE_DIR=%s", cache);
    cr_assert_eq(mkdir(cache, 0755), 0);
    const char *env[] = { vendors, cache_env, NULL };
    /* neither exists yet: the same new file */
    tu_result r = tu_exec((const char *[]){ "run", "--output", same, "--report", same, NULL }, env);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "--output and --report are the same file"), "%s", r.err);
    cr_expect_neq(access(same, F_OK), 0, "a file was made");
    tu_result_free(&r);
    cr_assert_eq(symlink("same.out", lnk), 0);
    r = tu_exec((const char *[]){ "run", "--output", lnk, "--report", same, NULL }, env);
    cr_expect_eq(r.status, 2, "a dangling link to the other new file: exit %d: %s", r.status, r.err);
    tu_result_free(&r);
    tu_write_file(dir, "same.out", "kept\n");
    cr_assert_eq(link(same, hard), 0);
    const char *pairs[][2] = { { lnk, same }, { hard, same }, { hard, lnk } };
    for (size_t i = 0; i < 3; i++) {
        r = tu_exec((const char *[]){ "run", "--output", pairs[i][0], "--report", pairs[i][1], NULL }, env);
        cr_expect_eq(r.status, 2, "%s / %s: exit %d: %s", pairs[i][0], pairs[i][1], r.status, r.err);
        char want[9000];
        snprintf(want, sizeof want, "--output '%s' and --report '%s' are the same file", pairs[i][0], pairs[i][1]);
        cr_expect(strstr(r.err, want), "%s", r.err);
        tu_result_free(&r);
    }
    expect_file(same, "kept\n");
    /* an output over the cache: tune and probe write it, run reads it */
    r = tu_exec((const char *[]){ "tune", "--output", tune, NULL }, env);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "and the tuning cache"), "%s", r.err);
    tu_result_free(&r);
    r = tu_exec((const char *[]){ "probe", "--output", probe, NULL }, env);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "and the probe cache"), "%s", r.err);
    tu_result_free(&r);
    tu_write_file(cache, "tune.json", "{}\n");
    r = tu_exec((const char *[]){ "run", "--output", tune, NULL }, env);
    cr_expect_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.err, "and the tuning cache"), "%s", r.err);
    tu_result_free(&r);
    expect_file(tune, "{}\n");
    /* not a conflict: /dev/null twice gets as far as looking for OpenCL */
    r = tu_exec((const char *[]){ "run", "--output", "/dev/null", "--report", "/dev/null", NULL }, env);
    cr_expect_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_expect(!strstr(r.err, "same file"), "%s", r.err);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* --output replaces a file only where the caller could write it, as
 * `echo x > file` would: a 0444 file, or another user's 0644 file in a
 * directory the caller owns, is refused with exit 1, named, and left as it
 * was, with no temp file behind; the caller's own file is replaced. Root
 * may write any file, so as root bwlab runs as nobody (setpriv); a case
 * that needs another user is skipped, with a message, where none can be
 * had. */
Test(cli_output, output_replaces_only_files_the_caller_could_write, .timeout = 120)
{
    char *dir = tu_temp_dir();
    const char *exe = getenv("BWLAB_EXE");
    cr_assert_not_null(exe);
    int root = geteuid() == 0;
    char ro[4200], other[4200], mine[4200], input[4200];
    snprintf(ro, sizeof ro, "%s/ro.csv", dir);
    snprintf(other, sizeof other, "%s/other.csv", dir);
    snprintf(mine, sizeof mine, "%s/mine.csv", dir);
    snprintf(input, sizeof input, "%s/tests/data/results/sample-amd-mi300x.json", tu_source_root());
    tu_write_file(dir, "ro.csv", "read-only\n");
    tu_write_file(dir, "other.csv", "another user's\n");
    tu_write_file(dir, "mine.csv", "mine\n");
    cr_assert_eq(chmod(ro, 0444), 0);
    cr_assert_eq(chmod(other, 0644), 0);
    cr_assert_eq(chmod(mine, 0644), 0);
    if (root) {
        /* nobody owns the directory, ro.csv and mine.csv; root owns other.csv */
        cr_assert_eq(chown(dir, 65534, 65534), 0);
        cr_assert_eq(chown(ro, 65534, 65534), 0);
        cr_assert_eq(chown(mine, 65534, 65534), 0);
        cr_assert_eq(chmod(dir, 0755), 0);
    }
    const char *targets[] = { ro, other, mine };
    const char *before[] = { "read-only\n", "another user's\n", "mine\n" };
    for (size_t i = 0; i < 3; i++) {
        tu_result r;
        if (root) {
            const char *argv[] = { "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", exe, "compare",
                                   input, "--output", targets[i], NULL };
            const char *env[] = { "OCL_ICD_VENDORS=/nonexistent", NULL };
            r = tu_run_cmd(argv, env);
            if (r.status == 127 || strstr(r.err, "setpriv:")) {
                tu_result_free(&r);
                tu_rmdir(dir);
                free(dir);
                cr_skip("running as root and cannot run bwlab as nobody (setpriv): root may write any file");
            }
        } else {
            if (targets[i] == other) {
                cr_log_info("skipped: another user's file needs root to set up");
                continue;
            }
            r = tu_exec_without_opencl("compare", (const char *[]){ input, "--output", targets[i], NULL });
        }
        if (targets[i] == mine) {
            cr_expect_eq(r.status, 0, "own file: exit %d: %s", r.status, r.err);
            char *t = slurp_file(mine);
            cr_expect(t && strstr(t, "pattern") && strcmp(t, "mine\n"), "not replaced: %s", t ? t : "(nothing)");
            free(t);
        } else {
            cr_expect_eq(r.status, 1, "%s: exit %d: %s", targets[i], r.status, r.err);
            char want[9000];
            snprintf(want, sizeof want, "bwlab compare: error: cannot replace '%s': Permission denied", targets[i]);
            cr_expect(strstr(r.err, want), "stderr lacks '%s':\n%s", want, r.err);
            cr_expect(strstr(r.err, "choose another output file"), "%s", r.err);
            expect_file(targets[i], before[i]);
        }
        tu_result_free(&r);
    }
    /* no temp file left behind */
    char line[4300];
    snprintf(line, sizeof line, "ls -A '%s' | wc -l", dir);
    tu_result r = tu_run_cmd((const char *[]){ "sh", "-c", line, NULL }, NULL);
    cr_expect_eq(atoi(r.out), 3, "left behind: %s", r.out);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}

/* no control byte but the line end on a stream, and every line of
 * standard error one message of bwlab's ("bwlab CMD: ...") */
static void expect_clean(const char *what, const char *text, int all_messages)
{
    for (const char *p = text; *p; p++)
        if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f) {
            cr_expect(0, "%s: raw byte 0x%02x at %zu: %.300s", what, (unsigned char)*p, (size_t)(p - text), text);
            return;
        }
    for (const char *line = text; all_messages && *line;) {
        cr_expect(!strncmp(line, "bwlab ", 6), "%s: a line that is no message of bwlab's: %.200s", what, line);
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
}

/* A name holding ESC, BEL, CR and LF, wherever outside text reaches a
 * message: a file found in a scanned directory, a named input, --output,
 * BWLAB_KERNEL_DIR, BWLAB_CACHE_DIR (tune's table and notes). Each shows
 * escaped (\x1b, \x07, \x0d, \x0a), and a message stays one line. */
Test(cli_output, outside_text_never_reaches_the_terminal_raw, .timeout = 300)
{
    static const char evil[] = "e\033[2J\a\r\nvil";
    char *dir = tu_temp_dir();
    char sub[4300], bad[4400], missing[4400], out[4400], cache[4400], env_k[4500], env_c[4500];
    snprintf(sub, sizeof sub, "%s/scan", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    snprintf(bad, sizeof bad, "%s/%s.json", sub, evil);
    FILE *f = fopen(bad, "w");
    cr_assert_not_null(f);
    fputs("{ not json", f);
    fclose(f);
    snprintf(missing, sizeof missing, "%s/%s-missing.json", dir, evil);
    tu_result r = tu_exec((const char *[]){ "compare", sub, missing, NULL },
                          (const char *[]){ "OCL_ICD_VENDORS=/nonexistent", NULL });
    cr_expect_neq(r.status, 0);
    cr_expect(strstr(r.err, "e\\x1b[2J\\x07\\x0d\\x0avil"), "the name is not shown escaped: %s", r.err);
    expect_clean("compare's stderr", r.err, 1);
    tu_result_free(&r);

    snprintf(out, sizeof out, "%s/%s/r.json", dir, evil);
    const char *run_args[] = { "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.2",
                               "--no-roofline", "--format", "json", "--output", out, NULL };
    r = tu_exec(run_args, NULL);
    cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    expect_clean("run --output's stderr", r.err, 1);
    tu_result_free(&r);

    snprintf(env_k, sizeof env_k, "BWLAB_KERNEL_DIR=%s/%s", dir, evil);
    r = tu_exec((const char *[]){ "run", "--device", "cpu", "--pattern", "seq", "--size", "2M", "--budget", "0.2",
                                  "--no-roofline", NULL },
                (const char *[]){ env_k, NULL });
    cr_expect_neq(r.status, 0, "%s", r.err);
    expect_clean("BWLAB_KERNEL_DIR's stderr", r.err, 1);
    tu_result_free(&r);

    snprintf(cache, sizeof cache, "%s/%s-cache", dir, evil);
    snprintf(env_c, sizeof env_c, "BWLAB_CACHE_DIR=%s", cache);
    r = tu_exec((const char *[]){ "tune", "--device", "cpu", "--size", "1M", "--budget", "0.5", NULL },
                (const char *[]){ env_c, NULL });
    cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect(strstr(r.out, "e\\x1b[2J\\x07\\x0d\\x0avil-cache"), "the cache's path is not shown escaped: %s", r.out);
    expect_clean("tune's table", r.out, 0);
    expect_clean("tune's stderr", r.err, 1);
    tu_result_free(&r);
    tu_rmdir(dir);
    free(dir);
}
