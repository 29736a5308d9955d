#!/bin/sh
# Golden outputs: what bwlab prints for inputs that need no device (compare
# and report of the sample result files, the model of every catalogue
# pattern, the pattern list, the help of every command). A refactor keeps
# them byte-identical; a deliberate change records them anew in its own
# commit:   tests/golden/golden.sh BWLAB_EXE SOURCE_ROOT --update
set -eu
exe=$1
root=$2
mode=${3:-check}
dir=$root/tests/golden/out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# inputs copied to a fixed relative layout: reports and compare print the
# paths they were given, and the report its command line
mkdir -p "$tmp/in"
cp "$root"/tests/data/results/*.json "$root"/tests/data/probe/*.json "$tmp/in/"
cd "$tmp"
inputs=$(ls in/*.json | sort)
mkdir -p got

# case NAME ARGS...: stdout and exit status of bwlab ARGS (stderr too: the
# messages are part of the contract)
case_() {
    name=$1
    shift
    set +e
    "$exe" "$@" >"got/$name" 2>"got/$name.err"
    echo "exit $?" >>"got/$name.err"
    set -e
}

for f in table md csv json; do
    # shellcheck disable=SC2086
    case_ "compare.$f" compare $inputs --format "$f"
done
# the merged document's date is the moment it was written
sed 's/^  "date": "[0-9T:-]*Z",$/  "date": "(time)",/' got/compare.json >got/compare.json.tmp
mv got/compare.json.tmp got/compare.json
# shellcheck disable=SC2086
case_ compare.baseline compare $inputs --baseline h100
# shellcheck disable=SC2086
case_ compare.md.mode-copy compare $inputs --mode copy --format md
# the report's HTML, with its one moment of writing masked
# shellcheck disable=SC2086
case_ report.html.log report $inputs --output report.html
sed 's/written [0-9T:-]*Z by/written (time) by/' report.html >got/report.html
# shellcheck disable=SC2086
case_ compare.html.log compare $inputs --format html --output compare.html
sed 's/written [0-9T:-]*Z by/written (time) by/' compare.html >got/compare.html

case_ patterns.json patterns --format json
case_ patterns.table patterns
for spec in $(sed -n 's/^ *"spec": "\(.*\)",$/\1/p' got/patterns.json); do
    case_ "model.$spec.json" model --pattern "$spec" --format json
    case_ "model.$spec.launch.json" model --pattern "$spec" --launch --items 100000 --format json
done
for p in amd-cdna3 intel-xe cpu; do
    case_ "model.stride-s=3.$p.json" model --pattern stride:s=3 --profile "$p" --format json
done
case_ help help
case_ help.--help --help
for c in model run tune roofline probe patterns devices compare report help; do
    case_ "help.$c" help "$c"
    case_ "help.$c.--help" "$c" --help
done

if [ "$mode" = --update ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    cp got/* "$dir/"
    echo "golden: recorded $(ls got | wc -l) files in $dir"
    exit 0
fi
if diff -r "$dir" got >diff.txt; then
    echo "golden: $(ls got | wc -l) outputs identical"
    exit 0
fi
head -200 diff.txt
echo "golden: outputs differ from tests/golden/out (above); if the change is deliberate, record them with $0 EXE ROOT --update in a commit that says so" >&2
exit 1
