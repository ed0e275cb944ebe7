import { ApiError } from '../common/api-error.js';
import { apply, legalMoves, type Action, type MatchState } from '../domain/index.js';
import { decideResign, decideServerMove, decideTurn, turnKey, type TurnCommand } from './decide-turn.js';
import { startedMatch, waitingMatch } from './spec/loaded-matches.js';
import { codeOf, commitOf } from './spec/decisions.js';

const draw = (seat: number): Action => ({ type: 'DRAW', seat });

describe('decideTurn', () => {
  const r = startedMatch(['a', 'b']);
  const mover = r.seats[r.state!.round.turn].playerId!;
  const other = mover === 'a' ? 'b' : 'a';
  const legal = legalMoves(r.state!, r.state!.round.turn)[0];
  const play = (seat: number): Action => ({ type: 'PLAY', seat, tile: legal.tile, end: legal.end });
  const turn = (playerId: string, extra: Partial<TurnCommand> = {}): TurnCommand => ({ playerId, actionFor: play, earlier: null, ...extra });

  it('commits the engine move with the idempotency key and the actor', () => {
    const c = commitOf(decideTurn(r, turn(mover, { clientMoveId: 'k1' })));
    expect(c.moves[0]).toMatchObject({ type: 'PLAY', tile: legal.tile });
    expect(c.clientMoveId).toBe('k1');
    expect(c.playerId).toBe(mover);
    expect(c.expectedVersion).toBe(r.version);
  });

  it('answers a retry of a stored command again, whatever the match now is', () => {
    const earlier = { seq: 1, seat: 0, type: 'PLAY' as const, tile: legal.tile, end: legal.end };
    const finished = { ...r, status: 'FINISHED' as const };
    expect(decideTurn(finished, turn(mover, { clientMoveId: 'k1', earlier }))).toEqual({ unchanged: true, reread: true });
    // An omitted end matches the end it was given.
    const noEnd = (seat: number): Action => ({ type: 'PLAY', seat, tile: { high: legal.tile.low, low: legal.tile.high }, end: null });
    expect(decideTurn(r, turn(mover, { actionFor: noEnd, clientMoveId: 'k1', earlier }))).toEqual({ unchanged: true, reread: true });
  });

  it('refuses a reused clientMoveId on another move, naming the stored one', () => {
    const earlier = { seq: 7, seat: 0, type: 'PLAY' as const, tile: legal.tile, end: legal.end };
    let error: ApiError | undefined;
    try {
      decideTurn(r, turn(mover, { actionFor: draw, clientMoveId: 'k1', earlier }));
    } catch (e) {
      error = e as ApiError;
    }
    expect(error?.code).toBe('BAD_USER_INPUT');
    expect(error?.details).toMatchObject({ moveSeq: 7 });
  });

  it('refuses a reused clientMoveId with a tile that does not exist as another move, not as a crash', () => {
    const earlier = { seq: 7, seat: 0, type: 'PLAY' as const, tile: legal.tile, end: legal.end };
    for (const tile of [
      { high: 9, low: 9 },
      { high: 7, low: 0 },
      { high: 1.5, low: 0 },
    ]) {
      const noTile = (seat: number): Action => ({ type: 'PLAY', seat, tile, end: null });
      let error: unknown;
      try {
        decideTurn(r, turn(mover, { actionFor: noTile, clientMoveId: 'k1', earlier }));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: 'BAD_USER_INPUT', details: { moveSeq: 7 } });
    }
  });

  it('decided again after losing a race, refuses a move whose turn ended (TURN_ENDED), and judges one in the same turn', () => {
    const seat = r.state!.round.turn;
    const seen = turnKey(r.state!, seat);
    // The same turn, a version later (a clock reminder, say): judged as usual.
    expect(commitOf(decideTurn({ ...r, version: r.version + 1 }, turn(mover, { turnSeen: seen }))).moves[0]).toMatchObject({ type: 'PLAY' });
    // The turn moved on (here: the mover played, then the other seat moved): refused whatever the move.
    let state: MatchState = r.state!;
    for (const s of [seat, 1 - seat]) {
      const [move] = legalMoves(state, s);
      const next = apply(state, move ? { type: 'PLAY', seat: s, tile: move.tile, end: move.end } : { type: 'DRAW', seat: s });
      if (!next.ok) throw new Error(next.violation.message);
      state = next.state;
    }
    expect(state.round.turn).toBe(seat);
    expect(turnKey(state, seat)).not.toBe(seen);
    const later = { ...r, version: r.version + 2, state };
    let error: ApiError | undefined;
    try {
      decideTurn(later, turn(mover, { actionFor: draw, turnSeen: seen }));
    } catch (e) {
      error = e as ApiError;
    }
    expect({ code: error?.code, details: error?.details }).toEqual({
      code: 'NOT_YOUR_TURN',
      details: { reason: 'TURN_ENDED', version: later.version },
    });
    // A first decision (nothing seen yet) on that state is an ordinary move.
    expect(() => decideTurn(later, turn(mover, { actionFor: (s) => ({ type: 'PLAY', seat: s, ...legalMoves(state, s)[0] }) }))).not.toThrow();
  });

  it("keeps a seat's turn while it draws: its own moves do not begin another", () => {
    const seat = r.state!.round.turn;
    const own = {
      ...r.state!,
      round: {
        ...r.state!.round,
        moves: [...r.state!.round.moves, { seq: 99, round: 1, seat, type: 'DRAW' as const, tile: null, end: null, points: 0, count: null }],
      },
    };
    expect(turnKey(own, seat)).toBe(turnKey(r.state!, seat));
  });

  it('checks in order: match over, seated, version, then the engine', () => {
    const over = { ...r, status: 'FINISHED' as const };
    expect(codeOf(() => decideTurn(over, turn('stranger', { expectedVersion: 0 })))).toBe('MATCH_NOT_IN_PROGRESS');
    expect(codeOf(() => decideTurn(waitingMatch(['a', null]), turn('a')))).toBe('MATCH_NOT_IN_PROGRESS');
    expect(codeOf(() => decideTurn(r, turn('stranger', { expectedVersion: 0 })))).toBe('FORBIDDEN');
    // A stale version wins over "not your turn".
    expect(codeOf(() => decideTurn(r, turn(other, { expectedVersion: r.version - 1 })))).toBe('STALE_VERSION');
    expect(codeOf(() => decideTurn(r, turn(other)))).toBe('NOT_YOUR_TURN');
    expect(
      codeOf(() => decideTurn(r, turn(mover, { expectedVersion: r.version, actionFor: (seat) => ({ ...play(seat), tile: { high: 9, low: 9 } }) }))),
    ).toBe('BAD_USER_INPUT');
  });
});

