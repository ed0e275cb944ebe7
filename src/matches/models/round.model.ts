import type { Rules as DomainRules } from '../../domain/index.js';
import { Field, Int, ObjectType } from '@nestjs/graphql';
import { End, MoveType, RoundEnd, RoundStatus } from './enums.js';
import { Tile } from './tile.model.js';

@ObjectType({ description: 'An open end and the pips it shows.' })
export class OpenEnd {
  @Field(() => End, { description: 'Where a tile can be attached.' })
  end!: End;
  @Field(() => Int, { description: 'The pips a tile must match to go there.' })
  pips!: number;
}

@ObjectType({ description: 'The layout as the players see it.' })
export class Board {
  @Field(() => [OpenEnd], { description: 'Open ends in the order LEFT, RIGHT, UP, DOWN (UP/DOWN once both spinner sides are taken).' })
  openEnds!: OpenEnd[];
  @Field(() => Int, { description: 'C: the open-end sum that scores (R12).' })
  count!: number;
  @Field(() => Tile, { nullable: true, description: 'The spinner, once a double became one.' })
  spinner!: Tile | null;
}

@ObjectType({ description: 'One move of a round.' })
export class Move {
  @Field(() => Int, { description: 'Match-wide move number: 1, 2, 3, … with no gaps.' })
  seq!: number;
  @Field(() => Int, { description: 'Round number, from 1.' })
  round!: number;
  @Field(() => Int, { description: 'The seat that moved.' })
  seat!: number;
  @Field(() => MoveType, { description: 'PLAY, DRAW or PASS.' })
  type!: MoveType;
  @Field(() => Tile, { nullable: true, description: "The tile played or drawn; null for PASS and for another seat's DRAW while the round is live." })
  tile!: Tile | null;
  @Field(() => End, { nullable: true, description: 'Where a PLAY went; null for the lead.' })
  end!: End | null;
  @Field(() => Int, { description: 'Points this move scored (0 for DRAW and PASS).' })
  points!: number;
  @Field(() => Int, { nullable: true, description: 'C after a PLAY.' })
  count!: number | null;
  @Field({ description: 'Made by the server for a seat whose time ran out (clock policy BOT_PLAYS).' })
  timedOut!: boolean;
}

@ObjectType({ description: 'A hand shown after its round ended.' })
export class RevealedHand {
  @Field(() => Int, { description: 'The seat that held it.' })
  seat!: number;
  @Field(() => [Tile], { description: 'The tiles the seat still held.' })
  tiles!: Tile[];
}

@ObjectType({ description: 'How a round ended and what it awarded.' })
export class RoundResult {
  @Field(() => RoundEnd, { description: 'How the round ended.' })
  end!: RoundEnd;
  @Field(() => [Int], { description: 'End-of-round bonus per team index (all 0 for MATCH_WON).' })
  awarded!: number[];
  @Field(() => [RevealedHand], { description: "Every seat's remaining tiles." })
  hands!: RevealedHand[];
}

@ObjectType({ description: 'A round (a hand) of a match.' })
export class Round {
  @Field(() => Int, { description: 'From 1.' })
  number!: number;
  @Field(() => RoundStatus, { description: 'IN_PROGRESS, FINISHED, or UNFINISHED when the match ended during it.' })
  status!: RoundStatus;
  @Field(() => Int, { description: 'The seat that led.' })
  starter!: number;
  @Field(() => Int, { description: 'Tiles left to draw (the tiles themselves are never shown).' })
  boneyardCount!: number;
  @Field(() => Board, { description: 'The layout now; for a round that is over, as it ended.' })
  board!: Board;
  @Field(() => [Move], { description: "This round's moves in order." })
  moves!: Move[];
  @Field(() => RoundResult, {
    nullable: true,
    description:
      'Null while IN_PROGRESS. For an UNFINISHED round (cut short by a resignation or a forfeit on time), end RESIGNED, nothing awarded, and its hands.',
  })
  result!: RoundResult | null;
  @Field(() => String, {
    nullable: true,
    description:
      "hex(S_r), the secret this round was dealt from, once the round is over (or the match, for a round cut short by a resignation or a forfeit on time); null while it is live. See docs/fair-deals.md to re-derive the deck from it and the seats' client seeds.",
  })
  dealSecret!: string | null;
  /** The match's stored rules that shape a layout (not a field: Round.boardAt replays with them). */
  layout!: LayoutRules;
}

export type LayoutRules = Pick<DomainRules, 'spinner' | 'spinnerEndsCount'>;
