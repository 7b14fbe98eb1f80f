/**
 * The language of a page the server renders itself (the web app's first paint, a share page):
 * the shopper's choice saved by the web app in a cookie, else the browser's best match among the
 * languages we speak (Accept-Language), else English. Such answers vary with both headers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_COOKIE,
  matchLocale,
  parseAcceptLanguage,
  type Locale,
} from '@aidressup/contract';

export function requestLocale(request: FastifyRequest): Locale {
  const chosen = request.cookies?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  return matchLocale(parseAcceptLanguage(request.headers['accept-language'])) ?? DEFAULT_LOCALE;
}

/** Adds header names to the answer's Vary (keeping any already there, e.g. Origin). */
export function addVary(reply: FastifyReply, ...names: string[]): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const name of names) if (!list.some((n) => n.toLowerCase() === name.toLowerCase())) list.push(name);
  reply.header('vary', list.join(', '));
}

/** Marks an answer that depends on the shopper's language. */
export function varyByLocale(reply: FastifyReply): void {
  addVary(reply, 'Cookie', 'Accept-Language');
}
