/**
 * `npm run bench:checks`: how often each of the built-in engine's photo checks refuses a valid
 * photo (false refusals, with the photos' names) and how many of the photos it should refuse it
 * catches, on every set of photos there is (checks-data.ts): the repository's, the calibration
 * photos the thresholds were chosen on, the calibration photos held back, the shared try-on photos.
 *
 *   npm run bench:checks                      every set found beside the repository
 *   npm run bench:checks -- --short           the repository's photos only (CI)
 *   npm run bench:checks -- --targets         exit 1 when the held-back set misses the targets
 *   --calibration DIR, --shared DIR           other folders (default ../shared/fixtures/…)
 *   --only TEXT                               only the sets whose name contains TEXT
 *
 * The checks: person found (PERSON_NOT_FOUND), several people (MULTIPLE_PEOPLE), person too small
 * or cut off (PERSON_TOO_SMALL), garment not separable (GARMENT_NOT_SEPARABLE), garment worn
 * (GARMENT_WORN), and the result's check (GARMENT_NOT_PLACED) on try-ons of valid pairs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Category } from '@aidressup/contract';
import sharp from 'sharp';
import { createPhotoChecks, type PhotoChecks } from '@aidressup/engine/photo-checks';
import { photoSets, type Photo, type PhotoSet } from './checks-data.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..');

/** The targets on the held-back photos (docs/local-engine.md). */
export const CHECK_TARGETS = {
  /** Product photos refused by any garment check. */
  productFalseRefusals: 0,
  /** Valid photos refused by any photo check (the result's check is looked at, not counted: see printSet). */
  falseRefusalShare: 0.01,
  /** Person photos used as garments caught as worn. */
  wornCaughtShare: 0.75,
} as const;

interface Tally {
  judged: number;
  refused: string[];
}
interface Caught {
  total: number;
  caught: number;
  /** Refused, but by another check. */
  otherwise: string[];
  missed: string[];
}
export interface SetResult {
  set: string;
  valid: Record<string, Tally>;
  should: Record<string, Caught>;
  /** Valid photos judged by the photo checks (person photo × category, product photo) and how many were refused. */
  judgements: number;
  falseRefusals: number;
  /** Try-ons of valid pairs, and how many the result's check refused (look at them: a broken result is rightly refused). */
  tryOns: number;
  resultRefusals: number;
  productFalseRefusals: string[];
  /** Of the person photos used as garments: caught as worn. */
  personsAsGarments: Caught;
  garmentCheckCpuMs: { product: number; worn: number };
  /** Try-ons of valid pairs the result's check refused: person, garment and the refused result, to look at. */
  refusedResults: { label: string; images: Uint8Array[] }[];
}

const CATEGORIES_FOR = {
  full_body: ['upper_body', 'lower_body', 'dresses'],
  upper_body: ['upper_body'],
  legs: ['lower_body'],
  cut_off: [],
} as const;
const PERSON_CODES = ['PERSON_NOT_FOUND', 'MULTIPLE_PEOPLE', 'PERSON_TOO_SMALL'] as const;

const tally = (): Tally => ({ judged: 0, refused: [] });
const caught = (): Caught => ({ total: 0, caught: 0, otherwise: [], missed: [] });
const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0);

async function expectRefused(
  c: Caught,
  photos: Photo[],
  code: string,
  judge: (p: Photo) => Promise<{ refused: string | null }>,
): Promise<void> {
  for (const p of photos) {
    const v = await judge(p);
    c.total++;
    if (v.refused === code) c.caught++;
    else if (v.refused) c.otherwise.push(`${p.name} (${v.refused})`);
    else c.missed.push(p.name);
  }
}

