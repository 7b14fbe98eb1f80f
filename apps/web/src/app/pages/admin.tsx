import { AdminConsole } from '../../features/admin/components/admin-console';
import { useSession } from '../../features/session/hooks/use-session';
import { useSignInDialog } from '../../features/session/hooks/use-sign-in-dialog';

/**
 * `/admin`, the operator console: a chunk of its own (Chart.js included), reached by typing the
 * address (no link in the shopper's navigation). The console signs in with the product's own email
 * sign-in, which the app owns, so it is handed in here.
 */
export function AdminPage() {
  const { user } = useSession();
  const signIn = useSignInDialog();
  return <AdminConsole user={user} onSignIn={() => signIn.openSignIn({ email: user?.email ?? '' })} />;
}
