/* cli_run_state: what bwlab run owns from its command line to its exit
 * (cmd_run.c), and the functions of cli_run_doc.c that turn it into its
 * results document: a private header of those two files. */
#ifndef CLI_RUN_STATE_H
#define CLI_RUN_STATE_H

#include <jansson.h>
#include <stddef.h>

#include "bench_run.h"
#include "cli.h"
#include "cli_progress.h"
#include "cli_run_options.h"
#include "cli_tuned.h"
#include "model_profile.h"

#include "cli_journal.h"

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

/* OUT.partial and its head line, before anything is measured. 0, or exit
 * 2 when OUT.partial is a live run's journal. */
int cli_run_journal_start(const cli_command *self, run_state *s);
/* a finished pattern's line in the journal */
void cli_run_journal_result(run_state *s, size_t k, const bench_progress *p);
/* The results in the format asked for (--output, else standard output;
 * standard output when --output cannot be written), the journal closed
 * once they are safe, and --report's HTML page: 0, or the exit status of
 * what failed. */
int cli_run_write(const cli_command *self, run_state *s);

#endif
