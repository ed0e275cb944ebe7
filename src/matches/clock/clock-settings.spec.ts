import { ApiError } from '../../common/api-error.js';
import { MAX_CLOCK_SECONDS, resolveClock, type ClockRequest } from './clock-settings.js';

function problemOf(req: ClockRequest, min = 60): string {
  try {
    resolveClock(req, min);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'BAD_USER_INPUT') return e.message;
    throw e;
  }
  throw new Error('accepted');
}

describe('resolveClock', () => {
  it('fills the defaults of each kind and policy', () => {
    expect(resolveClock({ kind: 'PER_MOVE', moveSeconds: 86_400 }, 60)).toEqual({
      kind: 'PER_MOVE',
      moveSeconds: 86_400,
      bankSeconds: null,
      incrementSeconds: null,
      maxBankSeconds: null,
      onTimeout: 'BOT_PLAYS',
      forfeitAfter: 3,
    });
    expect(resolveClock({ kind: 'BANK', bankSeconds: 600, onTimeout: 'FORFEIT' }, 60)).toEqual({
      kind: 'BANK',
      moveSeconds: null,
      bankSeconds: 600,
      incrementSeconds: 0,
      maxBankSeconds: 600,
      onTimeout: 'FORFEIT',
      forfeitAfter: 0,
    });
    expect(
      resolveClock({ kind: 'BANK', bankSeconds: 60, incrementSeconds: 0, maxBankSeconds: MAX_CLOCK_SECONDS, forfeitAfter: 0 }, 60).forfeitAfter,
    ).toBe(0);
  });

  it.each<[string, ClockRequest, RegExp]>([
    ['below CLOCK_MIN_SECONDS', { kind: 'PER_MOVE', moveSeconds: 59 }, /moveSeconds must be a whole number of seconds from 60 to 2592000 \(got 59\)/],
    ['over 30 days', { kind: 'BANK', bankSeconds: MAX_CLOCK_SECONDS + 1 }, /bankSeconds must be .* to 2592000/],
    ['not whole', { kind: 'PER_MOVE', moveSeconds: 90.5 }, /moveSeconds must be a whole number/],
    ['PER_MOVE without its time', { kind: 'PER_MOVE' }, /moveSeconds is required with kind PER_MOVE/],
    ['BANK without its bank', { kind: 'BANK', incrementSeconds: 5 }, /bankSeconds is required with kind BANK/],
    ['a bank field on PER_MOVE', { kind: 'PER_MOVE', moveSeconds: 60, incrementSeconds: 5 }, /incrementSeconds does not apply to kind PER_MOVE/],
    ['moveSeconds on BANK', { kind: 'BANK', bankSeconds: 60, moveSeconds: 60 }, /moveSeconds does not apply to kind BANK/],
    ['a cap below the bank', { kind: 'BANK', bankSeconds: 600, maxBankSeconds: 300 }, /maxBankSeconds must be at least bankSeconds/],
    [
      'forfeitAfter with FORFEIT',
      { kind: 'PER_MOVE', moveSeconds: 60, onTimeout: 'FORFEIT', forfeitAfter: 2 },
      /forfeitAfter does not apply to onTimeout FORFEIT/,
    ],
    [
      'a negative forfeitAfter',
      { kind: 'PER_MOVE', moveSeconds: 60, forfeitAfter: -1 },
      /forfeitAfter must be a whole number of timeouts from 0 to 100/,
    ],
  ])('refuses %s', (_what, req, message) => {
    expect(problemOf(req)).toMatch(message);
  });

  it('lists every problem at once, and honours a lower minimum', () => {
    expect(problemOf({ kind: 'BANK', moveSeconds: 1, bankSeconds: 1 }).split('; ')).toHaveLength(2);
    expect(resolveClock({ kind: 'PER_MOVE', moveSeconds: 1 }, 1).moveSeconds).toBe(1);
  });
});
