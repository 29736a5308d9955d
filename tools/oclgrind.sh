#!/bin/sh
# Runs every kernel family of cl/ under Oclgrind, an independent OpenCL
# implementation that checks each memory access, with --check-api (API
# misuse) and --data-races, at warp widths W = 1 and W = 32. Fails on any
# invalid access, data race, API error or kernel that does not build.
#   tools/oclgrind.sh [build dir, default build]
# How:
#  - gather (plain, scalar, read and 32/64-bit index forms), bw_expr, bank
#    transpose and record run inside 'bwlab run' under the oclgrind wrapper (it
#    preloads Oclgrind's OpenCL runtime, so Oclgrind is the only platform),
#    at a 4 KiB working set. W comes from a profile that matches the device
#    "Oclgrind Simulator" in a copy of data/profiles.json ($BWLAB_DATA_DIR).
#    The test-only hooks (src/base/bw_hook.h) build the scalar form, which
#    bwlab otherwise builds only on a CPU, and cut bank patterns to 2
#    work-groups (2048 take hours in a simulator).
#  - stream (bwlab tune), roofline (bwlab roofline and run) and probe
#    (bwlab probe) size their launches from the device and the clock, far
#    beyond what a simulator runs: their kernels run alone under
#    oclgrind-kernel on small launches, at the vector widths bwlab uses.
# Oclgrind 21.10 cannot use --uninitialized here: it aborts on the LLVM
# 'freeze' instruction its own front end emits, so uninitialised reads are
# not checked.
set -eu
cd "$(dirname "$0")/.."
build="${1:-build}"
bwlab="$PWD/$build/src/cli/bwlab"
command -v oclgrind >/dev/null || { echo "oclgrind.sh: oclgrind not found (apt-get install oclgrind)" >&2; exit 1; }
[ -x "$bwlab" ] || { echo "oclgrind.sh: $bwlab not built" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bwlab-oclgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
# what Oclgrind says when it finds something (it exits 0 all the same)
problems='Invalid (read|write)|data race|Oclgrind - OpenCL runtime error|Uninitialized|divergence|Unaligned|error:'

check() { # name, log, exit status
    if [ "$3" != 0 ] || grep -Eq "$problems" "$2"; then
        echo "oclgrind: $1: FAILED (exit $3)" >&2
        grep -E -A6 "$problems" "$2" | head -n 40 >&2 || tail -n 20 "$2" >&2
        failed=1
    else
        echo "oclgrind: $1: clean"
    fi
}

for W in 1 32; do
    mkdir -p "$work/w$W"
    # data/profiles.json with a first profile for the simulator at width W
    sed "0,/\"profiles\": \[/s//\"profiles\": [\n    { \"name\": \"oclgrind-w$W\", \"title\": \"Oclgrind, W = $W (tools\/oclgrind.sh)\",\n      \"lanes\": $W, \"sector\": 32, \"line\": 128, \"banks\": 32, \"bank_width\": 4,\n      \"match\": { \"name\": [\"oclgrind\"] }, \"sources\": [\"tools\/oclgrind.sh\"] },/" \
        data/profiles.json >"$work/w$W/profiles.json"
    for run in "copy|--pattern seq,stride:s=3,offset:bytes=4,aos:struct=12,field=4,permute,broadcast,one-lane,mixed:s=8,matrix-col:n=32 --expr 4*(g^5)+(t<3?64:0)" \
               "read|--pattern seq,stride:s=2,aos:struct=16,field=8,elem=8 --access read" \
               "index64|--pattern seq:elem=16,reverse,matrix-row:n=32 --index 64" \
               "bank|--pattern bank:pitch=32,bank:pitch=33,bank:pitch=32,stride=2" \
               "transpose|--pattern transpose:version=naive,transpose:version=tiled,transpose:version=padded" \
               "record|--pattern record:fields=3,n=256,record:fields=3,layout=soa,n=256,record:type=uchar,n=256"; do
        name=${run%%|*}
        # shellcheck disable=SC2086
        set +e
        BWLAB_DATA_DIR="$work/w$W" BWLAB_TEST_FAULTS="scalar_form;bank_groups@2" \
            timeout 300 oclgrind --check-api --data-races "$bwlab" run --device Oclgrind ${run#*|} \
            --size 4K --budget 0.05 --rse 100 --no-roofline --quiet --format json --output "$work/out.json" 2>"$work/err"
        st=$?
        set -e
        # exit 1 is expected: launches this small are below the timing floor
        # ("not measurable"). What counts: Oclgrind's reports, and every
        # pattern validated against the host on the simulator's results.
        [ "$st" = 1 ] && st=0
        grep -v "not measurable" "$work/err" >"$work/log" || true
        python3 - "$work/out.json" "oclgrind-w$W" >>"$work/log" 2>&1 <<'PY' || st=9
import json, sys
d = json.load(open(sys.argv[1]))
bad = [r["pattern"] + ": " + str(r["validation"]) for r in d["results"] if r["validation"] != "ok"]
if d["profile"]["name"] != sys.argv[2]:
    bad.append("error: profile " + d["profile"]["name"] + ", not " + sys.argv[2])
for b in bad:
    print("error: not validated: " + b)
sys.exit(1 if bad or not d["results"] else 0)
PY
        check "bwlab run, W=$W, $name ($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$work/out.json" 2>/dev/null || echo 0) patterns)" "$work/log" "$st"
    done
done

