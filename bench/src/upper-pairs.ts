/**
 * The upper-body try-ons `npm run bench:engine` judges the tops on: every top on every person of
 * the shared try-on photos, and, from the calibration photos, each top on the next two people it
 * fits (as `npm run bench:checks` pairs them), in the two sets by source repository
 * (`TUNING_SOURCES`): the figures' thresholds are chosen on the tuning set and reported on the set
 * held back. The runner here uses the engine's public interface only, so that the same pairs can
 * be run through another build of the engine and their results compared.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalEngine, isEngineError } from '@aidressup/engine';
import { createPhotoChecks } from '@aidressup/engine/photo-checks';
import { calibrationSets } from './checks-data.js';

export type UpperSetName = 'shared' | 'tuning' | 'held-back';

export interface UpperPair {
  set: UpperSetName;
  /** Paths of the two photos. */
  person: string;
  garment: string;
  /** A short name for the pair (also the result's file name). */
  id: string;
}

export interface UpperRun extends UpperPair {
  /** The engine's refusal code, or undefined when there is a result. */
  error?: string;
  detail?: string;
  result?: Uint8Array;
  ms: number;
}

type Row = Record<string, string>;
function manifest(file: string): Row[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const cols = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i]!, v])));
}

const base = (f: string) =>
  f
    .split('/')
    .pop()!
    .replace(/\.[a-z]+$/i, '');
const short = (f: string) => base(f).replace(/^.*__/, '').slice(0, 18);

/** Every top on every person of the shared try-on photos (MANIFEST.tsv, as bench:engine reads them). */
export function sharedUpperPairs(dir: string): UpperPair[] {
  const rows = manifest(join(dir, 'MANIFEST.tsv'));
  const persons = rows.filter((r) => r.kind === 'person').map((r) => r.file!);
  const tops = rows.filter((r) => r.kind === 'garment' && r.category === 'upper_body').map((r) => r.file!);
  return persons.flatMap((p) =>
    tops.map((g) => ({
      set: 'shared' as const,
      person: join(dir, p),
      garment: join(dir, g),
      id: `${short(p)}+${short(g)}`,
    })),
  );
}

/**
 * A calibration set's tops, each on the next `perTop` people it fits, exactly as `npm run
 * bench:checks` pairs its try-ons of valid pairs (judgeSet in checks.ts): the people the person
 * checks pass for a top, the product photos the garment checks pass; the offset moves on by one
 * for every such product photo of a clothing category.
 */
export async function calibrationUpperPairs(dir: string, perTop = 2): Promise<UpperPair[]> {
  const checks = await createPhotoChecks();
  const pairs: UpperPair[] = [];
  for (const set of await calibrationSets(dir)) {
    const name: UpperSetName = set.name.includes('tuning') ? 'tuning' : 'held-back';
    const fits: string[] = [];
    for (const p of set.persons)
      if (
        (p.framing === 'full_body' || p.framing === 'upper_body') &&
        !(await checks.person(p.bytes, 'upper_body')).refused
      )
        fits.push(p.name);
    let next = 0;
    for (const g of set.products) {
      if (!g.category || (await checks.garment(g.bytes)).refused) continue;
      if (g.category === 'upper_body')
        for (let i = 0; i < Math.min(perTop, fits.length); i++) {
          const person = fits[(next + i) % fits.length]!;
          pairs.push({
            set: name,
            person: join(dir, 'images', person),
            garment: join(dir, 'images', g.name),
            id: `${short(person)}+${short(g.name)}`,
          });
        }
      next++;
    }
  }
  return pairs;
}

export interface RunOptions {
  threads?: number;
  /** Save each result (JPEG) and the list of runs here. */
  saveDir?: string;
  log?: (line: string) => void;
}

/** Run the pairs through a local engine (compiled worker, one try-on per worker in flight). */
export async function runUpperPairs(pairs: UpperPair[], opts: RunOptions = {}): Promise<UpperRun[]> {
  const engine = createLocalEngine({ compiledWorker: true, ...(opts.threads ? { threads: opts.threads } : {}) });
  await engine.warm();
  const bytes = new Map<string, Uint8Array>();
  const load = (f: string) => {
    let b = bytes.get(f);
    if (!b) bytes.set(f, (b = new Uint8Array(readFileSync(f))));
    return b;
  };
  const runs: UpperRun[] = new Array(pairs.length);
  const threads = opts.threads ?? (await import('node:os')).availableParallelism();
  let next = 0;
  await Promise.all(
    Array.from({ length: threads }, async () => {
      while (next < pairs.length) {
        const i = next++;
        const p = pairs[i]!;
        const t = performance.now();
        try {
          const r = await engine.tryOn({ person: load(p.person), garment: load(p.garment), category: 'upper_body' });
          runs[i] = { ...p, result: r.image, ms: performance.now() - t };
        } catch (e) {
          const run: UpperRun = { ...p, ms: performance.now() - t, error: isEngineError(e) ? e.code : String(e) };
          if (isEngineError(e) && e.detail) run.detail = e.detail;
          runs[i] = run;
        }
      }
    }),
  );
  await engine.close();
  if (opts.saveDir) saveRuns(opts.saveDir, runs);
  opts.log?.(`upper-body pairs: ${runs.length} (${runs.filter((r) => r.error).length} refused)`);
  return runs;
}

/** Results as files (`<set>/<n>.jpg`) and the list as runs.json, to be read back with `loadRuns`. */
export function saveRuns(dir: string, runs: UpperRun[]): void {
  const list = runs.map((r, n) => {
    const { result, ...rest } = r;
    let file: string | undefined;
    if (result) {
      mkdirSync(join(dir, r.set), { recursive: true });
      file = join(r.set, `${String(n).padStart(3, '0')}.jpg`);
      writeFileSync(join(dir, file), result);
    }
    return { ...rest, file };
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(list, null, 1));
}

export function loadRuns(dir: string): UpperRun[] | null {
  const f = join(dir, 'runs.json');
  if (!existsSync(f)) return null;
  const list = JSON.parse(readFileSync(f, 'utf8')) as (UpperRun & { file?: string })[];
  return list.map(({ file, ...r }) => (file ? { ...r, result: new Uint8Array(readFileSync(join(dir, file))) } : r));
}
