/** Progress while waiting in line: `queued` repeats with each new place; once admitted, a plain `queued`; nothing goes back. */
import { describe, expect, it } from 'vitest';
import type { TryOnProgressEvent } from '@aidressup/contract';
import { ProgressHub, createProgressReporter } from './progress.js';

const ID = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('progress of a try-on in line', () => {
  it('publishes each new place, drops repeats, ends the line with a plain queued, and never goes back to a place', () => {
    const hub = new ProgressHub();
    const seen: TryOnProgressEvent[] = [];
    const sub = hub.subscribe(ID, 'u1', (e) => seen.push(e));
    expect(sub.ok).toBe(true);
    const reporter = createProgressReporter(hub, { progressId: ID, userId: 'u1', engineId: 'local' });
    reporter.reportPlace({ place: 3, waitSeconds: 2 });
    reporter.reportPlace({ place: 3, waitSeconds: 2 }); // the same: dropped
    reporter.reportPlace({ place: 2, waitSeconds: 1 });
    reporter.report('queued'); // admitted and charged
    reporter.reportPlace({ place: 1, waitSeconds: 0 }); // late: dropped
    reporter.report('fitting');
    expect(seen.map((e) => [e.stage, e.place, e.waitSeconds])).toEqual([
      ['queued', 3, 2],
      ['queued', 2, 1],
      ['queued', undefined, undefined],
      ['fitting', undefined, undefined],
    ]);
  });

  it('relays each line event when told to (another API process may hold the stream)', async () => {
    const hub = new ProgressHub();
    const relayed: unknown[] = [];
    const reporter = createProgressReporter(hub, {
      progressId: ID,
      userId: 'u1',
      engineId: 'local',
      relay: async (m) => relayed.push(m),
    });
    reporter.reportPlace({ place: 5, waitSeconds: 4 });
    reporter.report('queued');
    expect(relayed).toMatchObject([
      { progressId: ID, userId: 'u1', event: { stage: 'queued', place: 5, waitSeconds: 4 } },
      { progressId: ID, userId: 'u1', event: { stage: 'queued' } },
    ]);
  });
});
