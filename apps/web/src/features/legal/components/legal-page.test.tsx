import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANS, type PublicPlan } from '@aidressup/contract';
import { activateLocale } from '../../../i18n/i18n';
import en from '@aidressup/contract/catalogs/legal/en/legal.json';
import { LegalPage } from './legal-page';
import { PrivacyContent } from './privacy-content';
import { RefundContent } from './refund-content';
import { TermsContent } from './terms-content';

const EMAIL = 'help@example.com';
const plans = PLANS.map((p) => ({ ...p, paddlePriceId: null })) as PublicPlan[];

async function show(page: ReactNode) {
  await act(async () => {
    render(
      <MemoryRouter>
        <Suspense fallback={<p>loading</p>}>{page}</Suspense>
      </MemoryRouter>,
    );
  });
}

const terms = (
  <LegalPage doc="terms">
    <TermsContent supportEmail={EMAIL} plans={plans} />
  </LegalPage>
);

afterEach(async () => {
  cleanup();
  await act(() => activateLocale('en'));
});

describe('legal pages', () => {
  it('render in English with no translation note', async () => {
    await show(terms);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Terms of Service');
    expect(screen.getByText('Last updated: 23 November 2026')).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('link', { name: EMAIL }).getAttribute('href')).toBe(`mailto:${EMAIL}`);
    expect(screen.getByText(/valid for 7 days/).textContent).toBe(
      'Weekly Pass: $5.99 per week, renews automatically, 20 credits valid for 7 days.',
    );
  });

  it('name the plans as the contract does, in English', () => {
    for (const p of PLANS) expect(en[`legal.terms.s4.planName.${p.id}`]).toBe(p.name);
  });

  it('render in Spanish with the note, and show the English text on request', async () => {
    await act(() => activateLocale('es'));
    await show(terms);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Términos del servicio');
    expect(screen.getByText('Última actualización: 23 de noviembre de 2026')).toBeTruthy();
    expect(screen.getByText(/200 créditos que nunca caducan/).textContent).toMatch(
      /^200 créditos: 39,99\sUS\$ en un único pago, 200 créditos que nunca caducan\.$/,
    );
    expect(screen.getByRole('note').textContent).toContain('La versión en inglés es la única vinculante');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Ver la versión en inglés' })));
    const h1 = await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    expect(h1.closest('[lang="en"]')).toBeTruthy();
    expect(screen.getByText('Last updated: 23 November 2026')).toBeTruthy();
    // The note and its button stay in Spanish.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Volver a la traducción' })));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Términos del servicio');
  });

  it('follow a language switch, with Arabic plurals and the address kept left to right', async () => {
    await show(
      <LegalPage doc="refund">
        <RefundContent supportEmail={EMAIL} />
      </LegalPage>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Refund Policy');
    await act(() => activateLocale('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('سياسة الاسترداد');
    expect(screen.getByText(/يمكنك طلب استرداد المبلغ خلال 14 يومًا/)).toBeTruthy();
    expect(screen.getByRole('link', { name: EMAIL }).getAttribute('dir')).toBe('ltr');
  });

  it('say "our support address" in the page language while the address is unknown', async () => {
    await act(() => activateLocale('de'));
    await show(
      <LegalPage doc="privacy">
        <PrivacyContent supportEmail={null} />
      </LegalPage>,
    );
    expect(document.body.textContent).toContain(
      'Schreib an unsere Support-Adresse (in der Fußzeile angegeben) von der',
    );
    expect(
      screen.getByText(/7 Jahre lang aufbewahrt, wie es das Steuer- und Handelsrecht vorschreibt\.$/),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: /@/ })).toBeNull();
  });
});
