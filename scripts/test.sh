#!/usr/bin/env bash
# `npm test`: every test in the repository, in the order that fails fastest.
set -euo pipefail
cd "$(dirname "$0")/.."

# The tests' scratch files (PGlite data folders, the PostgreSQL cluster, the packages' installs,
# browser profiles) go to memory when the machine has room for them: every test service copies a
# 40 MB data folder and deletes it, and on a disk file system the kernel's share of that work is
# twice what it is on a tmpfs (docs/measurements/test-suite-time.md). INVOICEKIT_TEST_SCRATCH=disk, or
# a machine without the room, keeps them in the usual temporary folder.
scratch_in_memory() {
  [ "${INVOICEKIT_TEST_SCRATCH:-}" != disk ] || return 1
  [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || return 1
  local room_kib available_kib
  room_kib=$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')
  available_kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
  # Room for the run's peak (about 1 GiB measured) several times over, and memory to spare for the
  # browsers and servers.
  [ "${room_kib:-0}" -ge $((6 * 1024 * 1024)) ] && [ "${available_kib:-0}" -ge $((12 * 1024 * 1024)) ]
}
scratch=
if scratch_in_memory; then
  scratch=$(mktemp -d /dev/shm/invoicekit-test-XXXXXX)
  # Like /tmp: the PostgreSQL cluster's owner and Apache's children make and read folders in it.
  chmod 1777 "$scratch"
  export TMPDIR=$scratch
fi

# The vitest files run in a shuffled order (vite.config.ts). Both vitest runs below take this one seed,
# printed first, so that `INVOICEKIT_TEST_SEED=<seed> npm test` replays a failing order.
export INVOICEKIT_TEST_SEED=${INVOICEKIT_TEST_SEED:-$(node -p 'Date.now()')}
echo "vitest files in a shuffled order, seed $INVOICEKIT_TEST_SEED (INVOICEKIT_TEST_SEED=$INVOICEKIT_TEST_SEED npm test replays it)"

logs=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$logs"; [ -z "$scratch" ] || rm -rf "$scratch"' EXIT

# Runs two steps (shell functions) side by side when the machine has two cores or more, one after
# the other on one core. Side by side, each one's output is kept in a file and printed whole, under
# a heading with its exit status, once both have ended; either failure fails `npm test` and is named.
side_by_side() {
  local first_title=$1 first=$2 second_title=$3 second=$4
  if [ "$(nproc 2>/dev/null || echo 1)" -lt 2 ]; then
    "$first"
    "$second"
    return
  fi
  "$first" >"$logs/$first.log" 2>&1 &
  local first_pid=$!
  "$second" >"$logs/$second.log" 2>&1 &
  local second_pid=$!
  local first_status=0 second_status=0
  wait "$first_pid" || first_status=$?
  wait "$second_pid" || second_status=$?
  printf '\n=== %s: exit %s ===\n' "$first_title" "$first_status"
  cat "$logs/$first.log"
  printf '\n=== %s: exit %s ===\n' "$second_title" "$second_status"
  cat "$logs/$second.log"
  if [ "$first_status" -ne 0 ] || [ "$second_status" -ne 0 ]; then
    printf '\nFailed:%s%s\n' "$([ "$first_status" -ne 0 ] && echo " $first_title")" "$([ "$second_status" -ne 0 ] && echo " $second_title")" >&2
    exit 1
  fi
}

bash scripts/ensure-tools.sh
bash scripts/typecheck.sh
# ESLint reads the sources and the build writes only ignored folders (dist/, custom-elements.json):
# each is one process most of its time, so side by side they share the two cores. After ESLint,
# dependency-cruiser checks the rooms, the service's layers and that no import circle exists, through
# every chain of imports (.dependency-cruiser.cjs, docs/decisions/service-layers.md).
lint() { npx eslint . && npx depcruise src --config .dependency-cruiser.cjs; }
# Storybook builds from the same sources: every element in every state.
build() { npm run build && npm run build-storybook -- --quiet; }
side_by_side 'ESLint' lint 'Build and Storybook build' build
# The axe run over every story reads the Storybook just built instead of building its own.
export INVOICEKIT_STORYBOOK_BUILT=$PWD/storybook-static
node --test test/elements/bundle-size.test.mjs test/elements/readme-sri.test.mjs
npx vitest run
# Elements in Chromium against a real BFF and service (`npx wtr`), and the PostgreSQL pass: the same
# service tests against a real PostgreSQL server, so the path that scales never rots (files with nothing
# on its database, such as the PGlite data folder's lock, skip themselves there); the BFF's
# shared stores on it; and the production shape: four services and two BFFs on PostgreSQL and Redis.
elements() { npx wtr; }
postgres_pass() { bash scripts/with-postgres.sh npx vitest run test/service test/bff/stores.test.ts test/scale; }
side_by_side 'Elements in Chromium (npx wtr)' elements 'PostgreSQL pass' postgres_pass
