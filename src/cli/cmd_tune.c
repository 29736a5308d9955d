/* bwlab tune: find the kernel shape that streams fastest on each device
 * (the device's own bandwidth limit), keep it in the tuning cache, and
 * report it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_run.h"
#include "bench_tune.h"
#include "bw_format.h"
#include "bw_parse.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_each.h"
#include "cli_format.h"
#include "cli_inferred.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_signal.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_tune.h"
#include "results_json.h"

#define MIB ((uint64_t)1 << 20)
#define DEFAULT_BUDGET_S 6.0

/* Everything the command owns, freed in one place. */
typedef struct tune_state {
    int retune;
    double budget_s;
    uint64_t size; /* --size, 0 for auto */
    char *cache_path, *source, *kernel_path;
    cli_each each; /* --device, --format, --output; the devices, their provenance (which devs
                    * point into), failures and cache notes */
    bench_tune_doc_device *devs; /* per device: these three arrays are each's (cli_each_alloc) */
    bench_tune_entry *entries;
    bench_tune_result **results;
    int io_failed; /* a device measured, but not cached: reported, exit BW_E_IO's status */
} tune_state;

static void state_free(tune_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_tune_result_free(s->results[k]);
    free(s->cache_path);
    free(s->source);
    free(s->kernel_path);
    cli_each_free(&s->each);
}

static const cli_size_rule tune_size_rule = { 1, "the kernel shapes tried divide the buffer into 1 MiB blocks" };

const cli_option cmd_tune_options[] = {
    CLI_EACH_OPT_DEVICE(tune_state),
    { .name = "retune", .help = "measure again even when the cache has an entry for the device",
      .set = cli_set_flag, .offset = offsetof(tune_state, retune) },
    CLI_OPT_BUDGET(tune_state, budget_s, 0,
                   "seconds for each device's search, building and validating included\n"
                   "(default 6); later search stages are skipped when it runs short"),
    CLI_OPT_SIZE(tune_state, size, 0, &tune_size_rule,
                 "each buffer (src, dst, read results), whole MiB (default auto: the\n"
                 "working set 'bwlab run' plans, 4 x the last-level cache, within a\n"
                 "third of the memory budget)"),
    CLI_EACH_OPT_FORMAT_OUTPUT(tune_state, CLI_OPT_NEWLINE, "table|json", CLI_FORMATS_TABLE_JSON,
                               "table (default) or json; --output FILE.json picks it too"),
    CLI_OPTION_END,
};

/* The buffer size: --size, or the working set `bwlab run` would plan for
 * the device (4 x its last-level cache, within its limits), held so that
 * src, dst and out (three buffers of it) fit the run's memory budget, in
 * whole MiB. */
static bw_code buffer_bytes(const tune_state *s, const ocl_device_info *d, uint64_t *out, bw_error *err)
{
    uint64_t t = 0, most = 0;
    bw_code rc = bench_buffer_plan(d, s->size, 3, &t, &most, err);
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
    const ocl_device_info *d = cli_each_device(&s->each, k);
    bench_tune_entry *e = &s->entries[k];
    bench_tune_opts o;
    ocl_context *ctx = NULL;
    memset(&o, 0, sizeof o);
    o.budget_s = s->budget_s;
    bench_settings settings = bench_settings_default();
    o.min_launch_ns = bench_launch_floor_ns(&settings, d->timer_resolution_ns);
    o.stop = &cli_signal_caught;
    bw_code rc = buffer_bytes(s, d, &o.buffer_bytes, err);
    if (rc == BW_OK && !s->source)
        rc = bench_tune_kernel_load(NULL, &s->source, &s->kernel_path, err);
    if (rc == BW_OK)
        rc = ocl_context_create(s->each.plats, s->each.dev_idx[k], &ctx, err);
    if (rc == BW_OK)
        rc = bench_tune_run(ctx, s->source, &o, &s->results[k], err);
    ocl_context_free(ctx);
    if (rc != BW_OK && rc != BW_E_INTERRUPTED)
        return rc;
    const bench_tune_result *r = s->results[k];
    if (r->fill_note[0])
        cli_note(self, "device %zu: %s", d->index, r->fill_note);
    memset(e, 0, sizeof *e);
    for (int m = 0; m < BENCH_TUNE_MODES; m++)
        e->peak[m] = r->peak[m];
    e->buffer_bytes = r->buffer_bytes;
    cli_iso_date(e->date, sizeof e->date);
    s->devs[k].entry = e;
    s->devs[k].result = r;
    if (rc == BW_E_INTERRUPTED) {
        /* a search cut short chose no winner: the cache keeps what it had */
        s->devs[k].cache_note = cli_each_note(&s->each, k, "not stored: the search was interrupted");
        return rc;
    }
    /* the measurement stands even when the cache cannot keep it */
    bench_tune_key key = bench_tune_key_of(d, BWLAB_VERSION);
    char *aside = NULL;
    bw_error we = BW_ERROR_INIT;
    char note[512];
    if (bench_tune_cache_store(s->cache_path, &key, e, &aside, &we) != BW_OK) {
        snprintf(note, sizeof note, "not stored: %s", bw_error_text(&we));
        cli_error_line(self, "%s", bw_error_text(&we));
        rc = bw_error_set(err, we.code, "%s", bw_error_text(&we));
    } else if (aside) {
        snprintf(note, sizeof note, "stored in %s; the malformed file that was there is now %s", s->cache_path, aside);
        cli_warn(self, "the tuning cache '%s' was malformed: kept as '%s', a new one written", s->cache_path, aside);
    } else {
        snprintf(note, sizeof note, "stored in %s", s->cache_path);
    }
    s->devs[k].cache_note = cli_each_note(&s->each, k, note);
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
    bench_tune_key key = bench_tune_key_of(cli_each_device(&s->each, k), BWLAB_VERSION);
    bw_error err = BW_ERROR_INIT;
    int found = 0;
    if (bench_tune_cache_lookup(s->cache_path, &key, &s->entries[k], &found, &err) != BW_OK) {
        /* only a malformed file is moved aside: say what will happen */
        if (err.code == BW_E_FORMAT)
            cli_warn(self, "%s; tuning again (the file will be kept as '%s.malformed')", bw_error_text(&err), s->cache_path);
        else
            cli_warn(self, "%s; tuning again", bw_error_text(&err));
    }
    bw_error_clear(&err);
    if (found)
        s->devs[k].entry = &s->entries[k];
    return found;
}

