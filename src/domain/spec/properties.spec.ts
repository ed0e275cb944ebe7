/**
 * Property tests (fast-check) over random seeds, 2/3/4 seats, partnerships and every variant:
 * conservation of the 28 tiles, score bounds, termination, turn discipline, replay, the
 * brute-force legal-move oracle and view secrecy.
 */
import fc from 'fast-check';
import { countOf, endCounts, openEnds } from '../board.js';
import { apply, newMatch } from '../match.js';
import { actionsFromMoves, replayMatch } from '../replay.js';
import { tileKey } from '../tiles.js';
import { viewFor } from '../view.js';
import type { Action, MatchConfig, MatchState, MoveRecord, Rules, Tile } from '../types.js';
import { config, engineMoves, oracleMoves, randomPolicy } from './kit.js';

const rulesArb: fc.Arbitrary<Partial<Rules>> = fc.record({
  targetScore: fc.constantFrom(50, 100, 250),
  spinner: fc.constantFrom('FIRST_DOUBLE' as const, 'NONE' as const),
  spinnerEndsCount: fc.boolean(),
  voluntaryDraw: fc.boolean(),
  firstLeader: fc.constantFrom('DRAW' as const, 'RANDOM' as const),
  leadRule: fc.constantFrom('ANY' as const, 'HIGHEST_DOUBLE' as const),
  dominoRounding: fc.constantFrom('AGGREGATE' as const, 'PER_HAND' as const),
  blockedBonus: fc.constantFrom('OPPONENTS_TOTAL' as const, 'DIFFERENCE' as const),
  playOut: fc.boolean(),
  scoring: fc.constantFrom('FIVES' as const, 'FIVES_AND_THREES' as const, 'THREES_AND_FIVES' as const),
});

/** seats, partnerships, hand size and reserve that validateSetup accepts. */
const configArb: fc.Arbitrary<MatchConfig> = fc
  .record({
    table: fc.constantFrom([2, false], [3, false], [4, false], [4, true]),
    rules: rulesArb,
    seed: fc.maxSafeNat(),
    hand: fc.integer({ min: 3, max: 9 }),
    reserve: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ table: [seats, partnerships], rules, seed, hand, reserve }) => {
    const handSize = Math.min(hand, Math.floor(28 / seats));
    const bone = 28 - handSize * seats;
    return config(seats, partnerships, { ...rules, handSize, reserve: Math.min(reserve, bone) }, seed);
  });

/** Plays a whole match (or `maxActions` actions), calling `check` after every accepted action. */
function drive(
  cfg: MatchConfig,
  policySeed: number,
  check: (before: MatchState, action: Action, after: MatchState, events: readonly unknown[]) => void,
  maxActions = 2000,
): { state: MatchState; actions: Action[]; moves: MoveRecord[] } {
  let state = newMatch(cfg).state;
  const policy = randomPolicy(policySeed);
  const actions: Action[] = [];
  const moves: MoveRecord[] = [];
  while (state.status === 'IN_PROGRESS' && actions.length < maxActions) {
    const action = policy(state);
    const res = apply(state, action);
    if (!res.ok) throw new Error(`policy action refused: ${res.violation.code}`);
    actions.push(action);
    for (const e of res.events) if (e.type === 'ROUND_ENDED') moves.push(...e.finalRound.moves);
    check(state, action, res.state, res.events);
    state = res.state;
  }
  if (state.status === 'IN_PROGRESS') moves.push(...state.round.moves);
  return { state, actions, moves };
}

function allTilesOnce(state: MatchState): void {
  const r = state.round;
  const seen: string[] = [];
  r.hands.forEach((h) => h.forEach((x) => seen.push(tileKey(x))));
  r.boneyard.forEach((x) => seen.push(tileKey(x)));
  if (r.board.lead) seen.push(tileKey(r.board.lead));
  for (const arm of Object.values(r.board.arms)) arm.forEach((p) => seen.push(tileKey(p.tile)));
  expect(seen.length).toBe(28);
  expect(new Set(seen).size).toBe(28);
}

/** Every tile object anywhere in a JSON value. */
function tilesIn(value: unknown, out: Tile[] = []): Tile[] {
  if (Array.isArray(value)) value.forEach((v) => tilesIn(v, out));
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.high === 'number' && typeof o.low === 'number') out.push(o as unknown as Tile);
    else Object.values(o).forEach((v) => tilesIn(v, out));
  }
  return out;
}

const RUNS = Number(process.env.FC_RUNS ?? 60);

