#!/usr/bin/env bash
# Starts a throw-away PostgreSQL cluster for the tests (sourced by .ci/run): installs PostgreSQL from
# Debian's packages when initdb is missing, runs initdb as an unprivileged user (`postgres`, created
# by the package; CI runs as root), trust auth on loopback, a free port, the socket and data in a
# temp folder. Exports LOCI_TEST_DATABASE_URL and LOCI_REQUIRE_POSTGRES=1 (PostgreSQL tests must not
# skip in CI) and registers `pg_ci_stop` for the caller's EXIT trap.

pg_bin_dir() {
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
    if [ -x "$d/initdb" ]; then echo "$d"; return; fi
  done
}

PG_BIN="$(pg_bin_dir)"
if [ -z "$PG_BIN" ]; then
  echo "ci: PostgreSQL not found, installing it from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  PG_BIN="$(pg_bin_dir)"
fi
[ -n "$PG_BIN" ] || { echo "ci: no initdb after installing postgresql" >&2; exit 1; }

PG_USER=postgres
id -u "$PG_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$PG_USER"
PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/loci-ci-pg.XXXXXX")"
chown "$PG_USER" "$PG_DIR"
chmod 700 "$PG_DIR"
PG_PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi; }

pg_ci_stop() {
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}

as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U loci --auth=trust -E UTF8 --locale=C --no-sync >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
  -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
export LOCI_TEST_DATABASE_URL="postgres://loci@127.0.0.1:$PG_PORT/postgres"
export LOCI_REQUIRE_POSTGRES=1
echo "ci: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $PG_PORT"
