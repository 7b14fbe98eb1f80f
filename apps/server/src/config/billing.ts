/** Billing settings: Paddle (all or none of its variables) or demo billing. */
import { z } from 'zod';
import { PLAN_IDS, type PlanId } from '@aidressup/contract';
import { flag, optionalString, optionalUrl } from './env.js';

export const BillingEnv = {
  PADDLE_ENV: z.enum(['sandbox', 'production']).optional(),
  PADDLE_CLIENT_TOKEN: optionalString,
  PADDLE_WEBHOOK_SECRET: optionalString,
  PADDLE_PRICE_WEEKLY: optionalString,
  PADDLE_PRICE_MONTHLY: optionalString,
  PADDLE_PRICE_YEARLY: optionalString,
  PADDLE_PRICE_CREDITS_200: optionalString,
  /** Demo billing in production (https PUBLIC_URL, no PADDLE_*) only when set to true on purpose. */
  DEMO_BILLING: flag(false),
  // Paddle's API (server side only): the customer portal
  PADDLE_API_KEY: optionalString,
  PADDLE_API_BASE_URL: optionalUrl('PADDLE_API_BASE_URL'),
};
type BillingEnvValues = z.infer<z.ZodObject<typeof BillingEnv>> & {
  NODE_ENV: 'development' | 'production' | 'test';
  PUBLIC_URL?: string | undefined;
};

const PADDLE_PRICE_VARS: Record<PlanId, keyof BillingEnvValues> = {
  weekly: 'PADDLE_PRICE_WEEKLY',
  monthly: 'PADDLE_PRICE_MONTHLY',
  yearly: 'PADDLE_PRICE_YEARLY',
  credits_200: 'PADDLE_PRICE_CREDITS_200',
};

export interface PaddleConfig {
  environment: 'sandbox' | 'production';
  clientToken: string;
  /** Server-side API key (customer portal); the portal is unavailable without it. */
  apiKey: string | undefined;
  /** Paddle's API: sandbox or live by environment, or PADDLE_API_BASE_URL. */
  apiBaseUrl: string;
  webhookSecret: string;
  /** plan id → Paddle price id */
  prices: Record<PlanId, string>;
}

export type BillingConfig = { provider: 'demo' } | { provider: 'paddle'; paddle: PaddleConfig };

export function billingConfig(e: BillingEnvValues, problems: string[]): BillingConfig {
  const paddleVars = [
    'PADDLE_ENV',
    'PADDLE_CLIENT_TOKEN',
    'PADDLE_WEBHOOK_SECRET',
    ...Object.values(PADDLE_PRICE_VARS),
  ] as const;
  const setPaddle = paddleVars.filter((k) => e[k] !== undefined);
  let billing: BillingConfig = { provider: 'demo' };
  if (setPaddle.length > 0) {
    const missing = paddleVars.filter((k) => e[k] === undefined);
    if (missing.length > 0) {
      problems.push(`Paddle billing is partly configured: also set ${missing.join(', ')}`);
    } else {
      const environment = e.PADDLE_ENV!;
      const token = e.PADDLE_CLIENT_TOKEN!;
      const expectedPrefix = environment === 'sandbox' ? 'test_' : 'live_';
      if (!token.startsWith(expectedPrefix)) {
        problems.push(`PADDLE_CLIENT_TOKEN must start with ${expectedPrefix} when PADDLE_ENV=${environment}`);
      }
      const prices = Object.fromEntries(PLAN_IDS.map((id) => [id, e[PADDLE_PRICE_VARS[id]] as string])) as Record<
        PlanId,
        string
      >;
      if (new Set(Object.values(prices)).size !== PLAN_IDS.length) {
        problems.push('PADDLE_PRICE_* must be four different price ids');
      }
      billing = {
        provider: 'paddle',
        paddle: {
          environment,
          clientToken: token,
          webhookSecret: e.PADDLE_WEBHOOK_SECRET!,
          prices,
          apiKey: e.PADDLE_API_KEY,
          apiBaseUrl: (
            e.PADDLE_API_BASE_URL ??
            (environment === 'sandbox' ? 'https://sandbox-api.paddle.com' : 'https://api.paddle.com')
          ).replace(/\/+$/, ''),
        },
      };
    }
  }

  // A public production deployment without Paddle would give credits away through the demo checkout.
  if (
    billing.provider === 'demo' &&
    e.NODE_ENV === 'production' &&
    e.PUBLIC_URL?.startsWith('https:') &&
    !e.DEMO_BILLING &&
    setPaddle.length === 0
  ) {
    problems.push(
      'No PADDLE_* settings in production (NODE_ENV=production, https PUBLIC_URL): the demo checkout would give credits away. Configure Paddle, or set DEMO_BILLING=true to run demo billing on purpose',
    );
  }
  return billing;
}
