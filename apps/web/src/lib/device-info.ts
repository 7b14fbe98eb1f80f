import {
  MOBILE_MAX_WIDTH,
  TABLET_MAX_WIDTH,
  type Browser,
  type DeviceInfo,
  type DeviceType,
  type OperatingSystem,
} from '@aidressup/contract';

/** Browser family from a user agent: Chrome, Firefox, Safari, Edge or Unknown. */
export function parseBrowser(userAgent: string): Browser {
  const ua = userAgent;
  if (/\bEdg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\b(Firefox|FxiOS)\//.test(ua)) return 'Firefox';
  if (/(HeadlessChrome|\bChrome|\bCriOS|\bChromium)\//.test(ua)) return 'Chrome';
  if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) return 'Safari';
  return 'Unknown';
}

/** Operating system from a user agent: Windows, MacOS, Linux, Android, iOS or Unknown. */
export function parseOs(userAgent: string): OperatingSystem {
  const ua = userAgent;
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return 'iOS';
  if (/\bAndroid\b/.test(ua)) return 'Android';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  if (/\b(Macintosh|Mac OS X)\b/.test(ua)) return 'MacOS';
  if (/\b(Linux|X11|CrOS)\b/.test(ua)) return 'Linux';
  return 'Unknown';
}

/** mobile under 768 px, tablet under 1024 px, otherwise desktop. */
export function deviceTypeForWidth(width: number): DeviceType {
  if (width < MOBILE_MAX_WIDTH) return 'mobile';
  if (width < TABLET_MAX_WIDTH) return 'tablet';
  return 'desktop';
}

export interface BrowserEnvironment {
  userAgent: string;
  screenWidth: number;
  screenHeight: number;
  viewportWidth: number;
  timezone: string | null;
  language: string | null;
}

export function buildDeviceInfo(env: BrowserEnvironment): DeviceInfo {
  return {
    browser: parseBrowser(env.userAgent),
    os: parseOs(env.userAgent),
    screen_resolution: `${Math.round(env.screenWidth)}x${Math.round(env.screenHeight)}`,
    timezone: env.timezone,
    language: env.language,
    device_type: deviceTypeForWidth(env.viewportWidth),
    country: null,
  };
}

/** Device info of this browser, sent at sign-in. */
export function collectDeviceInfo(): DeviceInfo {
  let timezone: string | null = null;
  try {
    timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    timezone = null;
  }
  return buildDeviceInfo({
    userAgent: navigator.userAgent,
    screenWidth: window.screen?.width ?? window.innerWidth,
    screenHeight: window.screen?.height ?? window.innerHeight,
    viewportWidth: window.innerWidth,
    timezone,
    language: navigator.language || null,
  });
}
