#!/usr/bin/env bash
# Checks that docs/CONTRACT.md starts with the fixed command-line contract,
# ../shared/CONTRACT.md beside the repository, byte for byte (the repository's
# own additions follow it). Exit 1 with a diff when the copy differs; skipped
# (exit 0) when there is no shared contract beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."

shared=../shared/CONTRACT.md
copy=docs/CONTRACT.md
if [ ! -f "$shared" ]; then
    echo "check-contract: skipped: no $shared beside the repository"
    exit 0
fi
if [ ! -f "$copy" ]; then
    echo "check-contract: $copy is missing; copy $shared there" >&2
    exit 1
fi
size=$(wc -c < "$shared")
if head -c "$size" "$copy" | cmp -s - "$shared"; then
    echo "check-contract: $copy starts with $shared"
    exit 0
fi
echo "check-contract: $copy does not start with $shared; the difference:" >&2
diff -u --label "$shared" --label "$copy (its first $size bytes)" \
    "$shared" <(head -c "$size" "$copy") >&2 || true
exit 1
