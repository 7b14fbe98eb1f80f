import type { PublicConfig, PublicPlan } from '@aidressup/contract';

export interface PaddleCheckout {
  ready: boolean;
  open(args: { plan: PublicPlan; userId: string; onCompleted: () => void }): void;
}

/** Paddle overlay checkout. Placeholder until Paddle checkout is wired in: never ready. */
export function usePaddleCheckout(billing: PublicConfig['billing']): PaddleCheckout {
  void billing;
  return {
    ready: false,
    open() {
      throw new Error('not configured');
    },
  };
}
