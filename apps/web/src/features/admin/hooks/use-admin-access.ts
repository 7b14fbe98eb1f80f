import { createContext, useContext } from 'react';
import { ApiError } from '../../../lib/api-client';

/** Whether the console may be used: checking, yes, or why not. */
export type AdminAccess = 'checking' | 'ok' | 'signin' | 'reauth' | 'forbidden';

/** How an operator call's failure changes the access: 401 asks for a (fresh) email sign-in, 403 refuses. */
export function accessAfter(e: unknown): AdminAccess | null {
  if (!(e instanceof ApiError)) return null;
  if (e.status === 401) return e.code === 'REAUTH_REQUIRED' ? 'reauth' : 'signin';
  if (e.status === 403) return 'forbidden';
  return null;
}

/** Reports a failed call to the console; true when it was about access (the console then shows the sign-in). */
export const AdminAccessContext = createContext<(e: unknown) => boolean>(() => false);

export function useAdminAccessHandler(): (e: unknown) => boolean {
  return useContext(AdminAccessContext);
}
