/**
 * Where the service reads the time: injected (CLOCK), so tests can drive deadlines with a fake
 * clock. Everything that computes with time takes `now` as an argument (clock-rules.ts).
 */
export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export const CLOCK = Symbol('CLOCK');

export const systemClock: Clock = { now: () => Date.now() };