export async function judgeSet(checks: PhotoChecks, set: PhotoSet, pairsPerGarment = 2): Promise<SetResult> {
  const valid: Record<string, Tally> = Object.fromEntries(
    [...PERSON_CODES, 'GARMENT_WORN', 'GARMENT_NOT_SEPARABLE', 'GARMENT_NOT_PLACED'].map((c) => [c, tally()]),
  );
  const should: Record<string, Caught> = Object.fromEntries(
    [...PERSON_CODES, 'GARMENT_NOT_SEPARABLE', 'GARMENT_WORN'].map((c) => [c, caught()]),
  );
  let judgements = 0;
  let falseRefusals = 0;
  // Person photos, for each category their framing allows.
  const personOk = new Map<string, Set<Category>>();
  for (const p of set.persons) {
    const ok = new Set<Category>();
    for (const category of CATEGORIES_FOR[p.framing]) {
      const v = await checks.person(p.bytes, category);
      judgements++;
      for (const code of PERSON_CODES) valid[code]!.judged++;
      if (v.refused) {
        falseRefusals++;
        valid[v.refused]?.refused.push(`${p.name} (${category})`);
      } else ok.add(category);
    }
    personOk.set(p.name, ok);
  }
  // Photos the person checks must refuse.
  await expectRefused(should.PERSON_NOT_FOUND!, set.products, 'PERSON_NOT_FOUND', (p) =>
    checks.person(p.bytes, 'upper_body'),
  );
  await expectRefused(should.MULTIPLE_PEOPLE!, set.severalPeople, 'MULTIPLE_PEOPLE', (p) =>
    checks.person(p.bytes, 'upper_body'),
  );
  const cutOff = set.persons
    .filter((p) => p.framing === 'upper_body')
    .map((p) => ({ ...p, name: `${p.name} (lower_body)` }));
  await expectRefused(should.PERSON_TOO_SMALL!, [...set.tooSmall], 'PERSON_TOO_SMALL', (p) =>
    checks.person(p.bytes, 'upper_body'),
  );
  await expectRefused(should.PERSON_TOO_SMALL!, cutOff, 'PERSON_TOO_SMALL', (p) =>
    checks.person(p.bytes, 'lower_body'),
  );
  // Product photos: neither worn nor, on a plain backdrop, inseparable.
  const productOk: typeof set.products = [];
  const productFalseRefusals: string[] = [];
  const productCpu: number[] = [];
  for (const p of set.products) {
    const v = await checks.garment(p.bytes);
    productCpu.push(v.cpuMs);
    judgements++;
    valid.GARMENT_WORN!.judged++;
    if (!p.lifestyle) valid.GARMENT_NOT_SEPARABLE!.judged++;
    const falseRefusal = v.refused === 'GARMENT_WORN' || (v.refused !== null && !p.lifestyle);
    if (falseRefusal) {
      falseRefusals++;
      productFalseRefusals.push(`${p.name} (${v.refused})`);
      valid[v.refused!]?.refused.push(p.name);
    } else if (!v.refused) productOk.push(p);
  }
  // Garments being worn: the set's studio photos, and every person photo used as a garment.
  const wornCpu: number[] = [];
  const judgeGarment = async (p: Photo) => {
    const v = await checks.garment(p.bytes);
    wornCpu.push(v.cpuMs);
    return v;
  };
  await expectRefused(should.GARMENT_WORN!, set.worn, 'GARMENT_WORN', judgeGarment);
  const personsAsGarments = caught();
  await expectRefused(personsAsGarments, set.persons, 'GARMENT_WORN', judgeGarment);
  for (const k of ['total', 'caught'] as const) should.GARMENT_WORN![k] += personsAsGarments[k];
  should.GARMENT_WORN!.otherwise.push(...personsAsGarments.otherwise);
  should.GARMENT_WORN!.missed.push(...personsAsGarments.missed);
  const lifestyle = set.products.filter((p) => p.lifestyle);
  await expectRefused(
    should.GARMENT_NOT_SEPARABLE!,
    [...set.notSeparable, ...lifestyle],
    'GARMENT_NOT_SEPARABLE',
    (p) => checks.garment(p.bytes),
  );
  // The result's check on try-ons of valid pairs: each garment on the next persons that fit it.
  const refusedResults: SetResult['refusedResults'] = [];
  let tryOns = 0;
  let resultRefusals = 0;
  let next = 0;
  for (const g of productOk) {
    if (!g.category) continue;
    const fits = set.persons.filter((p) => personOk.get(p.name)?.has(g.category!));
    for (let i = 0; i < Math.min(pairsPerGarment, fits.length); i++) {
      const p = fits[(next + i) % fits.length]!;
      const v = await checks.tryOn(p.bytes, g.bytes, g.category);
      tryOns++;
      valid.GARMENT_NOT_PLACED!.judged++;
      if (v.refused) {
        resultRefusals++;
        (valid[v.refused] ?? valid.GARMENT_NOT_PLACED)!.refused.push(`${p.name} + ${g.name} (${v.refused})`);
        if (v.refused === 'GARMENT_NOT_PLACED')
          refusedResults.push({
            label: `${p.name.slice(-24)} + ${g.name.slice(-24)}: ${v.detail ?? ''}`,
            images: [p.bytes, g.bytes, await checks.uncheckedResult(p.bytes, g.bytes, g.category)],
          });
      }
    }
    next++;
  }
  return {
    set: set.name,
    valid,
    should,
    judgements,
    falseRefusals,
    tryOns,
    resultRefusals,
    productFalseRefusals,
    personsAsGarments,
    garmentCheckCpuMs: { product: mean(productCpu), worn: mean(wornCpu) },
    refusedResults,
  };
}

