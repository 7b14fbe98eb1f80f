import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import type { AdminUser } from '@aidressup/contract';
import { adminUser, later, ok, refuse, stubApi, type Sent } from '../test/admin-api';
import { formatDateTime } from '../utils/format';
import { UsersPage } from './users-page';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ana = adminUser();
const anonymous = adminUser({
  id: 'dev 2',
  email: null,
  credits: 0,
  free_trials_used: 2,
  segment: 'trial_exhausted',
  created_at: '2026-03-04T18:05:00.000Z',
  blocked: true,
});

/** Where the page has put the search: the address bar. */
function Address() {
  const { pathname, search } = useLocation();
  return <p data-testid="address">{pathname + search}</p>;
}

/** The users page at `entry`; each search answers the accounts `found` lists for its query (none otherwise). */
function openPage(
  found: Record<string, AdminUser[]> = {},
  answer: (req: Sent) => Response | Promise<Response> = (req) =>
    ok({ items: found[new URL(req.url, 'http://x').searchParams.get('query')!] ?? [] }),
  entry = '/admin/users',
) {
  const sent = stubApi(answer);
  render(
    <MemoryRouter initialEntries={[entry]}>
      <UsersPage />
      <Address />
    </MemoryRouter>,
  );
  return sent;
}

const field = () => screen.getByLabelText('Find an account') as HTMLInputElement;
const type = (value: string) => fireEvent.change(field(), { target: { value } });
/** Lets `ms` pass on the clock, and the answers that came meanwhile show. */
const pass = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
/** The request of a search for `encoded` (the query as sent, URI-encoded). */
const search = (encoded: string) => ({ method: 'GET', url: `/api/admin/users?query=${encoded}`, body: undefined });
const rows = () =>
  screen.queryAllByTestId('user-row').map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  );
const title = () => screen.getByRole('heading', { level: 2, name: /accounts?$/ }).textContent;

