import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { PrismaService } from '../database/prisma.service.js';

/** What myTurns reads beyond single matches. */
@Injectable()
export class TurnsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The matches where it is this player's turn now, oldest first (myTurns' catch-up): through
   * the Seat(playerId) index and Match.turn, the snapshot's seat to move mirrored by every commit.
   */
  async turnsOf(playerId: string): Promise<{ id: string; version: number }[]> {
    return this.prisma.poolQuery<{ id: string; version: number }>(Prisma.sql`
      SELECT m."id", m."version" FROM "Seat" s JOIN "Match" m ON m."id" = s."matchId"
       WHERE s."playerId" = ${playerId}::uuid AND m."status" = 'IN_PROGRESS' AND m."turn" = s."index"
       ORDER BY m."createdAt", m."id"`);
  }
}
