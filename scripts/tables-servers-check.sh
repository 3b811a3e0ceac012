#!/usr/bin/env bash
# Several servers, one set of tables: two pips servers on one PostgreSQL
# database (Debian's, a cluster of its own in a temporary folder), Debian's
# nginx in front with deploy/nginx.conf (upstreams on loopback, the servers
# trusting it for X-Forwarded-For). The tables' load generator
# (examples/tableload.rs, --to-end) opens tables of four people through
# nginx; each seat watches through one server or the other in turn, so
# every table has seats on both, and every move reaches the seats of the
# other server by PostgreSQL's NOTIFY. Every table plays its match to the
# end, every seat seeing the same final scores, with no move refused.
#
#   scripts/tables-servers-check.sh [path/to/pips] [path/to/tableload] [tables]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
load=${2:-$root/target/release/examples/tableload}
tables=${3:-24}

. "$root/scripts/lib/postgres.sh"
ports=(21201 21202)
balancer=21200
# nginx's browser port, and the address it connects to the servers from:
# the one address they trust.
browsers=21203
proxy=127.0.0.9
pids=()
nginx=""
work=$(mktemp -d)
pg_cleanup_more() { kill "${pids[@]}" $nginx 2>/dev/null || true; rm -rf "$work"; }
start_postgres 55441
database=$pg_url

mkdir -p "$work/run"
for i in 0 1; do
    "$binary" --addr "127.0.0.1:${ports[$i]}" --tables-db "$database" \
        --trusted-proxies "$proxy" > "$work/run/server-$i.log" 2>&1 &
    pids[$i]=$!
done
for i in 0 1; do
    for _ in $(seq 100); do
        "$binary" healthcheck --addr "127.0.0.1:${ports[$i]}" 2>/dev/null && break
        sleep 0.1
    done
    "$binary" healthcheck --addr "127.0.0.1:${ports[$i]}"
done

# The shipped nginx.conf, with loopback upstreams (two), local listeners,
# and the servers reached from the address they trust.
sed -e "s/pips-1:50051/127.0.0.1:${ports[0]}/; s/pips-2:50051/127.0.0.1:${ports[1]}/" \
    -e "/pips-3:50051/d; s/listen 50050 http2;/listen 127.0.0.1:$balancer http2;/" \
    -e "s/listen 50080;/listen 127.0.0.1:$browsers;/" \
    -e "s/^http {/http {\n    grpc_bind $proxy;\n    proxy_bind $proxy;/" \
    "$root/deploy/nginx.conf" > "$work/run/nginx.conf"
mkdir -p "$work/run/nginx"
nginx -p "$work/run/nginx" -c "$work/run/nginx.conf" -g "daemon off; pid $work/run/nginx.pid;" \
    > "$work/run/nginx.log" 2>&1 &
nginx=$!
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$balancer") 2>/dev/null && break
    sleep 0.1
done

# Tables through nginx, from one client address: the servers count the
# address nginx forwards, so the limit on tables a minute per address
# (10) holds for it; 24 tables are made from three addresses.
if ! "$load" --addr "127.0.0.1:$balancer" \
    --watch-addrs "127.0.0.1:${ports[0]},127.0.0.1:${ports[1]}" \
    --tables "$tables" --tables-per-address 8 --pace-ms 20 --seconds 120 --warmup 0 \
    --to-end | tee "$work/run/load.txt"; then
    tail -20 "$work/run"/server-*.log "$work/run/nginx.log" >&2
    exit 1
fi
grep -q "matches $tables  errors 0  tables failed 0" "$work/run/load.txt"
# Both servers served watches, and each heard the other's moves.
for i in 0 1; do
    if grep -q "cannot hear the other servers\|lost the other servers" "$work/run/server-$i.log"; then
        echo "server $i did not hear the other" >&2
        exit 1
    fi
done
# Two clients behind nginx, each counted as itself: a flooding one (past
# its tables a minute on both servers, and its watches) does not get the
# other refused.
python3 "$root/scripts/proxy-fairness.py" "127.0.0.1:$browsers" --watches 200
echo "tables-servers: $tables matches played to their end by seats on two servers behind nginx, on PostgreSQL $pg_version"
