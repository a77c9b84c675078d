#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL cluster on a free local port.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL is not installed (on Debian: apt-get install postgresql); scripts/ensure-tools.sh installs it." >&2
  exit 1
fi
dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
# initdb refuses to run as root: as root the cluster belongs to the postgres user, otherwise to us.
owner=$(id -un)
if [ "$(id -u)" = 0 ]; then
  owner=postgres
  id -u "$owner" >/dev/null 2>&1 || { echo "running as root needs a postgres user to own the cluster" >&2; exit 1; }
  chown "$owner" "$dir"
fi
as_owner() { if [ "$(id -un)" = "$owner" ]; then "$@"; else su "$owner" -s /bin/sh -c "$(printf '%q ' "$@")"; fi; }
cleanup() { as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
as_owner "$bin/initdb" -D "$dir/data" -A trust -U invoicekit >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" -l "$dir/log" -w start >/dev/null
as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U invoicekit invoicekit
export DATABASE_URL="postgres://invoicekit@127.0.0.1:$port/invoicekit"
"$@"
