/**
 * No clipped or spilling words: the home page with a result, the paywall, the gallery and the
 * account page, in every language, at 320, 390, 768, 1024 and 1366 px. A text is clipped when its
 * box hides what overflows it (overflow other than visible, and its content wider or taller than
 * the box) without saying so (no ellipsis, no line clamp); it spills when a button's or a link's
 * visible text runs past the button's edges; and the page must not scroll sideways.
 */
import type { Page } from '@playwright/test';
import { expect, openSignedIn, test, tryOnce, uploadBoth } from '../fixtures';

const WIDTHS = [320, 390, 768, 1024, 1366] as const;
const LOCALES = ['en-US', 'es-ES', 'fr-FR', 'de-DE', 'pt-BR', 'ar'] as const;

interface Finding {
  what: string;
  text: string;
  problem: string;
}

/** What is clipped or spills on the page as it is now (empty when every word shows). */
function findOverflow(page: Page, scope: string): Promise<Finding[]> {
  return page.evaluate((scopeSelector) => {
    const out: { what: string; text: string; problem: string }[] = [];
    const root = document.querySelector(scopeSelector) ?? document.body;
    const visibleText = (el: Element) =>
      [...el.childNodes]
        .map((n) => (n instanceof HTMLElement && n.classList.contains('sr-only') ? '' : (n.textContent ?? '')))
        .join('')
        .trim()
        .slice(0, 60);
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}`;
    for (const el of root.querySelectorAll<HTMLElement>(
      'button, a, h1, h2, h3, h4, label, p, li, dt, dd, th, td, span, figcaption',
    )) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || el.closest('.sr-only')) continue;
      if (!visibleText(el)) continue;
      // Deliberately cut: an ellipsis or a line clamp says so.
      const marked = style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none';
      const hides = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      if (hides && !marked && style.overflowX !== 'auto' && style.overflowY !== 'auto') {
        if (el.scrollWidth > el.clientWidth + 1)
          out.push({
            what: describe(el),
            text: visibleText(el),
            problem: `${el.scrollWidth} px wide in ${el.clientWidth}`,
          });
        else if (el.scrollHeight > el.clientHeight + 1)
          out.push({
            what: describe(el),
            text: visibleText(el),
            problem: `${el.scrollHeight} px tall in ${el.clientHeight}`,
          });
      }
      // Cut by a frame around it (a picture's rounded box hides what runs past it); a scroller is
      // no frame (what runs past it is scrolled to).
      if (!marked) {
        for (let frame = el.parentElement; frame && frame !== document.body; frame = frame.parentElement) {
          const fs = getComputedStyle(frame);
          const values = [fs.overflowX, fs.overflowY];
          if (values.some((v) => v === 'auto' || v === 'scroll')) break;
          if (values.every((v) => v === 'visible')) continue;
          const f = frame.getBoundingClientRect();
          if (box.left < f.left - 1 || box.right > f.right + 1)
            out.push({
              what: describe(el),
              text: visibleText(el),
              problem: `runs past its frame (${describe(frame)})`,
            });
          break;
        }
      }
      if ((el.tagName === 'BUTTON' || el.getAttribute('role') === 'button') && !marked) {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim() || node.parentElement?.closest('.sr-only')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) {
            if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) {
              out.push({
                what: describe(el),
                text: node.textContent.trim().slice(0, 60),
                problem: 'runs past the button',
              });
              break;
            }
          }
        }
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1)
      out.push({
        what: 'page',
        text: '',
        problem: `scrolls sideways: ${document.documentElement.scrollWidth} px in ${window.innerWidth}`,
      });
    return out;
  }, scope);
}

/** Every width, the page laid out again at each; answers nothing, fails on what it finds. */
async function expectNoOverflow(page: Page, where: string, scope = 'body'): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await findOverflow(page, scope), `${where} at ${width} px`).toEqual([]);
  }
}

for (const locale of LOCALES) {
  test.describe(`in ${locale}`, () => {
    test.use({ locale });

    test('the home page with a result, the paywall, the gallery and the account page show every word', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await openSignedIn(page);
      await uploadBoth(page);
      await tryOnce(page);
      await expectNoOverflow(page, 'home with a result');

      await page.getByTestId('test-paywall').click();
      await expect(page.getByTestId('paywall')).toBeVisible();
      await expectNoOverflow(page, 'paywall', '[data-testid="paywall"]');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('paywall')).toHaveCount(0);

      await page.goto('/gallery');
      await expect(page.getByTestId('result-download').first()).toBeVisible();
      await expectNoOverflow(page, 'gallery');

      await page.goto('/account');
      await expect(page.getByTestId('purchase-history-empty')).toBeVisible();
      await expectNoOverflow(page, 'account');
    });
  });
}
