import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AdminMerchantDetailResponse, Merchant } from '@aidressup/contract';
import { merchant, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { renderAt, runAction, tableRows } from '../test/render-page';
import { formatDateTime } from '../utils/format';
import { MerchantPage } from './merchant-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NEW_SECRET = 'sk_dddddddddddddddddddddddd';
const NEW_PUBLISHABLE = 'pk_eeeeeeeeeeeeeeeeeeeeeeee';

function detail(over: Partial<Omit<AdminMerchantDetailResponse, 'success'>> = {}) {
  return { merchant: merchant(), usage: [], sessions: [], refusedProductPhotos: [], ...over };
}

/** A merchant's page, GET answering `shown` and every action answering through `action`. */
async function openPage(shown = detail(), action: (req: Sent) => Response = () => ok({ merchant: merchant() })) {
  const sent = stubApi((req) => (req.method === 'GET' ? ok(shown) : action(req)));
  renderAt('/admin/merchants/m1', '/admin/merchants/:id', <MerchantPage />);
  await screen.findByTestId('merchant-title');
  return sent;
}

describe('a merchant’s page', () => {
  it('shows the credits, caps, keys and origins, and the empty tables', async () => {
    const sent = await openPage(
      detail({
        merchant: merchant({
          allowedOrigins: ['https://shop.example', 'https://www.shop.example'],
          keysRotatedAt: '2026-02-20T08:00:00.000Z',
          dailyLimit: 1500,
        }),
      }),
    );
    expect(sent[0]).toEqual({ method: 'GET', url: '/api/admin/merchants/m1', body: undefined });
    expect(screen.getByTestId('merchant-title').textContent).toBe('Shop One');
    expect(screen.getByTestId('merchant-credits').textContent).toBe('12,500');
    expect(screen.getByText('1,500')).toBeTruthy();
    expect(screen.getByText('pk_aaaaaaaaaaaaaaaaaaaaaaaa')).toBeTruthy();
    expect(
      screen.getByText(`Stored hashed; keys last rotated ${formatDateTime('2026-02-20T08:00:00.000Z')}`),
    ).toBeTruthy();
    expect(screen.getByText('https://www.shop.example')).toBeTruthy();
    expect(screen.queryByText(/Out of credits since/)).toBeNull();
    expect(screen.getByText('No try-on yet.')).toBeTruthy();
    expect(screen.getByText('No product photo was refused.')).toBeTruthy();
    expect(screen.getByText('No shopper has opened the widget yet.')).toBeTruthy();
  });

  it('says since when a merchant is out of credits, and lists its days, refused photos and sessions', async () => {
    await openPage(
      detail({
        merchant: merchant({ credits: 0, outOfCreditsSince: '2026-03-01T00:00:00.000Z', refusedNoCredits: 1234 }),
        usage: [{ day: '2026-03-01', tryOns: 40, succeeded: 38, refunded: 1, sessions: 25 }],
        refusedProductPhotos: [
          {
            garmentSha256: 'abcdef0123456789abcdef0123456789',
            garmentUrl: null,
            code: 'GARMENT_WORN',
            refusals: 3,
            lastRefusedAt: '2026-03-02T00:00:00.000Z',
          },
        ],
        sessions: [
          { id: 's1', origin: 'https://shop.example', createdAt: '2026-03-02T10:00:00.000Z', tryOns: 3, results: 2 },
        ],
      }),
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(
      `Out of credits since ${formatDateTime('2026-03-01T00:00:00.000Z')} 1,234 try-ons refused for want of credits so far.`,
    );
    expect(tableRows('merchant-usage')).toEqual([['2026-03-01', '40', '38', '1', '25']]);
    expect(tableRows('merchant-refused-photos')).toEqual([
      ['Address not given', 'abcdef012345…', 'Shows the garment being worn', '3', expect.any(String)],
    ]);
    expect(tableRows('merchant-sessions')).toEqual([
      [formatDateTime('2026-03-02T10:00:00.000Z'), 'https://shop.example', '3', '2'],
    ]);
  });

  it('adds credits and shows the balance the server answers', async () => {
    const sent = await openPage(detail(), () => ok({ merchant: merchant({ credits: 13_000 }) }));
    const dialog = await runAction('Add credits', { Credits: '500', Reason: 'top-up invoice 42' }, 'Add credits');
    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/merchants/m1/credits',
      body: { amount: 500, reason: 'top-up invoice 42' },
    });
    expect(dialog.isConnected).toBe(false);
    expect(screen.getByTestId('merchant-credits').textContent).toBe('13,000');
    // The answer is the new state: nothing is loaded again.
    expect(sent).toHaveLength(2);
  });

  it('removes credits as a negative amount', async () => {
    const sent = await openPage(detail(), () => ok({ merchant: merchant({ credits: 12_000 }) }));
    await runAction('Remove credits', { Credits: '500', Reason: 'mistaken top-up' }, 'Remove credits');
    expect(sent[1]!.body).toEqual({ amount: -500, reason: 'mistaken top-up' });
    expect(screen.getByTestId('merchant-credits').textContent).toBe('12,000');
  });

  it('changes the origins from the current ones, refusing one the server would refuse before sending it', async () => {
    const updated: Merchant = merchant({ allowedOrigins: ['https://new.example'] });
    const sent = await openPage(detail(), () => ok({ merchant: updated }));
    fireEvent.click(screen.getByRole('button', { name: 'Change origins' }));
    const dialog = screen.getByRole('dialog', { name: 'Allowed origins' });
    expect((within(dialog).getByLabelText('Origins') as HTMLTextAreaElement).value).toBe('https://shop.example');

    fireEvent.change(within(dialog).getByLabelText('Origins'), { target: { value: 'https://new.example/shop' } });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'moved' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save origins' })));
    expect(within(dialog).getByRole('alert').textContent).toContain(
      '“https://new.example/shop” is not an allowed origin',
    );
    expect(sent).toHaveLength(1);

    fireEvent.change(within(dialog).getByLabelText('Origins'), { target: { value: 'https://new.example\n' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save origins' })));
    expect(sent[1]).toEqual({
      method: 'PATCH',
      url: '/api/admin/merchants/m1',
      body: { allowedOrigins: ['https://new.example'], reason: 'moved' },
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('https://new.example')).toBeTruthy();
    expect(screen.queryByText('https://shop.example')).toBeNull();
  });

  it('makes a new secret key and shows it once', async () => {
    const sent = await openPage(detail(), () => ok({ merchant: merchant(), secretKey: NEW_SECRET }));
    await runAction('New secret key', { Reason: 'key leaked in a ticket' }, 'Make a new secret key');
    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/merchants/m1/keys',
      body: { key: 'secret', reason: 'key leaked in a ticket' },
    });
    const note = screen.getByTestId('secret-key-note');
    expect(within(note).getByTestId('secret-key').textContent).toBe(NEW_SECRET);
    fireEvent.click(within(note).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('secret-key-note')).toBeNull();
    expect(screen.queryByText(NEW_SECRET)).toBeNull();
  });

  it('makes a new publishable key: the page and the snippet show it, and no secret key is shown', async () => {
    const sent = await openPage(detail(), () =>
      ok({ merchant: merchant({ publishableKey: NEW_PUBLISHABLE }), secretKey: null }),
    );
    await runAction('New publishable key', { Reason: 'shop asked' }, 'Make a new publishable key');
    expect(sent[1]!.body).toEqual({ key: 'publishable', reason: 'shop asked' });
    const note = screen.getByTestId('secret-key-note');
    expect(within(note).queryByTestId('secret-key')).toBeNull();
    expect(note.querySelector('pre')!.textContent).toContain(`data-key="${NEW_PUBLISHABLE}"`);
    expect(screen.queryByText('pk_aaaaaaaaaaaaaaaaaaaaaaaa')).toBeNull();
  });

  it('keeps the dialog open with the server’s refusal and the credits as they were', async () => {
    await openPage(detail(), () => refuse(400, 'VALIDATION_ERROR', 'amount must be at most 100000'));
    const dialog = await runAction('Add credits', { Credits: '5', Reason: 'x' }, 'Add credits');
    expect(within(dialog).getByRole('alert').textContent).toBe('amount must be at most 100000');
    expect(dialog.isConnected).toBe(true);
    expect(screen.getByTestId('merchant-credits').textContent).toBe('12,500');
  });
});
