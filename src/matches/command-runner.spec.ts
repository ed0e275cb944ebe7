import { apply, legalMoves, newMatch, resolveRules, type ApplyResult, type MatchState } from '../domain/index.js';
import { turnHandedTo } from './command-runner.js';
import { testDeal } from '../domain/spec/kit.js';
import type { LoadedMatch } from './loaded-match.js';
import { NO_MATCHMAKING } from './spec/loaded-matches.js';

const PLAYERS = ['p0', 'p1', 'p2'];

function loadedMatchOf(state: MatchState): LoadedMatch {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    status: state.status,
    version: 1,
    seatCount: state.config.seats,
    partnerships: false,
    rules: state.config.rules,
    chainSecret: state.config.deal.anchor.secret,
    dealCommitment: '',
    state,
    lastEventSeq: 0,
    createdAt: new Date(0),
    winnerTeam: state.winner,
    seats: Array.from({ length: state.config.seats }, (_, index) => ({
      index,
      playerId: PLAYERS[index],
      playerName: PLAYERS[index],
      team: index,
      isBot: false,
      botStrategy: null,
      clientSeed: state.config.deal.clientSeeds[index],
    })),
    matchmaking: { ...NO_MATCHMAKING },
  };
}

/** Plays first-legal-move games over many seeds and returns the first step `pick` accepts. */
function findStep(pick: (before: MatchState, res: Extract<ApplyResult, { ok: true }>) => boolean): {
  before: MatchState;
  res: Extract<ApplyResult, { ok: true }>;
} {
  for (let seed = 1; seed < 500; seed++) {
    let { state } = newMatch({ seats: 3, partnerships: false, rules: resolveRules({ targetScore: 10_000 }), deal: testDeal(seed, 3) });
    for (let i = 0; i < 300; i++) {
      const seat = state.round.turn;
      const moves = legalMoves(state, seat);
      const res = apply(state, moves.length ? { type: 'PLAY', seat, tile: moves[0].tile, end: moves[0].end } : { type: 'DRAW', seat });
      if (!res.ok) throw new Error(res.violation.code);
      if (pick(state, res)) return { before: state, res };
      state = res.state;
    }
  }
  throw new Error('no such step in 500 games');
}

const movesOf = (res: Extract<ApplyResult, { ok: true }>) => res.events.flatMap((e) => ('move' in e ? [e.move] : []));
const sameRound = (a: MatchState, b: MatchState) => a.round.number === b.round.number;

describe('turnHandedTo (who myTurns tells)', () => {
  it('tells the next seat after a play hands the turn on', () => {
    const { before, res } = findStep((b, r) => sameRound(b, r.state) && r.state.round.turn !== b.round.turn);
    expect(turnHandedTo(loadedMatchOf(before), loadedMatchOf(res.state), movesOf(res))).toBe(PLAYERS[res.state.round.turn]);
  });

  it('tells the same seat again when every other seat passed in the same commit', () => {
    const { before, res } = findStep(
      (b, r) => sameRound(b, r.state) && r.state.round.turn === b.round.turn && r.events.some((e) => e.type === 'TURN_PASSED'),
    );
    expect(turnHandedTo(loadedMatchOf(before), loadedMatchOf(res.state), movesOf(res))).toBe(PLAYERS[before.round.turn]);
  });

  it('tells nobody after a seat draws and is still to move', () => {
    const { before, res } = findStep(
      (b, r) => sameRound(b, r.state) && r.state.round.turn === b.round.turn && r.events.every((e) => e.type === 'TILE_DRAWN'),
    );
    expect(turnHandedTo(loadedMatchOf(before), loadedMatchOf(res.state), movesOf(res))).toBeNull();
  });

  it('tells the leader of a new round, even when it is the seat that just moved', () => {
    const { before, res } = findStep((b, r) => !sameRound(b, r.state) && r.state.round.turn === b.round.turn);
    expect(turnHandedTo(loadedMatchOf(before), loadedMatchOf(res.state), movesOf(res))).toBe(PLAYERS[before.round.turn]);
  });
});
