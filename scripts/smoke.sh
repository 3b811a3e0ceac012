#!/usr/bin/env bash
# Runs the README's grpcurl session, docs/api.md's curl and Connect
# sessions and docs/tables.md's, exactly as written there,
# against a freshly started server binary, and checks that each step
# answered.
#
#   scripts/smoke.sh [path/to/pips]     (default: target/release/pips)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

# The session is the blocks between the smoke markers, in order: the
# README's first, then docs/api.md's, then docs/tables.md's.
awk '/<!-- smoke:start -->/{on=1; next} /<!-- smoke:end -->/{on=0} on && !/^```/' \
    "$root/README.md" "$root/docs/api.md" "$root/docs/tables.md" > "$work/session.sh"
[ -s "$work/session.sh" ] || { echo "smoke: no session found in README.md" >&2; exit 1; }
for doc in README.md docs/api.md docs/tables.md; do
    grep -q '<!-- smoke:start -->' "$root/$doc" || { echo "smoke: no session in $doc" >&2; exit 1; }
done

# (With a tables database, for docs/tables.md's session.)
"$binary" --addr 127.0.0.1:50051 --tables-db "sqlite://$work/tables.db?mode=rwc" \
    2> "$work/server.log" &
server=$!
healthy=no
for _ in $(seq 100); do
    if "$binary" healthcheck --addr 127.0.0.1:50051 2>/dev/null; then healthy=yes; break; fi
    sleep 0.1
done
[ "$healthy" = yes ] || { cat "$work/server.log"; echo "smoke: server never became healthy" >&2; exit 1; }

cd "$work"
bash -euo pipefail -x session.sh > transcript.txt 2>&1 || {
    cat transcript.txt; cat server.log; echo "smoke: a documented session failed" >&2; exit 1;
}

# Each step must have produced what the docs say it does.
grep -q 'pips.v1.DominoEngineService' transcript.txt
# Reflection lists what the server serves: BotService is a bot's to serve.
! grep -q 'pips.v1.BotService' transcript.txt
jq -e '.legalMoves | length > 0' game.json > /dev/null
jq -e '.state.history | length == 1' next.json > /dev/null
jq -e '.hand | length > 0' view.json > /dev/null
jq -e '[.. | objects | select(has("boneyard") or has("seed"))] | length == 0' view.json > /dev/null
grep -q 'ERROR_REASON_NOT_YOUR_TURN' transcript.txt
jq -e '(.state == null) and (.stateToken | length > 0)' token.json > /dev/null
jq -e '(.state == null) and (.stateToken | length > 0)' token-next.json > /dev/null
jq -e --slurpfile readable next.json '.events == $readable[0].events' token-next.json > /dev/null
# The Mexican Train session: a move onto the Mexican train, then a double
# that must be satisfied (every legal move covers it) and is.
jq -e '.state.formatVersion == 2 and (.state.trains.trains | length) == 3' train.json > /dev/null
jq -e '[.state.trains.trains[] | select(.train.mexican)][0].tiles | length == 1' train-next.json > /dev/null
jq -e '.state.trains.unsatisfied.mexican == true and (.toAct // 0) == (.state.history[-1].seat // 0)' train-double.json > /dev/null
jq -e '.legalMoves | length > 0 and all(.[]; .play.train.mexican or .draw or .pass)' train-double.json > /dev/null
jq -e '[.events[] | select(.doubleSatisfied)] | length == 1' train-covered.json > /dev/null
jq -e '.state.trains.unsatisfied == null' train-covered.json > /dev/null
# The Chicken Foot session: the hub takes its arms first, a double waits
# for its toes (every other place refused), and takes them.
jq -e '.state.formatVersion == 2 and .state.foot.waiting.hub and all(.legalMoves[]; .play.arm.newArm)' foot.json > /dev/null
jq -e '(.state.foot.arms | length) == 4 and .state.foot.waiting == null' foot-hub.json > /dev/null
jq -e '.state.foot.waiting.toesOf != null and all(.legalMoves[]; .play.arm.newArm or .draw or .pass)' foot-double.json > /dev/null
grep -q 'ERROR_REASON_FOOT_WAITING' transcript.txt
jq -e '([.events[] | select(.footCompleted)] | length) == 1 and (.state.foot.arms | length) == 7' foot-toes.json > /dev/null
# The Texas 42 session: an auction won with 30 (30 again refused), sixes
# named, one trick won.
jq -e '.state.formatVersion == 3 and .state.tricks.stage == "TRICK_STAGE_BIDDING" and .state.layout == null' t42.json > /dev/null
jq -e '.state.tricks.bid.points == 30 and .state.tricks.stage == "TRICK_STAGE_NAMING" and (.state.tricks.auction | length) == 4' t42-auction.json > /dev/null
grep -q 'ERROR_REASON_BID_NOT_OPEN' transcript.txt
jq -e '[.events[] | select(.trickWon)] | length == 1' t42-trick.json > /dev/null
jq -e '.state.tricks.contract.trumps == 6 and .state.tricks.stage == "TRICK_STAGE_PLAYING"' t42-named.json > /dev/null
# The curl session.
grep -q '"muggins"' transcript.txt
jq -e '.legalMoves | length > 0' game.http.json > /dev/null
jq -e '.state.history | length == 1' next.http.json > /dev/null
grep -q '"reason":"ERROR_REASON_MALFORMED_JSON".* HTTP 400' transcript.txt
grep -q '"reason":"ERROR_REASON_NOT_YOUR_TURN".* HTTP 409' transcript.txt
grep -q '"/v1/Play"' transcript.txt
grep -q '{"move":{"seat":' transcript.txt
# The tables session: a move made once at its number, seen by the other
# seat, not applied again when sent twice; its record.
jq -e '(.seatLinks | length) == 2 and all(.seatLinks[]; (.link | length) == 22)' table.json > /dev/null
jq -e '(.stale | not) and .update.number == "1"' acted.json > /dev/null
jq -e '.update.number == "1" and .update.view.toAct == .update.seat' other.json > /dev/null
jq -e '.stale and .update.number == "1"' again.json > /dev/null
jq -e '.update.watching and (.update.view.hand | length) == 0 and (.update.view.handSizes | length) == 2' public.json > /dev/null
grep -q '"reason":"ERROR_REASON_MATCH_IN_PLAY".* HTTP 409' transcript.txt
grep -m1 '^data: ' watch.txt | cut -c7- | jq -e '.update.number == "1"' > /dev/null

# Graceful shutdown on SIGTERM.
kill -TERM "$server"
wait "$server"
grep -q 'shut down' server.log
# Logs to a file carry no terminal colour codes.
if grep -q $'\x1b\[' server.log; then echo "smoke: colour codes in the log file" >&2; exit 1; fi
echo "smoke: documented sessions ok"
