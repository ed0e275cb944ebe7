import { UseGuards } from '@nestjs/common';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { RateLimited } from '../rate-limits/rate-limit.guard.js';
import { AuthGuard, CurrentPlayer, CurrentSession } from './auth.js';
import { Player, PlayerSession } from './models/player.model.js';
import { PlayersService, type Session } from './players.service.js';

@Resolver(() => Player)
export class PlayersResolver {
  constructor(private readonly players: PlayersService) {}

  @Mutation(() => PlayerSession, { description: 'Creates a player and returns its bearer token (shown once).' })
  @RateLimited('register', 'address')
  registerPlayer(
    @Args('name', {
      description:
        '1 to 40 characters after trimming; no control or invisible characters, and at least one that shows (a letter, digit, punctuation mark or symbol). Names need not be unique.',
    })
    name: string,
  ): Promise<PlayerSession> {
    return this.players.register(name);
  }

  @Query(() => Player, { nullable: true, description: 'The caller, or null without a token.' })
  me(@CurrentPlayer() player: Player | null): Player | null {
    return player;
  }

  @Mutation(() => PlayerSession, {
    description:
      "Replaces the caller's token with a new one (shown once, here). The token used for this call stops working at once, and WebSocket connections opened with it are closed with code 4403.",
  })
  @UseGuards(AuthGuard)
  rotateToken(@CurrentSession() session: Session): Promise<PlayerSession> {
    return this.players.rotate(session);
  }

  @Mutation(() => Boolean, {
    description:
      "Revokes the caller's token: it stops working at once and its WebSocket connections are closed with code 4403. No token is left for this player afterwards (rotateToken first to keep one).",
  })
  @UseGuards(AuthGuard)
  async revokeToken(@CurrentSession() session: Session): Promise<boolean> {
    await this.players.revoke(session);
    return true;
  }
}
