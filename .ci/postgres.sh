#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster for the store tests and prints, on standard output
# and nothing else, the line that points the tests at it:
#
#     eval "$(bash .ci/postgres.sh)"    # sets STIKIS_TEST_POSTGRES_URL and STIKIS_CHAOS_PG_*
#
# Installs Debian's PostgreSQL if missing, runs initdb as the `postgres` user in a directory
# under /tmp, and serves on 127.0.0.1 only, on a port no default install uses (55432; override
# with STIKIS_PG_PORT). A second run in the same session finds the running cluster and reuses
# it; a cluster left stopped is started again. Progress goes to standard error.
set -euo pipefail

PORT="${STIKIS_PG_PORT:-55432}"
ROOT="${TMPDIR:-/tmp}/stikis-pg-$PORT"
DATA="$ROOT/data"
DB=stikis_test
log() { echo "postgres.sh: $*" >&2; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

BIN="$(pg_bin)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
    log "installing PostgreSQL from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN="$(pg_bin)"
fi
[ -x "$BIN/initdb" ] || { log "no initdb after installing postgresql"; exit 1; }

# The server refuses to run as root: run its tools as `postgres` when we are root.
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ready() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; }

# The server's options. Tests open many pools in parallel, hence the generous connection limit.
OPTS="-p $PORT -k $ROOT -c listen_addresses=127.0.0.1 -c max_connections=300"

if ready; then
    if [ ! -f "$DATA/postmaster.pid" ]; then
        log "port $PORT is served by a PostgreSQL that is not ours ($DATA); set STIKIS_PG_PORT"
        exit 1
    fi
    log "reusing the cluster on port $PORT"
else
    if [ ! -f "$DATA/PG_VERSION" ]; then
        log "creating a cluster in $DATA"
        rm -rf "$ROOT"
        mkdir -p "$ROOT"
        [ "$(id -u)" = 0 ] && chown postgres:postgres "$ROOT"
        as_pg "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --no-sync >"$ROOT/initdb.log" 2>&1 \
            || { cat "$ROOT/initdb.log" >&2; exit 1; }
    fi
    log "starting PostgreSQL on 127.0.0.1:$PORT"
    as_pg "$BIN/pg_ctl" -D "$DATA" -l "$ROOT/server.log" -w -t 300 -o "$OPTS" start >&2 \
        || { tail -n 30 "$ROOT/server.log" >&2; exit 1; }
fi

for _ in $(seq 1 60); do ready && break; sleep 0.5; done
ready || { log "PostgreSQL does not accept connections"; tail -n 30 "$ROOT/server.log" >&2; exit 1; }

psql_pg() { "$BIN/psql" -X -q -h 127.0.0.1 -p "$PORT" -U postgres "$@"; }
if [ "$(psql_pg -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    psql_pg -d postgres -c "CREATE DATABASE $DB" >&2
fi

echo "export STIKIS_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$PORT/$DB"
# How the chaos harness (telegram-bot/tests/chaos.rs) restarts this cluster, as a crash would
# (immediate mode: no checkpoint, connections cut).
if [ "$(id -u)" = 0 ]; then RUN_AS="runuser -u postgres -- "; else RUN_AS=""; fi
echo "export STIKIS_CHAOS_PG_RESTART='${RUN_AS}$BIN/pg_ctl -D $DATA -l $ROOT/server.log -m immediate -w -t 120 restart >/dev/null'"
# And how its long run stops it for an outage (STIKIS_CHAOS_OUTAGE_SECS) and starts it again.
echo "export STIKIS_CHAOS_PG_STOP='${RUN_AS}$BIN/pg_ctl -D $DATA -m immediate -w -t 120 stop >/dev/null'"
echo "export STIKIS_CHAOS_PG_START='${RUN_AS}$BIN/pg_ctl -D $DATA -l $ROOT/server.log -w -t 120 -o \"$OPTS\" start >/dev/null'"
