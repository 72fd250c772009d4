#!/bin/sh
# Cram and Chomp: grundy against Piotr Beling's igsolve.
# Times each whole process with /usr/bin/time (wall seconds, peak resident KB)
# and prints both nimbers. igsolve is installed outside the repository:
#   cargo install --root /tmp/igs-scratch igsolve
# Usage: scripts/bench-vs-igsolve.sh [RUNS] [TIMEOUT_SECONDS]
set -u
RUNS=${1:-3}
LIMIT=${2:-300}
cd "$(dirname "$0")/.."
IGSOLVE=${IGSOLVE:-$(command -v igsolve || echo /tmp/igs-scratch/bin/igsolve)}
GRUNDY=target/release/grundy
cargo build --release -p grundy-cli >/dev/null 2>&1 || exit 1
[ -x "$IGSOLVE" ] || { echo "install igsolve: cargo install --root /tmp/igs-scratch igsolve"; exit 1; }
nproc; lscpu | head -n 15

run() { # label command...
    label=$1; shift
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        out=$( { timeout "$LIMIT" /usr/bin/time -f "TIME %e s %M KB" "$@" 2>&1; } 2>&1 )
        nimber=$(printf '%s\n' "$out" | grep -iE '^nimber|Nimber of initial' | head -n 1 | sed 's/.*: *//')
        figures=$(printf '%s\n' "$out" | grep '^TIME' | sed 's/^TIME //')
        echo "$label | nimber ${nimber:-none} | ${figures:-timed out after $LIMIT s}"
        i=$((i + 1))
    done
}

for rc in "5 7" "4 9" "6 5" "5 8" "4 11" "5 9" "6 6" "7 5"; do
    set -- $rc
    # igsolve gives the nimber alone: --no-moves asks grundy the same question.
    run "grundy  cram $1 x $2 (nimber)" "$GRUNDY" solve --no-moves --max-states 100000000 "cram($1, $2)"
    run "grundy  cram $1 x $2 (moves)" "$GRUNDY" solve --max-states 100000000 "cram($1, $2)"
    run "igsolve cram $1 x $2" "$IGSOLVE" cram -r "$1" -c "$2"
done
for n in 10 12; do
    run "grundy  chomp $n x $n" "$GRUNDY" solve --max-states 100000000 "chomp($n, $n)"
    run "igsolve chomp $n x $n" "$IGSOLVE" chomp -r "$n" -c "$n"
    run "igsolve chomp-sl $n x $n" "$IGSOLVE" chomp-sl -r "$n" -c "$n"
done
