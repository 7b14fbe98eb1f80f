/**
 * The photos `npm run bench:checks` judges, in sets: the repository's openly licensed photos (and
 * photos made from them), and, when they are beside the repository, the calibration photos split by
 * source repository into the part the thresholds were chosen on and the part held back, and the
 * shared try-on photos.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Category } from '@aidressup/contract';
import {
  TEST_FIXTURES,
  syntheticBusyBackdrop,
  syntheticPeoplePhotos,
  syntheticProductPhotos,
} from '@aidressup/engine/synthetic-photos';

/**
 * The calibration photos' source repositories the checks' thresholds were chosen on; the others
 * are held back and judge them (docs/local-engine.md).
 */
export const TUNING_SOURCES: readonly string[] = [
  'BoyuanJiang/FitDiT',
  'xiezhy6/PASTA-GAN-plusplus',
  'geyuying/PF-AFN',
  'nftblackmagic/catvton-flux',
  'logn-2024/StableGarment',
  'muzishen/IMAGDressing',
  'bytedance/DreamFit',
];

/**
 * What the person photo shows: the whole body, the upper body, the legs only (a photo from the waist
 * down), or a close-up cut off for every category (a torso and a hand, one shoulder, no head).
 */
export type Framing = 'full_body' | 'upper_body' | 'legs' | 'cut_off';

export interface Photo {
  name: string;
  bytes: Uint8Array;
}
export interface PersonPhoto extends Photo {
  framing: Framing;
}
export interface ProductPhoto extends Photo {
  /** The garment's category; null for shoes, bags, hats and other accessories. */
  category: Category | null;
  /** Photographed in a scene (outdoors, on a rock), not on a plain backdrop: the cut-out may refuse it. */
  lifestyle: boolean;
}

export interface PhotoSet {
  name: string;
  persons: PersonPhoto[];
  products: ProductPhoto[];
  /** Garments being worn by a model (persons used as garments are added to these by the bench). */
  worn: Photo[];
  /** Photos the person checks must refuse: several people, a person too small. */
  severalPeople: Photo[];
  tooSmall: Photo[];
  /** Garment photos that cannot be cut out. */
  notSeparable: Photo[];
}

const CATEGORIES: Record<string, Category> = { upper_body: 'upper_body', lower_body: 'lower_body', dresses: 'dresses' };
const read = (path: string) => new Uint8Array(readFileSync(path));

/** Two persons side by side, and a person shrunk into a large plain frame: made from a set's own photos. */
async function composites(persons: PersonPhoto[]): Promise<Pick<PhotoSet, 'severalPeople' | 'tooSmall'>> {
  const full = persons.filter((p) => p.framing === 'full_body');
  const severalPeople: Photo[] = [];
  for (let i = 0; i + 1 < full.length && severalPeople.length < 3; i += 2) {
    const [a, b] = await Promise.all(
      [full[i]!, full[i + 1]!].map((p) =>
        sharp(p.bytes).rotate().resize({ width: 512, height: 1024, fit: 'cover' }).toBuffer(),
      ),
    );
    const bytes = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c8c8c8' } })
      .composite([
        { input: a!, left: 0, top: 0 },
        { input: b!, left: 512, top: 0 },
      ])
      .jpeg({ quality: 90 })
      .toBuffer();
    severalPeople.push({ name: `side by side: ${full[i]!.name} + ${full[i + 1]!.name}`, bytes: new Uint8Array(bytes) });
  }
  const tooSmall: Photo[] = [];
  for (const p of full.slice(0, 3)) {
    const small = await sharp(p.bytes).rotate().resize({ height: 200 }).toBuffer();
    const corner = await sharp(p.bytes).rotate().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    const bytes = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: { r: corner[0]!, g: corner[1]!, b: corner[2]! } },
    })
      .composite([{ input: small, gravity: 'centre' }])
      .jpeg({ quality: 90 })
      .toBuffer();
    tooSmall.push({ name: `far away: ${p.name}`, bytes: new Uint8Array(bytes) });
  }
  return { severalPeople, tooSmall };
}

