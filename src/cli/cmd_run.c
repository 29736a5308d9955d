/* bwlab run: measure patterns on OpenCL devices and set each measurement
 * beside the model: the options, the output and the exit status; the
 * measurement itself is bench_pipeline's. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_kernel.h"
#include "bench_pipeline.h"
#include "bench_probe_cache.h"
#include "bench_tune_cache.h"
#include "bw_hook.h"
#include "bw_parse.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_failures.h"
#include "cli_format.h"
#include "cli_journal.h"
#include "cli_progress.h"
#include "cli_run_options.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_report.h"
#include "cli_signal.h"
#include "cli_tuned.h"
#include "model_profile.h"
#include "ocl_device.h"
#include "report_results.h"

/* Everything the command owns, freed in one place. */
typedef struct run_state {
    char **specs;
    size_t nspecs;
    const char **exprs;
    size_t nexprs;
    int want_defaults;
    bench_pipeline pipe; /* the plan options, settings and the devices' figures */
    const char *device_spec, *output, *kernels_dir;
    const char *report; /* --report FILE.html, or NULL */
    cli_format_opt format;
    int explain, quiet, roofline_size_given;
    const char *profile; /* --profile: only "inferred" */
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;   /* the selected devices, indices into plats */
    cli_tuned *tuned;        /* per selected device */
    bench_device_list provs; /* the selected devices' provenance, as src/report reads it */
    bench_kernels *kernels;
    char *tune_path;                   /* the tuning cache, or NULL when there is no place for one */
    cli_journal *journal;              /* OUT.partial, or NULL */
    char date[32], host[256], os[512]; /* the run's date and host, for the report and the journal */
    int argc;                          /* the command line, program name first */
    char **argv;
    cli_progress_state progress; /* the status line (cli_progress.h) */
    size_t shown_k;              /* the device it last showed */
} run_state;

static void state_free(run_state *s)
{
    for (size_t i = 0; i < s->nspecs; i++)
        free(s->specs[i]);
    free(s->specs);
    free(s->exprs);
    bench_pipeline_free(&s->pipe);
    free(s->tuned);
    free(s->tune_path);
    free(s->dev_idx);
    bench_device_list_free(&s->provs);
    bench_kernels_free(s->kernels);
    ocl_platforms_free(s->plats);
    model_profiles_free(s->profiles);
}

static int add_patterns(const cli_command *self, run_state *s, const char *list)
{
    bw_error err = BW_ERROR_INIT;
    char **v = NULL;
    size_t n = 0;
    if (model_pattern_split_list(list, &v, &n, &err) != BW_OK) {
        int st = cli_usage_error(self, "%s", bw_error_text(&err));
        bw_error_clear(&err);
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return st;
    }
    char **grown = realloc(s->specs, (s->nspecs + n) * sizeof *grown);
    if (!grown) {
        for (size_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return cli_nomem(self);
    }
    s->specs = grown;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(v[i], "all")) {
            s->want_defaults = 1;
            free(v[i]);
        } else {
            s->specs[s->nspecs++] = v[i];
        }
    }
    free(v);
    return 0;
}

#define RUN_FORMATS \
    ((1u << CLI_FORMAT_TABLE) | (1u << CLI_FORMAT_JSON) | (1u << CLI_FORMAT_CSV) | (1u << CLI_FORMAT_MD))

static int set_pattern(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    return add_patterns(self, field, arg);
}

static int set_expr(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    run_state *s = field;
    const char **v = realloc(s->exprs, (s->nexprs + 1) * sizeof *v);
    if (!v)
        return cli_nomem(self);
    s->exprs = v;
    s->exprs[s->nexprs++] = arg;
    return 0;
}

static int set_roofline_size(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    run_state *s = field;
    s->roofline_size_given = 1;
    return cli_set_size(self, opt, arg, &s->pipe.roofline_size);
}

static int set_profile(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    *(const char **)field = arg;
    if (strcmp(arg, CLI_INFERRED_PROFILE))
        return cli_usage_error(self, "--profile: '%s': bwlab run takes only 'inferred' (a profile from the "
                                     "device's cached 'bwlab probe'); without it each device uses the profile "
                                     "'bwlab devices' shows",
                               arg);
    return 0;
}

