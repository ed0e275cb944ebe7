import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Player } from '../../players/models/player.model.js';
import { Clock } from '../clock/clock.models.js';
import { End, MatchEventType, MatchStatus } from './enums.js';
import { Move, Round } from './round.model.js';
import { Rules } from './rules.model.js';
import { Tile } from './tile.model.js';

@ObjectType({ description: 'A seat at the table; seats are numbered clockwise from 0.' })
export class Seat {
  @Field(() => Int, { description: 'From 0; play passes from seat i to seat i+1.' })
  index!: number;
  @Field(() => Player, { nullable: true, description: 'Null while free, and for a bot.' })
  player!: Player | null;
  @Field(() => Int, { description: 'Team index: the seat itself, or seat % 2 in partnerships.' })
  team!: number;
  @Field(() => Int, { description: 'Tiles in hand (0 before the start).' })
  handCount!: number;
  @Field({ description: 'Played by the server.' })
  isBot!: boolean;
  @Field({
    description:
      "Mixed into every deal of the match (docs/fair-deals.md): the player's own (createMatch, joinMatch, setClientSeed before the start) or, for a seat nobody gave one (a bot's, a free seat's, a player's who sent none), its default seed, which follows from the match's deal commitment.",
  })
  clientSeed!: string;

  // Clocks (src/matches/clock); Seat.timeLeftSeconds is resolved with the injected clock.
  @Field(() => Int, { description: 'Timeouts in a row (0 without a clock); a move of its own sets it back to 0.' })
  timeouts!: number;
  /** for the timeLeftSeconds resolver: the bank and whether this seat's time runs now; null without a clock */
  clockRef!: SeatClockRef | null;
}

/** What Seat.timeLeftSeconds is computed from; never exposed. */
export interface SeatClockRef {
  kind: 'PER_MOVE' | 'BANK';
  bankMs: number;
  runningSince: number | null;
}

@ObjectType({ description: 'A side: one seat, or two partners.' })
export class Team {
  @Field(() => Int, {
    description: 'From 0: the seat itself, or 0 for seats {0,2} and 1 for {1,3} in partnerships (Seat.team, RoundResult.awarded).',
  })
  index!: number;
  @Field(() => [Int], { description: 'Its seats.' })
  seats!: number[];
  @Field(() => Int, { description: 'Points so far.' })
  score!: number;
}

@ObjectType({ description: 'A legal move for the caller. Passing it back to playTile verbatim is always legal.' })
export class LegalMove {
  @Field(() => Tile, { description: "A tile of the caller's hand." })
  tile!: Tile;
  @Field(() => End, { nullable: true, description: "Null only for a round's first tile." })
  end!: End | null;
}

/** Carried by a Match object for its field resolvers; never exposed. */
export interface MatchRef {
  matchId: string;
  viewerSeat: number | null;
  /** hex S_r of a round that is over (docs/fair-deals.md), null for one still live */
  revealedSecret: (round: number, finished: boolean) => string | null;
  /** the match's rematch, resolved on demand (Match.rematch) */
  rematchId: string | null;
  /** Move.seq of the moves the server made for timed-out seats */
  timedOut: ReadonlySet<number>;
}

