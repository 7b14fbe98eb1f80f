import { expect, test } from '../fixtures';

async function supportEmail(page: import('@playwright/test').Page): Promise<string> {
  const config = (await (await page.request.get('/api/config')).json()) as { supportEmail: string };
  return config.supportEmail;
}

const PAGES = [
  {
    path: '/terms-of-service',
    title: 'Terms of Service',
    facts: [
      /at least 18 years old, or the age of majority/,
      /renew automatically/,
      /Subscription credits expire at the end of the period/,
      /non-consensual/,
      /sexual/,
      /minors/,
      /celebrities/,
      /training artificial-intelligence models/,
      /about 30 minutes/,
      /kept for 30 days/,
    ],
  },
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    facts: [
      /never later than about 30 minutes/,
      /Results are kept for 30 days/,
      /Transaction records are kept for 7 years/,
      /18 or over, or the age of majority/,
      /Delete my data/,
      /Unspent credits are forfeited/,
      /kept for 7 years, as tax and accounting law requires, without your personal data/,
      /sign-in emails/,
    ],
  },
  {
    path: '/refund-policy',
    title: 'Refund Policy',
    facts: [
      /within 14 days/,
      /5 to 10 business days/,
      /renew automatically/,
      /Subscription credits expire at the end of their\s+period/,
    ],
  },
];

for (const legal of PAGES) {
  test(`${legal.title} states the facts and the support e-mail`, async ({ page }) => {
    const email = await supportEmail(page);
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: legal.title }).click();
    await expect(page).toHaveURL(new RegExp(`${legal.path}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.title);
    await expect(page).toHaveTitle(new RegExp(legal.title));
    const article = page.locator('article');
    for (const fact of legal.facts) await expect(article).toContainText(fact);
    await expect(article.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    // Layout on every route: navigation, footer support link, user box.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: email })).toHaveAttribute(
      'href',
      `mailto:${email}`,
    );
    await expect(page.getByTestId('user-id')).toHaveText(/^.{8}$/);
  });
}

test('an unknown route gets a not-found page inside the layout', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('user-info-box')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the try-on' }).click();
  await expect(page.getByTestId('step-indicator')).toBeVisible();
});
