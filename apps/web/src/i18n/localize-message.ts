import { useCallback } from 'react';
import { ERROR_MESSAGES, MESSAGES, WEB_MESSAGES, type ErrorCode, type Locale } from '@aidressup/contract';
import { useLocale, useT, type MessageId, type Translate } from './use-t';

/** The English text of every message the server or the page may show, to its catalog id. */
const ID_BY_TEXT = new Map<string, MessageId>(
  Object.entries({ ...MESSAGES, ...WEB_MESSAGES }).map(([key, text]) => [text, `msg.${key}` as MessageId]),
);

/** The catalog id of a message the server or the page gives in English (the specification's words). */
export function messageIdFor(text: string | null | undefined): MessageId | null {
  return (text && ID_BY_TEXT.get(text)) || null;
}

/** The catalog id of an error code's own message. */
export function errorCodeMessageId(code: string | null | undefined): MessageId | null {
  return code && Object.hasOwn(ERROR_MESSAGES, code) ? messageIdFor(ERROR_MESSAGES[code as ErrorCode]) : null;
}

/**
 * A message the server answered with, in the page's language. English keeps the server's exact
 * text; another language shows the translation of that text, else of its error code's message.
 */
export function localizeMessage(t: Translate, locale: Locale, text: string, code?: string | null): string {
  const id = messageIdFor(text) ?? (locale === 'en' ? null : errorCodeMessageId(code));
  return id ? t(id) : text;
}

/** `localize(error.message, error.code)` in the page's language. */
export function useLocalizeMessage(): (text: string, code?: string | null) => string {
  const t = useT();
  const locale = useLocale();
  return useCallback((text, code) => localizeMessage(t, locale, text, code), [t, locale]);
}
