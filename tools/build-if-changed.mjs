#!/usr/bin/env node
// Runs `npm run build` unless the last build this script ran was of exactly the current inputs
// and its outputs are still there. `npm start` and `npm run worker` call it, so a fresh clone
// builds first and a second start with nothing changed starts at once.
//
// Inputs: the sources, tsconfig and package.json of the contract, the engine, the server and the
// web app (the contract's message catalogs, the web app's public files, index.html and Vite config
// too), the root package.json, tsconfig.base.json and package-lock.json. Test files (`*.test.*`)
// are left out: no build reads them. Their contents are hashed (so `touch` or a checkout of the
// same commit builds nothing); the hash is stored after a successful build in node_modules/.cache
// (so `npm ci` builds again).
// `npm run build` itself is unchanged and writes no stamp: a start after it builds once more.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'node_modules/.cache/aidressup/build-stamp.json');

/** Files and folders (read whole, minus node_modules, dist and test files) the build reads. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  ...['packages/contract', 'packages/engine', 'apps/server'].flatMap((p) => [
    `${p}/package.json`,
    `${p}/tsconfig.json`,
    `${p}/src`,
  ]),
  'packages/contract/catalogs',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/vite-catalogs.ts',
  'apps/web/src',
  'apps/web/public',
];

/** What `npm start`, `npm run worker` and the local engine's worker threads load. */
const OUTPUTS = [
  'packages/contract/dist/index.js',
  'packages/engine/dist/index.js',
  'packages/engine/dist/worker.js',
  'apps/server/dist/server.js',
  'apps/server/dist/worker.js',
  'apps/web/dist/index.html',
];

/** Repository-relative paths of the input files, sorted. */
function inputFiles() {
  const files = [];
  const visit = (rel) => {
    const abs = path.join(root, rel);
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isFile()) {
      if (!/\.test\.[^/]+$/.test(rel)) files.push(rel);
      return;
    }
    for (const entry of fs.readdirSync(abs)) {
      if (entry !== 'node_modules' && entry !== 'dist') visit(`${rel}/${entry}`);
    }
  };
  for (const input of INPUTS) visit(input);
  return files.sort();
}

/** One hash of the inputs' names and contents. */
function inputsHash() {
  const hash = createHash('sha256');
  for (const rel of inputFiles())
    hash
      .update(`${rel}\0`)
      .update(fs.readFileSync(path.join(root, rel)))
      .update('\0');
  return hash.digest('hex');
}

/** Why a build is needed, or null when the last build is current. */
function reasonToBuild(hash) {
  const missing = OUTPUTS.find((out) => !fs.existsSync(path.join(root, out)));
  if (missing) return `${missing} is missing`;
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return 'no earlier build by this script';
  }
  return stamp.hash === hash ? null : 'sources changed since the last build';
}

function npmRunBuild() {
  // Under npm, npm_execpath is npm's own script: run the same npm with the same node.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', 'build']] : ['npm', ['run', 'build']];
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const hash = inputsHash();
  const reason = reasonToBuild(hash);
  if (reason === null) {
    console.log('build: up to date (nothing changed since the last build)');
  } else {
    console.log(`build: ${reason}: npm run build`);
    const status = npmRunBuild();
    if (status !== 0) process.exit(status);
    fs.mkdirSync(path.dirname(STAMP), { recursive: true });
    fs.writeFileSync(STAMP, `${JSON.stringify({ hash, builtAt: new Date().toISOString() })}\n`);
  }
}
