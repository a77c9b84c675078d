#!/usr/bin/env bash
# `npm run typecheck`: the repository as a whole, then each room under its own rules
# (docs/decisions/enforced-rooms.md): the client and the BFF's core without Node or DOM, the
# elements with DOM only, the service with Node only.
set -euo pipefail
cd "$(dirname "$0")/.."

for project in . src/api src/elements src/bff src/service; do
  echo "tsc -p $project"
  npx tsc -p "$project"
done
