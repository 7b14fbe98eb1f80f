/**
 * A check against the real hosted services: one real try-on per configured engine
 * (nano-banana, fashn, fal, vertex-tryon, replicate, cog) with the open fixture photos (e2e/fixtures), printing the time,
 * the model and the size of the result. It spends real money (one image per engine), so it
 * is not part of `npm test`; operators run it once after setting a key. Without any key it
 * prints "skipped: no keys" and exits 0. Exits 1 when a configured engine fails.
 *
 * Run: npm run check:engines   (reads GEMINI_*, FASHN_*, FAL_*, VERTEX_*, GOOGLE_APPLICATION_CREDENTIALS,
 * REPLICATE_*, COG_* and ENGINE_DEADLINE_MS)
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { TryOnEngine } from '@aidressup/engine';
import { isEngineError } from '@aidressup/engine';
import { loadConfig } from '@aidressup/server/config';
import type { HostedLogger } from '@aidressup/server/engines/hosted-call';

const ENGINE_VARS = [
  'ENGINE_DEADLINE_MS',
  'UPSTREAM_MAX_BYTES',
  'UPSTREAM_OUTPUT_ORIGINS',
  'GEMINI_API_KEY',
  'GEMINI_BASE_URL',
  'GEMINI_MODEL',
  'GEMINI_FALLBACK_MODELS',
  'FASHN_API_KEY',
  'FASHN_BASE_URL',
  'FASHN_MODE',
  'FASHN_MODEL',
  'FASHN_MODERATION',
  'FASHN_SEGMENTATION_FREE',
  'FASHN_SEED',
  'FASHN_LOW_CREDITS',
  'FAL_KEY',
  'FAL_BASE_URL',
  'FAL_MODEL',
  'VERTEX_PROJECT',
  'VERTEX_LOCATION',
  'VERTEX_MODEL',
  'VERTEX_BASE_URL',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'VERTEX_CREDENTIALS',
  'VERTEX_SAFETY_SETTING',
  'VERTEX_PERSON_GENERATION',
  'VERTEX_BASE_STEPS',
  'REPLICATE_API_TOKEN',
  'REPLICATE_MODEL',
  'REPLICATE_BASE_URL',
  'COG_URL',
  'COG_MODEL',
  'COG_INPUTS',
] as const;

interface Check {
  id: string;
  model: string;
  create: (logger: HostedLogger) => Promise<TryOnEngine>;
}

export interface CheckResult {
  id: string;
  model: string;
  ok: boolean;
  line: string;
}

/** The engines configured by these variables (the same validation as the server). */
export function configuredChecks(env: NodeJS.ProcessEnv): Check[] {
  const picked = Object.fromEntries(ENGINE_VARS.filter((k) => env[k] !== undefined).map((k) => [k, env[k]]));
  const { engines } = loadConfig({ NODE_ENV: 'development', ...picked });
  const deps = (logger: HostedLogger) => ({
    deadlineMs: engines.deadlineMs,
    maxBytes: engines.upstreamMaxBytes,
    outputOrigins: engines.upstreamOutputOrigins,
    logger,
  });
  const checks: Check[] = [];
  if (engines.gemini) {
    const cfg = engines.gemini;
    checks.push({
      id: 'nano-banana',
      model: cfg.model,
      create: async (l) => (await import('@aidressup/server/engines/nano-banana')).createNanoBananaEngine(cfg, deps(l)),
    });
  }
  if (engines.fashn) {
    const cfg = engines.fashn;
    checks.push({
      id: 'fashn',
      model: cfg.model === 'tryon-max' ? 'tryon-max' : `tryon-v1.6 (mode ${cfg.mode})`,
      create: async (l) => (await import('@aidressup/server/engines/fashn')).createFashnEngine(cfg, deps(l)),
    });
  }
  if (engines.fal) {
    const cfg = engines.fal;
    checks.push({
      id: 'fal',
      model: `${cfg.model} (mode ${cfg.fashnMode})`,
      create: async (l) => (await import('@aidressup/server/engines/fal')).createFalEngine(cfg, deps(l)),
    });
  }
  if (engines.vertex) {
    const cfg = engines.vertex;
    checks.push({
      id: 'vertex-tryon',
      model: `${cfg.model} (${cfg.location})`,
      create: async (l) => (await import('@aidressup/server/engines/vertex-tryon')).createVertexEngine(cfg, deps(l)),
    });
  }
  if (engines.replicate) {
    const cfg = engines.replicate;
    checks.push({
      id: 'replicate',
      model: cfg.model ?? cfg.version ?? cfg.preset,
      create: async (l) => (await import('@aidressup/server/engines/replicate')).createReplicateEngine(cfg, deps(l)),
    });
  }
  if (engines.cog) {
    const cfg = engines.cog;
    checks.push({
      id: 'cog',
      model: `${cfg.preset ?? 'COG_INPUTS'} at ${cfg.url}`,
      create: async (l) => (await import('@aidressup/server/engines/cog')).createCogEngine(cfg, deps(l)),
    });
  }
  return checks;
}

