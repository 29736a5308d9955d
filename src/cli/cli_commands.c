/* The commands, in the order `bwlab --help` lists them: each one's
 * summary, its operands, its option table (defined beside the command,
 * cmd_*.c, where the state it fills is) and the prose of its help that is
 * about no one option. */
#include <string.h>

#include "cli.h"
#include "cli_option.h"

/* several literals, each within the 4095 characters of -Woverlength-strings */
static const char *const run_notes[] = {
    "Every option is given once (a repeat is an error) but --pattern and --expr, which may repeat.\n"
    "The families with kernels of their own run in one mode: bank reads local memory, transpose and\n"
    "record copy; naming one with an --access it cannot run, with --index 32, or a record with an\n"
    "--elem its type does not give, is an error (the default set's bank patterns keep their read).\n",
    "Exit status: 0 all measured; 1 a pattern failed (build, allocation, validation) or its\n"
    "launch was too short to time (not measurable: use a larger --size), the roofline failed\n"
    "(the patterns' results are still written), or a device failed\n"
    "(--device all: the others are still written); 2 bad input (also --index 32 where not\n"
    "proven, or a --size whose buffers take longer to fill than the --budget holds);\n"
    "3 no OpenCL platform; 130/143/129/131 SIGINT/SIGTERM/SIGHUP/SIGQUIT (the results so far are\n"
    "written).\n",
    "\nPattern families with kernels of their own (bwlab patterns), in rows of their own:\n"
    "  bank        local-memory tiles: the modeled conflict ways beside local GB/s, against\n"
    "              bank:pitch=33 (in the default run)\n"
    "  transpose   version=naive|tiled|padded against a plain copy of the same n x n matrix,\n"
    "              n from the working set (on a --budget of 5 s or more, capped where the\n"
    "              model, counted tile by tile, would take over a 25th of it, at most 2 s:\n"
    "              said in size_note); tiled and padded loop over their W x W tile's rows,\n"
    "              so a 64-lane warp runs too\n"
    "  record      layouts: every field of 3 or 6 floats or of RGB bytes, one load per field\n"
    "              (no vload3), layout=aos against its planar layout=soa: the measured time\n"
    "              ratio beside the modeled traffic ratios\n"
    "Transposes and records run only when named, e.g. --pattern transpose:version=tiled,\n"
    "record:fields=6. matrix-row and matrix-col read the whole matrix; a line under each gives\n"
    "the launch model's footprint and instruction-model bounds beside the measured time.\n"
    "--kernels DIR also holds their kernels: bank.cl, transpose.cl and record.cl.\n",
    "A pattern given twice is measured once; a run takes at most 1000 patterns. With --output\n"
    "FILE, FILE.partial keeps each finished pattern (JSON lines) until FILE is written; SIGINT,\n"
    "SIGTERM, SIGHUP and SIGQUIT stop the run and write what was measured. An earlier\n"
    "FILE.partial (a killed run's) is never deleted: it is moved to the first free\n"
    "FILE.partial.1, .2, ... and named on standard error. --output and --report on one file\n"
    "(also through links), or --output on the tuning cache, is refused (exit 2); an existing\n"
    "file the caller may not write is refused (exit 1).\n",
    "--profile inferred (the profile from a cached 'bwlab probe' of the device) and --transfers\n"
    "(host-device transfers and launch latency, measured): see 'bwlab help probe'. On a --budget\n"
    "of 5 s or more the transfers get a tenth of it (at most 4 s) and what the patterns left:\n"
    "no larger size is started that would pass it (transfers_note says where they stopped).\n",
    "Drivers that cannot do everything: a queue that refuses profiling (-35) is timed by the\n"
    "host clock around clFinish (timer wall, with its resolution and the launch overhead); a\n"
    "launch failing for its size (-5, -4, -54) is retried once at half the work-group; buffers\n"
    "that cannot be had at the plan's size (-4, -5, -61 at allocation or the first write) are\n"
    "planned and run once more at half the working set. The results say what changed (retry).\n",

    NULL,
};

