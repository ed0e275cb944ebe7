import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPlayer } from './auth.js';
import { Player, PlayerSession } from './models/player.model.js';
import { PlayersService } from './players.service.js';

@Resolver(() => Player)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Mutation(() => PlayerSession, { description: 'Creates a player and returns its bearer token (shown once).' })
  registerPlayer(@Args('name', { description: '1 to 40 characters.' }) name: string): Promise<PlayerSession> {
    return this.players.register(name);
  }

  @Query(() => Player, { nullable: true, description: 'The caller, or null without a token.' })
  me(@CurrentPlayer() player: Player | null): Player | null {
    return player;
  }
}