/** The repository's openly licensed photos (packages/engine/test-fixtures) and the photos made from them. */
export async function repositorySet(): Promise<PhotoSet> {
  // Framing as the photos show it (test-fixtures/LICENSES.md): only the first shows the knees and below.
  const framing: Record<string, Framing> = { 'woman_tee_jeans_fullbody.jpg': 'full_body' };
  const persons: PersonPhoto[] = readdirSync(join(TEST_FIXTURES, 'person'))
    .filter((f) => f.endsWith('.jpg'))
    .sort()
    .map((f) => ({
      name: `person/${f}`,
      bytes: read(join(TEST_FIXTURES, 'person', f)),
      framing: framing[f] ?? 'upper_body',
    }));
  const categoryOf = (f: string): Category =>
    /^(jeans|skirt|shorts|trousers)/.test(f) ? 'lower_body' : /^dress/.test(f) ? 'dresses' : 'upper_body';
  const products: ProductPhoto[] = readdirSync(join(TEST_FIXTURES, 'garment'))
    .filter((f) => f.endsWith('.jpg'))
    .sort()
    .map((f) => ({
      name: `garment/${f}`,
      bytes: read(join(TEST_FIXTURES, 'garment', f)),
      category: categoryOf(f),
      lifestyle: false,
    }));
  for (const p of await syntheticProductPhotos()) products.push({ ...p, category: 'upper_body', lifestyle: false });
  const { twoPeople, farAway } = await syntheticPeoplePhotos();
  return {
    name: 'repository',
    persons,
    products,
    worn: [],
    severalPeople: [twoPeople],
    tooSmall: [farAway],
    notSeparable: [await syntheticBusyBackdrop()],
  };
}

interface Row {
  [column: string]: string;
}
function readManifest(file: string): Row[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const cols = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i]!, v])));
}

/** A person photo's framing from its manifest row: its framing, read more finely where its notes say so. */
function framingOf(r: Row): Framing {
  if (/torso and hand only/i.test(r.notes ?? '')) return 'cut_off';
  if (r.category === 'upper_body') return 'upper_body';
  return /waist-down/i.test(r.notes ?? '') ? 'legs' : 'full_body';
}

/** The calibration photos (MANIFEST.tsv: file, source_repo, kind, category, notes), in two sets by source. */
export async function calibrationSets(dir: string): Promise<PhotoSet[]> {
  const rows = readManifest(join(dir, 'MANIFEST.tsv'));
  const sets: PhotoSet[] = [];
  for (const [name, tuning] of [
    ['calibration: tuning', true],
    ['calibration: held back', false],
  ] as const) {
    const mine = rows.filter((r) => TUNING_SOURCES.includes(r.source_repo!) === tuning);
    const photo = (r: Row) => ({ name: r.file!, bytes: read(join(dir, 'images', r.file!)) });
    const persons = mine
      .filter((r) => r.kind === 'person')
      .map((r) => ({
        ...photo(r),
        framing: framingOf(r),
      }));
    const products = mine
      .filter((r) => r.kind === 'garment_flat')
      .map((r) => ({
        ...photo(r),
        category: CATEGORIES[r.category!] ?? null,
        lifestyle: /lifestyle|outdoor/i.test(r.notes ?? ''),
      }));
    sets.push({
      name,
      persons,
      products,
      worn: mine.filter((r) => r.kind === 'garment_worn').map(photo),
      ...(await composites(persons)),
      notSeparable: [],
    });
  }
  return sets;
}

/** The shared try-on photos (MANIFEST.tsv: file, kind person|garment, category: framing or the garment's). */
export async function sharedSet(dir: string): Promise<PhotoSet> {
  const rows = readManifest(join(dir, 'MANIFEST.tsv'));
  const persons = rows
    .filter((r) => r.kind === 'person')
    .map((r) => ({
      name: r.file!,
      bytes: read(join(dir, r.file!)),
      framing: framingOf(r),
    }));
  const products = rows
    .filter((r) => r.kind === 'garment')
    .map((r) => ({
      name: r.file!,
      bytes: read(join(dir, r.file!)),
      category: CATEGORIES[r.category!] ?? null,
      lifestyle: false,
    }));
  return {
    name: 'shared try-on photos',
    persons,
    products,
    worn: [],
    ...(await composites(persons)),
    notSeparable: [],
  };
}

/** Every set that is there: the repository's always; the others unless `repositoryOnly`. */
export async function photoSets(options: {
  repositoryOnly: boolean;
  calibration: string;
  shared: string;
}): Promise<PhotoSet[]> {
  const sets = [await repositorySet()];
  if (options.repositoryOnly) return sets;
  if (existsSync(join(options.calibration, 'MANIFEST.tsv'))) sets.push(...(await calibrationSets(options.calibration)));
  if (existsSync(join(options.shared, 'MANIFEST.tsv'))) sets.push(await sharedSet(options.shared));
  return sets;
}
