import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPlayer } from '../players/auth.js';
import { Player } from '../players/models/player.model.js';
import { NextMatch } from './models/next-match.model.js';
import { PendingDealChains } from './pending-deal-chains.js';

/** Player.nextMatch: what a player holds the server to before sending a seed (docs/fair-deals.md). */
@Resolver(() => Player)
export class NextDealResolver {
  constructor(private readonly dealChains: PendingDealChains) {}

  @ResolveField(() => NextMatch, {
    nullable: true,
    description:
      "The id and deal commitment this player's next new match will have, fixed before they send its seed. Only where this player is the caller (as on `me`); null for anyone else.",
  })
  async nextMatch(@Parent() player: Player, @CurrentPlayer() caller: Player | null): Promise<NextMatch | null> {
    if (!caller || caller.id !== player.id) return null;
    const draw = await this.dealChains.nextMatch(player.id);
    return { id: draw.matchId, dealCommitment: draw.dealCommitment };
  }
}
