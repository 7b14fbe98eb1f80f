import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';

export function NotFoundPage() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center sm:px-6">
      <title>Page not found · AI Dress Up</title>
      <p className="text-sm font-bold tracking-widest text-brand-600 uppercase">Error 404</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-ink-950 sm:text-5xl">Page not found</h1>
      <p className="mt-4 text-lg text-ink-600">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses('primary', 'lg')}>
          Go to the try-on
        </Link>
        <Link to="/gallery" className={buttonClasses('secondary', 'lg')}>
          My Gallery
        </Link>
      </div>
    </section>
  );
}
