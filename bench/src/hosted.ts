/**
 * Overhead of the hosted engine adapters (nano-banana, fashn, fal, vertex-tryon, replicate, cog): the time a whole
 * `tryOn()` takes against a local stand-in that answers at once from a precomputed
 * result, so what is measured is ours: reducing two ~3 MB phone photos, encoding the
 * request, the HTTP round trips over loopback, polling, reading and checking the answer.
 * The stand-ins run in this same process, so their own request parsing is included:
 * the figures are an upper bound on the adapters' overhead.
 *
 * Three inputs: raw ~3 MB 12 MP phone photos; the 2048 px photos the try-on pipeline
 * currently hands an engine after normalising uploads; and 1024 px clean JPEGs, which the
 * Gemini adapter sends on without re-encoding. Each engine reduces to the input it
 * declares: Gemini 1024 px at quality 90, FASHN (direct and on fal) up to 2000 px at
 * quality 95, so FASHN's figures include a larger encode and upload.
 *
 * Run: node --conditions=source --import tsx bench/src/hosted.ts   (or `npm run bench`)
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { GEMINI_DEFAULT_MODEL, type Category } from '@aidressup/contract';
import type { TryOnEngine } from '@aidressup/engine';
import { createNanoBananaEngine } from '@aidressup/server/engines/nano-banana';
import { createFashnEngine } from '@aidressup/server/engines/fashn';
import { createFalEngine } from '@aidressup/server/engines/fal';
import { reduceImage } from '@aidressup/server/engines/hosted-image';
import { startGeminiStandIn } from '@aidressup/server/testing/stand-ins/gemini-stand-in';
import { startFashnStandIn } from '@aidressup/server/testing/stand-ins/fashn-stand-in';
import { startFalStandIn } from '@aidressup/server/testing/stand-ins/fal-stand-in';
import { syntheticPhoto } from '@aidressup/server/testing/stand-ins/test-photos';
import { createVertexEngine } from '@aidressup/server/engines/vertex-tryon';
import { createReplicateEngine } from '@aidressup/server/engines/replicate';
import { createCogEngine } from '@aidressup/server/engines/cog';
import { loadConfig } from '@aidressup/server/config';
import { startVertexStandIn } from '@aidressup/server/testing/stand-ins/vertex-stand-in';
import { startReplicateStandIn } from '@aidressup/server/testing/stand-ins/replicate-stand-in';
import { startCogStandIn } from '@aidressup/server/testing/stand-ins/cog-stand-in';

const RUNS = Math.max(30, Number(process.env.HOSTED_BENCH_RUNS ?? 30));
const WARMUP = 3;
const TARGET_P95_MS = 80;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export interface Stats {
  p50: number;
  p95: number;
  max: number;
  /** CPU time this process spent per run (all threads), which machine load barely changes. */
  cpuP50: number;
  cpuP95: number;
}

async function measure(run: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await run();
    wall.push(performance.now() - t);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    p50: percentile(wall, 50),
    p95: percentile(wall, 95),
    max: wall.at(-1)!,
    cpuP50: percentile(cpu, 50),
    cpuP95: percentile(cpu, 95),
  };
}

export interface HostedBenchRow extends Stats {
  scenario: string;
  name: string;
}