#define RUN_SET(fn, field) .set = (fn), .offset = offsetof(run_state, field)
#define RUN_FLAG(field) RUN_SET(cli_set_flag, field)

static const cli_size_rule run_size_rule = { 0, NULL };

/* --pattern and --expr add to the list (CLI_OPT_REPEAT); any other option
 * is given once */
const cli_option cmd_run_options[] = {
    CLI_OPT_DEVICE(run_state, device_spec, 0, CLI_HELP_DEVICE),
    { .name = "pattern", .metavar = "LIST", .values = "LIST|all", .flags = CLI_OPT_REPEAT,
      .help = "comma-separated pattern specs (see 'bwlab patterns'); may repeat; an\n"
              "item k=v continues the previous pattern: aos:struct=12,field=0,seq\n"
              "is two patterns; 'all' is the default set (the whole catalogue with\n"
              "strides 1..64, offsets 0..128 bytes, seq at 4 and 16 bytes, banks)",
      .set = set_pattern },
    { .name = "expr", .metavar = "EXPR", .flags = CLI_OPT_REPEAT,
      .help = "measure your own address expression (bytes; t, w, g, W); may repeat", .set = set_expr },
    { .name = "elem", .metavar = "E", .help = "bytes per lane: 4, 8 or 16 (default-set aos specs whose field it does\n"
                                                            "not fit are left out, named in the plan's note)",
      RUN_SET(cli_run_elem, pipe.popts.elem) },
    CLI_OPT_SIZE(run_state, pipe.popts.size, CLI_OPT_NEWLINE, &run_size_rule,
                 "working set each pattern touches (default auto: 4 x the device's\n"
                 "global-memory cache, or for a CPU device reporting none the host's\n"
                 "last-level cache, else 256 MiB; at least 512 MiB on a GPU; within its\n"
                 "largest allocation and a quarter of its memory); e.g. 256M. src and\n"
                 "dst together stay within 3/4 of the device's memory. On a --budget\n"
                 "of 5 s or more, an auto size whose patterns would not fit it (estimated\n"
                 "from a short calibration copy) is fitted, down to the cache figure\n"
                 "(below it, to 32 MiB, only where filling the buffers alone would take\n"
                 "a quarter of the time), with a note. A --size is never shrunk: where\n"
                 "the budget cannot hold the fill of its widest patterns' buffers\n"
                 "(strides span several times it), those are left out, named, before\n"
                 "the buffers are made"),
    CLI_OPT_BUDGET(run_state, pipe.settings.budget_s, 0,
                   "seconds for the whole run (default 50): buffers, build, validation, form\n"
                   "choice, twins, timing, roofline and writing; held within 10% + 2 s\n"
                   "for S >= 5. Each pattern is validated on a sample of its work-groups,\n"
                   "then timed round-robin until its median is stable (1% relative\n"
                   "standard error and 0.2 s of launches) or the budget ends; on a CPU\n"
                   "both kernel forms are timed in the first rounds and the faster one\n"
                   "kept, where lanes do not load consecutive elements (those run the\n"
                   "plain form's vector load); a twin (the kernel over a cache-resident\n"
                   "slice, after the pattern's own launches) is timed where it can\n"
                   "change the verdict. When the minimum of launches does not\n"
                   "fit, a note before measuring names the patterns left out; below\n"
                   "5 s every pattern keeps its launches and the run takes longer"),
    { .name = "rse", .metavar = "PCT",
      .help = "the relative standard error at which a pattern counts as stable\n"
              "(default 1; 0 times every pattern for the whole budget)",
      RUN_SET(cli_run_rse, pipe.settings.rse_target) },
    CLI_OPT_FORMAT(run_state, format, 0, "table|csv|json|md", RUN_FORMATS,
                   "table (default), csv, json or md; --output FILE.json etc. picks it too"),
    CLI_OPT_OUTPUT(run_state, output, 0, CLI_HELP_OUTPUT),
    { .name = "explain", .flags = CLI_OPT_NEWLINE,
      .help = "a sentence under each row: what the pattern does, why the model says so", RUN_FLAG(explain) },
    CLI_OPT_QUIET(run_state, quiet, 0),
    CLI_OPT_KERNELS(run_state, kernels_dir, 0,
                    "read gather.cl, bw_expr.cl, fill.cl and roofline.cl from DIR (also $BWLAB_KERNEL_DIR)"),
    { .name = "local", .metavar = "N",
      .help = "work-items per work-group (default 256, a multiple of the warp,\n"
              "lowered to what the device and each built kernel allow)",
      RUN_SET(cli_run_local, pipe.popts.local_size) },
    { .name = "index", .metavar = "32|64|auto",
      .help = "index arithmetic of the kernels: int or long (default auto: int on a\n"
              "GPU where the model proves every value fits, long otherwise); 32 is\n"
              "an error for a pattern not proven to fit",
      RUN_SET(cli_run_index, pipe.popts.index_bits) },
    { .name = "access", .metavar = "MODE", .values = "read|copy|write|both|all", .flags = CLI_OPT_NEWLINE,
      .help = "what each work-item does at the pattern's address: copy (loads there and\n"
              "stores at dst[g]; the model counts that store too), read (loads there,\n"
              "compares with a key and stores only on a match: loads alone are counted\n"
              "and timed), write (loads src[g] and stores it there: the pattern's side\n"
              "is the stores; one-to-one stores only, so broadcast is refused), both\n"
              "(read and copy) or all (the three). Default: copy for --pattern and\n"
              "--expr; the default set measures copy for every pattern, read as well\n"
              "for seq and the strides, and write for seq, the strides, offset:bytes=4\n"
              "and reverse, side by side",
      RUN_SET(cli_run_access, pipe.popts.access) },
    { .name = "no-roofline", .usage = "[--no-roofline | --roofline-size BYTES|auto]",
      .help = "skip the short roofline. By default, after a device's patterns, a\n"
              "short 'bwlab roofline' (at most 1 s, or --budget when smaller; the\n"
              "buffer 'bwlab roofline' takes, never --size; roofline.cl from --kernels)\n"
              "gives its measured peak FLOP/s and read GB/s, the ridge modeled from\n"
              "them and the measured one, the sweep and the tiled products: a few\n"
              "lines under the patterns, runs[].roofline in JSON, not in CSV",
      RUN_FLAG(pipe.no_roofline) },
    { .name = "roofline-size", .metavar = "BYTES|auto", .usage = "",
      .help = "the short roofline's buffer, whole MiB (default auto: the\n"
              "one 'bwlab roofline' takes, 4 x the last-level cache)",
      .set = set_roofline_size, .data = &cli_roofline_size_rule },
    { .name = "report", .metavar = "FILE.html", .flags = CLI_OPT_NEWLINE,
      .help = "also write this run's HTML report ('bwlab help report')", RUN_SET(cli_set_string, report) },
    /* described in the notes, with --profile inferred of 'bwlab help probe' */
    { .name = "profile", .metavar = "NAME", .usage = "[--profile inferred]", RUN_SET(set_profile, profile) },
    { .name = "transfers", RUN_FLAG(pipe.transfers) },
    CLI_OPTION_END,
};

