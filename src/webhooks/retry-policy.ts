import type { AttemptOutcome } from './webhook-sender.js';

/** An endpoint failing this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** A Retry-After is honoured up to this long. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

export type NextStep = { kind: 'delivered' } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; disable: string | null };

/**
 * What follows an attempt. A 2xx delivers; a 410 Gone fails the message and disables the
 * endpoint; anything else (an error, a timeout, a redirect, any other status) is retried on the
 * schedule, or after the receiver's Retry-After when a 429 or 503 sends a longer one, until the
 * schedule runs out. An endpoint whose failures go back 5 days is disabled.
 *
 * @param attempt the attempts made so far, this one included (1 for the first)
 * @param failingSince the endpoint's first failure since its last success (this one if none)
 */
export function nextStep(outcome: AttemptOutcome, attempt: number, scheduleMs: readonly number[], failingSince: Date, now: Date): NextStep {
  const status = outcome.statusCode;
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'failed', disable: 'the endpoint answered 410 Gone' };
  if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) return { kind: 'failed', disable: 'deliveries failed for 5 days' };
  if (attempt > scheduleMs.length) return { kind: 'failed', disable: null };
  const scheduled = scheduleMs[attempt - 1];
  // Retry-After says "not before": it can put an attempt off (up to a day), never bring it forward,
  // so a receiver answering `Retry-After: 0` does not turn the schedule into a tight loop.
  return { kind: 'retry', delayMs: Math.max(askedDelay(outcome), scheduled) };
}

/** The delay a 429 or 503 asked for with its Retry-After (at most a day), or 0. */
function askedDelay(outcome: AttemptOutcome): number {
  const status = outcome.statusCode;
  return (status === 429 || status === 503) && outcome.retryAfterMs !== null ? Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
}

/**
 * How long a failing endpoint is held after a failed attempt: none of its messages is attempted
 * before then, and then one at a time until one is delivered. As long as it has been failing, so
 * its probes back off by doubling, from the schedule's first delay up to its longest. A receiver
 * that is down, or a host that never asked for these requests, thus gets one request per hold
 * rather than one per message and retry: no player can turn a stream of moves into a flood of
 * requests at someone else's server. A receiver that asked for time (a 429 or 503 with a longer
 * Retry-After) gets what it asked, up to a day, for all of its messages, not just this one.
 *
 * @param failingSince the endpoint's first failure since its last success (this one if none)
 */
export function holdAfterFailure(outcome: AttemptOutcome, failingSince: Date, now: Date, scheduleMs: readonly number[]): number {
  const failingFor = now.getTime() - failingSince.getTime();
  const backoff = Math.min(Math.max(failingFor, scheduleMs[0]), Math.max(...scheduleMs));
  return Math.max(backoff, askedDelay(outcome));
}
