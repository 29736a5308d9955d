/* bench_tune: the search of `bwlab tune`: stream kernel candidates built,
 * validated and timed round-robin in stages of a coordinate descent
 * within the budget, then the finalists until a winner (bench_tune.h). */
#include "bench_tune_priv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fill.h"
#include "bench_stats.h"
#include "bench_validate.h"
#include "bw_buf.h"
#include "bench_kernel.h"
#include "bw_file.h"
#include "bw_hook.h"
#include "ocl_buffer.h"
#include "ocl_program.h"

#define SOURCE_SEED UINT64_C(0x74756e65)
#define MIB ((uint64_t)1 << 20)
/* a candidate's validating launch covers at most this much of the buffer
 * (the winners are validated again over all of it) */
#define VALIDATE_BYTES (4 * MIB)
/* host memory: three buffers of this many 32-bit words, whatever the size */
#define HOST_WORDS ((size_t)4 << 20)
#define SCREEN_REPS 3
#define FINALISTS 3
/* the finals stop early once every finalist's median is this stable */
#define FINAL_RSE 0.005
#define FINAL_MIN_SAMPLES 10
/* the stages after the first take what they can expect to finish within
 * this share of the budget; the rest is for the finals */
#define STAGE_SHARE 0.8
#define MAX_LOCAL 1024
#define DEFAULT_LOCAL 256

static const int widths[] = { 1, 2, 4, 8, 16 };
static const int ks[] = { 1, 2, 4, 8, 16 };
/* the first stage's vector width: 16-byte loads, which most devices serve at full rate */
#define FIRST_WIDTH 4

const char *bench_tune_mode_name(bench_tune_mode m)
{
    return m == BENCH_TUNE_READ ? "read" : m == BENCH_TUNE_COPY ? "copy" : NULL;
}

const char *bench_tune_layout_name(bench_tune_layout l)
{
    static const char *const names[] = { "grid", "block", "contiguous" };
    return (unsigned)l < BENCH_TUNE_LAYOUTS ? names[l] : NULL;
}

int bench_tune_layout_parse(const char *name)
{
    for (int l = 0; l < BENCH_TUNE_LAYOUTS; l++)
        if (name && !strcmp(name, bench_tune_layout_name((bench_tune_layout)l)))
            return l;
    return -1;
}

static int pow2_in(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi && (v & (v - 1)) == 0;
}

int bench_tune_config_ok(const bench_tune_config *c)
{
    return pow2_in(c->vector_width, 1, 16) && pow2_in(c->elems_per_item, 1, 16) &&
           pow2_in(c->local_size, 1, MAX_LOCAL) && (unsigned)c->layout < BENCH_TUNE_LAYOUTS &&
           (c->elems_per_item > 1 || c->layout == BENCH_TUNE_BLOCK);
}

double bench_tune_fraction(const bench_tune_peak peaks[BENCH_TUNE_MODES], bench_tune_mode mode, double gbs)
{
    if ((unsigned)mode >= BENCH_TUNE_MODES || !peaks[mode].valid || !(peaks[mode].gbs > 0) || !isfinite(gbs))
        return NAN;
    return gbs / peaks[mode].gbs;
}

bw_code bench_tune_kernel_load(const char *dir, char **text, char **path, bw_error *err)
{
    *text = NULL;
    *path = NULL;
    return bench_kernel_source_load(dir, BENCH_TUNE_KERNEL_FILE, text, path, err);
}

/* the search's state */
typedef struct tuner {
    ocl_context *ctx;
    const char *source;
    const bench_tune_opts *o;
    bench_tune_result *res;
    size_t cap;          /* of res->cands and kern */
    ocl_kernel **kern;   /* per candidate, or NULL when its build failed */
    size_t *sample_cap;  /* per candidate */
    ocl_buffer *src, *dst, *out;
    uint32_t *gen, *ref, *got; /* HOST_WORDS each */
    int64_t locals[16];  /* work-group sizes to try, ascending */
    size_t nlocals;
    int64_t default_local;
    double t0;
} tuner;

static double elapsed(const tuner *t)
{
    return bench_now_s() - t->t0;
}

/* the stop flag was set (SIGINT, SIGTERM) */
static int stopped(const tuner *t)
{
    return t->o->stop && *t->o->stop;
}

static void fail(bench_tune_candidate *c, bench_tune_status st, const char *msg)
{
    c->status = st;
    free(c->failure);
    c->failure = strdup(msg ? msg : "?");
}

