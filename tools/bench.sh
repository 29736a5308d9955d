#!/bin/bash
# bwlab's seq against a native C11 + OpenMP loop over the same bytes, and two
# timings (a benchmark, not a test: its numbers are same-run ratios):
#   1. read and copy, interleaved A B A B over --pairs pairs: A is
#      `bwlab run --pattern seq` (effective_gbs), B is tools/native_stream on
#      the same number of bytes per array; prints each pair's ratio
#      bwlab / native and their min, median and max. Read needs
#      `bwlab run --access read`; without it the read pairs are skipped.
#   1b. one run of the patterns that move seq's bytes (offsets, matrix rows
#      of --size's bytes, reverse, broadcast, permute) at --budget 45 (9
#      with --quick): each one's speed relative to seq, target 0.9 for the
#      offsets and rows;
#   2. `bwlab model --pattern P --launch --items 67108864` for every
#      catalogue pattern: the slowest, with its wall time;
#   2b. the wall time of `bwlab compare` over 100 result files (copies of
#      tests/data/results/pocl-cpu.json);
#   3. --runs default `bwlab run`s back to back (default 3; results as JSON
#      to temporary files): each one's wall time, how many of its rows met
#      the stopping rule ("stable": true) out of all its rows, its peak
#      memory (the maximum resident set size, from wait4's rusage of the
#      child, via python3, which meson brings) and its reference checks;
#      then across the runs: how far each row's "vs seq" (relative_to_seq)
#      moved (largest minus smallest), how many rows stayed within 0.05,
#      and the identity rows (a row whose addresses, active lanes, access
#      mode and element size are its reference's, e.g. stride:s=1 and
#      offset:bytes=0 beside seq): their largest distance from 1 in any run.
#      After each run, tools/native_stream --mode strided measures the
#      memory system's own ratio of stride 2 to stride 1 copy (median of
#      20 paired rounds); its spread across the runs is how far a ratio
#      of two memory-bound loops moved on this host, the drift no tool
#      can pair away, printed beside bwlab's stride:s=2 copy.
#   1c. with BABELSTREAM (the path of BabelStream's OpenCL binary, ocl-stream,
#      built outside this tree from its own sources: cmake -DMODEL=ocl
#      -DCMAKE_BUILD_TYPE=Release, then cmake --build), each copy pair
#      also runs its float Copy on the same bytes (--float -s N -o Copy
#      --csv, 20 times); the ratio per pair like for like: bwlab's best
#      launch (best_gbs) over BabelStream's best (max_mbytes_per_sec), and
#      beside it bwlab's median over BabelStream's mean (avg_runtime). Without it the script says so.
# Then each target beside its measured value, PASS or MISS. Targets on PoCL
# here: median ratio >= 0.9 for read and >= 0.95 for copy against the
# native loop, seq copy >= BabelStream's Copy (median ratio >= 1), the model under 1 s,
# compare of 100 files under 1 s, the default run under 60 s. They depend on the machine, so a MISS does not
# change the exit status: 0 when everything ran, 1 when something failed
# (a run, a check, a parse), 2 for bad options.
#
# The native loop always runs on the host CPU (OpenMP, OMP_NUM_THREADS
# threads, default one per CPU): the comparison means something only when
# the bwlab device is this CPU (PoCL's CPU device, the default on a machine
# without a GPU).
#
#   tools/bench.sh [--pairs N] [--size BYTES] [--device SPEC] [--budget S] [--reps N] [--runs N] [--keep DIR] [--quick]
#     --pairs N       A B pairs per access (default 5)
#     --size BYTES    bytes per array, as bwlab's --size (default 256M); the
#                     native loop moves the bytes bwlab's seq reports
#     --device SPEC   passed to bwlab (default: bwlab's default device)
#     --budget S      bwlab's budget per seq run (default 6: from 5 s on a run
#                     calibrates its --unroll K, as the default run does)
#     --reps N        timed repetitions per native run (default 20)
#     --runs N        default runs in part 3 (default 3)
#     --keep DIR      keep part 3's results in DIR (default-1.json, ...),
#                     for a look at what moved between the runs
#     --quick         2 pairs of 32M, budget 1, 5 native repetitions, no
#                     default-run timing: a smoke run, not a measurement
#                     for the targets (options given still win)
set -eu
export LC_ALL=C
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "bench.sh: $*" >&2; exit 1; }
bad() { echo "bench.sh: $*" >&2; usage >&2; exit 2; }

