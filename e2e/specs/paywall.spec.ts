import { MESSAGES } from '@aidressup/contract';
import { expect, openSignedIn, test } from '../fixtures';

test('the paywall shows the upgrade header, four plans, selection, trust badges, and traps focus', async ({ page }) => {
  await openSignedIn(page);
  const opener = page.getByTestId('test-paywall');
  await opener.click();
  const paywall = page.getByTestId('paywall');
  await expect(paywall).toBeVisible();
  await expect(paywall.getByRole('heading', { level: 2 })).toHaveText(MESSAGES.paywallUpgrade);

  const config = (await (await page.request.get('/api/config')).json()) as {
    plans: { id: string; name: string; price: string; credits: number; badge: string | null }[];
  };
  expect(config.plans).toHaveLength(4);
  for (const plan of config.plans) {
    const card = page.getByTestId(`plan-${plan.id}`);
    await expect(card).toContainText(plan.name);
    await expect(card).toContainText(plan.price);
    await expect(card).toContainText(`${plan.credits} credits`);
    if (plan.badge) await expect(card).toContainText(plan.badge);
  }
  await expect(page.getByTestId('plan-monthly')).toContainText('Most Popular');
  await expect(page.getByTestId('plan-monthly')).toHaveAttribute('data-selected', 'true');
  await expect(paywall.getByRole('radio', { name: 'Monthly Pro' })).toBeChecked();

  // Clicking a card selects it.
  await page.getByTestId('plan-weekly').click();
  await expect(page.getByTestId('plan-weekly')).toHaveAttribute('data-selected', 'true');
  await expect(page.getByTestId('plan-monthly')).toHaveAttribute('data-selected', 'false');
  await expect(paywall).toContainText('Selected: Weekly Pass');
  // Arrow keys move the selection within the radio group.
  await paywall.getByRole('radio', { name: 'Weekly Pass' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(paywall.getByRole('radio', { name: 'Monthly Pro' })).toBeChecked();

  // Demo billing over plain http: only the badges that are true here (shopper-page.spec.ts has the rest).
  await expect(paywall.getByTestId('trust-badges').getByRole('listitem')).toHaveText([
    'Demo — no charge',
    'Instant Activation',
  ]);

  // Focus stays inside the modal.
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    expect(await paywall.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await paywall.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }

  // A card's own button starts checkout for that plan (demo billing here).
  await page.getByTestId('plan-yearly').getByRole('button', { name: 'Choose Yearly VIP' }).click();
  await expect(page.getByTestId('demo-checkout')).toContainText('Yearly VIP');
  await page.getByRole('button', { name: 'Back to plans' }).click();
  await expect(page.getByTestId('plan-yearly')).toHaveAttribute('data-selected', 'true');

  // Escape closes it and focus returns to the opener.
  await page.keyboard.press('Escape');
  await expect(paywall).toHaveCount(0);
  await expect(opener).toBeFocused();
});
