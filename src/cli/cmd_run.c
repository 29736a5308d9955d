/* bwlab run: measure patterns on OpenCL devices and set each measurement
 * beside the model. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench_device.h"
#include "bench_kernel.h"
#include "bench_plan.h"
#include "bench_probe.h"
#include "bench_probe_cache.h"
#include "bench_fit.h"
#include "bench_roofline.h"
#include "bench_runner.h"
#include "bench_tune_cache.h"
#include "bw_format.h"
#include "bw_hook.h"
#include "bw_parse.h"
#include "bwlab_config.h"
#include "cli.h"
#include "cli_inferred.h"
#include "cli_format.h"
#include "cli_journal.h"
#include "cli_progress.h"
#include "cli_limits.h"
#include "cli_option.h"
#include "cli_report.h"
#include "cli_signal.h"
#include "model_profile.h"
#include "ocl_context.h"
#include "ocl_device.h"
#include "report_nominal.h"
#include "report_results.h"

/* the short roofline after each device's patterns: at most this budget
 * (the run's --budget when that is smaller) */
#define RUN_ROOFLINE_BUDGET_S 1.0
/* --transfers after each device's patterns: at most this share of the
 * budget, and this long (bench_probe_opts.deadline_s) */
#define RUN_TRANSFERS_SHARE 0.1
#define RUN_TRANSFERS_MAX_S 4.0
/* Under BENCH_PLAN_MIN_BUDGET_S, where the budget bounds the patterns'
 * rounds only, the transfers still stop: at RUN_TRANSFERS_MAX_S of their
 * own (a sweep to 1 GiB took 20 s on PoCL beside a --budget 0.3 run; a
 * busy host's 2 s held no more than the first size, short of the 64 x a
 * map's verdict compares) */
#define RUN_TRANSFERS_SHORT_S RUN_TRANSFERS_MAX_S
/* the budget's share kept for writing the results after the last device */
#define RUN_WRITE_RESERVE_S 0.5
/* the share of a device's time left that a fitted working set's estimate
 * may take (bench_fit): the rest is for what it leaves out (validation's
 * samples) and the estimate's error (strided launches that the TLB slows
 * beyond their modeled bytes) */
#define RUN_FIT_SHARE 0.8
/* an automatically sized transpose's model count: at most this share of
 * the budget, and this long (bench_plan_opts.model_s) */
#define RUN_MODEL_SHARE 0.04
#define RUN_MODEL_MAX_S 2.0
/* the bound --budget S holds the run to: S + RUN_BOUND_SHARE * S + RUN_BOUND_S */
#define RUN_BOUND_SHARE 0.1
#define RUN_BOUND_S 2.0

/* What the run holds of one selected device, owned and freed with it. */
typedef struct run_device {
    ocl_context *ctx;
    bench_plan *plan;              /* NULL: the device could not be planned (failure says why) */
    bench_result *results;         /* plan->n of them, once measured */
    bench_run_info info;
    char *failure;                 /* why it could not be measured, or NULL */
    char *retry;                   /* what changed when its buffers failed, or NULL */
    bench_tune_entry tune;         /* its cached peak, when tuned */
    int tuned;                     /* 1 when tune was found in the cache */
    bench_roofline_result *roof;   /* the short roofline, or NULL */
    char *roof_failure;            /* why it failed, or NULL */
    bench_probe_result *xfers;     /* --transfers: transfers and launch latency, or NULL */
    char *xfer_failure;            /* why they failed, or NULL */
} run_device;

static void device_free(run_device *d)
{
    bench_results_free(d->results, d->plan ? d->plan->n : 0);
    bench_plan_free(d->plan);
    ocl_context_free(d->ctx);
    free(d->failure);
    free(d->retry);
    bench_roofline_result_free(d->roof);
    free(d->roof_failure);
    bench_probe_result_free(d->xfers);
    free(d->xfer_failure);
}

/* Everything the command owns, freed in one place. */
typedef struct run_state {
    char **specs;
    size_t nspecs;
    const char **exprs;
    size_t nexprs;
    int want_defaults;
    bench_plan_opts popts;
    bench_settings settings;
    const char *device_spec, *output, *kernels_dir;
    const char *report; /* --report FILE.html, or NULL */
    cli_format_opt format;
    int explain, quiet, no_roofline, roofline_size_given;
    uint64_t roofline_size; /* --roofline-size: the short roofline's buffer, 0 for auto */
    const char *profile;    /* --profile: only "inferred" */
    int transfers;          /* --transfers */
    model_profiles *profiles;
    ocl_platforms *plats;
    size_t *dev_idx, ndev;   /* the selected devices, indices into plats */
    run_device *devs;        /* per selected device, ndev of them */
    size_t nrun;             /* the devices reached so far (the results written) */
    bench_device_list provs; /* the selected devices' provenance, as src/report reads it */
    bench_kernels *kernels;
    char *tune_path;                    /* the tuning cache, or NULL when there is no place for one */
    cli_journal *journal;               /* OUT.partial, or NULL */
    char date[32], host[256], os[512];  /* the run's date and host, for the report and the journal */
    char *roof_source, *roof_path;      /* roofline.cl, read once */
    int refused;                        /* a device's --size buffers the --budget cannot fill: exit 2 */
} run_state;

