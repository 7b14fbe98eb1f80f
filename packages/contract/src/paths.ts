/**
 * Page paths that both the server and the web app build. Kept apart from the schema modules: the
 * web app's first page imports them, and must not build schemas to do so (docs/architecture.md,
 * "The first page").
 */

/** Web route the magic link opens; the page posts the link's token to the verify call. */
export const MAGIC_LINK_PATH = '/sign-in/verify';
