#!/usr/bin/env bash
# `npm test`: every test in the repository, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-tools.sh
bash scripts/typecheck.sh
npx eslint .
npm run build
# Storybook builds from the same sources: every element in every state.
npm run build-storybook -- --quiet
node --test test/elements/bundle-size.test.mjs test/elements/readme-sri.test.mjs
npx vitest run
# Elements in Chromium against a real BFF and service (`npx wtr`), and the PostgreSQL pass: the same
# service tests against a real PostgreSQL server, so the path that scales never rots; the BFF's
# shared stores on it; and the production shape: four services and two BFFs on PostgreSQL and Redis.
# With two cores or more the two run side by side; each one's output is printed whole once both end.
postgres_pass() { bash scripts/with-postgres.sh npx vitest run test/service test/bff/stores.test.ts test/scale; }
if [ "$(nproc 2>/dev/null || echo 1)" -lt 2 ]; then
  npx wtr
  postgres_pass
  exit 0
fi
logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"' EXIT
npx wtr >"$logs/wtr.log" 2>&1 &
wtr=$!
postgres_pass >"$logs/postgres.log" 2>&1 &
postgres=$!
wtr_status=0
wait "$wtr" || wtr_status=$?
postgres_status=0
wait "$postgres" || postgres_status=$?
printf '\n=== Elements in Chromium (npx wtr): exit %s ===\n' "$wtr_status"
cat "$logs/wtr.log"
printf '\n=== PostgreSQL pass: exit %s ===\n' "$postgres_status"
cat "$logs/postgres.log"
if [ "$wtr_status" -ne 0 ] || [ "$postgres_status" -ne 0 ]; then
  printf '\nFailed:%s%s\n' "$([ "$wtr_status" -ne 0 ] && echo ' elements in Chromium')" "$([ "$postgres_status" -ne 0 ] && echo ' PostgreSQL pass')" >&2
  exit 1
fi
