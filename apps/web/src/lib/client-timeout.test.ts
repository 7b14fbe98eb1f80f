import { describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUT_MS } from '@aidressup/contract';
import { clientTimeoutMs } from './client-timeout';

describe('clientTimeoutMs', () => {
  it('waits the usual 120 s for the built-in and the usual hosted engines', () => {
    expect(clientTimeoutMs(undefined)).toBe(CLIENT_TIMEOUT_MS);
    expect(clientTimeoutMs({ max: 5 })).toBe(CLIENT_TIMEOUT_MS);
    expect(clientTimeoutMs({ max: 60 })).toBe(CLIENT_TIMEOUT_MS);
  });

  it('waits past the server’s 150 s deadline for an engine that takes up to 120 s', () => {
    expect(clientTimeoutMs({ max: 120 })).toBe(180_000);
  });
});
