/**
 * The expert bot: determinized search over the hidden tiles (Perfect Information Monte Carlo).
 *
 * From its own view only, it infers what each pass and draw proves (inference.ts), deals the
 * hidden tiles consistently many times (sampler.ts), and in each deal plays every candidate move
 * followed by the rest of the round under the greedy policy for every seat (rollout.ts). A move is
 * worth its mean points difference to the round's end (its side's points minus the others'),
 * plus a large bonus or penalty when the match is won or lost in that deal. Every candidate meets
 * the same deals (common random numbers), so differences between moves are measured, not noise.
 *
 * The domain has no clock: the work is bounded by a node budget (each simulated play, draw or
 * pass is a node), which makes the choice reproducible from the seed; a caller that also wants a
 * time bound passes `now` and `timeMs`, and the search stops at the first deal that would end past it.
 */
import type { Action, LegalMove, MatchView } from '../types.js';
import { boardOfView, botSeat } from './common.js';
import { inferKnowledge } from './inference.js';
import { maskOf } from './masks.js';
import { endIndex, FastBoard } from './fast-board.js';
import { rollout, Sim, simPlay, type Table } from './rollout.js';
import { botRng } from './rng.js';
import { worldSampler } from './sampler.js';

export interface SearchBudget {
  /** Simulated moves over the whole search: the reproducible bound. */
  readonly nodes: number;
  /** An optional wall-clock bound, checked between deals with `now` (milliseconds). */
  readonly timeMs?: number;
  readonly now?: () => number;
}

export const DEFAULT_SEARCH_NODES = 4_000;

/**
 * The share of a move's time budget the search itself may use: the rest is headroom for the
 * view's trip to a worker and back, and for a shared machine descheduling the thread mid-search.
 */
export const SEARCH_TIME_SHARE = 0.5;

/** What winning (or losing) the match in a deal is worth, in points: more than any round can bring. */
const MATCH_BONUS = 500;

/** Never fewer deals than this, whatever the clock says, so a move is never chosen on a single sample. */
const MIN_DEALS = 2;

export interface SearchReport {
  readonly action: Action;
  readonly deals: number;
  readonly nodes: number;
  readonly values: readonly number[]; // mean value per legal move, in legal-move order
}

export function expertSearch(view: MatchView, seed: number, budget: SearchBudget): SearchReport {
  const seat = botSeat(view);
  const moves: readonly LegalMove[] = view.legalMoves;
  if (moves.length === 0) {
    if (view.canDraw) return { action: { type: 'DRAW', seat }, deals: 0, nodes: 0, values: [] };
    throw new Error(`seat ${seat} has no move to make`);
  }
  const play = (m: LegalMove): Action => ({ type: 'PLAY', seat, tile: m.tile, end: m.end });
  if (moves.length === 1) return { action: play(moves[0]), deals: 0, nodes: 0, values: [0] };

  const sample = worldSampler(inferKnowledge(view), maskOf(view.hand ?? []));
  const board = FastBoard.from(boardOfView(view), view.rules.spinner, view.rules.spinnerEndsCount);
  const table: Table = { rules: view.rules, teamOfSeat: view.teamOfSeat, teams: view.teams, scores: view.scores };
  const myTeam = view.teamOfSeat[seat];
  const rng = botRng(seed);
  const sums = new Array<number>(moves.length).fill(0);
  const started = budget.now?.() ?? 0;
  const sim = new Sim(table);
  const ends = moves.map((m) => (m.end === null ? 0 : endIndex(m.end)));
  const values = new Array<number>(moves.length).fill(0);
  const outOfTime = (): boolean => budget.now !== undefined && budget.timeMs !== undefined && budget.now() - started >= budget.timeMs;
  let nodes = 0;
  let deals = 0;
  search: while (nodes < budget.nodes) {
    const world = sample(rng);
    for (let c = 0; c < moves.length; c++) {
      // Past the time bound, a partly searched deal is dropped: every move keeps the same deals.
      if (deals >= MIN_DEALS && outOfTime()) break search;
      sim.reset(world.hands, world.boneyard, board, seat);
      simPlay(sim, moves[c].tile, ends[c]);
      rollout(sim);
      nodes += sim.nodes;
      let others = 0;
      for (let t = 0; t < sim.gained.length; t++) if (t !== myTeam) others += sim.gained[t];
      let value = sim.gained[myTeam] - others / Math.max(1, sim.gained.length - 1);
      if (sim.winner !== null) value += sim.winner === myTeam ? MATCH_BONUS : -MATCH_BONUS;
      values[c] = value;
    }
    for (let c = 0; c < moves.length; c++) sums[c] += values[c];
    deals++;
  }
  let best = 0;
  for (let c = 1; c < moves.length; c++) if (sums[c] > sums[best]) best = c;
  return { action: play(moves[best]), deals, nodes, values: sums.map((s) => s / deals) };
}

export function expertAction(view: MatchView, seed: number, budget: SearchBudget = { nodes: DEFAULT_SEARCH_NODES }): Action {
  return expertSearch(view, seed, budget).action;
}
