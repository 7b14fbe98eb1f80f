import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { MAGIC_LINK_PATH } from '@aidressup/contract';
import { Spinner } from '../components/ui/spinner';
import { loadMessages } from '../i18n/i18n';
import { useT } from '../i18n/use-t';
import { RootLayout } from './root-layout';
import { HomePage } from './pages/home';

/** A legal page's code and its texts (a chunk of their own), loaded together so the page appears once. */
async function legalPage<T>(page: Promise<T>): Promise<T> {
  const [module] = await Promise.all([
    page,
    import('../features/legal/components/use-legal-messages').then((m) => m.preloadLegalMessages()),
  ]);
  return module;
}

/** A page whose texts are in the `more` messages (a chunk of their own), loaded with its code. */
async function withMoreMessages<T>(page: Promise<T>): Promise<T> {
  const [module] = await Promise.all([page, loadMessages('more')]);
  return module;
}

const TermsOfServicePage = lazy(async () => ({
  default: (await legalPage(import('./pages/terms-of-service'))).TermsOfServicePage,
}));
const PrivacyPolicyPage = lazy(async () => ({
  default: (await legalPage(import('./pages/privacy-policy'))).PrivacyPolicyPage,
}));
const AccountPage = lazy(async () => ({ default: (await withMoreMessages(import('./pages/account'))).AccountPage }));
const SignInVerifyPage = lazy(async () => ({
  default: (await withMoreMessages(import('./pages/sign-in-verify'))).SignInVerifyPage,
}));
const DemoPortalPage = lazy(async () => ({
  default: (await withMoreMessages(import('./pages/demo-portal'))).DemoPortalPage,
}));
const GalleryPage = lazy(async () => ({ default: (await withMoreMessages(import('./pages/gallery'))).GalleryPage }));
const ImageCreditsPage = lazy(async () => ({
  default: (await withMoreMessages(import('./pages/image-credits'))).ImageCreditsPage,
}));
const NotFoundPage = lazy(async () => ({
  default: (await withMoreMessages(import('./pages/not-found'))).NotFoundPage,
}));
const AdminPage = lazy(async () => ({ default: (await import('./pages/admin')).AdminPage }));
const RefundPolicyPage = lazy(async () => ({
  default: (await legalPage(import('./pages/refund-policy'))).RefundPolicyPage,
}));

function PageLoading() {
  const t = useT();
  return (
    // At least a screen tall, so the footer stays below the fold until the page takes its place.
    <p role="status" className="flex min-h-dvh items-start justify-center gap-3 pt-32 text-ink-500">
      <Spinner className="size-6 text-brand-600" />
      {t('common.layout.loading')}
    </p>
  );
}

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/**
 * The pages. Declarative routes (no data router: the page loads its data itself), which keeps
 * the router's code on the first page small; each page but the home page is a chunk of its own.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="gallery" element={lazyPage(<GalleryPage />)} />
        <Route path="account" element={lazyPage(<AccountPage />)} />
        <Route path={MAGIC_LINK_PATH.slice(1)} element={lazyPage(<SignInVerifyPage />)} />
        <Route path="billing/demo-portal" element={lazyPage(<DemoPortalPage />)} />
        <Route path="terms-of-service" element={lazyPage(<TermsOfServicePage />)} />
        <Route path="privacy-policy" element={lazyPage(<PrivacyPolicyPage />)} />
        <Route path="refund-policy" element={lazyPage(<RefundPolicyPage />)} />
        <Route path="image-credits" element={lazyPage(<ImageCreditsPage />)} />
        {/* The operator console: no link leads there; operators type the address. */}
        <Route path="admin/*" element={lazyPage(<AdminPage />)} />
        <Route path="*" element={lazyPage(<NotFoundPage />)} />
      </Route>
    </Routes>
  );
}
