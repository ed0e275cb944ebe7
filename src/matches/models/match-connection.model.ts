import { Field, Int, ObjectType } from '@nestjs/graphql';
import { PageInfo } from '../../common/pagination.js';
import { Match } from './match.model.js';

@ObjectType({ description: 'A match in a list, with its cursor.' })
export class MatchEdge {
  @Field({ description: 'Pass as `after` to continue after this match.' })
  cursor!: string;
  @Field(() => Match, { description: 'The match, as the caller may see it.' })
  node!: Match;
}

@ObjectType({
  description:
    'A page of matches, in the order its query gives (matches: newest first; openMatches: oldest first; toMove: nearest deadline first, matches without a clock last).',
})
export class MatchConnection {
  @Field(() => Int, { description: 'Matches matching the filters, over all pages.' })
  totalCount!: number;
  @Field(() => PageInfo, { description: 'Paging.' })
  pageInfo!: PageInfo;
  @Field(() => [MatchEdge], { description: "This page, in its query's order." })
  edges!: MatchEdge[];
}
