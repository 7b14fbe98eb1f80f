import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { isAllowedOrigin, type AdminMerchantCreatedResponse } from '@aidressup/contract';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { createMerchant } from '../api/create-merchant';
import { getMerchants } from '../api/get-merchants';
import { useAdminData } from '../hooks/use-admin-data';
import { formatDateTime, formatNumber } from '../utils/format';
import { Badge, ErrorNote, inputClass, Loading, Panel, TableScroll, tdClass, thClass } from './admin-ui';
import { SecretKeyNote } from './secret-key-note';

/** Origins typed one per line (or separated by commas or spaces). */
export function parseOrigins(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** What to tell the operator about the first origin the server would refuse; null when all are allowed. */
export function originProblem(origins: string[]): string | null {
  const bad = origins.find((o) => !isAllowedOrigin(o));
  return bad === undefined
    ? null
    : `“${bad}” is not an allowed origin: write https://host or https://host:port (http:// only for localhost), with no path, * or other characters.`;
}

function CreateMerchantForm({ onCreated }: { onCreated: (created: AdminMerchantCreatedResponse) => void }) {
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [credits, setCredits] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const originsId = useId();
  const creditsId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const list = parseOrigins(origins);
    const n = Number(credits);
    if (!name.trim() || list.length === 0) {
      setError('Give the shop’s name and at least one origin, like https://shop.example.');
      return;
    }
    const problem = originProblem(list);
    if (problem) {
      setError(problem);
      return;
    }
    if (!Number.isInteger(n) || n < 0) {
      setError('Starting credits are a whole number, 0 or more.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onCreated(await createMerchant({ name: name.trim(), allowedOrigins: list, billing: 'merchant', credits: n }));
      setName('');
      setOrigins('');
      setCredits('0');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not reach the server.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-4 sm:grid-cols-2" noValidate>
      <div>
        <label htmlFor={nameId} className="text-sm font-semibold text-ink-800">
          Shop name
        </label>
        <input id={nameId} className={`${inputClass} mt-1`} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <label htmlFor={creditsId} className="text-sm font-semibold text-ink-800">
          Starting credits
        </label>
        <input
          id={creditsId}
          type="number"
          min={0}
          inputMode="numeric"
          className={`${inputClass} mt-1`}
          value={credits}
          onChange={(e) => setCredits(e.target.value)}
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={originsId} className="text-sm font-semibold text-ink-800">
          Allowed origins (one per line)
        </label>
        <textarea
          id={originsId}
          rows={2}
          className={`${inputClass} mt-1 font-mono`}
          placeholder="https://shop.example"
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
        />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 sm:col-span-2">
          {error}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          Create merchant
        </Button>
      </div>
    </form>
  );
}

/** The shop widget's merchants: the list, and a form to add one (its secret key is shown once). */
export function MerchantsPage() {
  const list = useAdminData('merchants', (signal) => getMerchants(signal));
  const [created, setCreated] = useState<AdminMerchantCreatedResponse | null>(null);

  return (
    <div className="space-y-6">
      <Panel title="Merchants" testId="merchants">
        {list.error ? <ErrorNote message={list.error} onRetry={list.reload} /> : null}
        {list.loading && !list.data ? <Loading /> : null}
        {list.data && list.data.length === 0 ? (
          <p className="text-sm text-ink-600">No merchant yet. Add a shop below to give it the “Try it on” widget.</p>
        ) : null}
        {list.data && list.data.length > 0 ? (
          <TableScroll label="Merchants">
            <table className="w-full min-w-[44rem] border-collapse">
              <thead>
                <tr className="border-b border-ink-200">
                  <th scope="col" className={thClass}>
                    Shop
                  </th>
                  <th scope="col" className={thClass}>
                    Publishable key
                  </th>
                  <th scope="col" className={thClass}>
                    Origins
                  </th>
                  <th scope="col" className={thClass}>
                    Credits
                  </th>
                  <th scope="col" className={thClass}>
                    Created
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((m) => (
                  <tr key={m.id} className="border-b border-ink-100 hover:bg-ink-50" data-testid="merchant-row">
                    <td className={tdClass}>
                      <Link
                        to={`/admin/merchants/${encodeURIComponent(m.id)}`}
                        className="font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-3 focus-visible:outline-brand-500"
                      >
                        {m.name}
                      </Link>
                      {m.outOfCreditsSince ? (
                        <span className="mt-1 block">
                          <Badge tone="bad">Out of credits</Badge>
                        </span>
                      ) : null}
                    </td>
                    <td className={`${tdClass} font-mono text-xs break-all`}>{m.publishableKey}</td>
                    <td className={`${tdClass} font-mono text-xs`}>
                      {m.allowedOrigins.map((o) => (
                        <span key={o} className="block">
                          {o}
                        </span>
                      ))}
                    </td>
                    <td className={`${tdClass} tabular-nums`}>{formatNumber(m.credits)}</td>
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(m.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </Panel>

      <Panel title="Add a merchant">
        {created ? (
          <SecretKeyNote
            merchantName={created.merchant.name}
            secretKey={created.secretKey}
            publishableKey={created.merchant.publishableKey}
            onDone={() => setCreated(null)}
          />
        ) : (
          <CreateMerchantForm
            onCreated={(c) => {
              setCreated(c);
              list.reload();
            }}
          />
        )}
      </Panel>
    </div>
  );
}