export async function checkEngines(
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
): Promise<CheckResult[] | 'skipped'> {
  const checks = configuredChecks(env);
  if (checks.length === 0) {
    print(
      'check:engines skipped: no keys (set GEMINI_API_KEY, FASHN_API_KEY, FAL_KEY, VERTEX_PROJECT, REPLICATE_API_TOKEN or COG_URL to check those engines)',
    );
    return 'skipped';
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const [person, garment] = await Promise.all([
    readFile(path.join(root, 'e2e/fixtures/person.jpg')),
    readFile(path.join(root, 'e2e/fixtures/garment-upper.jpg')),
  ]);
  print(
    `check:engines: one real try-on per configured engine (${checks.map((c) => c.id).join(', ')}), e2e/fixtures/person.jpg + garment-upper.jpg, upper body`,
  );

  const results: CheckResult[] = [];
  for (const check of checks) {
    const notes: Record<string, unknown> = {};
    const logger: HostedLogger = {
      info: (obj) => {
        if (obj.modelVersion !== undefined) notes.modelVersion = obj.modelVersion;
        if (obj.creditsUsed !== undefined) notes.creditsUsed = obj.creditsUsed;
        if (obj.requestId !== undefined) notes.requestId = obj.requestId;
        if (obj.credits !== undefined) notes.creditsLeft = obj.credits;
      },
      warn: (obj, msg) => {
        if (msg && !msg.startsWith('hosted try-on failed') && !msg.startsWith('hosted engine: retrying'))
          print(`  ${check.id}: ${msg}`);
        if (msg === 'hosted engine: retrying') notes.retries = Number(notes.retries ?? 0) + 1;
      },
    };
    const started = performance.now();
    let engine: TryOnEngine | undefined;
    try {
      engine = await check.create(logger);
      // What the server does at start: Gemini's model list, FASHN's credit balance (their
      // findings are printed through the logger's warnings, as the server logs them).
      await engine.warm?.();
      const reasons = (engine.health?.() as { reasons?: string[] } | undefined)?.reasons ?? [];
      for (const reason of reasons) print(`  ${check.id}: health degraded: ${reason}`);
      const out = await engine.tryOn({ person, garment, category: 'upper_body' });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const meta = await sharp(out.image).metadata();
      const extra = Object.entries(notes)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', ');
      const line = `ok    ${check.id.padEnd(12)} ${seconds.padStart(6)} s  model ${check.model}  result ${meta.width}×${meta.height} ${out.mimeType} ${Math.round(out.image.length / 1024)} KB${extra ? `  (${extra})` : ''}`;
      print(line);
      results.push({ id: check.id, model: check.model, ok: true, line });
    } catch (err) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const what = isEngineError(err) ? `${err.code}: ${err.message} [${err.detail ?? ''}]` : String(err);
      const line = `FAIL  ${check.id.padEnd(12)} ${seconds.padStart(6)} s  model ${check.model}  ${what}`;
      print(line);
      results.push({ id: check.id, model: check.model, ok: false, line });
    } finally {
      await engine?.close?.();
    }
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await checkEngines();
  if (results !== 'skipped' && results.some((r) => !r.ok)) process.exitCode = 1;
}
