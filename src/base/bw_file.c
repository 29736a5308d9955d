/* bw_file: whole-file reads with a size cap, the search for run-time
 * resources, and writes that replace a regular file atomically or write
 * through a device, FIFO or link (bw_file.h). */
#include "bw_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bw_hook.h"
#include "bwlab_config.h"

#define BW_FILE_MAX ((size_t)64 << 20)

/* reads f to its end into a NUL-terminated heap string; closes f */
static bw_code read_stream(FILE *f, const char *path, char **text, size_t *len, bw_error *err)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    bw_code rc = BW_OK;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            size_t ncap = cap ? cap * 2 : 8192;
            if (ncap > BW_FILE_MAX + 8192) {
                rc = bw_error_set(err, BW_E_IO, "'%s' is larger than 64 MiB", path);
                goto fail;
            }
            char *p = realloc(buf, ncap);
            if (!p) {
                rc = bw_error_set(err, BW_E_NOMEM, "out of memory reading '%s'", path);
                goto fail;
            }
            buf = p;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        rc = bw_error_set(err, BW_E_IO, "cannot read '%s': %s", path, strerror(errno));
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    if (len)
        *len = n;
    return BW_OK;
fail:
    fclose(f);
    free(buf);
    return rc;
}

bw_code bw_file_read(const char *path, char **text, size_t *len, bw_error *err)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return bw_error_set(err, BW_E_IO, "cannot open '%s': %s", path, strerror(errno));
    return read_stream(f, path, text, len, err);
}

const char *bw_file_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISLNK(m))
        return "a symbolic link";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "not a regular file";
}

bw_code bw_file_read_regular(const char *path, char **text, size_t *len, bw_error *err)
{
    *text = NULL;
    /* O_NONBLOCK: opening a FIFO with no writer must not wait for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return bw_error_set(err, BW_E_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return bw_error_set(err, BW_E_IO, "cannot open '%s': %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return bw_error_set(err, BW_E_IO, "'%s' is %s, not a regular file (only regular files are read)", path,
                            bw_file_kind(st.st_mode));
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return bw_error_set(err, BW_E_IO, "cannot open '%s': %s", path, strerror(e));
    }
    return read_stream(f, path, text, len, err);
}

/* write(2) until done; 0 or -1 with errno */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static bw_code write_through(const char *path, const char *data, size_t len, bw_error *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(errno));
    int bad = write_all(fd, data, len) != 0;
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(e));
    return BW_OK;
}

static bw_code write_atomic_unmasked(const char *path, const struct stat *old, const char *data, size_t len,
                                     bw_error *err)
{
    /* the rename would replace a file whatever its own permissions say:
     * the caller must be one who could write it, or a read-only file
     * would be replaced behind its owner's back. Opening it
     * for writing, without truncating, asks the kernel exactly that. */
    if (old) {
        int wfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (wfd < 0) {
            int e = errno;
            if (e == EACCES || e == EPERM)
                return bw_error_set(err, BW_E_IO,
                                    "cannot replace '%s': %s (you may not write to this file: make it writable, "
                                    "or choose another output file)",
                                    path, strerror(e));
            return bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(e));
        }
        close(wfd);
    }
    /* the temp file beside the target: rename stays within one file system */
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t tl = dlen + strlen(base) + 16;
    char *tmp = malloc(tl);
    if (!tmp)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    snprintf(tmp, tl, "%.*s.%s.XXXXXX", (int)dlen, path, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        bw_code rc = bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    bw_hook_phase("replacing"); /* test builds only: a signal while the temp file exists */
    mode_t mode;
    if (old) {
        mode = old->st_mode & 07777;
        /* as root, keep the file its owner's; elsewhere this fails harmlessly */
        if (fchown(fd, old->st_uid, old->st_gid) != 0)
            (void)0;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    int bad = fchmod(fd, mode) != 0;
    bad = bad || write_all(fd, data, len) != 0 || fsync(fd) != 0;
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(tmp, path) != 0) {
        bad = 1;
        e = errno;
    }
    bw_code rc = BW_OK;
    if (bad) {
        unlink(tmp);
        rc = bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(e));
    }
    free(tmp);
    return rc;
}

/* The signals that stop a process wait while the temp file exists: one
 * that came during the write acts once it is renamed or removed, so no
 * hidden .NAME.XXXXXX is ever left behind (a caught one only sets its flag
 * later; a default one ends the process with the file whole). */
static bw_code write_atomic(const char *path, const struct stat *old, const char *data, size_t len, bw_error *err)
{
    sigset_t stop, saved;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    sigaddset(&stop, SIGQUIT);
    int masked = sigprocmask(SIG_BLOCK, &stop, &saved) == 0;
    bw_code rc = write_atomic_unmasked(path, old, data, len, err);
    if (masked)
        sigprocmask(SIG_SETMASK, &saved, NULL);
    return rc;
}