pairs="" size="" budget="" reps="" quick=0 runs=3 keep=
dev_args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --pairs) [ $# -ge 2 ] || bad "--pairs needs a value"; pairs=$2; shift ;;
        --size) [ $# -ge 2 ] || bad "--size needs a value"; size=$2; shift ;;
        --device) [ $# -ge 2 ] || bad "--device needs a value"; dev_args=(--device "$2"); shift ;;
        --budget) [ $# -ge 2 ] || bad "--budget needs a value"; budget=$2; shift ;;
        --reps) [ $# -ge 2 ] || bad "--reps needs a value"; reps=$2; shift ;;
        --runs) [ $# -ge 2 ] || bad "--runs needs a value"; runs=$2; shift ;;
        --keep) [ $# -ge 2 ] || bad "--keep needs a directory"; keep=$2; shift ;;
        --quick) quick=1 ;;
        -h|--help) usage; exit 0 ;;
        *) bad "unknown option $1" ;;
    esac
    shift
done
if [ "$quick" = 1 ]; then
    pairs=${pairs:-2} size=${size:-32M} budget=${budget:-1} reps=${reps:-5}
else
    pairs=${pairs:-5} size=${size:-256M} budget=${budget:-6} reps=${reps:-20}
fi
case "$pairs" in ''|*[!0-9]*|0) bad "--pairs must be a whole number from 1: $pairs" ;; esac
case "$reps" in ''|*[!0-9]*|0) bad "--reps must be a whole number from 1: $reps" ;; esac
[ "${dev_args[1]:-}" != all ] || bad "--device all: the bench compares one device with the host CPU"
[ -z "$keep" ] || [ -d "$keep" ] || mkdir -p "$keep" || bad "--keep: cannot make the directory $keep"

# ---- build what it needs ----
tools/setup.sh
ninja -C build tools/native_stream >/dev/null ||
    die "cannot build tools/native_stream (it needs OpenMP: dependency('openmp'))"
bwlab=build/src/cli/bwlab
native=build/tools/native_stream
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0

now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
# the first value of "key": "string" or "key": number in pretty-printed JSON
jfield() {
    sed -n -e 's/^ *"'"$1"'": "\(.*\)",\{0,1\}$/\1/p' -e 's/^ *"'"$1"'": \([^",]*\),\{0,1\}$/\1/p' | head -n 1
}

# ---- header ----
"$bwlab" devices "${dev_args[@]}" --format json >"$tmp/devices.json" 2>"$tmp/err" ||
    die "bwlab devices ${dev_args[*]} failed: $(cat "$tmp/err")"