# standalone kernels: simulator files (kernel, name, global, local, args)
cd "$work"
for V in 1 4; do
    { echo "#define RF_V $V"; cat "$OLDPWD/cl/roofline.cl"; } >"rf$V.cl"
    # rf_peak: 16 work-items x 8 chains x V floats
    printf 'rf%s.cl\nrf_peak\n16 1 1\n8 1 1\n<size=%d fill=0>\n<size=4 float>\n0.5\n<size=4 float>\n0.25\n<size=4 uint>\n3\n' \
        "$V" $((16 * 8 * V * 4)) >peak.sim
    # rf_sweep: 16 work-items in groups of 8, 8 vectors of V floats each
    printf 'rf%s.cl\nrf_sweep\n16 1 1\n8 1 1\n<size=%d float range=0:1:%d>\n<size=64 fill=0>\n<size=4 float>\n0.5\n<size=4 float>\n0.25\n<size=4 uint>\n2\n' \
        "$V" $((16 * 8 * V * 4)) $((16 * 8 * V - 1)) >sweep.sim
    # rf_matmul: n = 8, T = 4: 4 groups of 16, two local tiles of T*T floats
    printf 'rf%s.cl\nrf_matmul\n64 1 1\n16 1 1\n<size=256 float range=0:1:63>\n<size=256 float range=0:1:63>\n<size=256 fill=0>\n<size=4 uint>\n8\n<size=4 uint>\n4\n<size=64>\n<size=64>\n' \
        "$V" >matmul.sim
    for k in peak sweep matmul; do
        set +e; timeout 120 oclgrind-kernel --data-races "$k.sim" >"$k.log" 2>&1; st=$?; set -e
        check "roofline.cl rf_$k, V=$V" "$k.log" "$st"
    done
done
for layout in 0 1 2; do
    for copy in 0 1; do
        # 64 work-items in groups of 32, 4 vectors of 4 uints each
        { printf '#define ST_KERNEL st\n#define ST_COPY %d\n#define ST_V 4\n#define ST_K 4\n#define ST_L 32\n#define ST_LAYOUT %d\n' \
            "$copy" "$layout"; cat "$OLDPWD/cl/stream.cl"; } >st.cl
        out=$((copy ? 4096 : 256))
        printf 'st.cl\nst\n64 1 1\n32 1 1\n<size=4096 uint range=0:1:1023>\n<size=%d fill=0>\n' "$out" >st.sim
        set +e; timeout 120 oclgrind-kernel --data-races st.sim >st.log 2>&1; st=$?; set -e
        check "stream.cl layout $layout, $( [ "$copy" = 1 ] && echo copy || echo read)" st.log "$st"
    done
done
# probe.cl (bwlab probe): each kernel on a launch that stays in bounds
# (probe_chase follows next[i] = i + 1 for fewer steps than elements)
cp "$OLDPWD/cl/probe.cl" pr.cl
for sim in \
    "probe_read|16 1 1|8 1 1|<size=256 uint range=0:1:63>|<size=64 fill=0>|<size=4 uint>|4|<size=4 uint>|4|<size=4 uint>|1|<size=4 uint>|2" \
    "probe_read_cpu|2 1 1|1 1 1|<size=512 uint range=0:1:127>|<size=8 fill=0>|<size=4 uint>|16|<size=4 uint>|2" \
    "probe_read_wrap|32 1 1|16 1 1|<size=256 uint range=0:1:63>|<size=128 fill=0>|<size=4 uint>|64|<size=4 uint>|8" \
    "probe_chase|4 1 1|4 1 1|<size=64 uint range=1:1:16>|<size=16 fill=0>|<size=16 fill=0>|<size=64 fill=0>|<size=4 uint>|8" \
    "probe_stride|8 1 1|8 1 1|<size=256 uint range=0:1:63>|<size=32 fill=0>|<size=4 uint>|4|<size=4 uint>|4|<size=4 uint>|1|<size=4 uint>|2|<size=4 uint>|2" \
    "probe_offset|4 1 1|4 1 1|<size=320 uint range=0:1:79>|<size=16 fill=0>|<size=4 uint>|2|<size=4 uint>|2|<size=4 uint>|1|<size=4 uint>|8|<size=4 uint>|3|<size=4 uint>|2" \
    "probe_pair|4 1 1|4 1 1|<size=1024 uint range=0:1:255>|<size=16 fill=0>|<size=4 uint>|2|<size=4 uint>|2|<size=4 uint>|1|<size=4 uint>|32|<size=4 uint>|2" \
    "probe_empty|4 1 1|4 1 1|<size=16 fill=0>" \
    "probe_lanes|32 1 1|8 1 1|<size=128 fill=0>|<size=4 uint>|4" \
    "probe_banks|32 1 1|32 1 1|<size=128 fill=0>|<size=16384>|<size=4 uint>|3|<size=4 uint>|4"; do
    k=${sim%%|*}
    printf 'pr.cl\n%s\n' "$(echo "$sim" | tr '|' '\n')" >pr.sim
    set +e; timeout 120 oclgrind-kernel --data-races pr.sim >pr.log 2>&1; st=$?; set -e
    check "probe.cl $k" pr.log "$st"
done
cd "$OLDPWD"
[ "$failed" = 0 ] || { echo "oclgrind: kernels with problems (see above)" >&2; exit 1; }
echo "oclgrind: every kernel family clean at W = 1 and 32"
