#!/usr/bin/env bash
# Scale-out, verified: three pips processes sharing a state key behind a
# real gRPC load balancer (Debian's nginx with deploy/nginx.conf, upstreams
# on loopback), the scale-out load generator (examples/scaleout.rs) playing
# whole matches through it with retries on UNAVAILABLE, one replica killed
# (SIGKILL) a third of the way in and restarted at two thirds. It prints
# the throughput per window, the retried calls and the matches completed,
# and fails if a match was lost or a replica refused a finished match's
# token.
#
#   scripts/scale-out-check.sh [path/to/pips] [seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
seconds=${2:-18}
work=$(mktemp -d)
# Below Linux's ephemeral range (32768–60999), where a client connection's
# local port can hold a listening port for a while (seen: a replica that
# could not bind 50102).
ports=(21101 21102 21103)
balancer=21100
# nginx's browser port, and the address it connects to the replicas
# from: the one address they trust.
browsers=21104
proxy=127.0.0.9
pids=()
trap 'kill "${pids[@]}" "$nginx" 2>/dev/null || true; rm -rf "$work"' EXIT
nginx=""

# The shipped deployment trusts exactly its proxy.
python3 "$root/scripts/deploy-check.py"

key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
start_replica() { # index
    # (Each keeps tables of its own in memory, for the check of the limits
    # per client behind nginx: several servers share tables on PostgreSQL
    # only, which scripts/tables-servers-check.sh checks.)
    PIPS_STATE_KEY="$key" "$binary" --addr "127.0.0.1:${ports[$1]}" --tables-db sqlite::memory: \
        --trusted-proxies "$proxy" >> "$work/replica-$1.log" 2>&1 &
    pids[$1]=$!
    for _ in $(seq 100); do
        "$binary" healthcheck --addr "127.0.0.1:${ports[$1]}" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "replica $1 did not start" >&2
    return 1
}
for i in 0 1 2; do start_replica "$i"; done

# The shipped nginx.conf, with loopback upstreams, local listeners, and
# the replicas reached from the address they trust.
sed -e "s/pips-1:50051/127.0.0.1:${ports[0]}/; s/pips-2:50051/127.0.0.1:${ports[1]}/" \
    -e "s/pips-3:50051/127.0.0.1:${ports[2]}/; s/listen 50050 http2;/listen 127.0.0.1:$balancer http2;/" \
    -e "s/listen 50080;/listen 127.0.0.1:$browsers;/" \
    -e "s/^http {/http {\n    grpc_bind $proxy;\n    proxy_bind $proxy;/" \
    "$root/deploy/nginx.conf" > "$work/nginx.conf"
mkdir -p "$work/nginx"
nginx -p "$work/nginx" -c "$work/nginx.conf" -g "daemon off; pid $work/nginx.pid;" > "$work/nginx.log" 2>&1 &
nginx=$!
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$balancer") 2>/dev/null && break
    sleep 0.1
done

replicas="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"
"$root/target/release/examples/scaleout" --addr "127.0.0.1:$balancer" --replicas "$replicas" \
    --clients 8 --seconds "$seconds" --window 2 | tee "$work/run.txt" &
load=$!
sleep $((seconds / 3))
echo "-- killing replica 2 (SIGKILL) at ~$((seconds / 3)) s"
kill -KILL "${pids[1]}"
wait "${pids[1]}" 2>/dev/null || true
sleep $((seconds / 3))
echo "-- restarting replica 2 at ~$((2 * seconds / 3)) s"
start_replica 1
wait "$load"
grep -q "matches lost: 0" "$work/run.txt"
grep -q "final tokens accepted by every replica" "$work/run.txt"
# Two clients behind nginx, each counted as itself: a flooding one does
# not get the other refused.
python3 "$root/scripts/proxy-fairness.py" "127.0.0.1:$browsers" --watches 0
echo "scale-out: ok"
