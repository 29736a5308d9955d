/* bwlab tune: find the kernel shape that streams fastest on each device
 * (the device's own bandwidth limit), keep it in the tuning cache, and
 * report it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_plan.h"
#include "bench_runner.h"
#include "bench_tune.h"
#include "bench_tune_cache.h"
#include "bw_format.h"
#include "bw_hook.h"
#include "bw_parse.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_each.h"
#include "cli_format.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_signal.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_tune.h"

#define MIB ((uint64_t)1 << 20)
#define DEFAULT_BUDGET_S 6.0

/* Everything the command owns, freed in one place. */
typedef struct tune_state {
    const char *device_spec, *output;
    int retune;
    cli_format_opt format;
    double budget_s;
    uint64_t size; /* --size, 0 for auto */
    char *cache_path, *source, *kernel_path;
    cli_each each; /* the devices, their provenance (which devs point into), failures and cache notes */
    report_tune_device *devs;
    bench_tune_entry *entries;
    bench_tune_result **results;
} tune_state;

static void state_free(tune_state *s)
{
    for (size_t k = 0; s->results && k < s->each.ndev; k++)
        bench_tune_result_free(s->results[k]);
    free(s->results);
    free(s->entries);
    free(s->devs);
    free(s->cache_path);
    free(s->source);
    free(s->kernel_path);
    cli_each_free(&s->each);
}

#define TUNE_FORMATS ((1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON))

static const cli_size_rule tune_size_rule = { 1, "the kernel shapes tried divide the buffer into 1 MiB blocks" };

const cli_option cmd_tune_options[] = {
    CLI_OPT_DEVICE(tune_state, device_spec, 0, CLI_HELP_DEVICE),
    { .name = "retune", .help = "measure again even when the cache has an entry for the device",
      .set = cli_set_flag, .offset = offsetof(tune_state, retune) },
    CLI_OPT_BUDGET(tune_state, budget_s, 0,
                   "seconds for each device's search, building and validating included\n"
                   "(default 6); later search stages are skipped when it runs short"),
    CLI_OPT_SIZE(tune_state, size, 0, &tune_size_rule,
                 "each buffer (src, dst, read results), whole MiB (default auto: the\n"
                 "working set 'bwlab run' plans, 4 x the last-level cache, within a\n"
                 "third of the memory budget)"),
    CLI_OPT_FORMAT(tune_state, format, CLI_OPT_NEWLINE, "table|json", TUNE_FORMATS,
                   "table (default) or json; --output FILE.json picks it too"),
    CLI_OPT_OUTPUT(tune_state, output, 0, CLI_HELP_OUTPUT),
    CLI_OPTION_END,
};

static int parse_args(const cli_command *self, int argc, char **argv, tune_state *s)
{
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st || (st = cli_output_path_check(self, "--output", s->output)) != 0)
        return st;
    cli_format_from_output(s->output, s->format.given, TUNE_FORMATS, &s->format.format);
    return 0;
}

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

int cmd_tune(int argc, char **argv)
{
    const cli_command *self = cli_find("tune");
    tune_state s;
    memset(&s, 0, sizeof s);
    s.budget_s = DEFAULT_BUDGET_S;
    int st = parse_args(self, argc, argv, &s);
    bw_error err = BW_ERROR_INIT;
    /* from here a signal stops the measurement; what was measured is
     * written, and the handler stays while it is (cli_signal.h) */
    cli_signal_saved saved;
    int catching = !st;
    if (catching)
        cli_signal_catch(&saved);
    int io_failed = 0;
    if (st)
        goto done;
    if (bench_tune_cache_path(&s.cache_path, &err) != BW_OK) {
        st = cli_fail(self, &err);
        goto done;
    }
    if ((st = cli_output_not_cache(self, s.output, s.cache_path, "the tuning cache")) != 0)
        goto done;
    if ((st = cli_each_open(self, s.device_spec, &s.each)) != 0)
        goto done;
    size_t n = s.each.ndev;
    s.devs = calloc(n, sizeof *s.devs);
    s.entries = calloc(n, sizeof *s.entries);
    s.results = calloc(n, sizeof *s.results);
    if (!s.devs || !s.entries || !s.results) {
        st = cli_nomem(self);
        goto done;
    }
    for (size_t k = 0; k < n; k++) {
        s.devs[k].device = &s.each.provs.devices[k];
        s.devs[k].is_default = s.each.provs.devices[k].is_default;
        s.devs[k].size_given = s.size != 0;
        if (from_cache(self, &s, k) || cli_signal_caught)
            continue; /* cached, or not tuned: reported as not run */
        bw_code rc = tune_device(self, &s, k, &err);
        if (rc == BW_E_IO && s.devs[k].result)
            io_failed = 1; /* measured, but not cached: already reported */
        else if (rc == BW_E_INTERRUPTED || cli_signal_caught)
            (void)0; /* reported with what it measured: a failure under a signal is the signal's */
        else if (rc != BW_OK && (st = cli_each_fail(self, &s.each, k, rc, &err, &s.devs[k].failure)) != 0)
            goto done;
        bw_error_clear(&err);
    }
    char date[32];
    cli_iso_date(date, sizeof date);
    /* main passed argv + 1: argv[-1] is the program name */
    report_tune_meta m = { date, argc + 1, argv - 1, s.cache_path, s.budget_s, s.kernel_path, cli_signal_caught != 0 };
    bw_buf b = BW_BUF_INIT;
    bw_code rc = BW_OK;
    if (s.format.format == CLI_FORMAT_JSON)
        rc = report_tune_json(&m, s.devs, n, &b, &err);
    else
        report_tune_table(&m, s.devs, n, &b);
    bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
    st = cli_each_finish(self, &s.each, rc, &b, s.output, "the results measured", 0, &err);
    bw_buf_free(&b);
    if (!st && io_failed)
        st = bw_code_exit_status(BW_E_IO);
done:
    if (catching)
        cli_signal_restore(&saved);
    bw_error_clear(&err);
    state_free(&s);
    return st;
}
