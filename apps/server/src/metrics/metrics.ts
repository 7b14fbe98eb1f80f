/**
 * Operator metrics (docs/architecture.md, "13. Logging and metrics"): Prometheus text from `prom-client`, loaded only when
 * METRICS_TOKEN is set; otherwise every recording call is a no-op. Counters are per process: sum
 * them over the API instances.
 */
import type { CreditEventType } from '../db/schema.js';

export interface QueueDepth {
  waiting: number;
  active: number;
}

export interface Metrics {
  readonly enabled: boolean;
  /** One POST /api/process-image answered: the engine (or `none` before one was chosen), its outcome, how long the shopper waited. */
  tryOnFinished(engine: string, outcome: string, seconds: number): void;
  /** A credit event written by this process (amount as in the ledger: + granted, − spent). */
  creditEvent(type: CreditEventType, amount: number): void;
  /** A billing webhook answered. */
  webhook(provider: string, outcome: string): void;
  /** The exposition: content type and text. */
  render(): Promise<{ contentType: string; body: string }>;
}

export const noMetrics: Metrics = {
  enabled: false,
  tryOnFinished() {},
  creditEvent() {},
  webhook() {},
  async render() {
    return { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '' };
  },
};

/** Latency buckets for a try-on as the shopper waits for it: the built-in engine answers in well under a second, hosted ones in tens. */
const TRYON_SECONDS_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60, 90, 120];

export async function createPrometheusMetrics(
  options: { queueDepth?: () => Promise<QueueDepth> } = {},
): Promise<Metrics> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry, prefix: 'aidressup_' });

  const tryOns = new prom.Counter({
    name: 'aidressup_tryons_total',
    help: 'Try-on requests answered, by engine and outcome (succeeded, or the error code in lower case)',
    labelNames: ['engine', 'outcome'] as const,
    registers: [registry],
  });
  const tryOnSeconds = new prom.Histogram({
    name: 'aidressup_tryon_duration_seconds',
    help: 'Time from receiving a try-on request to answering it, by engine and outcome',
    labelNames: ['engine', 'outcome'] as const,
    buckets: TRYON_SECONDS_BUCKETS,
    registers: [registry],
  });
  const credits = new prom.Counter({
    name: 'aidressup_credits_total',
    help: 'Credits moved by this process, by ledger event type (grant, spend, refund, expire, clawback, …; free trials as trial_spend/trial_refund)',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  const creditsGranted = new prom.Counter({
    name: 'aidressup_credits_granted_total',
    help: 'Credits granted (purchases, renewals, demo checkouts, admin grants)',
    registers: [registry],
  });
  const creditsSpent = new prom.Counter({
    name: 'aidressup_credits_spent_total',
    help: 'Credits spent on try-ons, net of refunds counted separately in aidressup_credits_total{type="refund"}',
    registers: [registry],
  });
  const webhooks = new prom.Counter({
    name: 'aidressup_webhooks_total',
    help: 'Billing webhook notifications answered, by provider and outcome (processed, refused, failed)',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const queueDepth = options.queueDepth;
  if (queueDepth) {
    new prom.Gauge({
      name: 'aidressup_queue_jobs',
      help: 'Try-on jobs in the Redis queue by state (waiting, active); absent when Redis cannot be reached',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        try {
          const d = await withTimeout(queueDepth(), 2_000);
          this.set({ state: 'waiting' }, d.waiting);
          this.set({ state: 'active' }, d.active);
        } catch {
          // Redis unreachable: no sample (the health check says so).
        }
      },
    });
  }

  return {
    enabled: true,
    tryOnFinished(engine, outcome, seconds) {
      tryOns.inc({ engine, outcome });
      tryOnSeconds.observe({ engine, outcome }, seconds);
    },
    creditEvent(type, amount) {
      credits.inc({ type }, Math.abs(amount));
      if (type === 'grant') creditsGranted.inc(amount);
      if (type === 'spend') creditsSpent.inc(Math.abs(amount));
    },
    webhook(provider, outcome) {
      webhooks.inc({ provider, outcome });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
