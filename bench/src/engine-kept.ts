/**
 * The built-in engine's CPU per try-on as a shopper's presses of several garments make it, in four
 * phases taken in turns person by person (so that the load of a shared machine falls on all alike):
 * - fresh: the person photo and the garments new (decoded and analysed in every try-on; an engine
 *   whose workers hold no garments);
 * - kept: the person photo kept (My photos: its analysis made once, when it is kept, and given
 *   back; the workers hold it decoded), the garments new;
 * - seen: the person photo new, the garments seen before (the workers' garment cache,
 *   `garment-cache.ts`, filled by one press of them that is not counted);
 * - kept and seen: both.
 * Each result is compared with its fresh one, byte for byte. Part of `npm run bench:engine`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Category } from '@aidressup/contract';
import { isEngineError, type LocalEngine } from '@aidressup/engine';
import { MAX_GARMENTS_PER_PRESS } from '@aidressup/contract';

const PHASES = ['fresh', 'kept', 'seen', 'keptSeen'] as const;
type Phase = (typeof PHASES)[number];
type PerPhase<T> = Record<Phase, T>;

export interface KeptBenchSummary {
  presses: number;
  tryOns: PerPhase<number>;
  /** CPU time of the whole process (every worker) per try-on. */
  cpuMsPerTryOn: PerPhase<number>;
  /** kept ÷ fresh. */
  ratio: number;
  /** Kept try-ons given the analysis (none analysed the person again). */
  analysisSkipped: number;
  /** Try-ons of a garment seen before that took its analysis from the cache. */
  garmentCached: number;
  /** Results byte for byte the fresh ones (of the pairs both made), every phase but fresh. */
  identical: number;
  compared: number;
  /** Wall time per press (all its garments), median. */
  pressMsP50: PerPhase<number>;
  /** Median wall time of each engine stage inside its worker (ms): where a try-on's time goes. */
  stageP50: PerPhase<Record<string, number>>;
  /** Load average (1 minute) at the start and the end. */
  load: [number, number];
}

interface Fixture {
  persons: { file: string; framing: 'full_body' | 'upper_body' }[];
  garments: { file: string; category: Category }[];
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
};

