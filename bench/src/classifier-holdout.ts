/**
 * Garment classifier, measured held out by source: the calibration photos
 * (/work/shared/fixtures/calibration, labelled in MANIFEST.tsv with their source repository) are
 * split by source into a tuning part and a held-back part. The suggestion threshold (the confidence
 * at or above which the page preselects the suggested category) is chosen on the tuning part only,
 * and the figures that count are the held-back part's: accuracy and confusion by category, and,
 * at the chosen threshold, how many suggestions are made and how many of them are right. The
 * repository's own open garments (fixtures/open) are reported beside them.
 *
 *   node --conditions=source --import tsx bench/src/classifier-holdout.ts [--calibration DIR] [--open DIR]
 *
 * Reads the research photos only from where they lie; nothing of them is written anywhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { CATEGORY_SUGGESTION_MIN_CONFIDENCE, CATEGORY_VALUES, type Category } from '@aidressup/contract';
import { classifyGarment, type GarmentClassification } from '@aidressup/engine';
import { DEFAULT_CLASSIFIER_FIXTURES, decode } from './classifier.js';

/** Sources the threshold may be chosen on; every other source is held back. */
export const TUNING_SOURCES = [
  'BoyuanJiang/FitDiT',
  'ShineChen1024/MagicClothing',
  'geyuying/PF-AFN',
  'nftblackmagic/catvton-flux',
  'bytedance/DreamFit',
  'muzishen/IMAGDressing',
];

export interface Sample {
  file: string;
  source: string;
  truth: Category;
}

export interface Scored extends Sample {
  result: GarmentClassification;
}

const isCategory = (c: string): c is Category => (CATEGORY_VALUES as readonly string[]).includes(c);

/** Product photos of a garment alone (`garment_flat`) whose label is a try-on category. */
export function readManifest(dir: string): Sample[] {
  const [, ...rows] = readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const out: Sample[] = [];
  for (const row of rows) {
    const [file, source, , , , kind, category] = row.split('\t');
    if (file && source && kind === 'garment_flat' && category && isCategory(category))
      out.push({ file: join(dir, 'images', file), source, truth: category });
  }
  return out;
}

function readFolders(dir: string, source: string): Sample[] {
  return CATEGORY_VALUES.flatMap((truth) => {
    const d = join(dir, 'garment', truth);
    if (!existsSync(d)) return [];
    return readdirSync(d)
      .filter((n) => /\.(jpe?g|png|webp)$/i.test(n))
      .sort()
      .map((n) => ({ file: join(d, n), source, truth }));
  });
}

async function score(samples: Sample[]): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const s of samples) {
    const d = await decode(readFileSync(s.file));
    out.push({ ...s, result: classifyGarment(d.image, { hasAlpha: d.hasAlpha }) });
  }
  return out;
}

export interface SplitFigures {
  n: number;
  correct: number;
  /** confusion[truth][predicted]. */
  confusion: Record<Category, Record<Category, number>>;
  /** At the threshold: suggestions made (confidence ≥ threshold) and how many of them are right. */
  suggested: number;
  suggestedRight: number;
}

export function figures(scored: Scored[], threshold: number): SplitFigures {
  const zero = () => Object.fromEntries(CATEGORY_VALUES.map((c) => [c, 0])) as Record<Category, number>;
  const confusion = Object.fromEntries(CATEGORY_VALUES.map((c) => [c, zero()])) as SplitFigures['confusion'];
  let correct = 0;
  let suggested = 0;
  let suggestedRight = 0;
  for (const s of scored) {
    const ok = s.result.category === s.truth;
    confusion[s.truth][s.result.category]++;
    if (ok) correct++;
    if (s.result.confidence >= threshold) {
      suggested++;
      if (ok) suggestedRight++;
    }
  }
  return { n: scored.length, correct, confusion, suggested, suggestedRight };
}

/**
 * The threshold chosen on the tuning part: the lowest one (most suggestions) whose suggestions are
 * right at least `minPrecision` of the time there; the highest candidate if none is.
 */
export function chooseThreshold(tuning: Scored[], minPrecision = 0.9): number {
  const candidates = Array.from({ length: 19 }, (_, i) => 0.4 + i * 0.03);
  for (const t of candidates) {
    const f = figures(tuning, t);
    if (f.suggested && f.suggestedRight / f.suggested >= minPrecision) return Number(t.toFixed(2));
  }
  return Number(candidates[candidates.length - 1]!.toFixed(2));
}

const pct = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(1)} %` : '–');

function report(name: string, scored: Scored[], threshold: number, log: (l: string) => void): SplitFigures {
  const f = figures(scored, threshold);
  const sources = [...new Set(scored.map((s) => s.source))].sort();
  log(`## ${name}: ${f.n} photos from ${sources.length} sources (${sources.join(', ')})`);
  log(`accuracy ${f.correct}/${f.n} = ${pct(f.correct, f.n)}`);
  for (const c of CATEGORY_VALUES) {
    const n = CATEGORY_VALUES.reduce((a, p) => a + f.confusion[c][p], 0);
    log(`  ${c.padEnd(10)} ${f.confusion[c][c]}/${n} = ${pct(f.confusion[c][c], n)}`);
  }
  log(`| true \\ predicted | ${CATEGORY_VALUES.join(' | ')} |`);
  log(`|---|${CATEGORY_VALUES.map(() => '---').join('|')}|`);
  for (const t of CATEGORY_VALUES) log(`| ${t} | ${CATEGORY_VALUES.map((p) => f.confusion[t][p]).join(' | ')} |`);
  log(
    `at threshold ${threshold.toFixed(2)}: ${f.suggested}/${f.n} suggested (${pct(f.suggested, f.n)}), right ${f.suggestedRight}/${f.suggested} = ${pct(f.suggestedRight, f.suggested)}`,
  );
  for (const s of scored.filter((x) => x.result.category !== x.truth))
    log(`  MISS ${s.file.split('/').pop()} (${s.truth}) → ${s.result.category} ${s.result.confidence.toFixed(2)}`);
  log('');
  return f;
}

export async function runHoldout(
  opts: { calibration?: string; open?: string; log?: (l: string) => void } = {},
): Promise<{ threshold: number; tuning: SplitFigures; heldBack: SplitFigures; open: SplitFigures | null }> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const calibration = resolve(opts.calibration ?? join(DEFAULT_CLASSIFIER_FIXTURES, '..', 'calibration'));
  const openDir = resolve(opts.open ?? join(DEFAULT_CLASSIFIER_FIXTURES, '..', 'open'));
  const all = await score(readManifest(calibration));
  const tuning = all.filter((s) => TUNING_SOURCES.includes(s.source));
  const heldBack = all.filter((s) => !TUNING_SOURCES.includes(s.source));
  const threshold = chooseThreshold(tuning);
  log(`garment classifier held out by source (${calibration})`);
  log(
    `suggestion threshold chosen on the tuning sources: ${threshold.toFixed(2)} (the product uses ${CATEGORY_SUGGESTION_MIN_CONFIDENCE})`,
  );
  log('');
  const t = report('tuning sources', tuning, threshold, log);
  const h = report('held-back sources', heldBack, threshold, log);
  const o = existsSync(join(openDir, 'garment'))
    ? report('open garments of the repository', await score(readFolders(openDir, 'open')), threshold, log)
    : null;
  return { threshold, tuning: t, heldBack: h, open: o };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  sharp.cache(false);
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const calibration = arg('--calibration');
  const open = arg('--open');
  runHoldout({ ...(calibration ? { calibration } : {}), ...(open ? { open } : {}) }).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
