#!/usr/bin/env bash
# Instructions per complete random hand for the tables docs/performance.md records
# (block 4p partnerships, muggins 2p, all_fives 2p, puerto_rican 4p), counted by
# valgrind (callgrind) on `examples/hands.rs`: steadier than times on a
# shared machine, so a regression shows even where timings are noisy.
#
# Each table is counted at N and 2N hands; the difference divided by N is
# the cost of a hand without the program's start and end.
#
#   scripts/instructions.sh [path/to/hands] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
hands=${1:-target/release/examples/hands}
n=${2:-20000}

if ! command -v valgrind >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "valgrind is required" >&2
        exit 1
    fi
fi
[ -x "$hands" ] || cargo build --release --locked --example hands

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$hands" --variant "$1" --players "$2" --hands "$3" 2>&1 \
        | sed -n 's/.*refs: *//p' | tr -d ','
}

for table in "block 4" "muggins 2" "all_fives 2" "puerto_rican 4"; do
    set -- $table
    once=$(count "$1" "$2" "$n")
    twice=$(count "$1" "$2" $((2 * n)))
    [ -n "$once" ] && [ -n "$twice" ] || { echo "no count from valgrind" >&2; exit 1; }
    echo "$1 ${2}p: $(( (twice - once) / n )) instructions a hand"
done
