import { UseGuards } from '@nestjs/common';
import { Args, ID, Info, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { selectsField } from '../common/selection.js';
import { MatchConnection } from './models/match-connection.model.js';
import { AuthGuard, ClientAddress, CurrentPlayer } from '../players/auth.js';
import type { Player } from '../players/models/player.model.js';
import { RateLimited } from '../rate-limits/rate-limit.guard.js';
import { JOIN_SEAT_ARG } from './dto/join-seat.arg.js';
import { MatchmakingService } from './matchmaking.service.js';
import { Match } from './models/match.model.js';

const CLIENT_SEED = {
  type: () => String,
  nullable: true,
  description:
    'Your client seed, mixed into every deal: 1–64 printable ASCII characters, no "|". Default: the seat\'s default seed, which follows from the match\'s deal commitment (docs/fair-deals.md).',
} as const;

/** Finding opponents and rematches (docs/matchmaking.md). Thin, as every resolver. */
@Resolver(() => Match)
export class MatchmakingResolver {
  constructor(private readonly matchmaking: MatchmakingService) {}

  @Query(() => MatchConnection, {
    description: 'Public WAITING matches with a free seat, oldest first, with their rules: pick one and joinMatch it.',
  })
  openMatches(
    @CurrentPlayer() viewer: Player | null,
    @ClientAddress() address: string,
    @Info() info: GraphQLResolveInfo,
    @Args('first', { type: () => Int, nullable: true, description: '1..100, default 20.' }) first?: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' }) after?: string | null,
  ): Promise<MatchConnection> {
    // The count reads every open match: only when the client asks for it.
    return this.matchmaking.openMatches(viewer, { first, after }, selectsField(info, 'totalCount'), address);
  }

  @Mutation(() => Match, {
    description:
      'Takes the next free seat of the match with this invite code (Match.inviteCode, shown to its players), private or not. NOT_FOUND for an unknown code; a match no longer WAITING or with no free seat answers as joinMatch does.',
  })
  @UseGuards(AuthGuard)
  @RateLimited('createMatch')
  joinMatchByInvite(
    @Args('code', { type: () => String, description: 'Case, spaces and dashes do not matter.' }) code: string,
    @CurrentPlayer() player: Player,
    @Args('clientSeed', CLIENT_SEED) clientSeed?: string | null,
    @Args('seat', JOIN_SEAT_ARG) seat?: number | null,
  ): Promise<Match> {
    return this.matchmaking.joinByInvite(player, code, clientSeed, seat);
  }

  @Mutation(() => Match, {
    name: 'rematch',
    description:
      "Asks for a rematch of a FINISHED match the caller played in: the first player to ask creates it (same seats, partnerships, bots, rules; REMATCH_OFFERED on the finished match's feed), later ones join it, in their old seat when it is free. Round 1 is led by the seat of the player who made the winning score (R24), if they sit in it.",
  })
  @UseGuards(AuthGuard)
  @RateLimited('createMatch')
  requestRematch(
    @Args('matchId', { type: () => ID, description: 'A FINISHED match the caller played in.' }) matchId: string,
    @CurrentPlayer() player: Player,
    @Args('clientSeed', CLIENT_SEED) clientSeed?: string | null,
  ): Promise<Match> {
    return this.matchmaking.rematch(player, matchId, clientSeed);
  }

  @ResolveField('rematch', () => Match, {
    nullable: true,
    description:
      "The rematch of this match, once a player asked for one (rematch), as this match's viewer sees it: a player of this match as themselves, anyone else as a spectator (read the rematch itself to see your seat in it).",
  })
  rematchOfThis(@Parent() match: Match, @CurrentPlayer() caller: Player | null): Promise<Match | null> | null {
    if (!match.ref.rematchId) return null;
    // A match event's payload is built once per view of the match (a seat, or every spectator)
    // and executed once for all who share it (shared-execution.ts): the rematch must follow from
    // that view, not from whoever's context ran it. A seat's view is only ever its own player's;
    // a spectator's is shared by the anonymous and by players of the rematch alike.
    return this.matchmaking.find(match.ref.rematchId, match.ref.viewerSeat === null ? null : caller);
  }
}