static void state_free(run_state *s)
{
    for (size_t i = 0; i < s->nspecs; i++)
        free(s->specs[i]);
    free(s->specs);
    free(s->exprs);
    for (size_t i = 0; s->devs && i < s->ndev; i++)
        device_free(&s->devs[i]);
    free(s->devs);
    free(s->roof_source);
    free(s->roof_path);
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

/* a number option's value through parse (bw_parse_u64, bw_parse_double),
 * its refusal said with bw_parse's message */
static int parse_u64_arg(const cli_command *self, const char *flag, const char *arg, uint64_t *u)
{
    bw_error err = BW_ERROR_INIT;
    int st = bw_parse_u64(arg, flag, u, &err) != BW_OK ? cli_usage_error(self, "%s", bw_error_text(&err)) : 0;
    bw_error_clear(&err);
    return st;
}

static int set_elem(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    uint64_t u = 0;
    int st = parse_u64_arg(self, "--elem", arg, &u);
    if (!st && u != 4 && u != 8 && u != 16)
        st = cli_usage_error(self, "--elem: '%s': measured kernels load 4, 8 or 16 bytes per lane", arg);
    *(int64_t *)field = (int64_t)u;
    return st;
}

static int set_rse(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    double pct = 0;
    int st = 0;
    if (bw_parse_double(arg, "--rse", &pct, &err) != BW_OK)
        st = cli_usage_error(self, "%s", bw_error_text(&err));
    else if (pct < 0 || pct > 100)
        st = cli_usage_error(self, "--rse: '%s' percent is out of range (0..100)", arg);
    bw_error_clear(&err);
    *(double *)field = pct / 100.0;
    return st;
}

static int set_local(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    bw_error err = BW_ERROR_INIT;
    uint64_t u = 0;
    int st = 0;
    if (bw_parse_u64(arg, "--local", &u, &err) != BW_OK || u == 0 || u > 65536)
        st = cli_usage_error(self, "--local: '%s' is not a work-group size (1..65536)", arg);
    bw_error_clear(&err);
    *(int64_t *)field = (int64_t)u;
    return st;
}

static int set_index(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    int *bits = field;
    if (!strcmp(arg, "auto"))
        *bits = 0;
    else if (!strcmp(arg, "32") || !strcmp(arg, "64"))
        *bits = atoi(arg);
    else
        return cli_usage_error(self, "--index: '%s' is not 32, 64 or auto", arg);
    return 0;
}

static int set_access(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    (void)opt;
    unsigned *access = field;
    if (!strcmp(arg, "read"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ);
    else if (!strcmp(arg, "copy"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "write"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else if (!strcmp(arg, "both"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY);
    else if (!strcmp(arg, "all"))
        *access = BENCH_ACCESS_BIT(BENCH_ACCESS_READ) | BENCH_ACCESS_BIT(BENCH_ACCESS_COPY) |
                  BENCH_ACCESS_BIT(BENCH_ACCESS_WRITE);
    else
        return cli_usage_error(self, "--access: '%s' is not read, copy, write, both or all", arg);
    return 0;
}

static int set_roofline_size(const cli_command *self, const cli_option *opt, const char *arg, void *field)
{
    run_state *s = field;
    s->roofline_size_given = 1;
    return cli_set_size(self, opt, arg, &s->roofline_size);
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
      RUN_SET(set_elem, popts.elem) },
    CLI_OPT_SIZE(run_state, popts.size, CLI_OPT_NEWLINE, &run_size_rule,
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
    CLI_OPT_BUDGET(run_state, settings.budget_s, 0,
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
      RUN_SET(set_rse, settings.rse_target) },
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
      RUN_SET(set_local, popts.local_size) },
    { .name = "index", .metavar = "32|64|auto",
      .help = "index arithmetic of the kernels: int or long (default auto: int on a\n"
              "GPU where the model proves every value fits, long otherwise); 32 is\n"
              "an error for a pattern not proven to fit",
      RUN_SET(set_index, popts.index_bits) },
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
      RUN_SET(set_access, popts.access) },
    { .name = "no-roofline", .usage = "[--no-roofline | --roofline-size BYTES|auto]",
      .help = "skip the short roofline. By default, after a device's patterns, a\n"
              "short 'bwlab roofline' (at most 1 s, or --budget when smaller; the\n"
              "buffer 'bwlab roofline' takes, never --size; roofline.cl from --kernels)\n"
              "gives its measured peak FLOP/s and read GB/s, the ridge modeled from\n"
              "them and the measured one, the sweep and the tiled products: a few\n"
              "lines under the patterns, runs[].roofline in JSON, not in CSV",
      RUN_FLAG(no_roofline) },
    { .name = "roofline-size", .metavar = "BYTES|auto", .usage = "",
      .help = "the short roofline's buffer, whole MiB (default auto: the\n"
              "one 'bwlab roofline' takes, 4 x the last-level cache)",
      .set = set_roofline_size, .data = &cli_roofline_size_rule },
    { .name = "report", .metavar = "FILE.html", .flags = CLI_OPT_NEWLINE,
      .help = "also write this run's HTML report ('bwlab help report')", RUN_SET(cli_set_string, report) },
    /* described in the notes, with --profile inferred of 'bwlab help probe' */
    { .name = "profile", .metavar = "NAME", .usage = "[--profile inferred]", RUN_SET(set_profile, profile) },
    { .name = "transfers", RUN_FLAG(transfers) },
    CLI_OPTION_END,
};

static int parse_args(const cli_command *self, int argc, char **argv, run_state *s)
{
    int operands, st = cli_options_parse(self, argc, argv, s, &operands);
    if (st)
        return st;
    if (s->no_roofline && s->roofline_size_given)
        return cli_usage_error(self, "conflicting flags: --no-roofline and --roofline-size (the size is the "
                                     "short roofline's; give one)");
    if ((st = cli_output_path_check(self, "--output", s->output)) != 0 ||
        (st = cli_output_path_check(self, "--report", s->report)) != 0)
        return st;
    cli_format_from_output(s->output, s->format.given, RUN_FORMATS, &s->format.format);
    return 0;
}

/* What the progress callback of device k needs. */
typedef struct progress_ctx {
    const cli_command *self;
    run_state *s;
    size_t k;
    cli_progress_mode show; /* the status line's kind (cli_progress.h) */
    int argc;
    char **argv;
    double last_draw; /* bench_now_s of the last redraw */
    char last_phase[16];
} progress_ctx;

static report_run run_of(const run_state *s, size_t k, const bench_result *results);
static report_meta meta_of(const run_state *s, int argc, char **argv);

/* a finished pattern's line in the journal; a journal that cannot be
 * written is dropped with a warning, the run goes on */
static void journal_result(progress_ctx *c, const bench_progress *p)
{
    run_state *s = c->s;
    if (!s->journal)
        return;
    report_run run = run_of(s, c->k, p->results);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = report_results_journal_result(&run, (size_t)p->finished, &b, &err);
    if (rc == BW_OK)
        rc = cli_journal_append(s->journal, &b, &err);
    if (rc != BW_OK) {
        cli_warn(c->self, "%s; no journal is kept", bw_error_text(&err));
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    bw_error_clear(&err);
    bw_buf_free(&b);
}

/* a few redraws a second at most: the runner reports after every launch */
#define PROGRESS_REDRAW_S 0.25

/* The runner's progress report: a finished pattern goes to the journal, a
 * plan's note to stderr, and the rest redraws the progress line */
static void on_progress(void *ctx, const bench_progress *p)
{
    progress_ctx *c = ctx;
    if (!strcmp(p->phase, "finished")) {
        journal_result(c, p);
        return;
    }
    if (!strcmp(p->phase, "plan")) { /* what the budget left out: said before it is measured */
        cli_progress_clear(c->show);
        cli_print_line("bwlab run", "note", "%s", p->spec);
        return;
    }
    if (c->show == CLI_PROGRESS_NONE)
        return;
    double now = bench_now_s();
    int same_phase = !strcmp(c->last_phase, p->phase);
    /* plain lines: one per phase, not one per redraw */
    if (same_phase && (c->show == CLI_PROGRESS_PLAIN || now - c->last_draw < PROGRESS_REDRAW_S))
        return;
    c->last_draw = now;
    snprintf(c->last_phase, sizeof c->last_phase, "%s", p->phase);
    char eta[48] = "";
    if (p->remaining_s >= 0)
        snprintf(eta, sizeof eta, ", %.0f s of the budget left", p->remaining_s);
    if (!strcmp(p->phase, "measuring"))
        cli_progress_show(c->show, "[measuring] %zu of %zu patterns stable, %.0f s elapsed%s", p->done, p->total,
                          p->elapsed_s, eta);
    else if (p->spec && *p->spec)
        cli_progress_show(c->show, "[%s %zu/%zu] %s, %.0f s elapsed%s", p->phase, p->done + 1, p->total, p->spec,
                          p->elapsed_s, eta);
    else
        cli_progress_show(c->show, "[%s %zu/%zu] %.0f s elapsed%s", p->phase, p->done + 1, p->total, p->elapsed_s,
                          eta);
}

/* full messages of failed patterns on stderr; a message repeated (the same
 * build log for every pattern) is printed once */
static void print_failures(const cli_command *self, const run_state *s)
{
    const char *printed[64];
    size_t np = 0;
    for (size_t k = 0; k < s->nrun; k++) {
        if (s->devs[k].failure)
            continue; /* reported when the device failed */
        for (size_t i = 0; i < s->devs[k].plan->n; i++) {
            const bench_result *r = &s->devs[k].results[i];
            if (r->status == BENCH_NOT_MEASURABLE && r->failure) {
                cli_error_block(self, "pattern '%s' %s", s->devs[k].plan->items[i].spec, r->failure);
                continue;
            }
            if (r->status != BENCH_FAILED || !r->failure)
                continue;
            const char *body = strchr(r->failure, '\n');
            int seen = 0;
            for (size_t j = 0; body && j < np; j++)
                seen |= !strcmp(printed[j], body);
            if (seen) {
                cli_error_line(self, "pattern '%s' failed the same way", s->devs[k].plan->items[i].spec);
                continue;
            }
            cli_error_block(self, "pattern '%s' failed: %s", s->devs[k].plan->items[i].spec, r->failure);
            if (body && np < 64)
                printed[np++] = body;
        }
    }
}

/* Every pattern of a device that failed as a whole is reported failed with
 * the device's reason, so each output format shows what was not measured. */
static int device_failed_results(run_state *s, size_t k, bw_code code)
{
    const bench_plan *p = s->devs[k].plan;
    bench_result *r = calloc(p->n, sizeof *r);
    if (!r)
        return -1;
    s->devs[k].results = r;
    for (size_t i = 0; i < p->n; i++) {
        r[i].status = BENCH_FAILED;
        r[i].failure_code = code;
        r[i].reference = -1;
        r[i].relative_to_reference = NAN;
        if (!(r[i].failure = strdup(s->devs[k].failure)))
            return -1;
    }
    return 0;
}

/* Each device's peak from the tuning cache (`bwlab tune`), when it has
 * one. Nothing is measured here; a malformed cache is reported and left
 * out of the results. */
static void lookup_tune(const cli_command *self, run_state *s)
{
    bw_error err = BW_ERROR_INIT;
    if (bench_tune_cache_path(&s->tune_path, &err) != BW_OK) {
        bw_error_clear(&err);
        return; /* no cache to read: no peak, which the results show as null */
    }
    for (size_t k = 0; k < s->ndev; k++) {
        bench_tune_key key = bench_tune_key_of(ocl_device_at(s->plats, s->dev_idx[k]), BWLAB_VERSION);
        bw_code rc = bench_tune_cache_lookup(s->tune_path, &key, &s->devs[k].tune, &s->devs[k].tuned, &err);
        if (rc == BW_OK)
            continue;
        cli_warn(self, "%s; peak figures left out (bwlab tune --retune writes a new one)", bw_error_text(&err));
        bw_error_clear(&err);
        char *moved = NULL;
        /* a malformed cache is kept for the user, and read by nothing again */
        if (rc == BW_E_FORMAT && bench_tune_cache_set_aside(s->tune_path, &moved, &err) == BW_OK)
            cli_warn(self, "the malformed tuning cache is kept as '%s'", moved);
        else if (rc == BW_E_FORMAT)
            cli_warn(self, "%s", bw_error_text(&err));
        free(moved);
        bw_error_clear(&err);
        for (size_t j = 0; j < s->ndev; j++)
            s->devs[j].tuned = 0;
        return;
    }
}

/* A cached peak below half of what this run's own seq measured in the same
 * mode (the peak is the best shape's, seq one shape), or above twice the
 * device's nominal DRAM bandwidth (data/nominal.json; a cache can beat
 * DRAM, not by 2x at a tune-sized buffer), is implausible: said on stderr,
 * since fraction_of_peak would read far from its meaning. The nominal table
 * is optional here: without it only the seq bound is checked. */
static void check_tuned_peak(const cli_command *self, const run_state *s, size_t k)
{
    const run_device *dev = &s->devs[k];
    if (!dev->tuned || !dev->plan || !dev->results)
        return;
    const ocl_device_info *info = ocl_device_at(s->plats, s->dev_idx[k]);
    static const struct {
        bench_access access;
        bench_tune_mode mode;
        const char *name;
    } modes[] = { { BENCH_ACCESS_COPY, BENCH_TUNE_COPY, "copy" }, { BENCH_ACCESS_READ, BENCH_TUNE_READ, "read" } };
    json_t *nominal = NULL;
    bw_error nerr = BW_ERROR_INIT;
    int entry = -1;
    if (report_nominal_load(&nominal, &nerr) == BW_OK)
        entry = report_nominal_find(nominal, info->vendor, info->name, info->board_name,
                                    (long long)info->global_mem_bytes);
    bw_error_clear(&nerr);
    const json_t *e = entry >= 0 ? json_array_get(json_object_get(nominal, "devices"), (size_t)entry) : NULL;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const bench_tune_peak *p = &dev->tune.peak[modes[m].mode];
        if (p->valid && e && p->gbs > 2 * json_number_value(json_object_get(e, "dram_gbs")))
            cli_warn(self,
                     "device %zu: the tuned %s peak, %.2f GB/s (tuning cache of %s), is above twice the nominal "
                     "DRAM bandwidth of %s, %.1f GB/s (data/nominal.json): implausible; bwlab tune --retune "
                     "measures it again",
                     info->index, modes[m].name, p->gbs, dev->tune.date,
                     json_string_value(json_object_get(e, "name")),
                     json_number_value(json_object_get(e, "dram_gbs")));
        for (size_t i = 0; p->valid && i < dev->plan->n; i++) {
            const bench_item *it = &dev->plan->items[i];
            const bench_result *r = &dev->results[i];
            if (strcmp(it->spec, "seq") || it->access != modes[m].access || r->status != BENCH_OK ||
                !(r->effective_gbs > 2 * p->gbs))
                continue;
            cli_warn(self,
                     "device %zu: the tuned %s peak, %.2f GB/s (tuning cache of %s), is below half of this run's "
                     "seq %s, %.2f GB/s (measured): implausible; bwlab tune --retune measures it again",
                     info->index, modes[m].name, p->gbs, dev->tune.date, modes[m].name, r->effective_gbs);
        }
    }
    json_decref(nominal);
}

/* The short roofline on device k after its patterns, on the run's context:
 * roofline.cl from the run's kernel directory, the buffer `bwlab roofline`
 * takes (bench_roofline_opts_of; --roofline-size when given) and at most
 * RUN_ROOFLINE_BUDGET_S (the run's --budget when smaller), stopped by a
 * signal. Sets devs[k].roof (also when interrupted: BW_E_INTERRUPTED, what was
 * measured marked); fails as bench_roofline_run or
 * bench_roofline_kernel_load, with err naming the device. */
static double run_roofline_budget(const run_state *s)
{
    return s->settings.budget_s < RUN_ROOFLINE_BUDGET_S ? s->settings.budget_s : RUN_ROOFLINE_BUDGET_S;
}

static double run_transfers_budget(const run_state *s)
{
    double b = RUN_TRANSFERS_SHARE * s->settings.budget_s;
    return b < RUN_TRANSFERS_MAX_S ? b : RUN_TRANSFERS_MAX_S;
}

static bw_code measure_roofline(run_state *s, size_t k, bw_error *err)
{
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_roofline_opts o;
    bw_code rc = bench_roofline_opts_of(d, &s->settings, run_roofline_budget(s), s->roofline_size, &o, err);
    o.stop = &cli_signal_caught;
    if (rc == BW_OK && !s->roof_source)
        rc = bench_roofline_kernel_load(s->kernels_dir, &s->roof_source, &s->roof_path, err);
    if (rc == BW_OK)
        rc = bench_roofline_run(s->devs[k].ctx, s->roof_source, &o, &s->devs[k].roof, err);
    if (rc != BW_OK)
        bw_error_prefix(err, "roofline on device %zu (%s): ", d->index, d->name);
    return rc;
}

/* --profile inferred: each device's profile with its cached probe's
 * findings in place; a device without a probe is bad input */
static int inferred_profiles(const cli_command *self, run_state *s)
{
    for (size_t k = 0; k < s->ndev; k++) {
        const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
        model_geometry g;
        char fields[64], source[600], why[1024];
        bw_error err = BW_ERROR_INIT;
        bw_code rc = cli_inferred_geometry(d, &g, fields, sizeof fields, source, sizeof source, &err);
        if (rc == BW_OK) {
            snprintf(why, sizeof why, "inferred: %s measured by %s; the rest from profile %s (%s)",
                     fields[0] ? fields : "no field", source, d->profile_name, d->profile_why);
            rc = ocl_device_override_profile(s->plats, s->dev_idx[k], CLI_INFERRED_PROFILE, why, fields, &g, &err);
        }
        if (rc != BW_OK) {
            int st = rc == BW_E_USAGE ? cli_usage_error(self, "%s", bw_error_text(&err)) : cli_fail(self, &err);
            bw_error_clear(&err);
            return st;
        }
    }
    return 0;
}

static void run_identity(run_state *s)
{
    cli_iso_date(s->date, sizeof s->date);
    if (gethostname(s->host, sizeof s->host - 1) != 0)
        snprintf(s->host, sizeof s->host, "unknown");
    snprintf(s->os, sizeof s->os, "unknown");
    struct utsname un;
    if (uname(&un) == 0)
        snprintf(s->os, sizeof s->os, "%s %s %s", un.sysname, un.release, un.machine);
}

static report_meta meta_of(const run_state *s, int argc, char **argv)
{
    report_meta m = { s->date, s->host, s->os, argc, argv, &s->settings,
                      s->kernels ? bench_kernels_path(s->kernels) : NULL, s->explain };
    return m;
}

/* device k's run for the report; results: its results, or those in progress */
static report_run run_of(const run_state *s, size_t k, const bench_result *results)
{
    report_run r;
    memset(&r, 0, sizeof r);
    r.device = &s->provs.devices[k];
    r.is_default = s->provs.devices[k].is_default;
    r.plan = s->devs[k].plan;
    r.results = results;
    r.info = &s->devs[k].info;
    r.failure = s->devs[k].failure;
    r.tune = s->devs[k].tuned ? &s->devs[k].tune : NULL;
    r.tune_cache = s->tune_path;
    r.roofline = s->devs[k].roof;
    r.roofline_failure = s->devs[k].roof_failure;
    r.roofline_working_set = s->roofline_size ? "--roofline-size" : "auto";
    r.transfers = s->devs[k].xfers;
    r.transfers_failure = s->devs[k].xfer_failure;
    r.retry = s->devs[k].retry;
    return r;
}

/* device k's plan options at a working set of `size` bytes (0: automatic) */
static bench_plan_opts device_opts(const run_state *s, const ocl_device_info *d, uint64_t size)
{
    bench_plan_opts o = s->popts;
    o.size = size;
    /* the kernel asks for the sub-group size the device takes as W (Intel) */
    o.reqd_sub_group_size = (int)d->reqd_sub_group_size;
    o.compute_units = d->compute_units;
    /* a CPU runtime vectorises across work-items: time the scalar form too */
    /* test builds only: a GPU simulator (tools/oclgrind.sh) builds the scalar form too */
    o.scalar_form = d->type == OCL_TYPE_CPU || bw_hook_fault("scalar_form", NULL, NULL);
    return o;
}

/* Device k's plan at a working set of `size` bytes (0: automatic). */
static bw_code plan_device(run_state *s, size_t k, uint64_t size, bench_plan **out, bw_error *err)
{
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(s, d, size);
    bw_code rc = bench_plan_make(&o, &d->geo, &lim, out, err);
    /* what the plan left out, said before anything is measured */
    if (rc == BW_OK && (*out)->note)
        cli_print_line("bwlab run", "note", "device %zu: %s", s->dev_idx[k], (*out)->note);
    return rc;
}

/* Device k's buffers could not be had at its plan's size (bench_run's
 * BW_E_TOOBIG: the allocation, or the first write, fill or launch of a
 * lazily allocating driver, answered -4, -5 or -61, err says which): the device is planned
 * once more at half the working set, through the plan's own sizing as
 * --size would be, and s->devs[k].retry says what changed. BW_OK with
 * s->devs[k].plan replaced; else err says why (the first failure when there is
 * nothing smaller to try, which is never retried twice). */
static bw_code retry_smaller(const cli_command *self, run_state *s, size_t k, bw_error *err)
{
    bench_plan *old = s->devs[k].plan;
    uint64_t half = old->target_bytes / 2;
    if (s->devs[k].retry || half < 4096)
        return BW_E_TOOBIG;
    char was[32], now[32];
    bw_format_bytes(was, sizeof was, (double)old->target_bytes);
    bw_format_bytes(now, sizeof now, (double)half);
    bw_buf note = BW_BUF_INIT;
    bw_buf_printf(&note, "working set %s failed (%s); ran at %s, half of it", was, bw_error_text(err), now);
    bench_plan *p = NULL;
    bw_error perr = BW_ERROR_INIT;
    if (plan_device(s, k, half, &p, &perr) != BW_OK) {
        bw_error_clear(&perr);
        bw_buf_free(&note);
        return BW_E_TOOBIG; /* err keeps the first failure */
    }
    if (!(s->devs[k].retry = strdup(bw_buf_str(&note)))) {
        bench_plan_free(p);
        bw_buf_free(&note);
        return bw_error_set(err, BW_E_NOMEM, "out of memory");
    }
    bw_buf_free(&note);
    cli_note(self, "on device %zu: %s", ocl_device_at(s->plats, s->dev_idx[k])->index,
            s->devs[k].retry);
    bw_error_clear(err);
    bench_plan_free(old);
    s->devs[k].plan = p;
    return BW_OK;
}

/* OUT.partial's head line, before anything is measured. 0, or exit 2
 * when OUT.partial is a live run's journal. */
static int journal_start(const cli_command *self, run_state *s, int argc, char **argv)
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
        bw_buf b = BW_BUF_INIT;
        size_t n = 0;
        for (size_t k = 0; runs && k < s->ndev; k++)
            if (s->devs[k].plan)
                runs[n++] = run_of(s, k, NULL);
        report_meta m = meta_of(s, argc, argv);
        rc = runs ? report_results_journal_header(&m, runs, n, &b, &err)
                  : bw_error_set(&err, BW_E_NOMEM, "out of memory");
        if (rc == BW_OK)
            rc = cli_journal_append(s->journal, &b, &err);
        bw_buf_free(&b);
        free(runs);
    }
    if (rc != BW_OK) {
        cli_warn(self, "%s; no journal is kept", bw_error_text(&err));
        cli_journal_close(s->journal, 1);
        s->journal = NULL;
    }
    bw_error_clear(&err);
    return 0;
}

static int write_report(const cli_command *self, run_state *s, int argc, char **argv)
{
    report_run *runs = calloc(s->nrun ? s->nrun : 1, sizeof *runs);
    if (!runs)
        return cli_nomem(self);
    for (size_t k = 0; k < s->nrun; k++)
        runs[k] = run_of(s, k, s->devs[k].results);
    report_meta m = meta_of(s, argc, argv);
    bw_buf b = BW_BUF_INIT;
    bw_error err = BW_ERROR_INIT;
    bw_code rc = BW_OK;
    switch (s->format.format) {
    case CLI_FORMAT_JSON: rc = report_results_json(&m, runs, s->nrun, &b, &err); break;
    case CLI_FORMAT_CSV: report_results_csv(&m, runs, s->nrun, &b); break;
    case CLI_FORMAT_MD: report_results_markdown(&m, runs, s->nrun, &b); break;
    default: report_results_table(&m, runs, s->nrun, &b); break;
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
            rc = report_results_json(&m, runs, s->nrun, &jb, &err);
            json = &jb;
        }
        if (rc == BW_OK)
            rc = cli_report_from_json(bw_buf_str(json), s->report, argc, argv, &err);
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
    s->popts.specs = (const char *const *)s->specs;
    s->popts.nspecs = s->nspecs;
    s->popts.exprs = s->exprs;
    s->popts.nexprs = s->nexprs;
    s->popts.with_defaults = s->want_defaults;
    /* an automatic transpose's model is counted within a share of a
     * bounded budget (bench_plan_opts.model_s) */
    if (s->settings.budget_s >= BENCH_PLAN_MIN_BUDGET_S)
        s->popts.model_s = RUN_MODEL_SHARE * s->settings.budget_s < RUN_MODEL_MAX_S
                               ? RUN_MODEL_SHARE * s->settings.budget_s
                               : RUN_MODEL_MAX_S;
    /* bad input is bad input on any machine: checked before a platform is
     * looked up, so that it never reads as a missing driver */
    if ((rc = bench_plan_check_input(&s->popts, &err)) != BW_OK)
        st = rc == BW_E_NOMEM ? cli_nomem(self) : cli_usage_error(self, "%s", bw_error_text(&err));
    else if (model_profiles_load_default(&s->profiles, &err) != BW_OK ||
             ocl_discover(s->profiles, &s->plats, &err) != BW_OK ||
             ocl_select(s->plats, s->device_spec, &s->dev_idx, &s->ndev, &err) != BW_OK ||
             bench_kernels_load(s->kernels_dir, &s->kernels, &err) != BW_OK)
        st = cli_fail(self, &err);
    else if (!(s->devs = calloc(s->ndev, sizeof *s->devs)))
        st = cli_nomem(self);
    else if (s->profile)
        st = inferred_profiles(self, s);
    /* after --profile inferred: the provenance carries the profile used */
    if (!st && bench_device_list_make(s->plats, s->dev_idx, s->ndev, &s->provs, &err) != BW_OK)
        st = cli_fail(self, &err);
    if (!st)
        lookup_tune(self, s);
    bw_error_clear(&err);
    return st;
}

/* Every device planned before anything is measured, so that bad input
 * fails first. With several devices, one whose limits the plan exceeds is
 * reported failed and the others are measured; input no device accepts
 * is an error of its own. 0 with *planned set, or the exit status. */
static int plan_devices(const cli_command *self, run_state *s, size_t *planned)
{
    bw_error err = BW_ERROR_INIT;
    int plan_status = 0;
    *planned = 0;
    for (size_t k = 0; k < s->ndev; k++) {
        run_device *dev = &s->devs[k];
        const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
        bw_code rc = plan_device(s, k, s->popts.size, &dev->plan, &err);
        if (rc == BW_OK) {
            /* the same list on every device: said once */
            if ((*planned)++ == 0 && dev->plan->merged)
                cli_note(self, "%zu repeated pattern%s merged: each pattern is measured once", dev->plan->merged,
                         dev->plan->merged == 1 ? "" : "s");
            continue;
        }
        bw_error_prefix(&err, "on device %zu (%s): ", d->index, d->name);
        if (!plan_status)
            plan_status = bw_code_exit_status(rc);
        if (s->ndev == 1 || !(dev->failure = strdup(bw_error_text(&err)))) {
            int st = cli_fail(self, &err);
            bw_error_clear(&err);
            return st;
        }
        cli_fail(self, &err);
        bw_error_clear(&err);
    }
    return *planned ? 0 : plan_status;
}

/* One calibration copy on device k (bench_fit_measure) into rate; *have
 * is 0 when it failed, which a note says (the plan then stays as it is).
 * BW_E_INTERRUPTED on a signal. */
static bw_code calibrate(const cli_command *self, run_state *s, size_t k, progress_ctx *pc, bench_fit_rate *rate,
                         int *have)
{
    run_device *dev = &s->devs[k];
    *have = 0;
    bench_progress shown = { "calibrating", 0, 1, "the device's copy rate", 0, s->settings.deadline_s - bench_now_s(),
                             NULL, -1 };
    bw_hook_phase("calibrating"); /* test builds only: a signal as this phase begins */
    on_progress(pc, &shown);
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(s, d, 0);
    bw_error e = BW_ERROR_INIT;
    bw_code rc = bench_fit_measure(dev->ctx, &o, &d->geo, &lim, s->kernels, dev->plan->target_bytes,
                                   s->settings.deadline_s - bench_now_s(), &cli_signal_caught, rate, &e);
    if (rc == BW_E_INTERRUPTED || cli_signal_caught) {
        bw_error_clear(&e);
        return BW_E_INTERRUPTED;
    }
    if (rc != BW_OK) {
        cli_note(self, "device %zu: the %s is not fitted to the budget: %s",
                d->index, dev->plan->target_auto ? "working set" : "plan", bw_error_text(&e));
        bw_error_clear(&e);
        return BW_OK;
    }
    *have = 1;
    return BW_OK;
}

/* Device k's automatic working set, fitted to the time its patterns have
 * (bench_fit): one calibration copy, then the plan at the largest size
 * whose estimate fits, said in a note. A calibration that fails leaves
 * the plan as it is, with a note; BW_E_INTERRUPTED on a signal. */
static bw_code fit_to_budget(const cli_command *self, run_state *s, size_t k, progress_ctx *pc, bw_error *err)
{
    run_device *dev = &s->devs[k];
    if (!bench_fit_may_shrink(dev->plan, s->settings.budget_s))
        return BW_OK; /* nothing smaller may be tried: no calibration */
    bench_fit_rate rate;
    int have = 0;
    bw_code rc = calibrate(self, s, k, pc, &rate, &have);
    if (rc != BW_OK || !have)
        return rc;
    const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
    bench_limits lim = bench_device_limits(d);
    bench_plan_opts o = device_opts(s, d, 0);
    /* what the estimate leaves out (validation's samples, the rounds'
     * grouping) is allowed for */
    double avail = (s->settings.deadline_s - bench_now_s()) * RUN_FIT_SHARE;
    bench_plan *p = NULL;
    bench_fit_choice c;
    if ((rc = bench_fit_choose(&o, &d->geo, &lim, &s->settings, &rate, avail, dev->plan, &p, &c, err)) != BW_OK)
        return rc;
    if (!p)
        return BW_OK; /* the auto plan fits, or nothing smaller may be tried */
    cli_note(self, "device %zu: %s", d->index, c.note);
    bench_plan_free(dev->plan);
    dev->plan = p;
    return BW_OK;
}

/* Device k's plan at the user's --size, whose buffers the budget may not
 * fill (bench_fit_buffers): the widest patterns left out, named, before
 * the buffers are made; BW_E_RANGE when even the references' fill would
 * break the budget's bound (10% + 2 s), BW_E_INTERRUPTED on a signal. */
static bw_code fit_buffers_to_budget(const cli_command *self, run_state *s, size_t k, progress_ctx *pc,
                                     bw_error *err)
{
    run_device *dev = &s->devs[k];
    if (!bench_fit_buffers_worth(dev->plan))
        return BW_OK;
    bench_fit_rate rate;
    int have = 0;
    bw_code rc = calibrate(self, s, k, pc, &rate, &have);
    if (rc != BW_OK || !have)
        return rc;
    double left = s->settings.deadline_s - bench_now_s();
    bench_fit_choice c;
    rc = bench_fit_buffers(dev->plan, &s->settings, &rate, left * RUN_FIT_SHARE,
                           left + RUN_BOUND_SHARE * s->settings.budget_s + RUN_BOUND_S, &c, err);
    if (rc == BW_E_RANGE)
        s->refused = 1;
    if (rc == BW_OK && c.note[0])
        cli_note(self, "device %zu: %s", ocl_device_at(s->plats, s->dev_idx[k])->index,
                c.note);
    return rc;
}

/* Device k's patterns, on a context of its own, retried once at half the
 * working set when its buffers cannot be had. A device that fails is
 * reported and its patterns marked failed; 0, or the status of running
 * out of memory. */
static int measure_patterns(const cli_command *self, run_state *s, size_t k, progress_ctx *pc, int *any_failed)
{
    run_device *dev = &s->devs[k];
    bw_error err = BW_ERROR_INIT;
    bw_code rc = ocl_context_create(s->plats, s->dev_idx[k], &dev->ctx, &err);
    /* an automatic working set on a bounded budget: fitted to it; a
     * signal meanwhile leaves the plan as it is, and the run below then
     * marks every pattern not run */
    if (rc == BW_OK && s->settings.budget_s >= BENCH_PLAN_MIN_BUDGET_S &&
        (dev->plan->target_auto ? fit_to_budget(self, s, k, pc, &err) : fit_buffers_to_budget(self, s, k, pc, &err))
            != BW_OK) {
        if (!cli_signal_caught)
            rc = err.code;
        else
            bw_error_clear(&err);
    }
    if (rc == BW_OK)
        rc = bench_run(dev->ctx, dev->plan, s->kernels, &s->settings, &cli_signal_caught, on_progress, pc,
                       &dev->results, &dev->info, &err);
    if (rc == BW_E_TOOBIG && !cli_signal_caught && (rc = retry_smaller(self, s, k, &err)) == BW_OK)
        rc = bench_run(dev->ctx, dev->plan, s->kernels, &s->settings, &cli_signal_caught, on_progress, pc,
                       &dev->results, &dev->info, &err);
    cli_progress_clear(pc->show);
    if ((rc == BW_OK || rc == BW_E_INTERRUPTED) && dev->info.fill_note[0])
        cli_print_line("bwlab run", "note", "device %zu: %s", ocl_device_at(s->plats, s->dev_idx[k])->index,
                       dev->info.fill_note);
    int st = 0;
    if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
        /* this device is lost; what the others measured is kept */
        const ocl_device_info *d = ocl_device_at(s->plats, s->dev_idx[k]);
        bw_error_prefix(&err, "on device %zu (%s): ", d->index, d->name);
        cli_fail(self, &err);
        dev->failure = strdup(bw_error_text(&err));
        if (!dev->failure || device_failed_results(s, k, rc) != 0)
            st = cli_nomem(self);
        *any_failed = 1;
    } else {
        for (size_t i = 0; i < dev->plan->n; i++)
            *any_failed |= dev->results[i].status == BENCH_FAILED || dev->results[i].status == BENCH_NOT_MEASURABLE;
    }
    bw_error_clear(&err);
    return st;
}

