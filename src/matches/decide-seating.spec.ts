import type { ApiError } from '../common/api-error.js';
import { defaultSeatSeed } from '../domain/index.js';
import { decideClientSeed, decideJoin, decideLeave } from './decide-seating.js';
import { startedMatch, waitingMatch } from './spec/loaded-matches.js';
import { codeOf, commitOf, joiner } from './spec/decisions.js';

describe('decideJoin', () => {
  it('seats the player in the first free human seat and keeps the match WAITING, under the cap', () => {
    const c = commitOf(decideJoin(waitingMatch(['a', null, null]), joiner('b')));
    expect(c.status).toBe('WAITING');
    expect(c.seatChanges).toEqual([{ index: 1, playerId: 'b', clientSeed: 'mine' }]);
    expect(c.events).toEqual([{ type: 'PLAYER_JOINED', moveSeq: null, seat: 1 }]);
    expect(c.waitingCap).toEqual({ playerId: 'b', max: 10 });
    expect(c.expectedVersion).toBe(1);
  });

  it("seats the player in the seat asked for, and refuses a taken, a bot's or a missing one with nothing changed", () => {
    const r = waitingMatch(['a', null, null, 'bot']);
    expect(commitOf(decideJoin(r, joiner('b'), 'id', 2)).seatChanges).toEqual([{ index: 2, playerId: 'b', clientSeed: 'mine' }]);
    expect(commitOf(decideJoin(r, joiner('b'), 'invite', 1)).seatChanges?.[0].index).toBe(1);
    expect(codeOf(() => decideJoin(r, joiner('b'), 'id', 0))).toBe('MATCH_FULL');
    const taken = (() => {
      try {
        return decideJoin(r, joiner('b'), 'id', 0);
      } catch (e) {
        return e as ApiError;
      }
    })();
    expect(taken).toMatchObject({ code: 'MATCH_FULL', details: { freeSeats: [1, 2] } });
    expect(codeOf(() => decideJoin(r, joiner('b'), 'id', 3))).toBe('BAD_USER_INPUT');
    for (const bad of [-1, 4, 1.5]) expect(codeOf(() => decideJoin(r, joiner('b'), 'id', bad))).toBe('BAD_USER_INPUT');
    // A started match is full whichever seat is asked for; an ended one is over first.
    expect(codeOf(() => decideJoin(startedMatch(['a', 'c']), joiner('b'), 'id', 1))).toBe('MATCH_FULL');
    expect(codeOf(() => decideJoin({ ...r, status: 'FINISHED' }, joiner('b'), 'id', 9))).toBe('MATCH_NOT_IN_PROGRESS');
  });

  it("keeps the seat's seed for a joiner who brings none, in the seat and in the deal", () => {
    const waiting = commitOf(decideJoin(waitingMatch(['a', null, null]), { ...joiner('b'), clientSeed: null }));
    expect(waiting.seatChanges).toEqual([{ index: 1, playerId: 'b', clientSeed: 'seed-1' }]);
    const full = commitOf(decideJoin(waitingMatch(['a', null, 'bot']), { ...joiner('b'), clientSeed: null }));
    expect(full.state?.config.deal.clientSeeds).toEqual(['seed-0', 'seed-1', 'seed-2']);
  });

  it('deals round 1 in the same commit when the player fills the table (no WAITING cap then)', () => {
    const c = commitOf(decideJoin(waitingMatch(['a', null, 'bot']), joiner('b')));
    expect(c.status).toBe('IN_PROGRESS');
    expect(c.started).toBe(true);
    expect(c.waitingCap).toBeUndefined();
    expect(c.events.slice(0, 3).map((e) => e.type)).toEqual(['PLAYER_JOINED', 'MATCH_STARTED', 'ROUND_STARTED']);
    expect(c.state?.config.deal.clientSeeds).toEqual(['seed-0', 'mine', 'seed-2']);
  });

  it('checks in order: ended, already seated, then the status, then a free seat', () => {
    // An ended match is not in progress, to its own players too: no other request fixes that.
    expect(codeOf(() => decideJoin(waitingMatch(['a', null], { status: 'ABANDONED' }), joiner('a')))).toBe('MATCH_NOT_IN_PROGRESS');
    expect(codeOf(() => decideJoin({ ...startedMatch(['a', 'b']), status: 'FINISHED' as const }, joiner('a')))).toBe('MATCH_NOT_IN_PROGRESS');
    // Seated in a started match: "already sit" wins over "full".
    expect(codeOf(() => decideJoin(startedMatch(['a', 'b']), joiner('a')))).toBe('BAD_USER_INPUT');
    expect(codeOf(() => decideJoin(startedMatch(['a', 'b']), joiner('c')))).toBe('MATCH_FULL');
    expect(codeOf(() => decideJoin(waitingMatch(['a', null], { status: 'ABANDONED' }), joiner('c')))).toBe('MATCH_NOT_IN_PROGRESS');
    expect(codeOf(() => decideJoin(waitingMatch(['a', null], { status: 'FINISHED' }), joiner('c')))).toBe('MATCH_NOT_IN_PROGRESS');
    // A WAITING match whose only free seats are bots' is full to humans.
    expect(codeOf(() => decideJoin(waitingMatch(['a', 'b', 'bot']), joiner('c')))).toBe('MATCH_FULL');
  });
});

describe('decideLeave', () => {
  it("frees the seat with its default seed back (the leaver's own is dropped); the match stays WAITING while someone sits", () => {
    const r = { ...waitingMatch(['a', 'b', null]), dealCommitment: 'c0ffee' };
    const c = commitOf(decideLeave(r, 'b'));
    expect(c.status).toBe('WAITING');
    expect(c.finished).toBe(false);
    expect(c.seatChanges).toEqual([{ index: 1, playerId: null, clientSeed: defaultSeatSeed('c0ffee', 1) }]);
    expect(c.events).toEqual([{ type: 'PLAYER_LEFT', moveSeq: null, seat: 1 }]);
  });

  it('abandons the match when the last player leaves (bots do not count)', () => {
    const c = commitOf(decideLeave(waitingMatch(['a', null, 'bot']), 'a'));
    expect(c.status).toBe('ABANDONED');
    expect(c.finished).toBe(true);
  });

  it('refuses a stranger before looking at the status, and a started match', () => {
    expect(codeOf(() => decideLeave(startedMatch(['a', 'b']), 'c'))).toBe('FORBIDDEN');
    expect(codeOf(() => decideLeave(startedMatch(['a', 'b']), 'a'))).toBe('MATCH_NOT_IN_PROGRESS');
  });

  it('tells a player to resign only from a match that is on', () => {
    expect(() => decideLeave(startedMatch(['a', 'b']), 'a')).toThrow('this one started: resign instead');
    expect(() => decideLeave(waitingMatch(['a', null], { status: 'ABANDONED' }), 'a')).toThrow('this one is ABANDONED');
  });
});

describe('decideClientSeed', () => {
  it('changes only the caller seat, while WAITING', () => {
    const c = commitOf(decideClientSeed(waitingMatch(['a', 'b', null]), 'b', 'new'));
    expect(c.seatChanges).toEqual([{ index: 1, playerId: 'b', clientSeed: 'new' }]);
    expect(c.events).toEqual([{ type: 'CLIENT_SEED_SET', moveSeq: null, seat: 1 }]);
    expect(codeOf(() => decideClientSeed(waitingMatch(['a', null]), 'z', 'new'))).toBe('FORBIDDEN');
    expect(codeOf(() => decideClientSeed(startedMatch(['a', 'b']), 'a', 'new'))).toBe('MATCH_NOT_IN_PROGRESS');
  });
});
