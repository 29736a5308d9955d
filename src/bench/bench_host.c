/* bench_host: the host CPU's data caches read from sysfs: the last level
 * sizes a run on a CPU device whose driver reports none, and probe sets
 * every level beside what it measured (bench_host.h). */
#include "bench_host.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_DIR "/devices/system/cpu/cpu0/cache"

/* the first line of a small sysfs file, without its newline; 0 if unreadable */
static int read_line(const char *dir, const char *name, char *buf, size_t n)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    if (ok)
        buf[strcspn(buf, "\r\n")] = '\0';
    return ok;
}

/* "32768K", "32M", "1G" or plain bytes; 0 for anything else */
static uint64_t parse_size(const char *s)
{
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || s[0] == '-')
        return 0;
    uint64_t unit = 1;
    if (*end == 'K')
        unit = 1024;
    else if (*end == 'M')
        unit = 1024 * 1024;
    else if (*end == 'G')
        unit = 1024 * 1024 * 1024;
    if (unit > 1)
        end++;
    if (*end != '\0' || v > UINT64_MAX / unit)
        return 0;
    return (uint64_t)v * unit;
}

/* One cache directory of CPU 0: what both readers below need of it. */
typedef struct host_entry {
    bench_host_cache c;
    char name[256]; /* "index3" */
} host_entry;

/* The one walk of <root>/devices/system/cpu/cpu0/cache: every index*
 * directory whose type is Data or Unified (instruction caches hold no
 * data) with a level of 1 to 9 and a readable, non-zero size, at most max,
 * in readdir's (arbitrary) order. base receives the directory walked. */
static size_t walk_caches(const char *sysfs_root, host_entry *out, size_t max, char *base, size_t nbase)
{
    if (!sysfs_root || snprintf(base, nbase, "%s" CACHE_DIR, sysfs_root) >= (int)nbase)
        return 0;
    DIR *d = opendir(base);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < max) {
        if (strncmp(e->d_name, "index", 5) != 0 || strlen(e->d_name) >= sizeof out[n].name)
            continue;
        char dir[4096 + 256], line[64];
        snprintf(dir, sizeof dir, "%s/%s", base, e->d_name);
        if (!read_line(dir, "type", line, sizeof line) || (strcmp(line, "Data") && strcmp(line, "Unified")))
            continue;
        if (!read_line(dir, "level", line, sizeof line))
            continue;
        char *end = NULL;
        long level = strtol(line, &end, 10);
        if (end == line || *end != '\0' || level < 1 || level > 9)
            continue;
        uint64_t size = read_line(dir, "size", line, sizeof line) ? parse_size(line) : 0;
        if (size == 0)
            continue;
        out[n].c.level = (int)level;
        out[n].c.size_bytes = size;
        out[n].c.line_bytes = read_line(dir, "coherency_line_size", line, sizeof line) ? parse_size(line) : 0;
        snprintf(out[n].name, sizeof out[n].name, "%s", e->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* more cache directories than any CPU has */
#define HOST_MAX_CACHES 32

int bench_host_llc(const char *sysfs_root, uint64_t *bytes, char *source, size_t n)
{
    host_entry e[HOST_MAX_CACHES];
    char base[4096];
    size_t k = walk_caches(sysfs_root, e, HOST_MAX_CACHES, base, sizeof base);
    if (k == 0)
        return 0;
    /* the highest level wins, then the larger size */
    size_t best = 0;
    for (size_t i = 1; i < k; i++)
        if (e[i].c.level > e[best].c.level ||
            (e[i].c.level == e[best].c.level && e[i].c.size_bytes > e[best].c.size_bytes))
            best = i;
    *bytes = e[best].c.size_bytes;
    if (source && n)
        snprintf(source, n, "host sysfs (%s/%s)", base, e[best].name);
    return 1;
}

size_t bench_host_caches(const char *sysfs_root, bench_host_cache *out, size_t max)
{
    host_entry e[HOST_MAX_CACHES];
    char base[4096];
    size_t n = walk_caches(sysfs_root, e, max < HOST_MAX_CACHES ? max : HOST_MAX_CACHES, base, sizeof base);
    for (size_t i = 0; i < n; i++)
        out[i] = e[i].c;
    /* by level */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && out[j - 1].level > out[j].level; j--) {
            bench_host_cache t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}
