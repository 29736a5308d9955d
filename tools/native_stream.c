/* Native reference for bwlab's seq pattern (not a test: timings vary run to
 * run; tools/bench.sh sets its figures beside bwlab's in one run).
 *
 * Two arrays of uint32_t of --size bytes each, first touched in parallel by
 * the threads that later stream them (schedule(static) everywhere), filled
 * with pseudo-random data; then, for each mode, warm-up and --reps timed
 * repetitions of a plain OpenMP loop on the host CPU:
 *   read  x ^= a[i]   (an XOR reduction; every repetition's result is
 *                      compared with a serial XOR of the generator's values)
 *   copy  b[i] = a[i] (b is checked against the generator after the reps)
 *   strided  b[i] = a[S * i] beside b[i] = a[i] in each repetition (--stride
 *            S; a holds S x --size bytes), paired, as bwlab's paired rounds
 *            read stride:s=S copy against seq: the line adds ratio_median,
 *            ratio_min and ratio_max of the per-repetition ratios (time at
 *            stride 1 / time at stride S, both moving the same requested
 *            bytes). A memory-only ratio that moves from run to run is the
 *            memory system's drift: tools/bench.sh prints it beside the
 *            spread of bwlab's rows.
 * Counting as bwlab's effective_gbs (docs/results.md): read GB/s = bytes
 * read / time, copy GB/s = (bytes read + bytes written) / time; GB = 10^9
 * bytes. Built with -fno-tree-loop-distribute-patterns so that GCC keeps
 * the copy a loop of ordinary loads and stores (the kind an OpenCL kernel
 * issues) instead of a call to memcpy, whose large-size path uses
 * non-temporal stores.
 *
 * Output, one line per mode (key=value, for scripts and the test):
 *   native_stream mode=read bytes=1048576 elems=262144 threads=2 reps=5
 *     median_gbs=31.20 min_gbs=28.10 max_gbs=32.00 median_s=3.36e-05 check=ok
 * Exit status: 0 all checked, 1 a check failed, 2 bad arguments, 3 out of
 * memory. */
#include <errno.h>
#include <inttypes.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the i-th pseudo-random element: a stateless mix (splitmix64's finaliser),
 * so that any thread, and the serial check, can compute any element */
static uint32_t gen(uint64_t i)
{
    uint64_t z = i + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (uint32_t)(z ^ (z >> 31));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* BYTES with an optional binary suffix K, M, G (as bwlab's --size) */
static int parse_size(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || s[0] == '-')
        return -1;
    uint64_t mul = 1;
    if (*end == 'K' || *end == 'k')
        mul = UINT64_C(1) << 10;
    else if (*end == 'M' || *end == 'm')
        mul = UINT64_C(1) << 20;
    else if (*end == 'G' || *end == 'g')
        mul = UINT64_C(1) << 30;
    if (mul != 1)
        end++;
    if (*end != '\0' || v > UINT64_MAX / mul)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

static int parse_count(const char *s, long min, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < min || v > 1000000)
        return -1;
    *out = (int)v;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: native_stream [--size BYTES] [--reps N] [--warmup N] [--mode read|copy|both|strided]\n"
               "                     [--stride S]\n"
               "  --size BYTES   bytes per array, a multiple of 4 (suffix K, M, G: binary; default 256M)\n"
               "  --reps N       timed repetitions per mode (default 20)\n"
               "  --warmup N     untimed repetitions first (default 2)\n"
               "  --mode MODE    read, copy, both (default) or strided (copy at stride S paired with stride 1)\n"
               "  --stride S     the strided mode's stride: 2, 4, 8, 16, 32 or 64 (default 2)\n"
               "Threads: OpenMP's (OMP_NUM_THREADS; default one per CPU).\n");
}

/* extra: more key=value fields for the line, or "" */
static void report(const char *mode, uint64_t bytes, uint64_t moved, int reps, double *t, int ok, const char *extra)
{
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    /* median of the sorted times; the fastest time is the largest GB/s */
    double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    printf("native_stream mode=%s bytes=%" PRIu64 " elems=%" PRIu64 " threads=%d reps=%d median_gbs=%.4f "
           "min_gbs=%.4f max_gbs=%.4f median_s=%.6e check=%s%s\n",
           mode, bytes, bytes / 4, omp_get_max_threads(), reps, (double)moved / med * 1e-9,
           (double)moved / t[reps - 1] * 1e-9, (double)moved / t[0] * 1e-9, med, ok ? "ok" : "FAILED", extra);
}

/* One copy pass b[i] = a[S * i], timed, with S a constant of its loop, as
 * bwlab builds each stride pattern with its stride a constant: the
 * compiler serves each stride as it best can. */
#define COPY_AT(S)                                                                                                     \
    do {                                                                                                               \
        _Pragma("omp parallel for schedule(static)") for (int64_t i = 0; i < n; i++) b[i] = a[(S) * i];               \
    } while (0)

static double copy_pass(const uint32_t *a, uint32_t *b, int64_t n, int s)
{
    double t0 = omp_get_wtime();
    switch (s) {
    case 1: COPY_AT(1); break;
    case 2: COPY_AT(2); break;
    case 4: COPY_AT(4); break;
    case 8: COPY_AT(8); break;
    case 16: COPY_AT(16); break;
    case 32: COPY_AT(32); break;
    default: COPY_AT(64); break;
    }
    return omp_get_wtime() - t0;
}

/* the strided mode: each repetition a pass at stride 1, then one at S;
 * t holds 2 x reps; returns 1 when the check fails */
