/* results_peer_priv: what only src/results and its tests use of
 * results_peer.h: recognising and reading a clpeak or BabelStream file,
 * clpeak's buffer size, the cache note, the format's name. */
#ifndef RESULTS_PEER_PRIV_H
#define RESULTS_PEER_PRIV_H

#include "results_peer.h"

/* The format of text by its content alone, RESULTS_PEER_NONE when it is no
 * peer file (then a bwlab result file, perhaps). Cheap: nothing is parsed
 * beyond the first lines, so a malformed peer file still sniffs as its
 * format. */
results_peer_format results_peer_sniff(const char *text, size_t len);

/* Reads a peer file. text need not be NUL-terminated; name names it in
 * messages. Returns BW_OK and sets *out to a new file the caller frees with
 * results_peer_file_free; BW_OK with *out NULL when the text is not a peer
 * file (the caller tries bwlab's own formats); BW_E_FORMAT when it is one
 * but malformed ("NAME: line 3: field 'value' ..."); BW_E_NOMEM. */
bw_code results_peer_read(const char *text, size_t len, const char *name, results_peer_file **out,
                         bw_error *err);

/* Frees everything; accepts NULL. */
void results_peer_file_free(results_peer_file *f);

/* Bytes of the buffer clpeak's global memory bandwidth test reads, from the
 * device's CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_MAX_WORK_ITEM_SIZES[0] and
 * type, by the rule of the clpeak version that wrote the file (tool_version
 * of a results_peer_file; "2.x", which a CSV gives, is read as 2.0.7 or
 * later). 0 when the version is unknown or the device's figures are 0. */
uint64_t results_peer_clpeak_buffer_bytes(const char *tool_version, uint64_t max_alloc_bytes,
                                         uint64_t max_work_item_size0, int cpu_device);

/* Sets fig's note when its buffer is known and smaller than 4 x cache_bytes
 * (the device's reported cache): it may be a cache figure, not DRAM. Does
 * nothing when either is 0. Returns BW_E_NOMEM or BW_OK. */
bw_code results_peer_note_cache(results_peer_figure *fig, uint64_t cache_bytes);

/* Names for output: "clpeak-xml" ..., "read" ..., "GB/s" ...; never NULL. */
const char *results_peer_format_name(results_peer_format f);

#endif
