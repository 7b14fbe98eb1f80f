import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter } from 'react-router';
import { MAGIC_LINK_PATH } from '@aidressup/contract';
import { Spinner } from '../components/ui/spinner';
import { useT } from '../i18n/use-t';
import { RootLayout } from './root-layout';
import { HomePage } from './pages/home';
import { NotFoundPage } from './pages/not-found';
import { RouteError } from './pages/route-error';

const GalleryPage = lazy(async () => ({ default: (await import('./pages/gallery')).GalleryPage }));
const TermsOfServicePage = lazy(async () => ({
  default: (await import('./pages/terms-of-service')).TermsOfServicePage,
}));
const PrivacyPolicyPage = lazy(async () => ({ default: (await import('./pages/privacy-policy')).PrivacyPolicyPage }));
const AccountPage = lazy(async () => ({ default: (await import('./pages/account')).AccountPage }));
const SignInVerifyPage = lazy(async () => ({ default: (await import('./pages/sign-in-verify')).SignInVerifyPage }));
const DemoPortalPage = lazy(async () => ({ default: (await import('./pages/demo-portal')).DemoPortalPage }));
const ImageCreditsPage = lazy(async () => ({ default: (await import('./pages/image-credits')).ImageCreditsPage }));
const RefundPolicyPage = lazy(async () => ({ default: (await import('./pages/refund-policy')).RefundPolicyPage }));

function PageLoading() {
  const t = useT();
  return (
    <p role="status" className="flex items-center justify-center gap-3 py-32 text-ink-500">
      <Spinner className="size-6 text-brand-600" />
      {t('common.layout.loading')}
    </p>
  );
}

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'gallery', element: lazyPage(<GalleryPage />) },
      { path: 'account', element: lazyPage(<AccountPage />) },
      { path: MAGIC_LINK_PATH.slice(1), element: lazyPage(<SignInVerifyPage />) },
      { path: 'billing/demo-portal', element: lazyPage(<DemoPortalPage />) },
      { path: 'terms-of-service', element: lazyPage(<TermsOfServicePage />) },
      { path: 'privacy-policy', element: lazyPage(<PrivacyPolicyPage />) },
      { path: 'refund-policy', element: lazyPage(<RefundPolicyPage />) },
      { path: 'image-credits', element: lazyPage(<ImageCreditsPage />) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