static int strided(const uint32_t *a, uint32_t *b, int64_t n, int stride, int reps, int warmup, double *t,
                   uint64_t bytes)
{
    double *ratio = t + reps;
    for (int r = -warmup; r < reps; r++) {
        double t1 = copy_pass(a, b, n, 1), ts = copy_pass(a, b, n, stride);
        if (r >= 0) {
            t[r] = ts;
            ratio[r] = t1 / ts;
        }
    }
    int64_t wrong = 0;
#pragma omp parallel for schedule(static) reduction(+ : wrong)
    for (int64_t i = 0; i < n; i++)
        wrong += b[i] != gen((uint64_t)(i * stride));
    qsort(ratio, (size_t)reps, sizeof *ratio, cmp_double);
    double med = reps % 2 ? ratio[reps / 2] : 0.5 * (ratio[reps / 2 - 1] + ratio[reps / 2]);
    char extra[160];
    snprintf(extra, sizeof extra, " stride=%d ratio_median=%.4f ratio_min=%.4f ratio_max=%.4f", stride, med, ratio[0],
             ratio[reps - 1]);
    report("strided", bytes, 2 * bytes, reps, t, wrong == 0, extra);
    if (wrong)
        fprintf(stderr, "native_stream: strided: %" PRId64 " of %" PRId64 " elements wrong\n", wrong, n);
    return wrong != 0;
}

int main(int argc, char **argv)
{
    uint64_t bytes = UINT64_C(256) << 20;
    int reps = 20, warmup = 2, do_read = 1, do_copy = 1, stride = 0, given_stride = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        }
        int bad = !v;
        if (!bad && !strcmp(o, "--size"))
            bad = parse_size(v, &bytes) != 0 || bytes == 0 || bytes % 4 != 0 || bytes > SIZE_MAX / 2;
        else if (!bad && !strcmp(o, "--reps"))
            bad = parse_count(v, 1, &reps) != 0;
        else if (!bad && !strcmp(o, "--warmup"))
            bad = parse_count(v, 0, &warmup) != 0;
        else if (!bad && !strcmp(o, "--mode")) {
            do_read = !strcmp(v, "read") || !strcmp(v, "both");
            do_copy = !strcmp(v, "copy") || !strcmp(v, "both");
            stride = !strcmp(v, "strided");
            bad = !do_read && !do_copy && !stride;
        } else if (!bad && !strcmp(o, "--stride"))
            bad = parse_count(v, 2, &given_stride) != 0 || given_stride > 64 ||
                  (given_stride & (given_stride - 1)) != 0;
        else
            bad = 1;
        if (bad) {
            fprintf(stderr, "native_stream: bad option or value: %s %s\n", o, v ? v : "(missing)");
            usage(stderr);
            return 2;
        }
        i++;
    }

    if (given_stride && !stride) {
        fprintf(stderr, "native_stream: --stride %d needs --mode strided\n", given_stride);
        usage(stderr);
        return 2;
    }
    if (stride)
        stride = given_stride ? given_stride : 2;
    if (stride > 0 && bytes > SIZE_MAX / (uint64_t)stride) {
        fprintf(stderr, "native_stream: --size x --stride is too large\n");
        return 2;
    }
    const int64_t n = (int64_t)(bytes / 4), span = stride > 0 ? stride : 1;
    uint32_t *a = malloc((size_t)(bytes * (uint64_t)span)), *b = do_copy || stride ? malloc((size_t)bytes) : NULL;
    double *t = malloc((size_t)reps * 2 * sizeof *t);
    if (!a || ((do_copy || stride) && !b) || !t) {
        fprintf(stderr, "native_stream: cannot allocate %" PRId64 " x %" PRIu64 " bytes\n", span + 1, bytes);
        free(a);
        free(b);
        free(t);
        return 3;
    }
    /* first touch in parallel, same static schedule as the timed loops; b
     * starts different from a, so the check sees whether the copy wrote */
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        for (int64_t k = 0; k < span; k++)
            a[i * span + k] = gen((uint64_t)(i * span + k));
        if (b)
            b[i] = ~a[i * span];
    }
    int failed = 0;

    if (do_read) {
        uint32_t want = 0;
        for (int64_t i = 0; i < n; i++)
            want ^= gen((uint64_t)i);
        int ok = 1;
        for (int r = -warmup; r < reps; r++) {
            uint32_t x = 0;
            double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static) reduction(^ : x)
            for (int64_t i = 0; i < n; i++)
                x ^= a[i];
            double dt = omp_get_wtime() - t0;
            if (r >= 0)
                t[r] = dt;
            ok &= x == want;
        }
        report("read", bytes, bytes, reps, t, ok, "");
        failed |= !ok;
    }

    if (do_copy) {
        for (int r = -warmup; r < reps; r++) {
            double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
            for (int64_t i = 0; i < n; i++)
                b[i] = a[i];
            double dt = omp_get_wtime() - t0;
            if (r >= 0)
                t[r] = dt;
        }
        int64_t wrong = 0;
#pragma omp parallel for schedule(static) reduction(+ : wrong)
        for (int64_t i = 0; i < n; i++)
            wrong += b[i] != gen((uint64_t)i);
        report("copy", bytes, 2 * bytes, reps, t, wrong == 0, "");
        if (wrong)
            fprintf(stderr, "native_stream: copy: %" PRId64 " of %" PRId64 " elements wrong\n", wrong, n);
        failed |= wrong != 0;
    }
    if (stride > 0)
        failed |= strided(a, b, n, stride, reps, warmup, t, bytes);
    free(a);
    free(b);
    free(t);
    return failed ? 1 : 0;
}