if [ ${#dev_args[@]} -eq 0 ]; then
    idx=$(jfield default_device <"$tmp/devices.json")
    "$bwlab" devices --device "$idx" --format json >"$tmp/devices.json"
fi
dev_name=$(jfield name <"$tmp/devices.json")
dev_type=$(jfield type <"$tmp/devices.json")
dev_index=$(jfield index <"$tmp/devices.json")
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
has_access=0
"$bwlab" help run 2>&1 | grep -q -- '--access' && has_access=1

echo "bwlab bench, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(uname -srm))"
echo "host CPU      ${cpu_model:-unknown} ($(nproc) CPUs online)"
echo "bwlab device  $dev_index: $dev_name ($dev_type, $(jfield compute_units <"$tmp/devices.json") compute units)"
echo "              platform $(jfield platform_version <"$tmp/devices.json"); driver $(jfield driver_version <"$tmp/devices.json")"
echo "native loop   $native on the host CPU (C11 + OpenMP, ${OMP_NUM_THREADS:+OMP_NUM_THREADS=}${OMP_NUM_THREADS:-one thread per CPU}):" \
    "the comparison is only meaningful for a CPU device"
[ "$dev_type" = cpu ] || echo "              NOTE: the bwlab device is a $dev_type, not this CPU: the ratios compare different hardware"
echo "settings      --size $size per array, $pairs pairs, bwlab seq --budget $budget per run," \
    "native $reps timed repetitions per run$([ "$quick" = 1 ] && echo ' (--quick: a smoke run)')"
echo "              bwlab: effective_gbs (requested bytes / median event time); native: bytes / median wall time;"
echo "              read GB/s = bytes read / time, copy GB/s = (bytes read + written) / time"
load_note() {
    awk -v n="$(nproc)" -v when="$1" '{ printf "load average  %s %s over 1 min on %d CPUs%s\n", when, $1, n,
        ($1 > n / 2 ? ": other work competes for the CPUs, the ratios will scatter" : "") }' /proc/loadavg
}
load_note "before the pairs:"
echo

# ---- 1. read and copy pairs ----
# seq's row of a bwlab CSV: status effective_gbs load_bytes store_bytes
seq_row() {
    awk '
    function split_csv(line, f,    n, i, c, v, q) {
        n = 0; v = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (q) {
                if (c == "\"") { if (substr(line, i + 1, 1) == "\"") { v = v c; i++ } else q = 0 }
                else v = v c
            } else if (c == "\"") q = 1
            else if (c == ",") { f[++n] = v; v = "" }
            else v = v c
        }
        f[++n] = v
        return n
    }
    NR == 1 { n = split_csv($0, h); for (i = 1; i <= n; i++) col[h[i]] = i; next }
    { split_csv($0, f)
      if (f[col["pattern"]] == "seq")
          print f[col["status"]], f[col["effective_gbs"]], f[col["requested_load_bytes"]], f[col["requested_store_bytes"]],
                f[col["best_gbs"]] }'
}
# bwlab_seq ACCESS: sets gbs, load_bytes, store_bytes
bwlab_seq() {
    local extra=() rc=0 status
    [ "$1" = read ] && extra=(--access read)
    "$bwlab" run --pattern seq --size "$size" --budget "$budget" --format csv --quiet \
        "${dev_args[@]}" "${extra[@]}" >"$tmp/run.csv" 2>"$tmp/err" || rc=$?
    read -r status gbs load_bytes store_bytes best_gbs < <(seq_row <"$tmp/run.csv") || true
    if [ "$rc" != 0 ] || [ "${status:-}" != ok ]; then
        echo "bench.sh: bwlab run --pattern seq ($1) exited $rc, seq status ${status:-missing}:" >&2
        cat "$tmp/err" >&2
        return 1
    fi
}
# native_run MODE BYTES: sets ngbs
native_run() {
    local out
    out=$("$native" --size "$2" --mode "$1" --reps "$reps") || {
        echo "bench.sh: $native --size $2 --mode $1 failed: $out" >&2
        return 1
    }
    case "$out" in *" check=ok"*) ;; *) echo "bench.sh: native $1 not checked: $out" >&2; return 1 ;; esac
    ngbs=$(printf '%s\n' "$out" | sed -n 's/.* median_gbs=\([^ ]*\).*/\1/p')
    nthreads=$(printf '%s\n' "$out" | sed -n 's/.* threads=\([^ ]*\).*/\1/p')
}
# babel_copy BYTES: sets bsgbs, BabelStream's best float Copy on BYTES per
# array (its max_mbytes_per_sec), and bsavg, its mean (the bytes over
# avg_runtime: read and written, 2 x BYTES)
babel_copy() {
    local out
    out=$("$BABELSTREAM" --float -s "$(($1 / 4))" -n 20 -o Copy --csv 2>&1) || {
        echo "bench.sh: $BABELSTREAM failed: $out" >&2
        return 1
    }
    bsgbs=$(printf '%s\n' "$out" | awk -F, '$1 == "Copy" { printf "%.3f", $5 / 1000 }')
    bsavg=$(printf '%s\n' "$out" | awk -F, -v b="$1" '$1 == "Copy" && $8 > 0 { printf "%.3f", 2 * b / $8 / 1e9 }')
    [ -n "$bsgbs" ] || { echo "bench.sh: no Copy row from $BABELSTREAM: $out" >&2; return 1; }
}
# stats: min median max of the numbers on standard input
stats() {
    sort -g | awk '{ v[++n] = $1 } END {
        if (!n) { print "- - -"; exit }
        m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        printf "%.3f %.3f %.3f\n", v[1], m, v[n] }'
}

accesses="copy"
if [ "$has_access" = 1 ]; then
    accesses="read copy"
else
    echo "read: bwlab has no --access read yet (bwlab help run): the read pairs are skipped"
