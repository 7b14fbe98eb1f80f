import { Component, useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { RouteError } from './pages/route-error';

interface BoundaryProps {
  /** The page's path: going to another page clears the error. */
  resetKey: string;
  children: ReactNode;
}

/** A page that throws while rendering (or whose code fails to load) shows RouteError instead. */
class PageErrorBoundary extends Component<BoundaryProps, { failedAt: string | null }> {
  override state = { failedAt: null as string | null };

  static getDerivedStateFromError(): { failedAt: string } {
    return { failedAt: '' };
  }

  override componentDidCatch(): void {
    this.setState({ failedAt: this.props.resetKey });
  }

  override render() {
    const { failedAt } = this.state;
    if (failedAt !== null && (failedAt === '' || failedAt === this.props.resetKey)) return <RouteError />;
    return this.props.children;
  }
}

/** Scrolls to the top when a link opens another page; Back and Forward keep the browser's restoration. */
function useScrollToTopOnNavigate(pathname: string) {
  const navigationType = useNavigationType();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (navigationType !== 'POP' && !window.location.hash) window.scrollTo(0, 0);
  }, [pathname, navigationType]);
}

export function RouteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useScrollToTopOnNavigate(pathname);
  return <PageErrorBoundary resetKey={pathname}>{children}</PageErrorBoundary>;
}
