/**
 * Local engine benchmark: every fitting person × garment pair from a fixtures folder.
 * Prints per-pair and summary figures and writes a contact sheet
 * (person | garment | result) to bench/out/engine-contact-sheet.png.
 *
 *   npm run bench:engine -- [--fixtures DIR] [--threads N] [--limit N] [--kept]
 *                           [--upper] [--sheets] [--ladders] [--save DIR] [--before DIR] [--from DIR]
 *                           [--only SETS]
 * (`--kept`: only the CPU per try-on of presses with the person photo fresh or kept and the
 * garments new or seen before (the workers' garment cache), `engine-kept.ts`;
 * `--upper`: only the tops' faults, `engine-upper.ts`, with their contact sheets under `--sheets`,
 * the results saved to `--save`, shown beside another build's saved `--before`, or read `--from`;
 * `--only shared,tuning,held-back`: those sets only; `--ladders`: the tuning set's results of both
 * builds sorted by each fault's figure, to choose its threshold by eye)
 *   BENCH_FIXTURES=DIR npm run bench:engine
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import {
  createLocalEngine,
  isEngineError,
  scoreTryOnBytes,
  type ShopperFigures,
  type TryOnScores,
} from '@aidressup/engine';
import { runClassifierBench, type ClassifierBenchSummary } from './classifier.js';
import { runKeptBench, type KeptBenchSummary } from './engine-kept.js';
import { runUpperBench, type UpperSetSummary } from './engine-upper.js';

const here = dirname(fileURLToPath(import.meta.url));
sharp.cache(false);
const repoRoot = resolve(here, '..', '..');

export interface EngineBenchOptions {
  fixtures?: string;
  threads?: number;
  limit?: number;
  /** Only the kept-photo figures (fresh against kept), without the pairs and the classifier. */
  keptOnly?: boolean;
  /** Only the tops' faults (engine-upper.ts); `upper` passes its options on. */
  upperOnly?: boolean;
  upper?: { sheets?: boolean; ladders?: boolean; save?: string; before?: string; from?: string; only?: string[] };
  outDir?: string;
  log?: (line: string) => void;
}

export interface PairResult {
  person: string;
  garment: string;
  category: Category;
  ms: number;
  error?: string;
  /** The refusal's detail (what the engine's own checks found). */
  detail?: string;
  scores?: TryOnScores;
  figures?: ShopperFigures;
  timings?: Record<string, number>;
  image?: Uint8Array;
}

/** Targets of the shopper figures (see docs/local-engine.md). */
export const TARGETS = {
  offset: 0.15,
  offsetShare: 0.98,
  remnantP90: 0.1,
  piecesP90: 0.05,
  raggedP90: 1.6,
  refusedShare: 0.05,
  /** Time per try-on on an idle 2-core machine. */
  p50Ms: 200,
  p95Ms: 400,
} as const;

/** A garment that is itself in pieces (a set, straps apart) is not held to the pieces target. */
export const ownPieces = (f: ShopperFigures) => f.garmentPieces > TARGETS.piecesP90;

/** How far a result is from its targets (≥ 1: at least one figure misses); refusals first. */
export function badness(r: PairResult): number {
  const f = r.figures;
  if (!f) return Infinity;
  return Math.max(
    f.offset / TARGETS.offset,
    f.remnant / TARGETS.remnantP90,
    ownPieces(f) ? 0 : f.pieces / TARGETS.piecesP90,
    f.ragged / TARGETS.raggedP90,
  );
}

export interface EngineBenchSummary {
  pairs: number;
  refused: number;
  p50: number;
  p95: number;
  max: number;
  coldStartMs: number;
  /** The first try-on after the start (its code not yet compiled by the JIT). */
  firstMs: number;
  peakRssMb: number;
  transferRate: number;
  preservationRate: number;
  placementRate: number;
  /** CPU time of the whole process (all workers) per try-on: less sensitive to other load than wall time. */
  cpuMsPerTryOn: number;
  /** Median of each pipeline stage (ms, wall time inside the worker). */
  stageP50: Record<string, number>;
  offsetOkShare: number;
  offsetP50: number;
  remnantP50: number;
  remnantP90: number;
  piecesP90: number;
  raggedP50: number;
  raggedP90: number;
  contactSheet: string;
  results: PairResult[];
  /** The garment classifier on the same fixtures' garment photos. */
  classifier?: ClassifierBenchSummary;
  /** CPU per try-on with a fresh person photo and with a kept one (`engine-kept.ts`). */
  kept?: KeptBenchSummary;
  /** The tops' faults on the shared and the calibration photos (`engine-upper.ts`). */
  upper?: UpperSetSummary[];
}

