/** How a schema failure becomes one of the contract's error codes (the route's `invalidInput` rule). */
import { describe, expect, it } from 'vitest';
import type { FastifySchemaValidationError } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AnonymousSignInRequestSchema, DemoCheckoutRequestSchema, EmailVerifyRequestSchema } from '@aidressup/contract';
import type { z } from 'zod';
import { invalidInputCode, type InvalidInput } from './error-handler.js';

/** The validation errors the type provider gives Fastify for `data`. */
function failures(schema: z.ZodType, data: unknown): FastifySchemaValidationError[] {
  const validate = validatorCompiler({ schema, method: 'POST', url: '/x', httpPart: 'body' });
  const result = validate(data) as { error?: FastifySchemaValidationError[] };
  if (!result.error) throw new Error(`expected ${JSON.stringify(data)} to fail`);
  return result.error;
}

const ANONYMOUS: InvalidInput = { fields: { '': 'INVALID_DEVICE_ID', deviceId: 'INVALID_DEVICE_ID' } };
const VERIFY: InvalidInput = { fields: { '': 'INVALID_EMAIL', email: 'INVALID_EMAIL' }, otherwise: 'INVALID_CODE' };

describe('invalidInputCode', () => {
  it('is VALIDATION_ERROR without a rule', () => {
    expect(invalidInputCode(failures(DemoCheckoutRequestSchema, {}), undefined)).toBe('VALIDATION_ERROR');
  });

  it('uses `otherwise` for any failure', () => {
    expect(
      invalidInputCode(failures(DemoCheckoutRequestSchema, { planId: 'lifetime' }), { otherwise: 'INVALID_PLAN' }),
    ).toBe('INVALID_PLAN');
    expect(invalidInputCode(failures(DemoCheckoutRequestSchema, null), { otherwise: 'INVALID_PLAN' })).toBe(
      'INVALID_PLAN',
    );
  });

  it('names the code of the failing field, and of the input as a whole', () => {
    expect(invalidInputCode(failures(AnonymousSignInRequestSchema, { deviceId: 'short' }), ANONYMOUS)).toBe(
      'INVALID_DEVICE_ID',
    );
    expect(invalidInputCode(failures(AnonymousSignInRequestSchema, {}), ANONYMOUS)).toBe('INVALID_DEVICE_ID');
    expect(invalidInputCode(failures(AnonymousSignInRequestSchema, undefined), ANONYMOUS)).toBe('INVALID_DEVICE_ID');
    expect(invalidInputCode(failures(AnonymousSignInRequestSchema, [1, 2]), ANONYMOUS)).toBe('INVALID_DEVICE_ID');
    // A good device id with device info that is not an object: a plain validation error.
    expect(
      invalidInputCode(failures(AnonymousSignInRequestSchema, { deviceId: 'device-0001', deviceInfo: 'x' }), ANONYMOUS),
    ).toBe('VALIDATION_ERROR');
    // Both wrong: the first field of the rule wins.
    expect(invalidInputCode(failures(AnonymousSignInRequestSchema, { deviceId: 7, deviceInfo: 'x' }), ANONYMOUS)).toBe(
      'INVALID_DEVICE_ID',
    );
  });

  it('looks inside every option of a union (code or token)', () => {
    expect(invalidInputCode(failures(EmailVerifyRequestSchema, {}), VERIFY)).toBe('INVALID_EMAIL');
    expect(invalidInputCode(failures(EmailVerifyRequestSchema, null), VERIFY)).toBe('INVALID_EMAIL');
    expect(
      invalidInputCode(failures(EmailVerifyRequestSchema, { email: 'not-an-address', code: '123456' }), VERIFY),
    ).toBe('INVALID_EMAIL');
    expect(invalidInputCode(failures(EmailVerifyRequestSchema, { email: 'a@example.com' }), VERIFY)).toBe(
      'INVALID_CODE',
    );
    expect(invalidInputCode(failures(EmailVerifyRequestSchema, { email: 'a@example.com', code: '12' }), VERIFY)).toBe(
      'INVALID_CODE',
    );
    expect(
      invalidInputCode(failures(EmailVerifyRequestSchema, { email: 'a@example.com', token: 'short' }), VERIFY),
    ).toBe('INVALID_CODE');
  });
});
