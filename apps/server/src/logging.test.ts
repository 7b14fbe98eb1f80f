/** The shared logger options: the worker's and the engines' pino loggers keep the API's privacy rules. */
import { describe, expect, it } from 'vitest';
import { createLogger, logAddressHash } from './logging.js';

describe('createLogger', () => {
  it('writes pino JSON lines, redacts cookies, authorization and keys, and hashes or drops client addresses', () => {
    const lines: string[] = [];
    const log = createLogger(
      { logLevel: 'info' },
      { addressKey: 'k'.repeat(32), stream: { write: (l) => void lines.push(l) } },
    );
    log.info(
      { req: { method: 'GET', url: '/api/config', ip: '198.51.100.7', headers: { cookie: 'aidu_session=s1.secret' } } },
      'incoming request',
    );
    log.warn({ headers: { authorization: 'Bearer sk-secret' }, engine: { apiKey: 'sk-secret' } }, 'hosted call');
    log.debug({}, 'below the level');
    const all = lines.join('');
    expect(all).not.toContain('198.51.100.7');
    expect(all).not.toContain('secret');
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(first).toMatchObject({
      level: 30,
      msg: 'incoming request',
      req: { method: 'GET', url: '/api/config', remoteAddress: logAddressHash('198.51.100.7', 'k'.repeat(32)) },
    });
    expect(second).toMatchObject({
      level: 40,
      headers: { authorization: '[redacted]' },
      engine: { apiKey: '[redacted]' },
    });

    // A process without the key (a worker) leaves the address out altogether.
    const workerLines: string[] = [];
    createLogger({ logLevel: 'info' }, { stream: { write: (l) => void workerLines.push(l) } })
      .child({ reqId: 'r-1' })
      .info({ req: { method: 'GET', url: '/x', ip: '198.51.100.7' } }, 'line');
    expect(JSON.parse(workerLines[0]!)).toMatchObject({ reqId: 'r-1', req: { method: 'GET', url: '/x' } });
    expect(workerLines[0]).not.toContain('198.51.100.7');
  });
});