export async function runHostedBench(): Promise<HostedBenchRow[]> {
  const phone = {
    person: await syntheticPhoto(3024, 4032, { noise: 22, quality: 90, seed: 41 }),
    garment: await syntheticPhoto(3024, 3024, { noise: 26, quality: 90, seed: 42 }),
  };
  // What the try-on pipeline hands an engine: uploads normalised to a 2048 px longest side.
  const normalised = {
    person: await sharp(phone.person).resize(1536, 2048).jpeg({ quality: 90 }).toBuffer(),
    garment: await sharp(phone.garment).resize(2048, 2048).jpeg({ quality: 90 }).toBuffer(),
  };
  // What it would hand over if it normalised straight to the hosted engines' 1024 px.
  const handOver = {
    person: await sharp(phone.person).resize(768, 1024).jpeg({ quality: 90 }).toBuffer(),
    garment: await sharp(phone.garment).resize(1024, 1024).jpeg({ quality: 90 }).toBuffer(),
  };
  const mb = (b: Buffer) => `${(b.length / 1e6).toFixed(2)} MB`;
  console.log(`phone photos: person 3024×4032 ${mb(phone.person)}, garment 3024×3024 ${mb(phone.garment)}`);
  console.log(`normalised:   person 1536×2048 ${mb(normalised.person)}, garment 2048×2048 ${mb(normalised.garment)}`);
  console.log(`1024 px:      person 768×1024 ${mb(handOver.person)}, garment 1024×1024 ${mb(handOver.garment)}`);
  console.log(
    `${RUNS} runs after ${WARMUP} warm-up runs; ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const gemini = await startGeminiStandIn({ apiKey: 'bench-gemini-key', instant: true });
  const fashn = await startFashnStandIn({ apiKey: 'bench-fashn-key', instant: true });
  const fal = await startFalStandIn({ key: 'bench-fal-key', instant: true });
  const vertex = await startVertexStandIn({ instant: true });
  const replicate = await startReplicateStandIn({ token: 'bench-replicate-token', instant: true });
  const cog = await startCogStandIn(undefined, { instant: true });
  // The stand-ins finish at the first status poll: no waiting between polls is measured.
  fashn.fallbackRun = { kind: 'accept', outcome: { kind: 'completed', polls: 0 } };
  fal.fallbackSubmit = { kind: 'accept', outcome: { kind: 'completed', polls: 0 } };

  const engines: Array<[string, TryOnEngine, () => void]> = [
    [
      'nano-banana',
      createNanoBananaEngine({ apiKey: 'bench-gemini-key', baseUrl: gemini.url, model: GEMINI_DEFAULT_MODEL }),
      () => (gemini.requests.length = 0),
    ],
    ['fashn', createFashnEngine({ apiKey: 'bench-fashn-key', baseUrl: fashn.url }), () => (fashn.requests.length = 0)],
    [
      'fal',
      createFalEngine({ key: 'bench-fal-key', baseUrl: fal.url, model: 'fal-ai/fashn/tryon/v1.6' }),
      () => (fal.requests.length = 0),
    ],
    [
      'vertex-tryon',
      createVertexEngine({
        project: vertex.project,
        location: vertex.location,
        model: vertex.model,
        baseUrl: vertex.url,
        credentials: vertex.key,
        safetySetting: 'block_medium_and_above',
        personGeneration: 'allow_adult',
      }),
      () => (vertex.requests.length = 0),
    ],
    [
      'replicate',
      createReplicateEngine(
        {
          token: 'bench-replicate-token',
          baseUrl: replicate.url,
          model: 'prunaai/p-image-try-on',
          version: undefined,
          preset: 'p-image-try-on',
        },
        // The delivery CDN's stand-in is on another port of 127.0.0.1, trusted as a mirror would be.
        { outputOrigins: [new URL(replicate.cdnUrl).origin] },
      ),
      () => (replicate.requests.length = 0),
    ],
    ['cog', createCogEngine(loadConfig({ COG_URL: cog.url }).engines.cog!), () => (cog.requests.length = 0)],
  ];

  const rows: HostedBenchRow[] = [];
  const category: Category = 'upper_body';
  try {
    for (const [scenario, photos] of [
      ['3 MB phone photos', phone],
      ['2048 px normalised', normalised],
      ['1024 px handed over', handOver],
    ] as const) {
      rows.push({
        scenario,
        name: 'image reduction (both photos)',
        ...(await measure(() => Promise.all([reduceImage(photos.person), reduceImage(photos.garment)]))),
      });
      for (const [name, engine, forget] of engines) {
        const stats = await measure(async () => {
          await engine.tryOn({ person: photos.person, garment: photos.garment, category });
          forget();
        });
        rows.push({ scenario, name: `${name} tryOn() overhead`, ...stats });
      }
    }
  } finally {
    await Promise.all([gemini.close(), fashn.close(), fal.close(), vertex.close(), replicate.close(), cog.close()]);
  }

  const ms = (v: number) => `${v.toFixed(1)}`.padStart(9);
  console.log(
    `${'scenario'.padEnd(20)}${'measure'.padEnd(32)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}${'cpu p50'.padStart(9)}${'cpu p95'.padStart(9)}   target p95 < ${TARGET_P95_MS} ms`,
  );
  for (const r of rows) {
    const verdict = r.name.includes('overhead') ? (r.p95 < TARGET_P95_MS ? '   ok' : '   above target') : '';
    console.log(
      `${r.scenario.padEnd(20)}${r.name.padEnd(32)}${ms(r.p50)}${ms(r.p95)}${ms(r.max)}${ms(r.cpuP50)}${ms(r.cpuP95)}${verdict}`,
    );
  }
  console.log(
    `load average after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (wall times include waiting for a CPU when the machine is busy; cpu columns do not)`,
  );
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runHostedBench();
}
