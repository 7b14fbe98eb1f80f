import { describe, expect, it } from 'vitest';
import { emailFromFragment, parseMagicLinkFragment } from './magic-link';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz_-012345';

describe('magic-link fragment', () => {
  it('reads a URL-encoded email and the token, with or without the leading #', () => {
    expect(parseMagicLinkFragment(`#email=${encodeURIComponent('Ana.Smith+shop@Example.com')}&token=${TOKEN}`)).toEqual(
      {
        email: 'ana.smith+shop@example.com',
        token: TOKEN,
      },
    );
    expect(parseMagicLinkFragment(`token=${TOKEN}&email=a%40b.co`)).toEqual({ email: 'a@b.co', token: TOKEN });
  });

  it.each([
    ['', 'empty'],
    ['#', 'just the hash'],
    [`#token=${TOKEN}`, 'no email'],
    ['#email=a%40b.co', 'no token'],
    [`#email=not-an-email&token=${TOKEN}`, 'malformed email'],
    ['#email=a%40b.co&token=short', 'short token'],
    [`#email=a%40b.co&token=${TOKEN}%3Cscript%3E`, 'token with other characters'],
  ])('returns null for %s (%s)', (hash) => {
    expect(parseMagicLinkFragment(hash)).toBeNull();
  });

  it('still finds the email of a link whose token is unusable', () => {
    expect(emailFromFragment('#email=a%40b.co&token=x')).toBe('a@b.co');
    expect(emailFromFragment('#token=x')).toBeNull();
  });
});
