#!/usr/bin/env bash
# What `npm start`, `npm test` and .ci/run need before Node starts: NATS with JetStream and
# PostgreSQL. A configured URL that already answers is left alone. One that does not, on a loopback
# address, gets a server of our own under .data/services/ (never the system's clusters or config):
# installed with apt-get when missing and running as root, otherwise one line with the command to
# run. Remote URLs are never started: a line says which one did not answer.
#
#   infra/dev/services.sh [start|stop|status]
#
# Reads NATS_URL and DATABASE_URL (defaults as runtime/config), TEST_DATABASE_BASE_URL (what the
# tests connect to, when it is set) and BURROW_SERVICES_DIR (where our servers keep their data).
set -euo pipefail
cd "$(dirname "$0")/../.."
root_dir=$(pwd)
state="${BURROW_SERVICES_DIR:-$root_dir/.data/services}"
action="${1:-start}"

say() { printf 'burrow: %s\n' "$*" >&2; }

nats_url="${NATS_URL:-nats://127.0.0.1:4222}"
nats_url="${nats_url%%,*}"
db_url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/burrow}"
[ -n "${TEST_DATABASE_BASE_URL:-}" ] && db_url="$TEST_DATABASE_BASE_URL"

# host and port of a URL (scheme://[user[:pw]@]host[:port][/...]); the default port when absent.
host_of() { local r="${1#*://}"; r="${r#*@}"; r="${r%%/*}"; r="${r%%\?*}"; echo "${r%:*}"; }
port_of() {
  local r="${1#*://}"; r="${r#*@}"; r="${r%%/*}"; r="${r%%\?*}"
  if [[ "$r" == *:* ]]; then echo "${r##*:}"; else echo "$2"; fi
}
is_loopback() { [[ "$1" == 127.* || "$1" == localhost || "$1" == "::1" ]]; }
# A refused connect fails at once; an address that drops packets is given 2 s.
listening() { timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null; }
wait_listening() {
  for _ in $(seq 1 100); do listening "$1" "$2" && return 0; sleep 0.1; done
  return 1
}
as_root() { [ "$(id -u)" = 0 ]; }

install_or_explain() { # $1 = package, $2 = what it is
  if as_root && command -v apt-get >/dev/null; then
    say "installing $1 with apt-get ($2 is missing)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" >/dev/null ||
      { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$1" >/dev/null; }
  else
    say "$2 is not installed; run: sudo apt-get install -y $1"
    exit 1
  fi
}

# --- NATS ---------------------------------------------------------------------------------------
nats_host=$(host_of "$nats_url")
nats_port=$(port_of "$nats_url" 4222)
nats_bin() { command -v nats-server || { [ -x /usr/sbin/nats-server ] && echo /usr/sbin/nats-server; }; }

start_nats() {
  if listening "$nats_host" "$nats_port"; then return 0; fi
  if ! is_loopback "$nats_host"; then
    say "NATS does not answer at $nats_url (NATS_URL); start it there or point NATS_URL elsewhere"
    exit 1
  fi
  local bin
  bin=$(nats_bin) || { install_or_explain nats-server "nats-server"; bin=$(nats_bin); }
  mkdir -p "$state/nats"
  say "starting nats-server with JetStream on $nats_host:$nats_port (data in $state/nats)"
  # setsid: the server outlives this script and the npm command that ran it.
  setsid "$bin" -a "$nats_host" -p "$nats_port" -js -sd "$state/nats" \
    -l "$state/nats.log" -P "$state/nats.pid" </dev/null >/dev/null 2>&1 &
  wait_listening "$nats_host" "$nats_port" ||
    { say "nats-server did not start; see $state/nats.log"; exit 1; }
}

# --- PostgreSQL ---------------------------------------------------------------------------------
pg_host=$(host_of "$db_url")
pg_port=$(port_of "$db_url" 5432)
pg_dir="$state/postgres"
pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}
# initdb and postgres refuse to run as root: as root they run as the postgres user.
as_pg() { if as_root; then runuser -u postgres -- "$@"; else "$@"; fi; }

start_pg() {
  if listening "$pg_host" "$pg_port"; then return 0; fi
  if ! is_loopback "$pg_host"; then
    say "PostgreSQL does not answer at $pg_host:$pg_port (DATABASE_URL); start it there or point DATABASE_URL elsewhere"
    exit 1
  fi
  local bin
  bin=$(pg_bin) || { install_or_explain postgresql "PostgreSQL"; bin=$(pg_bin); }
  mkdir -p "$state"
  if [ ! -s "$pg_dir/PG_VERSION" ]; then
    say "creating a PostgreSQL cluster in $state/postgres (user postgres, trust on loopback)"
    mkdir -p "$pg_dir"
    as_root && chown postgres: "$pg_dir"
    as_pg "$bin/initdb" -D "$pg_dir" -U postgres --auth=trust -E UTF8 >/dev/null
  fi
  say "starting PostgreSQL on $pg_host:$pg_port (data in $pg_dir)"
  as_pg "$bin/pg_ctl" -D "$pg_dir" -l "$pg_dir/server.log" -w -s \
    -o "-c listen_addresses=$pg_host -p $pg_port -k $pg_dir" start ||
    { say "PostgreSQL did not start; see $pg_dir/server.log"; exit 1; }
}

stop_ours() {
  if [ -s "$state/nats.pid" ] && kill "$(cat "$state/nats.pid")" 2>/dev/null; then
    say "stopped our nats-server"
  fi
  rm -f "$state/nats.pid"
  local bin
  if [ -s "$pg_dir/postmaster.pid" ] && bin=$(pg_bin); then
    as_pg "$bin/pg_ctl" -D "$pg_dir" -s -m fast stop && say "stopped our PostgreSQL"
  fi
  return 0
}

case "$action" in
  start) start_nats; start_pg ;;
  stop) stop_ours ;;
  status)
    listening "$nats_host" "$nats_port" && say "NATS answers at $nats_host:$nats_port" ||
      say "NATS does not answer at $nats_host:$nats_port"
    listening "$pg_host" "$pg_port" && say "PostgreSQL answers at $pg_host:$pg_port" ||
      say "PostgreSQL does not answer at $pg_host:$pg_port"
    ;;
  *) say "usage: infra/dev/services.sh [start|stop|status]"; exit 2 ;;
esac