fi
: >"$tmp/ratios"
printf '%-10s %-6s %12s %12s %8s\n' pair access "bwlab GB/s" "native GB/s" ratio
i=0
while [ "$i" -lt "$pairs" ]; do
    i=$((i + 1))
    for a in $accesses; do
        bwlab_seq "$a" || die "pair $i: bwlab failed"
        if [ "$a" = read ] && [ "$store_bytes" != 0 ] && [ -z "${store_noted:-}" ]; then
            echo "  note: bwlab's read run also stores $store_bytes bytes, counted in its effective_gbs"
            store_noted=1
        fi
        [ -z "${native_bytes:-}" ] || [ "$native_bytes" = "$load_bytes" ] ||
            die "bwlab's seq moved $load_bytes bytes, earlier $native_bytes"
        native_bytes=$load_bytes
        native_run "$a" "$load_bytes" || die "pair $i: native_stream failed"
        ratio=$(awk -v b="$gbs" -v n="$ngbs" 'BEGIN { printf "%.3f", b / n }')
        printf '%-10s %-6s %12.2f %12.2f %8s\n' "$i/$pairs" "$a" "$gbs" "$ngbs" "$ratio"
        echo "$a $ratio $gbs $ngbs" >>"$tmp/ratios"
        if [ "$a" = copy ] && [ -n "${BABELSTREAM:-}" ]; then
            babel_copy "$load_bytes" || die "pair $i: BabelStream failed"
            # like for like: bwlab's best launch against BabelStream's best
            # of 20; its median against BabelStream's mean beside it
            bratio=$(awk -v b="$best_gbs" -v n="$bsgbs" 'BEGIN { printf "%.3f", b / n }')
            mratio=$(awk -v b="$gbs" -v n="$bsavg" 'BEGIN { printf "%.3f", (n > 0 ? b / n : 0) }')
            printf '%-10s %-6s %12.2f %12s %8s   (BabelStream Copy, best of 20, against bwlab best %.2f; median %.2f / mean %s: %s)\n' \
                "$i/$pairs" babel "$bsgbs" "" "$bratio" "$best_gbs" "$gbs" "${bsavg:--}" "$mratio"
            echo "babel $bratio $best_gbs $bsgbs" >>"$tmp/ratios"
        fi
    done
done
echo "(each bwlab and native run moved $native_bytes bytes per array; native: $nthreads OpenMP threads)"
[ -n "${BABELSTREAM:-}" ] || echo "BabelStream: not run (set BABELSTREAM to its OpenCL binary, ocl-stream, built with cmake -DMODEL=ocl)"
load_note "after the pairs: "
echo
printf '%-6s %-28s %7s %7s %7s   %s\n' access "ratio bwlab / native" min median max "median GB/s bwlab, native"
for a in read copy babel; do
    if ! grep -q "^$a " "$tmp/ratios"; then
        [ "$a" = babel ] || printf '%-6s %s\n' "$a" "not measured (bwlab has no --access read yet)"
        continue
    fi
    read -r lo med hi < <(awk -v a="$a" '$1 == a { print $2 }' "$tmp/ratios" | stats)
    read -r _ bmed _ < <(awk -v a="$a" '$1 == a { print $3 }' "$tmp/ratios" | stats)
    read -r _ nmed _ < <(awk -v a="$a" '$1 == a { print $4 }' "$tmp/ratios" | stats)
    printf '%-6s %-28s %7s %7s %7s   %s, %s\n' "$a" "($pairs pairs)" "$lo" "$med" "$hi" "$bmed" "$nmed"
    awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(hi > 1.2 * lo) }' &&
        echo "       the ratios spread over 20% (max/min $(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.2f", hi / lo }')): a busy machine; take the median with care, or run again"
    eval "med_$a=$med"
done
echo

# ---- 1b. patterns that move seq's bytes: their speed relative to seq ----
# offsets that are multiples of 4 bytes and matrix rows should run at seq's
# speed (target 0.9); the lane-permuting ones get the cheapest kernel form
# bwlab finds, and the run says what bounds them (twin: kernel or memory).
# The matrices hold --size's bytes: n = sqrt(size / 4) in whole 64s, and
# n - 64, whose row index needs a division (not a shift); the run gets 5 s
# a pattern, since a 2 s run of nine patterns times each 3 times, whose
# ratios scatter by 30% here.
size_bytes=$(awk -v s="$size" 'BEGIN { n = s + 0; u = toupper(substr(s, length(s)));
    m = u == "K" ? 1024 : u == "M" ? 1048576 : u == "G" ? 1073741824 : 1; printf "%.0f", n * m }')