static const char *const tune_notes[] = {
    "The search: streaming read (each work-item XORs its vectors and stores one word) and copy\n"
    "kernels (cl/stream.cl) with uint vectors of width 1, 2, 4, 8, 16, 1 to 16 vectors per\n"
    "work-item in three layouts (grid: i + j*G; block: each group a contiguous block, its\n"
    "work-items interleaved; contiguous: each work-item its own run) and work-groups of 32 to\n"
    "1024, one coordinate at a time; every shape validated before it is timed, the best few\n"
    "timed round-robin to the end of the budget; the highest median bandwidth wins.\n"
    "Cache: $BWLAB_CACHE_DIR/tune.json, else $XDG_CACHE_HOME/bwlab/tune.json, else\n"
    "~/.cache/bwlab/tune.json: one entry per device name, vendor, driver version, platform\n"
    "version and bwlab version. 'bwlab run' reads it for peak_read_gbs, peak_copy_gbs and each\n"
    "pattern's fraction_of_peak, and names a peak below half of its own seq as implausible. A\n"
    "malformed cache (a peak outside 1e-06 to 1e+06 GB/s too) is reported and kept as\n"
    "tune.json.malformed, by run or by the next tune. --output on the cache file itself is\n"
    "refused (exit 2).\n"
    "Exit status: 0 tuned or cached; 1 a device could not be tuned (every shape failed) or the\n"
    "cache could not be written (the results are still printed); 2 bad input; 3 no OpenCL\n"
    "platform; 130/143/129/131 SIGINT/SIGTERM/SIGHUP/SIGQUIT (within a launch or a 16 MiB\n"
    "chunk: the shapes measured so far are written, marked interrupted; no winner is chosen or\n"
    "cached).\n",
    NULL,
};

static const char *const roofline_notes[] = {
    "What it measures (cl/roofline.cl), each kernel validated on the host before it is timed:\n"
    "  peak compute        8 independent chains of fma() on floats of the device's preferred vector\n"
    "                      width per work-item, 2 FLOP per FMA\n"
    "  peak bandwidth      a streaming read of the buffer (--size; by default the working set\n"
    "                      'bwlab run' plans): 8 vectors of that width per work-item, added up\n"
    "  intensity sweep     k = 1, 2, 4 .. 1024 FMAs per float loaded (intensity 2k / 4 FLOP/byte);\n"
    "                      a point whose whole-buffer launch would outlast the launch target reads\n"
    "                      a leading slice of the buffer\n"
    "  tiled matmul        C = AB of n x n floats with T x T tiles in local memory, T = 8, 16, 32\n"
    "                      where two tiles fit the local memory and T*T work-items a group;\n"
    "                      validated against the host's product at n = 64\n"
    "Reported: the peaks (measured); the ridge, peak compute / peak bandwidth (modeled, from the\n"
    "measured peaks); the measured ridge, the sweep's highest GFLOP/s over its highest GB/s; per\n"
    "point GFLOP/s and GB/s (measured), the modeled attainable min(P, I x B), measured / attainable,\n"
    "and the modeled bound (memory below the ridge, compute above it); per tile GFLOP/s\n"
    "(measured) beside the model's intensity T/4, attainable GFLOP/s and bound.\n"
    "Exit status: 0 measured; 1 a device failed (build, validation, a launch below the timing\n"
    "floor); 2 bad input; 3 no OpenCL platform; 130/143/129/131 SIGINT/SIGTERM/SIGHUP/SIGQUIT\n"
    "(within a launch or a 4 MiB chunk: what was measured is written, marked interrupted).\n",
    NULL,
};

