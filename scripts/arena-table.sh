#!/usr/bin/env bash
# The table of computer opponents in docs/bots.md: `pips arena` for each table and
# pairing, 1,000 matches a cell, expert at a fixed playout budget; then
# expert at its default budget against greedy on fewer matches; then the tables
# with a hub, four seats (the first player in one), 1,000 matches a cell with
# expert at its default budget.
#
#   scripts/arena-table.sh [path/to/pips] [playouts] [matches]
set -euo pipefail
binary=${1:-target/release/pips}
playouts=${2:-1000}
matches=${3:-1000}
for table in "muggins 2" "all_fives 2" "block 4" "jarac 3" "fives_and_threes 2"; do
    set -- $table
    "$binary" arena --variant "$1" --players "$2" --matches "$matches" --playouts "$playouts" \
        --pair expert:greedy --pair greedy:random --pair expert:random
done
for table in "muggins 2" "all_fives 2" "block 4"; do
    set -- $table
    "$binary" arena --variant "$1" --players "$2" --matches 200 \
        --pair expert:greedy
done
for table in "mexican_train 4" "chicken_foot 4"; do
    set -- $table
    "$binary" arena --variant "$1" --players "$2" --matches "$matches" \
        --pair expert:greedy --pair greedy:random
done