/** A contact sheet of refused results (person | garment | what the result would have been), one row each. */
async function refusedSheet(rows: SetResult['refusedResults'], file: string): Promise<void> {
  const W = 200;
  const H = 260;
  const L = 16;
  const comps: sharp.OverlayOptions[] = [];
  for (const [i, row] of rows.entries()) {
    for (const [j, img] of row.images.entries())
      comps.push({
        input: await sharp(img).rotate().resize(W, H, { fit: 'contain', background: '#fff' }).png().toBuffer(),
        left: j * W,
        top: i * (H + L),
      });
    const text = row.label.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    comps.push({
      input: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${W * 3}" height="${L}"><text x="2" y="12" font-size="10" font-family="sans-serif">${text}</text></svg>`,
      ),
      left: 0,
      top: i * (H + L) + H,
    });
  }
  await sharp({ create: { width: W * 3, height: rows.length * (H + L), channels: 3, background: '#fff' } })
    .composite(comps)
    .png()
    .toFile(file);
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)} %` : '-');

export function printSet(r: SetResult, log: (line: string) => void = console.log): void {
  log(`\n## ${r.set}`);
  log(
    `valid photos (person photo × category, product photo) ${r.judgements}: refused by a photo check ${r.falseRefusals} (${pct(r.falseRefusals, r.judgements)})`,
  );
  log(
    `try-ons of valid pairs ${r.tryOns}: refused by the result's check ${r.resultRefusals} (${pct(r.resultRefusals, r.tryOns)}); look at them before calling one false`,
  );
  log('check                   valid  refused          should refuse  caught');
  for (const code of Object.keys(r.valid)) {
    const v = r.valid[code]!;
    const s = r.should[code];
    log(
      `${code.padEnd(22)} ${String(v.judged).padStart(6)}  ${String(v.refused.length).padStart(6)} ${pct(v.refused.length, v.judged).padStart(8)}` +
        (s
          ? `  ${String(s.total).padStart(8)}  ${String(s.caught).padStart(5)} ${pct(s.caught, s.total).padStart(8)}`
          : '      (none labelled)'),
    );
    for (const f of v.refused) log(`    ${code === 'GARMENT_NOT_PLACED' ? 'refused try-on' : 'false refusal'}: ${f}`);
    if (s) for (const f of s.otherwise) log(`    refused by another check: ${f}`);
  }
  const w = r.personsAsGarments;
  log(`person photos used as garments: caught as worn ${w.caught} of ${w.total} (${pct(w.caught, w.total)})`);
  for (const m of r.should.GARMENT_WORN!.missed) log(`    worn, not caught: ${m}`);
  log(
    `garment check CPU per photo: product ${r.garmentCheckCpuMs.product.toFixed(1)} ms, worn ${r.garmentCheckCpuMs.worn.toFixed(1)} ms`,
  );
}

/** The targets' misses on a set (empty when it meets them). */
export function targetMisses(r: SetResult): string[] {
  const misses: string[] = [];
  if (r.productFalseRefusals.length > CHECK_TARGETS.productFalseRefusals)
    misses.push(`product photos refused: ${r.productFalseRefusals.join(', ')}`);
  if (r.falseRefusals > r.judgements * CHECK_TARGETS.falseRefusalShare)
    misses.push(`valid photos refused: ${r.falseRefusals} of ${r.judgements}`);
  const w = r.personsAsGarments;
  if (w.total > 0 && w.caught < w.total * CHECK_TARGETS.wornCaughtShare)
    misses.push(`worn garments caught: ${w.caught} of ${w.total}`);
  return misses;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, def: string) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] ? resolve(args[i + 1]!) : def;
  };
  const started = performance.now();
  const sets = await photoSets({
    repositoryOnly: args.includes('--short'),
    calibration: opt('--calibration', resolve(repoRoot, '..', 'shared', 'fixtures', 'calibration')),
    shared: opt('--shared', resolve(repoRoot, '..', 'shared', 'fixtures', 'tryon')),
  });
  const checks = await createPhotoChecks();
  const results: SetResult[] = [];
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  for (const set of sets) {
    if (only && !set.name.includes(only)) continue;
    const r = await judgeSet(checks, set);
    printSet(r);
    results.push(r);
  }
  const out = join(repoRoot, 'bench', 'out', 'checks.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      results.map(({ refusedResults, ...r }) => ({ ...r, refusedResults: refusedResults.map((x) => x.label) })),
      null,
      2,
    ),
  );
  for (const r of results)
    if (r.refusedResults.length) {
      const sheet = join(
        repoRoot,
        'bench',
        'out',
        `checks-refused-results-${r.set.replace(/[^a-z]+/gi, '-').toLowerCase()}.png`,
      );
      await refusedSheet(r.refusedResults, sheet);
      console.log(`refused results of ${r.set}: ${sheet}`);
    }
  console.log(`\n${sets.length} set(s) in ${((performance.now() - started) / 1000).toFixed(0)} s; figures in ${out}`);
  const failures: string[] = [];
  // The repository's photos are in every clone: no valid one may be refused, no product photo, ever.
  const repository = results.find((r) => r.set === 'repository');
  if (repository && repository.falseRefusals > 0)
    failures.push(`repository: ${repository.falseRefusals} valid photo(s) refused`);
  if (args.includes('--targets')) {
    const held = results.find((r) => r.set === 'calibration: held back');
    if (!held) failures.push('--targets: the calibration photos are not there');
    else failures.push(...targetMisses(held).map((m) => `held back: ${m}`));
  }
  for (const f of failures) console.error(`bench:checks: ${f}`);
  if (failures.length) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
