#!/usr/bin/env bash
# The metrics as an operator sees them: a real Prometheus (Debian's
# `prometheus` package) scrapes a running pips on --metrics-addr while the
# TypeScript client plays a match over Connect (with its one illegal move)
# and curl asks for a variant that does not exist; then Prometheus's query
# API must answer for the call counter, the
# refusals by reason, the latency histogram, open connections and the
# process's memory.
#
#   scripts/metrics-check.sh [path/to/pips]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/target/release/pips}
work=$(mktemp -d)
port=50081
metrics=9481
prom=9491
trap 'kill "$server" "$prometheus" 2>/dev/null || true; rm -rf "$work"' EXIT

"$binary" --addr "127.0.0.1:$port" --tables-db "sqlite://$work/tables.db?mode=rwc" --metrics-addr "127.0.0.1:$metrics" > "$work/server.log" 2>&1 &
server=$!
cat > "$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: pips
    static_configs:
      - targets: ["127.0.0.1:$metrics"]
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
    --web.listen-address="127.0.0.1:$prom" > "$work/prometheus.log" 2>&1 &
prometheus=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$prom/-/ready" > /dev/null 2>&1 && break
    sleep 0.2
done

# Traffic: a whole match over Connect, calls over HTTP/JSON, one refusal.
ts="$root/examples/clients/typescript"
[ -d "$ts/gen" ] || (cd "$ts" && npm ci --silent --no-audit --no-fund && npx buf generate)
(cd "$ts" && npx tsx src/play.ts "http://127.0.0.1:$port" connect muggins 2) > "$work/match.txt"
curl -s "http://127.0.0.1:$port/v1/NewGame" -d '{"variant": "nope", "players": 2}' > /dev/null

# Prometheus's own view, once it has scraped after the traffic.
query() {
    curl -sf "http://127.0.0.1:$prom/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // empty'
}
plays=""
for _ in $(seq 60); do
    plays=$(query 'sum(pips_calls_total{rpc="Play",protocol="connect",code="OK"})')
    [ -n "$plays" ] && [ "$plays" -gt 0 ] && break
    sleep 0.5
done
echo "Prometheus: Play over Connect, OK: $plays calls"
[ -n "$plays" ] && [ "$plays" -gt 100 ]
refused=$(query 'sum(pips_calls_total{rpc="Play",code="FAILED_PRECONDITION"})')
echo "Prometheus: Play refused (FAILED_PRECONDITION): $refused"
[ "$refused" -ge 1 ]
unknown=$(query 'pips_refusals_total{reason="ERROR_REASON_UNKNOWN_VARIANT"}')
echo "Prometheus: refusals for an unknown variant: $unknown"
[ "$unknown" -ge 1 ]
p50=$(query 'histogram_quantile(0.5, sum by (le) (pips_call_duration_seconds_bucket{rpc="Play"}))')
echo "Prometheus: Play median latency: $p50 s"
[ -n "$p50" ]
rss=$(query 'process_resident_memory_bytes{job="pips"}')
echo "Prometheus: resident memory: $rss bytes"
[ -n "$rss" ]
[ -n "$(query 'pips_connections_open')" ]
echo "metrics: ok"
