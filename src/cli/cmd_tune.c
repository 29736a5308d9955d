/* bwlab tune: find the kernel shape that streams fastest on each device
 * (the device's own bandwidth limit), keep it in the tuning cache, and
 * report it. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_runner.h"
#include "bench_tune.h"
#include "bench_tune_cache.h"
#include "bw_format.h"
#include "bw_parse.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_format.h"
#include "cli_limits.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_tune.h"

#define MIB ((uint64_t)1 << 20)
#define DEFAULT_BUDGET_S 6.0

enum { OPT_DEVICE = 256, OPT_RETUNE, OPT_FORMAT, OPT_OUTPUT, OPT_BUDGET, OPT_SIZE };

static const struct option long_opts[] = {
    { "device", required_argument, NULL, OPT_DEVICE }, { "retune", no_argument, NULL, OPT_RETUNE },
    { "format", required_argument, NULL, OPT_FORMAT }, { "output", required_argument, NULL, OPT_OUTPUT },
    { "budget", required_argument, NULL, OPT_BUDGET }, { "size", required_argument, NULL, OPT_SIZE },
    { 0 },
};

/* Everything the command owns, freed in one place. */
typedef struct tune_state {
    const char *device_spec, *output;
    int retune, format_given;
    cli_format format;
    double budget_s;
    uint64_t size; /* --size, 0 for auto */
    char *cache_path, *source, *kernel_path;
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;
    report_tune_device *devs;
    bench_device_list provs; /* the devices' provenance, which devs point into */
    bench_tune_entry *entries;
    bench_tune_result **results;
    char **failures, **notes;
} tune_state;

static void state_free(tune_state *s)
{
    for (size_t k = 0; k < s->ndev; k++) {
        if (s->results)
            bench_tune_result_free(s->results[k]);
        if (s->failures)
            free(s->failures[k]);
        if (s->notes)
            free(s->notes[k]);
    }
    free(s->results);
    free(s->failures);
    free(s->notes);
    free(s->entries);
    free(s->devs);
    bench_device_list_free(&s->provs);
    free(s->dev_idx);
    free(s->cache_path);
    free(s->source);
    free(s->kernel_path);
    ocl_platforms_free(s->plats);
    model_profiles_free(s->profiles);
}

