#!/usr/bin/env bash
# Builds the container image and checks it as an operator would: it runs as
# a non-root user, its health check turns healthy, a grpcurl session plays a
# move, and SIGTERM stops it cleanly (exit 0, "pips has shut down").
#
# It needs a container engine: Debian's docker.io, with dockerd started
# here without a bridge or iptables (so builds and containers use host
# networking) when none runs. Where dockerd cannot start (no privileges,
# no kernel support), it says so and exits 0: only this check is skipped.
#
# Base images: `debian:bookworm-slim` and `rust:1-slim-bookworm` are pulled;
# on a machine that reaches no image registry they are made locally
# instead (debootstrap for Debian, the machine's own Rust toolchain for
# Rust). The build gets vendored crates (`cargo vendor`, in vendor/) so that
# it needs no crate registry either.
#
#   scripts/container-check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
port=50091
name=pips-container-check
work=$(mktemp -d)
# What the check made goes when it ends: the container, the image, the
# build stage's image that the classic builder leaves untagged (a whole
# release build, over 2 GB), the build cache and vendor/. Untagged images
# that were there before are left alone.
dangling_before=""
cleanup() {
    docker rm -f "$name" >/dev/null 2>&1 || true
    docker image rm -f pips:check >/dev/null 2>&1 || true
    comm -13 <(echo "$dangling_before") <(docker images -q -f dangling=true 2>/dev/null | sort) \
        | xargs -r docker image rm -f >/dev/null 2>&1 || true
    docker builder prune -f >/dev/null 2>&1 || true
    rm -rf "$work" "$root/vendor"
}
trap cleanup EXIT

skip() { echo "container check skipped: $*"; exit 0; }
need() { command -v "$1" >/dev/null 2>&1; }

if ! need dockerd || ! need debootstrap; then
    need apt-get || skip "no docker.io and no apt-get to install it"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
fi
if ! docker info >/dev/null 2>&1; then
    nohup dockerd --bridge=none --iptables=false > "${TMPDIR:-/tmp}/pips-dockerd.log" 2>&1 &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
    docker info >/dev/null 2>&1 || skip "dockerd cannot start here: $(tail -1 "${TMPDIR:-/tmp}/pips-dockerd.log")"
fi

# The base images, pulled or made here.
if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1 \
    && ! timeout 60 docker pull -q debian:bookworm-slim >/dev/null 2>&1; then
    echo "making debian:bookworm-slim with debootstrap (no registry reachable)"
    debootstrap --variant=minbase bookworm "$work/rootfs" > "$work/debootstrap.log" 2>&1 \
        || { tail -5 "$work/debootstrap.log"; exit 1; }
    tar -C "$work/rootfs" -c . | docker import - debian:bookworm-slim >/dev/null
    rm -rf "$work/rootfs"
fi
if ! docker image inspect rust:1-slim-bookworm >/dev/null 2>&1 \
    && ! timeout 120 docker pull -q rust:1-slim-bookworm >/dev/null 2>&1; then
    echo "making rust:1-slim-bookworm from this machine's Rust toolchain (no registry reachable)"
    mkdir -p "$work/rust"
    cp -r "$(rustc --print sysroot)" "$work/rust/toolchain"
    rm -rf "$work/rust/toolchain/share/doc" "$work/rust/toolchain/lib/rustlib/src"
    cat > "$work/rust/Dockerfile" <<'DOCKERFILE'
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY toolchain /usr/local/rust
ENV PATH=/usr/local/rust/bin:$PATH CARGO_HOME=/usr/local/cargo
DOCKERFILE
    docker build --network host -q -t rust:1-slim-bookworm "$work/rust" >/dev/null
    rm -rf "$work/rust"
fi

dangling_before=$(docker images -q -f dangling=true | sort)
echo "-- build (vendored crates, offline)"
cargo vendor --locked --quiet vendor > /dev/null
docker build --network host -q -t pips:check . > /dev/null
docker image inspect pips:check --format 'image: {{.Id}} {{.Size}} bytes'

echo "-- run"
docker run -d --name "$name" --network host --health-interval 1s \
    -e PIPS_ADDR="127.0.0.1:$port" pips:check > /dev/null
uid=$(docker exec "$name" id -u)
echo "runs as uid $uid ($(docker exec "$name" id -un))"
[ "$uid" != 0 ]
health=starting
for _ in $(seq 60); do
    health=$(docker inspect -f '{{.State.Health.Status}}' "$name")
    [ "$health" = healthy ] && break
    sleep 1
done
echo "health: $health"
[ "$health" = healthy ]

echo "-- a grpcurl session against the container"
grpcurl -plaintext -d '{"variant": "muggins", "players": 2, "seed": "3"}' \
    "127.0.0.1:$port" pips.v1.DominoEngineService/NewGame > "$work/game.json"
jq -c '{state, move: .legalMoves[0]}' "$work/game.json" \
    | grpcurl -plaintext -d @ "127.0.0.1:$port" pips.v1.DominoEngineService/Play > "$work/next.json"
jq -e '.events[0].tilePlayed' "$work/next.json" > /dev/null
echo "played: $(jq -c '.events[0].tilePlayed' "$work/next.json")"

echo "-- a table, kept on the container's SQLite file (its volume)"
grpcurl -plaintext -d '{"variant": "muggins", "players": 2, "seats": [{"person": {}}, {"computer": {"level": "BOT_LEVEL_GREEDY"}}]}' \
    "127.0.0.1:$port" pips.v1.TableService/CreateTable > "$work/table.json"
jq -e '.seatLinks[0].link' "$work/table.json" > /dev/null
docker exec "$name" ls -l /var/lib/pips/pips-tables.db

echo "-- SIGTERM"
docker kill --signal TERM "$name" > /dev/null
for _ in $(seq 20); do
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = false ] && break
    sleep 0.5
done
code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
echo "exit code after SIGTERM: $code"
[ "$code" = 0 ]
docker logs "$name" 2>&1 | grep -q "pips has shut down"
echo "container: ok"
