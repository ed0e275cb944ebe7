import type { MoveType, Tile } from './types.js';

/** The fields of a move the redaction reads: the engine's MoveRecord, a GraphQL Move, a record's move. */
interface MoveLike {
  readonly seat: number;
  readonly type: MoveType;
  readonly tile: Tile | null;
}

/**
 * The one rule for what a move shows (design.md "Views"). A play's tile is public; a pass has none;
 * a draw's tile is its drawer's secret while its round is live, and public once the round is over
 * (finished, or cut short by the end of the match): by then every hand is shown anyway.
 * `viewer` is the seat looking, or null for a spectator, an anonymous reader or a public export.
 */
export function redactMove<M extends MoveLike>(move: M, viewer: number | null, roundOver: boolean): M {
  if (move.type !== 'DRAW' || move.tile === null || roundOver || move.seat === viewer) return move;
  return { ...move, tile: null };
}
