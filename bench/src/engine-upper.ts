/**
 * The tops, fault by fault (part of `npm run bench:engine`): every upper-body pair of the shared
 * try-on photos and of the calibration photos (upper-pairs.ts) through the compiled engine, and
 * for each result the six faults' figures (upper-faults.ts). A figure beyond its threshold marks
 * the result as showing that fault; the thresholds were chosen on the calibration photos'
 * tuning sources and are reported on the sources held back. With `--sheets` it writes contact
 * sheets of every pair (upper-sheets.ts), beside the results of another build when `--before DIR`
 * names the results it saved (`--save DIR`).
 */
import { join } from 'node:path';
import { createPhotoChecks } from '@aidressup/engine/photo-checks';
import {
  calibrationUpperPairs,
  loadRuns,
  runUpperPairs,
  saveRuns,
  sharedUpperPairs,
  type UpperRun,
} from './upper-pairs.js';
import { upperFaults, type UpperFaults } from './upper-faults.js';
import { upperSheets } from './upper-sheets.js';
import { ladder } from './upper-ladders.js';

/**
 * A result shows a fault when its figure is beyond this (chosen on the tuning sources: see
 * docs/local-engine.md). `light` is the other way round: at most this correlation is no light.
 */
export const FAULT_THRESHOLDS = {
  remnant: 0.02,
  slices: 0.04,
  flatArms: 0.5,
  sleeve: 35,
  rim: 0.05,
  outside: 0.02,
  light: 0.2,
} as const;

type FaultName = keyof typeof FAULT_THRESHOLDS;
const NAMES = Object.keys(FAULT_THRESHOLDS) as FaultName[];

export function faultsShown(f: UpperFaults): FaultName[] {
  return NAMES.filter((k) => {
    const v = f[k];
    if (v === null) return false;
    return k === 'light' ? v <= FAULT_THRESHOLDS.light : v > FAULT_THRESHOLDS[k];
  });
}

export interface UpperBenchOptions {
  fixtures: string;
  calibration: string;
  outDir: string;
  threads?: number;
  sheets?: boolean;
  /** Results of another build (`save`), shown beside these on the sheets. */
  before?: string;
  /** Save the results here (to compare another build with). */
  save?: string;
  /** Read the results saved here instead of running the engine. */
  from?: string;
  /** Only these sets (shared, tuning, held-back). */
  only?: string[];
  /** Ladders of the tuning set's results sorted by each figure (upper-ladders.ts). */
  ladders?: boolean;
  log?: (line: string) => void;
}

export interface UpperSetSummary {
  set: string;
  pairs: number;
  refused: number;
  /** Results showing each fault, and the median figure. */
  shown: Record<FaultName, number>;
  median: Record<FaultName, number>;
  /** Results showing none of the faults. */
  clean: number;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
};

