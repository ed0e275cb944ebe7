/**
 * A lean simulator of the rest of a round over one determinized deal, for the search: hands are
 * masks, the layout is a FastBoard (the rules of board.ts in place), points and bonuses come from
 * the engine's scoring functions, and every seat plays the fast greedy policy.
 */
import { blockedBonus, dominoBonus, playScore } from '../scoring.js';
import { ALL_TILES } from '../tiles.js';
import type { Rules, Tile } from '../types.js';
import { FastBoard } from './fast-board.js';
import { bitOf, PIPS, tilesOf, WITH_PIP } from './masks.js';

export interface Table {
  readonly rules: Rules;
  readonly teamOfSeat: readonly number[];
  readonly teams: readonly (readonly number[])[];
  /** Scores before the simulated moves, per team. */
  readonly scores: readonly number[];
}

/** One simulation's mutable state; reset and reused across the search's deals and candidates. */
export class Sim {
  readonly hands: number[];
  boneyard: readonly Tile[] = [];
  drawn = 0; // how many boneyard tiles are gone
  readonly board: FastBoard;
  turn = 0;
  passes = 0;
  /** Points each team gained during the simulation (plays and the round's bonus). */
  readonly gained: number[];
  over = false;
  winner: number | null = null; // a team that reached the target
  nodes = 0;

  constructor(readonly table: Table) {
    this.hands = table.teamOfSeat.map(() => 0);
    this.gained = table.scores.map(() => 0);
    this.board = new FastBoard(table.rules.spinner, table.rules.spinnerEndsCount);
  }

  reset(hands: readonly number[], boneyard: readonly Tile[], board: FastBoard, turn: number): void {
    for (let s = 0; s < hands.length; s++) this.hands[s] = hands[s];
    this.gained.fill(0);
    this.boneyard = boneyard;
    this.drawn = 0;
    this.board.copyFrom(board);
    this.turn = turn;
    this.passes = 0;
    this.over = false;
    this.winner = null;
    this.nodes = 0;
  }
}

function endRound(sim: Sim, domino: number | null): void {
  const { rules, teamOfSeat, teams, scores } = sim.table;
  const hands = sim.hands.map(tilesOf);
  const bonus =
    domino !== null ? dominoBonus(hands, teamOfSeat, teams.length, domino, rules.dominoRounding) : blockedBonus(hands, teams, rules.blockedBonus);
  let top = -1;
  let leader = -1;
  let tied = false;
  for (let t = 0; t < bonus.length; t++) {
    sim.gained[t] += bonus[t];
    const total = scores[t] + sim.gained[t];
    if (total > top) {
      top = total;
      leader = t;
      tied = false;
    } else if (total === top) tied = true;
  }
  if (top >= rules.targetScore && !tied) sim.winner = leader;
  sim.over = true;
}

/** Plays `tile` at end index `e` for the seat to move (the move must be legal), then ends the round if it is over. */
export function simPlay(sim: Sim, tile: Tile, e: number): void {
  const rules = sim.table.rules;
  const seat = sim.turn;
  sim.nodes++;
  sim.hands[seat] &= ~bitOf(tile);
  sim.board.place(tile, e);
  const points = playScore(sim.board.count(), rules.scoring);
  const team = sim.table.teamOfSeat[seat];
  sim.passes = 0;
  if (points > 0) {
    sim.gained[team] += points;
    if (!rules.playOut && sim.table.scores[team] + sim.gained[team] >= rules.targetScore && aheadOfAll(sim, team)) {
      sim.winner = team;
      sim.over = true;
      return;
    }
  }
  if (sim.hands[seat] === 0) return endRound(sim, seat);
  sim.turn = (seat + 1) % sim.hands.length;
}

/** As the engine's R22: a side that reaches the target wins only when every other side is below it. */
function aheadOfAll(sim: Sim, team: number): boolean {
  const mine = sim.table.scores[team] + sim.gained[team];
  return sim.gained.every((gained, other) => other === team || sim.table.scores[other] + gained < mine);
}

function playableIn(board: FastBoard, hand: number): number {
  if (board.empty) return hand;
  let m = 0;
  for (let e = 0; e < 4; e++) {
    const v = board.endValue(e);
    if (v >= 0) m |= WITH_PIP[v];
  }
  return hand & m;
}

/** The greedy policy: most points now, then the heaviest tile; plays it. `only` limits the tiles. */
function greedyPlay(sim: Sim, only: number): void {
  const scoring = sim.table.rules.scoring;
  const board = sim.board;
  let bestKey = -1;
  let bestTile = 0;
  let bestEnd = 0;
  for (let e = 0; e < 4; e++) {
    const v = board.empty ? (e === 0 ? -2 : -1) : board.endValue(e);
    if (v === -1) continue;
    for (let i = 0, m = v === -2 ? only : only & WITH_PIP[v]; m !== 0; i++, m >>>= 1) {
      if ((m & 1) === 0) continue;
      const key = playScore(board.countIf(ALL_TILES[i], e), scoring) * 64 + PIPS[i];
      if (key > bestKey) {
        bestKey = key;
        bestTile = i;
        bestEnd = e;
      }
    }
  }
  simPlay(sim, ALL_TILES[bestTile], bestEnd);
}

/** One turn of the seat to move: play, else draw until a playable tile (played at once), else pass. */
export function simTurn(sim: Sim): void {
  const rules = sim.table.rules;
  const seat = sim.turn;
  const playable = playableIn(sim.board, sim.hands[seat]);
  if (playable !== 0) return greedyPlay(sim, playable);
  while (sim.boneyard.length - sim.drawn > rules.reserve) {
    const bit = bitOf(sim.boneyard[sim.drawn++]);
    sim.nodes++;
    sim.hands[seat] |= bit;
    if (playableIn(sim.board, bit) !== 0) return greedyPlay(sim, bit);
  }
  sim.nodes++;
  sim.passes++;
  if (sim.passes >= sim.hands.length) return endRound(sim, null);
  sim.turn = (seat + 1) % sim.hands.length;
}

/** Plays the round out, the greedy policy for every seat. */
export function rollout(sim: Sim): void {
  while (!sim.over) simTurn(sim);
}
