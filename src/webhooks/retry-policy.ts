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

/**
 * When a failing endpoint is held, and for how long: the claim then takes none of its messages
 * until the hold is over, and then one at a time until one is delivered (the probe). A receiver
 * that is down, or a host that never asked for these requests, thus gets one request per hold
 * rather than one per message and retry: no player can turn a stream of moves into a flood of
 * requests at someone else's server. Applied by WebhookDeliveriesRepository.recordAttempts, in the
 * statement that records the failure, from the endpoint's row as it is then (another instance's
 * outcomes included):
 *
 * - held once `HOLD_AFTER_FAILURES` attempts in a row failed, at once on a 429 or 503 that asks for
 *   time (Retry-After), and after every failure of a held endpoint: a lone failure (a receiver
 *   that rejects one message, a blip) costs nothing but that message's retry;
 * - for as long as the endpoint has been failing (so each failed probe doubles the wait), from the
 *   schedule's first delay to its longest, or as long as a Retry-After asks when that is longer
 *   (up to a day); never shortened by a later failure.
 */
export const HOLD_AFTER_FAILURES = 5;

/** The shortest and longest hold: the schedule's first delay (at least a second) and its longest. */
export function holdBounds(scheduleMs: readonly number[]): { minMs: number; maxMs: number } {
  const minMs = Math.max(scheduleMs[0], 1000);
  return { minMs, maxMs: Math.max(minMs, ...scheduleMs) };
}

/** The delay a 429 or 503 asked for with its Retry-After (at most a day), or 0. */
export function askedDelay(outcome: AttemptOutcome): number {
  const status = outcome.statusCode;
  return (status === 429 || status === 503) && outcome.retryAfterMs !== null ? Math.min(outcome.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
}
