/* bw_file: whole-file reading and the search for run-time resources
 * (kernel sources in cl/, data files in data/). */
#ifndef BW_FILE_H
#define BW_FILE_H

#include <stddef.h>

#include "bw_error.h"

/* Reads a whole file into a NUL-terminated heap string (caller frees).
 * *len (optional) receives the byte count. BW_E_IO names the path and the
 * system's reason. Files above 64 MiB are refused. */
bw_code bw_file_read(const char *path, char **text, size_t *len, bw_error *err);

/* As bw_file_read, for a file that must be regular (a result file found
 * by a directory scan or named by the user): opened without blocking, so a
 * FIFO with no writer is refused at once, as are sockets and devices
 * (BW_E_IO saying what the path is). */
bw_code bw_file_read_regular(const char *path, char **text, size_t *len, bw_error *err);

/* What a file of this st_mode is, for messages: "a FIFO", "a socket",
 * "a character device", "a directory", ...; never NULL. */
const char *bw_file_kind(unsigned mode);

/* 1 when writing paths a and b would write one regular file: both exist
 * and are the same file by device and inode (links followed; a device or
 * a FIFO never counts), or neither exists and both name the same new file
 * (the directory resolved, dangling links followed). 0 otherwise, and for
 * NULL, "" or "-" (standard output). */
int bw_file_same_output(const char *a, const char *b);

/* Writes len bytes of data to `path`, replacing its content, never half
 * written (a run killed mid-write must leave the old file or the new one):
 *  - an existing regular file is replaced only when the caller could
 *    write it (open for writing, as `echo x > file` would): else BW_E_IO
 *    "cannot replace 'PATH': Permission denied (...)", and nothing changes;
 *  - a regular file, or a path that does not exist yet, is replaced
 *    atomically: a temp file from mkstemp in the same directory (O_EXCL, so
 *    no planted link is followed), flushed, given the old file's mode and
 *    owner (a new file gets 0666 less the umask), renamed over it;
 *  - a symbolic link keeps being a link: its target is written, by these
 *    same rules;
 *  - anything else (a device such as /dev/null or /dev/full, a FIFO, a
 *    socket, any path under /dev or /proc) is written through directly.
 * Every write error, ENOSPC included, is BW_E_IO naming the path and the
 * system's reason; a failed atomic write leaves the old file as it was. */
bw_code bw_file_write(const char *path, const char *data, size_t len, bw_error *err);

/* Finds resource `name` of kind `subdir` ("cl" or "data") and returns its
 * path (caller frees). When `dir` is given (a command-line flag) only that
 * directory is searched; else when environment variable `env_var` is set and
 * non-empty only that; else the source tree this binary was built from, then
 * the installed data directory. `flag` names the flag for messages. */
bw_code bw_file_find_resource(const char *subdir, const char *name, const char *dir,
                              const char *flag, const char *env_var, char **path,
                              bw_error *err);

#endif
