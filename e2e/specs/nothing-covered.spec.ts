/**
 * The account box (and anything else floating) never covers a button or a link: scrolling through
 * the home page, every visible button and link is the topmost element at its centre.
 */
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test, tryOnce, uploadBoth } from '../fixtures';

interface Covered {
  scrollY: number;
  control: string;
  coveredBy: string;
}

/** Controls whose centre is in view (below the sticky top bar) but hidden under another element. */
async function coveredControls(page: Page): Promise<{ covered: Covered[]; checked: number }> {
  return page.evaluate(() => {
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}[${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}]` +
      (el.closest('[data-testid="user-info-box"]') ? ' (in the account box)' : '');
    const topBar = document.querySelector('[data-testid="user-info-box"]')!.parentElement!;
    const topBarBottom = topBar.getBoundingClientRect().bottom;
    const covered: Covered[] = [];
    let checked = 0;
    for (const el of Array.from(document.querySelectorAll('a[href], button, [role="button"], input[type="range"]'))) {
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue; // hidden or visually hidden (skip link)
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      // Not in view. A centre within a pixel of the edge is not either: the browser rounds the point
      // (899.9 of 900 px hits nothing).
      if (x < 0 || x > window.innerWidth - 1 || y < 0 || y > window.innerHeight - 1) continue;
      const inTopBar = topBar.contains(el);
      if (!inTopBar && y < topBarBottom) continue; // scrolled under the top bar, out of sight
      checked++;
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) continue;
      covered.push({
        scrollY: Math.round(window.scrollY),
        control: describe(el),
        coveredBy: hit ? describe(hit) : 'nothing',
      });
    }
    return { covered, checked };
  });
}

async function scrollThrough(page: Page): Promise<{ covered: Covered[]; checked: number }> {
  const all: Covered[] = [];
  let checked = 0;
  const { height, viewport } = await page.evaluate(() => ({
    height: document.documentElement.scrollHeight,
    viewport: window.innerHeight,
  }));
  for (let y = 0; ; y += Math.round(viewport / 3)) {
    await page.evaluate(async (top) => {
      window.scrollTo({ top, behavior: 'instant' });
      // Two frames: the page has run its scroll handlers, laid out and painted at the new position.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, y);
    const found = await coveredControls(page);
    all.push(...found.covered);
    checked += found.checked;
    if (y >= height - viewport) break;
  }
  return { covered: all, checked };
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('nothing covers a button or link on the idle home page, at any scroll position', async ({ page }) => {
      await openSignedIn(page);
      const { covered, checked } = await scrollThrough(page);
      expect(checked).toBeGreaterThan(10);
      expect(covered).toEqual([]);
    });

    test('nothing covers a button or link with a result shown (Download, Try Again, the footer)', async ({ page }) => {
      await openSignedIn(page);
      await uploadBoth(page);
      await tryOnce(page);
      const { covered } = await scrollThrough(page);
      expect(covered).toEqual([]);
      // The result's buttons and the footer's links are each checked somewhere on the way.
      for (const name of ['Download', 'Try Again', 'Terms of Service', 'Refund Policy']) {
        const control = page.getByRole(name === 'Try Again' ? 'button' : 'link', { name, exact: true }).first();
        await control.scrollIntoViewIfNeeded();
        const box = (await control.boundingBox())!;
        const onTop = await control.evaluate(
          (el, p) => {
            const hit = document.elementFromPoint(p.x, p.y);
            return !!hit && (hit === el || el.contains(hit));
          },
          { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        );
        expect(onTop, `${name} is on top`).toBe(true);
      }
    });
  });
}
