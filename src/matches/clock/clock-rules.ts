import type { ClockSettings } from './clock-settings.js';

/*
 * The clock's arithmetic, as pure functions of the settings and of times in milliseconds since
 * the epoch: nothing here reads the time, so every rule is tested with a fake clock.
 */

/** The share of a turn's time after which DEADLINE_SOON is sent. */
export const WARN_SHARE = 0.8;

const ms = (seconds: number) => seconds * 1000;

/** A seat's bank when the match starts (BANK), or 0 (PER_MOVE keeps no bank). */
export function startingBankMs(settings: ClockSettings): number {
  return settings.kind === 'BANK' ? ms(settings.bankSeconds!) : 0;
}

/** How long a turn beginning with `bankMs` in the seat's bank may last. */
export function turnAllowanceMs(settings: ClockSettings, bankMs: number): number {
  return settings.kind === 'PER_MOVE' ? ms(settings.moveSeconds!) : Math.max(0, bankMs);
}

/** When a turn that began at `since` runs out. */
export function deadlineOf(settings: ClockSettings, since: number, bankMs: number): number {
  return since + turnAllowanceMs(settings, bankMs);
}

/** When 80 % of a turn's time is gone (DEADLINE_SOON). */
export function warnAt(since: number, deadline: number): number {
  return since + Math.floor((deadline - since) * WARN_SHARE);
}

/**
 * A BANK seat's bank after a turn that took `usedMs`: what was left (never below 0: a seat that
 * ran out has 0) plus the increment, capped at maxBankSeconds. PER_MOVE keeps no bank.
 */
export function bankAfterTurn(settings: ClockSettings, bankMs: number, usedMs: number): number {
  if (settings.kind !== 'BANK') return 0;
  return Math.min(ms(settings.maxBankSeconds!), Math.max(0, bankMs - usedMs) + ms(settings.incrementSeconds!));
}

/** Whether a seat that has just timed out for the `inRow`-th time in a row forfeits the match. */
export function forfeits(settings: ClockSettings, inRow: number): boolean {
  return settings.onTimeout === 'FORFEIT' || (settings.forfeitAfter > 0 && inRow >= settings.forfeitAfter);
}

/** A BANK seat's time left at `now`: its bank, less the time its running turn has taken so far. */
export function bankLeftMs(bankMs: number, runningSince: number | null, now: number): number {
  return runningSince === null ? bankMs : Math.max(0, bankMs - (now - runningSince));
}
