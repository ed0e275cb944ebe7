import { Injectable } from '@nestjs/common';
import { Prisma } from '../../../generated/prisma/client.js';
import { PrismaService } from '../../database/prisma.service.js';
import type { LoadedMatch } from '../loaded-match.js';
import { loadedMatch, MATCH_COLUMNS, type MatchRow } from '../match-row.js';

/** A position in the to-move list: the deadline (null: no clock, listed last) and the match id. */
export interface ToMoveKey {
  deadline: Date | null;
  id: string;
}

/** Where the clocks talk to the database: the sweeper's claims and the to-move list. */
@Injectable()
export class ClockRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Claims up to `limit` matches whose clock work is due at `now` (soonest first), skipping rows
   * another instance is claiming or committing right now; the claim pushes their due time
   * `leaseMs` ahead (the lease), so a claimant that dies leaves them due again. Background work.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<string[]> {
    const at = new Date(now).toISOString();
    const until = new Date(now + leaseMs).toISOString();
    const rows = await this.prisma.background<{ id: string }>(Prisma.sql`
      UPDATE "Match" m SET "clockDueAt" = ${until}::timestamptz
      FROM (SELECT "id" FROM "Match" WHERE "clockDueAt" <= ${at}::timestamptz ORDER BY "clockDueAt" LIMIT ${limit}::int FOR UPDATE SKIP LOCKED) due
      WHERE m."id" = due."id"
      RETURNING m."id"`);
    return rows.map((r) => r.id);
  }

  /** The player's matches where it is their turn: WHERE of the list and of its count. */
  private mine(playerId: string): Prisma.Sql {
    return Prisma.sql`pm."playerId" = ${playerId}::uuid AND pm."status" = 'IN_PROGRESS' AND m."status" = 'IN_PROGRESS' AND m."turn" = pm."seat"`;
  }

  /** How many matches wait on this player's move (Player.toMoveCount). */
  async toMoveCount(playerId: string): Promise<number> {
    const [row] = await this.prisma.poolQuery<{ n: number }>(Prisma.sql`
      SELECT count(*)::int AS "n" FROM "PlayerMatch" pm JOIN "Match" m ON m."id" = pm."matchId" WHERE ${this.mine(playerId)}`);
    return row?.n ?? 0;
  }

  /**
   * A page of the to-move list: nearest deadline first, matches without a clock last, by id
   * within a deadline. Through the player's PlayerMatch rows (their IN_PROGRESS matches), so a
   * page touches only that player's matches. Returns the page, each with its key, and the total.
   */
  async toMovePage(
    playerId: string,
    take: number,
    after: ToMoveKey | null,
  ): Promise<{ rows: { record: LoadedMatch; key: ToMoveKey }[]; total: number }> {
    const order = Prisma.sql`COALESCE(m."deadlineAt", 'infinity'::timestamptz)`;
    const keyset = after
      ? Prisma.sql`AND (${order}, m."id") > (COALESCE(${after.deadline?.toISOString() ?? null}::timestamptz, 'infinity'::timestamptz), ${after.id}::uuid)`
      : Prisma.empty;
    const rows = await this.prisma.poolQuery<MatchRow & { total: number; deadlineAt: Date | string | null }>(Prisma.sql`
      WITH total AS (SELECT count(*)::int AS n FROM "PlayerMatch" pm JOIN "Match" m ON m."id" = pm."matchId" WHERE ${this.mine(playerId)}),
      page AS (
        SELECT m."id" FROM "PlayerMatch" pm JOIN "Match" m ON m."id" = pm."matchId"
        WHERE ${this.mine(playerId)} ${keyset}
        ORDER BY ${order}, m."id"
        LIMIT ${take}::int)
      SELECT t.n AS "total", m."deadlineAt", ${MATCH_COLUMNS}
      FROM total t
      LEFT JOIN page ON true
      LEFT JOIN "Match" m ON m."id" = page."id"
      ORDER BY ${order}, m."id"`);
    const total = rows[0]?.total ?? 0;
    return {
      total,
      rows: rows
        .filter((r) => r.id !== null)
        .map(({ total: _t, deadlineAt, ...r }) => ({
          record: loadedMatch(r),
          key: { deadline: deadlineAt === null ? null : new Date(deadlineAt), id: r.id },
        })),
    };
  }
}
