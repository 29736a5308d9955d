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
};

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
    j->fd = fd;
    j->path = path;
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
    close(j->fd);
    if (remove)
        unlink(j->path);
    free(j->path);
    free(j);
}
