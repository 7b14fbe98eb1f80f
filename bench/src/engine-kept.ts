/**
 * The built-in engine with a kept person photo (My photos): CPU per try-on for a fresh photo and
 * for a kept one, on presses of several garments, as a shopper makes them. For each person photo a
 * press of `pressSize` garments runs fresh (the photo decoded and analysed in every try-on), then
 * the same press with the photo kept (its analysis made once, as when it is kept, and given back;
 * the workers hold the photo decoded). The phases take turns person by person, so that the load of
 * a shared machine falls on both alike. Each kept result is compared with its fresh one, byte for
 * byte. Part of `npm run bench:engine`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Category } from '@aidressup/contract';
import { isEngineError, type LocalEngine } from '@aidressup/engine';
import { MAX_GARMENTS_PER_PRESS } from '@aidressup/contract';

export interface KeptBenchSummary {
  presses: number;
  tryOns: { fresh: number; kept: number };
  /** CPU time of the whole process (every worker) per try-on. */
  cpuMsPerTryOn: { fresh: number; kept: number };
  /** kept ÷ fresh. */
  ratio: number;
  /** Kept try-ons given the analysis (none analysed the person again). */
  analysisSkipped: number;
  /** Kept results byte for byte the fresh ones (of the pairs both made). */
  identical: number;
  compared: number;
  /** Wall time per press (all its garments), median. */
  pressMsP50: { fresh: number; kept: number };
  /** Median wall time of each engine stage inside its worker (ms): where a try-on's time goes. */
  stageP50: { fresh: Record<string, number>; kept: Record<string, number> };
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

export async function runKeptBench(
  engine: LocalEngine,
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
  const cpu = { fresh: 0, kept: 0 };
  const count = { fresh: 0, kept: 0 };
  const pressMs: { fresh: number[]; kept: number[] } = { fresh: [], kept: [] };
  const stages = { fresh: new Map<string, number[]>(), kept: new Map<string, number[]>() };
  let analysisSkipped = 0;
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
    const press = async (kept: boolean) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const results = await Promise.all(
        bytes.map((garment) =>
          engine
            .tryOnWithInfo({
              person,
              garment,
              category: 'upper_body',
              ...(kept ? { keptPerson: { key: `bench-${pi}`, analysis } } : {}),
            })
            .catch(() => undefined),
        ),
      );
      const used = process.cpuUsage(c0);
      const phase = kept ? 'kept' : 'fresh';
      pressMs[phase].push(performance.now() - t0);
      cpu[phase] += (used.user + used.system) / 1000;
      count[phase] += bytes.length;
      for (const r of results)
        for (const [k, v] of Object.entries(r?.info.timings ?? {}))
          stages[phase].set(k, [...(stages[phase].get(k) ?? []), v]);
      return results;
    };
    const fresh = await press(false);
    const kept = await press(true);
    for (let i = 0; i < bytes.length; i++) {
      const f = fresh[i];
      const k = kept[i];
      if (k?.info.personAnalysis === 'given') analysisSkipped++;
      if (!f || !k) continue;
      compared++;
      if (Buffer.from(f.image).equals(Buffer.from(k.image))) identical++;
    }
  }
  const per = (phase: 'fresh' | 'kept') => cpu[phase] / Math.max(1, count[phase]);
  const summary: KeptBenchSummary = {
    presses: pressMs.kept.length,
    tryOns: count,
    cpuMsPerTryOn: { fresh: per('fresh'), kept: per('kept') },
    ratio: per('kept') / Math.max(1e-9, per('fresh')),
    analysisSkipped,
    identical,
    compared,
    pressMsP50: { fresh: median(pressMs.fresh), kept: median(pressMs.kept) },
    stageP50: {
      fresh: Object.fromEntries([...stages.fresh].map(([k, v]) => [k, median(v)])),
      kept: Object.fromEntries([...stages.kept].map(([k, v]) => [k, median(v)])),
    },
    load: [load0, loadavg()[0]!],
  };
  log('');
  log(`kept person photos: ${summary.presses} presses of ${pressSize} garments, fresh then kept, person by person`);
  log('| figure | fresh | kept | target |');
  log('|---|---|---|---|');
  log(
    `| CPU per try-on (all threads) | ${summary.cpuMsPerTryOn.fresh.toFixed(0)} ms | ${summary.cpuMsPerTryOn.kept.toFixed(0)} ms (${(summary.ratio * 100).toFixed(0)} %) | kept ≤ 60 % of fresh |`,
  );
  log(
    `| time per press of ${pressSize} (p50) | ${summary.pressMsP50.fresh.toFixed(0)} ms | ${summary.pressMsP50.kept.toFixed(0)} ms | |`,
  );
  const stageLine = (st: Record<string, number>) =>
    Object.entries(st)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ');
  log(
    `| stage p50, wall ms in the worker | ${stageLine(summary.stageP50.fresh)} | ${stageLine(summary.stageP50.kept)} | |`,
  );
  log(`| kept try-ons that skipped the analysis | | ${summary.analysisSkipped} of ${count.kept} | all |`);
  log(`| kept results identical to fresh ones | | ${summary.identical} of ${summary.compared} | all |`);
  log(`load average (1 min): ${summary.load[0].toFixed(2)} at the start, ${summary.load[1].toFixed(2)} at the end`);
  return summary;
}
