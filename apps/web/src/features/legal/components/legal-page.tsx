import type { ReactNode } from 'react';
import { Link } from 'react-router';

export const LEGAL_UPDATED = '1 November 2026';

export function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-16">
      <title>{`${title} · AI Dress Up`}</title>
      <nav aria-label="Breadcrumb" className="text-sm text-ink-500">
        <Link to="/" className="rounded hover:text-ink-900 hover:underline">
          Home
        </Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{title}</span>
      </nav>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight text-ink-950 sm:text-4xl">{title}</h1>
      <p className="mt-2 text-sm text-ink-500">Last updated: {LEGAL_UPDATED}</p>
      <div className="mt-6 text-lg leading-8 text-ink-700">{intro}</div>
      <div className="legal-body mt-10 space-y-10 text-base leading-7 text-ink-700 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-ink-950 [&_li]:mt-2 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-4">
        {children}
      </div>
    </article>
  );
}

export function SupportLink({ email }: { email: string | null }) {
  if (!email) return <span>our support address (shown in the footer)</span>;
  return <a href={`mailto:${email}`}>{email}</a>;
}
