/**
 * Health of a hosted engine, from the outcomes of real try-ons only: checking a paid API
 * costs money, so nothing is called just to report health.
 */
export type CallOutcome =
  /** The provider answered with an image. */
  | 'success'
  /** The provider answered but refused the photos (safety, pose…): the service itself works. */
  | 'refused'
  /** Timeout, provider error, malformed answer, network failure. */
  | 'failure';

export interface HostedEngineHealth {
  status: 'ok' | 'degraded';
  configured: true;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Share of failures among the most recent calls (0 when there were none). */
  errorRate: number;
  /** How many recent calls errorRate is computed over. */
  recentCalls: number;
  /** Why the engine is degraded besides its error rate (a retired model, a low balance), for the operator. */
  reasons?: string[];
}

/** The snapshot with the engine's own warnings: any warning makes it `degraded`. */
export function withReasons(health: HostedEngineHealth, reasons: readonly string[]): HostedEngineHealth {
  if (reasons.length === 0) return health;
  return { ...health, status: 'degraded', reasons: [...reasons] };
}

export class HealthStats {
  private readonly outcomes: CallOutcome[] = [];
  private lastSuccess: number | undefined;
  private lastFailure: number | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly window = 20,
  ) {}

  record(outcome: CallOutcome): void {
    this.outcomes.push(outcome);
    if (this.outcomes.length > this.window) this.outcomes.shift();
    if (outcome === 'failure') this.lastFailure = this.now();
    else if (outcome === 'success') this.lastSuccess = this.now();
  }

  snapshot(): HostedEngineHealth {
    const failures = this.outcomes.filter((o) => o === 'failure').length;
    const recentCalls = this.outcomes.length;
    const errorRate = recentCalls === 0 ? 0 : Math.round((failures / recentCalls) * 1000) / 1000;
    return {
      status: recentCalls >= 3 && errorRate >= 0.5 ? 'degraded' : 'ok',
      configured: true,
      lastSuccessAt: this.lastSuccess === undefined ? null : new Date(this.lastSuccess).toISOString(),
      lastFailureAt: this.lastFailure === undefined ? null : new Date(this.lastFailure).toISOString(),
      errorRate,
      recentCalls,
    };
  }
}
