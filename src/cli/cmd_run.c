/* bwlab run: measure patterns on OpenCL devices and set each measurement
 * beside the model: the options, the output and the exit status; the
 * measurement itself is bench_pipeline's. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_pipeline.h"
#include "bw_hook.h"
#include "bench_probe_cache.h"
#include "bench_tune_cache.h"
#include "bench_unroll_memory.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_failures.h"
#include "cli_journal.h"
#include "cli_progress.h"
#include "cli_run_options.h"
#include "cli_limits.h"
#include "cli_report.h"
#include "cli_signal.h"
#include "cli_tuned.h"
#include "model_profile.h"
#include "report_nominal.h"
#include "bench_run_document.h"
#include "report_run.h"
#include "results_json.h"

/* Everything the command owns, freed in one place. */
typedef struct run_state {
    cli_run_args a;      /* the command line */
    bench_pipeline pipe; /* the devices' plans and figures */
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;   /* the selected devices, indices into plats */
    cli_tuned *tuned;        /* per selected device */
    bench_device_list provs; /* the selected devices' provenance, as src/report reads it */
    bench_kernels *kernels;
    char *tune_path;                   /* the tuning cache, or NULL when there is no place for one */
    char *unroll_memory;               /* unroll.json (bench_unroll_memory), or NULL */
    cli_journal *journal;              /* OUT.partial, or NULL */
    char date[32], host[256], os[512]; /* the run's date and host, for the report and the journal */
    int argc;                          /* the command line, program name first */
    char **argv;
    cli_progress_state progress; /* the status line (cli_progress.h) */
    json_t *nominal;             /* data/nominal.json, or NULL when it cannot be read */
    struct run_plateau {         /* per selected device: its cached probe's memory plateau */
        double gbs;              /* measured; 0: none */
        char date[32];
    } *plateau;
    size_t shown_k;              /* the device it last showed */
} run_state;

static void state_free(run_state *s)
{
    cli_run_args_free(&s->a);
    bench_pipeline_free(&s->pipe);
    free(s->tuned);
    free(s->plateau);
    free(s->tune_path);
    free(s->unroll_memory);
    free(s->dev_idx);
    bench_device_list_free(&s->provs);
    bench_kernels_free(s->kernels);
    ocl_platforms_free(s->plats);
    model_profiles_free(s->profiles);
    json_decref(s->nominal);
}

static bench_run_meta meta_of(const run_state *s)
{
    bench_run_meta m = { s->date, s->host, s->os, s->argc, s->argv, &s->pipe.settings,
                      s->kernels ? bench_kernels_path(s->kernels) : NULL, s->a.explain };
    return m;
}

/* device k's run for the report; results: its results, or those in progress */
static bench_run_doc run_of(const run_state *s, size_t k, const bench_result *results)
{
    const bench_pipeline_device *d = &s->pipe.devs[k];
    bench_run_doc r;
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
    const bench_device *bd = &s->provs.devices[k];
    r.nominal_gbs = report_nominal_dram(s->nominal, bd->vendor, bd->name, bd->board_name,
                                        (long long)bd->global_mem_bytes, &r.nominal_name);
    r.probe_memory_gbs = s->plateau ? s->plateau[k].gbs : 0;
    r.probe_memory_date = s->plateau ? s->plateau[k].date : NULL;
    r.compression_checked = s->a.fill_zeros;
    r.zero_fill_gbs = d->zero_fill_gbs;
    r.random_fill_gbs = d->random_fill_gbs;
    r.compression_failure = d->compression_failure;
    r.unroll = d->unroll;
    r.unroll_read = d->unroll_read;
    r.unroll_source = d->unroll_source;
    r.unroll_runs = d->unroll_source && !strcmp(d->unroll_source, BENCH_UNROLL_CALIBRATION) ? d->unroll_runs : 0;
    r.unroll_gbs = d->unroll_gbs;
    r.unroll_read_gbs = d->unroll_read_gbs;
    r.unroll_why = d->unroll_why[0] ? d->unroll_why : NULL;
    return r;
}

/* a finished pattern's line in the journal */
static void journal_result(run_state *s, size_t k, const bench_progress *p)
{
    bench_run_doc run = run_of(s, k, p->results);
    cli_journal_result(cli_find("run"), &s->journal, &run, (size_t)p->finished);
}

/* OUT.partial and its head line, before anything is measured. 0, or exit
 * 2 when OUT.partial is a live run's journal. */
