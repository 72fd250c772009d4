#!/usr/bin/env bash
# Times the graph games of `grundy solve` on generated graphs, the
# whole process: reading the file, the algorithm, and the answer written.
#
#   scripts/bench-graphs.sh            # every case, best of 5 runs each
#   RUNS=3 scripts/bench-graphs.sh
#
# The graphs come from the `graph_input` example (fixed seeds: the same files
# every run) and go to a scratch folder ($SCRATCH, default a temporary one).
set -euo pipefail

RUNS=${RUNS:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCRATCH=${SCRATCH:-$(mktemp -d /tmp/grundy-graphs.XXXXXX)}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

(cd "$ROOT" && cargo build --quiet --release -p grundy-cli -p grundy --example graph_input)
GRUNDY=$CARGO_TARGET_DIR/release/grundy
INPUT=$CARGO_TARGET_DIR/release/examples/graph_input

[ -s "$SCRATCH/dag.txt" ] || "$INPUT" dag 100000 1000000 > "$SCRATCH/dag.txt"
[ -s "$SCRATCH/tree.txt" ] || "$INPUT" tree 1000000 > "$SCRATCH/tree.txt"
[ -s "$SCRATCH/graph.txt" ] || "$INPUT" graph 100000 1000000 > "$SCRATCH/graph.txt"
[ -s "$SCRATCH/path.txt" ] || "$INPUT" path 1000000 > "$SCRATCH/path.txt"

best() { # best wall-clock seconds of $RUNS runs of grundy "$@", output discarded
    local best=0
    for _ in $(seq "$RUNS"); do
        local start end
        start=$(date +%s%N)
        "$GRUNDY" "$@" > /dev/null
        end=$(date +%s%N)
        if [ "$best" -eq 0 ] || [ $((end - start)) -lt "$best" ]; then
            best=$((end - start))
        fi
    done
    printf '%d.%03d' $((best / 1000000000)) $((best / 1000000 % 1000))
}

printf '| case | command | best of %s (s) |\n|---|---|---|\n' "$RUNS"
row() { # label, then the arguments of grundy
    local label=$1
    shift
    printf '| %s | `grundy %s` | %s |\n' "$label" "$*" "$(best "$@")"
}
row "DAG, 10^5 vertices, 10^6 edges, three tokens" solve "dag(@$SCRATCH/dag.txt, 1, 2, 3)"
row "DAG, every vertex's nimber" solve --all-starts "dag(@$SCRATCH/dag.txt)"
row "geography, random graph, 10^5 vertices, 10^6 edges, every start" solve --all-starts "geography(@$SCRATCH/graph.txt)"
row "geography, the same graph, choose the start" solve "geography(@$SCRATCH/graph.txt)"
row "geography, the same graph, start 1" solve "geography(@$SCRATCH/graph.txt, 1)"
row "tree walk, random tree of 10^6 vertices, every start" solve --all-starts "tree_walk(@$SCRATCH/tree.txt)"
row "tree walk, random tree, choose the start" solve "tree_walk(@$SCRATCH/tree.txt)"
row "tree walk, random tree, start 5" solve "tree_walk(@$SCRATCH/tree.txt, 5)"
row "tree walk, path of 10^6 vertices, every start" solve --all-starts "tree_walk(@$SCRATCH/path.txt)"
