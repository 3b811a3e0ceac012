#!/usr/bin/env bash
# A short arena run in CI: built-in levels against each other and against
# the Python example bot (examples/bots/python, grpcio), which must answer
# every move legally and in time.
#
#   scripts/arena-smoke.sh [path/to/pips]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
bot_dir="$root/examples/bots/python"
work=$(mktemp -d)
trap 'kill "$bot" 2>/dev/null || true; rm -rf "$work"' EXIT

python=$("$root/scripts/python-example.sh" "$bot_dir")

port=50061
"$python" "$bot_dir/bot.py" --port "$port" > "$work/bot.log" 2>&1 &
bot=$!
for _ in $(seq 100); do
    grep -q serving "$work/bot.log" 2>/dev/null && break
    sleep 0.1
done

"$binary" arena --variant muggins --matches 20 --playouts 100 --jobs 2 \
    --pair "grpc://127.0.0.1:$port:greedy" --pair expert:random \
    --replays "$work/replays.jsonl" | tee "$work/table.txt"
# The bot answered every move legally and in time (the illegal and timeouts
# columns, counted from the line's end: the intervals before them may hold
# spaces).
awk -v bot="grpc://127.0.0.1:$port" '$1 == bot { found = 1; if ($(NF-4) != 0 || $(NF-3) != 0) exit 1 } END { exit !found }' \
    "$work/table.txt"
[ "$(wc -l < "$work/replays.jsonl")" -eq 40 ]

# PyPI dominoes' players as a bot (examples/bots/python/dominoes_bot.py) at
# its own game, duplicate deals: every move legal and in time.
dominoes_port=50062
"$python" "$bot_dir/dominoes_bot.py" --port "$dominoes_port" --player probabilistic_alphabeta \
    --samples 2 --start-move 8 --workers 2 > "$work/dominoes.log" 2>&1 &
dominoes_bot=$!
trap 'kill "$bot" "$dominoes_bot" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 300); do
    grep -q serving "$work/dominoes.log" 2>/dev/null && break
    sleep 0.1
done
"$binary" arena --variant puerto_rican --players 4 --matches 4 --duplicate --playouts 100 --jobs 2 \
    --move-ms 30000 --pair "expert:grpc://127.0.0.1:$dominoes_port" | tee "$work/dominoes.txt"
grep -q "4 matches (2 deals, each played 2 times: the sides swapped)" "$work/dominoes.txt"
awk -v bot="grpc://127.0.0.1:$dominoes_port" '$1 == bot { found = 1; if ($(NF-4) != 0 || $(NF-3) != 0) exit 1 } END { exit !found }' \
    "$work/dominoes.txt"

# The Latin games at a four-seat table, in partnerships.
"$binary" arena --variant dominican --players 4 --matches 4 --playouts 50 --jobs 2 \
    --pair greedy:random | tee "$work/latin.txt"
grep -q "^greedy" "$work/latin.txt"
echo "arena: ok"