@ObjectType({ description: 'A match, as the caller may see it: own hand only; the boneyard never.' })
export class Match {
  @Field(() => ID, { description: 'Stable id (UUID).' })
  id!: string;
  @Field(() => MatchStatus, { description: 'Where the match stands.' })
  status!: MatchStatus;
  @Field(() => Int, {
    description:
      'Bumped by every change (once per command, not per move: a play and the passes the server records after it are one change); pass it as expectedVersion to guard a move.',
  })
  version!: number;
  @Field(() => Rules, { description: 'The rules it is played by, every default filled in.' })
  rules!: Rules;
  @Field({
    description:
      'hex(SHA-256(S_1)), the commitment to every deal of the match, fixed at creation (docs/fair-deals.md): each revealed Round.dealSecret S_r hashed r times must equal it.',
  })
  dealCommitment!: string;
  @Field(() => [Seat], { description: 'Every seat, free ones included, by index.' })
  seats!: Seat[];
  @Field(() => [Team], { description: 'Every side, by index, with its score.' })
  teams!: Team[];
  @Field(() => Int, { nullable: true, description: 'Seat to move; null unless IN_PROGRESS.' })
  turn!: number | null;
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for non-players." })
  mySeat!: number | null;
  @Field(() => [Tile], { nullable: true, description: "The caller's hand; null for non-players." })
  myHand!: Tile[] | null;
  @Field(() => [LegalMove], { description: "The caller's legal plays; empty when it is not their turn." })
  legalMoves!: LegalMove[];
  @Field({ description: 'The caller may draw now.' })
  canDraw!: boolean;
  @Field(() => Round, { nullable: true, description: 'The round being played (or the last one); null before the start.' })
  currentRound!: Round | null;
  @Field(() => Team, { nullable: true, description: 'The winning side once FINISHED.' })
  winner!: Team | null;
  @Field({ description: 'When the match was created.' })
  createdAt!: Date;

  // ── Finding opponents and rematches (docs/matchmaking.md) ──
  @Field({
    description:
      'Never listed (openMatches, matches), except to its own players in matches(playerId: their own id); joined only with its invite code (joinMatchByInvite).',
  })
  private!: boolean;
  @Field(() => String, {
    nullable: true,
    description:
      'Pass it to joinMatchByInvite to take a free seat: shown to the seated players only (null for everyone else). Works on public matches too.',
  })
  inviteCode!: string | null;
  @Field(() => ID, { nullable: true, description: 'The FINISHED match this one is the rematch of.' })
  rematchOfId!: string | null;
  // Clocks (src/matches/clock)
  @Field(() => Clock, { nullable: true, description: 'The clock settings; null: no clock.' })
  clock!: Clock | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the seat to move runs out of time; null without a clock, for a bot to move, or when the match is not IN_PROGRESS.',
  })
  deadline!: Date | null;

  /** rounds are resolved on demand (Match.rounds field resolver). */
  ref!: MatchRef;
}

@ObjectType({ description: 'Something that happened in a match, numbered match-wide.' })
export class MatchEvent {
  @Field(() => Int, { description: 'Event number: 1, 2, 3, … with no gaps (differs from Move.seq).' })
  seq!: number;
  @Field({
    description:
      'One of the MatchEventType values: PLAYER_JOINED, PLAYER_LEFT, CLIENT_SEED_SET, MATCH_STARTED, ROUND_STARTED, TILE_PLAYED, TILE_DRAWN, TURN_PASSED, ROUND_ENDED, MATCH_FINISHED, RESIGNED, MATCH_EXPIRED, REMATCH_OFFERED, TIMED_OUT or DEADLINE_SOON. A String because the published contract fixes it so; kind is the same value as an enum.',
  })
  type!: string;
  @Field(() => MatchEventType, { description: 'What happened: the value of type, as an enum (for clients that generate types from the schema).' })
  kind!: MatchEventType;
  @Field(() => Move, {
    nullable: true,
    description:
      "The move, for TILE_PLAYED, TILE_DRAWN and TURN_PASSED. Another seat's draw shows no tile here, even once its round is over (a caught-up event is as it was sent): Match.rounds shows them then.",
  })
  move!: Move | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'The seat a TIMED_OUT or DEADLINE_SOON event is about, the seat that resigned for RESIGNED, offered for REMATCH_OFFERED, was taken for PLAYER_JOINED, left for PLAYER_LEFT and set its client seed for CLIENT_SEED_SET (null on the last five stored before it was recorded); null for other events.',
  })
  seat!: number | null;
  @Field(() => Match, {
    description:
      'The match as of the latest stored event when this one was sent (not as of this event: the events of one command, or of a catch-up, share it), as the subscriber may see it.',
  })
  match!: Match;
}
