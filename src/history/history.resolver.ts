import { Args, ID, Info, Int, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { selectsField } from '../common/selection.js';
import { ClientAddress, CurrentPlayer } from '../players/auth.js';
import type { Player } from '../players/models/player.model.js';
import { MatchStatus } from '../matches/models/enums.js';
import { MatchConnection } from '../matches/models/match-connection.model.js';
import { HistoryService } from './history.service.js';

@Resolver()
export class HistoryResolver {
  constructor(private readonly history: HistoryService) {}

  @Query(() => MatchConnection, { description: 'Matches, newest first, optionally of one player, of one status, created in [from, to).' })
  matches(
    @CurrentPlayer() viewer: Player | null,
    @ClientAddress() address: string,
    @Info() info: GraphQLResolveInfo,
    @Args('playerId', { type: () => ID, nullable: true, description: 'Only matches this player sits in.' }) playerId?: string | null,
    @Args('status', { type: () => MatchStatus, nullable: true, description: 'Only matches in this status; omitted: any.' })
    status?: MatchStatus | null,
    @Args('from', { type: () => Date, nullable: true, description: 'Created at or after.' }) from?: Date | null,
    @Args('to', { type: () => Date, nullable: true, description: 'Created before.' }) to?: Date | null,
    @Args('first', { type: () => Int, nullable: true, description: '1..100, default 20.' }) first?: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' }) after?: string | null,
  ): Promise<MatchConnection> {
    // The count reads every match that passes the filters: only when the client asks for it.
    const count = selectsField(info, 'totalCount');
    return this.history.matches(viewer, { playerId, status, from, to, first, after }, count, address);
  }
}
