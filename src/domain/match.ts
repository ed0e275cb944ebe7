/**
 * A match: setup, apply(action), automatic passes (R16), the end of a round (R17–R20), the next
 * round (R23) and the end of the match (R22, R24).
 *
 * apply() never mutates its input. It copies only what changes (the hand that shrinks, the arm
 * that grows, the move log, the scores) and shares the rest with the previous state.
 */
import { countOf, endValue, ENDS, isEnd, placeTile } from './board.js';
import { refuse } from './errors.js';
import { draft, type Draft, matchState, logMove, withRound } from './draft.js';
import { hasPlay } from './legal.js';
import { dealSourceProblems } from './fair-deal.js';
import { dealRound } from './round.js';
import { autoPass, endRound } from './round-end.js';
import { resolveRules, validateSetup } from './rules.js';
import { playScore } from './scoring.js';
import { indexInHand, insertSorted, isValidTile, normalizeTile, sameTile } from './tiles.js';
import type { Action, ApplyResult, DomainEvent, End, MatchConfig, MatchState, Tile } from './types.js';

/** Team i = {i} for individual play; {0,2} and {1,3} for partnerships (R2). */
export function teamsFor(seats: number, partnerships: boolean): number[][] {
  if (partnerships)
    return [
      [0, 2],
      [1, 3],
    ];
  return Array.from({ length: seats }, (_, i) => [i]);
}

/** Why a round-1 leader cannot lead (R24): it must be a seat of the table, or absent. */
export function round1LeaderProblems(leader: number | undefined, seats: number): string[] {
  if (leader === undefined) return [];
  return Number.isInteger(leader) && leader >= 0 && leader < seats ? [] : [`round1Leader must be a seat, 0..${seats - 1}`];
}

/**
 * The config of a rematch's first deal (R24): round 1 led by the seat that made the previous
 * match's winning score, when that player sits at the new table (`leaderSeat` non-null), else by lot.
 */
export function withRound1Leader(config: MatchConfig, leaderSeat: number | null): MatchConfig {
  if (leaderSeat === null) return config;
  return { ...config, round1Leader: leaderSeat };
}

/** Sets up a match and deals round 1 (leader by lot, or config.round1Leader: R24). Throws when the setup is invalid. */
export function newMatch(config: MatchConfig): { state: MatchState; events: DomainEvent[] } {
  const rules = resolveRules(config.rules);
  const errors = validateSetup(config.seats, config.partnerships, rules);
  errors.push(...dealSourceProblems(config.deal, config.seats));
  errors.push(...round1LeaderProblems(config.round1Leader, config.seats));
  if (errors.length > 0) throw new Error(`invalid match setup: ${errors.join('; ')}`);
  const teams = teamsFor(config.seats, config.partnerships);
  const teamOfSeat = new Array<number>(config.seats).fill(0);
  teams.forEach((seats, t) => seats.forEach((s) => (teamOfSeat[s] = t)));
  const deal = { matchId: config.deal.matchId, clientSeeds: [...config.deal.clientSeeds], anchor: { ...config.deal.anchor } };
  const leader = config.round1Leader;
  const round = dealRound(1, deal, config.seats, rules, leader ?? null);
  const state: MatchState = {
    // round1Leader only when given: a match by lot stores (and replays) the same config as ever.
    config: { seats: config.seats, partnerships: config.partnerships, rules, deal, ...(leader === undefined ? {} : { round1Leader: leader }) },
    teamOfSeat,
    teams,
    scores: teams.map(() => 0),
    status: 'IN_PROGRESS',
    winner: null,
    winningSeat: null,
    lastSeq: 0,
    round,
  };
  return { state, events: [{ type: 'ROUND_STARTED', round: 1, starter: round.starter }] };
}

export function apply(state: MatchState, action: Action): ApplyResult {
  if (state.status === 'FINISHED') return refuse('MATCH_OVER', 'the match is over');
  const round = state.round;
  if (round.status === 'FINISHED') return refuse('ROUND_OVER', 'the round is over');
  // A tile that does not exist is wrong whoever is to move: say so rather than "not your turn".
  if (action.type === 'PLAY' && !isValidTile(action.tile)) return refuse('INVALID_TILE', invalidTileMessage(action.tile));
  const seat = action.seat;
  if (seat !== round.turn) return refuse('NOT_YOUR_TURN', `it is seat ${round.turn}'s turn, not seat ${String(seat)}'s`);
  if (action.type === 'PLAY') return applyPlay(state, seat, action.tile, action.end);
  if (action.type === 'DRAW') return applyDraw(state, seat);
  return refuse('INVALID_TILE', `unknown action type ${String((action as { type?: unknown }).type)}`);
}

