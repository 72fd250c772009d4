#!/usr/bin/env bash
# How each command's time grows with its input: every family at sizes n, 10n
# and 100n, so that growth worse than the algorithm's shows at a glance. Each
# row prints the expected complexity, then the median wall time of RUNS runs
# at each size (or "> LIMIT" when a run did not end within LIMIT seconds).
#
#   scripts/bench-scaling.sh                  # the figures of docs/BENCHMARKS.md
#   RUNS=5 LIMIT=60 scripts/bench-scaling.sh
#   GRUNDY=target/tests/grundy scripts/bench-scaling.sh   # another build
#
# Files the rows read (heaps, graphs) are written into $WORK (default a
# temporary folder), never into the repository.
set -euo pipefail

RUNS=${RUNS:-3}
LIMIT=${LIMIT:-30}
WORK=${WORK:-$(mktemp -d /tmp/grundy-scaling.XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${GRUNDY:-}" ]; then
    (cd "$ROOT" && cargo build --quiet --release -p grundy-cli)
    GRUNDY=$ROOT/target/release/grundy
fi

median() { # the median of the numbers on stdin
    sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# The median wall time of `grundy ARGS`, in seconds, or "> LIMIT".
time_of() {
    local times=() start end
    for _ in $(seq "$RUNS"); do
        start=$(date +%s.%N)
        if ! timeout "$LIMIT" "$GRUNDY" "$@" >/dev/null 2>&1; then
            # A refusal (exit 3) is an answer too; only the time limit is not.
            end=$(date +%s.%N)
            if awk -v s="$start" -v e="$end" -v l="$LIMIT" 'BEGIN { exit !(e - s >= l - 0.05) }'; then
                echo "> $LIMIT"
                return
            fi
        fi
        end=$(date +%s.%N)
        times+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')")
    done
    printf '%s\n' "${times[@]}" | median
}

# A row: its name, its expected complexity, then a command template in which
# N stands for the size, and the three sizes.
row() {
    local name=$1 complexity=$2 template=$3
    shift 3
    local cells=()
    for n in "$@"; do
        local args
        # shellcheck disable=SC2001
        args=$(echo "$template" | sed "s/N/$n/g")
        eval "set -- $args"
        cells+=("$(time_of "$@")")
    done
    printf '| %s | %s | %s | %s | %s |\n' "$name" "$complexity" "${cells[0]}" "${cells[1]}" "${cells[2]}"
}

# Inputs read from files.
heaps_file() { # N heaps of sizes 1..1000
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print 1 + (i * 7919) % 1000 }' >"$WORK/heaps-$1.txt"
}
dag_file() { # a path of N vertices
    awk -v n="$1" 'BEGIN { print n, n - 1; for (i = 1; i < n; i++) print i, i + 1 }' >"$WORK/dag-$1.txt"
}
for n in 10000 100000 1000000; do heaps_file $n; dag_file $n; done

echo "grundy: $("$GRUNDY" --version 2>/dev/null || echo "$GRUNDY"); $(nproc) cores; $(date -u +%F)"
echo
echo "| command | expected | n | 10 n | 100 n |"
echo "|---|---|---|---|---|"
row "seq, period proven early: 0.07 (Dawson's Kayles), -n" "O(p) once proven" \
    "seq 'octal[0.07]' -n N" 10000 100000 1000000
row "seq, period proven early: 0.137, -n" "O(p) once proven" \
    "seq 'octal[0.137]' -n N" 10000 100000 1000000
row "seq, arithmetic-periodic: all_but[1, 2], -n" "O(n)" \
    "seq 'all_but[1, 2]' -n N" 10000 100000 1000000
row "seq, no period known: 0.6 (Officers), -n" "O(n) a value (sparse space)" \
    "seq 'octal[0.6]' -n N" 10000 100000 1000000
row "seq, long code: 0.77...7 with N digits, -n 100" "O(digits)" \
    "seq \"octal[0.\$(printf '7%.0s' \$(seq N))]\" -n 100" 20 200 2000
row "table, one variable with patterns: nim(n), n=0..N" "O(n log n)" \
    "table 'nim(n)' n=0..N" 10000 100000 1000000
row "table, two variables with patterns: wythoff(x, y), x, y=0..N" "O(N^2) cells" \
    "table 'wythoff(x, y)' x=0..N y=0..N" 30 100 300
row "table of a periodic game: octal[0.07](n), n=0..N" "O(n)" \
    "table --no-patterns 'octal[0.07](n)' n=0..N" 1000 10000 100000
row "every(...) of N components" "O(n log n)" \
    "solve 'every(bash[2](1..N))'" 1000 10000 100000
row "rounds[2](...) of N components" "O(n log n)" \
    "solve 'rounds[2](bash[2](1..N))'" 1000 10000 100000
row "a sum of N heaps read from a file" "O(n)" \
    "solve 'nim(@$WORK/heaps-N.txt)'" 10000 100000 1000000
row "a sum of many heaps of one sequence game: kayles(1..N)" "O(n) + the values to max heap" \
    "solve 'kayles(1..N)'" 10000 100000 1000000
row "Grundy's game, heaps 1..N, plus kayles(10)" "values to N (no period known)" \
    "solve 'grundy_game(1..N) + kayles(10)'" 1000 10000 100000
row "a DAG path of N vertices (tokens on a DAG)" "O(V + E)" \
    "solve 'dag(@$WORK/dag-N.txt, 1)'" 10000 100000 1000000
row "Chomp N x N" "exponential (all diagrams)" \
    "solve --max-states 100000000 'chomp(N, N)'" 6 8 10
row "Cram 5 x N (odd: no symmetry strategy)" "exponential" \
    "solve --max-states 100000000 'cram(5, N)'" 3 5 7
row "a script game: a take-1-or-2 heap of N (one call a position)" "O(n)" \
    "solve 'script[\"fn moves(n) { if n > 1 { [n - 1, n - 2] } else if n == 1 { [0] } else { [] } }\"](N)'" 1000 10000 100000
