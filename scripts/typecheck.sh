#!/usr/bin/env bash
# `npm run typecheck`: the repository as a whole (tests and stories included), and each room under
# its own rules (docs/decisions/enforced-rooms.md): the contract with the language's globals alone, the
# kernel, the client and the BFF's core without Node or DOM, the elements with DOM only, the service
# with Node only, the widget's browser code with DOM only. With two cores or more the whole runs
# beside the rooms.
#
# The checks run on TypeScript 7, the native compiler (the `typescript7` dev dependency): the same
# diagnostics as TypeScript 5.9 in a quarter of the CPU time (docs/measurements/test-suite-time.md).
# TypeScript 5.9 stays for the tools built on its API (typescript-eslint) and for the build.
set -euo pipefail
cd "$(dirname "$0")/.."

tsc() { node node_modules/typescript7/bin/tsc "$@"; }

rooms() {
  local status=0
  for project in src/contract src/kernel src/einvoice src/api src/elements src/bff src/service src/widget src/admin; do
    tsc -p "$project" || { echo "tsc -p $project failed" >&2; status=1; }
  done
  return "$status"
}

if [ "$(nproc 2>/dev/null || echo 1)" -lt 2 ]; then
  tsc -p .
  rooms
  exit 0
fi
tsc -p . &
whole=$!
rooms_status=0
rooms || rooms_status=$?
whole_status=0
wait "$whole" || { whole_status=$?; echo "tsc -p . failed" >&2; }
[ "$rooms_status" -eq 0 ] && [ "$whole_status" -eq 0 ]
