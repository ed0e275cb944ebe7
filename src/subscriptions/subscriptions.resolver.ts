import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Int, Resolver, Subscription } from '@nestjs/graphql';
import { Match, MatchEvent } from '../matches/models/match.model.js';
import { AuthGuard, CurrentPlayer, type RequestContext } from '../players/auth.js';
import type { Player } from '../players/models/player.model.js';
import { MatchFeedService } from './match-feed.service.js';
import { MyTurnsFeed } from './my-turns-feed.service.js';

@Resolver()
export class SubscriptionsResolver {
  constructor(
    private readonly feeds: MatchFeedService,
    private readonly turns: MyTurnsFeed,
  ) {}

  @Subscription(() => MatchEvent, {
    description:
      "A match's events: first every stored event after afterSeq (omit it for live events only), then live ones; seq rises by exactly 1. Each event's match is the match as of the latest stored event, as the subscriber may see it. Completes once the match is FINISHED or ABANDONED and its last event has been sent.",
    resolve: (payload: { matchEvents: MatchEvent }) => payload.matchEvents,
  })
  matchEvents(
    @Args('matchId', { type: () => ID, description: 'The match to follow (anyone may); an unknown one fails with NOT_FOUND.' }) matchId: string,
    @Args('afterSeq', {
      type: () => Int,
      nullable: true,
      description: "The last event seq the client saw; one past the match's last event is BAD_USER_INPUT (extensions.lastSeq).",
    })
    afterSeq: number | null | undefined,
    @CurrentPlayer() player: Player | null,
    @Context() ctx: RequestContext,
  ) {
    return this.feeds.matchEvents(matchId, afterSeq ?? null, player, ctx.connection?.fellBehind);
  }

  @Subscription(() => Match, {
    description:
      "The caller's matches where it is their turn, a feed a bot can live on: on subscribe, first every match where it is the caller's turn now; then the match each time a turn of the caller's begins (after another seat's move, at a round's start, at the match start; not after the caller's own draw, which keeps the turn: act from the mutation's answer); and the match once more when it ends (status FINISHED or ABANDONED), whoever ended it, and again when a player offers its rematch (Match.rematch set; REMATCH_OFFERED on its feed). A match is never pushed twice at the same version.",
    resolve: (payload: { myTurns: Match }) => payload.myTurns,
  })
  @UseGuards(AuthGuard)
  myTurns(@CurrentPlayer() player: Player, @Context() ctx: RequestContext) {
    return this.turns.subscribe(player, ctx.connection?.fellBehind);
  }
}