/* The short roofline after device k's patterns; a failure is reported
 * beside the patterns' results, which are kept. 0, or the status of
 * running out of memory. */
static int run_short_roofline(const cli_command *self, run_state *s, size_t k, cli_progress_mode show,
                              int *any_failed)
{
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    cli_progress_show(show, "[roofline] measuring the device's roof, about %.0f s", RUN_ROOFLINE_BUDGET_S);
    bw_code rc = measure_roofline(s, k, &err);
    cli_progress_clear(show);
    if (rc != BW_OK && rc != BW_E_INTERRUPTED) {
        cli_fail(self, &err);
        if (!(s->devs[k].roof_failure = strdup(bw_error_text(&err))))
            st = cli_nomem(self);
        *any_failed = 1;
    }
    bw_error_clear(&err);
    return st;
}

/* --transfers on device k: host<->device copies and launch latency, on
 * the run's context. 0, or the status of running out of memory. */
static int run_transfers(const cli_command *self, run_state *s, size_t k, cli_progress_mode show, int *any_failed)
{
    run_device *dev = &s->devs[k];
    bw_error err = BW_ERROR_INIT;
    int st = 0;
    cli_progress_show(show, "[transfers] host<->device copies and launch latency");
    bench_probe_opts po;
    memset(&po, 0, sizeof po);
    po.transfers_only = 1;
    po.kernel_dir = s->kernels_dir;
    po.stop = &cli_signal_caught; /* a signal stops the copies too; those finished are kept */
    /* their share, and what the patterns and the roofline left of theirs */
    if (s->settings.budget_s >= BENCH_PLAN_MIN_BUDGET_S) {
        double end = s->settings.deadline_s + (s->no_roofline ? 0 : run_roofline_budget(s));
        po.deadline_s = (end > bench_now_s() ? end : bench_now_s()) + run_transfers_budget(s);
    } else {
        po.deadline_s = bench_now_s() + RUN_TRANSFERS_SHORT_S;
    }
    bw_code rc = bench_probe_run(dev->ctx, &po, &dev->xfers, &err);
    cli_progress_clear(show);
    if (rc == BW_E_INTERRUPTED) {
        dev->info.interrupted = 1; /* the transfers are partial: the run says so */
        rc = BW_OK;
    }
    if (rc != BW_OK) {
        cli_fail(self, &err);
        if (!(dev->xfer_failure = strdup(bw_error_text(&err))))
            st = cli_usage_error(self, "out of memory");
        *any_failed = 1;
    }
    bw_error_clear(&err);
    return st;
}