function applyPlay(state: MatchState, seat: number, raw: Tile, rawEnd: End | null | undefined): ApplyResult {
  const tile = normalizeTile(raw);
  const round = state.round;
  const hand = round.hands[seat];
  const at = indexInHand(hand, tile);
  if (at < 0) return refuse('TILE_NOT_HELD', `seat ${seat} does not hold ${tile.high}-${tile.low}`);
  const board = round.board;
  let end: End | null = null;
  if (board.lead === null) {
    if (rawEnd !== null && rawEnd !== undefined) return refuse('NO_SUCH_END', 'the lead is played without an end: leave end out (or null)');
    if (round.mustPlay !== null && !sameTile(round.mustPlay, tile)) {
      return refuse('MUST_LEAD_HIGHEST_DOUBLE', `the highest double ${round.mustPlay.high}-${round.mustPlay.low} must lead`);
    }
  } else {
    if (rawEnd !== null && rawEnd !== undefined) {
      const v = isEnd(rawEnd) ? endValue(board, rawEnd) : -1;
      if (v < 0) {
        // UP and DOWN exist only on a spinner whose two sides are taken (R11).
        const arm = rawEnd === 'UP' || rawEnd === 'DOWN';
        return refuse(
          'NO_SUCH_END',
          `${String(rawEnd)} is not an open end${arm ? ' (the spinner arms open once both its sides are taken)' : ''}`,
          arm ? 'R11' : 'R8',
        );
      }
      if (tile.high !== v && tile.low !== v) {
        return refuse('TILE_DOES_NOT_MATCH', `${tile.high}-${tile.low} does not match the ${v} on ${rawEnd}`);
      }
      end = rawEnd;
    } else {
      let fitting = 0;
      for (const e of ENDS) {
        const v = endValue(board, e);
        if (v >= 0 && (tile.high === v || tile.low === v)) {
          fitting += 1;
          end = e;
        }
      }
      if (fitting === 0) return refuse('TILE_DOES_NOT_MATCH', `${tile.high}-${tile.low} matches no open end`);
      if (fitting > 1) return refuse('END_REQUIRED', `${tile.high}-${tile.low} fits more than one end; name one (the player chooses)`);
    }
    if (round.mustPlay !== null && !sameTile(round.mustPlay, tile)) {
      return refuse('MUST_PLAY_DRAWN_TILE', `the drawn ${round.mustPlay.high}-${round.mustPlay.low} must be played`);
    }
  }

  const rules = state.config.rules;
  const newHand: Tile[] = [];
  for (let i = 0; i < hand.length; i++) if (i !== at) newHand.push(hand[i]);
  const hands = round.hands.slice();
  hands[seat] = newHand;
  const newBoard = placeTile(board, tile, end, rules.spinner);
  const count = countOf(newBoard, rules);
  const points = playScore(count, rules.scoring);
  const d = draft(state);
  const move = logMove(d, seat, 'PLAY', tile, end, points, count);
  d.events.push({ type: 'TILE_PLAYED', move });
  const team = state.teamOfSeat[seat];
  if (points > 0) {
    d.scores = d.scores.slice();
    d.scores[team] += points;
  }
  d.round = withRound(round, {
    hands,
    board: newBoard,
    mustPlay: null,
    passesInRow: 0,
    turn: (seat + 1) % hands.length,
    moves: d.moves,
  });
  if (points > 0 && !rules.playOut && d.scores[team] >= rules.targetScore && leadsAlone(d.scores, team)) {
    return done(endRound(d, 'MATCH_WON', seat)); // R22: the match ends at once, no bonus (E20)
  }
  if (newHand.length === 0) return done(endRound(d, 'DOMINO', seat)); // R17a
  return done(autoPass(d));
}

/**
 * R22 [engine]: a score at or above the target wins only when no other side is level or ahead.
 * Without R20's block split that always holds (only one side scores at a time); after a split has
 * lifted several sides past the target together, another side reaching it from below does not win.
 */
function leadsAlone(scores: readonly number[], team: number): boolean {
  return scores.every((score, other) => other === team || score < scores[team]);
}

function applyDraw(state: MatchState, seat: number): ApplyResult {
  const round = state.round;
  const rules = state.config.rules;
  if (round.mustPlay !== null) {
    return round.board.lead === null
      ? refuse('MUST_LEAD_HIGHEST_DOUBLE', `the highest double ${round.mustPlay.high}-${round.mustPlay.low} must lead`)
      : refuse('MUST_PLAY_DRAWN_TILE', `the drawn ${round.mustPlay.high}-${round.mustPlay.low} must be played`);
  }
  if (!rules.voluntaryDraw && hasPlay(round, seat))
    return refuse('MUST_PLAY', 'a player who can play must play: drawing while holding a playable tile is illegal');
  if (round.boneyard.length <= rules.reserve) {
    return refuse(
      'BONEYARD_EMPTY',
      rules.reserve > 0 ? `nothing left to draw: the last ${rules.reserve} tiles are never drawn` : 'nothing left to draw',
    );
  }
  const tile = round.boneyard[0];
  const hands = round.hands.slice();
  hands[seat] = insertSorted(round.hands[seat], tile);
  const d = draft(state);
  const move = logMove(d, seat, 'DRAW', tile, null, 0, null);
  d.events.push({ type: 'TILE_DRAWN', move });
  // R15: the first playable drawn tile must be played at once. [engine] Under voluntaryDraw the
  // drawn tile simply joins the hand: the player chose to draw, so nothing is forced.
  const board = round.board;
  const playable =
    board.lead !== null &&
    ENDS.some((e) => {
      const v = endValue(board, e);
      return v >= 0 && (tile.high === v || tile.low === v);
    });
  d.round = withRound(round, {
    hands,
    boneyard: round.boneyard.slice(1),
    mustPlay: !rules.voluntaryDraw && playable ? tile : null,
    moves: d.moves,
  });
  return done(autoPass(d));
}

function invalidTileMessage(t: unknown): string {
  const { high, low } = (t ?? {}) as { high?: unknown; low?: unknown };
  return `${String(high)}-${String(low)} is not a tile: a tile has two whole-number halves from 0 to 6 (0-0 … 6-6)`;
}

function done(d: Draft): ApplyResult {
  return { ok: true, state: d.finalState ?? matchState(d.base, d, null), events: d.events };
}
