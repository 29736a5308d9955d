/* results_peer: result files of peer tools, clpeak and BabelStream, read into
 * one plain data model, recognised by their content, not their name.
 *
 * Formats (docs/compare.md, "Peer files: clpeak and BabelStream"):
 *   - clpeak 1.x `--xml-file` (no version in the file: the 1.x layout);
 *   - clpeak 2.x `--xml-file`, `--json-file` and `--csv-file`
 *     (format_version 2; CSV names no clpeak version);
 *   - BabelStream `--csv` (the v3.x to v5.0 header with max_mbytes_per_sec,
 *     or the v6.0-rc header with max_MB_per_sec and its kin), with or
 *     without the lines a model prints before the header ("Using OpenCL
 *     device ...", "Driver: ...").
 *
 * Reads data, never devices: the device a file names is strings only;
 * matching it with a device of bwlab's results is a later step. Everything
 * is owned by the results_peer_file (results_peer_file_free). */
#ifndef RESULTS_PEER_H
#define RESULTS_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "bw_error.h"

typedef enum results_peer_format {
    RESULTS_PEER_NONE = 0,        /* not a peer file */
    RESULTS_PEER_CLPEAK_XML,      /* clpeak 1.x or 2.x --xml-file */
    RESULTS_PEER_CLPEAK_JSON,     /* clpeak 2.x --json-file */
    RESULTS_PEER_CLPEAK_CSV,      /* clpeak 2.x --csv-file */
    RESULTS_PEER_BABELSTREAM_CSV, /* BabelStream --csv */
} results_peer_format;

/* What a figure stands for beside bwlab's own figures. */
typedef enum results_peer_role {
    RESULTS_PEER_READ,     /* clpeak global memory bandwidth: a read figure */
    RESULTS_PEER_STREAM,   /* a BabelStream kernel (Copy, Mul, Add, Triad, Dot, Nstream) */
    RESULTS_PEER_COMPUTE,  /* a compute peak (the roofline's peak) */
    RESULTS_PEER_TRANSFER, /* a host/device transfer */
    RESULTS_PEER_LAUNCH,   /* kernel launch latency */
} results_peer_role;

/* The unit of a figure's value, after conversion (results_peer.c says from
 * what). */
typedef enum results_peer_unit {
    RESULTS_PEER_GBS,    /* 10^9 bytes per second */
    RESULTS_PEER_GFLOPS, /* 10^9 floating-point operations per second */
    RESULTS_PEER_GOPS,   /* 10^9 integer operations per second */
    RESULTS_PEER_US,     /* microseconds */
} results_peer_unit;

/* A device as the file names it; any field may be NULL (BabelStream names
 * no platform, and only its OpenCL and HIP models name a device). */
typedef struct results_peer_device {
    char *backend;  /* "OpenCL" (clpeak 2.x's backend, BabelStream's model), or NULL */
    char *platform; /* CL_PLATFORM_NAME, or NULL */
    char *device;   /* CL_DEVICE_NAME, or NULL */
    char *driver;   /* CL_DRIVER_VERSION, or NULL */
} results_peer_device;

#define RESULTS_PEER_NO_DEVICE ((size_t)-1)

typedef struct results_peer_figure {
    size_t device;          /* index into devices, or RESULTS_PEER_NO_DEVICE */
    results_peer_role role;
    char *test;             /* clpeak's test ("global_memory_bandwidth"), BabelStream's function ("Triad") */
    char *metric;           /* clpeak's metric ("float4"), BabelStream's element type ("double") */
    double value;           /* in unit, finite, > 0 */
    results_peer_unit unit;
    /* bytes the figure's kernel touches once each (BabelStream: its own
     * count, arrays x n_elements x sizeof); 0 when the file does not say
     * (clpeak: results_peer_clpeak_buffer_bytes gives it from the device) */
    uint64_t buffer_bytes;
    char *note;             /* or NULL; results_peer_note_cache may set one */
} results_peer_figure;

typedef struct results_peer_file {
    char *name;            /* as given to results_peer_read */
    results_peer_format format;
    const char *tool;      /* "clpeak" or "babelstream" (static) */
    /* "2.1.2" (clpeak 2.x JSON and XML), "2.x" (clpeak CSV), "1.x" (clpeak
     * 1.x XML), "v3.x-v5.0" or "v6.0-rc" (BabelStream's two CSV headers) */
    char *tool_version;
    results_peer_device *devices;
    size_t n_devices;
    results_peer_figure *figures;
    size_t n_figures;
    /* rows left out, not errors: tests that map to nothing here (local
     * memory, images, the CPU backend's caches, BabelStream's Init/Read
     * phases), rows clpeak marks unsupported, skipped or failed, and zeros
     * (clpeak writes 0 for a map that copied nothing) */
    size_t n_left_out;
    /* what those rows were, each once ("local_memory_bandwidth", "a Init
     * phase row", ...), comma-separated and cut at its size; "" for none */
    char left_out_what[256];
} results_peer_file;

const char *results_peer_role_name(results_peer_role r);
const char *results_peer_unit_name(results_peer_unit u);

#endif
