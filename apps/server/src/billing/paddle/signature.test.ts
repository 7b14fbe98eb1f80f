import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, parseSignatureHeader, signatureHeader, verifySignature } from './signature.js';

const SECRET = 'pdl_ntfset_01test_signature_secret_value';
const BODY = Buffer.from('{"event_id":"evt_01test","event_type":"transaction.completed","data":{"id":"txn_01"}}');
const TS = 1_790_000_000; // seconds
const at = (seconds: number) => () => seconds * 1000;

function hmac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

describe('computeSignature', () => {
  it('is HMAC-SHA256 of ts + ":" + raw body, hex', () => {
    expect(computeSignature(SECRET, String(TS), BODY)).toBe(hmac(SECRET, `${TS}:${BODY.toString()}`));
  });

  it('matches the known answer Paddle publishes for its validator', () => {
    // Body, secret, timestamp and hash as given in Paddle's own SDK tests.
    expect(computeSignature('VALID_SECRET', '1698796800', '{"data": ["1", "2"]}')).toBe(
      'a300428748dce5c70e4da19bffd60769591ea969c99dea3105d0ec9612cf43f9',
    );
  });

  it('signs bytes, not a re-serialisation (whitespace matters)', () => {
    expect(computeSignature(SECRET, '1', '{"a":1}')).not.toBe(computeSignature(SECRET, '1', '{ "a": 1 }'));
  });
});

describe('parseSignatureHeader', () => {
  const h = 'a'.repeat(64);
  const h2 = 'b'.repeat(64);

  it('reads ts and one h1', () => {
    expect(parseSignatureHeader(`ts=123;h1=${h}`)).toEqual({ ts: '123', h1: [h] });
  });

  it('reads several h1 values (secret rotation) and ignores other schemes', () => {
    expect(parseSignatureHeader(`ts=123;h1=${h};h1=${h2};h2=whatever`)).toEqual({ ts: '123', h1: [h, h2] });
  });

  it('accepts any order, surrounding spaces and upper-case hex', () => {
    expect(parseSignatureHeader(` h1=${h.toUpperCase()} ; ts=123 `)).toEqual({ ts: '123', h1: [h] });
  });

  it.each([
    ['empty', ''],
    ['no key/value pairs', 'invalid_header'],
    ['missing ts', `h1=${h}`],
    ['missing h1', 'ts=123;h2=abc'],
    ['two ts', `ts=1;ts=2;h1=${h}`],
    ['non-numeric ts', `ts=12a;h1=${h}`],
    ['negative ts', `ts=-5;h1=${h}`],
    ['empty ts', `ts=;h1=${h}`],
    ['short h1', 'ts=123;h1=abcdef'],
    ['non-hex h1', `ts=123;h1=${'z'.repeat(64)}`],
    ['h1 too long', `ts=123;h1=${'a'.repeat(66)}`],
    ['a part without "="', `ts=123;h1=${h};garbage`],
    ['a part with empty key', `ts=123;=x;h1=${h}`],
    ['absurdly long', `ts=123;h1=${h};${'x=y;'.repeat(1000)}`],
  ])('rejects %s', (_label, header) => {
    expect(parseSignatureHeader(header)).toBeUndefined();
  });
});

describe('verifySignature', () => {
  const valid = signatureHeader(SECRET, BODY, TS);

  it('accepts a correctly signed body at the signing time', () => {
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS) })).toEqual({ ok: true, timestamp: TS });
  });

  it('accepts up to exactly 5 minutes either side, and not one second more', () => {
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS + 300) }).ok).toBe(true);
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS - 300) }).ok).toBe(true);
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS + 301) })).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS - 301) })).toEqual({
      ok: false,
      reason: 'stale_timestamp',
    });
  });

  it('honours a custom tolerance', () => {
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS + 6), toleranceSeconds: 5 }).ok).toBe(false);
    expect(verifySignature(valid, BODY, SECRET, { now: at(TS + 5), toleranceSeconds: 5 }).ok).toBe(true);
  });

  it('uses the real clock by default', () => {
    const fresh = signatureHeader(SECRET, BODY, Date.now() / 1000);
    expect(verifySignature(fresh, BODY, SECRET).ok).toBe(true);
    expect(verifySignature(valid, BODY, SECRET).ok).toBe(false); // TS is far from today
  });

  it('rejects a wrong secret', () => {
    expect(verifySignature(valid, BODY, 'another-secret', { now: at(TS) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects a tampered body, even by one byte', () => {
    const tampered = Buffer.from(BODY);
    tampered[tampered.length - 3] = tampered[tampered.length - 3]! ^ 1;
    expect(verifySignature(valid, tampered, SECRET, { now: at(TS) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('rejects a changed timestamp (ts is part of the signed payload)', () => {
    const h1 = computeSignature(SECRET, String(TS), BODY);
    expect(verifySignature(`ts=${TS + 1};h1=${h1}`, BODY, SECRET, { now: at(TS) })).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('accepts when any one of several h1 values matches (old and new secret)', () => {
    const oldH = computeSignature('old-secret', String(TS), BODY);
    const newH = computeSignature(SECRET, String(TS), BODY);
    expect(verifySignature(`ts=${TS};h1=${oldH};h1=${newH}`, BODY, SECRET, { now: at(TS) }).ok).toBe(true);
    expect(verifySignature(`ts=${TS};h1=${newH};h1=${oldH}`, BODY, SECRET, { now: at(TS) }).ok).toBe(true);
    expect(verifySignature(`ts=${TS};h1=${oldH};h1=${oldH}`, BODY, SECRET, { now: at(TS) }).ok).toBe(false);
  });

  it('rejects a missing header', () => {
    expect(verifySignature(undefined, BODY, SECRET, { now: at(TS) })).toEqual({ ok: false, reason: 'missing_header' });
    expect(verifySignature('', BODY, SECRET, { now: at(TS) })).toEqual({ ok: false, reason: 'missing_header' });
  });

  it('rejects a header sent twice', () => {
    expect(verifySignature([valid, valid], BODY, SECRET, { now: at(TS) })).toEqual({
      ok: false,
      reason: 'malformed_header',
    });
  });

  it('rejects garbled headers without throwing', () => {
    for (const header of ['ts=abc;h1=def', 'h1=' + 'a'.repeat(64), 'nonsense', 'ts=1;h1=' + 'a'.repeat(63)]) {
      expect(verifySignature(header, BODY, SECRET, { now: at(TS) })).toEqual({ ok: false, reason: 'malformed_header' });
    }
  });

  it('rejects an h1 of the right length computed over the body alone (no ts prefix)', () => {
    const bodyOnly = hmac(SECRET, BODY.toString());
    expect(verifySignature(`ts=${TS};h1=${bodyOnly}`, BODY, SECRET, { now: at(TS) }).ok).toBe(false);
  });
});
