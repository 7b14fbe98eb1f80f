import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button';

/** A merchant's new secret key, shown this once (it is stored hashed), with the shop's snippet. */
export function SecretKeyNote({
  merchantName,
  secretKey,
  publishableKey,
  onDone,
}: {
  merchantName: string;
  secretKey: string | null;
  publishableKey: string;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const snippet = `<script src="${location.origin}/embed.js" data-key="${publishableKey}" async></script>`;
  return (
    <div className="space-y-3 rounded-2xl border border-amber-200 bg-amber-50 p-4" data-testid="secret-key-note">
      <h3 ref={heading} tabIndex={-1} className="font-bold text-ink-950">
        Keys of {merchantName}
      </h3>
      {secretKey ? (
        <p className="text-sm text-ink-800">
          The secret key reads the shop’s usage (<code>GET /api/merchant/usage</code>). Copy it now: it is shown only
          this once.
        </p>
      ) : null}
      {secretKey ? (
        <p className="font-mono text-sm break-all text-ink-950" data-testid="secret-key">
          {secretKey}
        </p>
      ) : null}
      <p className="text-sm text-ink-800">The shop adds this line to its pages (see docs/embed.md):</p>
      <pre className="overflow-x-auto rounded-xl bg-white p-3 text-xs text-ink-900 ring-1 ring-ink-200">{snippet}</pre>
      <Button variant="secondary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