static int parse_args(const cli_command *self, int argc, char **argv, run_state *s)
{
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st)
        return st;
    if (s->pipe.no_roofline && s->roofline_size_given)
        return cli_usage_error(self, "conflicting flags: --no-roofline and --roofline-size (the size is the "
                                     "short roofline's; give one)");
    if ((st = cli_output_path_check(self, "--output", s->output)) != 0 ||
        (st = cli_output_path_check(self, "--report", s->report)) != 0)
        return st;
    cli_format_from_output(s->output, s->format.given, RUN_FORMATS, &s->format.format);
    return 0;
}

static report_meta meta_of(const run_state *s)
{
    report_meta m = { s->date, s->host, s->os, s->argc, s->argv, &s->pipe.settings,
                      s->kernels ? bench_kernels_path(s->kernels) : NULL, s->explain };
    return m;
}

/* device k's run for the report; results: its results, or those in progress */
static report_run run_of(const run_state *s, size_t k, const bench_result *results)
{
    const bench_pipeline_device *d = &s->pipe.devs[k];
    report_run r;
    memset(&r, 0, sizeof r);
    r.device = &s->provs.devices[k];
    r.is_default = s->provs.devices[k].is_default;
    r.plan = d->plan;
    r.results = results;
    r.info = &d->info;
    r.failure = d->failure;
    r.tune = s->tuned[k].found ? &s->tuned[k].entry : NULL;
    r.tune_cache = s->tune_path;
    r.roofline = d->roof;
    r.roofline_failure = d->roof_failure;
    r.roofline_working_set = s->pipe.roofline_size ? "--roofline-size" : "auto";
    r.transfers = d->xfers;
    r.transfers_failure = d->xfer_failure;
    r.retry = d->retry;
    return r;
}

