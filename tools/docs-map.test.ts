/**
 * The map test: the documents that map the code (DOCS below) must name only files and code that
 * exist. It reads every inline code span (`…`, fenced code blocks left out; a span may run over
 * several lines and is reported at the line it starts on) and sorts it by these rules:
 *
 * Paths. A span with no spaces and none of `< > { } … : = $` that does not start with `/` (a URL
 * path), `./` (a package export) or `@` (an npm package), and
 * - has a `/` and ends with `/` (a folder), or
 * - has a `/` and its last segment ends in a known file extension (EXTENSIONS), or
 * - has a `/` and starts with one of the repository's top-level folders (`apps/server`), or
 * - has no `/` and is a file name with a known extension (`worker.ts`),
 * must exist. `dir/*` and `dir/*.ts` stand for the folder `dir/`. Paths through `dist` or
 * `node_modules` are build outputs or installed code and are not checked. A path is found when
 * it exists from the repository root or when some file or folder of the repository ends with it
 * at a `/` (the documents write paths from a package's `src/`, e.g. `routes/meta.ts`); a bare file
 * name is found when some file has that name.
 *
 * Code names. A span that is one name, dotted or not, maybe a call (`name()`, `name(args)`,
 * `name<T>()`; arguments and type arguments are not checked), is checked segment by segment. A
 * segment is checked when it is
 * - camelCase (a lower-case start and an upper-case letter later: `reserveTryOn`, `useT`), or
 * - PascalCase with a lower-case letter (`EngineError`, `Config`), or
 * - UPPER_SNAKE with an underscore (`NO_CREDITS`, `REDIS_URL`, `ERROR_STATUS`), or an upper-case
 *   word as part of a dotted span (`MESSAGES.planNotCanceled`), or
 * - the name of a call (`warm()`),
 * and `PREFIX_*` stands for any name starting with `PREFIX_`. `NAME=value` checks that NAME is an
 * environment variable. In any longer span (a signature, a payload's shape, a request line,
 * `$DATA_DIR/files`) the name of a leading call is checked, and so is every word that can only be
 * code: camelCase, UPPER_SNAKE, or PascalCase of two words or more (`ZodTypeProvider`; a single
 * capitalised word there, like `Secure` in `None; Secure`, is prose). Everything else is prose,
 * values or SQL and is not checked: plain lower-case words (`local`, `processing`, `app` in
 * `app.db`), snake_case column names (`free_trials_used`), kebab-case ids (`nano-banana`),
 * commands, headers, URLs, upper-case words alone (`FORBIDDEN`).
 *
 * Where names are found: the code of SOURCE_DIRS and the root's config files, comments left out.
 * An UPPER_SNAKE name passes as an error code (the keys of ERROR_STATUS in packages/contract/src)
 * or an environment variable (the keys of the server's configuration, apps/server/src/config.ts or
 * config/, or any `process.env.NAME`); any name passes when it occurs as a word of the code: the
 * code compiles, so every identifier in it is declared there (a function, class, interface,
 * type, variable, import, object key, member, method or parameter) or comes from a library or
 * the platform (`job.updateProgress`, `AbortSignal`); words of string literals count too (hook,
 * decoration and event names such as `onReady`). A name written only in comments does not.
 *
 * A failure lists every missing path and name with the document and line where it is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = ['docs/architecture.md', 'CONTRIBUTING.md'];
/** This file, left out of the code searched: its own examples would count as the code's words. */
const SELF = path
  .relative(ROOT, fileURLToPath(import.meta.url))
  .split(path.sep)
  .join('/');
