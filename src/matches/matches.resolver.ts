import { UseGuards } from '@nestjs/common';
import { Args, Context, ID, Info, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { OperationTypeNode, type GraphQLResolveInfo } from 'graphql';
import { AuthGuard, CurrentPlayer, type RequestContext } from '../players/auth.js';
import { RateLimited } from '../rate-limits/rate-limit.guard.js';
import type { Player } from '../players/models/player.model.js';
import { CreateMatchInput, PlayTileInput, TurnInput } from './dto/inputs.js';
import { JOIN_SEAT_ARG } from './dto/join-seat.arg.js';
import { MatchesService } from './matches.service.js';
import { RoundsBudget } from './rounds-budget.js';
import { RoundsService } from './rounds.service.js';
import { Match } from './models/match.model.js';
import { Round } from './models/round.model.js';

/** Thin: arguments and the caller in, the service's answer out. */
@Resolver(() => Match)
export class MatchesResolver {
  constructor(
    private readonly matches: MatchesService,
    private readonly roundsService: RoundsService,
    private readonly roundsBudget: RoundsBudget,
  ) {}

  @Query(() => Match, { nullable: true, description: "A match as the caller may see it (anyone may read a match's public view)." })
  match(
    @Args('id', { type: () => ID, description: 'The match id (a UUID): an unknown one answers null, one that is not a UUID BAD_USER_INPUT.' })
    id: string,
    @CurrentPlayer() player: Player | null,
  ): Promise<Match | null> {
    return this.matches.get(id, player);
  }

  @Mutation(() => Match, { description: 'Creates a match; the caller takes seat 0, bots take the last seats (or botSeats).' })
  @UseGuards(AuthGuard)
  @RateLimited('createMatch')
  createMatch(
    @Args('input', { description: 'Seats, bots, rules and clock of the new match.' }) input: CreateMatchInput,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.create(player, input);
  }

  @Mutation(() => Match, { description: 'Takes the next free seat; the match starts when the last seat is taken.' })
  @UseGuards(AuthGuard)
  @RateLimited('createMatch')
  joinMatch(
    @Args('matchId', { type: () => ID, description: 'A public WAITING match the caller does not sit in (a private one: joinMatchByInvite).' })
    matchId: string,
    @CurrentPlayer() player: Player,
    @Args('clientSeed', {
      type: () => String,
      nullable: true,
      description:
        'Your client seed, mixed into every deal: 1–64 printable ASCII characters, no "|". Default: the seat\'s default seed, which follows from the match\'s deal commitment (docs/fair-deals.md).',
    })
    clientSeed?: string | null,
    @Args('seat', JOIN_SEAT_ARG) seat?: number | null,
  ): Promise<Match> {
    return this.matches.join(player, matchId, clientSeed, seat);
  }

  @Mutation(() => Match, { description: "Replaces the caller's client seed; only while the match is WAITING (before any deal)." })
  @UseGuards(AuthGuard)
  @RateLimited('createMatch')
  setClientSeed(
    @Args('matchId', { type: () => ID, description: 'A WAITING match the caller sits in.' }) matchId: string,
    @Args('clientSeed', { type: () => String, description: '1–64 printable ASCII characters, no "|".' }) clientSeed: string,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.setClientSeed(player, matchId, clientSeed);
  }

  @Mutation(() => Match, { description: 'Gives up a seat before the start; the last player leaving abandons the match.' })
  @UseGuards(AuthGuard)
  @RateLimited('moves')
  leaveMatch(
    @Args('matchId', { type: () => ID, description: 'A WAITING match the caller sits in.' }) matchId: string,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.leave(player, matchId);
  }

  @Mutation(() => Match, {
    description:
      "Concedes a match in progress: the other side (the best-placed other side, with three or more) wins. A match resigned before its first round ended counts in nobody's stats.",
  })
  @UseGuards(AuthGuard)
  @RateLimited('moves')
  resignMatch(
    @Args('matchId', { type: () => ID, description: 'An IN_PROGRESS match the caller sits in.' }) matchId: string,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.resign(player, matchId);
  }

  @Mutation(() => Match, { description: "Plays a tile from the caller's hand. Passing is automatic." })
  @UseGuards(AuthGuard)
  @RateLimited('moves')
  playTile(
    @Args('input', { description: 'The match, the tile and, when it fits several, the end.' }) input: PlayTileInput,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.play(player, input);
  }

  @Mutation(() => Match, {
    description: 'Draws one tile from the boneyard (only without a legal play, unless voluntaryDraw). A playable drawn tile must then be played.',
  })
  @UseGuards(AuthGuard)
  @RateLimited('moves')
  drawTile(
    @Args('input', { description: 'The match, with an optional version guard and idempotency key.' }) input: TurnInput,
    @CurrentPlayer() player: Player,
  ): Promise<Match> {
    return this.matches.draw(player, input);
  }

  @ResolveField(() => [Round], {
    description:
      'Every round so far, in order; hands and draws are shown once a round is over. With number, only that round (none if it has not begun): a replay asks one round for boardAt.',
  })
  async rounds(
    @Parent() match: Match,
    @Context() context: RequestContext,
    @Info() info: GraphQLResolveInfo,
    @Args('number', { type: () => Int, nullable: true, description: 'Round.number of the one round wanted (1 is the first).' })
    number?: number | null,
  ): Promise<Round[]> {
    const only = (rounds: Round[]) => (number === null || number === undefined ? rounds : rounds.filter((r) => r.number === number));
    // A subscription's events share one read per view of the match, but each resolves the rounds
    // again: they are counted as they are resolved, per view and document (RoundsBudget.spendInView).
    if (info.operation.operation === OperationTypeNode.SUBSCRIPTION) {
      this.roundsBudget.checkInView(match, info.operation, context.address);
      const rounds = await this.roundsService.roundsOf(match);
      this.roundsBudget.spendInView(match, info.operation, context.address, rounds.length);
      return only(rounds);
    }
    return only(await this.roundsService.roundsOf(match, (n) => this.roundsBudget.spend(context, n)));
  }
}
