import { askedDelay, DISABLE_AFTER_FAILING_MS, holdBounds, nextStep } from './retry-policy.js';
import type { AttemptOutcome } from './webhook-sender.js';

const schedule = [5_000, 300_000, 1_800_000];
const now = new Date('2026-12-01T00:00:00Z');
const answered = (statusCode: number, retryAfterMs: number | null = null): AttemptOutcome => ({
  statusCode,
  error: null,
  durationMs: 3,
  retryAfterMs,
});
const timedOut: AttemptOutcome = { statusCode: null, error: 'no answer within 10000 ms', durationMs: 10_000, retryAfterMs: null };

describe('nextStep (the retry policy)', () => {
  it('delivers on any 2xx', () => {
    for (const s of [200, 201, 204, 299]) expect(nextStep(answered(s), 1, schedule, now, now)).toEqual({ kind: 'delivered' });
  });

  it('retries errors, timeouts, redirects and other statuses on the schedule, then fails', () => {
    expect(nextStep(timedOut, 1, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(nextStep(answered(500), 2, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 300_000 });
    expect(nextStep(answered(302), 3, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 1_800_000 });
    expect(nextStep(answered(400), 4, schedule, now, now)).toEqual({ kind: 'failed', disable: null });
  });

  it('honours Retry-After on 429 and 503 only, as a delay the schedule may not shorten', () => {
    expect(nextStep(answered(429, 60_000), 1, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 60_000 });
    expect(nextStep(answered(503, 0), 2, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 300_000 });
    expect(nextStep(answered(429, 1_000), 1, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(nextStep(answered(500, 60_000), 1, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(nextStep(answered(429, 10 * 86_400_000), 1, schedule, now, now)).toEqual({ kind: 'retry', delayMs: 86_400_000 });
  });

  it('disables on 410 Gone, and after 5 days of failures', () => {
    expect(nextStep(answered(410), 1, schedule, now, now)).toEqual({ kind: 'failed', disable: expect.stringMatching(/410/) });
    const longAgo = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS);
    expect(nextStep(answered(500), 1, schedule, longAgo, now)).toEqual({ kind: 'failed', disable: expect.stringMatching(/5 days/) });
    const lately = new Date(now.getTime() - DISABLE_AFTER_FAILING_MS + 1);
    expect(nextStep(answered(500), 1, schedule, lately, now).kind).toBe('retry');
  });
});

describe('the hold of a failing endpoint (its formula runs in recordAttempts: test/webhook-holds.e2e-spec.ts)', () => {
  it('lasts from the first delay of the schedule, at least a second, to its longest', () => {
    expect(holdBounds(schedule)).toEqual({ minMs: 5_000, maxMs: 1_800_000 });
    expect(holdBounds([0, 300_000])).toEqual({ minMs: 1_000, maxMs: 300_000 });
    expect(holdBounds([50, 50])).toEqual({ minMs: 1_000, maxMs: 1_000 });
  });

  it("takes a 429's or 503's Retry-After, up to a day, and nothing else's", () => {
    expect(askedDelay(answered(429, 60_000))).toBe(60_000);
    expect(askedDelay(answered(503, 10 * 86_400_000))).toBe(86_400_000);
    expect(askedDelay(answered(503, null))).toBe(0);
    expect(askedDelay(answered(500, 60_000))).toBe(0);
    expect(askedDelay(timedOut)).toBe(0);
  });
});