/* "uint4 x 4 per work-item, 256 per group, block layout", for messages */
static void describe(const bench_tune_candidate *c, char *buf, size_t n)
{
    char type[8];
    snprintf(type, sizeof type, c->config.vector_width == 1 ? "uint" : "uint%d", c->config.vector_width);
    snprintf(buf, n, "%s kernel (%s x %d per work-item, %lld per group, %s layout)", bench_tune_mode_name(c->mode),
             type, c->config.elems_per_item, (long long)c->config.local_size,
             bench_tune_layout_name(c->config.layout));
}

/* Adds a candidate unless the same kernel is already there (K = 1 makes
 * every layout the same kernel: it is kept as block). Returns 0, or -1 when
 * out of memory. */
static int add_candidate(tuner *t, bench_tune_mode mode, bench_tune_config cfg, int stage)
{
    if (cfg.elems_per_item == 1)
        cfg.layout = BENCH_TUNE_BLOCK;
    bench_tune_result *r = t->res;
    for (size_t i = 0; i < r->n; i++) {
        const bench_tune_candidate *c = &r->cands[i];
        if (c->mode == mode && !memcmp(&c->config, &cfg, sizeof cfg))
            return 0;
    }
    if (r->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        bench_tune_candidate *c = realloc(r->cands, cap * sizeof *c);
        if (!c)
            return -1;
        r->cands = c;
        ocl_kernel **k = realloc(t->kern, cap * sizeof *k);
        if (!k)
            return -1;
        t->kern = k;
        size_t *sc = realloc(t->sample_cap, cap * sizeof *sc);
        if (!sc)
            return -1;
        t->sample_cap = sc;
        t->cap = cap;
    }
    bench_tune_candidate *c = &r->cands[r->n];
    memset(c, 0, sizeof *c);
    c->mode = mode;
    c->config = cfg;
    c->stage = stage;
    c->event = bench_stats_of(NULL, 0);
    uint64_t vec_bytes = 4 * (uint64_t)cfg.vector_width;
    c->items = t->o->buffer_bytes / (vec_bytes * (uint64_t)cfg.elems_per_item);
    /* copy: every byte loaded and stored. read: the loads only; the one word
     * each work-item stores (1/(V*K) of what it loads) is overhead the
     * kernel's time carries, so that a shape is not credited for storing more */
    c->requested_bytes = (mode == BENCH_TUNE_COPY ? 2.0 : 1.0) * (double)t->o->buffer_bytes;
    t->kern[r->n] = NULL;
    t->sample_cap[r->n] = 0;
    r->n++;
    return 0;
}

