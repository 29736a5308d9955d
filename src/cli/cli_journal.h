/* cli_journal: the journal `bwlab run --output OUT` keeps beside OUT while
 * it measures, OUT.partial (docs/results.md): JSON lines, a head line and
 * then one line per finished pattern, each appended as it completes, so
 * that a SIGKILL or a crash loses nothing measured. The final write of OUT
 * removes it; an earlier run's journal is moved aside, never removed. The CLI owns it; bench_run_document writes its lines. */
#ifndef CLI_JOURNAL_H
#define CLI_JOURNAL_H

#include "bw_buf.h"
#include "bw_error.h"
#include "cli.h"
#include "bench_run.h"

typedef struct cli_journal cli_journal;

/* The journal for --output `output`, or NULL (and BW_OK) when there is
 * none to keep: no --output, "-", or a target that is no regular file
 * (a device, a FIFO). Whatever is at OUT.partial (an earlier run's
 * journal, a planted link) is never deleted: it is moved to the first
 * free name OUT.partial.1, OUT.partial.2, ..., and *kept gets that name
 * (caller frees; NULL when nothing was there; set even when the open then
 * fails). A new file is made (O_EXCL), no more readable than OUT already
 * is. BW_E_IO when the old one cannot be moved (it stays where it was). */
bw_code cli_journal_open(const char *output, cli_journal **out, char **kept, bw_error *err);
/* (cli_journal_open, further) The new journal is write-locked (fcntl) while
 * it is open. An OUT.partial locked by a live run is left where it is and
 * refused: BW_E_USAGE, naming the run's PID. */
/* Appends the complete line(s) in b with one write. */
bw_code cli_journal_append(cli_journal *j, const bw_buf *b, bw_error *err);
/* The journal's path ("OUT.partial"); valid while j lives. */
const char *cli_journal_path(const cli_journal *j);
/* Closes j; with remove, deletes the file (the results are written) when
 * what is at its path is still the file this run made. */
void cli_journal_close(cli_journal *j, int remove);

/* cli_journal_open for a run of cmd, said on stderr: an earlier journal
 * kept aside (a note), a journal that cannot be made (a warning: the run
 * goes on without, *j NULL). 0, or the usage error's status when
 * OUT.partial is a live run's journal. */
int cli_journal_start(const cli_command *cmd, const char *output, cli_journal **j);

/* The run's head line (bench_run_journal_header of the n runs), then
 * pattern i's line of a run as it finishes (bench_run_journal_result).
 * Nothing when *j is NULL. A journal that cannot be written is closed,
 * removed and set to NULL, with a warning of cmd's: the run goes on. */
void cli_journal_head(const cli_command *cmd, cli_journal **j, const bench_run_meta *m, const bench_run_doc *runs, size_t n);
void cli_journal_result(const cli_command *cmd, cli_journal **j, const bench_run_doc *run, size_t i);

#endif