mat_n=$(awk -v b="$size_bytes" 'BEGIN { n = int(sqrt(b / 4) / 64) * 64; print n < 128 ? 128 : n }')
same_traffic="seq,offset:bytes=4,offset:bytes=64,offset:bytes=128,matrix-row:n=$mat_n,matrix-row:n=$((mat_n - 64)),reverse,broadcast,permute"
same_budget=$(( quick ? 9 : 45 ))
"$bwlab" run "${dev_args[@]}" --pattern "$same_traffic" --size "$size" --budget "$same_budget" --format csv \
    >"$tmp/same.csv" 2>"$tmp/err" || die "bwlab run --pattern $same_traffic failed: $(cat "$tmp/err")"
echo "patterns with seq's modeled traffic, one run (copy, --budget $same_budget), relative to seq (measured):"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { p = $col["pattern"]; if (p == "seq") next
      target = p ~ /^(offset|matrix-row)/ ? "target >= 0.9: " ($col["relative_to_seq"] >= 0.9 ? "PASS" : "MISS") : "no target"
      printf "  %-20s %6.3f   form %-6s  twin x %-6s bound %-7s  %s\n", p, $col["relative_to_seq"], $col["kernel_form"],
          $col["twin_ratio"] == "" ? "-" : sprintf("%.2f", $col["twin_ratio"]), $col["bound"] == "" ? "-" : $col["bound"], target }' \
    "$tmp/same.csv"
echo

# ---- 2. the launch model, every catalogue pattern ----
"$bwlab" patterns --format json >"$tmp/patterns.json" || die "bwlab patterns failed"
specs=$(sed -n 's/^ *"spec": "\([^"]*\)",\{0,1\}$/\1/p' "$tmp/patterns.json")
[ -n "$specs" ] || die "no patterns in bwlab patterns --format json"
slow_spec="" slow_s=0 npat=0
for p in $specs; do
    t0=$(now)
    "$bwlab" model --pattern "$p" --launch --items 67108864 >/dev/null 2>"$tmp/err" ||
        die "bwlab model --pattern $p --launch --items 67108864 failed: $(cat "$tmp/err")"
    t=$(since "$t0")
    npat=$((npat + 1))
    printf '%s %s\n' "$p" "$t" >>"$tmp/model"
    if awk -v t="$t" -v s="$slow_s" 'BEGIN { exit !(t > s) }'; then
        slow_spec=$p slow_s=$t
    fi
done
echo "bwlab model --launch --items 67108864, wall time per catalogue pattern (s):"
awk '{ printf "  %s %s", $1, $2 } NR % 6 == 0 { printf "\n" } END { if (NR % 6) printf "\n" }' "$tmp/model"
echo "slowest of $npat: $slow_spec, $slow_s s"
echo

# ---- 2b. bwlab compare over 100 result files ----
# 100 copies of the checked-in PoCL result file, each with its own date so
# that none is an identical duplicate (those are counted once), merged
# into the table; no OpenCL needed
mkdir -p "$tmp/results"
for i in $(seq 1 100); do
    sed "0,/\"date\": \"[^\"]*\"/s//\"date\": \"2026-01-01T00:00:00Z copy $i\"/" \
        tests/data/results/pocl-cpu.json >"$tmp/results/run-$i.json"
done
t0=$(now)
"$bwlab" compare "$tmp/results" >"$tmp/compare.txt" 2>"$tmp/err" || die "bwlab compare of 100 files failed: $(cat "$tmp/err")"
compare_s=$(since "$t0")
grep -q '^bwlab compare: 100 files' "$tmp/compare.txt" || die "bwlab compare did not merge the 100 files: $(head -1 "$tmp/compare.txt")"
echo "bwlab compare of 100 result files ($(du -sh "$tmp/results" | cut -f1)): $compare_s s wall"
echo