static int open_cache(const cli_command *self, void *state)
{
    tune_state *s = state;
    return cli_each_cache(self, &s->each, bench_tune_cache_path, &s->cache_path, "the tuning cache");
}

static int alloc_devices(void *state)
{
    tune_state *s = state;
    s->devs = cli_each_alloc(&s->each, sizeof *s->devs);
    s->entries = cli_each_alloc(&s->each, sizeof *s->entries);
    s->results = cli_each_alloc(&s->each, sizeof *s->results);
    return s->devs && s->entries && s->results ? 0 : -1;
}

/* device k's record; a cached device needs no search */
static int begin_device(const cli_command *self, void *state, size_t k)
{
    tune_state *s = state;
    s->devs[k].device = &s->each.provs.devices[k];
    const char *nominal_name = NULL;
    s->devs[k].nominal_gbs = cli_each_nominal(&s->each, k, &nominal_name);
    s->devs[k].probe_memory_gbs =
        cli_inferred_memory_gbs(self, ocl_device_at(s->each.plats, s->each.dev_idx[k]), s->devs[k].probe_memory_date,
                                sizeof s->devs[k].probe_memory_date);
    s->devs[k].is_default = s->each.provs.devices[k].is_default;
    s->devs[k].size_given = s->size != 0;
    return from_cache(self, s, k);
}

static bw_code measure_device(const cli_command *self, void *state, size_t k, bw_error *err)
{
    tune_state *s = state;
    bw_code rc = tune_device(self, s, k, err);
    if (rc == BW_E_IO && s->devs[k].result) {
        s->io_failed = 1; /* measured, but not cached: already reported */
        return BW_OK;
    }
    /* reported with what it measured: a failure under a signal is the signal's */
    return cli_signal_caught ? BW_E_INTERRUPTED : rc;
}

static const char **failure_of(void *state, size_t k)
{
    return &((tune_state *)state)->devs[k].failure;
}

static bw_code format_results(void *state, const char *date, int argc, char **argv, bw_buf *b, bw_error *err)
{
    tune_state *s = state;
    bench_tune_doc_meta m = { date, argc, argv, s->cache_path, s->budget_s, s->kernel_path, cli_signal_caught != 0 };
    /* bench writes the document; the table is rendered from it */
    json_t *doc = bench_tune_document(&m, s->devs, s->each.ndev);
    if (!doc)
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    if (s->each.format.format == CLI_FORMAT_JSON)
        return results_json_dump(doc, b, err); /* consumes doc */
    report_tune_table(doc, b);
    json_decref(doc);
    return BW_OK;
}

static const cli_each_steps tune_steps = {
    .before = open_cache,
    .alloc = alloc_devices,
    .begin = begin_device,
    .measure = measure_device,
    .failure = failure_of,
    .format = format_results,
};

int cmd_tune(int argc, char **argv)
{
    const cli_command *self = cli_find("tune");
    tune_state s;
    memset(&s, 0, sizeof s);
    s.budget_s = DEFAULT_BUDGET_S;
    int st = cli_each_parse(self, argc, argv, &s, &s.each, CLI_FORMATS_TABLE_JSON);
    if (!st)
        st = cli_each_run(self, &s.each, &tune_steps, &s, argc, argv);
    if (!st && s.io_failed)
        st = bw_code_exit_status(BW_E_IO);
    state_free(&s);
    return st;
}
