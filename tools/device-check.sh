#!/bin/bash
# Runs bwlab on a Linux GPU machine that has the vendor's driver but maybe no
# OpenCL loader, no ICD file, no development packages and no network:
#   tools/device-check.sh [--setup-only] [--] [bwlab run options...]
#
# 1. finds the GPU vendor's OpenCL library (ldconfig cache, then a bounded
#    search of the driver folders); none: explains what to install, exit 3;
# 2. uses the system's OpenCL loader and libjansson where present, else
#    unpacks the packages carried in .deps/ (tools/device-deps.sh) into a
#    private prefix (never into /) and points LD_LIBRARY_PATH at it;
# 3. writes a private OCL_ICD_VENDORS folder: the system's own .icd files,
#    copied, plus one for each vendor library no system .icd names;
# 4. uses the carried build/ (or builds, when meson, ninja and the headers
#    are here), then runs `bwlab devices` (table and JSON), `bwlab tune` of
#    the run's device (--budget 30, so that the run has its peaks) and
#    `bwlab run --device gpu --format json --budget 60 [options...]` (a default
#    the options give themselves is left out: bwlab refuses an option twice), each
#    under `timeout`, then (time allowing) the bytes-in-flight ladder (seq,
#    seq:elem=8 and seq:elem=16 in read and copy mode at --unroll 1, 2, 4 and
#    8, one run each, on the run's device, then `bwlab compare` of the four),
#    read-mode strides 1 to 64 (strides.json), a 512 MiB and a 4 GiB seq
#    read (size-512M.json, size-4G.json), `bwlab probe --device gpu --quick`
#    (sector pairs, banks, latency) and `bwlab report` of the run and the
#    probe, all within BWLAB_CHECK_SECONDS (default 480);
# 5. prints every step's measured value beside the range data/gpu-expected.json
#    expects for the device and that range's source (tools/device-expect.py,
#    expect.txt; needs python3);
# 6. writes the results and a log under $OUT (default ./device-results), and
#    the run, tune and probe JSON under data/results/ (BWLAB_RESULTS_DIR),
#    named by device and date (DEVICE-DATE-run.json, ...), a copy of them
#    under $OUT/data/results too, so that they come back from a lent machine.
#
# --setup-only does 1-3 and prints the resulting environment as `export`
# lines (eval-able) instead of building or running anything; it writes
# nothing under $OUT.
#
# Environment (mostly for tests and unusual machines):
#   OUT                        results folder (default ./device-results)
#   BWLAB_DRIVER_DIRS          colon-separated folders to search for vendor
#                              libraries instead of the default ones (the
#                              ldconfig cache is then not consulted either)
#   BWLAB_SYSTEM_VENDORS_DIR   the system's ICD folder (/etc/OpenCL/vendors)
#   BWLAB_DEPS_DIR             carried .deb packages (default .deps)
#   BWLAB_PRIVATE_DIR          private prefix and ICD folder (default .device-env)
#   BWLAB_FORCE_PRIVATE_LOADER=1  act as if the system had no loader/libraries
#   BWLAB_BUILD                build folder (default build); BWLAB_EXE the binary
#   BWLAB_CHECK_SECONDS        total time budget (default 480)
#   BWLAB_RESULTS_DIR          where the named results go (default data/results)
#   BWLAB_TUNE_OPTIONS         options of the tune (default: --budget 30)
#   BWLAB_LADDER_OPTIONS       options of each ladder run (default: --budget 8)
# Exit status: that of `bwlab run` (124: it ran out of time), 3 when no GPU
# OpenCL library is found, 1 for a set-up failure.
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
start_s=$(date +%s)

setup_only=0
if [ "${1:-}" = "--setup-only" ]; then
    setup_only=1
    shift
fi
if [ "${1:-}" = "--" ]; then
    shift
fi
case "${1:-}" in
    -h|--help)
        sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0 ;;
esac

