#!/usr/bin/env bash
# Times grundy's sequence engine against Beling's ogsolve (crates.io) on the same
# machine in the same run, and checks that both give the same values.
#
#   scripts/bench-vs-ogsolve.sh                # 10^7 values of 0.6, 0.16, 0.106
#   N=1000000 scripts/bench-vs-ogsolve.sh      # fewer values
#   CODES="0.16 0.106" scripts/bench-vs-ogsolve.sh
#
# ogsolve is installed into a scratch folder ($SCRATCH, default a temporary one), never
# into the repository. The values are compared on the first $CHECK_N heaps (default
# 100000) through ogsolve's -p output.
set -euo pipefail

N=${N:-10000000}
CODES=${CODES:-"0.6 0.16 0.106"}
CHECK_N=${CHECK_N:-100000}
SCRATCH=${SCRATCH:-$(mktemp -d /tmp/ogsolve-scratch.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

if [ ! -x "$SCRATCH/bin/ogsolve" ]; then
    echo "installing ogsolve into $SCRATCH (not part of the repository)" >&2
    cargo install --quiet --root "$SCRATCH" ogsolve
fi
OGSOLVE=$SCRATCH/bin/ogsolve

(cd "$ROOT" && cargo build --quiet --release -p grundy --example sequence_bench)
OURS=$CARGO_TARGET_DIR/release/examples/sequence_bench

seconds() { # run a command, print its wall-clock seconds
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "N = $N values per game (heaps 0..N-1 for ogsolve -n N-1)"
printf '%-8s %12s %12s %8s %s\n' code "ogsolve s" "grundy s" ratio "values agree"
for code in $CODES; do
    # Same values? Compare the first CHECK_N heaps.
    theirs=$("$OGSOLVE" -m rc2 -p -n $((CHECK_N - 1)) "$code" | sed -n 's/^ *nimbers: //p' | tr ' ' '\n' | sed '/^$/d' | md5sum)
    ours=$("$OURS" "$code" $((CHECK_N - 1)) --print | md5sum)
    agree=no
    [ "$theirs" = "$ours" ] && agree=yes
    t_theirs=$(seconds "$OGSOLVE" -m rc2 -n $((N - 1)) "$code")
    t_ours=$(seconds "$OURS" "$code" $((N - 1)))
    ratio=$(awk -v a="$t_theirs" -v b="$t_ours" 'BEGIN { printf "%.3f", a / b }')
    printf '%-8s %12.2f %12.2f %7.2fx %s\n' "$code" "$t_theirs" "$t_ours" "$ratio" "$agree (first $CHECK_N)"
done
echo "ratio = ogsolve time / grundy time (above 1: grundy is faster)"
