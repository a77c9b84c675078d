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
# Elements in Chromium against a real BFF and service.
npx wtr
# The same service tests against a real PostgreSQL server, so the path that scales never rots; the
# BFF's shared stores on it; and the production shape: four services and two BFFs on PostgreSQL and Redis.
bash scripts/with-postgres.sh npx vitest run test/service test/bff/stores.test.ts test/scale
