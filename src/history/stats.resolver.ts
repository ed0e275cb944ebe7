import { Args, ID, Info, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { OperationTypeNode, type GraphQLResolveInfo } from 'graphql';
import { ClientAddress } from '../players/auth.js';
import { Player } from '../players/models/player.model.js';
import { LeaderboardConnection, PlayerStats } from './stats.models.js';
import { StatsService } from './stats.service.js';

/** Player.stats and the leaderboard: thin, the service does the rest. */
@Resolver(() => Player)
export class StatsResolver {
  /**
   * A subscription's events of one view of a match share that view's seats, Player objects and
   * all: their stats are read once per view. Each event resolves them again otherwise, and the
   * events of a catch-up run one after another, so the batching of one tick does not join them: a
   * statement per event. A view lives for one state of the match: a commit's events, or a catch-up
   * while the match stands still.
   */
  private readonly inViews = new WeakMap<Player, Promise<PlayerStats>>();

  constructor(private readonly service: StatsService) {}

  @ResolveField('stats', () => PlayerStats, { description: "The player's running totals (docs/history.md defines each)." })
  statsOf(@Parent() player: Player, @Info() info: GraphQLResolveInfo): Promise<PlayerStats> {
    if (info.operation.operation !== OperationTypeNode.SUBSCRIPTION) return this.service.ofPlayer(player.id);
    let stats = this.inViews.get(player);
    if (!stats) this.inViews.set(player, (stats = this.service.ofPlayer(player.id)));
    return stats;
  }

  @Query(() => PlayerStats, { description: "Any player's running totals (zeros for a player with no finished round or match)." })
  playerStats(@Args('playerId', { type: () => ID, description: 'The player.' }) playerId: string): Promise<PlayerStats> {
    return this.service.ofPlayer(playerId);
  }

  @Query(() => LeaderboardConnection, { description: 'Players by wins, best first (ties: fewer matches played, then player id).' })
  leaderboard(
    @ClientAddress() address: string,
    @Args('first', { type: () => Int, nullable: true, description: '1..100, default 20.' }) first?: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' }) after?: string | null,
  ): Promise<LeaderboardConnection> {
    return this.service.leaderboard({ first, after }, address);
  }
}