VENDOR_LIBS="libnvidia-opencl.so.1 libamdocl64.so libamdocl-orca64.so libigdrcl.so libRusticlOpenCL.so.1 libMesaOpenCL.so.1"
SEARCH_DEPTH=4
system_vendors="${BWLAB_SYSTEM_VENDORS_DIR:-/etc/OpenCL/vendors}"
deps="${BWLAB_DEPS_DIR:-$root/.deps}"
private="${BWLAB_PRIVATE_DIR:-$root/.device-env}"
build="${BWLAB_BUILD:-build}"
exe="${BWLAB_EXE:-$root/$build/src/cli/bwlab}"
total_s="${BWLAB_CHECK_SECONDS:-480}"
results_dir="${BWLAB_RESULTS_DIR:-$root/data/results}"
out="${OUT:-$PWD/device-results}"
log=/dev/null

# ---- messages: standard error, and the log in a full run ----
say() {
    printf 'device-check: %s\n' "$*" >&2
    printf '%s\n' "$*" >>"$log"
}
die() {
    local code=$1
    shift
    say "error: $*"
    exit "$code"
}
# one shell-quoted word, for the printed `export` lines
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

if [ "$setup_only" = 0 ]; then
    mkdir -p "$out"
    out="$(cd "$out" && pwd)"
    log="$out/device-check.log"
    : >"$log"
    say "bwlab device check, $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) ($(uname -srm)); results in $out"
fi

# ---- 1. the vendor's OpenCL library ----
if [ -n "${BWLAB_DRIVER_DIRS:-}" ]; then
    IFS=: read -r -a search_dirs <<<"$BWLAB_DRIVER_DIRS"
    use_ldconfig=0
else
    search_dirs=()
    absent=""
    for d in /usr/lib64 /usr/lib /lib64 /usr/local/nvidia /usr/local/cuda* /opt/rocm* /opt/intel /usr/local/lib64 /usr/local/lib; do
        if [ -d "$d" ]; then
            search_dirs+=("$d")
        else
            absent="$absent $d"
        fi
    done
    use_ldconfig=1
fi

found=()        # absolute paths of the vendor libraries, first found first
found_real=()   # their resolved paths, to drop duplicates
add_found() {
    local real r
    real="$(readlink -f "$1" 2>/dev/null || printf '%s' "$1")"
    for r in "${found_real[@]+"${found_real[@]}"}"; do
        [ "$r" = "$real" ] && return 0
    done
    found+=("$1")
    found_real+=("$real")
}
ldcache=""
if [ "$use_ldconfig" = 1 ] && command -v ldconfig >/dev/null 2>&1; then
    ldcache="$(ldconfig -p 2>/dev/null || true)"
elif [ "$use_ldconfig" = 1 ] && [ -x /sbin/ldconfig ]; then
    ldcache="$(/sbin/ldconfig -p 2>/dev/null || true)"
