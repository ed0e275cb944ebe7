import type { AssertEmpty, RuleKey } from '../../domain/index.js';
import { Field, ID, InputType, Int } from '@nestjs/graphql';
import { ClockInput } from '../clock/clock.models.js';
import { BlockedBonus, BotStrategy, End, FirstLeader, LeadRule, Rounding, ScoringSystem, SpinnerMode } from '../models/enums.js';

/** Compiles only while RulesInput has a field for every rule (RULE_KEYS) and no other. */
export type RulesInputKeys = [AssertEmpty<Exclude<keyof RulesInput, RuleKey>>, AssertEmpty<Exclude<RuleKey, keyof RulesInput>>];

@InputType({ description: 'Rule variants; every field optional, defaults per rules.md.' })
export class RulesInput {
  @Field(() => Int, { nullable: true, description: '1..10000; default 250.' })
  targetScore?: number | null;
  @Field(() => Int, { nullable: true, description: 'Tiles per hand, from 2; seats × handSize ≤ 28; default 7.' })
  handSize?: number | null;
  @Field(() => SpinnerMode, { nullable: true, description: 'Which tile is the spinner (R10); default FIRST_DOUBLE.' })
  spinner?: SpinnerMode | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Uncovered spinner ends keep counting once both its sides are taken (Sniff, R12); default false.',
  })
  spinnerEndsCount?: boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Drawing is allowed while holding a playable tile (R14), and a drawn tile then simply joins the hand; default false.',
  })
  voluntaryDraw?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Boneyard tiles never drawn; at most the boneyard size.' })
  reserve?: number | null;
  @Field(() => FirstLeader, { nullable: true, description: 'How the leader is chosen when nobody earned the lead (R5); default DRAW.' })
  firstLeader?: FirstLeader | null;
  @Field(() => LeadRule, { nullable: true, description: 'What the leader may lead (R6); default ANY.' })
  leadRule?: LeadRule | null;
  @Field(() => Rounding, { nullable: true, description: 'How the domino bonus is rounded to 5 (R18); default AGGREGATE.' })
  dominoRounding?: Rounding | null;
  @Field(() => BlockedBonus, { nullable: true, description: 'What the lowest side scores when a round is blocked (R19); default OPPONENTS_TOTAL.' })
  blockedBonus?: BlockedBonus | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Finish the round before declaring a winner (highest score wins; a tie for highest plays another round); default false.',
  })
  playOut?: boolean | null;
  @Field(() => ScoringSystem, { nullable: true, description: 'How the open-end count C scores (R13, R25); default FIVES.' })
  scoring?: ScoringSystem | null;
}

@InputType({ description: 'A new match; the caller takes seat 0.' })
export class CreateMatchInput {
  @Field(() => Int, { description: '2, 3 or 4.' })
  seats!: number;
  @Field(() => Boolean, { nullable: true, defaultValue: false, description: 'Teams {0,2} and {1,3}; 4 seats only.' })
  partnerships?: boolean | null;
  @Field(() => Int, { nullable: true, defaultValue: 0, description: 'How many of the last seats the server plays (0..seats-1).' })
  bots?: number | null;
  @Field(() => [Int], {
    nullable: true,
    description:
      "Which seats the server plays, instead of the last `bots` ones: any of 1..seats-1 (seat 0 is the creator's). With partnerships, [1, 3] seats two people, 0 and 2, against two bots.",
  })
  botSeats?: number[] | null;
  @Field(() => BotStrategy, { nullable: true, defaultValue: BotStrategy.GREEDY, description: 'How the bots play.' })
  botStrategy?: BotStrategy | null;
  @Field(() => RulesInput, { nullable: true, description: 'Rule variants; omitted (or a field left out): the default, as Rules shows.' })
  rules?: RulesInput | null;
  @Field(() => String, {
    nullable: true,
    description:
      "The creator's client seed, mixed into every deal: 1–64 printable ASCII characters, no \"|\". Default: the seat's default seed, which follows from the match's deal commitment (docs/fair-deals.md).",
  })
  clientSeed?: string | null;

  // ── Finding opponents (docs/matchmaking.md) ──
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description:
      'Never listed (openMatches, matches), except to its own players in matches(playerId: their own id); others join only with its invite code (Match.inviteCode, joinMatchByInvite).',
  })
  private?: boolean | null;
  // Clocks (src/matches/clock)
  @Field(() => ClockInput, { nullable: true, description: 'A clock for every seat; omitted: no clock (nobody ever runs out of time).' })
  clock?: ClockInput | null;
}

@InputType({ description: 'A tile named by its halves, in either order.' })
export class TileInput {
  @Field(() => Int, { description: '0..6.' })
  high!: number;
  @Field(() => Int, { description: '0..6.' })
  low!: number;
}

@InputType({ description: 'Common to every turn command.' })
export class TurnInput {
  @Field(() => ID, { description: 'An IN_PROGRESS match the caller sits in.' })
  matchId!: string;
  @Field(() => Int, { nullable: true, description: 'Refuse with STALE_VERSION unless the match is at this version.' })
  expectedVersion?: number | null;
  @Field(() => String, { nullable: true, description: 'Idempotency key: a retry with the same id returns the match and never applies twice.' })
  clientMoveId?: string | null;
}

@InputType({ description: 'Play a tile from the hand.' })
export class PlayTileInput {
  @Field(() => ID, { description: 'An IN_PROGRESS match the caller sits in.' })
  matchId!: string;
  @Field(() => TileInput, { description: "A tile of the caller's hand." })
  tile!: TileInput;
  @Field(() => End, { nullable: true, description: "Where to play it; omit for a round's lead, or when the tile fits one end only." })
  end?: End | null;
  @Field(() => Int, { nullable: true, description: 'Refuse with STALE_VERSION unless the match is at this version.' })
  expectedVersion?: number | null;
  @Field(() => String, { nullable: true, description: 'Idempotency key: a retry with the same id returns the match and never applies twice.' })
  clientMoveId?: string | null;
}
