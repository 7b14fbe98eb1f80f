import { CLIENT_TIMEOUT_MS } from '@aidressup/contract';

/**
 * How long the page waits for a try-on's answer: CLIENT_TIMEOUT_MS (120 s), or longer for an
 * engine that says it may take longer (FASHN's Try-On Max: up to 120 s, with a server deadline of
 * 150 s), so the page never gives up on a try-on the server is still running: the engine's longest
 * estimate plus a minute for the upload, the queue and the answer.
 */
export function clientTimeoutMs(estimateSeconds: { max: number } | undefined): number {
  return Math.max(CLIENT_TIMEOUT_MS, ((estimateSeconds?.max ?? 0) + 60) * 1000);
}
