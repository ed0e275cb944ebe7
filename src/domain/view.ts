/**
 * What one viewer may see (design.md "Views"; style.md §4). A seat sees its own hand; everyone
 * sees hand sizes, the board, the boneyard count (never its order), the scores and the move log,
 * where another seat's drawn tile is hidden while its round is live (redactMove). Hands are revealed only in a finished round's result.
 * No deal secret and no client seed appear (the deal source stays in the match config).
 */
import { countOf, openEnds } from './board.js';
import { roundCanDraw, roundLegalMoves } from './legal.js';
import { redactMove } from './redact.js';
import type { MatchState, MatchView, MoveRecord, Viewer } from './types.js';

export function viewFor(state: MatchState, viewer: Viewer): MatchView {
  const round = state.round;
  const rules = state.config.rules;
  const seat = typeof viewer === 'number' && Number.isInteger(viewer) && viewer >= 0 && viewer < state.config.seats ? viewer : null;
  const live = state.status === 'IN_PROGRESS' && round.status === 'IN_PROGRESS';
  // A round is over once it is finished or the match ended inside it (a resignation).
  const roundOver = round.status === 'FINISHED' || state.status === 'FINISHED';
  const moves: MoveRecord[] = round.moves.map((m) => redactMove(m, seat, roundOver));
  return {
    viewer,
    rules,
    seats: state.config.seats,
    teamOfSeat: state.teamOfSeat,
    teams: state.teams,
    scores: state.scores,
    status: state.status,
    winner: state.winner,
    turn: state.status === 'FINISHED' ? null : round.turn,
    hand: seat === null ? null : round.hands[seat],
    handCounts: round.hands.map((h) => h.length),
    legalMoves: seat !== null && live ? roundLegalMoves(round, seat) : [],
    canDraw: seat !== null && live ? roundCanDraw(round, seat, rules) : false,
    // The forced tile is a secret of its holder (it may be a drawn tile).
    mustPlay: seat !== null && live && round.turn === seat ? round.mustPlay : null,
    round: {
      number: round.number,
      starter: round.starter,
      status: round.status,
      boneyardCount: round.boneyard.length,
      openEnds: openEnds(round.board, rules),
      count: countOf(round.board, rules),
      spinner: round.board.spinner === null ? null : round.board.spinner.tile,
      moves,
      result: round.status === 'FINISHED' ? round.result : null,
    },
  };
}