/* a finished pattern's line in the journal */
static void journal_result(run_state *s, size_t k, const bench_progress *p)
{
    report_run run = run_of(s, k, p->results);
    cli_journal_result(cli_find("run"), &s->journal, &run, (size_t)p->finished);
}

/* OUT.partial's head line, before anything is measured. 0, or exit 2
 * when OUT.partial is a live run's journal. */
static int journal_start(const cli_command *self, run_state *s)
{
    bw_error err = BW_ERROR_INIT;
    char *kept = NULL;
    bw_code rc = cli_journal_open(s->output, &s->journal, &kept, &err);
    if (kept)
        cli_note(self, "an earlier run's journal was at '%s.partial': it is kept as '%s' "
                       "('bwlab compare %s' reads it)", s->output, kept, kept);
    free(kept);
    if (rc == BW_E_USAGE) {
        int st = cli_fail(self, &err);
        bw_error_clear(&err);
        return st;
    }
    if (rc == BW_OK && s->journal) {
        report_run *runs = calloc(s->ndev, sizeof *runs);
        size_t n = 0;
        for (size_t k = 0; runs && k < s->ndev; k++)
            if (s->pipe.devs[k].plan)
                runs[n++] = run_of(s, k, NULL);
        report_meta m = meta_of(s);
        cli_journal_head(self, &s->journal, &m, runs, n);
        free(runs);
    } else if (rc != BW_OK) {
        cli_warn(self, "%s; no journal is kept", bw_error_text(&err));
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    bw_error_clear(&err);
    return 0;
}

/* The pipeline's progress: a finished pattern goes to the journal, a
 * plan's note to stderr, and the rest redraws the status line */
static void on_progress(void *ctx, size_t k, const bench_progress *p)
{
    run_state *s = ctx;
    if (k != s->shown_k) { /* a new device: its first phase is drawn */
        s->shown_k = k;
        s->progress.last_phase[0] = '\0';
    }
    if (!strcmp(p->phase, "finished")) {
        journal_result(s, k, p);
        return;
    }
    if (!strcmp(p->phase, "plan")) { /* what the budget left out: said before it is measured */
        cli_progress_clear(s->progress.mode);
        cli_print_line("bwlab run", "note", "%s", p->spec);
        return;
    }
    if (!strcmp(p->phase, "idle")) {
        cli_progress_clear(s->progress.mode);
        return;
    }
    if (!strcmp(p->phase, "roofline")) {
        cli_progress_show(s->progress.mode, "[roofline] measuring the device's roof, about %.0f s",
                          BENCH_PIPELINE_ROOFLINE_S);
        return;
    }
    if (!strcmp(p->phase, "transfers")) {
        cli_progress_show(s->progress.mode, "[transfers] host<->device copies and launch latency");
        return;
    }
    cli_progress_runner(&s->progress, p);
}

static void on_note(void *ctx, const char *line)
{
    (void)ctx;
    cli_print_line("bwlab run", "note", "%s", line);
}

static void on_failed(void *ctx, const bw_error *err)
{
    (void)ctx;
    cli_fail(cli_find("run"), err);
}

static void on_measured(void *ctx, size_t k)
{
    run_state *s = ctx;
    const bench_pipeline_device *d = &s->pipe.devs[k];
    if (s->tuned[k].found && d->plan && d->results)
        cli_tuned_check(cli_find("run"), ocl_device_at(s->plats, s->dev_idx[k]), &s->tuned[k].entry, d->plan,
                        d->results);
}

static int write_report(const cli_command *self, run_state *s)
{
    size_t n = s->pipe.nrun;
    report_run *runs = calloc(n ? n : 1, sizeof *runs);
    if (!runs)
        return cli_nomem(self);
    for (size_t k = 0; k < n; k++)
        runs[k] = run_of(s, k, s->pipe.devs[k].results);
    report_meta m = meta_of(s);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    switch (s->format.format) {
    case CLI_FORMAT_JSON: rc = report_results_json(&m, runs, n, &b, &err); break;
    case CLI_FORMAT_CSV: report_results_csv(&m, runs, n, &b); break;
    case CLI_FORMAT_MD: report_results_markdown(&m, runs, n, &b); break;
    default: report_results_table(&m, runs, n, &b); break;
    }
    if (rc == BW_OK)
        rc = cli_write_output(s->output, &b, &err);
    /* the results are safe in OUT: the journal has done its work */
    if (rc == BW_OK) {
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    int st = rc == BW_OK ? 0 : cli_fail(self, &err);
    /* an unwritable --output must not lose the measurements */
    if (rc == BW_E_IO && s->output) {
        bw_error_clear(&err);
        if (cli_write_output(NULL, &b, &err) == BW_OK)
            cli_say(self, "the results went to standard output instead");
    }
    /* --report: the HTML report of this run, from its JSON document */
    if (s->report) {
        bw_buf jb = BW_BUF_INIT;
        const bw_buf *json = &b;
        bw_error_clear(&err);
        rc = BW_OK;
        if (s->format.format != CLI_FORMAT_JSON) {
            rc = report_results_json(&m, runs, n, &jb, &err);
            json = &jb;
        }
        if (rc == BW_OK)
            rc = cli_report_from_json(bw_buf_str(json), s->report, s->argc, s->argv, &err);
        if (rc != BW_OK) {
            int rst = cli_fail(self, &err);
            if (!st)
                st = rst;
        }
        bw_buf_free(&jb);
    }
    bw_error_clear(&err);
    bw_buf_free(&b);
    free(runs);
    return st;
}

/* Two outputs on one file, or an output over a cache the run reads: the
 * usage error's status, else 0. */
static int check_outputs(const cli_command *self, const run_state *s)
{
    char *tune_path = NULL, *probe_path = NULL;
    if (bench_tune_cache_path(&tune_path, NULL) != BW_OK)
        tune_path = NULL;
    if (s->profile && bench_probe_cache_path(&probe_path, NULL) != BW_OK)
        probe_path = NULL;
    const char *paths[] = { s->output, s->report, tune_path, probe_path };
    const char *what[] = { "--output", "--report", "the tuning cache", "the probe cache" };
    const int outputs[] = { 1, 1, 0, 0 };
    int st = cli_outputs_distinct(self, paths, what, outputs, 4);
    free(tune_path);
    free(probe_path);
    return st;
}

/* The patterns checked, then the devices found and selected, the kernels
 * read, each device's profile (--profile inferred), provenance and cached
 * peak: 0, or the exit status after the message. */
static int open_devices(const cli_command *self, run_state *s)
{
    bw_error err = BW_ERROR_INIT;
    bw_code rc;
    int st = 0;
    bench_plan_opts *o = &s->pipe.popts;
    o->specs = (const char *const *)s->specs;
    o->nspecs = s->nspecs;
    o->exprs = s->exprs;
    o->nexprs = s->nexprs;
    o->with_defaults = s->want_defaults;
    o->model_s = bench_pipeline_model_s(s->pipe.settings.budget_s);
    /* bad input is bad input on any machine: checked before a platform is
     * looked up, so that it never reads as a missing driver */
    if ((rc = bench_plan_check_input(o, &err)) != BW_OK)
        st = rc == BW_E_NOMEM ? cli_nomem(self) : cli_usage_error(self, "%s", bw_error_text(&err));
    else if (model_profiles_load_default(&s->profiles, &err) != BW_OK ||
             ocl_discover(s->profiles, &s->plats, &err) != BW_OK ||
             ocl_select(s->plats, s->device_spec, &s->dev_idx, &s->ndev, &err) != BW_OK ||
             bench_kernels_load(s->kernels_dir, &s->kernels, &err) != BW_OK)
        st = cli_fail(self, &err);
    else if (!(s->tuned = calloc(s->ndev, sizeof *s->tuned)))
        st = cli_nomem(self);
    else if (s->profile)
        st = cli_inferred_profiles(self, s->plats, s->dev_idx, s->ndev);
    /* after --profile inferred: the provenance carries the profile used */
    if (!st && bench_device_list_make(s->plats, s->dev_idx, s->ndev, &s->provs, &err) != BW_OK)
        st = cli_fail(self, &err);
    if (!st)
        s->tune_path = cli_tuned_lookup(self, s->plats, s->dev_idx, s->ndev, s->tuned);
    bw_error_clear(&err);
    return st;
}

/* Every device planned, so that bad input fails first (bench_pipeline_plan):
 * 0 with *planned set, or the exit status. */
static int plan_devices(const cli_command *self, run_state *s, size_t *planned)
{
    bench_pipeline *p = &s->pipe;
    p->plats = s->plats;
    p->dev_idx = s->dev_idx;
    p->ndev = s->ndev;
    p->kernels = s->kernels;
    p->kernels_dir = s->kernels_dir;
    p->stop = &cli_signal_caught;
    p->ev = (bench_pipeline_events){ s, on_progress, on_note, on_failed, on_measured };
    bw_code rc = bench_pipeline_plan(p, planned);
    if (rc == BW_E_NOMEM)
        return cli_nomem(self);
    if (*planned)
        return 0;
    /* the refusals are already said */
    return rc != BW_OK ? bw_code_exit_status(rc) : 0;
}

/* Measures the planned devices in turn, until a signal stops the run, and
 * writes the results (also those of an interrupted run). The exit status:
 * 0, 1 when something failed, 128 + the signal, or a write's failure. */
static int measure_and_write(const cli_command *self, run_state *s, size_t planned, double t_run0)
{
    /* the first Ctrl-C, or the SIGTERM a batch scheduler sends at its time
     * limit, stops the run after the launch in flight (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    s->progress.mode = cli_progress_mode_of(s->quiet);
    cli_iso_date(s->date, sizeof s->date);
    cli_host_identity(s->host, sizeof s->host, s->os, sizeof s->os);
    int st = journal_start(self, s);
    if (st != 0) {
        cli_signal_restore(&saved);
        return st;
    }
    int any_failed = planned < s->ndev;
    /* --budget bounds the whole run, from here, less the writing */
    double run_end = t_run0 + s->pipe.settings.budget_s - BENCH_PIPELINE_WRITE_RESERVE_S;
    if (bench_pipeline_measure(&s->pipe, run_end, &any_failed) != BW_OK)
        return cli_nomem(self); /* nothing more is written */
    /* the handler stays while the results are written: a signal then lets
     * the write finish, and the exit status says it came */
    bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
    cli_print_failures(self, &s->pipe);
    st = write_report(self, s);
    cli_signal_restore(&saved);
    if (!st && cli_signal_caught) {
        cli_say(self, "interrupted by %s: wrote the results measured so far", cli_signal_name());
        st = cli_signal_status(st);
    } else if (!st && s->pipe.refused) {
        st = bw_code_exit_status(BW_E_RANGE); /* bad input: --size and --budget together */
    } else if (!st && any_failed) {
        st = bw_code_exit_status(BW_E_VALIDATION);
    }
    return st;
}

int cmd_run(int argc, char **argv)
{
    const cli_command *self = cli_find("run");
    double t_run0 = bench_now_s(); /* --budget counts from here */
    run_state s;
    memset(&s, 0, sizeof s);
    s.pipe.settings = bench_settings_default();
    /* main passed argv + 1: argv[-1] is the program name */
    s.argc = argc + 1;
    s.argv = argv - 1;
    size_t planned = 0;
    int st = parse_args(self, argc, argv, &s);
    if (!st)
        st = check_outputs(self, &s);
    if (!st)
        st = open_devices(self, &s);
    if (!st)
        st = plan_devices(self, &s, &planned);
    if (!st)
        st = measure_and_write(self, &s, planned, t_run0);
    /* a journal left here holds what a failed final write would lose */
    if (s.journal)
        cli_say(self, "the results measured are kept in '%s'", cli_journal_path(s.journal));
    cli_journal_close(s.journal, 0);
    state_free(&s);
    return st;
}
