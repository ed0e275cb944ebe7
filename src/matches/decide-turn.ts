import { ApiError } from '../common/api-error.js';
import { apply, isValidTile, normalizeTile, type Action, type MatchState, type MoveRecord } from '../domain/index.js';
import { bareCommit, planFromEngine } from './commit-plan.js';
import type { Decision } from './command-runner.js';
import { forfeitWinner } from './forfeit.js';
import type { Commit, LoadedMatch, NewEvent } from './loaded-match.js';
import { seatOf } from './match-view.js';
import { violationError } from './violations.js';

/*
 * What the in-game commands decide, as pure functions of a fresh read of the match (and, for a
 * retried command, of the move its idempotency key already stored): unit-tested in decide-turn.spec.ts.
 */

/** The reasons a command gives beside the engine's (VIOLATION_CODES): docs/errors.md lists both. */
export const COMMAND_REASONS = ['TURN_ENDED'] as const;

/** The move stored earlier under a command's clientMoveId, as far as a retry needs it. */
export type EarlierMove = Pick<MoveRecord, 'seq' | 'seat' | 'type' | 'tile' | 'end'>;

export interface TurnCommand {
  playerId: string;
  /** the action this player's seat asks for */
  actionFor: (seat: number) => Action;
  expectedVersion?: number | null;
  clientMoveId?: string | null;
  /** what this player already stored under clientMoveId in this match, if anything */
  earlier: EarlierMove | null;
  /**
   * The turn (turnKey) this command was first decided for, when it is decided again because
   * another command committed first: if that turn is over, the command lost the race for it.
   */
  turnSeen?: string | null;
}

/**
 * Which turn of a seat a state is in: the round, and the last move of another seat in it. The
 * seat's own draws within its turn keep it; a move of any other seat (a bot's, an automatic pass)
 * or a new round begins another. The server's moves for a seat that timed out end its turn, so
 * whatever follows them is another turn too.
 */
export function turnKey(state: MatchState, seat: number): string {
  const moves = state.round.moves;
  let lastOther = 0;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].seat !== seat) {
      lastOther = moves[i].seq;
      break;
    }
  }
  return `${state.round.number}:${lastOther}`;
}

/** The turn this player's seat is in (turnKey), or null when they do not sit in the live match. */
export function turnOf(r: LoadedMatch, playerId: string): string | null {
  const seat = seatOf(r, playerId);
  return r.state && seat !== null ? turnKey(r.state, seat) : null;
}

/**
 * A player's play or draw. First, a retry of a command that already committed answers again and
 * applies nothing (the same key on a different move is a client bug, refused). Then, in order:
 * match over → seated → version current → the engine (a tile that exists → to move → legal).
 * A stale expectedVersion wins over the engine's checks: judged against a state the client has
 * not seen, its move may be refused for reasons it cannot make sense of (a domino seat leads the
 * next round too, so a duplicate of its last play would meet a new hand). A tile like 9-9 is
 * refused as such even out of turn: no state makes it right.
 */
export function decideTurn(r: LoadedMatch, cmd: TurnCommand): Decision {
  if (cmd.earlier) {
    if (!sameCommand(cmd.earlier, cmd.actionFor(cmd.earlier.seat))) {
      throw new ApiError(
        'BAD_USER_INPUT',
        `clientMoveId "${cmd.clientMoveId}" was already used for another move (seq ${cmd.earlier.seq}, ${describe(cmd.earlier)})`,
        { moveSeq: cmd.earlier.seq },
      );
    }
    return { unchanged: true, reread: true };
  }
  if (r.status !== 'IN_PROGRESS' || !r.state) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
  const seat = seatOf(r, cmd.playerId);
  if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
  if (cmd.expectedVersion != null && cmd.expectedVersion !== r.version) {
    throw new ApiError('STALE_VERSION', `the match is at version ${r.version}, not ${cmd.expectedVersion}`, { version: r.version });
  }
  // A command that lost the race for its turn (to the server's moves at a deadline, say) is not
  // judged again on a later turn it never saw: its tile could otherwise become the next round's lead.
  if (cmd.turnSeen != null && cmd.turnSeen !== turnKey(r.state, seat)) {
    throw new ApiError(
      'NOT_YOUR_TURN',
      'the turn this move was sent for ended while it ran (another command committed first): read the match and decide again',
      {
        reason: 'TURN_ENDED' satisfies (typeof COMMAND_REASONS)[number],
        version: r.version,
      },
    );
  }
  return decideAction(r, r.state, cmd.actionFor(seat), { clientMoveId: cmd.clientMoveId, playerId: cmd.playerId });
}

