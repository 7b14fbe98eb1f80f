/**
 * The one log format of every server process: pino JSON lines, with the same level, serializers and
 * redaction in the API (Fastify's `app.log`), the queue workers and the hosted engines.
 *
 * Privacy rules: a client address is never logged, only a keyed hash of it (so requests from one
 * address can still be told apart); cookies, authorization headers and API keys are redacted
 * wherever they appear in a logged object.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.js';

export type { Logger } from 'pino';

/** The smallest logger the pipeline needs (pino, Fastify's logger, or a test's stand-in). */
export interface LogSink {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** A LogSink that makes children carrying extra fields on every line (pino's `child`). */
export interface ChildLogSink extends LogSink {
  child(bindings: Record<string, unknown>): ChildLogSink;
}

/**
 * The client address as logs carry it: a keyed hash (HMAC with a key derived from the session
 * secret), so requests from one address can be told apart without the address being kept.
 */
export function logAddressHash(ip: string, secret: string): string {
  return `ip_${createHmac('sha256', secret).update(`log-ip:${ip}`).digest('base64url').slice(0, 16)}`;
}

/** Paths whose values never reach the log, whichever process writes it. */
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'apiKey',
  'token',
  'sessionToken',
  'password',
  '*.apiKey',
  '*.token',
  '*.sessionToken',
  '*.password',
];

interface RequestLike {
  method: string;
  url: string;
  ip: string;
}

/**
 * The request serializer: method, URL and the hashed address. Without a key (a process that
 * serves no requests, such as a worker) the address is left out altogether.
 */
function requestSerializer(addressKey: string | undefined) {
  return (req: RequestLike) => ({
    method: req.method,
    url: req.url,
    ...(addressKey ? { remoteAddress: logAddressHash(req.ip, addressKey) } : {}),
  });
}

export interface LogOptions {
  /** The key of the address hash (the session secret). */
  addressKey?: string | undefined;
}

/** pino options shared by Fastify's logger and every `createLogger` instance. */
export function loggerOptions(config: Pick<Config, 'logLevel'>, options: LogOptions = {}): LoggerOptions {
  return {
    level: config.logLevel,
    serializers: { req: requestSerializer(options.addressKey) as (req: unknown) => unknown },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

/** A pino logger with the shared options, writing to `stream` (default stdout). */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  options: LogOptions & { stream?: DestinationStream | { write(line: string): void } } = {},
): Logger {
  const opts = loggerOptions(config, options);
  return options.stream ? pino(opts, options.stream) : pino(opts);
}

/** Request ids: unique across processes, so one try-on's lines can be followed from API to worker. */
export function newRequestId(): string {
  return randomUUID();
}
