#!/usr/bin/env bash
# Checks the wire contract in proto/: buf lint (STANDARD), buf format, and,
# since v1 is frozen, buf breaking against the previous commit and against
# the commit that froze it (the one that added buf.yaml). A checkout without
# that history (a shallow clone, an export) skips the breaking checks it
# cannot make, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

buf lint
buf format --diff --exit-code

# The contract as it was at commit $1, in a directory of its own.
contract_at() {
    local dir
    dir=$(mktemp -d)
    git archive "$1" proto buf.yaml | tar -x -C "$dir"
    echo "$dir"
}

if ! git rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "contract: not a git checkout; breaking-change checks skipped"
    exit 0
fi
frozen=$(git log --diff-filter=A --format=%H -- buf.yaml | tail -1)
for base in HEAD~1 "$frozen"; do
    if [ -z "$base" ] || ! git rev-parse --verify -q "$base^{commit}" >/dev/null; then
        echo "contract: no commit $base in this checkout; check skipped"
        continue
    fi
    if ! git cat-file -e "$base:buf.yaml" 2>/dev/null; then
        echo "contract: $base predates the frozen contract; check skipped"
        continue
    fi
    old=$(contract_at "$base")
    buf breaking --against "$old"
    rm -rf "$old"
    echo "contract: no breaking change against $(git rev-parse --short "$base")"
done
