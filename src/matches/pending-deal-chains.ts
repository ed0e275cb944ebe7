import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { newDealChain, type DealChain } from './fair-deal-secrets.js';

/** What a new match deals from besides its seeds: its id and deal chain. */
export interface DealInputs extends DealChain {
  matchId: string;
  /** whose pending draw this is (PendingDealChains), taken by the match's insert; null: drawn for this match alone */
  pendingOf: string | null;
}

/** Player.nextMatch: what a player's next new match will deal from, as they may see it. */
export interface NextMatchDraw {
  matchId: string;
  dealCommitment: string;
}

/**
 * A new match's pending draw was taken by a concurrent new match of the same player. Refused, not
 * retried on a fresh draw: this request's seed was sent for the draw it read (docs/fair-deals.md).
 */
export class PendingChainTaken extends ApiError {
  constructor() {
    super('STALE_VERSION', 'another new match of yours took the id and deal chain you could read as nextMatch: read nextMatch again, then retry');
  }
}

/**
 * The id and deal chain of a player's next new match, drawn before that match exists
 * (docs/fair-deals.md, "Holding the server to its commitment"). A seed sent with `createMatch`
 * reaches the server in the same request that creates the match; were both drawn after it, the
 * server could draw again until it liked the deal (the id is part of every deal's stream too).
 * Read `nextMatch` first, send the seed, and the new match's id and `dealCommitment` must be the
 * ones read: they were fixed before the seed was known.
 */
@Injectable()
export class PendingDealChains {
  /**
   * First reads in flight, by player: a query may ask for the caller's nextMatch many times over
   * (aliases, every seat of a list of matches), and each would otherwise walk a chain of its own
   * (a thousand hashes) before finding the row another one stored.
   */
  private readonly reading = new Map<string, Promise<NextMatchDraw>>();

  constructor(private readonly prisma: PrismaService) {}

  /** The player's pending draw, drawn now if they have none. */
  nextMatch(playerId: string): Promise<NextMatchDraw> {
    let read = this.reading.get(playerId);
    if (!read) {
      read = this.readOrDraw(playerId).finally(() => this.reading.delete(playerId));
      this.reading.set(playerId, read);
    }
    return read;
  }

  /**
   * What a new match of this player deals from: their pending draw if they have one, otherwise one
   * drawn now (they read no nextMatch, so nobody holds the server to it). The match's insert takes
   * the pending draw in its transaction (takePending).
   */
  async forNewMatch(playerId: string): Promise<DealInputs> {
    const rows = await this.prisma.poolQuery<{ matchId: string; chainSecret: string; dealCommitment: string; checkpoints: Uint8Array }>(Prisma.sql`
      SELECT "matchId"::text AS "matchId", "chainSecret", "dealCommitment", "checkpoints" FROM "PendingDealChain" WHERE "playerId" = ${playerId}::uuid`);
    const row = rows[0];
    if (!row) return { ...newDealChain(), matchId: randomUUID(), pendingOf: null };
    const { matchId, chainSecret, dealCommitment } = row;
    return { matchId, chainSecret, dealCommitment, dealCheckpoints: new Uint8Array(row.checkpoints), pendingOf: playerId };
  }

  private async readOrDraw(playerId: string): Promise<NextMatchDraw> {
    const rows = await this.prisma.poolQuery<NextMatchDraw>(
      Prisma.sql`SELECT "matchId"::text AS "matchId", "dealCommitment" FROM "PendingDealChain" WHERE "playerId" = ${playerId}::uuid`,
    );
    if (rows[0]) return rows[0];
    const chain = newDealChain();
    // Another instance may have stored a draw meanwhile: this one is then dropped and that one
    // answered (the no-op update makes RETURNING give the row that is there).
    const stored = await this.prisma.poolQuery<NextMatchDraw>(Prisma.sql`
      INSERT INTO "PendingDealChain" ("playerId", "matchId", "chainSecret", "dealCommitment", "checkpoints")
      VALUES (${playerId}::uuid, ${randomUUID()}::uuid, ${chain.chainSecret}, ${chain.dealCommitment}, ${Buffer.from(chain.dealCheckpoints)})
      ON CONFLICT ("playerId") DO UPDATE SET "playerId" = EXCLUDED."playerId"
      RETURNING "matchId"::text AS "matchId", "dealCommitment"`);
    return stored[0];
  }
}

/**
 * Inside a new match's insert: removes the pending draw it deals from, so no second match ever
 * deals from it. PendingChainTaken (the transaction rolls back) when it is gone already.
 */
export async function takePending(query: <R>(sql: Prisma.Sql) => Promise<R[]>, inputs: Pick<DealInputs, 'pendingOf' | 'matchId'>): Promise<void> {
  if (inputs.pendingOf === null) return;
  const taken = await query<{ one: number }>(Prisma.sql`
    DELETE FROM "PendingDealChain" WHERE "playerId" = ${inputs.pendingOf}::uuid AND "matchId" = ${inputs.matchId}::uuid
    RETURNING 1 AS "one"`);
  if (taken.length === 0) throw new PendingChainTaken();
}