fi
name_args=()
for n in $VENDOR_LIBS; do
    [ ${#name_args[@]} -gt 0 ] && name_args+=(-o)
    name_args+=(-name "$n")
    if [ -n "$ldcache" ]; then
        while read -r p; do
            [ -n "$p" ] && [ -e "$p" ] && add_found "$p"
        done < <(printf '%s\n' "$ldcache" | awk -v n="$n" '$1 == n && $NF ~ /^\// { print $NF }')
    fi
done
for d in "${search_dirs[@]+"${search_dirs[@]}"}"; do
    [ -d "$d" ] || continue
    while read -r p; do
        [ -n "$p" ] && add_found "$p"
    done < <(timeout 30 find -H "$d" -maxdepth "$SEARCH_DEPTH" \( "${name_args[@]}" \) \
                 \( -type f -o -type l \) 2>/dev/null | sort || true)
done
# a system .icd that names a vendor library by an existing absolute path
if [ -d "$system_vendors" ]; then
    for icd in "$system_vendors"/*.icd; do
        [ -f "$icd" ] || continue
        lib="$(head -n 1 "$icd" | tr -d '\r')"
        case "$lib" in /*) ;; *) continue ;; esac
        for n in $VENDOR_LIBS; do
            [ "$(basename "$lib")" = "$n" ] && [ -e "$lib" ] && add_found "$lib"
        done
    done
fi

if [ ${#found[@]} -eq 0 ]; then
    where="${search_dirs[*]+"${search_dirs[*]}"}"
    [ "$use_ldconfig" = 1 ] && where="the ldconfig cache (ldconfig -p), $where"
    {
        echo "error: no GPU OpenCL library found."
        echo "  looked for: $VENDOR_LIBS"
        echo "  in: ${where:-nothing} (find -maxdepth $SEARCH_DEPTH), and the ICD files in $system_vendors"
        [ -z "${absent:-}" ] || echo "  not present here:$absent"
        echo "  install the GPU vendor's OpenCL driver, then run this again:"
        echo "    NVIDIA: the driver's OpenCL library libnvidia-opencl.so.1 (Debian/Ubuntu: libnvidia-compute-* or"
        echo "            nvidia-opencl-icd; in a container: NVIDIA_DRIVER_CAPABILITIES=compute,utility)"
        echo "    AMD:    ROCm's rocm-opencl-runtime (libamdocl64.so)"
        echo "    Intel:  intel-opencl-icd, the compute-runtime (libigdrcl.so)"
        echo "    Mesa:   rusticl, mesa-opencl-icd (libRusticlOpenCL.so.1)"
        echo "  a library elsewhere: BWLAB_DRIVER_DIRS=/its/folder:/another $0"
    } | while IFS= read -r line; do say "$line"; done
    exit 3
fi
for f in "${found[@]}"; do
    say "vendor OpenCL library: $f"
done

# ---- 2. the loader and libraries: the system's, else the carried packages ----
missing_sonames() {
    if [ -x "$exe" ]; then
        ldd "$exe" 2>/dev/null | awk '/=> not found/ { print $1 }'
    else
        local s
        for s in libOpenCL.so.1 libjansson.so.4; do
            if ! { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true; } | grep -q "^[[:space:]]*$s "; then
                echo "$s"
            fi
        done
    fi
}
unpack_deb() {
    # into $prefix only: dpkg-deb -x, else ar + tar
    if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -x "$1" "$prefix"
    elif command -v ar >/dev/null 2>&1; then
        local member
        member="$(ar t "$1" | grep '^data\.tar' | head -n 1)"
        ar p "$1" "$member" | tar -x -a -f - -C "$prefix" 2>/dev/null ||
            ar p "$1" "$member" | tar -x -J -f - -C "$prefix"
    else
        die 1 "cannot unpack $1: neither dpkg-deb nor ar is installed"
    fi
}
deb_lists() {
    if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -c "$1"
    else
        local member
        member="$(ar t "$1" | grep '^data\.tar' | head -n 1)"
        ar p "$1" "$member" | tar -t -v -a -f - 2>/dev/null
    fi
}

prefix="$private/root"
mkdir -p "$private"
rm -rf "$prefix" "$private/vendors"
lib_path=""
if [ "${BWLAB_FORCE_PRIVATE_LOADER:-0}" = 1 ]; then
    missing="(forced: BWLAB_FORCE_PRIVATE_LOADER=1)"
else
    missing="$(missing_sonames | tr '\n' ' ' | sed 's/ $//')"
fi
if [ -n "$missing" ]; then
    say "missing on this system: $missing; using the packages in $deps"
    debs=()
    for deb in "$deps"/*.deb; do
        [ -f "$deb" ] && debs+=("$deb")
    done
    if [ ${#debs[@]} -eq 0 ]; then
        die 1 "no packages in $deps: run tools/device-deps.sh where the package registry is, and carry .deps/ here (or install ocl-icd-libopencl1 and libjansson4)"
    fi
    mkdir -p "$prefix"
    prefix_dirs() {
        find "$prefix" -maxdepth 5 -name '*.so*' \( -type f -o -type l \) -printf '%h\n' 2>/dev/null |
            sort -u | paste -sd: -
    }
    # a library unpacked for a missing one may need others the system lacks
    # too (cairo's pixman, fontconfig, ...): ldd names those only once the
    # first are found, so unpack, look again, until nothing more is needed
    unpacked=" "
    while :; do
        more=0
        for deb in "${debs[@]}"; do
            case "$unpacked" in *" $deb "*) continue ;; esac
            use=1
            if [ "${BWLAB_FORCE_PRIVATE_LOADER:-0}" != 1 ]; then
                use=0
                listing="$(deb_lists "$deb")"
                for s in $missing; do
                    printf '%s\n' "$listing" | grep -qE "/$s( |\$)" && use=1
                done
            fi
            if [ "$use" = 1 ]; then
                unpack_deb "$deb"
                unpacked="$unpacked$deb "
                more=1
                say "unpacked $(basename "$deb") into $prefix"
            fi
        done
        [ "$more" = 1 ] && [ "${BWLAB_FORCE_PRIVATE_LOADER:-0}" != 1 ] || break
        missing="$(LD_LIBRARY_PATH="$(prefix_dirs)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" missing_sonames |
            tr '\n' ' ' | sed 's/ $//')"
        [ -n "$missing" ] || break
        say "still missing: $missing"
    done
    lib_path="$(prefix_dirs)"
else
    say "using the system's OpenCL loader and libraries"
fi
# a vendor library outside the ldconfig cache may need its neighbours
for f in "${found[@]}"; do
    d="$(dirname "$f")"
    if ! printf '%s\n' "$ldcache" | grep -qF "=> $f"; then
        case ":$lib_path:" in *":$d:"*) ;; *) lib_path="${lib_path:+$lib_path:}$d" ;; esac
    fi
done
if [ -n "$lib_path" ]; then
    export LD_LIBRARY_PATH="$lib_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# ---- 3. the ICD folder: the system's .icd files and one per vendor library ----
vendors="$private/vendors"
mkdir -p "$vendors"
names_in_system=""
if [ -d "$system_vendors" ]; then
    for icd in "$system_vendors"/*.icd; do
        [ -f "$icd" ] || continue
        cp "$icd" "$vendors/"
        lib="$(head -n 1 "$icd" | tr -d '\r')"
        names_in_system="$names_in_system $(basename "$lib")"
        say "system ICD kept: $(basename "$icd") -> $lib"
    done
fi
for f in "${found[@]}"; do
    b="$(basename "$f")"
    case " $names_in_system " in
        *" $b "*) say "$b: named by a system ICD, not written again" ;;
        *)
            printf '%s\n' "$f" >"$vendors/bwlab-$b.icd"
            say "ICD written: $vendors/bwlab-$b.icd -> $f" ;;
    esac
done
export OCL_ICD_VENDORS="$vendors"
export BWLAB_KERNEL_DIR="$root/cl"
export BWLAB_DATA_DIR="$root/data"

print_env() {
    echo "export OCL_ICD_VENDORS=$(quote "$OCL_ICD_VENDORS")"
    echo "export LD_LIBRARY_PATH=$(quote "${LD_LIBRARY_PATH:-}")"
    echo "export BWLAB_KERNEL_DIR=$(quote "$BWLAB_KERNEL_DIR")"
    echo "export BWLAB_DATA_DIR=$(quote "$BWLAB_DATA_DIR")"
    echo "# vendor libraries: ${found[*]}"
    if [ -d "$prefix" ]; then
        echo "# private prefix: $prefix"
    else
        echo "# private prefix: none (the system's loader and libraries)"
    fi
}
if [ "$setup_only" = 1 ]; then
    print_env
    exit 0
fi
print_env >"$out/env.sh"
for icd in "$vendors"/*.icd; do
    printf '%s: %s\n' "$(basename "$icd")" "$(head -n 1 "$icd")"
done >"$out/icd.txt"

# ---- 4. bwlab: the carried build, else build it here ----
if [ ! -x "$exe" ]; then
    if command -v meson >/dev/null 2>&1 && command -v ninja >/dev/null 2>&1 &&
        pkg-config --exists OpenCL jansson 2>/dev/null; then
        say "no $exe: building it in $build"
        [ -f "$build/build.ninja" ] || meson setup "$build" -Dtests=false >>"$log" 2>&1 ||
            die 1 "meson setup failed (see $log)"
        ninja -C "$build" src/cli/bwlab >>"$log" 2>&1 || die 1 "the build failed (see $log)"
    else
        die 1 "no $exe, and no meson, ninja and OpenCL/jansson headers to build it: build it where the package registry is (meson setup build && ninja -C build) and carry build/ here"
    fi
fi
ldd "$exe" >"$out/ldd.txt" 2>&1 || true
if grep -q 'not found' "$out/ldd.txt"; then
    die 1 "$exe cannot load: $(grep 'not found' "$out/ldd.txt" | tr -s ' \t\n' ' ') (see $out/ldd.txt; glibc older than the build machine's, or a package missing from $deps)"
fi

left() { echo $((total_s - ($(date +%s) - start_s))); }
# runs bwlab under timeout: SIGINT first (bwlab writes what it measured),
# SIGKILL 15 s later
bw() {
    local limit=$1 rc=0
    shift
    timeout -s INT -k 15 "$limit" "$exe" "$@" || rc=$?
    return "$rc"
}

say "bwlab devices"
rc=0
bw 60 devices >"$out/devices.txt" 2>>"$log" || rc=$?
cat "$out/devices.txt" >&2
cat "$out/devices.txt" >>"$log"
bw 60 devices --format json >"$out/devices.json" 2>>"$log" || true
if [ "$rc" != 0 ]; then
    say "bwlab devices exited $rc; the loader's view (OCL_ICD_DEBUG=7):"
    OCL_ICD_DEBUG=7 timeout -k 5 30 "$exe" devices >>"$log" 2>&1 || true
    [ "$rc" = 3 ] && die 3 "no OpenCL platform loaded: see $log (the loader's messages) and $out/icd.txt"
fi

# the defaults only where the caller gives none: bwlab refuses an option given twice
run_args=(run)
has_budget=0 has_device=0 has_format=0
device=gpu prev=
for a in "$@"; do
    case "$a" in
    --budget|--budget=*) has_budget=1 ;;
    --device) has_device=1 ;;
    --device=*) has_device=1 device="${a#--device=}" ;;
    --format|--format=*) has_format=1 ;;
    esac
    [ "$prev" = --device ] && device="$a"
    prev="$a"
done
[ "$has_device" = 1 ] || run_args+=(--device gpu)
[ "$has_format" = 1 ] || run_args+=(--format json)
[ "$has_budget" = 1 ] || run_args+=(--budget 60)
run_args+=("$@")
# the tune first: the run then reads its peaks from the tuning cache
read -r -a tune_opts <<<"${BWLAB_TUNE_OPTIONS:---budget 30}"
limit=$(( $(left) - 200 ))
if [ "$limit" -ge 20 ]; then
    say "bwlab tune --device $device ${tune_opts[*]} (at most $limit s)"
    trc=0
    bw "$limit" tune --device "$device" --format json --output "$out/tune.json" "${tune_opts[@]}" \
        2>"$out/tune.stderr" || trc=$?
    cat "$out/tune.stderr" >>"$log"
    say "bwlab tune exited $trc"
else
    say "only $(left) s left: no tune"
fi
limit=$(( $(left) - 20 ))
[ "$limit" -ge 30 ] || die 124 "only $(left) s of the ${total_s} s left: not starting bwlab run"
say "bwlab ${run_args[*]} (at most $limit s)"
rc=0
bw "$limit" "${run_args[@]}" >"$out/run.json" 2>"$out/run.stderr" || rc=$?
cat "$out/run.stderr" >>"$log"
case "$rc" in
    0) say "bwlab run: all patterns measured" ;;
    124|130) say "bwlab run: stopped after $limit s; what was measured is in run.json"; rc=124 ;;
    *) say "bwlab run exited $rc (see run.stderr)" ;;
esac
# The bytes-in-flight ladder: the same bytes per work-item-instruction at K
# independent items per work-item (docs/model.md, "Unroll"): where seq
# grows with K, one item per work-item could not keep enough requests in
# flight. Each K is a run of its own; `bwlab compare` lines them up. It
# does not change the exit status.
read -r -a ladder_opts <<<"${BWLAB_LADDER_OPTIONS:---budget 8}"
ladder=()
for k in 1 2 4 8; do
    limit=$(( $(left) - 80 ))
    if [ "$limit" -lt 30 ]; then
        say "only $(left) s left: the ladder stops before --unroll $k"
        break
    fi
    say "bwlab run --device $device --unroll $k: the bytes-in-flight ladder (at most $limit s)"
    lrc=0
    bw "$limit" run --device "$device" --pattern seq,seq:elem=8,seq:elem=16 --access both --unroll "$k" \
        --no-roofline --format json --output "$out/ladder-unroll$k.json" "${ladder_opts[@]}" \
        2>>"$out/ladder.stderr" || lrc=$?
    [ "$lrc" = 0 ] || say "ladder --unroll $k exited $lrc (see ladder.stderr)"
    [ -s "$out/ladder-unroll$k.json" ] && ladder+=("$out/ladder-unroll$k.json")
done
if [ "${#ladder[@]}" -gt 1 ]; then
    bw 60 compare "${ladder[@]}" >"$out/ladder.txt" 2>>"$out/ladder.stderr" || true
    cat "$out/ladder.txt" >&2
fi
# granularity in read mode (strides 1 to 64), then one working set against
# eight times it; BWLAB_LADDER_OPTIONS as the ladder (a --size there wins)
extra() { # NAME LIMIT ARGS...: one more run, time allowing
    local name=$1 need=$2 xrc=0
    shift 2
    local limit=$(( $(left) - need ))
    if [ "$limit" -lt 20 ]; then
        say "only $(left) s left: no $name"
        return 0
    fi
    say "bwlab run --device $device $* ($name, at most $limit s)"
    bw "$limit" run --device "$device" --no-roofline --format json --output "$out/$name.json" "$@" \
        2>>"$out/$name.stderr" || xrc=$?
    [ "$xrc" = 0 ] || say "$name exited $xrc (see $name.stderr)"
}
has_size=0
for a in "${ladder_opts[@]}"; do
    case "$a" in --size|--size=*) has_size=1 ;; esac
done
extra strides 70 --access read --pattern stride:s=1,stride:s=2,stride:s=4,stride:s=8,stride:s=16,stride:s=32,stride:s=64 \
    "${ladder_opts[@]}"
if [ "$has_size" = 1 ]; then
    extra size-512M 60 --access read --pattern seq "${ladder_opts[@]}"
    extra size-4G 50 --access read --pattern seq "${ladder_opts[@]}"
else
    extra size-512M 60 --access read --pattern seq --size 512M "${ladder_opts[@]}"
    extra size-4G 50 --access read --pattern seq --size 4G "${ladder_opts[@]}"
fi
# the quick probe (the inferred memory system) and the HTML report of both,
# when time is left; neither changes the exit status, which is the run's
limit=$(( $(left) - 20 ))
if [ "$limit" -ge 45 ]; then
    say "bwlab probe --device $device --quick (at most $limit s)"
    prc=0
    bw "$limit" probe --device "$device" --quick --format json --output "$out/probe.json" 2>"$out/probe.stderr" || prc=$?
    cat "$out/probe.stderr" >>"$log"
    say "bwlab probe exited $prc"
else
    say "only $(left) s left: no probe"
fi
reports=()
for f in "$out/run.json" "$out/probe.json"; do
    [ -s "$f" ] && reports+=("$f")
done
if [ "${#reports[@]}" -gt 0 ]; then
    bw 60 report "${reports[@]}" --output "$out/report.html" 2>>"$log" || say "bwlab report exited $?"
fi
# every step beside its expected range and source
if command -v python3 >/dev/null 2>&1; then
    python3 "$root/tools/device-expect.py" "$out" >"$out/expect.txt" 2>>"$log" || say "device-expect exited $?"
    cat "$out/expect.txt" >&2
    cat "$out/expect.txt" >>"$log"
else
    say "no python3: the expected ranges (data/gpu-expected.json) are not printed"
fi
# the named copies: DEVICE-DATE-{run,tune,probe}.json, the device as its
# run names it (letters and digits, the rest one '-')
if [ -s "$out/run.json" ]; then
    name=$(sed -n '/"runs": \[/,$p' "$out/run.json" | grep -m1 '"name"' | sed 's/.*"name": *"\([^"]*\)".*/\1/')
    slug=$(printf '%s' "${name:-device}" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/^-//; s/-$//')
    day=$(date -u +%Y-%m-%d)
    mkdir -p "$results_dir" "$out/data/results"
    for kind in run tune probe; do
        if [ -s "$out/$kind.json" ]; then
            cp "$out/$kind.json" "$results_dir/$slug-$day-$kind.json"
            cp "$out/$kind.json" "$out/data/results/$slug-$day-$kind.json"
        fi
    done
    say "results named $slug-$day-{run,tune,probe}.json in $results_dir and $out/data/results"
fi
say "done in $(( $(date +%s) - start_s )) s: $out/{device-check.log,devices.txt,devices.json,tune.json,run.json,run.stderr,ladder-unroll*.json,ladder.txt,strides.json,size-512M.json,size-4G.json,probe.json,report.html,expect.txt,env.sh,icd.txt,ldd.txt}"
exit "$rc"
