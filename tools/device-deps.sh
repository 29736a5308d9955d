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
# One dpkg -S and one apt-cache call for all libraries and packages: each
# call reads the whole package database (seconds on a machine with the test
# tools), and a call per library took 50-100 s.

# the package that ships each library path, one line per library (empty
# where none does); merged /usr: tried as the path, the /usr path, the
# resolved folder, then the resolved file
owners() {
    local -a libs cands
    local -A owner_of
    local lib dir line pkg path i
    mapfile -t libs
    for lib in "${libs[@]}"; do
        dir="$(dirname "$lib")"
        if [ -d "$dir" ]; then
            dir="$(cd "$dir" && pwd -P)"
        fi
        cands+=("$lib" "/usr$lib" "$dir/$(basename "$lib")" "$(readlink -f "$lib")")
    done
    [ "${#libs[@]}" -gt 0 ] || return 0
    while IFS= read -r line; do
        case "$line" in diversion*) continue ;; esac
        pkg="${line%%: *}"
        path="${line#*: }"
        [ -n "${owner_of[$path]:-}" ] || owner_of[$path]="${pkg%%, *}"
    done < <(dpkg -S "${cands[@]}" 2>/dev/null || true)
    for ((i = 0; i < ${#libs[@]}; i++)); do
        pkg=""
        for path in "${cands[@]:i*4:4}"; do
            if [ -n "${owner_of[$path]:-}" ]; then
                pkg="${owner_of[$path]}"
                break
            fi
        done
        printf '%s\t%s\n' "${libs[i]}" "$pkg"
    done
}

pkgs=(ocl-icd-libopencl1 libjansson4)
if [ -x "$exe" ]; then
    while IFS=$'\t' read -r lib pkg; do
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
    done < <(ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | owners)
else
    echo "device-deps: no $exe yet (meson setup build && ninja -C build): only the base packages" >&2
fi

# The installed version, to download the very package bwlab was built
# against; the archive's candidate where that version is no longer served (a
# security update replaced it): a pin apt cannot fetch fails the whole
# download. "name|version" for every version the archive serves:
served="$(apt-cache madison "${pkgs[@]%%:*}" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); print $1 "|" $2 }')"
pinned=()
for p in "${pkgs[@]}"; do
    v="$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)"
    if [ -n "$v" ] && grep -qxF "${p%%:*}|$v" <<<"$served"; then
        pinned+=("$p=$v")
    else
        [ -z "$v" ] || echo "device-deps: $p $v is no longer in the archive: the candidate instead" >&2
        pinned+=("$p")
    fi
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