static int parse_args(const cli_command *self, int argc, char **argv, tune_state *s)
{
    const unsigned allowed = (1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON);
    bw_error err = BW_ERROR_INIT;
    int c, st = 0;
    uint64_t u;
    optind = 0;
    opterr = 0;
    while (!st && (c = getopt_long(argc, argv, ":", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_DEVICE: s->device_spec = optarg; break;
        case OPT_RETUNE: s->retune = 1; break;
        case OPT_FORMAT:
            st = cli_format_option(self, optarg, allowed, &s->format);
            s->format_given = 1;
            break;
        case OPT_OUTPUT: s->output = optarg; break;
        case OPT_BUDGET:
            if (bw_parse_double(optarg, "--budget", &s->budget_s, &err) != BW_OK)
                st = cli_usage_error(self, "%s", bw_error_text(&err));
            else if (!(s->budget_s > 0) || s->budget_s > 3600)
                st = cli_usage_error(self, "--budget: '%s' seconds is out of range (more than 0, at most 3600)",
                                     optarg);
            break;
        case OPT_SIZE:
            if (!strcmp(optarg, "auto"))
                s->size = 0;
            else if (bw_parse_bytes(optarg, "--size", &u, &err) != BW_OK)
                st = cli_usage_error(self, "%s (or 'auto')", bw_error_text(&err));
            else if (u < MIB || u % MIB != 0)
                st = cli_usage_error(self, "--size: '%s' is not a whole number of MiB (at least 1M): the "
                                           "kernel shapes tried divide the buffer into 1 MiB blocks", optarg);
            else
                s->size = u;
            break;
        default: return cli_option_error(self, c, argv);
        }
    }
    bw_error_clear(&err);
    if (st)
        return st;
    if (optind < argc)
        return cli_usage_error(self, "unexpected argument '%s'", argv[optind]);
    cli_format_from_output(s->output, s->format_given, allowed, &s->format);
    return 0;
}

/* The buffer size: --size, or the working set `bwlab run` would plan for
 * the device (4 x its last-level cache, within its limits), held so that
 * src, dst and out (three buffers of it) fit the run's memory budget, in
 * whole MiB. */
static bw_code buffer_bytes(const tune_state *s, const ocl_device_info *d, uint64_t *out, bw_error *err)
{
    uint64_t t = 0, most = 0;
    bw_code rc = cli_buffer_plan(d, s->size, 3, &t, &most, err);
    if (rc != BW_OK)
        return rc;
    if (s->size && s->size > most) {
        char b[32];
        bw_format_bytes(b, sizeof b, (double)(most * 3));
        return bw_error_set(err, BW_E_TOOBIG,
                            "--size %llu: tuning needs three buffers of that size (src, dst and the read "
                            "results), more than the memory budget of %s (3/4 of global memory); use --size "
                            "%lluM or less",
                            (unsigned long long)s->size, b, (unsigned long long)(most / MIB));
    }
    t = (t < most ? t : most) / MIB * MIB;
    if (t < MIB)
        return bw_error_set(err, BW_E_TOOBIG, "the device's memory allows no 1 MiB tuning buffers");
    *out = t;
    return BW_OK;
}


/* measures device k and stores its winners in the cache */
static bw_code tune_device(const cli_command *self, tune_state *s, size_t k, bw_error *err)
{
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_tune_entry *e = &s->entries[k];
    bench_tune_opts o;
    ocl_context *ctx = NULL;
    memset(&o, 0, sizeof o);
    o.budget_s = s->budget_s;
    bench_settings settings = bench_settings_default();
    o.min_launch_ns = bench_launch_floor_ns(&settings, d->timer_resolution_ns);
    bw_code rc = buffer_bytes(s, d, &o.buffer_bytes, err);
    if (rc == BW_OK && !s->source)
        rc = bench_tune_kernel_load(NULL, &s->source, &s->kernel_path, err);
    if (rc == BW_OK)
        rc = ocl_context_create(s->plats, s->dev_idx[k], &ctx, err);
    if (rc == BW_OK)
        rc = bench_tune_run(ctx, s->source, &o, &s->results[k], err);
    ocl_context_free(ctx);
    if (rc != BW_OK)
        return rc;
    const bench_tune_result *r = s->results[k];
    memset(e, 0, sizeof *e);
    for (int m = 0; m < BENCH_TUNE_MODES; m++)
        e->peak[m] = r->peak[m];
    e->buffer_bytes = r->buffer_bytes;
    cli_iso_date(e->date, sizeof e->date);
    s->devs[k].entry = e;
    s->devs[k].result = r;
    /* the measurement stands even when the cache cannot keep it */
    bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
    char *aside = NULL;
    bw_error we = BW_ERROR_INIT;
    char note[512];
    if (bench_tune_cache_store(s->cache_path, &key, e, &aside, &we) != BW_OK) {
        snprintf(note, sizeof note, "not stored: %s", bw_error_text(&we));
        fprintf(stderr, "bwlab %s: error: %s\n", self->name, bw_error_text(&we));
        rc = bw_error_set(err, we.code, "%s", bw_error_text(&we));
    } else if (aside) {
        snprintf(note, sizeof note, "stored in %s; the malformed file that was there is now %s", s->cache_path, aside);
        fprintf(stderr, "bwlab %s: warning: the tuning cache '%s' was malformed: kept as '%s', a new one written\n",
                self->name, s->cache_path, aside);
    } else {
        snprintf(note, sizeof note, "stored in %s", s->cache_path);
    }
    s->notes[k] = strdup(note);
    s->devs[k].cache_note = s->notes[k];
    free(aside);
    bw_error_clear(&we);
    /* a cache that cannot be written is reported, yet the results are written */
    return rc == BW_OK ? BW_OK : BW_E_IO;
}

/* the cached entry of device k, unless --retune; a malformed file is
 * reported and then treated as a miss */
static int from_cache(const cli_command *self, tune_state *s, size_t k)
{
    if (s->retune)
        return 0;
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
    bw_error err = BW_ERROR_INIT;
    int found = 0;
    if (bench_tune_cache_lookup(s->cache_path, &key, &s->entries[k], &found, &err) != BW_OK)
        fprintf(stderr, "bwlab %s: warning: %s; tuning again (the file will be kept as '%s.malformed')\n", self->name,
                bw_error_text(&err), s->cache_path);
    bw_error_clear(&err);
    if (found)
        s->devs[k].entry = &s->entries[k];
    return found;
}

int cmd_tune(int argc, char **argv)
{
    const cli_command *self = cli_find("tune");
    tune_state s;
    memset(&s, 0, sizeof s);
    s.budget_s = DEFAULT_BUDGET_S;
    int st = parse_args(self, argc, argv, &s);
    bw_error err = BW_ERROR_INIT;
    int any_failed = 0, io_failed = 0;
    if (st)
        goto done;
    if (model_profiles_load_default(&s.profiles, &err) != BW_OK || bench_tune_cache_path(&s.cache_path, &err) != BW_OK ||
        ocl_discover(s.profiles, &s.plats, &err) != BW_OK ||
        ocl_select(s.plats, s.device_spec, &s.dev_idx, &s.ndev, &err) != BW_OK) {
        st = cli_fail(self, &err);
        goto done;
    }
    s.devs = calloc(s.ndev, sizeof *s.devs);
    s.entries = calloc(s.ndev, sizeof *s.entries);
    s.results = calloc(s.ndev, sizeof *s.results);
    s.failures = calloc(s.ndev, sizeof *s.failures);
    s.notes = calloc(s.ndev, sizeof *s.notes);
    if (!s.devs || !s.entries || !s.results || !s.failures || !s.notes) {
        st = cli_nomem(self);
        goto done;
    }
    if (bench_device_list_make(s.plats, s.dev_idx, s.ndev, &s.provs, &err) != BW_OK) {
        st = cli_nomem(self);
        goto done;
    }
    for (size_t k = 0; k < s.ndev; k++) {
        const ocl_device_info *d = ocl_device_at(s.plats, s.dev_idx[k]);
        s.devs[k].device = &s.provs.devices[k];
        s.devs[k].is_default = s.provs.devices[k].is_default;
        s.devs[k].size_given = s.size != 0;
        if (from_cache(self, &s, k))
            continue;
        bw_code rc = tune_device(self, &s, k, &err);
        if (rc == BW_E_IO && s.devs[k].result) {
            io_failed = 1; /* measured, but not cached: already reported */
        } else if (rc != BW_OK) {
            bw_error_prefix(&err, "on device %zu (%s): ", d->index, d->name);
            /* input no device can take fails the command, as in bwlab run */
            if (s.ndev == 1 && bw_code_exit_status(rc) == 2) {
                st = cli_fail(self, &err);
                goto done;
            }
            cli_fail(self, &err);
            s.failures[k] = strdup(bw_error_text(&err));
            s.devs[k].failure = s.failures[k] ? s.failures[k] : "out of memory";
            any_failed = 1;
        }
        bw_error_clear(&err);
    }
    char date[32];
    cli_iso_date(date, sizeof date);
    /* main passed argv + 1: argv[-1] is the program name */
    report_tune_meta m = { date, argc + 1, argv - 1, s.cache_path, s.budget_s, s.kernel_path };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    if (s.format == CLI_FORMAT_JSON)
        rc = report_tune_json(&m, s.devs, s.ndev, &b, &err);
    else
        report_tune_table(&m, s.devs, s.ndev, &b);
    if (rc == BW_OK)
        rc = cli_write_output(s.output, &b, &err);
    bw_buf_free(&b);
    if (rc != BW_OK)
        st = cli_fail(self, &err);
    else if (any_failed)
        st = bw_code_exit_status(BW_E_VALIDATION);
    else if (io_failed)
        st = bw_code_exit_status(BW_E_IO);
done:
    bw_error_clear(&err);
    state_free(&s);
    return st;
}
