import { AttemptLog } from './attempt-log.js';
import type { RecordedAttempt } from './webhook-records.js';

const entry = (n: number): RecordedAttempt => ({
  messageId: `m${n}`,
  webhookId: 'w',
  claimedUntil: null,
  attempt: { at: new Date(), statusCode: 200, error: null, durationMs: 1 },
  status: 'DELIVERED',
  dueInMs: null,
  succeeded: true,
  askedMs: 0,
  disable: null,
});

describe('AttemptLog (group commit of the delivery log)', () => {
  it('writes attempts that end together in one statement, and resolves each once written', async () => {
    const writes: string[][] = [];
    const log = new AttemptLog(async (es) => void writes.push(es.map((e) => e.messageId)), 5, 3);
    await Promise.all([1, 2, 3, 4].map((n) => log.record(entry(n))));
    expect(writes).toEqual([['m1', 'm2', 'm3'], ['m4']]); // a full batch at once, the rest after the window
  });

  it('rejects every attempt of a failed statement', async () => {
    const log = new AttemptLog(() => Promise.reject(new Error('connection lost')));
    const results = await Promise.allSettled([log.record(entry(1)), log.record(entry(2))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