bw_code bw_file_write(const char *path, const char *data, size_t len, bw_error *err)
{
    if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6))
        return write_through(path, data, len, err);
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return bw_error_set(err, BW_E_IO, "cannot write '%s': %s", path, strerror(errno));
        return write_atomic(path, NULL, data, len, err);
    }
    if (S_ISLNK(st.st_mode)) {
        char *target = realpath(path, NULL);
        if (!target) /* a dangling link: creating through it is what it asks */
            return write_through(path, data, len, err);
        bw_code rc;
        struct stat ts;
        if (stat(target, &ts) == 0 && S_ISREG(ts.st_mode))
            rc = write_atomic(target, &ts, data, len, err);
        else
            rc = write_through(target, data, len, err);
        free(target);
        return rc;
    }
    if (S_ISREG(st.st_mode))
        return write_atomic(path, &st, data, len, err);
    if (S_ISDIR(st.st_mode))
        return bw_error_set(err, BW_E_IO, "cannot write '%s': it is a directory", path);
    return write_through(path, data, len, err);
}

/* The canonical name of a path that does not exist (yet): dangling links
 * followed, the directory resolved by realpath; NULL when the directory
 * does not exist either (then nothing can be written there) */
static char *new_file_name(const char *path)
{
    char *p = strdup(path);
    for (int hops = 0; p && hops < 40; hops++) {
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlink(p, target, sizeof target - 1);
            if (n < 0)
                break;
            target[n] = '\0';
            const char *slash = strrchr(p, '/');
            char *next;
            if (target[0] == '/' || !slash) {
                next = strdup(target);
            } else {
                size_t dl = (size_t)(slash - p) + 1, tl = strlen(target);
                next = malloc(dl + tl + 1);
                if (next) {
                    memcpy(next, p, dl);
                    memcpy(next + dl, target, tl + 1);
                }
            }
            free(p);
            p = next;
            continue;
        }
        /* not a link: resolve its directory */
        const char *slash = strrchr(p, '/');
        char *dir = slash ? strndup(p, slash == p ? 1 : (size_t)(slash - p)) : strdup(".");
        const char *base = slash ? slash + 1 : p;
        char *rdir = dir ? realpath(dir, NULL) : NULL;
        char *out = NULL;
        if (rdir) {
            size_t n = strlen(rdir) + strlen(base) + 2;
            out = malloc(n);
            if (out)
                snprintf(out, n, "%s/%s", rdir, base);
        }
        free(rdir);
        free(dir);
        free(p);
        return out;
    }
    free(p);
    return NULL;
}

int bw_file_same_output(const char *a, const char *b)
{
    if (!a || !b || !*a || !*b || !strcmp(a, "-") || !strcmp(b, "-"))
        return 0;
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb)
        return 0;
    char *na = new_file_name(a), *nb = new_file_name(b);
    int same = na && nb && !strcmp(na, nb);
    free(na);
    free(nb);
    return same;
}

static char *join(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s%s%s", a, b, *c ? "/" : "", c);
    return s;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bw_code bw_file_find_resource(const char *subdir, const char *name, const char *dir,
                              const char *flag, const char *env_var, char **path,
                              bw_error *err)
{
    *path = NULL;
    const char *env = env_var ? getenv(env_var) : NULL;
    const char *only = NULL, *only_what = NULL;
    if (dir) {
        only = dir;
        only_what = flag;
    } else if (env && *env) {
        only = env;
        only_what = env_var;
    }
    if (only) {
        if (!is_dir(only))
            return bw_error_set(err, BW_E_IO, "%s: '%s' is not a directory", only_what, only);
        char *p = join(only, name, "");
        if (!p)
            return bw_error_set(err, BW_E_NOMEM, "out of memory");
        if (is_file(p)) {
            *path = p;
            return BW_OK;
        }
        struct stat st;
        int exists = stat(p, &st) == 0;
        int is_a_dir = exists && S_ISDIR(st.st_mode);
        free(p);
        if (exists)
            return bw_error_set(err, BW_E_IO, "%s: '%s/%s' is %s, not a regular file", only_what, only, name,
                                is_a_dir ? "a directory" : "a special file");
        return bw_error_set(err, BW_E_IO, "%s: '%s' has no file '%s'", only_what, only, name);
    }
    const char *roots[] = { BWLAB_SOURCE_ROOT, NULL };
    char *installed = join(BWLAB_INSTALL_DATADIR, subdir, "");
    for (int i = 0; i < 2; i++) {
        char *p = i == 0 ? join(roots[0], subdir, name) : (installed ? join(installed, name, "") : NULL);
        if (p && is_file(p)) {
            free(installed);
            *path = p;
            return BW_OK;
        }
        free(p);
    }
    bw_code rc = bw_error_set(err, BW_E_IO,
                              "cannot find '%s' in %s/%s or %s (set %s or use %s DIR)", name,
                              BWLAB_SOURCE_ROOT, subdir, installed ? installed : "?",
                              env_var ? env_var : "the search path", flag ? flag : "a flag");
    free(installed);
    return rc;
}
