#include "bw_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bwlab_config.h"

#define BW_FILE_MAX ((size_t)64 << 20)

bw_code bw_file_read(const char *path, char **text, size_t *len, bw_error *err)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return bw_error_set(err, BW_E_IO, "cannot open '%s': %s", path, strerror(errno));
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

static bw_code write_atomic(const char *path, const struct stat *old, const char *data, size_t len,
                            bw_error *err)
{
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