/**
 * A server-side move (a bot's): nothing to do when the match is not in progress or nobody asks
 * for an action; otherwise the engine's verdict, like a player's.
 */
export function decideServerMove(r: LoadedMatch, action: Action | null): Decision {
  if (r.status !== 'IN_PROGRESS' || !r.state || !action) return { unchanged: true };
  return decideAction(r, r.state, action);
}

function decideAction(r: LoadedMatch, state: MatchState, action: Action, actor: { clientMoveId?: string | null; playerId?: string } = {}): Decision {
  const result = apply(state, action);
  if (!result.ok) throw violationError(result.violation);
  return { commit: planFromEngine(r, result.state, result.events, actor) };
}

/**
 * Resign: seated → in progress. The other side wins; with more than two sides, the best-placed
 * other side (ties to the lower team index). Resigned before any round was played out, the match
 * gives nobody stats or leaderboard credit, or two accounts could farm wins by create–join–resign.
 */
export function decideResign(r: LoadedMatch, playerId: string): Decision {
  const seat = seatOf(r, playerId);
  if (seat === null) throw new ApiError('FORBIDDEN', 'you do not sit in this match');
  if (r.status !== 'IN_PROGRESS' || !r.state) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${r.status}`);
  return { commit: forfeitCommit(r, seat, { type: 'RESIGNED', moveSeq: null, seat }) };
}

/**
 * The side of `seat` loses the match at once (a resignation, or a seat whose time ran out): the
 * other side wins; with more than two sides, the best-placed other side (ties to the lower team
 * index). `cause` (RESIGNED, TIMED_OUT) comes before MATCH_FINISHED. Ended before any round was
 * played out, the match gives nobody stats or leaderboard credit, or two accounts could farm wins
 * by create–join–resign (or create–join–wait).
 */
export function forfeitCommit(r: LoadedMatch, seat: number, cause: NewEvent): Commit {
  const state = r.state!;
  const winner = forfeitWinner(state.scores, state.teamOfSeat[seat]);
  const finishedState: MatchState = { ...state, status: 'FINISHED', winner };
  return bareCommit(r, {
    status: 'FINISHED',
    state: finishedState,
    winnerTeam: winner,
    finished: true,
    unrated: state.round.number === 1,
    events: [cause, { type: 'MATCH_FINISHED', moveSeq: null }],
  });
}

/** Does an action ask for what a stored move did? (An omitted end matches the end it was given.) */
export function sameCommand(stored: Pick<MoveRecord, 'type' | 'tile' | 'end'>, action: Action): boolean {
  if (action.type !== stored.type) return false;
  if (action.type === 'DRAW') return true;
  if (!isValidTile(action.tile)) return false; // a stored move's tile always is one: 9-9 names another move
  const asked = normalizeTile(action.tile);
  return (
    stored.tile !== null && asked.high === stored.tile.high && asked.low === stored.tile.low && (action.end == null || action.end === stored.end)
  );
}

function describe(m: Pick<MoveRecord, 'type' | 'tile' | 'end'>): string {
  return m.type === 'PLAY' && m.tile ? `PLAY ${m.tile.high}-${m.tile.low}${m.end ? ` on ${m.end}` : ''}` : m.type;
}
