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

/* Writes len bytes of data to `path`, replacing its content (issue 10):
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
