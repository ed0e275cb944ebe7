export type End = 'LEFT' | 'RIGHT' | 'UP' | 'DOWN';
export interface Tile {
  high: number;
  low: number;
}
export interface Move {
  seq: number;
  round: number;
  seat: number;
  type: 'PLAY' | 'DRAW' | 'PASS';
  end: End | null;
  points: number;
  count: number | null;
  tile: Tile | null;
  /** Played by the server for a seat whose time ran out. */
  timedOut: boolean;
}
export interface RoundResult {
  end: 'DOMINO' | 'BLOCKED' | 'MATCH_WON' | 'RESIGNED';
  awarded: number[];
  hands: { seat: number; tiles: Tile[] }[];
}
export interface Seat {
  index: number;
  team: number;
  isBot: boolean;
  handCount: number;
  player: { id: string; name: string } | null;
  /** BANK clocks: the seat's time left when the match was read (the seat to move: see deadline). */
  timeLeftSeconds: number | null;
  /** Timeouts in a row. */
  timeouts: number;
}
export interface Team {
  index: number;
  score: number;
  seats: number[];
}
export interface Match {
  id: string;
  status: 'WAITING' | 'IN_PROGRESS' | 'FINISHED' | 'ABANDONED';
  version: number;
  turn: number | null;
  mySeat: number | null;
  canDraw: boolean;
  createdAt: string;
  /** Never listed: joined only with its invite code. */
  private: boolean;
  /** Shown to the match's own players only (null for everyone else). */
  inviteCode: string | null;
  /** When the seat to move runs out of time (ISO 8601); null without a clock, or for a bot to move. */
  deadline: string | null;
  clock: {
    kind: 'PER_MOVE' | 'BANK';
    onTimeout: 'BOT_PLAYS' | 'FORFEIT';
    forfeitAfter: number;
    moveSeconds: number | null;
    bankSeconds: number | null;
    incrementSeconds: number | null;
  } | null;
  rules: Record<string, string | number | boolean> & { spinner: 'FIRST_DOUBLE' | 'NONE'; targetScore: number };
  seats: Seat[];
  teams: Team[];
  winner: Team | null;
  /** Once FINISHED: why (the seat that resigned or ran out of time; null seat when a side reached the target). */
  ending: { cause: 'TARGET_REACHED' | 'RESIGNED' | 'TIMED_OUT'; seat: number | null } | null;
  myHand: Tile[] | null;
  legalMoves: { end: End | null; tile: Tile }[];
  currentRound: {
    number: number;
    status: 'IN_PROGRESS' | 'FINISHED' | 'UNFINISHED';
    starter: number;
    boneyardCount: number;
    board: { count: number; spinner: Tile | null; openEnds: { end: End; pips: number }[] };
    moves: Move[];
    result: RoundResult | null;
  } | null;
  /** The rematch, once a player asked for one; mySeat is the caller's seat in it. */
  rematch: {
    id: string;
    status: Match['status'];
    mySeat: number | null;
    seats: { index: number; player: { id: string; name: string } | null }[];
  } | null;
}
export interface MatchListItem {
  id: string;
  status: Match['status'];
  createdAt: string;
  turn: number | null;
  mySeat: number | null;
  seats: { index: number; isBot: boolean; player: { id: string; name: string } | null }[];
  teams: Team[];
  winner: Team | null;
}
