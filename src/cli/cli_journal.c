/* cli_journal: OUT.partial, the journal of `bwlab run --output OUT`
 * (cli_journal.h): made new, locked while its run lives, moved aside and
 * never deleted when another run finds it, removed only by its own run. */
#include "cli_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_journal {
    int fd;
    char *path;
    dev_t dev; /* the file this run made: what is at path may be another's by now */
    ino_t ino;
};

/* The PID of the live run holding a write lock on the journal at `path`,
 * or 0 (none there, no lock, or a file system without locks). */
static long journal_holder(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    long pid = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK ? (long)fl.l_pid : 0;
    close(fd);
    return pid;
}

/* Moves whatever is at `path` (an earlier run's journal: maybe the only
 * copy of what it measured) to the first free name PATH.1, PATH.2, ...;
 * *kept gets that name (caller frees), or NULL when nothing was there.
 * link(2) claims the new name atomically; where it cannot (a directory, a
 * file system without hard links) a rename to a name still free. */
static bw_code move_aside(const char *path, char **kept, bw_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return BW_OK;
        return bw_error_set(err, BW_E_IO, "cannot examine the earlier journal '%s': %s", path, strerror(errno));
    }
    size_t n = strlen(path) + 24;
    char *to = malloc(n);
    if (!to)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    for (unsigned k = 1; k < 100000; k++) {
        snprintf(to, n, "%s.%u", path, k);
        if (link(path, to) == 0) {
            if (unlink(path) != 0) {
                bw_code rc = bw_error_set(err, BW_E_IO, "cannot move the earlier journal '%s' aside to '%s': %s",
                                          path, to, strerror(errno));
                free(to);
                return rc;
            }
            *kept = to;
            return BW_OK;
        }
        if (errno == EEXIST)
            continue;
        struct stat ts;
        if (lstat(to, &ts) == 0)
            continue;
        if (errno == ENOENT && rename(path, to) == 0) {
            *kept = to;
            return BW_OK;
        }
        bw_code rc = bw_error_set(err, BW_E_IO, "cannot move the earlier journal '%s' aside to '%s': %s", path,
                                  to, strerror(errno));
        free(to);
        return rc;
    }
    free(to);
    return bw_error_set(err, BW_E_IO, "cannot move the earlier journal '%s' aside: '%s.1' to '%s.99999' all exist",
                        path, path, path);
}

