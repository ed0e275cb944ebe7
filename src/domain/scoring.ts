/**
 * Points: the play score of C under each system (R13, R25), rounding (R21) and the end-of-round
 * bonuses (R18–R20). [engine] The bonuses are the same under every scoring system: rules.md
 * defines them only in pips (PF's fives-and-threes has no bonus table of its own).
 */
import { pipCount } from './tiles.js';
import type { BlockedBonus, Rounding, ScoringSystem, Tile } from './types.js';

/** R21: to the nearest multiple of 5 (never a halfway case for integers). */
export function round5(n: number): number {
  return 5 * Math.floor((n + 2) / 5);
}

/** Points a play scores when it leaves the open-end sum at `count`. */
export function playScore(count: number, scoring: ScoringSystem): number {
  if (count <= 0) return 0;
  const by5 = count % 5 === 0;
  const by3 = count % 3 === 0;
  switch (scoring) {
    case 'FIVES':
      return by5 ? count : 0;
    case 'FIVES_AND_THREES':
      // PF: one point per "five" and per "three"; 15 → 5 + 3 = 8.
      return (by3 ? count / 3 : 0) + (by5 ? count / 5 : 0);
    case 'THREES_AND_FIVES':
      // DR: one point per pip, doubled when both divide (30 → 60).
      return by3 && by5 ? 2 * count : by3 || by5 ? count : 0;
  }
}

/**
 * R18: the bonus per team when `seat` dominoes. The partner's tiles are ignored; AGGREGATE rounds
 * the opponents' total once, PER_HAND rounds each opponent's hand on its own.
 */
export function dominoBonus(
  hands: readonly (readonly Tile[])[],
  teamOfSeat: readonly number[],
  teamCount: number,
  seat: number,
  rounding: Rounding,
): number[] {
  const awarded = new Array<number>(teamCount).fill(0);
  const team = teamOfSeat[seat];
  let total = 0;
  for (let s = 0; s < hands.length; s++) {
    if (teamOfSeat[s] === team) continue;
    const pips = pipCount(hands[s]);
    total += rounding === 'AGGREGATE' ? pips : round5(pips);
  }
  awarded[team] = rounding === 'AGGREGATE' ? round5(total) : total;
  return awarded;
}

/**
 * R19/R20: the bonus per team after a block, on team pip totals.
 * - The strictly lowest side scores R = round5(Σ other sides' pips) (OPPONENTS_TOTAL), or
 *   R = round5(Σ over other sides of (their pips − its pips)) (DIFFERENCE).
 * - k ≥ 2 sides tied for lowest: if every side is tied (this includes any 2-side tie) nobody
 *   scores; otherwise R is computed against the untied sides (the difference against the tied
 *   total) and each tied side gets 5·floor(R / 5k), i.e. 5·floor(R/10) for two (R20 [engine]),
 *   which keeps every share a multiple of 5.
 */
export function blockedBonus(hands: readonly (readonly Tile[])[], teams: readonly (readonly number[])[], variant: BlockedBonus): number[] {
  const totals = teams.map((seats) => seats.reduce((sum, s) => sum + pipCount(hands[s]), 0));
  const awarded = new Array<number>(teams.length).fill(0);
  const low = Math.min(...totals);
  const tied: number[] = [];
  for (let t = 0; t < totals.length; t++) if (totals[t] === low) tied.push(t);
  if (tied.length === totals.length) return awarded;
  let raw = 0;
  for (let t = 0; t < totals.length; t++) {
    if (totals[t] === low) continue;
    raw += variant === 'DIFFERENCE' ? totals[t] - low : totals[t];
  }
  const r = round5(raw);
  const share = tied.length === 1 ? r : 5 * Math.floor(r / (5 * tied.length));
  for (const t of tied) awarded[t] = share;
  return awarded;
}