/** `engine`: its workers hold no garments; `cachedEngine`: the same, with the garment cache. */
export async function runKeptBench(
  engine: LocalEngine,
  cachedEngine: LocalEngine,
  fixtures: string,
  fx: Fixture,
  opts: { log: (line: string) => void; pressSize?: number; persons?: number },
): Promise<KeptBenchSummary> {
  const { log } = opts;
  const pressSize = Math.min(opts.pressSize ?? MAX_GARMENTS_PER_PRESS, MAX_GARMENTS_PER_PRESS);
  const load = (f: string) => new Uint8Array(readFileSync(join(fixtures, f)));
  const { loadavg } = await import('node:os');
  const load0 = loadavg()[0]!;
  // Tops go on every person photo (head-to-hips ones too).
  const tops = fx.garments.filter((g) => g.category === 'upper_body');
  const persons = fx.persons.slice(0, opts.persons ?? fx.persons.length);
  const perPhase = <T>(make: () => T) => Object.fromEntries(PHASES.map((ph) => [ph, make()])) as PerPhase<T>;
  const cpu = perPhase(() => 0);
  const count = perPhase(() => 0);
  const pressMs = perPhase<number[]>(() => []);
  const stages = perPhase(() => new Map<string, number[]>());
  let analysisSkipped = 0;
  let garmentCached = 0;
  let identical = 0;
  let compared = 0;
  for (const [pi, p] of persons.entries()) {
    const person = load(p.file);
    const garments = Array.from({ length: pressSize }, (_, i) => tops[(pi * pressSize + i) % tops.length]!);
    const bytes = garments.map((g) => load(g.file));
    // Kept: analysed once (when the shopper keeps the photo; not counted in the press).
    let analysis: Uint8Array | undefined;
    try {
      analysis = (await engine.analysePerson(person)).analysis;
    } catch (e) {
      log(`  ${p.file}: not kept (${isEngineError(e) ? e.code : String(e)})`);
      continue;
    }
    const run = (on: LocalEngine, kept: boolean, key: string) =>
      Promise.all(
        bytes.map((garment) =>
          on
            .tryOnWithInfo({
              person,
              garment,
              category: 'upper_body',
              ...(kept ? { keptPerson: { key, analysis } } : {}),
            })
            .catch(() => undefined),
        ),
      );
    const press = async (phase: Phase) => {
      const kept = phase === 'kept' || phase === 'keptSeen';
      const on = phase === 'seen' || phase === 'keptSeen' ? cachedEngine : engine;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const results = await run(on, kept, `bench-${phase}-${pi}`);
      const used = process.cpuUsage(c0);
      pressMs[phase].push(performance.now() - t0);
      cpu[phase] += (used.user + used.system) / 1000;
      count[phase] += bytes.length;
      for (const r of results)
        for (const [k, v] of Object.entries(r?.info.timings ?? {}))
          stages[phase].set(k, [...(stages[phase].get(k) ?? []), v]);
      return results;
    };
    const fresh = await press('fresh');
    const kept = await press('kept');
    // The garments seen once (by every worker: a press spreads over them), not counted.
    for (let i = 0; i < 2; i++) await run(cachedEngine, false, '');
    const seen = await press('seen');
    const keptSeen = await press('keptSeen');
    for (let i = 0; i < bytes.length; i++) {
      if (kept[i]?.info.personAnalysis === 'given') analysisSkipped++;
      for (const r of [seen[i], keptSeen[i]]) if (r?.info.garmentAnalysis === 'cached') garmentCached++;
      const f = fresh[i];
      if (!f) continue;
      for (const r of [kept[i], seen[i], keptSeen[i]]) {
        if (!r) continue;
        compared++;
        if (Buffer.from(f.image).equals(Buffer.from(r.image))) identical++;
      }
    }
  }
  const per = (phase: Phase) => cpu[phase] / Math.max(1, count[phase]);
  const median50 = (phase: Phase) => Object.fromEntries([...stages[phase]].map(([k, v]) => [k, median(v)]));
  const summary: KeptBenchSummary = {
    presses: pressMs.kept.length,
    tryOns: count,
    cpuMsPerTryOn: perPhase(() => 0),
    ratio: per('kept') / Math.max(1e-9, per('fresh')),
    analysisSkipped,
    garmentCached,
    identical,
    compared,
    pressMsP50: perPhase(() => 0),
    stageP50: perPhase(() => ({})),
    load: [load0, loadavg()[0]!],
  };
  for (const ph of PHASES) {
    summary.cpuMsPerTryOn[ph] = per(ph);
    summary.pressMsP50[ph] = median(pressMs[ph]);
    summary.stageP50[ph] = median50(ph);
  }
  log('');
  log(
    `presses of ${pressSize} tops: ${summary.presses}, each fresh, kept, seen (garments seen before) and kept and seen, person by person`,
  );
  const ms = (ph: Phase) =>
    `${summary.cpuMsPerTryOn[ph].toFixed(0)} ms (${((summary.cpuMsPerTryOn[ph] / Math.max(1e-9, summary.cpuMsPerTryOn.fresh)) * 100).toFixed(0)} %)`;
  log('| figure | fresh | kept | seen | kept and seen |');
  log('|---|---|---|---|---|');
  log(`| CPU per try-on (all threads) | ${ms('fresh')} | ${ms('kept')} | ${ms('seen')} | ${ms('keptSeen')} |`);
  log(
    `| time per press of ${pressSize} (p50) | ${PHASES.map((ph) => `${summary.pressMsP50[ph].toFixed(0)} ms`).join(' | ')} |`,
  );
  const stageLine = (st: Record<string, number>) =>
    Object.entries(st)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
  log(`| stage p50, wall ms in the worker | ${PHASES.map((ph) => stageLine(summary.stageP50[ph])).join(' | ')} |`);
  log(
    `kept try-ons that skipped the person analysis: ${summary.analysisSkipped} of ${count.kept}; try-ons of a garment seen before that skipped its analysis: ${summary.garmentCached} of ${count.seen + count.keptSeen}`,
  );
  log(`results identical to the fresh ones: ${summary.identical} of ${summary.compared}`);
  log(`load average (1 min): ${summary.load[0].toFixed(2)} at the start, ${summary.load[1].toFixed(2)} at the end`);
  return summary;
}
