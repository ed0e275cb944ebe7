import type { MatchState, MoveRecord, RoundResult, RoundState, Rules } from '../domain/index.js';
import type { ClockSettings } from './clock/clock-settings.js';
import type { ClockState, ClockUpdate, ClockWork } from './clock/clock-state.js';

/**
 * The service's own shapes for what the repository loads and writes: plain data, no ORM types,
 * so the service and the views never depend on Prisma.
 */
export type MatchStatusValue = 'WAITING' | 'IN_PROGRESS' | 'FINISHED' | 'ABANDONED';

export interface LoadedSeat {
  index: number;
  playerId: string | null;
  playerName: string | null;
  team: number;
  isBot: boolean;
  botStrategy: string | null;
  /** public: mixed into every deal of the match (docs/fair-deals.md) */
  clientSeed: string;
}

export interface LoadedMatch {
  id: string;
  status: MatchStatusValue;
  version: number;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  /** hex S_N, the head of the fair-deal chain: secret, never leaves the server */
  chainSecret: string;
  /** hex SHA-256(S_1): public from creation on */
  dealCommitment: string;
  /**
   * S_16 … S_512 of the chain (CHAIN_CHECKPOINT_ROUNDS), secret like chainSecret: a revealed
   * round's secret is hashed down from the nearest of them. Absent or null: none stored, and the
   * chain is walked down from chainSecret.
   */
  dealCheckpoints?: Uint8Array | null;
  state: MatchState | null;
  lastEventSeq: number;
  createdAt: Date;
  winnerTeam: number | null;
  seats: LoadedSeat[];
  /** finding opponents and rematches (docs/matchmaking.md) */
  matchmaking: MatchmakingRecord;

  // Clocks (src/matches/clock); absent or null: the match has no clock.
  /** the settings createMatch asked for, defaults filled in */
  clock?: ClockSettings | null;
  /** the running clock: whose time runs since when, banks, timeouts in a row */
  clockState?: ClockState | null;

  /**
   * The events the commit that produced this record wrote, each with its move, exactly as
   * `eventsAfter` reads them back (seq order, ending at lastEventSeq). Set only on the record a
   * command leaves in this process's cache: its feeds deliver a fresh commit without reading it
   * back from the database. Absent on a record read from the database.
   */
  committedEvents?: readonly EventWithMove[];
}

/** A match's invitation, visibility and rematch links. */
export interface MatchmakingRecord {
  /** never listed; joined by invite code only */
  private: boolean;
  /** shown to seated players only; null on matches stored before invitations existed */
  inviteCode: string | null;
  /** the FINISHED match this is the rematch of */
  rematchOfId: string | null;
  /** this match's rematch, once a player of it asked for one */
  rematchId: string | null;
  /** R24: the seat that made the previous match's winning score, and its player (null: a bot) */
  rematchLeader: { seat: number; playerId: string | null } | null;
}

export interface FinishedRound {
  number: number;
  snapshot: RoundState;
  result: RoundResult;
}

/** What a stored event records (MatchEventType in GraphQL). */
export type MatchEventTypeValue =
  | 'PLAYER_JOINED'
  | 'PLAYER_LEFT'
  | 'CLIENT_SEED_SET'
  | 'MATCH_STARTED'
  | 'ROUND_STARTED'
  | 'TILE_PLAYED'
  | 'TILE_DRAWN'
  | 'TURN_PASSED'
  | 'ROUND_ENDED'
  | 'MATCH_FINISHED'
  | 'RESIGNED'
  // Finding opponents and rematches
  | 'MATCH_EXPIRED'
  | 'REMATCH_OFFERED'
  // Clocks: a seat ran out of time / 80 % of its turn's time is gone (the event's seat says which).
  | 'TIMED_OUT'
  | 'DEADLINE_SOON';

/** A stored event, before its match-wide seq is assigned. */
export interface NewEvent {
  type: MatchEventTypeValue;
  moveSeq: number | null;
  /** the seat the event is about, for PLAYER_JOINED, PLAYER_LEFT, CLIENT_SEED_SET, TIMED_OUT, DEADLINE_SOON, RESIGNED and REMATCH_OFFERED; null otherwise */
  seat?: number | null;
}

export interface StoredEvent extends NewEvent {
  seq: number;
}

/** A stored event as subscribers read it back. */
export interface EventWithMove {
  seq: number;
  type: MatchEventTypeValue;
  move: MoveRecord | null;
  /** the seat a PLAYER_JOINED, PLAYER_LEFT, CLIENT_SEED_SET, TIMED_OUT, DEADLINE_SOON, RESIGNED or REMATCH_OFFERED event is about */
  seat?: number | null;
  /** the move was made by the server for a timed-out seat */
  timedOut?: boolean;
}

/** Everything one accepted command writes, applied atomically with a version compare-and-set. */
export interface Commit {
  matchId: string;
  expectedVersion: number;
  /** the match's lastEventSeq when read: with the version guard, this command's events follow it */
  lastEventSeq: number;
  status: MatchStatusValue;
  state: MatchState | null;
  winnerTeam: number | null;
  started?: boolean;
  finished?: boolean;
  /** the match ends without counting in anyone's stats (resigned before its first round ended) */
  unrated?: boolean;
  seatChanges?: { index: number; playerId: string | null; clientSeed: string }[];

  moves: MoveRecord[];
  /** the idempotency key and actor, stored on the command's first move */
  clientMoveId?: string | null;
  playerId?: string | null;
  events: NewEvent[];
  scores?: readonly number[];
  roundsFinished: FinishedRound[];
  roundsStarted: { number: number; starter: number }[];
  /**
   * the command seats this player in a match that stays WAITING: it commits only while they sit
   * in fewer than `max` WAITING matches (MAX_WAITING_MATCHES), counted under a lock on their row
   */
  waitingCap?: { playerId: string; max: number };
  /** the seat to move once this holds is a bot: the match becomes due work (see BotsService) */
  botToMove?: boolean;
  /** a player took a seat and the match stays WAITING: it expires OPEN_MATCH_TTL_HOURS from now */
  restartsExpiry?: boolean;
  /** the human whose turn this commit begins (see turnHandedTo), for the TURN webhook */
  turnTo?: string | null;

  // Clocks (src/matches/clock): what the command means for the clock (set by its decision), and
  // the clock once it holds (set by CommandRunner; written by the compare-and-set itself).
  clockWork?: ClockWork;
  clock?: ClockUpdate;
}

export interface CommitResult {
  version: number;
  events: StoredEvent[];
}

/** Thrown by the repository when the match moved on since it was read: the command is re-run. */
export class VersionConflict extends Error {
  constructor() {
    super('version conflict');
  }
}

/** Thrown by the repository when a command would seat a player in more WAITING matches than allowed. */
export class WaitingCapReached extends Error {
  constructor(readonly limit: number) {
    super(`waiting cap ${limit} reached`);
  }
}

/** Thrown by the repository when another player's rematch of the same finished match committed first. */
export class AlreadyRematched extends Error {
  constructor() {
    super('already rematched');
  }
}