static const char *const probe_notes[] = {
    "What it measures (cl/probe.cl; docs/results.md, 'bwlab probe'):\n"
    "  cache ladder        read GB/s against working sets from 4 KiB to 4 x the last-level cache,\n"
    "                      4 points per doubling; a knee is a level when both ladders show it or\n"
    "                      it persists across neighbouring points (one noisy point makes none);\n"
    "                      each level is set beside CL_DEVICE_GLOBAL_MEM_CACHE_SIZE and, for a\n"
    "                      CPU, the host's sysfs caches, a disagreement said in words\n"
    "  latency ladder      a pointer chase through a random cycle (built on the host, untimed):\n"
    "                      ns per load for one work-item and for one per compute unit; a marked\n"
    "                      chase checks that every element is visited once\n"
    "  transaction unit    a byte-stride sweep (4 .. 512 B) and an offset sweep (0 .. 256 B): the\n"
    "                      knee and period fitted by each candidate unit's modeled curve\n"
    "  warp width, banks   where the device shows them (a GPU); on a CPU it says why not\n"
    "  transfers           host to device and back, pageable and pinned, blocking and not,\n"
    "                      4 KiB .. 1 GiB within the device's limits; maps and unmaps of a\n"
    "                      CL_MEM_ALLOC_HOST_PTR buffer at the same sizes: a direction whose maps\n"
    "                      copy nothing (flat in size, or a tiny fraction of a copy; on a\n"
    "                      unified-memory device at the buffer's own host address) is zero-copy,\n"
    "                      no bandwidth; an empty kernel's launch latency (without profiling:\n"
    "                      the host clock, enqueue to clFinish; queued to start not available)\n"
    "Cache: probe.json beside tune.json ($BWLAB_CACHE_DIR, ...; --output on it: exit 2).\n"
    "'bwlab model --profile inferred [--device SPEC]' and 'bwlab run --profile inferred' take\n"
    "the device's own profile with the fields its cached probe found (the unit as the DRAM unit,\n"
    "beside the profile's sectors and lines; W; banks) in place, and say which; a device\n"
    "never probed is an error: run 'bwlab probe' first. 'bwlab run --transfers' adds the\n"
    "transfers and launch latency to a run.\n"
    "SIGINT, SIGTERM, SIGHUP and SIGQUIT stop the probe before its next launch or copy and write\n"
    "what was measured, marked \"interrupted\" (not stored in the cache).\n"
    "Exit status: 0 probed; 1 a device failed or its pointer chase failed validation (the\n"
    "other figures are still written); 2 bad input; 3 no OpenCL platform; 130/143/129/131\n"
    "SIGINT/SIGTERM/SIGHUP/SIGQUIT (what was measured is written).\n",
    NULL,
};

static const char *const devices_notes[] = {
    "The default device (marked *) is the first GPU, else the first device; other\n"
    "commands use it when --device is not given. 'memory' (JSON host_unified_memory)\n"
    "says whether the device shares the host's memory (CL_DEVICE_HOST_UNIFIED_MEMORY).\n",
    NULL,
};

static const char compare_operands[] =
    "  FILE|DIR            'bwlab run' result files (--format json; schema version 1 and later),\n"
    "                      'bwlab probe --format json' files, OUT.partial journals (and\n"
    "                      OUT.partial.N, kept aside by a later run), or directories searched\n"
    "                      recursively for *.json and *.partial: each directory entered once,\n"
    "                      each file read once, FIFOs, sockets, devices and dangling links\n"
    "                      skipped and named. Reads files only: no OpenCL is needed\n";

