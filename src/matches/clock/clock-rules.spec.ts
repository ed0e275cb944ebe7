import { bankAfterTurn, bankLeftMs, deadlineOf, forfeits, startingBankMs, warnAt } from './clock-rules.js';
import { resolveClock } from './clock-settings.js';

const perMove = resolveClock({ kind: 'PER_MOVE', moveSeconds: 100 }, 1);
const bank = resolveClock({ kind: 'BANK', bankSeconds: 100, incrementSeconds: 30, maxBankSeconds: 150 }, 1);

describe('clock arithmetic', () => {
  it('gives a PER_MOVE turn its moveSeconds and a BANK turn what is in the bank', () => {
    expect(deadlineOf(perMove, 1_000, 0)).toBe(101_000);
    expect(startingBankMs(bank)).toBe(100_000);
    expect(deadlineOf(bank, 1_000, 42_000)).toBe(43_000);
    expect(deadlineOf(bank, 1_000, 0)).toBe(1_000); // an empty bank is due at once
  });

  it('warns when 80 % of the turn is gone', () => {
    expect(warnAt(1_000, 101_000)).toBe(81_000);
    expect(warnAt(0, 7)).toBe(5);
  });

  it('adds the increment after a turn and caps the bank', () => {
    expect(bankAfterTurn(bank, 100_000, 10_000)).toBe(120_000);
    expect(bankAfterTurn(bank, 140_000, 1_000)).toBe(150_000); // capped at maxBankSeconds
    expect(bankAfterTurn(bank, 20_000, 25_000)).toBe(30_000); // ran out: nothing left, plus the increment
    expect(bankAfterTurn(perMove, 0, 5_000)).toBe(0);
  });

  it('counts a running bank down and never below zero', () => {
    expect(bankLeftMs(60_000, null, 999_999)).toBe(60_000);
    expect(bankLeftMs(60_000, 1_000, 21_000)).toBe(40_000);
    expect(bankLeftMs(60_000, 1_000, 500_000)).toBe(0);
  });

  it('forfeits on the first timeout with FORFEIT, after forfeitAfter in a row with BOT_PLAYS, never with 0', () => {
    const forfeit = resolveClock({ kind: 'PER_MOVE', moveSeconds: 60, onTimeout: 'FORFEIT' }, 1);
    expect(forfeits(forfeit, 1)).toBe(true);
    expect([1, 2, 3].map((n) => forfeits(perMove, n))).toEqual([false, false, true]);
    const never = resolveClock({ kind: 'PER_MOVE', moveSeconds: 60, forfeitAfter: 0 }, 1);
    expect(forfeits(never, 1_000)).toBe(false);
  });
});