static int journal_start(const cli_command *self, run_state *s)
{
    int st = cli_journal_start(self, s->a.output, &s->journal);
    if (st || !s->journal)
        return st;
    bench_run_doc *runs = calloc(s->ndev, sizeof *runs);
    size_t n = 0;
    for (size_t k = 0; runs && k < s->ndev; k++)
        if (s->pipe.devs[k].plan)
            runs[n++] = run_of(s, k, NULL);
    bench_run_meta m = meta_of(s);
    cli_journal_head(self, &s->journal, &m, runs, n);
    free(runs);
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
    bench_run_doc *runs = calloc(n ? n : 1, sizeof *runs);
    if (!runs)
        return cli_nomem(self);
    for (size_t k = 0; k < n; k++)
        runs[k] = run_of(s, k, s->pipe.devs[k].results);
    bench_run_meta m = meta_of(s);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    /* one document: the JSON written, and every other format rendered from it */
    json_t *doc = bench_run_document(&m, runs, n);
    if (!doc)
        rc = bw_error_set(&err, BW_E_NOMEM, "out of memory building the results");
    else if (s->a.format.format == CLI_FORMAT_JSON)
        rc = results_json_dump(json_incref(doc), &b, &err);
    else if (s->a.format.format == CLI_FORMAT_CSV)
        report_run_csv(doc, &b);
    else if (s->a.format.format == CLI_FORMAT_MD)
        report_run_markdown(doc, m.explain, &b);
    else
        report_run_table(doc, m.explain, &b);
    if (rc == BW_OK)
        rc = cli_write_output(s->a.output, &b, &err);
    /* the results are safe in OUT: the journal has done its work */
    if (rc == BW_OK) {
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    int st = rc == BW_OK ? 0 : cli_fail(self, &err);
    /* an unwritable --output must not lose the measurements */
    if (rc == BW_E_IO && s->a.output) {
        bw_error_clear(&err);
        if (cli_write_output(NULL, &b, &err) == BW_OK)
            cli_say(self, "the results went to standard output instead");
    }
    /* --report: the HTML report of this run, from its JSON document */
    if (s->a.report) {
        bw_buf jb = BW_BUF_INIT;
        const bw_buf *json = &b;
        bw_error_clear(&err);
        rc = BW_OK;
        if (s->a.format.format != CLI_FORMAT_JSON) {
            rc = doc ? results_json_dump(json_incref(doc), &jb, &err)
                     : bw_error_set(&err, BW_E_NOMEM, "out of memory building the results");
            json = &jb;
        }
        if (rc == BW_OK)
            rc = cli_report_from_json(bw_buf_str(json), s->a.report, s->argc, s->argv, &err);
        if (rc != BW_OK) {
            int rst = cli_fail(self, &err);
            if (!st)
                st = rst;
        }
        bw_buf_free(&jb);
    }
    bw_error_clear(&err);
    bw_buf_free(&b);
    json_decref(doc);
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
    if (s->a.profile && bench_probe_cache_path(&probe_path, NULL) != BW_OK)
        probe_path = NULL;
    const char *paths[] = { s->a.output, s->a.report, tune_path, probe_path };
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
    *o = s->a.popts;
    s->pipe.settings = s->a.settings;
    s->pipe.unroll = s->a.unroll;
    s->pipe.fill_zeros = s->a.fill_zeros;
    /* bad input is bad input on any machine: checked before a platform is
     * looked up, so that it never reads as a missing driver */
    if ((rc = bench_plan_check_input(o, &err)) != BW_OK)
        st = rc == BW_E_NOMEM ? cli_nomem(self) : cli_usage_error(self, "%s", bw_error_text(&err));
    else if (model_profiles_load_default(&s->profiles, &err) != BW_OK ||
             ocl_discover(s->profiles, &s->plats, &err) != BW_OK ||
             ocl_select(s->plats, s->a.device_spec, &s->dev_idx, &s->ndev, &err) != BW_OK ||
             bench_kernels_load(s->a.kernels_dir, &s->kernels, &err) != BW_OK)
        st = cli_fail(self, &err);
    else if (!(s->tuned = calloc(s->ndev, sizeof *s->tuned)))
        st = cli_nomem(self);
    else if (s->a.profile)
        st = cli_inferred_profiles(self, s->plats, s->dev_idx, s->ndev);
    /* after --profile inferred: the provenance carries the profile used */
    if (!st && bench_device_list_make(s->plats, s->dev_idx, s->ndev, &s->provs, &err) != BW_OK)
        st = cli_fail(self, &err);
    if (!st)
        s->tune_path = cli_tuned_lookup(self, s->plats, s->dev_idx, s->ndev, s->tuned);
    if (!st && !(s->plateau = calloc(s->ndev, sizeof *s->plateau)))
        st = cli_nomem(self);
    for (size_t k = 0; !st && k < s->ndev; k++)
        s->plateau[k].gbs = cli_inferred_memory_gbs(self, ocl_device_at(s->plats, s->dev_idx[k]), s->plateau[k].date,
                                                    sizeof s->plateau[k].date);
    /* the nominal peaks every figure is checked against: a table that
     * cannot be read leaves the figures unchecked, said once */
    if (!st && report_nominal_load(&s->nominal, &err) != BW_OK)
        cli_note(self, "figures not checked against nominal peaks: %s", bw_error_text(&err));
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
    p->kernels_dir = s->a.kernels_dir;
    p->no_roofline = s->a.no_roofline;
    p->roofline_size = s->a.roofline_size;
    p->transfers = s->a.transfers;
    /* auto's K from the device's kept calibrations: no place for the
     * file (no home) is none */
    bw_error e = BW_ERROR_INIT;
    if (bench_unroll_memory_path(&s->unroll_memory, &e) != BW_OK)
        s->unroll_memory = NULL;
    bw_error_clear(&e);
    p->unroll_memory = s->unroll_memory;
    p->bwlab_version = BWLAB_VERSION;
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
    s->progress.mode = cli_progress_mode_of(s->a.quiet);
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
    /* main passed argv + 1: argv[-1] is the program name */
    s.argc = argc + 1;
    s.argv = argv - 1;
    size_t planned = 0;
    int st = cli_run_args_parse(self, argc, argv, &s.a);
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
