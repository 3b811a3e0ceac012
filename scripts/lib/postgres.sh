# A PostgreSQL cluster of its own, from Debian's packages, for a check:
# `start_postgres PORT` creates it in a temporary folder ($pg_work), starts
# it on PORT (loopback) with a database `pips_tables`, sets $pg_url and
# $pg_version, and removes it all at exit (with `pg_cleanup_more`, if
# the sourcing script defines it, run first). Sourced by
# scripts/tables-postgres-check.sh and scripts/tables-servers-check.sh.

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
# PostgreSQL refuses to run as root: its own user runs it.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_stop() {
    if declare -F pg_cleanup_more >/dev/null; then pg_cleanup_more; fi
    as_postgres "$pg_bin/pg_ctl" -D "$pg_work/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$pg_work"
}

start_postgres() { # port
    [ -x "$pg_bin/initdb" ] || { echo "PostgreSQL's server is not installed" >&2; exit 1; }
    pg_work=$(mktemp -d)
    chmod 755 "$pg_work"
    if [ "$(id -u)" = 0 ]; then chown postgres "$pg_work"; fi
    trap pg_stop EXIT
    as_postgres "$pg_bin/initdb" -D "$pg_work/data" -A trust -U postgres >/dev/null
    as_postgres "$pg_bin/pg_ctl" -D "$pg_work/data" \
        -o "-p $1 -k $pg_work -c listen_addresses=127.0.0.1 ${PG_EXTRA:-}" -l "$pg_work/log" -w start >/dev/null
    as_postgres "$pg_bin/createdb" -h 127.0.0.1 -p "$1" -U postgres pips_tables
    pg_url="postgres://postgres@127.0.0.1:$1/pips_tables"
    pg_version=$("$pg_bin/postgres" --version | awk '{print $3}')
}