/* Measures the planned devices in turn, until a signal stops the run, and
 * writes the results (also those of an interrupted run). The exit status:
 * 0, 1 when something failed, 128 + the signal, or a write's failure. */
static int measure_and_write(const cli_command *self, run_state *s, size_t planned, double t_run0, int argc,
                             char **argv)
{
    /* the first Ctrl-C, or the SIGTERM a batch scheduler sends at its time
     * limit, stops the run after the launch in flight (cli_signal.h) */
    cli_signal_saved saved;
    cli_signal_catch(&saved);
    cli_progress_mode show = cli_progress_mode_of(s->quiet);
    run_identity(s);
    int jst = journal_start(self, s, argc + 1, argv - 1);
    if (jst != 0) {
        cli_signal_restore(&saved);
        return jst;
    }
    int any_failed = planned < s->ndev, st = 0;
    /* --budget bounds the whole run, from here: each device's patterns get
     * an equal share of what is left, less its roofline and the writing */
    double run_end = t_run0 + s->settings.budget_s - RUN_WRITE_RESERVE_S;
    for (size_t k = 0; k < s->ndev && !cli_signal_caught; k++) {
        s->nrun = k + 1;
        if (!s->devs[k].plan)
            continue;
        size_t left = 0;
        for (size_t j = k; j < s->ndev; j++)
            left += s->devs[j].plan != NULL;
        double roof = s->no_roofline ? 0 : run_roofline_budget(s);
        double xfer = s->transfers ? run_transfers_budget(s) : 0;
        double share = (run_end - bench_now_s()) / (double)left - roof - xfer;
        s->settings.deadline_s = bench_now_s() + (share > 0 ? share : 0);
        progress_ctx pc = { self, s, k, show, argc + 1, argv - 1, 0, "" };
        if ((st = measure_patterns(self, s, k, &pc, &any_failed)) != 0)
            return st; /* out of memory: nothing more is written */
        check_tuned_peak(self, s, k);
        if (s->devs[k].failure)
            continue;
        if (!s->no_roofline && !cli_signal_caught && (st = run_short_roofline(self, s, k, show, &any_failed)) != 0)
            return st;
        if (s->transfers && !cli_signal_caught && (st = run_transfers(self, s, k, show, &any_failed)) != 0)
            return st;
    }
    /* the handler stays while the results are written: a signal then lets
     * the write finish, and the exit status says it came */
    bw_hook_phase("writing"); /* test builds only: a signal as the results are written */
    print_failures(self, s);
    /* main passed argv + 1: argv[-1] is the program name */
    st = write_report(self, s, argc + 1, argv - 1);
    cli_signal_restore(&saved);
    if (!st && cli_signal_caught) {
        cli_say(self, "interrupted by %s: wrote the results measured so far", cli_signal_name());
        st = cli_signal_status(st);
    } else if (!st && s->refused) {
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
    s.settings = bench_settings_default();
    size_t planned = 0;
    int st = parse_args(self, argc, argv, &s);
    if (!st)
        st = check_outputs(self, &s);
    if (!st)
        st = open_devices(self, &s);
    if (!st)
        st = plan_devices(self, &s, &planned);
    if (!st)
        st = measure_and_write(self, &s, planned, t_run0, argc, argv);
    /* a journal left here holds what a failed final write would lose */
    if (s.journal)
        cli_say(self, "the results measured are kept in '%s'", cli_journal_path(s.journal));
    cli_journal_close(s.journal, 0);
    state_free(&s);
    return st;
}