const CATEGORY_DIRS: Record<string, Category> = {
  upper_body: 'upper_body',
  lower_body: 'lower_body',
  dresses: 'dresses',
};

interface Fixture {
  persons: { file: string; framing: 'full_body' | 'upper_body' }[];
  garments: { file: string; category: Category }[];
}

/** Read MANIFEST.tsv when present (framing of each person), else infer from the folders and names. */
export function loadFixtures(dir: string): Fixture {
  const persons: Fixture['persons'] = [];
  const garments: Fixture['garments'] = [];
  const manifest = join(dir, 'MANIFEST.tsv');
  const framing = new Map<string, string>();
  if (existsSync(manifest)) {
    const [head, ...lines] = readFileSync(manifest, 'utf8').trim().split('\n');
    const cols = head!.split('\t');
    const fi = cols.indexOf('file');
    const ki = cols.indexOf('kind');
    const ci = cols.indexOf('category');
    for (const l of lines) {
      const c = l.split('\t');
      if (c[ki] === 'person') framing.set(c[fi]!, c[ci]!);
    }
  }
  const isImage = (f: string) => /\.(jpe?g|png|webp)$/i.test(f);
  for (const f of readdirSync(join(dir, 'person')).filter(isImage).sort()) {
    const rel = `person/${f}`;
    const fr = framing.get(rel) ?? (/upper/i.test(f) ? 'upper_body' : 'full_body');
    persons.push({ file: rel, framing: fr === 'upper_body' ? 'upper_body' : 'full_body' });
  }
  for (const [sub, category] of Object.entries(CATEGORY_DIRS)) {
    const d = join(dir, 'garment', sub);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).filter(isImage).sort()) garments.push({ file: `garment/${sub}/${f}`, category });
  }
  return { persons, garments };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

async function thumb(bytes: Uint8Array | Buffer, w: number, h: number): Promise<Buffer> {
  return sharp(bytes).rotate().resize(w, h, { fit: 'contain', background: '#ffffff' }).png().toBuffer();
}