# ---- 3. the default run ----
# rusage CMD...: runs CMD (stdout and stderr as given) and prints
# "WALL_S MAXRSS_KIB STATUS" on fd 3; the RSS is the child's peak, from
# wait4's rusage (a few MB of it are the launching python3's, before exec)
rusage() {
    python3 -c '
import os, sys, time
t0 = time.monotonic()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ)
_, st, ru = os.wait4(pid, 0)
os.write(3, ("%.3f %d %d\n" % (time.monotonic() - t0, ru.ru_maxrss, os.waitstatus_to_exitcode(st))).encode())
' "$@"
}
# stable_rows FILE: "STABLE ROWS", the results whose "stable" is true and all results
stable_rows() {
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1])).get("results", [])
print(sum(1 for x in r if x.get("stable") is True), len(r))
' "$1"
}
# across FILE...: each run's reference checks, then each row's vs seq
# spread across the runs, the rows within 0.05, and the identity rows'
# largest distance from 1; last line "WITHIN ROWS IDENTITY_MAX" on fd 3
across() {
    python3 -c '
import json, os, sys
docs = [json.load(open(f)) for f in sys.argv[1:]]
def key(r): return (r.get("pattern"), r.get("access"), r.get("elem_bytes"))
for k, d in enumerate(docs, 1):
    for r in d.get("results", []):
        c = r.get("reference_check")
        if c:
            print("  run %d: reference %s (%s): own / control %s, %s (measured)" % (
                k, r["pattern"], r.get("access"), "-" if c.get("ratio") is None else "%.3f" % c["ratio"], c.get("verdict")))
rows = {}
for d in docs:
    res = d.get("results", [])
    # the addresses of a row: its expression (a leading "0 + " is no offset) and its active lanes
    def addr(r): return ((r.get("expression") or "").removeprefix("0 + "), r.get("active_lanes"))
    exprs = {(r.get("pattern"), r.get("access"), r.get("elem_bytes")): addr(r) for r in res}
    for r in res:
        v = r.get("relative_to_seq")
        if v is None:
            continue
        ref = (r.get("reference"), r.get("access"), r.get("elem_bytes"))
        ident = r.get("reference") != r.get("pattern") and exprs.get(ref) == addr(r)
        rows.setdefault(key(r), {"v": [], "ident": ident})["v"].append(v)
within = n = 0
ident_max = 0.0
moved = []
for k, e in rows.items():
    if len(e["v"]) != len(docs):
        continue
    n += 1
    spread = max(e["v"]) - min(e["v"])
    within += spread <= 0.05
    moved.append((spread, k))
    if e["ident"]:
        dev = max(abs(x - 1) for x in e["v"])
        ident_max = max(ident_max, dev)
        print("  identity row %s (%s): vs seq %s, largest distance from 1: %.3f (measured)" % (
            k[0], k[1], " ".join("%.3f" % x for x in e["v"]), dev))
moved.sort(reverse=True)
print("  rows whose vs seq moved most: " + ", ".join("%s (%s) %.3f" % (k[0], k[1], s) for s, k in moved[:5]))
os.write(3, ("%d %d %.4f\n" % (within, n, ident_max)).encode())
' "$@"
}
# drift FILE: the native stride-2 / stride-1 copy ratio, appended to FILE
drift() {
    local out
    out=$("$native" --size "${native_bytes:-268435456}" --mode strided --stride 2 --reps 20 2>&1) || {
        echo "bench.sh: native_stream --mode strided failed: $out" >&2
        return 1
    }
    sed -n 's/.* ratio_median=\([0-9.]*\).*/\1/p' <<<"$out" >>"$1"
}
run_s="" within="" across_rows="" ident_max=""
if [ "$quick" = 1 ]; then
    echo "default bwlab run: not timed (--quick)"
