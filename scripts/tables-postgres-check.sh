#!/usr/bin/env bash
# The tables' tests (tests/integration/tables.rs) against a real PostgreSQL, from
# Debian's packages: a cluster of its own in a temporary folder, on a port
# of its own, removed at the end. (`cargo test` runs them on SQLite.)
#
#   scripts/tables-postgres-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/postgres.sh
start_postgres 55439
PIPS_TEST_TABLES_DB="$pg_url" cargo test --locked --test integration tables::
echo "tables-postgres: the tables' tests pass on PostgreSQL $pg_version"
