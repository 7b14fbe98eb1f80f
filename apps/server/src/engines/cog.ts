/**
 * `cog`: a try-on model the operator serves on their own GPU with Cog, Replicate's open container
 * format. One synchronous, idempotent call, `PUT {COG_URL}/predictions/{id}` `{input}` →
 * `{status, output, error}` (a retry with the same id never starts a second prediction); the image
 * comes back as a data URI (or a URL when the server uploads its outputs). `GET /health-check`
 * (READY or BUSY: up; STARTING, SETUP_FAILED, DEFUNCT, UNHEALTHY or no answer: down) is read at
 * start and every 30 seconds: it costs nothing, the server is the operator's own.
 */
import { randomBytes } from 'node:crypto';
import {
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  NON_COMMERCIAL_PRESETS,
  REPLICATE_DATA_URI_MAX,
  REPLICATE_INPUT,
} from '@aidressup/contract';
import { EngineError, type TryOnEngine, type TryOnInput, type TryOnOutput } from '@aidressup/engine';
import type { CogConfig } from '../config/hosted-engines.js';
import { createHostedRunner, type HostedEngineDeps } from './hosted-call.js';
import { withReasons, type HostedEngineHealth } from './hosted-health.js';
import { isTransientStatus, parseJson, snippet } from './hosted-http.js';
import { finishResult } from './hosted-image.js';
import { photoDataUrl, readOutputImage } from './hosted-output.js';
import { firstOutputUrl, modelInput } from './model-inputs.js';
import { COG } from './descriptors.js';

const COG_ID = COG.id;
export const COG_HEALTH_INTERVAL_MS = 30_000;

/** Cog's health-check states in which it takes predictions. */
const READY = new Set(['READY', 'BUSY']);

interface CogPrediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
}

export interface CogEngine extends TryOnEngine {
  health(): HostedEngineHealth;
  /** Reads the server's health check now (the periodic check calls it). */
  checkHealth(): Promise<void>;
}

/** A prediction id as Cog recommends: 26 base32 characters. */
function predictionId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((b) => alphabet[b % 32]).join('');
}

export function createCogEngine(cfg: CogConfig, deps: HostedEngineDeps = {}): CogEngine {
  const base = cfg.url.replace(/\/+$/, '');
  const runner = createHostedRunner(COG_ID, [], deps);
  const interval = deps.refreshIntervalMs ?? COG_HEALTH_INTERVAL_MS;
  /** Why the server cannot take predictions now; undefined while it can (or before the first check). */
  let notReady: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  if (cfg.preset && NON_COMMERCIAL_PRESETS.includes(cfg.preset))
    runner.warn({ preset: cfg.preset }, 'cog: IDM-VTON is licensed CC BY-NC-SA 4.0: non-commercial use only');

  async function checkHealth(): Promise<void> {
    try {
      const res = await runner.fetchOutside(`${base}/health-check`, { method: 'GET' }, 5_000);
      const body = parseJson<{ status?: string; user_healthcheck_error?: string }>(res, COG_ID, 'health-check');
      const status = String(body.status ?? 'unknown');
      const was = notReady;
      notReady = READY.has(status)
        ? undefined
        : `the Cog server at ${base} is ${status}${body.user_healthcheck_error ? `: ${body.user_healthcheck_error}` : ''}`;
      if (notReady && notReady !== was) runner.warn({ status }, `cog: ${notReady}`);
    } catch (err) {
      notReady = `the Cog server at ${base} does not answer its health check (${(err as Error).message})`;
    }
  }

  async function tryOn(input: TryOnInput): Promise<TryOnOutput> {
    return runner.run(input.signal, async (call) => {
      const garmentsIn = input.lowerGarment ? [input.garment, input.lowerGarment] : [input.garment];
      const [person, ...garments] = await Promise.all(
        [input.person, ...garmentsIn].map((p) => photoDataUrl(p, REPLICATE_INPUT, REPLICATE_DATA_URI_MAX)),
      );
      const body = modelInput(
        cfg.inputs,
        person!.url,
        garments.map((g) => g.url),
        input.category,
        COG_ID,
      );
      const id = predictionId();
      call.requestId = id;
      let answer;
      try {
        answer = await call.fetch(
          `${base}/predictions/${id}`,
          { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, input: body }) },
          // 409: every prediction slot is taken; the same id is safe to send again.
          { shouldRetry: (r) => r.status === 409 || isTransientStatus(r.status) },
        );
      } catch (err) {
        if (err instanceof EngineError && err.code === 'ENGINE_TIMEOUT')
          runner.cancel(`${base}/predictions/${id}/cancel`, { method: 'POST' }, id);
        throw err;
      }
      if (answer.status === 409)
        throw new EngineError('ENGINE_FAILED', HOSTED_ENGINE_MESSAGES.busy, `cog: every prediction slot is busy (409)`);
      if (answer.status !== 200)
        throw new EngineError(
          'ENGINE_FAILED',
          MESSAGES.engineFailed,
          `cog: prediction ${id} answered HTTP ${answer.status}: ${snippet(answer.body)}`,
        );
      const p = parseJson<CogPrediction>(answer, COG_ID, 'prediction');
      if (p.status !== 'succeeded') {
        const error = typeof p.error === 'string' ? p.error : JSON.stringify(p.error ?? null);
        const detail = `cog: prediction ${id} ${p.status ?? '?'}: ${snippet(error)}`;
        if (/nsfw|sensitive|safety|content polic/i.test(error))
          throw new EngineError('CONTENT_BLOCKED', MESSAGES.contentBlocked, detail);
        throw new EngineError('ENGINE_FAILED', MESSAGES.engineFailed, detail);
      }
      const url = firstOutputUrl(p.output);
      if (!url)
        throw new EngineError(
          'ENGINE_FAILED',
          HOSTED_ENGINE_MESSAGES.noImage,
          `cog: prediction ${id} succeeded without an image: ${snippet(JSON.stringify(p.output ?? null))}`,
        );
      const bytes = await readOutputImage(call, url, COG_ID, { ownOrigins: [new URL(base).origin] });
      return finishResult(bytes, person!.image, COG_ID);
    });
  }

  return {
    id: COG_ID,
    label: COG.label,
    categories: COG.categories(cfg),
    outfit: cfg.inputs.garmentList,
    tryOn,
    checkHealth,
    async warm() {
      await checkHealth();
      timer ??= setInterval(() => void checkHealth(), interval);
      timer.unref?.();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    health: () => withReasons(runner.healthSnapshot(), [], notReady ? [notReady] : []),
  };
}
