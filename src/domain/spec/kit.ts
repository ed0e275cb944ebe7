/**
 * Test kit for the domain specs (plain functions, no test-framework imports): fixed positions,
 * short tile notation, a brute-force legal-move oracle and a seeded random driver.
 */
import { buildBoard, countOf } from '../board.js';
import { apply, newMatch } from '../match.js';
import { canDraw, legalMoves } from '../legal.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { DEAL_CHAIN_LENGTH, roundStream, shuffleDeck } from '../fair-deal.js';
import type { DealSource } from '../types.js';
import { makeRng, randInt } from '../rng.js';
import { lotLeader } from '../round.js';
import { resolveRules } from '../rules.js';
import { ALL_TILES, compareTiles, normalizeTile } from '../tiles.js';
import type { Action, DomainEvent, End, LegalMove, MatchConfig, MatchState, MoveRecord, Rules, Tile } from '../types.js';

/** '6-4' → the canonical 6-4 tile (either order). */
export function t(s: string): Tile {
  const [a, b] = s.split('-').map(Number);
  return normalizeTile({ high: a, low: b });
}

export function hand(...tiles: string[]): Tile[] {
  return tiles.map(t).sort(compareTiles);
}

export interface Position {
  seats?: number;
  partnerships?: boolean;
  rules?: Partial<Rules>;
  hands: string[][];
  boneyard?: string[];
  plays?: [string, End | null][];
  turn?: number;
  scores?: number[];
  mustPlay?: string | null;
}

/** A live match at a hand-built position (the tiles need not be all 28). */
export function position(p: Position): MatchState {
  const seats = p.seats ?? p.hands.length;
  const partnerships = p.partnerships ?? false;
  const rules = resolveRules({ targetScore: 250, ...p.rules });
  const base = newMatch({ seats, partnerships, rules, deal: testDeal(7, seats) }).state;
  const plays = (p.plays ?? []).map(([tile, end]) => ({ tile: t(tile), end }));
  const board = buildBoard(plays, rules.spinner);
  // The layout's plays also go in the move log (seats in turn order before `turn`), as in a real
  // round: views and bots rebuild the layout from it.
  const turn = p.turn ?? 0;
  const moves: MoveRecord[] = plays.map((play, i) => {
    const count = countOf(buildBoard(plays.slice(0, i + 1), rules.spinner), rules);
    const seat = (((turn - plays.length + i) % seats) + seats) % seats;
    return { seq: i + 1, round: 1, seat, type: 'PLAY', tile: play.tile, end: play.end, points: 0, count };
  });
  return {
    ...base,
    lastSeq: moves.length,
    scores: p.scores ?? base.scores,
    round: {
      ...base.round,
      hands: p.hands.map((h) => hand(...h)),
      boneyard: (p.boneyard ?? []).map(t),
      board,
      turn: p.turn ?? 0,
      starter: p.turn ?? 0,
      mustPlay: p.mustPlay ? t(p.mustPlay) : null,
      moves,
    },
  };
}

/**
 * A fixed deal source numbered by `seed`: the chain's S_N is SHA-256 of the text "test-<seed>" (so
 * every fixed deal below can be re-derived from that text), the match id and client seeds are
 * fixed strings.
 */
export function testDeal(seed: number, seats: number): DealSource {
  return {
    matchId: `test-match-${seed}`,
    clientSeeds: Array.from({ length: seats }, (_, i) => `seat-${i}`),
    anchor: { round: DEAL_CHAIN_LENGTH, secret: bytesToHex(sha256(utf8ToBytes(`test-${seed}`))) },
  };
}

export function config(seats: number, partnerships = false, rules: Partial<Rules> = {}, seed = 1): MatchConfig {
  return { seats, partnerships, rules: resolveRules(rules), deal: testDeal(seed, seats) };
}

/** The lot of round `round`, re-read from its stream where the shuffle stopped. */
export function lotOf(deal: DealSource, round: number, seats: number, rules: Pick<Rules, 'firstLeader'>): number {
  const stream = roundStream(deal, round);
  shuffleDeck(stream);
  return lotLeader(stream, seats, rules);
}

/** apply() that must succeed. */
export function ok(state: MatchState, action: Action): { state: MatchState; events: readonly DomainEvent[] } {
  const res = apply(state, action);
  if (!res.ok) throw new Error(`refused ${JSON.stringify(action)}: ${res.violation.code} ${res.violation.message}`);
  return res;
}

export function play(state: MatchState, tile: string, end?: End | null): { state: MatchState; events: readonly DomainEvent[] } {
  return ok(state, { type: 'PLAY', seat: state.round.turn, tile: t(tile), end });
}

const moveKey = (m: LegalMove): string => `${m.tile.high}-${m.tile.low}@${m.end ?? 'LEAD'}`;

/** Brute force: every tile × every end (or no end for the lead) through apply, keeping the accepted. */
export function oracleMoves(state: MatchState, seat: number): string[] {
  const ends: (End | null)[] = state.round.board.lead === null ? [null] : ['LEFT', 'RIGHT', 'UP', 'DOWN'];
  const out: string[] = [];
  for (const tile of ALL_TILES) {
    for (const end of ends) {
      if (apply(state, { type: 'PLAY', seat, tile, end }).ok) out.push(moveKey({ tile, end }));
    }
  }
  return out.sort();
}

export function engineMoves(state: MatchState, seat: number): string[] {
  return legalMoves(state, seat).map(moveKey).sort();
}

/** Every action the seat to move may take: its legal plays, then DRAW when allowed. */
export function actionsAt(state: MatchState): Action[] {
  const seat = state.round.turn;
  const acts: Action[] = legalMoves(state, seat).map((m) => ({ type: 'PLAY', seat, tile: m.tile, end: m.end }));
  if (canDraw(state, seat)) acts.push({ type: 'DRAW', seat });
  return acts;
}

/** perft: the number of action sequences of length `depth` (a finished round/match is a leaf). */
export function perft(state: MatchState, depth: number, gen: (s: MatchState) => Action[] = actionsAt): number {
  if (depth === 0) return 1;
  let n = 0;
  for (const a of gen(state)) {
    const res = apply(state, a);
    if (!res.ok) throw new Error('generator produced an illegal action');
    n += res.state.round.number !== state.round.number || res.state.status === 'FINISHED' ? 1 : perft(res.state, depth - 1, gen);
  }
  return n;
}

/** The oracle as a generator: brute-force plays plus DRAW when apply accepts it. */
export function oracleActions(state: MatchState): Action[] {
  const seat = state.round.turn;
  const acts: Action[] = oracleMoves(state, seat).map((k) => {
    const [tile, end] = k.split('@');
    return { type: 'PLAY', seat, tile: t(tile), end: end === 'LEAD' ? null : (end as End) };
  });
  if (apply(state, { type: 'DRAW', seat }).ok) acts.push({ type: 'DRAW', seat });
  return acts;
}

/** A seeded driver: picks uniformly among actionsAt (draws included when allowed). */
export function randomPolicy(seed: number): (state: MatchState) => Action {
  const rng = makeRng(seed);
  return (state) => {
    const acts = actionsAt(state);
    if (acts.length === 0) throw new Error('no action available for the seat to move');
    return acts[randInt(rng, 0, acts.length - 1)];
  };
}

/** A seeded source of numbers in [0, 1), for tests that shuffle. */
export function makeRngFor(seed: number): () => number {
  const rng = makeRng(seed);
  return () => randInt(rng, 0, 0xfffffff) / 0x10000000;
}
