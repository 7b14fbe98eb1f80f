import { config } from 'zod';

/**
 * Parse responses without generated code: the page's Content-Security-Policy forbids eval, and zod's
 * eval probe would otherwise be reported as a CSP violation. Imported first by main.tsx, before any
 * schema is built.
 */
config({ jitless: true });
