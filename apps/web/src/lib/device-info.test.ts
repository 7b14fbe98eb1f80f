import { describe, expect, it } from 'vitest';
import { buildDeviceInfo, deviceTypeForWidth, parseBrowser, parseOs } from './device-info';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIpad:
    'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  edgeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.87',
  chromeCros:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
};

describe('device info parsing', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', 'Windows'],
    [UA.edgeWindows, 'Edge', 'Windows'],
    [UA.firefoxLinux, 'Firefox', 'Linux'],
    [UA.safariMac, 'Safari', 'MacOS'],
    [UA.safariIphone, 'Safari', 'iOS'],
    [UA.chromeIphone, 'Chrome', 'iOS'],
    [UA.firefoxIpad, 'Firefox', 'iOS'],
    [UA.chromeAndroid, 'Chrome', 'Android'],
    [UA.edgeAndroid, 'Edge', 'Android'],
    [UA.chromeCros, 'Chrome', 'Linux'],
    [UA.headlessChrome, 'Chrome', 'Linux'],
    [UA.curl, 'Unknown', 'Unknown'],
  ])('%s → %s on %s', (ua, browser, os) => {
    expect(parseBrowser(ua)).toBe(browser);
    expect(parseOs(ua)).toBe(os);
  });

  it('splits device types at 768 and 1024 px', () => {
    expect(deviceTypeForWidth(360)).toBe('mobile');
    expect(deviceTypeForWidth(767)).toBe('mobile');
    expect(deviceTypeForWidth(768)).toBe('tablet');
    expect(deviceTypeForWidth(1023)).toBe('tablet');
    expect(deviceTypeForWidth(1024)).toBe('desktop');
    expect(deviceTypeForWidth(1920)).toBe('desktop');
  });

  it('builds the sign-in device info with a WxH resolution and country null', () => {
    expect(
      buildDeviceInfo({
        userAgent: UA.safariIphone,
        screenWidth: 390,
        screenHeight: 844,
        viewportWidth: 390,
        timezone: 'Europe/Paris',
        language: 'fr-FR',
      }),
    ).toEqual({
      browser: 'Safari',
      os: 'iOS',
      screen_resolution: '390x844',
      timezone: 'Europe/Paris',
      language: 'fr-FR',
      device_type: 'mobile',
      country: null,
    });
  });
});
