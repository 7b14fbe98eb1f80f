/**
 * Photos made from the openly licensed test fixtures (test-fixtures/LICENSES.md) for the photo
 * checks' tests and `npm run bench:checks`: the hard cases for a check that must refuse only when
 * sure (a face or a person printed on a T-shirt, a skin-coloured T-shirt) and photos each check must
 * refuse (two people, a person far away, a garment on a busy backdrop).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/** test-fixtures/ sits next to both src/ and dist/. */
export const TEST_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-fixtures');
const fixture = (rel: string) => readFileSync(join(TEST_FIXTURES, rel));

export interface SyntheticPhoto {
  name: string;
  bytes: Uint8Array;
}

/** A cartoon face (skin-coloured, with hair, eyes and a smile) as SVG, `size` px square. */
function cartoonFace(size: number): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
      <ellipse cx="50" cy="40" rx="40" ry="34" fill="#4a2c1a"/>
      <ellipse cx="50" cy="55" rx="32" ry="38" fill="#e8b894"/>
      <ellipse cx="38" cy="50" rx="5" ry="6" fill="#fff"/><circle cx="38" cy="51" r="3" fill="#222"/>
      <ellipse cx="62" cy="50" rx="5" ry="6" fill="#fff"/><circle cx="62" cy="51" r="3" fill="#222"/>
      <path d="M31 41 Q38 36 45 41 M55 41 Q62 36 69 41" stroke="#3a2010" stroke-width="2.5" fill="none"/>
      <path d="M50 55 Q47 64 52 65" stroke="#b07850" stroke-width="2" fill="none"/>
      <path d="M38 73 Q50 83 62 73" stroke="#a0302a" stroke-width="3.5" fill="none"/>
    </svg>`,
  );
}

async function onChest(shirt: string, print: Buffer, share: number, top: number): Promise<Uint8Array> {
  const base = sharp(fixture(shirt));
  const { width = 0, height = 0 } = await base.metadata();
  const w = Math.round(width * share);
  const p = await sharp(print).resize({ width: w }).png().toBuffer();
  const ph = (await sharp(p).metadata()).height ?? w;
  return base
    .composite([{ input: p, left: Math.round((width - w) / 2), top: Math.round(height * top - ph / 2) }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Product photos that no check may refuse (as garments: flat T-shirts with prints, a peach T-shirt). */
export async function syntheticProductPhotos(): Promise<SyntheticPhoto[]> {
  const person = fixture('person/woman_blouse_skirt.jpg');
  const headAndShoulders = await sharp(person).extract({ left: 320, top: 10, width: 400, height: 400 }).toBuffer();
  // The plain light-blue T-shirt turned peach (a nude or peach garment is skin-coloured all over).
  const peach = await sharp(fixture('garment/tshirt_lightblue_plain.jpg'))
    .modulate({ hue: 180, brightness: 1.1 })
    .jpeg({ quality: 90 })
    .toBuffer();
  return [
    {
      name: 'synthetic:cartoon-face-tee',
      bytes: await onChest('garment/tshirt_lightblue_plain.jpg', cartoonFace(400), 0.3, 0.5),
    },
    {
      name: 'synthetic:big-face-tee',
      bytes: await onChest('garment/tshirt_yellow_plain.jpg', cartoonFace(400), 0.45, 0.5),
    },
    {
      name: 'synthetic:photo-print-tee',
      bytes: await onChest('garment/tshirt_lightblue_plain.jpg', headAndShoulders, 0.32, 0.52),
    },
    {
      name: 'synthetic:portrait-print-tee',
      bytes: await onChest('garment/tshirt_yellow_plain.jpg', headAndShoulders, 0.5, 0.55),
    },
    { name: 'synthetic:peach-tee', bytes: new Uint8Array(peach) },
  ];
}

/** Person photos the person checks must refuse: two people side by side, and one person far away. */
export async function syntheticPeoplePhotos(): Promise<{ twoPeople: SyntheticPhoto; farAway: SyntheticPhoto }> {
  const a = await sharp(fixture('person/woman_tee_jeans_fullbody.jpg'))
    .resize({ height: 1024, width: 512, fit: 'cover' })
    .toBuffer();
  const b = await sharp(fixture('person/woman_blouse_skirt.jpg'))
    .resize({ height: 1024, width: 512, fit: 'cover' })
    .toBuffer();
  const twoPeople = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#c8c8c8' } })
    .composite([
      { input: a, left: 0, top: 0 },
      { input: b, left: 512, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
  const small = await sharp(fixture('person/woman_tee_jeans_fullbody.jpg')).resize({ width: 170 }).toBuffer();
  const { data } = await sharp(fixture('person/woman_tee_jeans_fullbody.jpg'))
    .extract({ left: 0, top: 0, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const farAway = await sharp({
    create: { width: 1024, height: 1024, channels: 3, background: { r: data[0]!, g: data[1]!, b: data[2]! } },
  })
    .composite([{ input: small, left: 427, top: 500 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return {
    twoPeople: { name: 'synthetic:two-people', bytes: new Uint8Array(twoPeople) },
    farAway: { name: 'synthetic:person-far-away', bytes: new Uint8Array(farAway) },
  };
}

/** A garment on a busy backdrop (coloured shapes larger than the cut-out's grid cells): it cannot be cut out. */
export async function syntheticBusyBackdrop(): Promise<SyntheticPhoto> {
  const W = 768;
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const shapes: string[] = [];
  for (let i = 0; i < 400; i++) {
    const colour = `rgb(${Math.round(rnd() * 255)},${Math.round(rnd() * 255)},${Math.round(rnd() * 255)})`;
    shapes.push(
      `<circle cx="${(rnd() * W).toFixed(0)}" cy="${(rnd() * W).toFixed(0)}" r="${(15 + rnd() * 50).toFixed(0)}" fill="${colour}"/>`,
    );
  }
  const bg = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${W}"><rect width="100%" height="100%" fill="#6a8"/>${shapes.join('')}</svg>`,
    ),
  )
    .png()
    .toBuffer();
  // The black T-shirt without its white backdrop (near-white pixels made transparent).
  const { data, info } = await sharp(fixture('garment/tshirt_black.jpg'))
    .resize({ width: 420 })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 4)
    if (data[i]! > 225 && data[i + 1]! > 225 && data[i + 2]! > 225) data[i + 3] = 0;
  const shirt = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
  const bytes = await sharp(bg)
    .composite([{ input: shirt, left: 174, top: 174 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return { name: 'synthetic:garment-on-noise', bytes: new Uint8Array(bytes) };
}