describe('decideServerMove', () => {
  it('does nothing without an action or once the match is over', () => {
    const r = startedMatch(['a', 'b']);
    expect(decideServerMove(r, null)).toEqual({ unchanged: true });
    expect(decideServerMove({ ...r, status: 'FINISHED' }, draw(r.state!.round.turn))).toEqual({ unchanged: true });
  });
});

describe('decideResign', () => {
  it('with two sides, the other side wins; before round 1 ended, unrated', () => {
    const c = commitOf(decideResign(startedMatch(['a', 'b']), 'a'));
    expect(c.status).toBe('FINISHED');
    expect(c.winnerTeam).toBe(1);
    expect(c.unrated).toBe(true);
    expect(c.events.map((e) => e.type)).toEqual(['RESIGNED', 'MATCH_FINISHED']);
    // The feed and the match record say which seat resigned.
    expect(c.events[0].seat).toBe(0);
  });

  it('with three sides, the best-placed other side wins, ties to the lower team', () => {
    const r = startedMatch(['a', 'b', 'c']);
    const scored = { ...r, state: { ...r.state!, scores: [5, 20, 20] } };
    expect(commitOf(decideResign(scored, 'b')).winnerTeam).toBe(2);
    expect(commitOf(decideResign(scored, 'a')).winnerTeam).toBe(1);
    const leader = { ...r, state: { ...r.state!, scores: [30, 10, 15] } };
    expect(commitOf(decideResign(leader, 'a')).winnerTeam).toBe(2);
  });

  it('partners resign for their side', () => {
    const r = startedMatch(['a', 'b', 'c', 'd'], { partnerships: true });
    expect(commitOf(decideResign(r, 'c')).winnerTeam).toBe(1);
  });

  it('refuses a stranger, then a match not in progress', () => {
    expect(codeOf(() => decideResign(startedMatch(['a', 'b']), 'z'))).toBe('FORBIDDEN');
    expect(codeOf(() => decideResign(waitingMatch(['a', null]), 'a'))).toBe('MATCH_NOT_IN_PROGRESS');
  });
});
