import { Inject, UseGuards } from '@nestjs/common';
import { Args, Float, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { pageSize } from '../../common/pagination.js';
import { MatchConnection } from '../models/match-connection.model.js';
import { AuthGuard, CurrentPlayer } from '../../players/auth.js';
import { Player } from '../../players/models/player.model.js';
import { matchModel } from '../match-view.js';
import { Seat } from '../models/match.model.js';
import { CLOCK, type Clock } from './clock.js';
import { bankLeftMs } from './clock-rules.js';
import { ClockRepository } from './clock.repository.js';
import { decodeToMoveCursor, encodeToMoveCursor } from './to-move.js';

/** Seat.timeLeftSeconds, counted down with the injected clock. */
@Resolver(() => Seat)
export class SeatClockResolver {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @ResolveField(() => Float, {
    nullable: true,
    description: "BANK: the seat's time left now, in seconds (running down while it is to move); null for PER_MOVE or without a clock.",
  })
  timeLeftSeconds(@Parent() seat: Seat): number | null {
    const ref = seat.clockRef;
    if (!ref || ref.kind !== 'BANK') return null;
    return bankLeftMs(ref.bankMs, ref.runningSince, this.clock.now()) / 1000;
  }
}

/** The caller's to-move list and its count. */
@Resolver(() => Player)
export class ToMoveResolver {
  constructor(@Inject(ClockRepository) private readonly repo: ClockRepository) {}

  @Query(() => MatchConnection, {
    description: "The caller's matches where it is their turn: nearest deadline first, matches without a clock last.",
  })
  @UseGuards(AuthGuard)
  async toMove(
    @CurrentPlayer() player: Player,
    @Args('first', { type: () => Int, nullable: true, description: '1..100, default 20.' }) first?: number | null,
    @Args('after', { type: () => String, nullable: true, description: 'endCursor of the previous page.' }) after?: string | null,
  ): Promise<MatchConnection> {
    const take = pageSize(first);
    const { rows, total } = await this.repo.toMovePage(player.id, take + 1, after ? decodeToMoveCursor(after) : null);
    const edges = rows.slice(0, take).map((r) => ({ cursor: encodeToMoveCursor(r.key), node: matchModel(r.record, player) }));
    return { totalCount: total, pageInfo: { hasNextPage: rows.length > take, endCursor: edges.at(-1)?.cursor ?? null }, edges };
  }

  @ResolveField(() => Int, {
    nullable: true,
    description:
      'Matches where it is this player’s turn (toMove’s totalCount); only where this player is the caller (as on `me`, or the caller’s own seat), null for anyone else.',
  })
  toMoveCount(@Parent() player: Player, @CurrentPlayer() caller: Player | null): Promise<number> | null {
    return caller && caller.id === player.id ? this.repo.toMoveCount(player.id) : null;
  }
}
