import { UseGuards } from '@nestjs/common';
import { Args, Field, ID, Int, Mutation, ObjectType, Resolver } from '@nestjs/graphql';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';
import { AuthGuard, CurrentPlayer } from '../players/auth.js';
import type { Player } from '../players/models/player.model.js';
import { RateLimited } from '../rate-limits/rate-limit.guard.js';

/** The table bench:moves creates for it (bench/support/floor.ts): shaped like "Move", with the same keys. */
export const BENCH_FLOOR_TABLE = `
  CREATE TABLE IF NOT EXISTS bench_floor_move (
    match_id uuid NOT NULL, seq int NOT NULL, round int NOT NULL, seat int NOT NULL, type text NOT NULL,
    tile_high int, tile_low int, "end" text, points int NOT NULL DEFAULT 0, count int,
    client_move_id text, player_id uuid, created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seq), UNIQUE (match_id, player_id, client_move_id))`;

/** The floor's one statement (bench:commit runs it without the server, beside a move's commit). */
export function floorInsert(matchId: string, seq: number, playerId: string): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO bench_floor_move (match_id, seq, round, seat, type, tile_high, tile_low, "end", points, count, player_id)
    VALUES (${matchId}::uuid, ${seq}, 1, 0, 'PLAY', 6, 4, 'LEFT', 10, 10, ${playerId}::uuid)
    RETURNING match_id AS "matchId", seq`;
}

@ObjectType({ description: 'Bench only (BENCH_FLOOR=true): what the floor mutation wrote.' })
export class BenchFloorAck {
  @Field(() => ID)
  matchId!: string;
  @Field(() => Int)
  seq!: number;
}

/**
 * The stack's floor: an authenticated, rate-limited mutation that does one INSERT of a move-sized
 * row on the same pool and answers a small object. What a command costs beyond it is ours.
 */
@Resolver()
export class BenchFloorResolver {
  constructor(private readonly prisma: PrismaService) {}

  @Mutation(() => BenchFloorAck, { description: 'Bench only (BENCH_FLOOR=true): one INSERT through the whole server stack.' })
  @UseGuards(AuthGuard)
  @RateLimited('moves')
  async benchFloor(
    @Args('matchId', { type: () => ID }) matchId: string,
    @Args('seq', { type: () => Int }) seq: number,
    @CurrentPlayer() player: Player,
  ): Promise<BenchFloorAck> {
    const [row] = await this.prisma.poolQuery<BenchFloorAck>(floorInsert(matchId, seq, player.id));
    return row;
  }
}
