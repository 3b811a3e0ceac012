#!/usr/bin/env bash
# The table of computer opponents in docs/bots.md and the README: `pips arena`
# for each line table and pairing, then the tables with a hub, four seats (the
# first player in one), `matches` matches a cell, expert at its default budget
# (pass `playouts` to fix another).
#
#   scripts/arena-table.sh [path/to/pips] [matches] [playouts]
set -euo pipefail
binary=${1:-target/release/pips}
matches=${2:-1000}
budget=()
if [ -n "${3:-}" ]; then
    budget=(--playouts "$3")
fi
for table in "muggins 2" "all_fives 2" "block 4" "fives_and_threes 2" "jarac 3"; do
    set -- $table
    "$binary" arena --variant "$1" --players "$2" --matches "$matches" "${budget[@]}" \
        --pair expert:greedy --pair greedy:random --pair expert:random
done
for table in "mexican_train 4" "chicken_foot 4"; do
    set -- $table
    "$binary" arena --variant "$1" --players "$2" --matches "$matches" "${budget[@]}" \
        --pair expert:greedy --pair greedy:random
done
