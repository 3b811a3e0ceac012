#!/usr/bin/env bash
# The client examples against the release binary, as CI runs them: the
# Python client (grpcio, grpcio-status) and the TypeScript client
# (connect-es, over the Connect protocol and over gRPC-Web) each play whole
# matches and read a refusal; the TypeScript client also has two people
# play at a table by link, each watching it over a server stream; buf curl and curl call over Connect.
#
#   scripts/clients-smoke.sh [path/to/pips]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
work=$(mktemp -d)
port=50071
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

"$binary" --addr "127.0.0.1:$port" --tables-db "sqlite://$work/tables.db?mode=rwc" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    grep -q "pips is serving" "$work/server.log" 2>/dev/null && break
    sleep 0.1
done

echo "-- Python (grpcio)"
py="$root/examples/clients/python"
python=$("$root/scripts/python-example.sh" "$py")
"$python" "$py/play.py" --target "127.0.0.1:$port" | tee "$work/python.txt"
"$python" "$py/play.py" --target "127.0.0.1:$port" --variant block --players 4 | tee -a "$work/python.txt"
grep -q "refused: FAILED_PRECONDITION ERROR_REASON_NOT_YOUR_TURN at move.seat" "$work/python.txt"
[ "$(grep -c "^grpc: .* over in" "$work/python.txt")" -eq 2 ]

echo "-- TypeScript (connect-es)"
ts="$root/examples/clients/typescript"
(cd "$ts" && npm ci --silent --no-audit --no-fund && npx buf generate)
for run in "connect muggins 2" "grpc-web muggins 2" "connect all_fives 3" "grpc-web block 4"; do
    set -- $run
    (cd "$ts" && npx tsx src/play.ts "http://127.0.0.1:$port" "$1" "$2" "$3") | tee "$work/ts.txt"
    grep -q "refused: FailedPrecondition ERROR_REASON_NOT_YOUR_TURN at move.seat" "$work/ts.txt"
    grep -q "^$1: $2 $3p over in" "$work/ts.txt"
done

# Two people at a table by link, each watching it (a server stream).
for run in "connect muggins" "grpc-web mexican_train"; do
    set -- $run
    (cd "$ts" && npx tsx src/table.ts "http://127.0.0.1:$port" "$1" "$2") | tee "$work/table.txt"
    grep -q "watch link refused: PermissionDenied ERROR_REASON_SEAT_NOT_PERMITTED at link" "$work/table.txt"
    grep -q "^$1: $2 table over at move [0-9]*: .* no hand, scores" "$work/table.txt"
done

echo "-- buf curl over Connect"
# buf from PATH, else the one the TypeScript example pins.
buf=$(command -v buf || echo "$ts/node_modules/.bin/buf")
"$buf" curl --protocol connect --http2-prior-knowledge --schema "$root/proto" \
    --data '{"variant": "muggins", "players": 2, "seed": "1"}' \
    "http://127.0.0.1:$port/pips.v1.DominoEngineService/NewGame" > "$work/buf.json"
jq -e '.state.players == 2 and (.legalMoves | length) > 0' "$work/buf.json" > /dev/null
# Connect GET (every RPC is free of side effects), as a cache would see it.
curl -sf "http://127.0.0.1:$port/pips.v1.DominoEngineService/ListVariants?connect=v1&encoding=json&message=%7B%7D" \
    > "$work/variants.json"
# The same presets as the JSON API lists.
curl -sf -X POST "http://127.0.0.1:$port/v1/ListVariants" > "$work/variants.http.json"
jq -e --slurpfile http "$work/variants.http.json" \
    '(.variants | length) > 0 and ([.variants[].id] == [$http[0].variants[].id])' \
    "$work/variants.json" > /dev/null
echo "clients: ok"
