/**
 * ESLint rule: no import cycles between the repository's own modules, counting type-only
 * imports and re-exports (a type cycle still ties two layers together).
 *
 * It follows relative specifiers only; imports between workspace packages are kept one-way by
 * the boundary rules in eslint.config.js. The graph is read from the files on disk once per run.
 */
import fs from 'node:fs';
import path from 'node:path';

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx'];

/** Module-level caches: one ESLint run lints many files against the same graph. */
const edgesOf = new Map();
const cycleOf = new Map();

function stripComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  const candidates = [base, ...EXTENSIONS.map((e) => stem + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))];
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** [{ target, specifier }] for a file's relative imports. */
function edges(file) {
  let list = edgesOf.get(file);
  if (list) return list;
  list = [];
  let source = '';
  try {
    source = stripComments(fs.readFileSync(file, 'utf8'));
  } catch {
    // unreadable: no edges
  }
  for (const match of source.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2];
    const target = resolve(file, specifier);
    if (target) list.push({ target, specifier });
  }
  edgesOf.set(file, list);
  return list;
}

/** The shortest path from `start` back to itself, as files, or null. Breadth-first. */
function findCycle(start) {
  if (cycleOf.has(start)) return cycleOf.get(start);
  const previous = new Map();
  const queue = [];
  for (const { target } of edges(start)) {
    if (!previous.has(target)) {
      previous.set(target, start);
      queue.push(target);
    }
  }
  let found = null;
  while (queue.length > 0 && !found) {
    const file = queue.shift();
    if (file === start) {
      found = file;
      break;
    }
    for (const { target } of edges(file)) {
      if (target === start) {
        previous.set(start, file);
        found = start;
        break;
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  let cycle = null;
  if (found) {
    cycle = [start];
    let at = previous.get(start);
    while (at && at !== start) {
      cycle.unshift(at);
      at = previous.get(at);
    }
    cycle.unshift(start);
  }
  cycleOf.set(start, cycle);
  return cycle;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow import cycles between local modules, type imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}' },
  },
  create(context) {
    const file = context.filename;
    return {
      Program(node) {
        const cycle = findCycle(file);
        if (!cycle) return;
        const next = cycle[1];
        const edge = edges(file).find((e) => e.target === next);
        const cwd = context.cwd ?? process.cwd();
        const shown = cycle.map((f) => path.relative(cwd, f)).join(' → ');
        const importNode = node.body.find(
          (statement) =>
            (statement.type === 'ImportDeclaration' ||
              statement.type === 'ExportNamedDeclaration' ||
              statement.type === 'ExportAllDeclaration') &&
            statement.source?.value === edge?.specifier,
        );
        context.report({ node: importNode ?? node, messageId: 'cycle', data: { path: shown } });
      },
    };
  },
};
