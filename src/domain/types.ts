/**
 * The rules engine's public data types. Everything here is plain, immutable, JSON-serialisable
 * data: a match state can be stored as a snapshot and compared after a replay with deep equality.
 * The engine knows seats 0..n-1 and teams, never players' names or ids.
 */

/** A tile of the double-six set; always normalised so that high >= low. */
export interface Tile {
  readonly high: number;
  readonly low: number;
}

/** An open end of the layout. UP and DOWN are the spinner's arms. The lead's high half faces LEFT. */
export type End = 'LEFT' | 'RIGHT' | 'UP' | 'DOWN';

export type SpinnerMode = 'FIRST_DOUBLE' | 'NONE';
export type FirstLeader = 'DRAW' | 'RANDOM';
export type LeadRule = 'ANY' | 'HIGHEST_DOUBLE';
export type Rounding = 'AGGREGATE' | 'PER_HAND';
export type BlockedBonus = 'OPPONENTS_TOTAL' | 'DIFFERENCE';
export type ScoringSystem = 'FIVES' | 'FIVES_AND_THREES' | 'THREES_AND_FIVES';

/** Every [variant] of rules.md, all fields set. `resolveRules` fills defaults. */
export interface Rules {
  readonly targetScore: number;
  readonly handSize: number;
  readonly spinner: SpinnerMode;
  readonly spinnerEndsCount: boolean;
  readonly voluntaryDraw: boolean;
  readonly reserve: number;
  readonly firstLeader: FirstLeader;
  readonly leadRule: LeadRule;
  readonly dominoRounding: Rounding;
  readonly blockedBonus: BlockedBonus;
  readonly playOut: boolean;
  readonly scoring: ScoringSystem;
}

/** A secret of the fair-deal chain (fair-deal.ts) and the round it deals: every lower round's secret derives from it. */
export interface ChainAnchor {
  readonly round: number; // 1..DEAL_CHAIN_LENGTH
  readonly secret: string; // 64 lowercase hex digits
}

/** Everything a round's deal derives from, besides the round number. */
export interface DealSource {
  readonly matchId: string;
  readonly clientSeeds: readonly string[]; // by seat index
  readonly anchor: ChainAnchor;
}

/** How a match is set up: the table, the rules and what every deal derives from. */
export interface MatchConfig {
  readonly seats: number; // 2..4
  readonly partnerships: boolean; // only with 4 seats: teams {0,2} and {1,3}
  readonly rules: Rules;
  /** The fair-deal chain's anchor, the match id and the seats' client seeds: a match replays from it + actions. */
  readonly deal: DealSource;
  /**
   * R24: the seat that leads round 1 (a rematch: the seat of the player who made the previous
   * match's winning score), with any tile. Absent: round 1's leader is chosen by lot (R5, R6).
   */
  readonly round1Leader?: number;
}

/** A command from a seat. Passing is never commanded: the engine passes automatically. */
export type Action =
  { readonly type: 'PLAY'; readonly seat: number; readonly tile: Tile; readonly end?: End | null } | { readonly type: 'DRAW'; readonly seat: number };

export type MoveType = 'PLAY' | 'DRAW' | 'PASS';

/** One entry of a round's move log (as stored; views redact other seats' drawn tiles). */
export interface MoveRecord {
  readonly seq: number; // match-wide, 1, 2, 3, … with no gaps
  readonly round: number;
  readonly seat: number;
  readonly type: MoveType;
  readonly tile: Tile | null; // PLAY and DRAW; null for PASS
  readonly end: End | null; // PLAY only; null for the lead
  readonly points: number; // points this move scored (0 for DRAW and PASS)
  readonly count: number | null; // C after a PLAY
}

export type RoundEndKind = 'DOMINO' | 'BLOCKED' | 'MATCH_WON';

export interface RoundResult {
  readonly end: RoundEndKind;
  readonly awarded: readonly number[]; // end-of-round bonus per team index
  readonly hands: readonly (readonly Tile[])[]; // every seat's hand at the round's end, by seat
  readonly dominoSeat: number | null; // who went out, for DOMINO
}

/** An arm of the layout: the tiles attached outward from the lead (LEFT/RIGHT) or the spinner (UP/DOWN). */
export interface PlacedTile {
  readonly tile: Tile;
  readonly inner: number; // the half that touches the previous tile
  readonly outer: number; // the half that faces outward (equal to inner for a double)
}

export interface BoardState {
  readonly lead: Tile | null; // null before the first play
  readonly arms: {
    readonly LEFT: readonly PlacedTile[];
    readonly RIGHT: readonly PlacedTile[];
    readonly UP: readonly PlacedTile[];
    readonly DOWN: readonly PlacedTile[];
  };
  /** Where the spinner lies: the lead, or index i of the LEFT/RIGHT arm; null while there is none. */
  readonly spinner: { readonly arm: 'LEAD' | 'LEFT' | 'RIGHT'; readonly index: number; readonly tile: Tile } | null;
}

