#!/bin/bash
# Downloads, on a machine with the package registry (Debian 12, where bwlab
# was built), the runtime packages bwlab needs on a GPU machine that may
# lack them: ocl-icd-libopencl1, libjansson4, and the package of every other
# shared library `ldd` lists for the built bwlab, except the C library's own
# (libc6) and libgcc-s1, which every Linux has. The .deb files go to .deps/
# (ignored by git); tools/device-check.sh unpacks them there when needed.
#   tools/device-deps.sh             download (needs apt-get and the network)
#   tools/device-deps.sh --dry-run   only list the packages (pkg:arch=version)
# Environment: BWLAB_DEPS_DIR (default .deps), BWLAB_BUILD (default build),
# BWLAB_EXE (default $BWLAB_BUILD/src/cli/bwlab).
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
dry_run=0
case "${1:-}" in
    --dry-run|-n) dry_run=1 ;;
    "") ;;
    *) echo "usage: tools/device-deps.sh [--dry-run]" >&2; exit 2 ;;
esac
deps="${BWLAB_DEPS_DIR:-$root/.deps}"
build="${BWLAB_BUILD:-build}"
exe="${BWLAB_EXE:-$root/$build/src/cli/bwlab}"

# packages every Linux system already has
is_base() {
    case "$1" in
        libc6|libc6:*|libc6-*|libgcc-s1|libgcc-s1:*) return 0 ;;
    esac
    return 1
}
# the installed version, to download the very package bwlab was built against;
# the archive's candidate where that version is no longer served (a security
# update replaced it): a pin apt cannot fetch fails the whole download
pin() {
    local v
    v="$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true)"
    if [ -n "$v" ] && apt-cache madison "${1%%:*}" 2>/dev/null |
        awk -F'|' -v v="$v" '{ gsub(/ /, "", $2) } $2 == v { found = 1 } END { exit !found }'; then
        printf '%s=%s\n' "$1" "$v"
    else
        [ -z "$v" ] || echo "device-deps: $1 $v is no longer in the archive: the candidate instead" >&2
        printf '%s\n' "$1"
    fi
}
# the package that ships a library path (merged /usr: try the path, the
# /usr path, then the resolved one)
owner() {
    local p cand dir hit
    p="$1"
    dir="$(dirname "$p")"
    if [ -d "$dir" ]; then
        dir="$(cd "$dir" && pwd -P)"
    fi
    for cand in "$p" "/usr$p" "$dir/$(basename "$p")" "$(readlink -f "$p")"; do
        hit="$(dpkg -S "$cand" 2>/dev/null | grep -v '^diversion' | head -n 1 || true)"
        if [ -n "$hit" ]; then
            hit="${hit%%: *}"
            printf '%s\n' "${hit%%, *}"
            return 0
        fi
    done
    return 1
}

pkgs=(ocl-icd-libopencl1 libjansson4)
if [ -x "$exe" ]; then
    while read -r lib; do
        pkg="$(owner "$lib" || true)"
        if [ -z "$pkg" ]; then
            echo "device-deps: no package ships $lib: not carried" >&2
            continue
        fi
        is_base "$pkg" && continue
        base="${pkg%%:*}"
        dup=0
        for p in "${pkgs[@]}"; do
            [ "${p%%:*}" = "$base" ] && dup=1
        done
        [ "$dup" = 1 ] || pkgs+=("$pkg")
    done < <(ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
else
    echo "device-deps: no $exe yet (meson setup build && ninja -C build): only the base packages" >&2
fi

pinned=()
for p in "${pkgs[@]}"; do
    pinned+=("$(pin "$p")")
done
if [ "$dry_run" = 1 ]; then
    printf '%s\n' "${pinned[@]}"
    exit 0
fi

mkdir -p "$deps"
rm -f "$deps"/*.deb
echo "device-deps: downloading into $deps: ${pinned[*]}" >&2
(cd "$deps" && apt-get download "${pinned[@]}")
printf '%s\n' "${pinned[@]}" >"$deps/packages.txt"
echo "device-deps: downloaded:"
for deb in "$deps"/*.deb; do
    printf '  %s (%s bytes)\n' "$(basename "$deb")" "$(stat -c %s "$deb")"
done