else
    files=()
    for k in $(seq 1 "$runs"); do
        rss_kib="" rc="" stable="" rows="" one_s=""
        read -r one_s rss_kib rc < <(rusage "$bwlab" run "${dev_args[@]}" --format json --output "$tmp/default-$k.json" \
            3>&1 >/dev/null 2>"$tmp/err") || true
        [ -s "$tmp/default-$k.json" ] && read -r stable rows < <(stable_rows "$tmp/default-$k.json" 2>/dev/null) || true
        echo "default bwlab run $k of $runs${dev_args[*]:+ ${dev_args[*]}} (its default budget; results as JSON to a file):"
        echo "  wall time      ${one_s:--} s (measured)"
        echo "  stable rows    ${stable:--} of ${rows:--} (measured: the stopping rule met, \"stable\": true)"
        echo "  max RSS        $(awk -v k="${rss_kib:-0}" 'BEGIN { printf "%.2f GB (%d KiB)", k * 1024 / 1e9, k }')" \
            "(measured: the maximum resident set size)"
        if [ "${rc:-1}" != 0 ] || [ -z "$rows" ]; then
            echo "default bwlab run $k${dev_args[*]:+ ${dev_args[*]}}: exited ${rc:-?}$([ -z "$rows" ] && echo ', no results read'):" >&2
            cat "$tmp/err" >&2
            failed=1
        else
            files+=("$tmp/default-$k.json")
            [ -z "$keep" ] || cp "$tmp/default-$k.json" "$keep/" || failed=1
        fi
        drift "$tmp/drift" || failed=1
        # the slowest run is the one held to the target
        if [ -n "$one_s" ] && { [ -z "$run_s" ] || awk -v a="$one_s" -v b="$run_s" 'BEGIN { exit !(a > b) }'; }; then
            run_s=$one_s
        fi
    done
    if [ "${#files[@]}" -ge 2 ]; then
        echo "across the ${#files[@]} default runs:"
        { read -r within across_rows ident_max < <(across "${files[@]}" 3>&1 >&4); } 4>&1 || true
        echo "  rows whose vs seq stayed within 0.05 across the runs: ${within:--} of ${across_rows:--} (measured)"
    fi
    if [ -s "$tmp/drift" ]; then
        python3 -c '
import json, sys
nat = [float(x) for x in open(sys.argv[1]).read().split()]
bw = []
for f in sys.argv[2:]:
    for r in json.load(open(f)).get("results", []):
        if r.get("pattern") == "stride:s=2" and r.get("access") == "copy" and r.get("relative_to_seq") is not None:
            bw.append(r["relative_to_seq"])
print("  the memory system'"'"'s own drift, native copy stride 2 / stride 1 (median of 20 paired rounds after each run):")
print("    native  %s, spread %.3f (measured)" % (" ".join("%.3f" % x for x in nat), max(nat) - min(nat)))
if bw:
    print("    bwlab stride:s=2 copy vs seq  %s, spread %.3f (measured)" % (" ".join("%.3f" % x for x in bw), max(bw) - min(bw)))
' "$tmp/drift" "${files[@]}" || failed=1
    fi
fi
echo

# ---- targets ----
verdict() { awk -v v="$1" -v t="$2" -v op="$3" 'BEGIN { ok = op == ">=" ? v >= t : v < t; print ok ? "PASS" : "MISS" }'; }
echo "targets (PoCL on this machine class; machine-dependent: reported, not enforced)$([ "$quick" = 1 ] && echo ', --quick: not comparable')"
for t in "read 0.9 native" "copy 0.95 native" "babel 1 BabelStream"; do
    read -r a want whom <<<"$t"
    eval "m=\${med_$a:-}"
    name="seq ${a/babel/copy} / $whom >= $want"
    [ "$a" = babel ] && name="seq copy / BabelStream >= 1 (bests)"
    if [ -n "$m" ]; then
        printf '  %-36s %10s   %s\n' "$name" "$m" "$(verdict "$m" "$want" '>=')"
    else
        printf '  %-36s %10s   %s\n' "$name" "-" "not measured"
    fi
done
printf '  %-36s %10s   %s\n' "model, slowest pattern < 1 s" "$slow_s s" "$(verdict "$slow_s" 1 '<')"
printf '  %-36s %10s   %s\n' "compare of 100 result files < 1 s" "$compare_s s" "$(verdict "$compare_s" 1 '<')"
if [ -n "$run_s" ]; then
    printf '  %-36s %10s   %s\n' "default run < 60 s (the slowest)" "$run_s s" "$(verdict "$run_s" 60 '<')"
else
    printf '  %-36s %10s   %s\n' "default run < 60 s" "-" "not measured"
fi
if [ -n "$across_rows" ] && [ "$across_rows" -gt 0 ]; then
    share=$(awk -v w="$within" -v n="$across_rows" 'BEGIN { printf "%.3f", w / n }')
    printf '  %-36s %10s   %s\n' "rows within 0.05 across runs >= 0.9" "$share" "$(verdict "$share" 0.9 '>=')"
    printf '  %-36s %10s   %s\n' "identity rows within 0.02 of 1" "$ident_max" "$(verdict "$ident_max" 0.02 '<')"
else
    printf '  %-36s %10s   %s\n' "rows within 0.05 across runs >= 0.9" "-" "not measured"
fi
exit "$failed"
