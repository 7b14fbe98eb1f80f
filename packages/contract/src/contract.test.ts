import { describe, expect, it } from 'vitest';
import {
  AnonymousSignInRequestSchema,
  CATEGORIES,
  DEVICE_ID_PATTERN,
  ERROR_MESSAGES,
  ERROR_STATUS,
  FASHN_DEFAULT_MODE,
  FASHN_INPUT,
  GEMINI_DEFAULT_MODEL,
  GEMINI_INPUT,
  HOSTED_ENGINE_MESSAGES,
  MESSAGES,
  PLANS,
  hasCredits,
  hasFreeTrial,
  pressCost,
  WEB_MESSAGES,
} from './index.js';

describe('contract', () => {
  it('has the spec categories with labels and descriptions', () => {
    expect(CATEGORIES.map((c) => [c.value, c.label, c.description])).toEqual([
      ['upper_body', 'Upper Body', 'T-shirts, Shirts, Jackets'],
      ['lower_body', 'Lower Body', 'Pants, Jeans, Shorts'],
      ['dresses', 'Full Outfit', 'Dresses, Suits, Outfits'],
    ]);
  });

  it('has the four plans', () => {
    expect(PLANS.map((p) => [p.id, p.name, p.priceValue, p.credits, p.period, p.badge, p.popular])).toEqual([
      ['weekly', 'Weekly Pass', 5.99, 20, 'week', null, false],
      ['monthly', 'Monthly Pro', 9.99, 50, 'month', 'Most Popular', true],
      ['yearly', 'Yearly VIP', 19.99, 100, 'year', 'Best Value', false],
      ['credits_200', '200 Credits', 39.99, 200, 'one-time', null, false],
    ]);
    expect(PLANS.every((p) => p.currency === 'USD' && p.price === `$${p.priceValue.toFixed(2)}`)).toBe(true);
  });

  it('keeps the spec messages word for word', () => {
    expect(MESSAGES.unsupportedFormat).toBe('Unsupported format. Use JPG, PNG or WEBP.');
    expect(MESSAGES.fileTooLarge).toBe('File too large. Maximum 10MB allowed.');
    expect(MESSAGES.noCredits).toBe('No free trials or credits remaining. Please purchase credits to continue');
    expect(ERROR_STATUS.NO_CREDITS).toBe(402);
    // Try with AI with a photo missing: the specification's words first, then which photo.
    expect(MESSAGES.uploadBothPhotos).toBe('Please upload both photos!');
    for (const m of [
      WEB_MESSAGES.uploadPersonMissing,
      WEB_MESSAGES.uploadClothingMissing,
      WEB_MESSAGES.uploadBothMissing,
    ])
      expect(m.startsWith(`${MESSAGES.uploadBothPhotos} `)).toBe(true);
  });

  it('says, when the garment could not be placed, that nothing was charged and what photo works, promising no engine', () => {
    expect(ERROR_MESSAGES.GARMENT_NOT_PLACED).toBe(MESSAGES.garmentNotPlaced);
    expect(ERROR_STATUS.GARMENT_NOT_PLACED).toBe(422);
    expect(MESSAGES.garmentNotPlaced).toContain('You have not been charged.');
    expect(MESSAGES.garmentNotPlaced).toContain('full-length photo of one person');
    // Another engine is offered by the page only when one is up (a button), never by the message.
    expect(MESSAGES.garmentNotPlaced).not.toMatch(/engine/i);
  });

  it('has hosted-engine messages that all say the shopper was not charged, and current engine defaults', () => {
    for (const m of Object.values(HOSTED_ENGINE_MESSAGES)) expect(m).toContain('You have not been charged');
    expect(GEMINI_DEFAULT_MODEL).toBe('gemini-3.1-flash-image');
    expect(FASHN_DEFAULT_MODE).toBe('balanced');
    expect(GEMINI_INPUT).toEqual({ minSide: 1024, maxSide: 1024, jpegQuality: 90 });
    expect(FASHN_INPUT).toEqual({ minSide: 1024, maxSide: 2000, jpegQuality: 95 });
  });

  it('validates device ids and turns unknown device info values into Unknown', () => {
    expect(DEVICE_ID_PATTERN.test('abc')).toBe(false);
    expect(DEVICE_ID_PATTERN.test('abcdefgh')).toBe(true);
    expect(DEVICE_ID_PATTERN.test('abcdefg h')).toBe(false);
    const parsed = AnonymousSignInRequestSchema.parse({
      deviceId: 'device_123456',
      deviceInfo: {
        browser: 'Netscape',
        os: 'iOS',
        screen_resolution: '390x844',
        device_type: 'mobile',
        country: null,
      },
    });
    expect(parsed.deviceInfo.browser).toBe('Unknown');
    expect(parsed.deviceInfo.os).toBe('iOS');
  });

  it('derives the flags', () => {
    expect(hasFreeTrial({ free_trials_used: 1, free_trials_limit: 2 })).toBe(true);
    expect(hasFreeTrial({ free_trials_used: 2, free_trials_limit: 2 })).toBe(false);
    expect(hasCredits({ credits: 0 })).toBe(false);
    expect(hasCredits({ credits: 3 })).toBe(true);
  });

  it('says what a press of several try-ons costs: free trials first, then credits, and whether it is covered', () => {
    const u = (free_trials_used: number, credits: number) => ({ free_trials_used, free_trials_limit: 2, credits });
    expect(pressCost(u(0, 0), 4)).toEqual({ trials: 2, credits: 2, covered: false });
    expect(pressCost(u(1, 3), 4)).toEqual({ trials: 1, credits: 3, covered: true });
    expect(pressCost(u(2, 4), 4)).toEqual({ trials: 0, credits: 4, covered: true });
    expect(pressCost(u(2, 3), 4)).toEqual({ trials: 0, credits: 4, covered: false });
    expect(pressCost(u(0, 0), 2)).toEqual({ trials: 2, credits: 0, covered: true });
    // More trials used than the limit (a lowered limit): none left, never a negative count.
    expect(pressCost({ free_trials_used: 5, free_trials_limit: 2, credits: 1 }, 1)).toEqual({
      trials: 0,
      credits: 1,
      covered: true,
    });
  });
});