describe('the users page', () => {
  it('waits for the operator to stop typing for 300 ms, then sends one search, trimmed', async () => {
    const sent = openPage({ ana: [ana] });
    expect(document.activeElement).toBe(field());
    type('a');
    await pass(200);
    type('an');
    await pass(200);
    type(' ana ');
    await pass(299);
    expect(sent).toEqual([]);
    expect(screen.queryByRole('status')).toBeNull();
    await pass(1);
    expect(sent).toEqual([search('ana')]);
    expect(title()).toBe('1 account');
    expect(rows()).toHaveLength(1);
  });

  it('lists each account with a link to its page, its balance, free trials, segment and creation', async () => {
    openPage({ 'example.com': [ana, anonymous] });
    type('example.com');
    await pass(300);
    expect(title()).toBe('2 accounts');
    expect(rows()).toEqual([
      ['ana@example.comu1', '12', '1 / 2', 'customer', formatDateTime('2026-02-01T09:30:00.000Z')],
      ['Anonymousdev 2Blocked', '0', '2 / 2', 'trial_exhausted', formatDateTime('2026-03-04T18:05:00.000Z')],
    ]);
    const [first, second] = screen.getAllByTestId('user-row');
    expect(within(first!).getByRole('link', { name: 'ana@example.com' }).getAttribute('href')).toBe('/admin/users/u1');
    expect(within(second!).getByRole('link', { name: 'Anonymous' }).getAttribute('href')).toBe('/admin/users/dev%202');
    expect(within(first!).queryByText('Blocked')).toBeNull();
  });

  it('keeps the search in the address, and searches at once for the one a link brings', async () => {
    const sent = openPage({ 'ana@example.com': [ana] }, undefined, '/admin/users?q=ana%40example.com');
    expect(field().value).toBe('ana@example.com');
    await pass(0);
    expect(sent).toEqual([search('ana%40example.com')]);
    expect(rows()).toHaveLength(1);

    type('bob & co');
    expect(screen.getByTestId('address').textContent).toBe('/admin/users?q=bob+%26+co');
    await pass(300);
    expect(sent[1]).toEqual(search('bob%20%26%20co'));
    type('');
    expect(screen.getByTestId('address').textContent).toBe('/admin/users');
  });

  it('says when no account matches, with neither a table nor an export', async () => {
    openPage();
    type('nobody');
    await pass(300);
    expect(title()).toBe('0 accounts');
    expect(screen.getByText('No account matches “nobody”.')).toBeTruthy();
    expect(screen.queryByTestId('users-table')).toBeNull();
    expect(screen.queryByTestId('users-csv')).toBeNull();
  });

  it('clears the results when the field is emptied, and never searches for blanks', async () => {
    const sent = openPage({ ana: [ana] });
    type('ana');
    await pass(300);
    expect(rows()).toHaveLength(1);
    type('   ');
    await pass(300);
    expect(screen.queryByTestId('users-table')).toBeNull();
    expect(screen.queryByRole('heading', { level: 2, name: /accounts?$/ })).toBeNull();
    type('');
    await pass(300);
    expect(sent).toEqual([search('ana')]);
  });

  it('says it is searching until the first answer comes', async () => {
    const answer = later();
    openPage({}, () => answer.response);
    type('ana');
    await pass(300);
    expect(screen.getByRole('status').textContent).toBe('Searching…');
    expect(screen.queryByTestId('users-table')).toBeNull();
    await act(async () => answer.send(ok({ items: [ana] })));
    expect(screen.queryByRole('status')).toBeNull();
    expect(rows()).toHaveLength(1);
  });

  it('never lets a slow answer to an older search replace the newer one’s', async () => {
    const first = later();
    const bob = adminUser({ id: 'u3', email: 'bob@example.com' });
    const sent = openPage({}, (req) => (req.url.endsWith('=ana') ? first.response : ok({ items: [bob] })));
    type('ana');
    await pass(300);
    type('bob');
    await pass(300);
    expect(sent.map((r) => r.url)).toEqual(['/api/admin/users?query=ana', '/api/admin/users?query=bob']);
    expect(rows()[0]![0]).toBe('bob@example.comu3');
    await act(async () => first.send(ok({ items: [ana] })));
    expect(rows()).toEqual([
      [expect.stringMatching(/^bob@example\.com/), '12', '1 / 2', 'customer', expect.any(String)],
    ]);
  });

  it('says why the search failed, and searches again when asked', async () => {
    let attempts = 0;
    const sent = openPage({}, () =>
      ++attempts === 1 ? refuse(500, 'INTERNAL', 'The search is down for a moment.') : ok({ items: [ana] }),
    );
    type('ana');
    await pass(300);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The search is down for a moment.');
    expect(screen.queryByTestId('users-table')).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await pass(0);
    expect(sent).toEqual([search('ana'), search('ana')]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(rows()).toHaveLength(1);
  });

  it('shows no account of an older search while a new one loads, nor after it failed', async () => {
    const bobs = later();
    openPage({}, (req) => (req.url.endsWith('=ana') ? ok({ items: [ana] }) : bobs.response));
    type('ana');
    await pass(300);
    expect(rows()).toHaveLength(1);
    type('bob');
    await pass(300);
    expect(screen.getByRole('status').textContent).toBe('Searching…');
    expect(screen.queryByTestId('users-table')).toBeNull();
    expect(screen.queryByTestId('users-csv')).toBeNull();
    await act(async () => bobs.send(refuse(500, 'INTERNAL', 'The search is down for a moment.')));
    expect(screen.getByRole('alert').textContent).toContain('The search is down for a moment.');
    expect(screen.queryByTestId('users-table')).toBeNull();
    expect(screen.queryByText('No account matches “bob”.')).toBeNull();
  });

  it('exports the accounts found as CSV, named after the search', async () => {
    const made = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:users');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    openPage({ 'ana@example.com / =x': [ana, anonymous] });
    type('ana@example.com / =x');
    await pass(300);
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(names).toEqual(['users-ana@example.com_x.csv']);
    const csv = await (made.mock.calls[0]![0] as Blob).text();
    expect(csv.replace(/^\uFEFF/, '')).toBe(
      'id,email,credits,free_trials_used,free_trials_limit,segment,created_at,blocked\r\n' +
        'u1,ana@example.com,12,1,2,customer,2026-02-01T09:30:00.000Z,false\r\n' +
        'dev 2,,0,2,2,trial_exhausted,2026-03-04T18:05:00.000Z,true\r\n',
    );
  });
});