export async function runUpperBench(o: UpperBenchOptions): Promise<UpperSetSummary[]> {
  const log = o.log ?? ((l: string) => console.log(l));
  let runs: UpperRun[];
  const saved = o.from ? loadRuns(o.from) : null;
  if (saved) runs = saved;
  else {
    const want = (set: string) => !o.only || o.only.includes(set);
    const pairs = [
      ...(want('shared') ? sharedUpperPairs(o.fixtures) : []),
      ...(want('tuning') || want('held-back')
        ? (await calibrationUpperPairs(o.calibration)).filter((p) => want(p.set))
        : []),
    ];
    runs = await runUpperPairs(pairs, { ...(o.threads ? { threads: o.threads } : {}) });
    if (o.save) saveRuns(o.save, runs);
  }
  const checks = await createPhotoChecks();
  const people = new Map<string, Awaited<ReturnType<typeof checks.analysePhoto>>>();
  const garments = new Map<string, Awaited<ReturnType<typeof checks.garmentCutout>>>();
  const { readFileSync } = await import('node:fs');
  const faultsOf = async (list: UpperRun[]): Promise<(UpperFaults | null)[]> => {
    const out: (UpperFaults | null)[] = [];
    for (const r of list) {
      if (!r.result) {
        out.push(null);
        continue;
      }
      let p = people.get(r.person);
      if (!p) people.set(r.person, (p = await checks.analysePhoto(new Uint8Array(readFileSync(r.person)))));
      let g = garments.get(r.garment);
      if (!g) garments.set(r.garment, (g = await checks.garmentCutout(new Uint8Array(readFileSync(r.garment)))));
      const result = await checks.workingSize(r.result);
      out.push(
        upperFaults({
          person: p.image,
          result,
          mask: p.analysis.mask,
          keypoints: p.analysis.keypoints,
          garment: g.image,
          garmentAlpha: g.alpha,
        }),
      );
    }
    return out;
  };
  const faults = await faultsOf(runs);
  const before = o.before
    ? (loadRuns(o.before) ?? []).filter((b) => runs.some((r) => r.set === b.set && r.id === b.id))
    : null;
  const beforeFaults = before ? await faultsOf(before) : null;
  const table = (list: UpperRun[], figs: (UpperFaults | null)[], label: string): UpperSetSummary[] => {
    const summaries: UpperSetSummary[] = [];
    log('');
    log(
      `upper-body faults, ${label} (a result shows a fault beyond its threshold; thresholds chosen on the tuning sources)`,
    );
    log(
      `| set | pairs (refused) | ${NAMES.map((k) => `${k} ${k === 'light' ? '≤' : '>'} ${FAULT_THRESHOLDS[k]}`).join(' | ')} | none |`,
    );
    log(`|---|---|${NAMES.map(() => '---').join('|')}|---|`);
    for (const set of ['shared', 'tuning', 'held-back'] as const) {
      const idx = list.map((_, i) => i).filter((i) => list[i]!.set === set);
      if (!idx.length) continue;
      const ok = idx.filter((i) => figs[i]);
      const shown = Object.fromEntries(NAMES.map((k) => [k, 0])) as Record<FaultName, number>;
      let clean = 0;
      for (const i of ok) {
        const f = faultsShown(figs[i]!);
        for (const k of f) shown[k]++;
        if (!f.length) clean++;
      }
      const med = Object.fromEntries(
        NAMES.map((k) => [k, median(ok.map((i) => figs[i]![k]).filter((v): v is number => v !== null))]),
      ) as Record<FaultName, number>;
      const sum: UpperSetSummary = {
        set,
        pairs: idx.length,
        refused: idx.length - ok.length,
        shown,
        median: med,
        clean,
      };
      summaries.push(sum);
      log(
        `| ${set} | ${sum.pairs} (${sum.refused}) | ${NAMES.map((k) => `${shown[k]} (p50 ${med[k].toFixed(k === 'sleeve' ? 0 : 3)})`).join(' | ')} | ${clean} of ${ok.length} |`,
      );
    }
    return summaries;
  };
  if (before && beforeFaults) table(before, beforeFaults, 'the other build (--before)');
  const summaries = table(runs, faults, 'this build');
  if (o.ladders) {
    // The tuning set's results of both builds, sorted by each figure.
    for (const k of NAMES) {
      const items = [
        ...runs.map((run, i) => ({ run, f: faults[i] })),
        ...(before ?? []).map((run, i) => ({ run, f: beforeFaults![i] })),
      ]
        .filter((x) => x.run.set === 'tuning' && x.f && x.f[k] !== null)
        .map((x) => ({ run: x.run, value: x.f![k]! }));
      const files = await ladder(items, join(o.outDir, 'upper-ladders'), k);
      log(`ladder (${k}, tuning): ${files.join(', ')}`);
    }
  }
  if (o.sheets) {
    const fmt = (f: UpperFaults | null) =>
      f
        ? `rem ${f.remnant.toFixed(3)} sl ${f.slices.toFixed(2)} arm ${f.flatArms.toFixed(2)} slv ${f.sleeve === null ? '-' : f.sleeve.toFixed(0)} rim ${f.rim.toFixed(2)} out ${f.outside.toFixed(3)} li ${f.light === null ? '-' : f.light.toFixed(2)}`
        : '';
    for (const set of ['shared', 'tuning', 'held-back'] as const) {
      const rows = runs
        .map((run, i) => ({ run, f: faults[i] ?? null }))
        .filter((x) => x.run.set === set)
        .map(({ run, f }) => ({
          run,
          before: before?.find((b) => b.set === run.set && b.id === run.id),
          note: f ? `${fmt(f)} ${faultsShown(f).join(' ')}` : (run.error ?? ''),
          flagged: !f || faultsShown(f).length > 0,
        }));
      const files = await upperSheets(rows, join(o.outDir, 'upper-sheets'), set);
      log(`contact sheets (${set}): ${files.length} in ${join(o.outDir, 'upper-sheets')}`);
    }
  }
  return summaries;
}