const SOURCE_DIRS = ['packages', 'apps', 'e2e', 'bench', 'tools'];
const SOURCE_FILE = /\.(?:ts|tsx|mts|js|mjs|cjs)$/;
/** Installed code and build outputs anywhere; the root's data, reports and scratch folders. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
const SKIPPED_AT_ROOT = /^(?:data|coverage|test-results|playwright-report|bench\/out|\.scratch.*)$/;
const EXTENSIONS = /\.(?:ts|tsx|mts|js|mjs|cjs|json|md|html|css|sh|yml|yaml|sql|webp|png|jpe?g|svg|txt|bin|onnx)$/;
const IDENT = '[A-Za-z_$][\\w$]*';

// ---------- the documents' code spans ----------

interface Span {
  doc: string;
  line: number;
  text: string;
}

/** Inline code spans of a Markdown text (CommonMark's rule: a run of n backticks closes at the next run of n). */
function codeSpans(doc: string, markdown: string): Span[] {
  const spans: Span[] = [];
  const lines = markdown.split('\n');
  let paragraph: { start: number; text: string[] } | null = null;
  let fenced = false;
  const flush = () => {
    if (!paragraph) return;
    const text = paragraph.text.join('\n');
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
    const lineOf = (offset: number) => paragraph!.start + lineStarts.filter((s) => s <= offset).length - 1;
    const ticks = /`+/g;
    for (let open = ticks.exec(text); open; open = ticks.exec(text)) {
      const run = open[0];
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = open.index + run.length;
      const end = close.exec(text);
      if (!end) continue; // A lone run of backticks is text.
      const content = text.slice(open.index + run.length, end.index).replace(/\s+/g, ' ');
      spans.push({ doc, line: lineOf(open.index), text: content.trim() });
      ticks.lastIndex = end.index + run.length;
    }
    paragraph = null;
  };
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (line.trim() === '') return flush();
    paragraph ??= { start: i + 1, text: [] };
    paragraph.text.push(line);
  });
  flush();
  return spans;
}

// ---------- what the repository holds ----------

/** Every file and folder of the repository (repository-relative, `/`-separated), without build outputs. */
function listRepository(): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (SKIPPED_DIRS.has(entry.name) || SKIPPED_AT_ROOT.test(child)) continue;
      if (entry.isDirectory()) {
        folders.push(child);
        visit(child);
      } else files.push(child);
    }
  };
  visit('');
  return { files, folders };
}

const REGEX_KEYWORDS = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);

/** The text of a JavaScript or TypeScript file with its comments blanked out (strings and regular expressions kept). */
function withoutComments(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  /** A `/` here starts a regular expression (not a division) when the code before it is not a value. */
  const regexAllowed = () => {
    let k = out.length - 1;
    while (k >= 0 && /\s/.test(out[k]!)) k--;
    if (k < 0) return true;
    if ('(,=:[!&|?{};+-*%<>~^'.includes(out[k]!)) return true;
    const word = /[A-Za-z]+$/.exec(out.slice(Math.max(0, k - 9), k + 1));
    return word !== null && REGEX_KEYWORDS.has(word[0]);
  };
  const templateDepth: number[] = [];
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '`' || (c === '}' && templateDepth.length > 0 && templateDepth[templateDepth.length - 1] === 0)) {
      if (c === '}') templateDepth.pop();
      // Template text up to its end or the next `${`.
      let j = i + 1;
      while (j < n && source[j] !== '`' && !(source[j] === '$' && source[j + 1] === '{'))
        j += source[j] === '\\' ? 2 : 1;
      if (source[j] === '$') {
        templateDepth.push(0);
        out += source.slice(i, j + 2);
        i = j + 2;
      } else {
        out += source.slice(i, j + 1);
        i = j + 1;
      }
      continue;
    }
    if (c === '{' && templateDepth.length > 0) templateDepth[templateDepth.length - 1]! += 1;
    if (c === '}' && templateDepth.length > 0) templateDepth[templateDepth.length - 1]! -= 1;
    if (c === '/' && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== '\n' && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j++;
      }
      out += source.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

interface Known {
  /** Every word of the code. */
  names: Set<string>;
  errorCodes: Set<string>;
  envVars: Set<string>;
}

