import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType({
  description:
    "What the caller's next new match (the next createMatch, or the rematch they are the first to ask for) will deal from besides the seeds, drawn ahead so that the seed sent with it cannot have been planned for (docs/fair-deals.md). Read it before sending that seed; the new match's id and dealCommitment are these (a new draw follows).",
})
export class NextMatch {
  @Field(() => ID, { description: 'The id the match will have (every deal mixes it in).' })
  id!: string;

  @Field({ description: 'hex(SHA-256(S_1)) of its deal chain: the match’s dealCommitment.' })
  dealCommitment!: string;
}
