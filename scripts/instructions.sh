#!/usr/bin/env bash
# Instructions per complete random hand for the tables docs/performance.md records
# (block 4p partnerships, muggins 2p, all_fives 2p, puerto_rican 4p, and the
# rounds of mexican_train 4p and chicken_foot 4p, and the trick games'
# hands, auction included: texas42 4p and moon 3p), counted by
# valgrind (callgrind) on `examples/hands.rs`: steadier than times on a
# shared machine, so a regression shows even where timings are noisy.
#
# Each table is counted at N and 2N hands (a quarter as many rounds at a train
# table, whose rounds are longer); the difference divided by their number is
# the cost of a hand without the program's start and end.
#
#   scripts/instructions.sh [path/to/hands] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
hands=${1:-target/perf/examples/hands}
n=${2:-20000}

if ! command -v valgrind >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null
    else
        echo "valgrind is required" >&2
        exit 1
    fi
fi
[ -x "$hands" ] || cargo build --profile perf --locked --example hands

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$hands" --variant "$1" --players "$2" --hands "$3" 2>&1 \
        | sed -n 's/.*refs: *//p' | tr -d ','
}

for table in "block 4 $n hand" "muggins 2 $n hand" "all_fives 2 $n hand" \
    "puerto_rican 4 $n hand" "mexican_train 4 $((n / 4)) round" "chicken_foot 4 $((n / 4)) round" \
    "texas42 4 $n hand" "moon 3 $n hand"; do
    set -- $table
    once=$(count "$1" "$2" "$3")
    twice=$(count "$1" "$2" $((2 * $3)))
    [ -n "$once" ] && [ -n "$twice" ] || { echo "no count from valgrind" >&2; exit 1; }
    echo "$1 ${2}p: $(( (twice - once) / $3 )) instructions a $4"
done
