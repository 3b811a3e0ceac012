#!/usr/bin/env bash
# The tables' tests (tests/tables.rs) against a real PostgreSQL, from
# Debian's packages: a cluster of its own in a temporary folder, on a port
# of its own, removed at the end. (`cargo test` runs them on SQLite.)
#
#   scripts/tables-postgres-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "tables-postgres: PostgreSQL's server is not installed" >&2; exit 1; }
work=$(mktemp -d)
chmod 755 "$work"
# PostgreSQL refuses to run as root: its own user runs it.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ]; then chown postgres "$work"; fi
port=55439
stop() { as_postgres "$bin/pg_ctl" -D "$work/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop EXIT
as_postgres "$bin/initdb" -D "$work/data" -A trust -U postgres >/dev/null
as_postgres "$bin/pg_ctl" -D "$work/data" -o "-p $port -k $work -c listen_addresses=127.0.0.1" \
    -l "$work/log" -w start >/dev/null
as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres pips_tables
PIPS_TEST_TABLES_DB="postgres://postgres@127.0.0.1:$port/pips_tables" \
    cargo test --locked --test tables
echo "tables-postgres: the tables' tests pass on PostgreSQL $("$bin/postgres" --version | awk '{print $3}')"
