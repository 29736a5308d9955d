/* Bad input, table-driven. Every case is one command line, the
 * exit status it must give (2 bad input, 1 runtime failure, 0 where a
 * reproducer now gives the right answer) and a fragment its message or
 * output must hold. Every bad-input reproducer found so far is here. Runs pin
 * --device cpu and stay small; most fail while planning, before anything
 * is measured. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bw_buf.h"
#include "test_util.h"

#define ANY_RUNTIME (-1) /* 0 or 1: measured or not measurable, never bad input */

enum { ERR, OUT };

typedef struct bad_case {
    const char *argv[32];
    int status;
    const char *fragment;
    int where; /* ERR: stderr, OUT: stdout */
} bad_case;

/* Long arguments are generated: "@name" stands for one. */
static char *expand(const char *arg)
{
    bw_buf b = BW_BUF_INIT;
    if (!strcmp(arg, "@chain30000")) { /* finding 1: t+t+... of 30 000 terms */
        bw_buf_puts(&b, "t");
        for (int i = 1; i < 30000; i++)
            bw_buf_puts(&b, "+t");
    } else if (!strcmp(arg, "@plus0x127")) { /* finding 4: 127 x "+0" */
        bw_buf_puts(&b, "4*g");
        for (int i = 0; i < 127; i++)
            bw_buf_puts(&b, "+0");
    } else if (!strncmp(arg, "@minus", 6)) { /* findings 4, 5: n leading minus signs */
        int n = atoi(arg + 6);
        for (int i = 0; i < n; i++)
            bw_buf_putc(&b, '-');
        bw_buf_puts(&b, "4*g");
    } else if (!strcmp(arg, "@x300")) { /* a long value is cut where it is echoed */
        for (int i = 0; i < 300; i++)
            bw_buf_putc(&b, 'x');
    } else if (!strcmp(arg, "@seqx250")) { /* smaller ones: 250 x seq */
        bw_buf_puts(&b, "seq");
        for (int i = 1; i < 250; i++)
            bw_buf_puts(&b, ",seq");
    } else if (!strncmp(arg, "@strides", 8)) { /* input limits: strides k*1000+1 .. k*1000+1000 */
        int k = atoi(arg + 8);
        for (int i = 1; i <= 1000; i++)
            bw_buf_printf(&b, "%sstride:s=%d", i > 1 ? "," : "", k * 1000 + i);
    } else {
        bw_buf_puts(&b, arg);
    }
    return bw_buf_steal(&b);
}

#define CPU "run", "--device", "cpu"
#define QUICK "--size", "2M", "--budget", "0.2", "--no-roofline"

