#!/usr/bin/env bash
# Runs a command with DATABASE_URL pointing at a throwaway PostgreSQL cluster on a free local port.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
owner=postgres
id -u "$owner" >/dev/null 2>&1 || owner=$(id -un)
chown "$owner" "$dir"
as_owner() { if [ "$(id -un)" = "$owner" ]; then "$@"; else su "$owner" -s /bin/sh -c "$(printf '%q ' "$@")"; fi; }
as_owner "$bin/initdb" -D "$dir/data" -A trust -U invoicekit >/dev/null
as_owner "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" -l "$dir/log" -w start >/dev/null
cleanup() { as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U invoicekit invoicekit
export DATABASE_URL="postgres://invoicekit@127.0.0.1:$port/invoicekit"
"$@"
