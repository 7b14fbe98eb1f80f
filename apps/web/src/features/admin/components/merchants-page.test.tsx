import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { Merchant } from '@aidressup/contract';
import { merchant, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { formatDateTime } from '../utils/format';
import { MerchantsPage, originProblem, parseOrigins } from './merchants-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SECRET = 'sk_bbbbbbbbbbbbbbbbbbbbbbbb';

/** The merchants page with the list behind GET and `create` behind POST. */
async function openPage(list: Merchant[], create?: (req: Sent) => Response) {
  const sent = stubApi((req) => (req.method === 'POST' && create ? create(req) : ok({ items: list })));
  render(
    <MemoryRouter>
      <MerchantsPage />
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
  return sent;
}

const created = (req: Sent) => {
  const body = req.body as { name: string; allowedOrigins: string[]; credits: number };
  const m = merchant({ id: 'm2', name: body.name, allowedOrigins: body.allowedOrigins, credits: body.credits });
  return ok({ merchant: { ...m, secretKey: SECRET }, secretKey: SECRET });
};

function fill(fields: { name?: string; credits?: string; origins?: string }) {
  if (fields.name !== undefined)
    fireEvent.change(screen.getByLabelText('Shop name'), { target: { value: fields.name } });
  if (fields.credits !== undefined)
    fireEvent.change(screen.getByLabelText('Starting credits'), { target: { value: fields.credits } });
  if (fields.origins !== undefined)
    fireEvent.change(screen.getByLabelText('Allowed origins (one per line)'), { target: { value: fields.origins } });
}
const create = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create merchant' })));

describe('origins typed by an operator', () => {
  it('are split on lines, commas and spaces, blanks dropped', () => {
    expect(parseOrigins(' https://a.example\n\nhttps://b.example, https://c.example:8443  ')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example:8443',
    ]);
    expect(parseOrigins(' \n , ')).toEqual([]);
  });

  it('are checked as the server checks them, naming the first it would refuse', () => {
    expect(originProblem(['https://a.example', 'http://localhost:5173'])).toBeNull();
    expect(originProblem(['https://a.example', 'http://shop.example', 'ftp://x'])).toBe(
      '“http://shop.example” is not an allowed origin: write https://host or https://host:port (http:// only for localhost), with no path, * or other characters.',
    );
    expect(originProblem(['https://shop.example/path'])).toContain('“https://shop.example/path”');
    expect(originProblem(['https://*.example'])).toContain('“https://*.example”');
    expect(originProblem(['https://a.example:70000'])).toContain('“https://a.example:70000”');
  });
});

describe('the merchants page', () => {
  it('lists each merchant with its keys, origins, credits and whether it ran out', async () => {
    const sent = await openPage([
      merchant({ allowedOrigins: ['https://shop.example', 'https://www.shop.example'] }),
      merchant({
        id: 'm 2',
        name: 'Empty Shop',
        publishableKey: 'pk_cccccccccccccccccccccccc',
        credits: 0,
        outOfCreditsSince: '2026-03-01T00:00:00.000Z',
      }),
    ]);
    expect(sent).toEqual([{ method: 'GET', url: '/api/admin/merchants', body: undefined }]);
    const rows = screen.getAllByTestId('merchant-row');
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      [
        'Shop One',
        'pk_aaaaaaaaaaaaaaaaaaaaaaaa',
        'https://shop.examplehttps://www.shop.example',
        '12,500',
        formatDateTime('2026-01-15T12:00:00.000Z'),
      ],
      ['Empty ShopOut of credits', 'pk_cccccccccccccccccccccccc', 'https://shop.example', '0', expect.any(String)],
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Shop One' }).getAttribute('href')).toBe('/admin/merchants/m1');
    expect(within(rows[1]!).getByRole('link', { name: 'Empty Shop' }).getAttribute('href')).toBe(
      '/admin/merchants/m%202',
    );
    expect(within(rows[0]!).queryByText('Out of credits')).toBeNull();
  });

  it('says when there is no merchant yet, or why the list could not be loaded', async () => {
    await openPage([]);
    expect(screen.getByText(/No merchant yet\. Add a shop below/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    cleanup();

    stubApi(() => refuse(500, 'INTERNAL', 'The merchants could not be loaded.'));
    render(
      <MemoryRouter>
        <MerchantsPage />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('The merchants could not be loaded.');
    expect(screen.queryByText(/No merchant yet/)).toBeNull();
  });

  it('refuses a merchant without a name or an origin, or with an origin the server would refuse', async () => {
    const sent = await openPage([], created);
    fill({ name: '   ', origins: 'https://shop.example' });
    await create();
    expect(screen.getByRole('alert').textContent).toBe(
      'Give the shop’s name and at least one origin, like https://shop.example.',
    );
    fill({ name: 'New Shop', origins: ' , ' });
    await create();
    expect(screen.getByRole('alert').textContent).toContain('at least one origin');
    fill({ origins: 'https://shop.example\nhttp://shop.example' });
    await create();
    expect(screen.getByRole('alert').textContent).toContain('“http://shop.example” is not an allowed origin');
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it.each(['-1', '2.5', '-0.5'])('refuses %j starting credits', async (credits) => {
    const sent = await openPage([], created);
    fill({ name: 'New Shop', origins: 'https://shop.example', credits });
    await create();
    expect(screen.getByRole('alert').textContent).toBe('Starting credits are a whole number, 0 or more.');
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('creates the merchant as typed, shows its secret key once with the snippet, and lists it', async () => {
    let list: Merchant[] = [];
    const sent = stubApi((req) => {
      if (req.method === 'GET') return ok({ items: list });
      const res = created(req);
      list = [merchant({ id: 'm2', name: 'New Shop' })];
      return res;
    });
    render(
      <MemoryRouter>
        <MerchantsPage />
      </MemoryRouter>,
    );
    await screen.findByText(/No merchant yet/);
    fill({ name: '  New Shop ', origins: 'https://shop.example\nhttps://www.shop.example:8443', credits: '250' });
    await create();

    expect(sent[1]).toEqual({
      method: 'POST',
      url: '/api/admin/merchants',
      body: {
        name: 'New Shop',
        allowedOrigins: ['https://shop.example', 'https://www.shop.example:8443'],
        billing: 'merchant',
        credits: 250,
      },
    });
    const note = screen.getByTestId('secret-key-note');
    const heading = within(note).getByRole('heading', { name: 'Keys of New Shop' });
    expect(document.activeElement).toBe(heading);
    expect(within(note).getByTestId('secret-key').textContent).toBe(SECRET);
    expect(note.querySelector('pre')!.textContent).toBe(
      `<script src="${location.origin}/embed.js" data-key="pk_aaaaaaaaaaaaaaaaaaaaaaaa" async></script>`,
    );
    expect(screen.queryByLabelText('Shop name')).toBeNull();
    // The list is loaded again and shows the new merchant.
    await waitFor(() => expect(screen.getAllByTestId('merchant-row')).toHaveLength(1));
    expect(sent.map((r) => r.method)).toEqual(['GET', 'POST', 'GET']);

    fireEvent.click(within(note).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('secret-key')).toBeNull();
    expect((screen.getByLabelText('Shop name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Starting credits') as HTMLInputElement).value).toBe('0');
  });

  it('starts a merchant at 0 credits unless told otherwise, an emptied field included', async () => {
    const sent = await openPage([], created);
    fill({ name: 'Zero Shop', origins: 'https://zero.example' });
    await create();
    expect(sent[1]!.body).toMatchObject({ credits: 0 });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    // What a number field holds when it is cleared, or when what was typed is not a number.
    fill({ name: 'Blank Shop', origins: 'https://blank.example', credits: '' });
    await create();
    expect(sent[3]!.body).toMatchObject({ name: 'Blank Shop', credits: 0 });
  });

  it('keeps what was typed and shows the server’s refusal', async () => {
    const sent = await openPage([], () => refuse(400, 'VALIDATION_ERROR', 'an origin is https://host[:port]'));
    fill({ name: 'New Shop', origins: 'https://shop.example' });
    await create();
    expect(screen.getByRole('alert').textContent).toBe('an origin is https://host[:port]');
    expect((screen.getByLabelText('Shop name') as HTMLInputElement).value).toBe('New Shop');
    expect((screen.getByRole('button', { name: 'Create merchant' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('secret-key-note')).toBeNull();
    expect(sent.map((r) => r.method)).toEqual(['GET', 'POST']);
  });
});