static const bad_case cases[] = {
    /* ---- top level and other commands ---- */
    { { "nosuch" }, 2, "unknown command 'nosuch'", ERR },
    { { "--bogus" }, 2, "unknown option '--bogus'", ERR },
    { { "help", "nosuch" }, 2, "unknown command 'nosuch'", ERR },
    { { "patterns", "extra" }, 2, "unexpected argument 'extra'", ERR },
    { { "devices", "--format", "xml" }, 2, "'xml' is not one of table|json", ERR },
    { { "roofline", "--device", "cpu", "--bogus" }, 2, "unknown option '--bogus'", ERR },
    { { "tune", "--device", "cpu", "--bogus" }, 2, "unknown option '--bogus'", ERR },

    /* ---- model: flags ---- */
    { { "model" }, 2, "give an address source", ERR },
    { { "model", "--expr" }, 2, "option '--expr' needs a value", ERR },
    { { "model", "--expr", "4*g", "--pattern", "seq" }, 2, "conflicting flags", ERR },
    { { "model", "--expr", "4*g", "--expr", "8*g" }, 2, "option '--expr' given twice ('4*g' and '8*g')", ERR },
    { { "model", "--launch", "--launch", "--items", "4", "--expr", "g" }, 2, "option '--launch' given twice", ERR },
    { { "model", "--expr", "4*g", "extra" }, 2, "unexpected argument 'extra'", ERR },
    { { "model", "--expr", "4*g", "--format", "xml" }, 2, "'xml' is not one of table|json", ERR },
    { { "model", "--expr", "4*g", "--elem", "0" }, 2, "--elem: '0' is out of range", ERR },
    /* the override would print as seq:elem=3, a spec the parser refuses (found by fuzz_pattern) */
    { { "model", "--pattern", "seq", "--elem", "3" }, 2, "a pattern's elements are 4, 8 or 16 bytes", ERR },
    { { "model", "--expr", "4*g", "--lanes", "0" }, 2, "--lanes: '0' is out of range (1..1024)", ERR },
    { { "model", "--expr", "4*g", "--lanes", "2000" }, 2, "--lanes: '2000' is out of range (1..1024)", ERR },
    { { "model", "--expr", "4*g", "--sector", "48", "--line", "128" }, 2, "not a multiple of the sector size 48", ERR },
    { { "model", "--expr", "4*g", "--sector", "0" }, 2, "--sector: '0' is out of range", ERR },
    { { "model", "--expr", "4*g", "--active", "99" }, 2, "--active: '99' is out of range (0..32)", ERR },
    { { "model", "--expr", "4*g", "--mask", "zz" }, 2, "--mask: 'zz' is not a hex number", ERR },
    { { "model", "--expr", "4*g", "--warp", "-1" }, 2, "--warp: '-1' is not a non-negative integer", ERR },
    { { "model", "--expr", "4*g", "--base", "abc" }, 2, "--base: 'abc' is not an integer", ERR },
    { { "model", "--expr", "4*g", "--profile", "nosuch" }, 2, "unknown profile 'nosuch'", ERR },
    { { "model", "--expr", "4*g", "--space", "nowhere" }, 2, "'nowhere' is not global or local", ERR },
    { { "model", "--expr", "4*g", "--access", "wrote", "--launch", "--items", "4" }, 2, "'wrote' is not load, store or write", ERR },
    { { "model", "--expr", "4*g", "--launch" }, 2, "--launch needs --items N", ERR },
    { { "model", "--expr", "4*g", "--dram-unit", "0" }, 2, "--dram-unit: '0' is out of range", ERR },
    { { "model", "--expr", "4*g", "--unroll", "4" }, 2, "--unroll 4 applies to a launch", ERR },
    { { "model", "--expr", "4*g", "--items", "64", "--unroll", "6" }, 2, "--unroll: '6' is not 1, 2, 4, 8 or 16", ERR },
    { { "model", "--expr", "4*g", "--items", "96", "--unroll", "2" }, 2,
      "96 items do not split into 2 parts of whole 32-lane warps; give --items a multiple of 64", ERR },
    { { "model", "--expr", "4*g", "--launch", "--items", "0" }, 2, "--items: '0' is out of range (1..1099511627776)", ERR },
    { { "model", "--expr", "4*g", "--launch", "--items", "2199023255552" }, 2, "is out of range (1..1099511627776)", ERR },
    { { "model", "--expr", "4*g", "--launch", "--items", "abc" }, 2, "--items: 'abc' is not a non-negative integer", ERR },
    { { "model", "--roofline", "--peak-gflops", "100" }, 2, "--roofline needs --peak-gflops P and --peak-gbs B", ERR },
    { { "model", "--roofline", "--peak-gflops", "-1", "--peak-gbs", "10", "--intensity", "1" }, 2,
      "--peak-gflops: '-1' must be a positive number", ERR },

    /* ---- model: expressions ---- */
    { { "model", "--expr", "" }, 2, "it is empty", ERR },
    { { "model", "--expr", "4*" }, 2, "at column 3, found end of expression", ERR },
    { { "model", "--expr", "(4*g" }, 2, "expected ')' at column 5", ERR },
    { { "model", "--expr", "4*g)" }, 2, "expected an operator or the end at column 4", ERR },
    { { "model", "--expr", "4*q" }, 2, "unknown name (allowed: t, w, g, W, min, max) at column 3", ERR },
    { { "model", "--expr", "99999999999999999999" }, 2, "does not fit in a signed 64-bit integer", ERR },
    { { "model", "--expr", "t/0" }, 2, "division by zero at column 2", ERR },
    { { "model", "--expr", "1<<64" }, 2, "shift count outside 0..63", ERR },
    { { "model", "--expr", "4*g\xff" }, 2, "unexpected character", ERR },
    /* finding 1: a flat chain of 30 000 terms, bounded, no recursion */
    { { "model", "--expr", "@chain30000", "--launch", "--items", "4096" }, 2, "its tree is 30000 levels deep", ERR },
    /* finding 4: what the OpenCL compiler would refuse, refused up front */
    { { "model", "--expr", "@plus0x127" }, 2, "its OpenCL form nests brackets", ERR },
    { { "model", "--expr", "@minus130" }, 2, "its OpenCL form nests brackets", ERR },
    /* finding 5: 70 minus signs are accepted and printed in a form that re-parses */
    { { "model", "--expr", "@minus70" }, 0, "-(-(-(-(", OUT },
    /* finding 2: huge launches answer at once */
    { { "model", "--expr", "g*g", "--launch", "--items", "1099511627776" }, 2, "signed 64-bit overflow", ERR },
    { { "model", "--expr", "4*((w%1000)*(w%1000))", "--launch", "--items", "1099511627776" }, 2,
      "change shape from warp to warp", ERR },
    { { "model", "--expr", "4*t*w", "--launch", "--items", "1099511627776" }, 2, "use fewer --items", ERR },
    /* finding 3: no wrapping; the counts worked by hand. Two warps, lane 0
     * in the lowest line, lanes 1-31 together in one line near 9e18: 2
     * lines each, the same 2 both times */
    { { "model", "--expr", "(t==0 ? -9223372036854775807-1 : 9000000000000000000) + 32*w", "--launch", "--items",
        "64" },
      0, "4 lines summed over instructions, 2 distinct", OUT },
    /* 1-byte sectors: per warp lane 0's 4 bytes and the others' shared 4:
     * 8 + 8 summed; distinct 5 (lane 0 moves 1 byte) + 6 (the rest move 2) */
    { { "model", "--sector", "1", "--line", "1", "--expr",
        "t == 0 ? -9223372036854775807 - 1 + w : 9223372036854775000 + 2*w", "--launch", "--items", "64" },
      0, "16 sectors, no reuse between instructions", OUT },
    { { "model", "--sector", "1", "--line", "1", "--expr",
        "t == 0 ? -9223372036854775807 - 1 + w : 9223372036854775000 + 2*w", "--launch", "--items", "64" },
      0, "11 distinct sectors, each fetched once", OUT },
    /* 4*g & INT64_MAX is 4*g here: 256 bytes, 8 sectors, 2 lines */
    { { "model", "--expr", "4*g & 9223372036854775807", "--launch", "--items", "64" }, 0,
      "2 lines summed over instructions, 2 distinct", OUT },
    { { "model", "--expr", "9223372036854775804 - 4*g", "--launch", "--items", "64" }, 2,
      "outside the 64-bit address range", ERR },
    { { "model", "--pattern", "nosuch" }, 2, "unknown pattern 'nosuch'", ERR },
    { { "model", "--pattern", "stride:s=0" }, 2, "parameter s=0 is out of range", ERR },
    { { "model", "--pattern", "stride:s=abc" }, 2, "'abc' is not a non-negative integer", ERR },
    { { "model", "--pattern", "stride:q=2" }, 2, "has no parameter 'q'", ERR },
    { { "model", "--pattern", "" }, 2, "empty pattern name", ERR },

    /* ---- run: flags ---- */
    { { CPU, "--size", "abc" }, 2, "--size: 'abc' is not a non-negative integer", ERR },
    { { CPU, "--size", "-1" }, 2, "--size: '-1'", ERR },
    { { CPU, "--size", "0" }, 2, "--size: '0' must be more than 0 bytes", ERR },
    { { CPU, "--size", "16E" }, 2, "--size: '16E' is not a byte count", ERR },
    { { CPU, "--pattern", "seq", "--size", "1000000G" }, 2, "larger than the device's largest allocation", ERR },
    { { CPU, "--pattern", "seq", "--elem", "3" }, 2, "--elem: '3': measured kernels load 4, 8 or 16 bytes", ERR },
    { { CPU, "--pattern", "seq", "--budget", "-1" }, 2, "--budget: '-1' seconds is out of range", ERR },
    { { CPU, "--pattern", "seq", "--budget", "nan" }, 2, "--budget: 'nan' is out of range", ERR },
    { { CPU, "--pattern", "seq", "--budget", "abc" }, 2, "--budget: 'abc' is not a number", ERR },
    { { CPU, "--pattern", "seq", "--rse", "-1" }, 2, "--rse: '-1' percent is out of range", ERR },
    { { CPU, "--pattern", "seq", "--format", "xml" }, 2, "'xml' is not one of table|json|csv|md", ERR },
    { { CPU, "--pattern", "seq", "--local", "3" }, 2, "--local 3: a work-group must be a multiple of the warp", ERR },
    { { CPU, "--pattern", "seq", "--index", "16" }, 2, "--index: '16' is not 32, 64 or auto", ERR },
    { { CPU, "--pattern", "seq", "--unroll", "3" }, 2, "--unroll: '3' is not 1, 2, 4, 8, 16 or auto", ERR },
    { { CPU, "--pattern", "seq", "--dram-unit", "0" }, 2, "--dram-unit: '0' is out of range", ERR },
    { { CPU, "--pattern", "seq", "--fill", "ones" }, 2, "--fill: 'ones' is not zeros or random", ERR },
    { { CPU, "--pattern", "seq", "--unroll", "32" }, 2, "--unroll: '32' is not 1, 2, 4, 8, 16 or auto", ERR },
    { { CPU, "--pattern", "seq", "--access", "wirte" }, 2, "'wirte' is not read, copy, write, both or all", ERR },
    { { "run", "--device", "99", "--pattern", "seq" }, 2, "no OpenCL device matches --device '99'", ERR },
    { { "run", "--device", "nosuchdevice", "--pattern", "seq" }, 2, "no OpenCL device matches", ERR },
    { { CPU, "--pattern", "nosuch" }, 2, "unknown pattern 'nosuch'", ERR },
    { { CPU, "--pattern", "stride:s=0" }, 2, "parameter s=0 is out of range", ERR },
    { { CPU, "--pattern", "" }, 2, "--pattern: empty list", ERR },
    { { CPU, "--kernels", "/nonexistent", "--pattern", "seq" }, 1, "--kernels: '/nonexistent' is not a directory", ERR },

    /* ---- run: expressions ---- */
    { { CPU, "--expr", "" }, 2, "it is empty", ERR },
    { { CPU, "--expr", "t/0", "--size", "64K" }, 2, "division by zero at column 2", ERR },
    { { CPU, "--expr", "-4*g", "--size", "64K" }, 2, "reads below the start of the buffer", ERR },
    { { CPU, "--expr", "g*g", "--index", "32", "--size", "64K" }, 2, "only 1-byte aligned", ERR },
    { { CPU, "--expr", "@chain30000", "--size", "64K" }, 2, "its tree is 30000 levels deep", ERR },
    { { CPU, "--expr", "@plus0x127", "--size", "64K" }, 2, "OpenCL compilers accept", ERR },
    { { CPU, "--expr", "@minus130", "--size", "64K" }, 2, "OpenCL compilers accept", ERR },
    /* finding 3: the span's end past INT64_MAX */
    { { CPU, "--expr", "9223372036854775804 - 4*g", "--size", "64K" }, 2, "outside the 64-bit address range", ERR },
    /* smaller ones: size_item's error path (checked for leaks under ASan) */
    { { CPU, "--expr", "(4*g) << 40", "--size", "64K" }, 2, "more than the device's largest allocation", ERR },

    /* ---- run: output, sizes, lists ---- */
    /* finding 6: a full device is an error, and the results still reach stdout */
    { { CPU, "--pattern", "seq", QUICK, "--output", "/dev/full" }, 1, "cannot write '/dev/full': No space left", ERR },
    { { CPU, "--pattern", "seq", QUICK, "--format", "json", "--output", "/dev/stdout" }, ANY_RUNTIME,
      "\"schema\": \"bwlab.results\"", OUT },
    { { CPU, "--pattern", "seq", QUICK, "--output", "/nonexistent-dir/x.json" }, 1,
      "the results went to standard output instead", ERR },
    /* smaller ones: a working set below one work-group names what was used */
    { { CPU, "--pattern", "seq:elem=16", "--size", "3", "--budget", "0.2", "--no-roofline" }, ANY_RUNTIME,
      "working set: 3 B per pattern (--size), up to 4.00 KiB used", OUT },
    { { CPU, "--pattern", "seq", "--size", "2M", "--budget", "0.1", "--no-roofline" }, ANY_RUNTIME,
      "in a 0.1 s run budget", OUT },
    { { CPU, "--pattern", "@seqx250", QUICK, "--format", "csv" }, ANY_RUNTIME,
      "249 repeated patterns merged: each pattern is measured once", ERR },
    /* input limits: 10 000 patterns, over the documented cap */
    /* ---- options ignored or inconsistent ---- */
    /* one rule for a repeated option, in every command (model's rule above) */
    { { "run", "--output", "a", "--output", "b" }, 2, "option '--output' given twice ('a' and 'b'); give it once", ERR },
    { { "run", "--device", "cpu", "--device", "gpu" }, 2, "option '--device' given twice ('cpu' and 'gpu')", ERR },
    { { "run", "--format", "csv", "--format", "json" }, 2, "option '--format' given twice ('csv' and 'json')", ERR },
    { { "run", "--quiet", "--quiet" }, 2, "option '--quiet' given twice; give it once", ERR },
    { { "compare", "x.json", "--mode", "read", "--mode", "copy" }, 2, "option '--mode' given twice ('read' and 'copy')",
      ERR },
    { { "compare", "x.json", "--output", "a", "--output", "b" }, 2, "option '--output' given twice", ERR },
    { { "tune", "--retune", "--retune" }, 2, "option '--retune' given twice", ERR },
    /* an abbreviation is the same option */
    { { "report", "x.json", "--title", "a", "--ti", "b" }, 2, "option '--title' given twice ('a' and 'b')", ERR },
    /* options a named pattern's kernel cannot honour: refused, never dropped */
    { { CPU, "--pattern", "transpose:version=tiled", "--access", "read" }, 2,
      "--access read with pattern 'transpose:version=tiled,n=1024': the transpose family runs in copy mode only", ERR },
    { { CPU, "--pattern", "record:fields=6", "--access", "read" }, 2, "the record family runs in copy mode only", ERR },
    { { CPU, "--pattern", "seq,record:fields=3", "--access", "both" }, 2, "--access both with pattern 'record:", ERR },
    { { CPU, "--pattern", "bank:pitch=32", "--access", "copy" }, 2, "the bank family runs in read mode only", ERR },
    { { CPU, "--pattern", "transpose:version=naive", "--index", "32" }, 2,
      "--index 32 with pattern 'transpose:version=naive,n=1024'", ERR },
    { { CPU, "--pattern", "record:fields=3", "--elem", "8" }, 2,
      "--elem 8 with pattern 'record:fields=3': its parameters set the element size (4 bytes)", ERR },
    { { CPU, "--pattern", "record:type=uchar", "--elem", "4" }, 2, "set the element size (1 bytes)", ERR },
    { { "model", "--pattern", "record", "--elem", "16" }, 2, "--elem 16 with pattern 'record'", ERR },
    /* the same --elem a float record has is what was asked: no conflict */
    { { "model", "--pattern", "record", "--elem", "4" }, 0, "(pattern record:fields=3,type=float,layout=aos", OUT },
    { { CPU, "--no-roofline", "--roofline-size", "4M" }, 2, "conflicting flags: --no-roofline and --roofline-size", ERR },
    /* the empty output path: refused everywhere, '-' is standard output */
    { { CPU, "--pattern", "seq", "--output", "" }, 2, "--output: the path is empty; name a file, or use '-'", ERR },
    { { CPU, "--pattern", "seq", "--report", "" }, 2, "--report: the path is empty", ERR },
    { { "compare", "x.json", "--output", "" }, 2, "--output: the path is empty", ERR },
    { { "report", "x.json", "--output", "" }, 2, "--output: the path is empty", ERR },
    { { "tune", "--output", "" }, 2, "--output: the path is empty", ERR },
    { { "roofline", "--output", "" }, 2, "--output: the path is empty", ERR },
    { { "probe", "--output", "" }, 2, "--output: the path is empty", ERR },
    /* --active 0 and an empty mask: the documented no-active-lane case */
    { { "model", "--expr", "4*g", "--active", "0" }, 0, "0 of 32 lanes active (mask 0x0)", OUT },
    { { "model", "--expr", "4*g", "--active", "0" }, 0, "sector efficiency                     n/a", OUT },
    { { "model", "--expr", "4*g", "--mask", "0x0", "--format", "json" }, 0, "\"sector_efficiency\": null", OUT },
    { { "model", "--expr", "4*g", "--mask", "0", "--launch", "--items", "64" }, 0, "loads: 0 warp-instructions", OUT },
    /* empty pattern items: one rule, with the column */
    { { "model", "--pattern", "seq:," }, 2, "pattern 'seq:,': empty item at column 5", ERR },
    { { "model", "--pattern", "stride:s=2,," }, 2, "pattern 'stride:s=2,,': empty item at column 12", ERR },
    { { "model", "--pattern", "stride:,s=2" }, 2, "empty item at column 8", ERR },
    { { CPU, "--pattern", "stride:s=2,," }, 2, "--pattern: empty item at column 12 of 'stride:s=2,,'", ERR },
    { { CPU, "--pattern", "stride:,s=2" }, 2, "pattern 'stride:,s=2': empty item at column 8", ERR },
    /* octal-looking literals: refused with the column; 0 and hex stay */
    { { "model", "--expr", "010" }, 2, "a decimal literal with a leading zero (C would read it as octal", ERR },
    { { "model", "--expr", "4*g + 007" }, 2, "at column 7, found '007'", ERR },
    { { "model", "--expr", "0*g + 0x10 + 4*g" }, 0, "address      0 * g + 0x10 + 4 * g", OUT },
    /* control bytes shown escaped, long values cut */
    { { "model", "--expr", "4*t\x1b[2J" }, 2, "bad expression '4*t\\x1b[2J': unexpected character at column 4", ERR },
    { { "run", "--device", "cpu", "--pattern", "seq\n" }, 2, "unknown pattern 'seq\\x0a'", ERR },
    { { "model", "--pattern", "@x300" }, 2, "xxxxxxxxxx\xe2\x80\xa6 (300 bytes)' (known:", ERR },
    { { CPU, "--pattern", "@strides0", "--pattern", "@strides1", "--pattern", "@strides2", "--pattern", "@strides3",
        "--pattern", "@strides4", "--pattern", "@strides5", "--pattern", "@strides6", "--pattern", "@strides7",
        "--pattern", "@strides8", "--pattern", "@strides9", QUICK },
      2, "10000 patterns in one run (identical ones merged), more than the limit of 1000", ERR },
};