describe('invariants after every action', () => {
  it('28 tiles once, score bounds, bounded rounds, JSON round trip, seq without gaps', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        let seq = 0;
        let step = 0;
        drive(
          cfg,
          policySeed,
          (before, _action, after, events) => {
            allTilesOnce(after);
            if (++step % 5 === 0 || after.round.number !== before.round.number) expect(JSON.parse(JSON.stringify(after))).toStrictEqual(after);
            for (const e of events as { type: string; move?: MoveRecord }[]) {
              if (!e.move) continue;
              expect(e.move.seq).toBe(++seq);
              if (e.move.type === 'PLAY' && cfg.rules.scoring === 'FIVES') {
                expect(e.move.points % 5 === 0 && e.move.points <= 35).toBe(true);
              }
            }
            expect(after.lastSeq).toBe(seq);
            // Termination: at most 28 plays and one draw per boneyard tile; between two plays fewer
            // than `seats` passes (N in a row block the round).
            const boneyard = 28 - cfg.seats * cfg.rules.handSize;
            expect(after.round.moves.length).toBeLessThanOrEqual(28 + boneyard + cfg.seats * 29);
            if (after.round.status === 'IN_PROGRESS') expect(after.round.passesInRow).toBeLessThan(cfg.seats);
            expect(after.scores.every((s, i) => s >= before.scores[i])).toBe(true);
          },
          400,
        );
      }),
      { numRuns: 40 },
    );
  });
});

describe('the count in words', () => {
  it('splits C among the open ends: their shares add up to countOf after every play', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        drive(
          cfg,
          policySeed,
          (_before, _action, after) => {
            const board = after.round.board;
            const shares = endCounts(board, cfg.rules);
            expect(shares.map((e) => e.end)).toEqual(openEnds(board).map((e) => e.end));
            expect(shares.reduce((sum, e) => sum + e.counts, 0)).toBe(countOf(board, cfg.rules));
          },
          400,
        );
      }),
      { numRuns: 40 },
    );
  });
});

describe('turn discipline', () => {
  it('another seat gets NOT_YOUR_TURN and the state is untouched', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        drive(
          cfg,
          policySeed,
          (before, action) => {
            const copy = structuredClone(before);
            const other = (action.seat + 1) % cfg.seats;
            const res = apply(before, { ...action, seat: other });
            expect(res.ok).toBe(false);
            if (!res.ok) expect(res.violation.code).toBe('NOT_YOUR_TURN');
            expect(before).toStrictEqual(copy);
          },
          80,
        );
      }),
      { numRuns: 30 },
    );
  });
});

describe('replay', () => {
  it('replayMatch(config, actions) deep-equals the state; actionsFromMoves recovers the actions', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        const { state, actions, moves } = drive(cfg, policySeed, () => undefined);
        expect(replayMatch(cfg, actions)).toStrictEqual(state);
        expect(actionsFromMoves(moves).map((a) => ({ ...a, end: a.type === 'PLAY' ? (a.end ?? null) : undefined }))).toEqual(
          actions.map((a) => ({ ...a, end: a.type === 'PLAY' ? (a.end ?? null) : undefined })),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

describe('legal moves', () => {
  it('equal the brute-force oracle for the seat to move, and are empty for every other seat', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        drive(
          cfg,
          policySeed,
          (_b, _a, after) => {
            if (after.status !== 'IN_PROGRESS') return;
            for (let s = 0; s < cfg.seats; s++) {
              expect(engineMoves(after, s)).toEqual(oracleMoves(after, s));
            }
          },
          120,
        );
      }),
      { numRuns: 25 },
    );
  });
});

describe('views', () => {
  it('show no other seat’s live tile and no boneyard tile; no seed, no boneyard order', () => {
    fc.assert(
      fc.property(configArb, fc.integer(), (cfg, policySeed) => {
        drive(
          cfg,
          policySeed,
          (_b, _a, after) => {
            const r = after.round;
            if (r.status !== 'IN_PROGRESS') return;
            const viewers = [...Array.from({ length: cfg.seats }, (_, i) => i), 'spectator' as const];
            for (const viewer of viewers) {
              const view = viewFor(after, viewer);
              const json = JSON.stringify(view);
              expect(json).not.toMatch(/"seed"|"boneyard"|"deal"|[0-9a-f]{64}/i);
              const secret = new Set<string>(r.boneyard.map(tileKey));
              r.hands.forEach((h, s) => s !== viewer && h.forEach((x) => secret.add(tileKey(x))));
              const leaked = tilesIn(JSON.parse(json)).filter((x) => secret.has(tileKey(x)));
              if (leaked.length > 0) expect({ viewer, leaked }).toEqual({ viewer, leaked: [] });
            }
          },
          150,
        );
      }),
      { numRuns: 20 },
    );
  });
});
