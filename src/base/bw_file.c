#include "bw_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
        free(p);
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
