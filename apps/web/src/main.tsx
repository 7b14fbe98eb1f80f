import './index.css';
import { listenForFirstInteraction } from './features/session/utils/fingerprint-due';

// An interaction before the app has started makes fingerprinting due as soon as the session starts.
listenForFirstInteraction();

/** The longest the app waits for the first paint before starting anyway. */
const FIRST_PAINT_WAIT_MS = 500;

/**
 * The entry is small on purpose: index.html already holds the first paint (a static copy of the
 * nav bar and hero text, see first-paint.spec.ts), and the app's script must not hold it back.
 * When the script is at hand before the browser has painted (a fast connection, a cached script),
 * running 140 KB of JavaScript first would delay that paint, so the app starts once the browser
 * reports its first contentful paint. Without a static copy to paint (the server leaves it out for
 * languages other than English), in a hidden tab, or without paint timing, it starts at once.
 */
function afterFirstPaint(): Promise<void> {
  const shell = document.querySelector('[data-prerender-shell]');
  const supported =
    typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint');
  if (!shell?.firstElementChild || document.visibilityState === 'hidden' || !supported) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    observer.observe({ type: 'paint', buffered: true });
    const timer = setTimeout(done, FIRST_PAINT_WAIT_MS);
  });
}

void afterFirstPaint()
  .then(() => {
    performance.mark('aidressup:app-start');
    return import('./boot');
  })
  .then(({ boot }) => boot());
