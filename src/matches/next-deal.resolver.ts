import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPlayer } from '../players/auth.js';
import { Player } from '../players/models/player.model.js';
import { PendingDealChains } from './pending-deal-chains.js';

/** Player.nextDealCommitment: the commitment a player holds the server to before sending a seed (docs/fair-deals.md). */
@Resolver(() => Player)
export class NextDealResolver {
  constructor(private readonly dealChains: PendingDealChains) {}

  @ResolveField(() => String, {
    nullable: true,
    description:
      "hex(SHA-256(S_1)) of the deal chain this player's next new match will deal from: the next createMatch, or the rematch they are the first to ask for. Read it before sending the client seed that match deals with; that match's dealCommitment is this value (a new one is drawn for the match after). Only where this player is the caller (as on `me`); null for anyone else.",
  })
  nextDealCommitment(@Parent() player: Player, @CurrentPlayer() caller: Player | null): Promise<string> | null {
    return caller && caller.id === player.id ? this.dealChains.commitmentFor(player.id) : null;
  }
}