function collectKnown(files: string[]): Known {
  const names = new Set<string>();
  const errorCodes = new Set<string>();
  const envVars = new Set<string>();
  const sources = files.filter(
    (f) =>
      SOURCE_FILE.test(f) &&
      (SOURCE_DIRS.some((d) => f.startsWith(`${d}/`)) || !f.includes('/')) &&
      !f.endsWith('.d.ts') &&
      f !== SELF,
  );
  for (const file of sources) {
    const code = withoutComments(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    for (const word of code.match(/[A-Za-z_$][\w$]*/g) ?? []) names.add(word);
    for (const m of code.matchAll(/\bprocess\.env\.([A-Z][A-Z0-9_]*)/g)) envVars.add(m[1]!);
    if (file.startsWith('packages/contract/src/')) {
      const table = /\bERROR_STATUS\s*=\s*\{([^}]*)\}/.exec(code)?.[1] ?? '';
      for (const m of table.matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*:/gm)) errorCodes.add(m[1]!);
    }
    if (/^apps\/server\/src\/config(?:\.ts$|\/)/.test(file) && !file.includes('.test.')) {
      for (const m of code.matchAll(/^\s+([A-Z][A-Z0-9_]*)\s*:/gm)) envVars.add(m[1]!);
    }
  }
  return { names, errorCodes, envVars };
}

// ---------- checking one span ----------

