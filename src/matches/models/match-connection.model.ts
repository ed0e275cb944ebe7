import { Field, Int, ObjectType } from '@nestjs/graphql';
import { PageInfo } from '../../common/pagination.js';
import { Match } from './match.model.js';

@ObjectType({ description: 'A match in a list, with its cursor.' })
export class MatchEdge {
  @Field({ description: 'Pass as `after` to continue after this match.' })
  cursor!: string;
  @Field(() => Match)
  node!: Match;
}

@ObjectType({ description: 'A page of matches, in the order its query gives (matches: newest first; openMatches: oldest first).' })
export class MatchConnection {
  @Field(() => Int, { description: 'Matches matching the filters, over all pages.' })
  totalCount!: number;
  @Field(() => PageInfo)
  pageInfo!: PageInfo;
  @Field(() => [MatchEdge])
  edges!: MatchEdge[];
}