static const char *const compare_notes[] = {
    "Tables: the devices (full names, each run's provenance); bandwidth (measured GB/s and measured\n"
    "relative to that device's seq); the model (modeled sector efficiency under each device's\n"
    "profile beside measured relative); --baseline; repeats (one pattern on one device in several\n"
    "files: all kept, median min max; an identical file is counted once); nominal peaks (vendor\n"
    "figures in data/nominal.json: measured seq and tuned peak as a share of them; devices no\n"
    "entry matches get no row); the probe (from bwlab probe files and bwlab run --transfers:\n"
    "inferred unit, launch latency, cache levels, transfers at the largest size; in table, md and\n"
    "json, not csv). Devices are the same device when vendor, name and driver match.\n"
    "A field an older file lacks shows as not measured ('-', null, empty), never 0.\n"
    "Exit status: 0 every input compared; 2 bad usage (also --output on an input), or an input\n"
    "skipped (unreadable, empty, invalid JSON, unknown schema version, missing or mistyped\n"
    "fields, no results, a FIFO or socket named: each named on standard error; the others are\n"
    "still compared and written), or nothing to compare; 1 the output could not be written\n"
    "(a full disk, a file the caller may not write).\n",
    "With --check BASELINE RUN: 0 no row regressed; 1 a row regressed (or the output could not\n"
    "be written); 2 bad usage, an input that is not a results file, or no row in common.\n",
    NULL,
};

static const char report_operands[] =
    "  FILE|DIR            bwlab run result files (--format json), bwlab probe files (--format\n"
    "                      json), OUT.partial journals, or directories searched recursively for\n"
    "                      them (as 'bwlab compare' does); from any machines\n";

static const char *const report_notes[] = {
    "The page holds the provenance of every device and run, the comparison tables and eight\n"
    "charts as inline SVG (drawn with cairo): effective bandwidth against stride with the\n"
    "model's prediction dashed, measured against modeled relative bandwidth with y = x, the\n"
    "address ramp of the main patterns (warp 0 under the first device's profile), the\n"
    "roofline and bank-conflict ways against local throughput where the results carry them,\n"
    "and from probe files (and run --transfers) the cache ladder, the latency ladder and\n"
    "host-device transfer bandwidth against size.\n"
    "Every point has a tooltip with its exact value and kind. No script, font or link to\n"
    "fetch: it opens offline. 'bwlab run --report FILE.html' writes the same page for the\n"
    "run just measured. Reads data only: no OpenCL device is needed.\n"
    "Exit status: 0 written; 1 the page could not be written (also a file the caller may not\n"
    "write); 2 bad input (an input that cannot be read is named and skipped, the others are\n"
    "still in the page; no input with results at all; --output on an input).\n",
    NULL,
};

static const cli_command commands[] = {
    { "model", "model one warp-instruction or a whole launch (no device needed)",
      NULL, cmd_model_options, NULL, NULL, cmd_model },
    { "run", "measure every pattern on an OpenCL device and set it beside the model",
      NULL, cmd_run_options, NULL, run_notes, cmd_run },
    { "tune", "find the kernel shape that streams fastest on a device: its peak read and copy bandwidth",
      NULL, cmd_tune_options, NULL, tune_notes, cmd_tune },
    { "roofline", "measure a device's roof: peak FLOP/s, streaming bandwidth and an intensity sweep",
      NULL, cmd_roofline_options, NULL, roofline_notes, cmd_roofline },
    { "probe", "infer a device's memory system from measurement: caches, latency, transaction unit, transfers",
      NULL, cmd_probe_options, NULL, probe_notes, cmd_probe },
    { "patterns", "list the pattern catalogue",
      NULL, cmd_patterns_options, NULL, NULL, cmd_patterns },
    { "devices", "list the OpenCL platforms and devices and the profile bwlab picks for each",
      NULL, cmd_devices_options, NULL, devices_notes, cmd_devices },
    { "compare", "compare result files from many machines: a column per device, a row per pattern",
      "FILE|DIR...", cmd_compare_options, compare_operands, compare_notes, cmd_compare },
    { "report", "merge result files into one self-contained HTML page: provenance, tables, charts",
      "FILE|DIR...", cmd_report_options, report_operands, report_notes, cmd_report },
    { "help", "show help for a command",
      "[COMMAND]", NULL, NULL, NULL, cmd_help },
};

const cli_command *cli_commands(size_t *count)
{
    *count = sizeof commands / sizeof commands[0];
    return commands;
}

const cli_command *cli_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}
