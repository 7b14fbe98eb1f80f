/** The operator console's API for unit tests: fetch stubbed at the network boundary, and answers as the server sends them. */
import { vi } from 'vitest';
import type { AdminReport, AdminUser, AdminUserDetail, Merchant } from '@aidressup/contract';

/** One request the page sent: its method, its address and its JSON body (parsed). */
export interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** Stubs fetch with `answer` and records every request sent, in order. */
export function stubApi(answer: (req: Sent) => Response | Promise<Response>): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const req = { method: init?.method ?? 'GET', url: String(input), body };
      sent.push(req);
      return answer(req);
    }),
  );
  return sent;
}

/** A successful answer. */
export const ok = (body: Record<string, unknown>) => Response.json({ success: true, ...body });

/** A refusal with the server's message and code. */
export const refuse = (status: number, code: string, error: string) =>
  Response.json({ success: false, code, error }, { status });

/** An answer the test sends when it chooses (to look at the page while a request is on its way). */
export function later() {
  let send!: (res: Response) => void;
  const response = new Promise<Response>((resolve) => (send = resolve));
  return { response, send };
}

/** An account as the users search lists it. */
export function adminUser(over: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u1',
    email: 'ana@example.com',
    credits: 12,
    free_trials_used: 1,
    free_trials_limit: 2,
    segment: 'customer',
    created_at: '2026-02-01T09:30:00.000Z',
    blocked: false,
    ...over,
  };
}

export function adminUserDetail(over: Partial<AdminUserDetail> = {}): AdminUserDetail {
  return {
    ...adminUser(),
    blocked_at: null,
    deleted_at: null,
    merged_into: null,
    device_id: null,
    subscription: null,
    ledger: [],
    tryons: [],
    payments: { grants: [], billing_events: [] },
    sessions: { count: 3, last_seen_at: '2026-03-01T10:00:00.000Z' },
    ...over,
  };
}

export function adminReport(over: Partial<AdminReport> = {}): AdminReport {
  return {
    id: 'r1',
    tryon_id: 't1',
    user: { id: 'u1', email: 'ana@example.com' },
    reason: 'wrong_garment',
    note: null,
    status: 'pending',
    units: 1,
    created_at: '2026-03-02T08:00:00.000Z',
    decided_at: null,
    decided_by: null,
    decision_note: null,
    engine: null,
    category: null,
    result_url: null,
    ...over,
  };
}

export function merchant(over: Partial<Merchant> = {}): Merchant {
  return {
    id: 'm1',
    name: 'Shop One',
    publishableKey: 'pk_aaaaaaaaaaaaaaaaaaaaaaaa',
    allowedOrigins: ['https://shop.example'],
    billing: 'merchant',
    credits: 12_500,
    dailyLimit: 500,
    shopperDailyLimit: 10,
    outOfCreditsSince: null,
    refusedNoCredits: 0,
    createdAt: '2026-01-15T12:00:00.000Z',
    keysRotatedAt: null,
    ...over,
  };
}