const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]*$/;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const UPPER_WORD = /^[A-Z][A-Z0-9]+$/;
/** PascalCase of two words or more (`ZodTypeProvider`); in a longer span a capitalised word alone is prose. */
const PASCAL_COMPOUND = /^[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*$/;

function pathOf(span: string, topFolders: Set<string>): string | null {
  if (/[\s<>{}…:=$]/.test(span) || /^(?:\/|\.\/|@)/.test(span)) return null;
  let candidate = span;
  const glob = /^(.*\/)\*(?:\.\w+)?$/.exec(candidate);
  if (glob) candidate = glob[1]!;
  if (candidate.includes('*')) return null;
  const segments = candidate.split('/').filter(Boolean);
  if (segments.some((s) => s === 'dist' || s === 'node_modules')) return null;
  if (!candidate.includes('/')) return EXTENSIONS.test(candidate) && /^[\w.-]+$/.test(candidate) ? candidate : null;
  if (candidate.endsWith('/') || EXTENSIONS.test(candidate) || topFolders.has(segments[0]!)) return candidate;
  return null;
}

/** The code names a span asks for, each with whether it must be an environment variable. */
function namesOf(span: string): { name: string; envOnly: boolean }[] {
  const assignment = /^([A-Z][A-Z0-9_]*)=\S*$/.exec(span);
  if (assignment) return [{ name: assignment[1]!, envOnly: true }];
  const whole = new RegExp(`^(${IDENT}(?:\\.${IDENT})*(?:_\\*)?)(?:<[^>]*>)?(\\(.*\\))?$`).exec(span);
  if (whole) {
    const segments = whole[1]!.split('.');
    const dotted = segments.length > 1;
    const isCall = whole[2] !== undefined;
    return segments
      .filter(
        (s, i) =>
          s.endsWith('_*') ||
          CAMEL.test(s) ||
          PASCAL.test(s) ||
          UPPER_SNAKE.test(s) ||
          (dotted && UPPER_WORD.test(s)) ||
          (isCall && !dotted && i === 0),
      )
      .map((name) => ({ name, envOnly: false }));
  }
  // A longer span (a signature, a payload's shape, a request line): a leading call's name, and
  // every word in it that can only be code.
  const names = new Set<string>();
  const call = new RegExp(`^(${IDENT})(?:<[^>]*>)?\\(`).exec(span);
  if (call) names.add(call[1]!);
  for (const word of span.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    if (CAMEL.test(word) || PASCAL_COMPOUND.test(word) || UPPER_SNAKE.test(word)) names.add(word);
  }
  return [...names].map((name) => ({ name, envOnly: false }));
}

function checkName(name: string, envOnly: boolean, known: Known): string | null {
  if (envOnly) return known.envVars.has(name) ? null : 'is not an environment variable of the server';
  if (name.endsWith('_*')) {
    const prefix = name.slice(0, -1);
    const all = [...known.envVars, ...known.errorCodes, ...known.names];
    return all.some((n) => n.startsWith(prefix)) ? null : `matches no name starting with ${prefix}`;
  }
  if (UPPER_SNAKE.test(name) && (known.errorCodes.has(name) || known.envVars.has(name))) return null;
  if (known.names.has(name)) return null;
  return UPPER_SNAKE.test(name)
    ? 'is no error code, environment variable or declared constant'
    : `occurs nowhere in the code of ${SOURCE_DIRS.join(', ')}`;
}

// ---------- the test ----------

describe('the documents that map the code', () => {
  const { files, folders } = listRepository();
  const known = collectKnown(files);
  const fileSet = new Set(files);
  const folderSet = new Set(folders);
  const topFolders = new Set(folders.filter((f) => !f.includes('/')));
  const baseNames = new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1)));
  const suffixes = new Set<string>();
  for (const entry of [...files, ...folders.map((f) => `${f}/`)]) {
    const parts = entry.split('/');
    for (let i = 1; i < parts.length; i++) suffixes.add(parts.slice(i).join('/'));
  }
  const exists = (p: string) => {
    if (!p.includes('/')) return baseNames.has(p);
    return fileSet.has(p) || folderSet.has(p.replace(/\/$/, '')) || suffixes.has(p);
  };

  it('finds the names and paths it checks against (the rules still fit the code)', () => {
    expect(known.errorCodes.has('NO_CREDITS')).toBe(true);
    expect(known.envVars.has('REDIS_URL')).toBe(true);
    for (const name of ['buildApp', 'EngineError', 'loadConfig', 'useT', 'TryOnEngine']) {
      expect(known.names.has(name), name).toBe(true);
    }
    expect(exists('routes/meta.ts') && exists('packages/contract/') && exists('vite.config.ts')).toBe(true);
  });

  it('reads code spans as Markdown does', () => {
    const spans = codeSpans('x.md', 'a `one` b ``two ` x`` c\n`three\nfour`\n\n```\n`no`\n```\n`five`');
    expect(spans.map((s) => [s.text, s.line])).toEqual([
      ['one', 1],
      ['two ` x', 1],
      ['three four', 2],
      ['five', 8],
    ]);
    expect(namesOf('limiterFor(engine)')).toEqual([{ name: 'limiterFor', envOnly: false }]);
    expect(namesOf('app.tryOnQueue').map((n) => n.name)).toEqual(['tryOnQueue']);
    expect(namesOf('free_trials_used')).toEqual([]);
    expect(namesOf('warm()').map((n) => n.name)).toEqual(['warm']);
    expect(namesOf('PADDLE_*').map((n) => n.name)).toEqual(['PADDLE_*']);
    expect(namesOf('DEMO_BILLING=true')).toEqual([{ name: 'DEMO_BILLING', envOnly: true }]);
    expect(namesOf('tryOn({person, lowerGarment?}) → {image, mimeType}').map((n) => n.name)).toEqual([
      'tryOn',
      'lowerGarment',
      'mimeType',
    ]);
    expect(namesOf('None; Secure')).toEqual([]);
    expect(pathOf('billing/paddle/*', new Set())).toBe('billing/paddle/');
    expect(pathOf('/api/config', new Set())).toBeNull();
    expect(withoutComments("const a = 1; // limiterFor\n/* raceDeadline */ const b = '//x';")).not.toMatch(
      /limiterFor|raceDeadline/,
    );
  });

  for (const doc of DOCS) {
    it(`${doc} names only paths and code that exist`, () => {
      const spans = codeSpans(doc, fs.readFileSync(path.join(ROOT, doc), 'utf8'));
      const missing: string[] = [];
      for (const span of spans) {
        const p = pathOf(span.text, topFolders);
        if (p !== null) {
          if (!exists(p)) missing.push(`${doc}:${span.line}: path \`${span.text}\` does not exist`);
          continue;
        }
        for (const { name, envOnly } of namesOf(span.text)) {
          const why = checkName(name, envOnly, known);
          if (why) missing.push(`${doc}:${span.line}: name \`${name}\` ${why}`);
        }
      }
      expect(missing, `${missing.length} missing:\n${missing.join('\n')}\n`).toEqual([]);
    });
  }
});
