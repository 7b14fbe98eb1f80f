import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a page fails to load (for example a lost connection while fetching a page's code). */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center">
      <title>{notFound ? 'Page not found · AI Dress Up' : 'Something went wrong · AI Dress Up'}</title>
      <h1 className="text-3xl font-extrabold text-ink-950">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="mt-3 text-ink-600">Please check your connection and try again.</p>
      <div className="mt-6 flex gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-xl bg-ink-950 px-5 py-3 font-semibold text-white"
        >
          Reload
        </button>
        <a href="/" className="rounded-xl px-5 py-3 font-semibold text-ink-800 ring-1 ring-ink-200">
          Home
        </a>
      </div>
    </main>
  );
}
