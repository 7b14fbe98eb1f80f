import { afterEach, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, MESSAGES, WEB_MESSAGES } from '@aidressup/contract';
import { activateLocale, currentLocale, i18n } from './i18n';
import { errorCodeMessageId, localizeMessage, messageIdFor } from './localize-message';
import type { Translate } from './use-t';

const t: Translate = (id, values) => i18n._(id, values);

describe('messageIdFor and errorCodeMessageId', () => {
  it('finds the catalog id of a contract message by its English text', () => {
    expect(messageIdFor(MESSAGES.noCredits)).toBe('msg.noCredits');
    expect(messageIdFor(WEB_MESSAGES.copyFailed)).toBe('msg.copyFailed');
    expect(messageIdFor('Something the server made up')).toBeNull();
    expect(messageIdFor('')).toBeNull();
    expect(messageIdFor(undefined)).toBeNull();
  });

  it('finds the catalog id of an error code’s own message', () => {
    expect(errorCodeMessageId('NO_CREDITS')).toBe('msg.noCredits');
    expect(errorCodeMessageId('VALIDATION_ERROR')).toBe('msg.invalidRequest');
    expect(errorCodeMessageId('NO_SUCH_CODE')).toBeNull();
    expect(errorCodeMessageId('toString')).toBeNull();
    expect(errorCodeMessageId(null)).toBeNull();
  });

  it('has a catalog id for every error code’s message', () => {
    for (const code of Object.keys(ERROR_MESSAGES)) expect(errorCodeMessageId(code), code).not.toBeNull();
  });
});

describe('localizeMessage', () => {
  afterEach(async () => {
    await activateLocale('en');
  });

  it('keeps the server’s exact text in English, even with a known code', () => {
    expect(currentLocale()).toBe('en');
    expect(localizeMessage(t, 'en', MESSAGES.noCredits, 'NO_CREDITS')).toBe(MESSAGES.noCredits);
    expect(localizeMessage(t, 'en', 'Your card was declined by the bank.', 'NO_CREDITS')).toBe(
      'Your card was declined by the bank.',
    );
  });

  it('translates a known text into Spanish', async () => {
    await activateLocale('es');
    expect(localizeMessage(t, 'es', MESSAGES.noCredits)).toBe(
      'No te quedan pruebas gratis ni créditos. Compra créditos para continuar',
    );
    expect(localizeMessage(t, 'es', WEB_MESSAGES.paymentReceived, null)).toBe(
      'Pago recibido: tus créditos están en camino',
    );
  });

  it('gives an unknown text with a known code the code’s message in Spanish', async () => {
    await activateLocale('es');
    expect(localizeMessage(t, 'es', 'Rate limit hit on shard 3', 'RATE_LIMITED')).toBe(
      'Demasiadas solicitudes. Espera un momento y vuelve a intentarlo.',
    );
  });

  it('leaves an unknown text with an unknown or missing code as it is', async () => {
    await activateLocale('es');
    expect(localizeMessage(t, 'es', 'Something odd happened', 'NO_SUCH_CODE')).toBe('Something odd happened');
    expect(localizeMessage(t, 'es', 'Something odd happened')).toBe('Something odd happened');
  });
});
