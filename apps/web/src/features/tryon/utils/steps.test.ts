import { describe, expect, it } from 'vitest';
import { canTryOn, currentStep } from './steps';

const base = { hasPerson: false, hasClothing: false, processing: false, hasResult: false };

describe('step indicator rules', () => {
  it('is step 1 without a person photo, even with a clothing photo', () => {
    expect(currentStep(base)).toBe(1);
    expect(currentStep({ ...base, hasClothing: true })).toBe(1);
  });
  it('is step 2 with a person photo but no clothing photo', () => {
    expect(currentStep({ ...base, hasPerson: true })).toBe(2);
  });
  it('is step 3 with both photos and while processing', () => {
    expect(currentStep({ ...base, hasPerson: true, hasClothing: true })).toBe(3);
    expect(currentStep({ ...base, hasPerson: true, hasClothing: true, processing: true })).toBe(3);
  });
  it('is step 4 with a result', () => {
    expect(currentStep({ ...base, hasPerson: true, hasClothing: true, hasResult: true })).toBe(4);
  });
});

describe('Try with AI button', () => {
  it('is enabled only with both photos and nothing processing', () => {
    expect(canTryOn({ hasPerson: true, hasClothing: true, processing: false })).toBe(true);
    expect(canTryOn({ hasPerson: true, hasClothing: false, processing: false })).toBe(false);
    expect(canTryOn({ hasPerson: false, hasClothing: true, processing: false })).toBe(false);
    expect(canTryOn({ hasPerson: true, hasClothing: true, processing: true })).toBe(false);
  });
});
