import type { MatchState, MoveRecord, RoundResult, RoundState, Rules } from '../domain/index.js';

/**
 * The service's own shapes for what the repository loads and writes: plain data, no ORM types,
 * so the service and the views never depend on Prisma.
 */
export type MatchStatusValue = 'WAITING' | 'IN_PROGRESS' | 'FINISHED' | 'ABANDONED';

export interface SeatRecord {
  index: number;
  playerId: string | null;
  playerName: string | null;
  team: number;
  isBot: boolean;
  botStrategy: string | null;
  /** public: mixed into every deal of the match (docs/fair-deals.md) */
  clientSeed: string;
}

export interface MatchRecord {
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
  state: MatchState | null;
  lastEventSeq: number;
  createdAt: Date;
  winnerTeam: number | null;
  seats: SeatRecord[];
}

export interface FinishedRoundRecord {
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
  | 'RESIGNED';

/** A stored event, before its match-wide seq is assigned. */
export interface NewEvent {
  type: MatchEventTypeValue;
  moveSeq: number | null;
}

export interface StoredEvent extends NewEvent {
  seq: number;
}

/** A stored event as subscribers read it back. */
export interface EventWithMove {
  seq: number;
  type: MatchEventTypeValue;
  move: MoveRecord | null;
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
  roundsFinished: FinishedRoundRecord[];
  roundsStarted: { number: number; starter: number }[];
  /** the seat to move once this holds is a bot: the match becomes due work (see BotsService) */
  botToMove?: boolean;
  /** the human whose turn this commit begins (see turnHandedTo), for the TURN webhook */
  turnTo?: string | null;
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
