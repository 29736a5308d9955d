/* bwlab entry point: global options and subcommand dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bw_alloc.h"
#include "bwlab_config.h"
#include "cli.h"

static int top_usage_error(const char *what, const char *arg)
{
    cli_print_line("bwlab", "error", "%s%s%s%s", what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    fprintf(stderr, "usage: bwlab [--version] [--help] COMMAND [ARGS]\n"
                    "Try 'bwlab --help' for the list of commands.\n");
    return 2;
}

/* Every command's standard output is checked once more at exit: a full
 * disk or a closed pipe (`bwlab --version > /dev/full`) is a failure, exit
 * 1, never a silent success. */
static int finish(int status)
{
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad && status == 0) {
        fprintf(stderr, "bwlab: error: cannot write to standard output: %s\n", strerror(e));
        return 1;
    }
    return status;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2)
        return top_usage_error("no command given", NULL);
    const char *first = argv[1];
    if (!strcmp(first, "--version") || !strcmp(first, "-V")) {
        printf("bwlab %s\n", BWLAB_VERSION);
        return 0;
    }
    if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
        char *help_argv[] = { "help", NULL };
        return cmd_help(1, help_argv);
    }
    if (first[0] == '-')
        return top_usage_error("unknown option", first);
    const cli_command *cmd = cli_find(first);
    if (!cmd)
        return top_usage_error("unknown command", first);
    /* `bwlab CMD --help` anywhere in the arguments shows the command's help */
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            char *help_argv[] = { "help", (char *)cmd->name, NULL };
            return cmd_help(2, help_argv);
        }
    }
    return cmd->run(argc - 1, argv + 1);
}

/* A standard stream the caller closed (`bwlab run --output F >&-`) gets
 * /dev/null opened read-only in its place before anything else is opened:
 * else the next file opened (a journal, an output's temp file) would take
 * its number and receive what is printed there. A write to it then fails
 * as it would on the closed descriptor (EBADF), so standard output is an
 * error exactly when something was to be written there, and only then. */
static void hold_closed_streams(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        /* open takes the lowest free number: fd itself, the lower ones being open by now */
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0 && nul != fd) {
            dup2(nul, fd);
            close(nul);
        }
    }
}

int main(int argc, char **argv)
{
    hold_closed_streams();
    /* jansson's allocations counted: a load that fails for memory is then
     * told from one that fails for its input */
    json_set_alloc_funcs(bw_alloc_counted_malloc, bw_alloc_counted_free);
    return finish(dispatch(argc, argv));
}
