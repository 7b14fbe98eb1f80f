/**
 * Garment classifier benchmark: suggest a category for every garment photo of a fixtures
 * folder (`garment/{upper_body,lower_body,dresses}/*`; the folder is the true category) and
 * print per-category and overall accuracy, the confusion matrix and the time per photo.
 *
 *   node --conditions=source --import tsx bench/src/classifier.ts [--fixtures DIR]... [--max-side N]
 *
 * Without --fixtures: the try-on fixture set, and the openly licensed set beside it when present.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { CATEGORY_VALUES, type Category } from '@aidressup/contract';
import { classifyGarment, type GarmentClassification } from '@aidressup/engine';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');
export const DEFAULT_CLASSIFIER_FIXTURES = join(repoRoot, '..', 'shared', 'fixtures', 'tryon');

export interface ClassifierResult {
  file: string;
  truth: Category;
  result: GarmentClassification;
  /** Median of the timed runs (ms). */
  ms: number;
}

export interface ClassifierBenchSummary {
  fixtures: string;
  images: number;
  accuracy: number;
  perCategory: Record<Category, { n: number; correct: number; accuracy: number }>;
  /** confusion[truth][predicted] = count. */
  confusion: Record<Category, Record<Category, number>>;
  p50: number;
  p95: number;
  /** CPU time per classification (less sensitive to other load on the machine than wall time). */
  cpuP50: number;
  cpuP95: number;
  results: ClassifierResult[];
}

/** Decode as the server does: EXIF rotation, long side ≤ 1024, RGBA. */
export async function decode(
  bytes: Buffer,
): Promise<{ image: { width: number; height: number; data: Uint8Array }; hasAlpha: boolean }> {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(1024, 1024, { fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    },
    hasAlpha: meta.hasAlpha === true,
  };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

export async function runClassifierBench(
  opts: { fixtures?: string; runs?: number; maxSide?: number; log?: (line: string) => void } = {},
): Promise<ClassifierBenchSummary> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const fixtures = resolve(opts.fixtures ?? process.env.BENCH_FIXTURES ?? DEFAULT_CLASSIFIER_FIXTURES);
  const runs = opts.runs ?? 5;
  const files: { file: string; truth: Category }[] = [];
  for (const truth of CATEGORY_VALUES) {
    const d = join(fixtures, 'garment', truth);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d)
      .filter((n) => /\.(jpe?g|png|webp)$/i.test(n))
      .sort())
      files.push({ file: `garment/${truth}/${f}`, truth });
  }
  const decoded = await Promise.all(files.map(async (f) => decode(readFileSync(join(fixtures, f.file)))));
  // Warm-up (the JIT), then time each photo `runs` times.
  for (const d of decoded) classifyGarment(d.image, { hasAlpha: d.hasAlpha });
  const times: number[] = [];
  const cpu: number[] = [];
  const results: ClassifierResult[] = files.map((f, i) => {
    const d = decoded[i]!;
    const own: number[] = [];
    let result!: GarmentClassification;
    for (let r = 0; r < runs; r++) {
      const c = process.cpuUsage();
      const t = performance.now();
      result = classifyGarment(d.image, { hasAlpha: d.hasAlpha, ...(opts.maxSide ? { maxSide: opts.maxSide } : {}) });
      own.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    times.push(...own);
    return {
      ...f,
      result,
      ms: percentile(
        own.sort((a, b) => a - b),
        50,
      ),
    };
  });

  const zero = () => Object.fromEntries(CATEGORY_VALUES.map((c) => [c, 0])) as Record<Category, number>;
  const confusion = Object.fromEntries(CATEGORY_VALUES.map((c) => [c, zero()])) as Record<
    Category,
    Record<Category, number>
  >;
  for (const r of results) confusion[r.truth][r.result.category]++;
  const perCategory = Object.fromEntries(
    CATEGORY_VALUES.map((c) => {
      const n = results.filter((r) => r.truth === c).length;
      const correct = confusion[c][c];
      return [c, { n, correct, accuracy: n ? correct / n : 0 }];
    }),
  ) as ClassifierBenchSummary['perCategory'];
  const correct = results.filter((r) => r.result.category === r.truth).length;
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const summary: ClassifierBenchSummary = {
    fixtures,
    images: results.length,
    accuracy: results.length ? correct / results.length : 0,
    perCategory,
    confusion,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpuP50: percentile(cpu, 50),
    cpuP95: percentile(cpu, 95),
    results,
  };

  log(`garment classifier: ${fixtures} (${results.length} photos, ${runs} runs each)`);
  for (const r of results) {
    const ok = r.result.category === r.truth;
    log(
      `  ${ok ? 'ok  ' : 'MISS'} ${r.file.padEnd(44).slice(0, 44)} → ${r.result.category.padEnd(10)} ${r.result.confidence.toFixed(2)}  ${r.ms.toFixed(1).padStart(5)} ms`,
    );
  }
  log('');
  log('| category | photos | correct | accuracy |');
  log('|---|---|---|---|');
  for (const c of CATEGORY_VALUES)
    log(`| ${c} | ${perCategory[c].n} | ${perCategory[c].correct} | ${pct(perCategory[c].accuracy)} |`);
  log(`| overall | ${results.length} | ${correct} | ${pct(summary.accuracy)} |`);
  log('');
  log(`| true \\ predicted | ${CATEGORY_VALUES.join(' | ')} |`);
  log(`|---|${CATEGORY_VALUES.map(() => '---').join('|')}|`);
  for (const t of CATEGORY_VALUES) log(`| ${t} | ${CATEGORY_VALUES.map((p) => confusion[t][p]).join(' | ')} |`);
  log('');
  log(
    `time per classification p50 / p95: ${summary.p50.toFixed(1)} / ${summary.p95.toFixed(1)} ms wall, ${summary.cpuP50.toFixed(1)} / ${summary.cpuP95.toFixed(1)} ms CPU (target ≤ 100 ms)`,
  );
  return summary;
}

function argValues(name: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === name && process.argv[i + 1]) out.push(process.argv[i + 1]!);
  });
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  sharp.cache(false);
  const given = argValues('--fixtures');
  const open = join(DEFAULT_CLASSIFIER_FIXTURES, '..', 'open');
  const sets = given.length
    ? given
    : [DEFAULT_CLASSIFIER_FIXTURES, ...(existsSync(join(open, 'garment')) ? [open] : [])];
  (async () => {
    for (const s of sets) {
      await runClassifierBench({
        fixtures: s,
        ...(argValues('--max-side')[0] ? { maxSide: Number(argValues('--max-side')[0]) } : {}),
      });
      console.log('');
    }
  })().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
