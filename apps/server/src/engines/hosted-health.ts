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
  /**
   * `down`: the provider failed the last DOWN_AFTER_FAILURES try-ons in a row (for a reason not the
   * photos'), less than DOWN_FOR_MS ago, or the engine's own check says it cannot work; the page
   * does not offer it and try-ons go to its fallback. After DOWN_FOR_MS one try-on is let through.
   */
  status: 'ok' | 'degraded' | 'down';
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

/** Failures in a row (not refusals of the photos) after which an engine is down for a while. */
export const DOWN_AFTER_FAILURES = 3;
/** How long an engine that kept failing is taken out of the page before one try-on is let through. */
export const DOWN_FOR_MS = 60_000;

/**
 * The snapshot with the engine's own findings: any warning makes it `degraded`, any reason it
 * cannot work at all (`down`: its server says it is not ready, no access token) makes it `down`.
 */
export function withReasons(
  health: HostedEngineHealth,
  reasons: readonly string[],
  down: readonly string[] = [],
): HostedEngineHealth {
  if (down.length > 0) return { ...health, status: 'down', reasons: [...down, ...reasons] };
  if (reasons.length === 0) return health;
  return { ...health, status: health.status === 'down' ? 'down' : 'degraded', reasons: [...reasons] };
}

export class HealthStats {
  private readonly outcomes: CallOutcome[] = [];
  private lastSuccess: number | undefined;
  private lastFailure: number | undefined;
  private failuresInARow = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly window = 20,
  ) {}

  record(outcome: CallOutcome): void {
    this.outcomes.push(outcome);
    if (this.outcomes.length > this.window) this.outcomes.shift();
    if (outcome === 'failure') {
      this.lastFailure = this.now();
      this.failuresInARow++;
    } else {
      // A refusal of the photos is an answer too: the service works.
      this.failuresInARow = 0;
      if (outcome === 'success') this.lastSuccess = this.now();
    }
  }

  /** Failed the last DOWN_AFTER_FAILURES calls, the latest less than DOWN_FOR_MS ago. */
  isDown(): boolean {
    return (
      this.failuresInARow >= DOWN_AFTER_FAILURES &&
      this.lastFailure !== undefined &&
      this.now() - this.lastFailure < DOWN_FOR_MS
    );
  }

  snapshot(): HostedEngineHealth {
    const failures = this.outcomes.filter((o) => o === 'failure').length;
    const recentCalls = this.outcomes.length;
    const errorRate = recentCalls === 0 ? 0 : Math.round((failures / recentCalls) * 1000) / 1000;
    return {
      status: this.isDown() ? 'down' : recentCalls >= 3 && errorRate >= 0.5 ? 'degraded' : 'ok',
      configured: true,
      lastSuccessAt: this.lastSuccess === undefined ? null : new Date(this.lastSuccess).toISOString(),
      lastFailureAt: this.lastFailure === undefined ? null : new Date(this.lastFailure).toISOString(),
      errorRate,
      recentCalls,
    };
  }
}