bw_code cli_journal_open(const char *output, cli_journal **out, char **kept, bw_error *err)
{
    *out = NULL;
    *kept = NULL;
    if (!output || !strcmp(output, "-") || !strncmp(output, "/dev/", 5) || !strncmp(output, "/proc/", 6))
        return BW_OK;
    struct stat st;
    mode_t mode = 0666; /* less the umask */
    /* stat, not lstat: a link to a regular file gets a journal beside the link */
    if (stat(output, &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return BW_OK;
        mode = st.st_mode & 0666; /* no more readable than the results it will become */
    }
    cli_journal *j = calloc(1, sizeof *j);
    size_t n = strlen(output) + sizeof ".partial";
    char *path = malloc(n);
    if (!j || !path) {
        free(j);
        free(path);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    snprintf(path, n, "%s.partial", output);
    /* a live run's journal is its only copy of what it measures: the two
     * runs would also race for OUT */
    long holder = journal_holder(path);
    if (holder > 0) {
        bw_code rc = bw_error_set(err, BW_E_USAGE,
                                  "'%s' is the journal of a run still measuring into '%s' (PID %ld): wait for "
                                  "it to end, or give this run another --output",
                                  path, output, holder);
        free(j);
        free(path);
        return rc;
    }
    /* an earlier journal (or anything planted at its name: a link, a hard
     * link to another file) is moved aside, never deleted, and a new file
     * made with O_EXCL */
    bw_code mrc = move_aside(path, kept, err);
    if (mrc != BW_OK) {
        free(j);
        free(path);
        return mrc;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) {
        bw_code rc = bw_error_set(err, BW_E_IO, "cannot keep the journal '%s': %s", path, strerror(errno));
        free(j);
        free(path);
        return rc;
    }
    /* held until the journal is closed (a POSIX lock is the process's:
     * it ends with it, however it ends); where locks are not supported the
     * journal is kept without one */
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    (void)fcntl(fd, F_SETLK, &fl);
    struct stat own;
    if (fstat(fd, &own) != 0)
        memset(&own, 0, sizeof own);
    j->fd = fd;
    j->path = path;
    j->dev = own.st_dev;
    j->ino = own.st_ino;
    *out = j;
    return BW_OK;
}

bw_code cli_journal_append(cli_journal *j, const bw_buf *b, bw_error *err)
{
    if (bw_buf_failed(b))
        return bw_error_set(err, BW_E_NOMEM, "out of memory formatting the journal");
    const char *p = bw_buf_str(b);
    size_t left = b->len;
    while (left > 0) {
        ssize_t n = write(j->fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return bw_error_set(err, BW_E_IO, "cannot write the journal '%s': %s", j->path, strerror(errno));
        p += n;
        left -= (size_t)n;
    }
    return BW_OK;
}

const char *cli_journal_path(const cli_journal *j)
{
    return j->path;
}

void cli_journal_close(cli_journal *j, int remove)
{
    if (!j)
        return;
    /* only the file this run made: a run that found it unlocked (a file
     * system without locks) may have moved it aside and put its own there */
    struct stat st;
    if (remove && lstat(j->path, &st) == 0 && st.st_dev == j->dev && st.st_ino == j->ino)
        unlink(j->path);
    close(j->fd);
    free(j->path);
    free(j);
}

int cli_journal_start(const cli_command *cmd, const char *output, cli_journal **j)
{
    bw_error err = BW_ERROR_INIT;
    char *kept = NULL;
    bw_code rc = cli_journal_open(output, j, &kept, &err);
    if (kept)
        cli_note(cmd, "an earlier run's journal was at '%s.partial': it is kept as '%s' "
                      "('bwlab compare %s' reads it)", output, kept, kept);
    free(kept);
    int st = 0;
    if (rc == BW_E_USAGE) {
        st = cli_fail(cmd, &err);
    } else if (rc != BW_OK) {
        cli_warn(cmd, "%s; no journal is kept", bw_error_text(&err));
        cli_journal_close(*j, 1);
        *j = NULL;
    }
    bw_error_clear(&err);
    return st;
}

static void journal_drop(const cli_command *cmd, cli_journal **j, const bw_error *err)
{
    cli_warn(cmd, "%s; no journal is kept", bw_error_text(err));
    cli_journal_close(*j, 1);
    *j = NULL;
}

/* b, written as rc says (BW_OK: its lines are ready), appended to *j;
 * either failure drops the journal. b and err are freed. */
static void append_or_drop(const cli_command *cmd, cli_journal **j, bw_code rc, bw_buf *b, bw_error *err)
{
    if (rc == BW_OK)
        rc = cli_journal_append(*j, b, err);
    if (rc != BW_OK)
        journal_drop(cmd, j, err);
    bw_error_clear(err);
    bw_buf_free(b);
}

void cli_journal_head(const cli_command *cmd, cli_journal **j, const bench_run_meta *m, const bench_run_doc *runs, size_t n)
{
    if (!*j)
        return;
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = runs ? bench_run_journal_header(m, runs, n, &b, &err)
                      : bw_error_set(&err, BW_E_NOMEM, "out of memory");
    append_or_drop(cmd, j, rc, &b, &err);
}

void cli_journal_result(const cli_command *cmd, cli_journal **j, const bench_run_doc *run, size_t i)
{
    if (!*j)
        return;
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    append_or_drop(cmd, j, bench_run_journal_result(run, i, &b, &err), &b, &err);
}