/* the definitions stream.cl expects, then the file, for candidate i */
static void candidate_source(const tuner *t, size_t i, bw_buf *b)
{
    const bench_tune_candidate *c = &t->res->cands[i];
    static const char *const names[] = { "ST_KERNEL", "ST_COPY", "ST_V", "ST_K", "ST_L", "ST_LAYOUT" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        bw_buf_printf(b, "#undef %s\n", names[k]);
    bw_buf_printf(b,
                  "#define ST_KERNEL bw_stream_%zu\n#define ST_COPY %d\n#define ST_V %d\n#define ST_K %d\n"
                  "#define ST_L %lld\n#define ST_LAYOUT %d\n",
                  i, c->mode == BENCH_TUNE_COPY, c->config.vector_width, c->config.elems_per_item,
                  (long long)c->config.local_size, (int)c->config.layout);
    bw_buf_puts(b, t->source);
    bw_buf_putc(b, '\n');
}

static bw_code build(tuner *t, size_t first, size_t count, ocl_program **prog, bw_error *err)
{
    bw_buf b = BW_BUF_INIT;
    bw_buf_puts(&b, "/* bwlab tune: one kernel per candidate */\n");
    for (size_t i = first; i < first + count; i++)
        candidate_source(t, i, &b);
    bw_code rc = bw_buf_failed(&b) ? bw_error_set(err, BW_E_NOMEM, "out of memory")
                                   : ocl_program_build(t->ctx, bw_buf_str(&b), BENCH_TUNE_KERNEL_FILE, NULL, prog, err);
    bw_buf_free(&b);
    return rc;
}

/* the kernel of candidate i with its buffers set, checked against the
 * work-group size the built kernel allows */
static bw_code make_kernel(tuner *t, ocl_program *prog, size_t i, bw_error *err)
{
    const bench_tune_candidate *c = &t->res->cands[i];
    char name[48];
    snprintf(name, sizeof name, "bw_stream_%zu", i);
    ocl_kernel *k = NULL;
    size_t most = 0, multiple = 0;
    bw_code rc = ocl_kernel_create(prog, name, &k, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 0, t->src, err);
    if (rc == BW_OK)
        rc = ocl_kernel_arg_buffer(k, 1, c->mode == BENCH_TUNE_COPY ? t->dst : t->out, err);
    if (rc == BW_OK)
        rc = ocl_kernel_work_group_info(k, &most, &multiple, err);
    if (rc == BW_OK && (uint64_t)most < (uint64_t)c->config.local_size)
        rc = bw_error_set(err, BW_E_UNSUPPORTED, "the built kernel allows %zu work-items per group "
                          "(CL_KERNEL_WORK_GROUP_SIZE), fewer than %lld", most, (long long)c->config.local_size);
    if (rc != BW_OK) {
        ocl_kernel_free(k);
        return rc;
    }
    t->kern[i] = k;
    return BW_OK;
}

/* One program for the stage's candidates; should it fail, each alone, so
 * that one kernel the compiler rejects does not take the others down. */
static void build_stage(tuner *t, size_t first, size_t count)
{
    bw_error e = BW_ERROR_INIT;
    ocl_program *prog = NULL;
    if (build(t, first, count, &prog, &e) == BW_OK) {
        for (size_t i = first; i < first + count; i++) {
            if (make_kernel(t, prog, i, &e) != BW_OK)
                fail(&t->res->cands[i], BENCH_TUNE_FAILED, bw_error_text(&e));
            bw_error_clear(&e);
        }
        ocl_program_free(prog); /* the kernels keep it alive */
        return;
    }
    bw_error_clear(&e);
    for (size_t i = first; i < first + count; i++) {
        prog = NULL;
        if (build(t, i, 1, &prog, &e) != BW_OK || make_kernel(t, prog, i, &e) != BW_OK)
            fail(&t->res->cands[i], BENCH_TUNE_FAILED, bw_error_text(&e));
        ocl_program_free(prog);
        bw_error_clear(&e);
    }
}

/* the source words [word, word + n), as the device holds them */
static void source_words(uint32_t *buf, uint64_t word, size_t n)
{
    bench_fill_random_at((uint8_t *)buf, 4 * word, 4 * (uint64_t)n, SOURCE_SEED);
}

/* src: the source stream, on the device where it can (t->res->fill_note) */
static bw_code fill_source(tuner *t, bw_error *err)
{
    bench_fill_io io = { t->ctx, t->o->kernel_dir, (uint8_t *)t->gen, HOST_WORDS * sizeof *t->gen, t->o->stop };
    return bench_fill_src_device(&io, t->src, t->o->buffer_bytes, SOURCE_SEED, t->res->fill_note,
                                 sizeof t->res->fill_note, err);
}

/* the sentinel over bytes [0, bytes) of b, so that a store not made shows */
static bw_code fill_sentinel(tuner *t, ocl_buffer *b, uint64_t bytes, bw_error *err)
{
    bw_code rc = BW_OK;
    const uint64_t chunk = 4 * (uint64_t)HOST_WORDS;
    for (uint64_t off = 0; off < bytes && rc == BW_OK; off += chunk) {
        if (stopped(t))
            return BW_E_INTERRUPTED;
        uint64_t n = bytes - off < chunk ? bytes - off : chunk;
        bench_fill_sentinel_at((uint8_t *)t->got, off, n);
        rc = ocl_buffer_write(t->ctx, b, off, t->got, n, err);
    }
    return rc;
}

static bw_code check_copy(tuner *t, const bench_tune_candidate *c, uint64_t bytes, bw_error *err)
{
    char what[160];
    uint64_t wrong = 0, first = 0, got = 0, want = 0;
    bw_code rc = BW_OK;
    for (uint64_t w = 0; w < bytes / 4 && rc == BW_OK; w += HOST_WORDS) {
        if (stopped(t))
            return BW_E_INTERRUPTED;
        size_t n = bytes / 4 - w < HOST_WORDS ? (size_t)(bytes / 4 - w) : HOST_WORDS;
        rc = ocl_buffer_read(t->ctx, t->dst, 4 * w, t->got, 4 * (uint64_t)n, err);
        if (rc != BW_OK)
            break;
        source_words(t->gen, w, n);
        if (!memcmp(t->gen, t->got, 4 * n))
            continue;
        for (size_t k = 0; k < n; k++) {
            if (t->gen[k] == t->got[k])
                continue;
            if (!wrong++) {
                first = w + k;
                got = t->got[k];
                want = t->gen[k];
            }
        }
    }
    if (rc != BW_OK || !wrong)
        return rc;
    describe(c, what, sizeof what);
    return bw_error_set(err, BW_E_VALIDATION,
                        "%s: word %llu of dst is 0x%08llx, expected 0x%08llx (%llu of %llu words wrong)", what,
                        (unsigned long long)first, (unsigned long long)got, (unsigned long long)want,
                        (unsigned long long)wrong, (unsigned long long)(bytes / 4));
}

static uint32_t xor_vector(const uint32_t *v, int V)
{
    uint32_t x = 0;
    for (int k = 0; k < V; k++)
        x ^= v[k];
    return x;
}

/* The host's XOR of each work-item's words, for items [i0, i0 + C) of a
 * launch of G work-items (C and i0 whole groups), into t->ref. */
static void read_reference(tuner *t, const bench_tune_config *cfg, uint64_t G, uint64_t i0, size_t C)
{
    const int V = cfg->vector_width, K = cfg->elems_per_item;
    const size_t L = (size_t)cfg->local_size;
    memset(t->ref, 0, C * sizeof *t->ref);
    if (cfg->layout == BENCH_TUNE_GRID) {
        /* step j covers vectors i0 + j*G .. + C */
        for (int j = 0; j < K; j++) {
            source_words(t->gen, (i0 + (uint64_t)j * G) * (uint64_t)V, C * (size_t)V);
            for (size_t c = 0; c < C; c++)
                t->ref[c] ^= xor_vector(t->gen + c * (size_t)V, V);
        }
        return;
    }
    /* block and contiguous: the chunk's groups cover vectors i0*K .. + C*K */
    source_words(t->gen, i0 * (uint64_t)K * (uint64_t)V, C * (size_t)K * (size_t)V);
    for (size_t c = 0; c < C; c++) {
        for (int j = 0; j < K; j++) {
            size_t e = cfg->layout == BENCH_TUNE_CONTIGUOUS ? c * (size_t)K + (size_t)j
                                                            : c / L * L * (size_t)K + (size_t)j * L + c % L;
            t->ref[c] ^= xor_vector(t->gen + e * (size_t)V, V);
        }
    }
}

static bw_code check_read(tuner *t, const bench_tune_candidate *c, uint64_t G, bw_error *err)
{
    const bench_tune_config *cfg = &c->config;
    size_t L = (size_t)cfg->local_size;
    /* items per chunk: whole groups whose words fit the host buffer */
    size_t C = HOST_WORDS / ((size_t)cfg->vector_width * (size_t)cfg->elems_per_item) / L * L;
    uint64_t wrong = 0, first = 0, got = 0, want = 0;
    bw_code rc = BW_OK;
    for (uint64_t i0 = 0; i0 < G && rc == BW_OK; i0 += C) {
        if (stopped(t))
            return BW_E_INTERRUPTED;
        size_t n = G - i0 < C ? (size_t)(G - i0) : C;
        rc = ocl_buffer_read(t->ctx, t->out, 4 * i0, t->got, 4 * (uint64_t)n, err);
        if (rc != BW_OK)
            break;
        read_reference(t, cfg, G, i0, n);
        for (size_t k = 0; k < n; k++) {
            if (t->ref[k] == t->got[k])
                continue;
            if (!wrong++) {
                first = i0 + k;
                got = t->got[k];
                want = t->ref[k];
            }
        }
    }
    if (rc != BW_OK || !wrong)
        return rc;
    char what[160];
    describe(c, what, sizeof what);
    return bw_error_set(err, BW_E_VALIDATION,
                        "%s: work-item %llu stored 0x%08llx, expected 0x%08llx, the XOR of its words "
                        "(%llu of %llu work-items wrong)", what, (unsigned long long)first,
                        (unsigned long long)got, (unsigned long long)want, (unsigned long long)wrong,
                        (unsigned long long)G);
}

/* One launch over the first `bytes` of the buffer from sentinel-filled
 * output, every stored word checked on the host. */
static bw_code validate(tuner *t, size_t i, uint64_t bytes, bw_error *err)
{
    const bench_tune_candidate *c = &t->res->cands[i];
    uint64_t G = bytes / (4 * (uint64_t)c->config.vector_width * (uint64_t)c->config.elems_per_item);
    int copy = c->mode == BENCH_TUNE_COPY;
    ocl_timing tm;
    bw_code rc = fill_sentinel(t, copy ? t->dst : t->out, copy ? bytes : 4 * G, err);
    if (rc == BW_OK)
        rc = ocl_kernel_run(t->ctx, t->kern[i], G, (uint64_t)c->config.local_size, &tm, err);
    if (rc == BW_OK)
        rc = copy ? check_copy(t, c, bytes, err) : check_read(t, c, G, err);
    return rc;
}

static void format_us(char *buf, size_t n, double ns)
{
    double us = ns / 1000.0;
    snprintf(buf, n, us < 10 ? "%.2f µs" : us < 1000 ? "%.1f µs" : "%.0f µs", us);
}

/* one timed launch over the whole buffer; a sample when its event time is one */
static void time_once(tuner *t, size_t i)
{
    bench_tune_candidate *c = &t->res->cands[i];
    ocl_timing tm;
    bw_error e = BW_ERROR_INIT;
    if (ocl_kernel_run(t->ctx, t->kern[i], c->items, (uint64_t)c->config.local_size, &tm, &e) != BW_OK) {
        fail(c, BENCH_TUNE_FAILED, bw_error_text(&e));
        bw_error_clear(&e);
        return;
    }
    if (!(tm.event_ns > 0) || !isfinite(tm.event_ns))
        return; /* shorter than the timer resolves: no duration to divide by */
    size_t n = c->event.count;
    if (n == t->sample_cap[i]) {
        size_t cap = n ? 2 * n : 16;
        double *s = realloc(c->samples, cap * sizeof *s);
        if (!s) {
            fail(c, BENCH_TUNE_FAILED, "out of memory recording timings");
            return;
        }
        c->samples = s;
        t->sample_cap[i] = cap;
    }
    c->samples[n] = tm.event_ns;
    c->event = bench_stats_of(c->samples, n + 1);
    c->gbs = c->requested_bytes / c->event.median;
}

/* validates each new candidate, checks one launch against the timing
 * floor, then times them round-robin; returns at once when the stop flag
 * is set (the candidate in hand neither failed nor validated) */
static void run_stage(tuner *t, size_t first, size_t count)
{
    bench_tune_result *r = t->res;
    build_stage(t, first, count);
    uint64_t vbytes = t->o->buffer_bytes < VALIDATE_BYTES ? t->o->buffer_bytes : VALIDATE_BYTES;
    for (size_t i = first; i < first + count; i++) {
        bench_tune_candidate *c = &r->cands[i];
        if (c->status != BENCH_TUNE_OK)
            continue;
        if (stopped(t))
            return;
        bw_error e = BW_ERROR_INIT;
        ocl_timing tm = { 0, 0 };
        bw_code rc = validate(t, i, vbytes, &e);
        if (rc == BW_E_INTERRUPTED) {
            bw_error_clear(&e);
            return;
        }
        c->validated = rc == BW_OK;
        if (rc == BW_OK)
            rc = ocl_kernel_run(t->ctx, t->kern[i], c->items, (uint64_t)c->config.local_size, &tm, &e);
        if (rc != BW_OK) {
            fail(c, BENCH_TUNE_FAILED, bw_error_text(&e));
        } else if (!(tm.event_ns >= t->o->min_launch_ns)) {
            char took[32], fl[32], msg[200];
            format_us(took, sizeof took, tm.event_ns > 0 ? tm.event_ns : 0);
            format_us(fl, sizeof fl, t->o->min_launch_ns);
            snprintf(msg, sizeof msg, "not measurable: a launch takes %s (measured), below the %s timing floor; "
                     "use a larger --size", took, fl);
            fail(c, BENCH_TUNE_NOT_MEASURABLE, msg);
        }
        bw_error_clear(&e);
    }
    for (int rep = 0; rep < SCREEN_REPS; rep++)
        for (size_t k = 0; k < count; k++) {
            /* a different candidate leads each round */
            size_t i = first + (k + (size_t)rep) % count;
            if (stopped(t))
                return;
            if (r->cands[i].status == BENCH_TUNE_OK)
                time_once(t, i);
        }
}

/* the measured candidate of `mode` with the highest bandwidth, or -1 */
static long best_of(const bench_tune_result *r, bench_tune_mode mode)
{
    long best = -1;
    for (size_t i = 0; i < r->n; i++) {
        const bench_tune_candidate *c = &r->cands[i];
        if (c->mode != mode || c->status != BENCH_TUNE_OK || c->event.count == 0)
            continue;
        if (best < 0 || c->gbs > r->cands[best].gbs)
            best = (long)i;
    }
    return best;
}

/* Candidate `opt` of stage `stage` around cfg, or 0 when the stage has no
 * such option. Stage 1 takes K coarsely (1, 4, 16) in every layout, stage
 * 4 fills in the rest in the best layout; stage 3 tries work-groups nearest
 * the current one first, so that a stage cut short by the budget keeps
 * the likeliest. */
static int stage_option(const tuner *t, int stage, size_t opt, bench_tune_config cfg, bench_tune_config *out)
{
    static const int coarse[] = { 1, 4, 16 };
    if (stage == 1) {
        if (opt >= 3 * BENCH_TUNE_LAYOUTS)
            return 0;
        cfg.elems_per_item = coarse[opt / BENCH_TUNE_LAYOUTS];
        cfg.layout = (bench_tune_layout)(opt % BENCH_TUNE_LAYOUTS);
    } else if (stage == 2 || stage == 4) {
        if (opt >= 5)
            return 0;
        if (stage == 2)
            cfg.vector_width = widths[opt];
        else
            cfg.elems_per_item = ks[opt];
    } else {
        /* work-groups by distance from the current one: 1 smaller, 1 larger, 2 smaller, ... */
        size_t cur = 0;
        while (cur + 1 < t->nlocals && t->locals[cur] < cfg.local_size)
            cur++;
        long i = (long)cur + (opt % 2 ? 1 : -1) * (long)(opt / 2 + 1);
        if (opt >= 2 * t->nlocals)
            return 0;
        if (i < 0 || i >= (long)t->nlocals)
            return -1; /* off one end: try the next option */
        cfg.local_size = t->locals[i];
    }
    *out = cfg;
    return 1;
}

/* Adds stage `stage`'s candidates around each family's best so far, the
 * families interleaved; returns the number added, or -1 when out of
 * memory. */
static long plan_stage(tuner *t, int stage)
{
    size_t before = t->res->n;
    bench_tune_config base[BENCH_TUNE_MODES];
    int have[BENCH_TUNE_MODES];
    for (int m = 0; m < BENCH_TUNE_MODES; m++) {
        bench_tune_config first = { FIRST_WIDTH, 1, t->default_local, BENCH_TUNE_BLOCK };
        long b = stage > 1 ? best_of(t->res, (bench_tune_mode)m) : -1;
        /* nothing of this family measured to build on: it sits the stage out */
        have[m] = stage == 1 || b >= 0;
        base[m] = b >= 0 ? t->res->cands[b].config : first;
    }
    for (size_t opt = 0;; opt++) {
        int any = 0;
        for (int m = 0; m < BENCH_TUNE_MODES; m++) {
            bench_tune_config c;
            int st = have[m] ? stage_option(t, stage, opt, base[m], &c) : 0;
            any |= st != 0;
            if (st == 1 && add_candidate(t, (bench_tune_mode)m, c, stage) != 0)
                return -1;
        }
        if (!any)
            break;
    }
    return (long)(t->res->n - before);
}

/* the FINALISTS best of each family, timed round-robin until the budget
 * ends or every one is stable; at least one round */
static void finals(tuner *t)
{
    bench_tune_result *r = t->res;
    size_t fin[BENCH_TUNE_MODES * FINALISTS], nf = 0;
    for (int m = 0; m < BENCH_TUNE_MODES; m++) {
        for (int k = 0; k < FINALISTS; k++) {
            long best = -1;
            for (size_t i = 0; i < r->n; i++) {
                const bench_tune_candidate *c = &r->cands[i];
                if (c->mode != (bench_tune_mode)m || c->status != BENCH_TUNE_OK || c->event.count == 0 || c->finalist)
                    continue;
                if (best < 0 || c->gbs > r->cands[best].gbs)
                    best = (long)i;
            }
            if (best < 0)
                break;
            r->cands[best].finalist = 1;
            fin[nf++] = (size_t)best;
        }
    }
    while (nf) {
        int stable = 1;
        for (size_t k = 0; k < nf; k++) {
            const bench_tune_candidate *c = &r->cands[fin[k]];
            if (c->status == BENCH_TUNE_OK && (c->event.count < FINAL_MIN_SAMPLES || c->event.rse > FINAL_RSE))
                stable = 0;
        }
        if (bw_hook_fault("hold", "tune", NULL)) /* test builds only: the finals last until the budget or a signal */
            stable = 0;
        if (r->final_rounds > 0 && (stable || elapsed(t) >= t->o->budget_s))
            break;
        for (size_t k = 0; k < nf; k++) {
            size_t i = fin[(k + r->final_rounds) % nf];
            if (stopped(t))
                return;
            if (r->cands[i].status == BENCH_TUNE_OK)
                time_once(t, i);
        }
        r->final_rounds++;
    }
}

/* Each family's winner, validated once more on a launch over the whole
 * buffer; one that fails there is failed and the next best is taken. */
static void choose(tuner *t)
{
    bench_tune_result *r = t->res;
    for (int m = 0; m < BENCH_TUNE_MODES; m++) {
        long b;
        r->best[m] = -1;
        memset(&r->peak[m], 0, sizeof r->peak[m]);
        while ((b = best_of(r, (bench_tune_mode)m)) >= 0) {
            bw_error e = BW_ERROR_INIT;
            bw_code rc = t->o->buffer_bytes <= VALIDATE_BYTES ? BW_OK : validate(t, (size_t)b, t->o->buffer_bytes, &e);
            if (rc == BW_E_INTERRUPTED) {
                bw_error_clear(&e);
                return;
            }
            if (rc == BW_OK) {
                r->best[m] = b;
                r->peak[m].valid = 1;
                r->peak[m].config = r->cands[b].config;
                r->peak[m].gbs = r->cands[b].gbs;
                break;
            }
            r->cands[b].validated = 0;
            fail(&r->cands[b], BENCH_TUNE_FAILED, bw_error_text(&e));
            bw_error_clear(&e);
        }
    }
}

/* work-group sizes: powers of two from 32 to 1024 within the device's
 * limit (only the largest below it on a device that allows fewer than 32) */
static void choose_locals(tuner *t)
{
    uint64_t most = ocl_context_device(t->ctx)->max_work_group_size;
    t->nlocals = 0;
    for (int64_t l = 32; l <= MAX_LOCAL && (uint64_t)l <= most; l *= 2)
        t->locals[t->nlocals++] = l;
    if (t->nlocals == 0) {
        int64_t l = 1;
        while ((uint64_t)(2 * l) <= most && 2 * l < 32)
            l *= 2;
        t->locals[t->nlocals++] = l;
    }
    t->default_local = t->locals[0];
    for (size_t i = 0; i < t->nlocals; i++)
        if (t->locals[i] <= DEFAULT_LOCAL)
            t->default_local = t->locals[i];
}

static bw_code setup(tuner *t, bw_error *err)
{
    uint64_t bytes = t->o->buffer_bytes;
    t->gen = malloc(HOST_WORDS * sizeof *t->gen);
    t->ref = malloc(HOST_WORDS * sizeof *t->ref);
    t->got = malloc(HOST_WORDS * sizeof *t->got);
    t->res = calloc(1, sizeof *t->res);
    if (!t->gen || !t->ref || !t->got || !t->res)
        return bw_error_set(err, BW_E_NOMEM, "out of host memory for the tuning buffers");
    t->res->buffer_bytes = bytes;
    /* out: one word per work-item, at most one per source vector */
    bw_code rc = ocl_buffer_create(t->ctx, bytes, "src", &t->src, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(t->ctx, bytes, "dst", &t->dst, err);
    if (rc == BW_OK)
        rc = ocl_buffer_create(t->ctx, bytes, "out", &t->out, err);
    if (rc == BW_OK)
        rc = fill_source(t, err);
    /* writing dst makes a lazily allocating driver commit it now (each
     * validation fills what it checks) */
    const uint32_t sentinel = BENCH_WRITE_SENTINEL;
    bench_fill_io io = { t->ctx, t->o->kernel_dir, (uint8_t *)t->got, HOST_WORDS * sizeof *t->got, t->o->stop };
    if (rc == BW_OK)
        rc = bench_fill_pattern(&io, t->dst, bytes, &sentinel, sizeof sentinel, err);
    return rc;
}

static void teardown(tuner *t)
{
    for (size_t i = 0; t->res && i < t->res->n; i++)
        ocl_kernel_free(t->kern[i]);
    free(t->kern);
    free(t->sample_cap);
    ocl_buffer_free(t->src);
    ocl_buffer_free(t->dst);
    ocl_buffer_free(t->out);
    free(t->gen);
    free(t->ref);
    free(t->got);
}

/* the error when no family has a winner: the first failure, or the floor */
static bw_code no_winner(const bench_tune_result *r, bw_error *err)
{
    const bench_tune_candidate *short_one = NULL;
    for (size_t i = 0; i < r->n; i++) {
        const bench_tune_candidate *c = &r->cands[i];
        if (c->status == BENCH_TUNE_FAILED)
            return bw_error_set(err, BW_E_VALIDATION, "no kernel shape could be measured; the first failure: %s",
                                c->failure);
        if (c->status == BENCH_TUNE_NOT_MEASURABLE && !short_one)
            short_one = c;
    }
    if (short_one)
        return bw_error_set(err, BW_E_RANGE, "no kernel shape could be timed: %s", short_one->failure);
    return bw_error_set(err, BW_E_VALIDATION, "no kernel shape could be measured");
}

bw_code bench_tune_run(ocl_context *ctx, const char *source, const bench_tune_opts *o,
                       bench_tune_result **out, bw_error *err)
{
    *out = NULL;
    if (o->buffer_bytes < MIB || o->buffer_bytes % MIB != 0)
        return bw_error_set(err, BW_E_USAGE, "a tuning buffer of %llu bytes is not a positive multiple of 1 MiB",
                            (unsigned long long)o->buffer_bytes);
    tuner t;
    memset(&t, 0, sizeof t);
    t.ctx = ctx;
    t.source = source;
    t.o = o;
    t.t0 = bench_now_s();
    choose_locals(&t);
    bw_hook_phase("tuning"); /* test builds only: a signal as the search begins */
    bw_code rc = setup(&t, err);
    for (int stage = 1; rc == BW_OK && stage <= 4 && !stopped(&t); stage++) {
        size_t first = t.res->n;
        long added = plan_stage(&t, stage);
        if (added < 0) {
            rc = bw_error_set(err, BW_E_NOMEM, "out of memory");
            break;
        }
        if (stage > 1 && added > 0) {
            /* as many as the cost per candidate so far lets finish in time,
             * in the stage's order; the first stage always runs whole */
            double per = elapsed(&t) / (double)(first ? first : 1);
            double room = (STAGE_SHARE * o->budget_s - elapsed(&t)) / per;
            if (room < (double)added) {
                t.res->budget_ended = 1;
                added = room < 1 ? 0 : (long)room;
                t.res->n = first + (size_t)added;
            }
            if (added == 0)
                break;
        }
        if (added > 0)
            run_stage(&t, first, (size_t)added);
        t.res->stages = stage;
    }
    if (rc == BW_OK && !stopped(&t)) {
        bw_hook_phase("tune-finals"); /* test builds only: a signal as the finals begin */
        finals(&t);
    }
    if (rc == BW_OK && !stopped(&t))
        choose(&t);
    if (t.res && stopped(&t)) {
        /* what was measured stands; no winner is chosen from a search cut
         * short. A step that failed once the stop was asked for (a build
         * or a launch cut short under a signal) failed because of it. */
        t.res->interrupted = 1;
        for (int m = 0; m < BENCH_TUNE_MODES; m++) {
            t.res->best[m] = -1;
            memset(&t.res->peak[m], 0, sizeof t.res->peak[m]);
        }
        rc = bw_error_set(err, BW_E_INTERRUPTED, "the search was interrupted after %.1f s", elapsed(&t));
    } else if (rc == BW_OK && t.res->best[BENCH_TUNE_READ] < 0 && t.res->best[BENCH_TUNE_COPY] < 0) {
        rc = no_winner(t.res, err);
    }
    teardown(&t);
    if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
        bench_tune_result_free(t.res);
        return rc;
    }
    t.res->total_s = elapsed(&t);
    *out = t.res;
    return rc;
}

void bench_tune_result_free(bench_tune_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->cands[i].failure);
        free(r->cands[i].samples);
    }
    free(r->cands);
    free(r);
}