Test(cli_bad, every_case_exits_as_documented, .timeout = 600)
{
    size_t n = sizeof cases / sizeof cases[0];
    cr_assert_geq(n, 60);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        const bad_case *c = &cases[i];
        char *argv[33] = { 0 };
        bw_buf line = BW_BUF_INIT;
        for (int k = 0; k < 32 && c->argv[k]; k++) {
            argv[k] = expand(c->argv[k]);
            bw_buf_printf(&line, "%s%.40s", k ? " " : "", argv[k]);
        }
        tu_result r = tu_exec((const char *const *)argv, NULL);
        const char *text = c->where == OUT ? r.out : r.err;
        int status_ok = c->status == ANY_RUNTIME ? r.status == 0 || r.status == 1 : r.status == c->status;
        int text_ok = strstr(text, c->fragment) != NULL;
        cr_expect(status_ok, "case %zu (%s): exit %d, want %d; stderr: %.400s", i, bw_buf_str(&line), r.status,
                  c->status, r.err);
        cr_expect(text_ok, "case %zu (%s): no '%s' in %s: %.400s", i, bw_buf_str(&line), c->fragment,
                  c->where == OUT ? "stdout" : "stderr", text);
        /* never a crash, never a sanitizer's report */
        cr_expect(r.status < 128, "case %zu (%s): killed by signal %d", i, bw_buf_str(&line), r.status - 128);
        cr_expect(strstr(r.err, "Sanitizer") == NULL && strstr(r.err, "runtime error") == NULL,
                  "case %zu (%s): %.600s", i, bw_buf_str(&line), r.err);
        /* never a raw control byte on stderr (a hostile value could drive the terminal): only line ends */
        for (const char *p = r.err; *p; p++)
            if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f) {
                cr_expect(0, "case %zu (%s): raw byte 0x%02x on stderr: %.400s", i, bw_buf_str(&line),
                          (unsigned char)*p, r.err);
                failed++;
                break;
            }
        /* bad input is usage, a clear message, and nothing on stdout */
        if (c->status == 2)
            cr_expect_str_eq(r.out, "", "case %zu (%s): output on bad input", i, bw_buf_str(&line));
        failed += !status_ok || !text_ok;
        tu_result_free(&r);
        bw_buf_free(&line);
        for (int k = 0; argv[k]; k++)
            free(argv[k]);
    }
    cr_expect_eq(failed, 0, "%d of %zu cases failed", failed, n);
}