export interface RoundState {
  readonly number: number; // 1-based
  readonly starter: number; // seat that leads
  readonly hands: readonly (readonly Tile[])[];
  readonly boneyard: readonly Tile[]; // next draw first; never shown to anyone
  readonly board: BoardState;
  readonly turn: number; // seat to move
  readonly mustPlay: Tile | null; // a drawn playable tile that must be played at once (R15)
  readonly passesInRow: number;
  readonly status: 'IN_PROGRESS' | 'FINISHED';
  readonly result: RoundResult | null;
  readonly moves: readonly MoveRecord[]; // this round's log
}

export interface MatchState {
  readonly config: MatchConfig;
  readonly teamOfSeat: readonly number[];
  readonly teams: readonly (readonly number[])[]; // seats of each team
  readonly scores: readonly number[]; // per team
  readonly status: 'IN_PROGRESS' | 'FINISHED';
  readonly winner: number | null; // team index once FINISHED
  readonly winningSeat: number | null; // the seat that made the winning score (R24)
  readonly lastSeq: number; // last MoveRecord.seq issued
  readonly round: RoundState; // the current (or, once FINISHED, the last) round
}

/** Why an action was refused. The state is untouched when one comes back. */
/**
 * Why the engine refuses an action: a closed list, catalogued in docs/errors.md (a spec checks
 * that every one is there). Each is a rule of docs/rules.md, cited by VIOLATION_RULES.
 */
export const VIOLATION_CODES = [
  'NOT_YOUR_TURN', // another seat is to move (R7)
  'INVALID_TILE', // pips outside 0..6 or not integers: no such tile (R1)
  'TILE_NOT_HELD', // the tile is not in the mover's hand (R8)
  'NO_SUCH_END', // the end is not open on this layout, or given for the lead (R8, R11)
  'TILE_DOES_NOT_MATCH', // the tile cannot go on that end (or on any end) (R8)
  'END_REQUIRED', // the tile fits more than one end and none was named (R8)
  'MUST_PLAY_DRAWN_TILE', // a drawn playable tile must be played at once (R15)
  'MUST_LEAD_HIGHEST_DOUBLE', // the highest double must lead (R6, leadRule HIGHEST_DOUBLE)
  'MUST_PLAY', // draw while holding a playable tile (R14)
  'BONEYARD_EMPTY', // nothing left to draw above the reserve (R15)
  'ROUND_OVER', // the round has ended (R17)
  'MATCH_OVER', // the match has ended (R22)
] as const;

export type ViolationCode = (typeof VIOLATION_CODES)[number];

export interface Violation {
  readonly code: ViolationCode;
  /** The rule of docs/rules.md applied, e.g. "R14"; the message cites it too. */
  readonly rule: string;
  readonly message: string;
}

/** What happened, in order, so the service can persist and publish it. */
export type DomainEvent =
  | { readonly type: 'ROUND_STARTED'; readonly round: number; readonly starter: number }
  | { readonly type: 'TILE_PLAYED'; readonly move: MoveRecord }
  | { readonly type: 'TILE_DRAWN'; readonly move: MoveRecord }
  | { readonly type: 'TURN_PASSED'; readonly move: MoveRecord }
  | {
      readonly type: 'ROUND_ENDED';
      readonly round: number;
      readonly result: RoundResult;
      readonly scores: readonly number[];
      /** The finished round as it stood at its end (result and full move log), so the service can persist it. */
      readonly finalRound: RoundState;
    }
  | { readonly type: 'MATCH_FINISHED'; readonly winner: number; readonly scores: readonly number[] };

export type ApplyResult =
  { readonly ok: true; readonly state: MatchState; readonly events: readonly DomainEvent[] } | { readonly ok: false; readonly violation: Violation };

export interface LegalMove {
  readonly tile: Tile;
  readonly end: End | null; // null only for a round's lead
}

export interface OpenEnd {
  readonly end: End;
  readonly pips: number;
}

/** Who is looking: a seat, or anybody else. */
export type Viewer = number | 'spectator';

/** What one viewer may see. Never contains another seat's live hand, the boneyard or a deal secret. */
export interface MatchView {
  readonly viewer: Viewer;
  readonly rules: Rules;
  readonly seats: number;
  readonly teamOfSeat: readonly number[];
  readonly teams: readonly (readonly number[])[];
  readonly scores: readonly number[];
  readonly status: 'IN_PROGRESS' | 'FINISHED';
  readonly winner: number | null;
  readonly turn: number | null; // null once the match is over
  readonly hand: readonly Tile[] | null; // the viewer's own hand; null for spectators
  readonly handCounts: readonly number[];
  readonly legalMoves: readonly LegalMove[]; // the viewer's, empty unless it is their turn
  readonly canDraw: boolean;
  readonly mustPlay: Tile | null;
  readonly round: {
    readonly number: number;
    readonly starter: number;
    readonly status: 'IN_PROGRESS' | 'FINISHED';
    readonly boneyardCount: number;
    readonly openEnds: readonly OpenEnd[];
    readonly count: number;
    readonly spinner: Tile | null;
    readonly moves: readonly MoveRecord[]; // others' DRAW moves carry tile null
    readonly result: RoundResult | null; // hands revealed only once the round is over
  };
}
