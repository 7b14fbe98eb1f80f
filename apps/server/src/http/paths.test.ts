/**
 * The one place that decides which path a request is for: every spelling the router takes for an
 * API route is an API request to the cross-site check, the session and the rate limit, and only
 * the canonical spelling passes `isCanonicalApiTarget`.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { refuseCrossSite } from '../plugins/cross-site.js';
import { isApiRequest, isCanonicalApiTarget, normalisedPath } from './paths.js';

const request = (url: string, route?: string) => ({ url, routeOptions: { url: route, config: {} } }) as never;

describe('normalisedPath', () => {
  it.each([
    ['/api/auth/logout', '/api/auth/logout'],
    ['/%61pi/auth/logout', '/api/auth/logout'],
    ['/%2561pi/auth/logout', '/api/auth/logout'],
    ['/%2Fapi/auth/logout', '/api/auth/logout'],
    ['//api//auth/logout/', '/api/auth/logout'],
    ['/./api/./auth/logout', '/api/auth/logout'],
    ['/x/../api/auth/x/%2e%2e/logout', '/api/auth/logout'],
    ['/API/Auth/LOGOUT', '/api/auth/logout'],
    ['/api;x=1/auth/logout;y', '/api/auth/logout'],
    ['/api\\auth%5Clogout', '/api/auth/logout'],
    ['http://evil.example/api/auth/logout?x=1#y', '/api/auth/logout'],
    ['/api/auth/logout%ZZ', '/api/auth/logout%zz'],
    // An overlong UTF-8 slash is no slash: byte by byte, it is two letters.
    ['/%C0%AFapi', '/\u00e0\u00afapi'],
    ['/', '/'],
    ['/../..', '/'],
  ])('%s → %s', (target, expected) => {
    expect(normalisedPath(target)).toBe(expected);
  });
});

describe('isApiRequest', () => {
  it('asks the route that matched, then the normalised path, never the raw URL alone', () => {
    expect(isApiRequest(request('/%61pi/auth/logout', '/api/auth/logout'))).toBe(true);
    expect(isApiRequest(request('/%61pi/auth/logout'))).toBe(true);
    expect(isApiRequest(request('http://evil.example/api/account'))).toBe(true);
    expect(isApiRequest(request('/API/unknown'))).toBe(true);
    expect(isApiRequest(request('/api'))).toBe(true);
    expect(isApiRequest(request('/gallery', '/'))).toBe(false);
    expect(isApiRequest(request('/apiary'))).toBe(false);
    expect(isApiRequest(request('/s/token123', '/s/:token'))).toBe(false);
  });
});

describe('isCanonicalApiTarget', () => {
  it.each([
    '/api/auth/logout',
    '/api/tryons/abc_DEF-123/share',
    '/api/results/x1.y2.jpg',
    '/api/admin/users?query=%61',
  ])('takes %s', (target) => expect(isCanonicalApiTarget(target)).toBe(true));
  it.each([
    '/%61pi/auth/logout',
    '/api/auth/%6Cogout',
    '//api/auth/logout',
    '/api//auth/logout',
    '/api/./auth/logout',
    '/api/auth/../auth/logout',
    '/api/auth/logout/',
    '/api/auth/logout;x',
    '/api\\auth/logout',
    '/api/auth/logout%00',
    'http://evil.example/api/auth/logout',
    '/api',
    '/api/.',
    '/api/..?x',
  ])('refuses %s', (target) => expect(isCanonicalApiTarget(target)).toBe(false));
});

describe('the cross-site check keys on the route, not the raw URL', () => {
  const check = refuseCrossSite(loadConfig({ NODE_ENV: 'test', DATA_DIR: '/nonexistent' }));
  const post = (url: string, route: string | undefined) =>
    ({
      method: 'POST',
      url,
      routeOptions: { url: route, config: {} },
      headers: { origin: 'https://evil.example', host: 'localhost' },
    }) as never;

  it.each([
    ['/%61pi/auth/logout', '/api/auth/logout'],
    ['http://evil.example/api/auth/logout', '/api/auth/logout'],
    ['/%61pi/nothing-here', undefined],
  ])('refuses POST %s from another site', async (url, route) => {
    await expect(check.call({} as never, post(url, route), {} as never)).rejects.toMatchObject({
      code: 'CROSS_SITE_REQUEST',
    });
  });
});
