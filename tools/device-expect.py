#!/usr/bin/env python3
"""The GPU check's verdicts: every figure tools/device-check.sh measured,
beside the range data/gpu-expected.json expects for this device and that
range's source.

    tools/device-expect.py OUT [EXPECTED.json]

OUT is device-check.sh's results folder: run.json (the device's identity
and the bank rows), tune.json, ladder-unroll*.json, strides.json,
size-512M.json and size-4G.json, probe.json; a file that is missing makes
its lines say "not measured". Prints one line per check:

    STEP  WHAT  measured VALUE UNIT  expected RANGE  in range|OUTSIDE|no range  (SOURCE)

Exit status: 0 when it ran (an OUTSIDE line does not change it: the
ranges come from other machines and other days), 2 for bad arguments or
an expected-ranges file it cannot read.
"""
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fmt(v, unit):
    if v is None:
        return "not measured"
    if isinstance(v, float):
        text = "%.4g" % v if abs(v) < 100 else "%.0f" % v
    else:
        text = str(v)
    return text + (" " + unit if unit else "")


def verdict(v, rng):
    lo, hi = rng if rng else (None, None)
    if lo is None and hi is None:
        return "no range"
    if v is None:
        return "not measured"
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        return "OUTSIDE"
    return "in range"


def range_text(rng, unit):
    lo, hi = rng if rng else (None, None)
    if lo is None and hi is None:
        return "-"
    if lo is not None and hi is not None:
        return ("%g" % lo if lo == hi else "%g-%g" % (lo, hi)) + (" " + unit if unit else "")
    return (">= %g" % lo if lo is not None else "<= %g" % hi) + (" " + unit if unit else "")


def line(step, what, value, unit, check):
    rng = check.get("range") if check else None
    src = check.get("source", "no source") if check else "no expected range for this device"
    print("%-12s %-34s measured %-16s expected %-16s %-12s (%s)" %
          (step, what, fmt(value, unit), range_text(rng, unit), verdict(value, rng), src))


def rows(doc):
    return doc.get("results", []) if doc else []


def row(doc, pattern, access):
    for r in rows(doc):
        if r.get("pattern") == pattern and r.get("access") == access and r.get("status") == "ok":
            return r
    return None


def gbs(r):
    return r.get("effective_gbs") if r else None


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write("usage: tools/device-expect.py OUT [EXPECTED.json]\n")
        return 2
    out = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    exp_path = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "..", "data", "gpu-expected.json")
    expected = load(exp_path)
    if not expected or not isinstance(expected.get("devices"), list):
        sys.stderr.write("device-expect: cannot read the expected ranges %s\n" % exp_path)
        return 2
    run = load(os.path.join(out, "run.json"))
    dev = (run or {}).get("runs", [{}])[0].get("device") or {}
    name = dev.get("name") or "?"
    entry = next((e for e in expected["devices"] if all(s in name for s in e.get("name_all", []))), None)
    checks = entry["checks"] if entry else {}
    print("device: %s; expected ranges: %s" % (name, entry["name"] if entry else "none on record (every line says no range)"))

    # identity
    line("identity", "compute units", dev.get("compute_units"), "", checks.get("compute_units"))
    line("identity", "clock", dev.get("clock_mhz"), "MHz", checks.get("clock_mhz"))
    line("identity", "reported cache", dev.get("global_cache_bytes"), "B", checks.get("reported_cache_bytes"))

    # tune's peaks
    tune = load(os.path.join(out, "tune.json"))
    td = (tune or {}).get("devices", [{}])[0] if tune else {}
    line("tune", "read peak", td.get("peak_read_gbs"), "GB/s", checks.get("tune_read_gbs"))
    line("tune", "copy peak", td.get("peak_copy_gbs"), "GB/s", checks.get("tune_copy_gbs"))

    # the bytes-in-flight ladder: seq copy at each K, and the run's (auto) over tune's copy peak
    for path in sorted(glob.glob(os.path.join(out, "ladder-unroll*.json"))):
        doc = load(path)
        k = os.path.basename(path)[len("ladder-unroll"):-len(".json")]
        for p in ("seq", "seq:elem=8", "seq:elem=16"):
            for a in ("read", "copy"):
                v = gbs(row(doc, p, a))
                print("%-12s %-34s measured %s" % ("ladder", "%s %s at K = %s" % (p, a, k), fmt(v, "GB/s")))
    seq_copy = row(run, "seq", "copy")
    peak = td.get("peak_copy_gbs")
    auto = gbs(seq_copy) / peak if seq_copy and peak else None
    line("ladder", "seq copy (K = %s) / tune copy" % (seq_copy or {}).get("unroll", "?"), auto, "x",
         checks.get("ladder_seq_over_peak"))

    # granularity: read-mode strides against the DRAM-unit model, and the sector pairs
    strides = load(os.path.join(out, "strides.json"))
    seq_read = gbs(row(strides, "stride:s=1", "read"))
    unit = entry.get("stride_dram_unit_bytes") if entry else None
    for s in (2, 4, 8, 16, 32, 64):
        v = gbs(row(strides, "stride:s=%d" % s, "read"))
        ratio = v / seq_read if v and seq_read else None
        if unit:
            pred = 4.0 / min(4 * s, unit)
            rng = [round(pred * 0.85, 4), round(pred * 1.15, 4)] if s < 64 else [None, round(pred * 1.15, 4)]
            why = "the model with a %d-byte DRAM unit predicts %.3f of stride 1, within 15%%%s" % (
                unit, pred, "" if s < 64 else "; stride 64 may fall below it (TLB reach, channels)")
            check = {"range": rng, "unit": "x", "source": why}
        else:
            check = None
        line("granularity", "read stride %d / stride 1" % s, ratio, "x", check)
    probe = load(os.path.join(out, "probe.json"))
    pd = (probe or {}).get("devices", [{}])[0] if probe else {}
    pairs = pd.get("sector_pairs") or {}
    line("granularity", "split / adjacent sector pair", pairs.get("ratio"), "x", checks.get("pair_ratio"))

    # banks: the run's bank rows
    free = row(run, "bank:pitch=33,stride=1", "read")
    line("banks", "conflict-free local reads", gbs(free), "GB/s", checks.get("conflict_free_bank_gbs"))
    two = next((r for r in rows(run) if r.get("family") == "bank" and r.get("conflict_ways") == 2
                and r.get("status") == "ok"), None)
    slow = 1.0 / two["relative_to_seq"] if two and two.get("relative_to_seq") else None
    line("banks", "2-way slowdown", slow, "x", checks.get("bank_2way_slowdown"))
    line("banks", "probe's inferred banks", pd.get("inferred_banks"), "", {"range": [32, 32], "unit": "",
         "source": "32 four-byte banks per SM on every NVIDIA GPU since Kepler (CUDA C++ Programming Guide, shared memory)"}
         if "NVIDIA" in name else None)

    # the quick probe's latency
    mem = pd.get("memory") or {}
    line("latency", "memory, one chase", mem.get("latency_ns"), "ns", checks.get("memory_latency_ns"))

    # one working set against eight times it
    a = gbs(row(load(os.path.join(out, "size-512M.json")), "seq", "read"))
    b = gbs(row(load(os.path.join(out, "size-4G.json")), "seq", "read"))
    line("sizes", "seq read 512 MiB / 4 GiB", a / b if a and b else None, "x", checks.get("size_ratio"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
