import { Field, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

/** Why a match is over. */
export enum MatchEndCause {
  TARGET_REACHED = 'TARGET_REACHED',
  RESIGNED = 'RESIGNED',
  TIMED_OUT = 'TIMED_OUT',
}

registerEnumType(MatchEndCause, {
  name: 'MatchEndCause',
  description: 'Why a FINISHED match ended.',
  valuesMap: {
    TARGET_REACHED: { description: "A side reached the target score (R22): by a play or a round's bonus." },
    RESIGNED: { description: "A player resigned (resignMatch): that seat's side lost." },
    TIMED_OUT: { description: "A seat's time ran out with onTimeout FORFEIT, or for the forfeitAfter-th time in a row: its side lost." },
  },
});

@ObjectType({ description: 'How a FINISHED match ended: a side reached the target, or another side lost by a resignation or on time.' })
export class MatchEnding {
  @Field(() => MatchEndCause, { description: 'Why it ended.' })
  cause!: MatchEndCause;
  @Field(() => Int, {
    nullable: true,
    description:
      'RESIGNED and TIMED_OUT: the seat whose side lost (null for a resignation stored before seats were recorded, as MatchEvent.seat); null for TARGET_REACHED.',
  })
  seat!: number | null;
}
