/**
 * Automatic passes (R16) and the end of a round (R17–R20): the bonus, the result, the end of the
 * match (R22, R24) or the next round's deal (R23).
 */
import { hasPlay, roundCanDraw } from './legal.js';
import { DEAL_CHAIN_LENGTH } from './fair-deal.js';
import { dealRound } from './round.js';
import { blockedBonus, dominoBonus } from './scoring.js';
import { pipCount } from './tiles.js';
import type { RoundEndKind, Tile } from './types.js';
import { type Draft, matchState, logMove, withRound } from './draft.js';

/** R16: while the seat to move can neither play nor draw, it passes; N passes in a row block (R17b). */
export function autoPass(d: Draft): Draft {
  const rules = d.base.config.rules;
  const n = d.round.hands.length;
  for (;;) {
    const r = d.round;
    const seat = r.turn;
    if (hasPlay(r, seat) || roundCanDraw(r, seat, rules)) return d;
    const move = logMove(d, seat, 'PASS', null, null, 0, null);
    d.events.push({ type: 'TURN_PASSED', move });
    const passes = r.passesInRow + 1;
    if (passes >= n) {
      d.round = withRound(r, { passesInRow: passes });
      return endRound(d, 'BLOCKED', null);
    }
    d.round = withRound(r, { passesInRow: passes, turn: (seat + 1) % n });
  }
}

/** The team member with the fewest pips (lowest seat on a tie): who "made" a block bonus. */
function lowestSeatOfTeam(hands: readonly (readonly Tile[])[], seats: readonly number[]): number {
  let best = seats[0];
  for (const s of seats) if (pipCount(hands[s]) < pipCount(hands[best])) best = s;
  return best;
}

/**
 * Ends the round: bonus, result, ROUND_ENDED; then either the match ends or the next round is
 * dealt in the same apply (ROUND_STARTED). `seat` is the domino seat (DOMINO) or the seat whose
 * play reached the target (MATCH_WON).
 */
export function endRound(d: Draft, kind: RoundEndKind, seat: number | null): Draft {
  const base = d.base;
  const { rules, seats } = base.config;
  const r = d.round;
  const teamCount = base.teams.length;
  let awarded: number[];
  if (kind === 'DOMINO') awarded = dominoBonus(r.hands, base.teamOfSeat, teamCount, seat as number, rules.dominoRounding);
  else if (kind === 'BLOCKED') awarded = blockedBonus(r.hands, base.teams, rules.blockedBonus);
  else awarded = new Array<number>(teamCount).fill(0);
  let gained = false;
  for (let t = 0; t < teamCount; t++) if (awarded[t] > 0) gained = true;
  if (gained) d.scores = d.scores.map((s, t) => s + awarded[t]);
  const result = { end: kind, awarded, hands: r.hands, dominoSeat: kind === 'DOMINO' ? seat : null };
  const finalRound = withRound(r, { status: 'FINISHED', result, moves: d.moves });
  d.round = finalRound;
  d.events.push({ type: 'ROUND_ENDED', round: r.number, result, scores: d.scores, finalRound });

  let winner: number | null = null;
  let winningSeat: number | null = null;
  if (kind === 'MATCH_WON') {
    winner = base.teamOfSeat[seat as number];
    winningSeat = seat;
  } else {
    // R22 at a round's end: the highest score at or above the target wins; a tie for highest
    // plays another round. Without playOut a side is there only by this round's bonus, or by an
    // earlier block split (several sides at once), which a play reaching the target but not
    // ahead of them did not end (applyPlay).
    let top = -1;
    let leader = -1;
    let tied = false;
    for (let t = 0; t < d.scores.length; t++) {
      if (d.scores[t] > top) {
        top = d.scores[t];
        leader = t;
        tied = false;
      } else if (d.scores[t] === top) tied = true;
    }
    if (top >= rules.targetScore && !tied) {
      winner = leader;
      winningSeat = winningSeatOf(d, winner, awarded, kind, seat);
    } else if (r.number >= DEAL_CHAIN_LENGTH) {
      // [engine] The chain deals N rounds and no more: after round N the match ends, won by the
      // highest score, a tie going to the lowest team index among the tied (docs/fair-deals.md).
      winner = d.scores.indexOf(top);
      winningSeat = winningSeatOf(d, winner, awarded, kind, seat);
    }
  }
  if (winner !== null) {
    d.finalState = matchState(base, d, { winner, winningSeat });
    d.events.push({ type: 'MATCH_FINISHED', winner, scores: d.scores });
    return d;
  }
  // R23: the domino seat leads; after a block the leader is chosen again by lot (R5).
  const next = r.number + 1;
  const leader = kind === 'DOMINO' ? (seat as number) : null;
  d.round = dealRound(next, base.config.deal, seats, rules, leader);
  d.events.push({ type: 'ROUND_STARTED', round: next, starter: d.round.starter });
  return d;
}

/**
 * R24 [engine]: the seat that made the winning score. The round-end bonus if the winner got one
 * (the domino seat, or for a block the team member with the fewest pips); otherwise the last seat
 * of the winning team that scored with a play this round; else the team's first seat.
 */
function winningSeatOf(d: Draft, winner: number, awarded: readonly number[], kind: RoundEndKind, seat: number | null): number {
  const base = d.base;
  if (awarded[winner] > 0) {
    if (kind === 'DOMINO' && seat !== null) return seat;
    return lowestSeatOfTeam(d.round.hands, base.teams[winner]);
  }
  for (let i = d.moves.length - 1; i >= 0; i--) {
    const m = d.moves[i];
    if (m.points > 0 && base.teamOfSeat[m.seat] === winner) return m.seat;
  }
  return base.teams[winner][0];
}
