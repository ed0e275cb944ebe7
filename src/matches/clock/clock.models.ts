import { Field, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

/* The GraphQL side of clocks: the settings a match is created with and shown with. */

export enum ClockKind {
  PER_MOVE = 'PER_MOVE',
  BANK = 'BANK',
}
export enum TimeoutPolicy {
  BOT_PLAYS = 'BOT_PLAYS',
  FORFEIT = 'FORFEIT',
}

registerEnumType(ClockKind, {
  name: 'ClockKind',
  description: "How a seat's time is counted. It runs only while the seat is to move.",
  valuesMap: {
    PER_MOVE: { description: 'Each turn gets moveSeconds.' },
    BANK: { description: 'Fischer: a bank of bankSeconds, incrementSeconds added after each of the seat’s turns, capped at maxBankSeconds.' },
  },
});
registerEnumType(TimeoutPolicy, {
  name: 'TimeoutPolicy',
  description: 'What happens when the seat to move runs out of time.',
  valuesMap: {
    BOT_PLAYS: {
      description: "The server plays the greedy bot's move for the seat (Move.timedOut); forfeitAfter timeouts in a row forfeit (the default).",
    },
    FORFEIT: { description: "The seat's side loses the match." },
  },
});

@InputType({ description: 'A clock for a new match. Times are whole seconds, from CLOCK_MIN_SECONDS (default 60) to 30 days.' })
export class ClockInput {
  @Field(() => ClockKind, { description: 'PER_MOVE (set moveSeconds) or BANK (set bankSeconds).' })
  kind!: ClockKind;
  @Field(() => Int, { nullable: true, description: 'PER_MOVE only (required): the time each turn gets.' })
  moveSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: "BANK only (required): each seat's bank at the start." })
  bankSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: "BANK only: added to the seat's bank after each of its turns; default 0." })
  incrementSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'BANK only: the bank never grows past this; at least bankSeconds; default bankSeconds.' })
  maxBankSeconds?: number | null;
  @Field(() => TimeoutPolicy, { nullable: true, description: 'Default BOT_PLAYS.' })
  onTimeout?: TimeoutPolicy | null;
  @Field(() => Int, {
    nullable: true,
    description: 'BOT_PLAYS only: after this many timeouts in a row by one seat, its side forfeits; 0 = never; default 3 (0..100).',
  })
  forfeitAfter?: number | null;
}

@ObjectType({ description: "A match's clock settings, every default filled in." })
export class Clock {
  @Field(() => ClockKind, { description: 'PER_MOVE or BANK: which of the fields below apply.' })
  kind!: ClockKind;
  @Field(() => Int, { nullable: true, description: 'PER_MOVE: the time each turn gets; null for BANK.' })
  moveSeconds!: number | null;
  @Field(() => Int, { nullable: true, description: "BANK: each seat's bank at the start; null for PER_MOVE." })
  bankSeconds!: number | null;
  @Field(() => Int, { nullable: true, description: 'BANK: added after each of a seat’s turns; null for PER_MOVE.' })
  incrementSeconds!: number | null;
  @Field(() => Int, { nullable: true, description: 'BANK: the cap of a bank; null for PER_MOVE.' })
  maxBankSeconds!: number | null;
  @Field(() => TimeoutPolicy, { description: 'What happens when the seat to move runs out of time.' })
  onTimeout!: TimeoutPolicy;
  @Field(() => Int, { description: 'BOT_PLAYS: timeouts in a row by one seat that forfeit (0 never); 0 with FORFEIT.' })
  forfeitAfter!: number;
}