async function label(text: string, w: number, h: number, colour: string): Promise<Buffer> {
  const esc = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#ffffff"/><text x="4" y="${h - 5}" font-family="sans-serif" font-size="11" fill="${colour}">${esc}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Contact sheet: one cell per pair (person | garment | result + a label), `perRow` cells per row. */
export async function contactSheet(
  fixtures: string,
  results: PairResult[],
  file: string,
  perRow = 4,
  cellH = 200,
): Promise<void> {
  const tw = Math.round(cellH * 0.75);
  const labelH = 16;
  const cellW = tw * 3 + 8;
  const rows = Math.ceil(results.length / perRow);
  const comps: sharp.OverlayOptions[] = [];
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    const x = (i % perRow) * cellW;
    const y = Math.floor(i / perRow) * (cellH + labelH);
    comps.push({ input: await thumb(readFileSync(join(fixtures, r.person)), tw, cellH), left: x, top: y });
    comps.push({ input: await thumb(readFileSync(join(fixtures, r.garment)), tw, cellH), left: x + tw, top: y });
    if (r.image) comps.push({ input: await thumb(r.image, tw, cellH), left: x + tw * 2, top: y });
    const f = r.figures;
    const flags = f
      ? `o${f.offset.toFixed(2)} r${f.remnant.toFixed(2)} p${f.pieces.toFixed(2)}${ownPieces(f) ? '*' : ''} e${f.ragged.toFixed(2)}`
      : (r.error ?? '');
    const name = `${i + 1}. ${r.person.split('/').pop()!.slice(0, 8)} ${r.garment.split('/').pop()!.slice(0, 8)} ${flags}`;
    comps.push({
      input: await label(name, cellW - 8, labelH, badness(r) <= 1 ? '#222' : '#c00'),
      left: x,
      top: y + cellH,
    });
  }
  mkdirSync(dirname(file), { recursive: true });
  await sharp({
    create: {
      width: cellW * Math.min(perRow, results.length),
      height: Math.max(1, rows) * (cellH + labelH),
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite(comps)
    .png({ compressionLevel: 6 })
    .toFile(file);
}

export async function runEngineBench(opts: EngineBenchOptions = {}): Promise<EngineBenchSummary> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const fixtures = resolve(
    opts.fixtures ?? process.env.BENCH_FIXTURES ?? join(repoRoot, '..', 'shared', 'fixtures', 'tryon'),
  );
  const outDir = opts.outDir ?? join(repoRoot, 'bench', 'out');
  const upper = () =>
    runUpperBench({
      fixtures,
      calibration: join(repoRoot, '..', 'shared', 'fixtures', 'calibration'),
      outDir,
      log,
      ...(opts.threads ? { threads: opts.threads } : {}),
      ...opts.upper,
    });
  if (opts.upperOnly) return { upper: await upper() } as EngineBenchSummary;
  const fx = loadFixtures(fixtures);
  let pairs: { person: string; garment: string; category: Category }[] = [];
  for (const p of fx.persons)
    for (const g of fx.garments)
      if (p.framing === 'full_body' || g.category === 'upper_body')
        pairs.push({ person: p.file, garment: g.file, category: g.category });
  if (opts.limit) pairs = pairs.slice(0, opts.limit);
  if (opts.keptOnly) pairs = [];
  log(`fixtures: ${fixtures}`);
  log(
    `${fx.persons.length} people (${fx.persons.filter((p) => p.framing === 'full_body').length} full-body), ${fx.garments.length} garments → ${pairs.length} pairs`,
  );

  // The compiled worker, as the production server runs it (`npm run bench` builds first).
  // Its workers hold no garments: every pair's garment is analysed as a new one (the garment
  // cache's figures are the kept bench's 'seen' phases, on an engine of its own).
  const poolOptions = { compiledWorker: true, ...(opts.threads ? { threads: opts.threads } : {}) };
  const engine = createLocalEngine({ ...poolOptions, garmentCacheBytes: 0 });
  const t0 = performance.now();
  await engine.warm();
  const coldStartMs = performance.now() - t0;
  log(`cold start (pool started, models loaded and run once): ${coldStartMs.toFixed(0)} ms`);

  const bytes = new Map<string, Uint8Array>();
  const load = (f: string) => {
    let b = bytes.get(f);
    if (!b) {
      b = readFileSync(join(fixtures, f));
      bytes.set(f, b);
    }
    return b;
  };
  const results: PairResult[] = new Array(pairs.length);
  const keypoints: ({ x: number; y: number; score: number }[] | undefined)[] = new Array(pairs.length);
  const threads = opts.threads ?? (await import('node:os')).availableParallelism();
  let next = 0;
  const cpu0 = process.cpuUsage();
  // Keep exactly one request per worker in flight, so each timing is one try-on, not queueing.
  await Promise.all(
    Array.from({ length: threads }, async () => {
      while (next < pairs.length) {
        const i = next++;
        const p = pairs[i]!;
        const t = performance.now();
        try {
          const r = await engine.tryOnWithInfo({
            person: load(p.person),
            garment: load(p.garment),
            category: p.category,
          });
          results[i] = {
            ...p,
            ms: performance.now() - t,
            image: r.image,
            figures: r.info.quality,
            timings: r.info.timings,
          };
          keypoints[i] = r.info.keypoints;
        } catch (e) {
          results[i] = {
            ...p,
            ms: performance.now() - t,
            error: isEngineError(e) ? e.code : String(e),
            ...(isEngineError(e) && e.detail ? { detail: e.detail } : {}),
          };
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerTryOn = (cpu.user + cpu.system) / 1000 / Math.max(1, pairs.length);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  // Kept person photos: fresh against kept, on the same engine (its lines printed with the summary).
  const keptLines: string[] = [];
  const cachedEngine = createLocalEngine(poolOptions);
  await cachedEngine.warm();
  const kept = await runKeptBench(engine, cachedEngine, fixtures, fx, {
    log: (line) => keptLines.push(line),
    ...(opts.limit ? { persons: Math.max(1, Math.ceil(opts.limit / 4)) } : {}),
  });
  await Promise.all([engine.close(), cachedEngine.close()]);
  if (opts.keptOnly) {
    for (const line of keptLines) log(line);
    return { kept } as EngineBenchSummary;
  }

  // Scores (after timing, so scoring does not compete with the workers).
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!;
    if (r.image && keypoints[i])
      r.scores = await scoreTryOnBytes(load(r.person), load(r.garment), r.image, r.category, keypoints[i]!);
    const s = r.scores;
    const f = r.figures;
    log(
      [
        r.person.split('/').pop()!.padEnd(28).slice(0, 28),
        r.garment.split('/').pop()!.padEnd(28).slice(0, 28),
        r.category.padEnd(10),
        `${r.ms.toFixed(0).padStart(5)} ms`,
        s
          ? `transfer ${s.transfer.result.toFixed(2)} vs ${s.transfer.original.toFixed(2)} ${s.transfer.pass ? 'ok' : 'FAIL'} | preserve mad ${(s.preservation.meanAbsDiff * 255).toFixed(2)} head ${(s.preservation.headChanged * 100).toFixed(1)}% ${s.preservation.pass ? 'ok' : 'FAIL'} | place ${(s.placement.inBand * 100).toFixed(0)}% ${s.placement.pass ? 'ok' : 'FAIL'}`
          : `refused ${r.error}${r.detail ? ` (${r.detail})` : ''}`,
        f
          ? `| offset ${f.offset.toFixed(3)} remnant ${f.remnant.toFixed(3)} pieces ${f.pieces.toFixed(3)}${ownPieces(f) ? ' (garment in pieces)' : ''} ragged ${f.ragged.toFixed(2)} kept ${f.kept.toFixed(2)}`
          : '',
      ].join('  '),
    );
  }
  const done = results.filter((r) => r.scores);
  const times = done.map((r) => r.ms).sort((a, b) => a - b);
  const rate = (f: (s: TryOnScores) => boolean) =>
    results.length ? results.filter((r) => r.scores && f(r.scores)).length / results.length : 0;
  const contactFile = join(outDir, 'engine-contact-sheet.png');
  // Worst first: refusals, then by how far the shopper figures are from their targets.
  const worstFirst = [...results].sort((a, b) => badness(b) - badness(a));
  await contactSheet(fixtures, worstFirst, contactFile);
  const figs = done.map((r) => r.figures!).filter(Boolean);
  const sortedOf = (v: number[]) => v.sort((a, b) => a - b);
  const stages = new Map<string, number[]>();
  for (const r of done)
    for (const [k, v] of Object.entries(r.timings ?? {})) stages.set(k, [...(stages.get(k) ?? []), v]);
  const stageP50 = Object.fromEntries([...stages].map(([k, v]) => [k, percentile(sortedOf(v), 50)]));
  const summary: EngineBenchSummary = {
    pairs: results.length,
    refused: results.length - done.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1] ?? 0,
    coldStartMs,
    firstMs: results[0]?.ms ?? 0,
    peakRssMb,
    transferRate: rate((s) => s.transfer.pass),
    preservationRate: rate((s) => s.preservation.pass),
    placementRate: rate((s) => s.placement.pass),
    cpuMsPerTryOn,
    stageP50,
    offsetOkShare: figs.length ? figs.filter((f) => f.offset <= TARGETS.offset).length / figs.length : 0,
    offsetP50: percentile(sortedOf(figs.map((f) => f.offset)), 50),
    remnantP50: percentile(sortedOf(figs.map((f) => f.remnant)), 50),
    remnantP90: percentile(sortedOf(figs.map((f) => f.remnant)), 90),
    piecesP90: percentile(sortedOf(figs.filter((f) => !ownPieces(f)).map((f) => f.pieces)), 90),
    raggedP50: percentile(sortedOf(figs.map((f) => f.ragged)), 50),
    raggedP90: percentile(sortedOf(figs.map((f) => f.ragged)), 90),
    contactSheet: contactFile,
    results,
  };

  log('');
  log('| figure | value | target |');
  log('|---|---|---|');
  log(
    `| pairs (refused) | ${summary.pairs} (${summary.refused}, ${pct(summary.refused / Math.max(1, summary.pairs))}) | refused ≤ ${pct(TARGETS.refusedShare)} |`,
  );
  log(`| time per try-on p50 | ${summary.p50.toFixed(0)} ms | ≤ ${TARGETS.p50Ms} ms (idle machine) |`);
  log(`| time per try-on p95 | ${summary.p95.toFixed(0)} ms | ≤ ${TARGETS.p95Ms} ms (idle machine) |`);
  log(`| time per try-on max | ${summary.max.toFixed(0)} ms | |`);
  log(`| CPU time per try-on (all threads) | ${summary.cpuMsPerTryOn.toFixed(0)} ms | |`);
  log(
    `| stage p50 | ${Object.entries(summary.stageP50)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} ms | |`,
  );
  log(`| cold start | ${summary.coldStartMs.toFixed(0)} ms | ≤ 3000 ms |`);
  log(`| first try-on after the start | ${summary.firstMs.toFixed(0)} ms | |`);
  log(`| peak RSS | ${summary.peakRssMb.toFixed(0)} MB | ≤ 600 MB |`);
  log(`| transfer better than original | ${pct(summary.transferRate)} | ≥ 90 % |`);
  log(`| preservation | ${pct(summary.preservationRate)} | 100 % |`);
  log(`| placement | ${pct(summary.placementRate)} | ≥ 95 % |`);
  log(
    `| offset ≤ ${TARGETS.offset} body widths (p50) | ${pct(summary.offsetOkShare)} of results (${summary.offsetP50.toFixed(3)}) | ≥ ${pct(TARGETS.offsetShare)} |`,
  );
  log(
    `| remnant p50 / p90 | ${summary.remnantP50.toFixed(3)} / ${summary.remnantP90.toFixed(3)} | p90 ≤ ${TARGETS.remnantP90} |`,
  );
  log(`| pieces p90 (garments in one piece) | ${summary.piecesP90.toFixed(3)} | ≤ ${TARGETS.piecesP90} |`);
  log(
    `| ragged edges p50 / p90 | ${summary.raggedP50.toFixed(2)} / ${summary.raggedP90.toFixed(2)} | p90 ≤ ${TARGETS.raggedP90} |`,
  );
  log(
    `| results within every target | ${pct(done.filter((r) => badness(r) <= 1).length / Math.max(1, results.length))} | |`,
  );
  log(`contact sheet (worst first): ${contactFile}`);
  for (const line of keptLines) log(line);
  summary.kept = kept;
  log('');
  summary.classifier = await runClassifierBench({ fixtures, log });
  if (existsSync(join(repoRoot, '..', 'shared', 'fixtures', 'calibration', 'MANIFEST.tsv')))
    summary.upper = await upper();
  return summary;
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const threads = argValue('--threads');
  const limit = argValue('--limit');
  const fixtures = argValue('--fixtures');
  const save = argValue('--save');
  const before = argValue('--before');
  const from = argValue('--from');
  const only = argValue('--only');
  runEngineBench({
    keptOnly: process.argv.includes('--kept'),
    upperOnly: process.argv.includes('--upper'),
    upper: {
      sheets: process.argv.includes('--sheets'),
      ladders: process.argv.includes('--ladders'),
      ...(save ? { save: resolve(save) } : {}),
      ...(before ? { before: resolve(before) } : {}),
      ...(from ? { from: resolve(from) } : {}),
      ...(only ? { only: only.split(',') } : {}),
    },
    ...(fixtures ? { fixtures } : {}),
    ...(threads ? { threads: Number(threads) } : {}),
    ...(limit ? { limit: Number(limit) } : {}),
  }).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
