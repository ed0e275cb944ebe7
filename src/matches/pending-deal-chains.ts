import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { newDealChain, type DealChain } from './fair-deal-secrets.js';

/** A chain drawn ahead for a player's next new match; `pendingOf` names whose it is, so its insert takes it. */
export interface ChainForNewMatch extends DealChain {
  pendingOf: string | null;
}

/** The pending chain's commitment no longer matches: a concurrent new match of the same player took it first. */
export class PendingChainTaken extends Error {
  constructor() {
    super('the pending deal chain was taken by another new match');
  }
}

/**
 * The deal chain of a player's next new match, drawn before that match exists (docs/fair-deals.md,
 * "Holding the server to its commitment"). A player's seed sent with `createMatch` reaches the
 * server in the same request that creates the match; without this, the server would draw the
 * chain after seeing that seed and could draw again until it liked the deal. Read
 * `nextDealCommitment` first, send the seed, and the new match's `dealCommitment` must be the one
 * read: the chain was fixed before the seed was known.
 */
@Injectable()
export class PendingDealChains {
  constructor(private readonly prisma: PrismaService) {}

  /** The commitment of the player's pending chain, drawn now if they have none. */
  async commitmentFor(playerId: string): Promise<string> {
    const pending = await this.pendingCommitment(playerId);
    if (pending !== null) return pending;
    const chain = newDealChain();
    // A concurrent first read may have stored its chain meanwhile: this one is then dropped and that
    // one answered (the no-op update makes RETURNING give the row that is there).
    const rows = await this.prisma.poolQuery<{ dealCommitment: string }>(Prisma.sql`
      INSERT INTO "PendingDealChain" ("playerId", "chainSecret", "dealCommitment", "checkpoints")
      VALUES (${playerId}::uuid, ${chain.chainSecret}, ${chain.dealCommitment}, ${Buffer.from(chain.dealCheckpoints)})
      ON CONFLICT ("playerId") DO UPDATE SET "playerId" = EXCLUDED."playerId"
      RETURNING "dealCommitment"`);
    return rows[0].dealCommitment;
  }

  /**
   * The chain a new match of this player deals from: their pending one if they read its
   * commitment, otherwise a fresh one (nobody saw a commitment, so nobody holds the server to one).
   * The insert of the match takes the pending chain in its transaction (takePending).
   */
  async forNewMatch(playerId: string): Promise<ChainForNewMatch> {
    const rows = await this.prisma.poolQuery<{ chainSecret: string; dealCommitment: string; checkpoints: Uint8Array }>(Prisma.sql`
      SELECT "chainSecret", "dealCommitment", "checkpoints" FROM "PendingDealChain" WHERE "playerId" = ${playerId}::uuid`);
    const row = rows[0];
    if (!row) return { ...newDealChain(), pendingOf: null };
    return {
      chainSecret: row.chainSecret,
      dealCommitment: row.dealCommitment,
      dealCheckpoints: new Uint8Array(row.checkpoints),
      pendingOf: playerId,
    };
  }

  private async pendingCommitment(playerId: string): Promise<string | null> {
    const rows = await this.prisma.poolQuery<{ dealCommitment: string }>(
      Prisma.sql`SELECT "dealCommitment" FROM "PendingDealChain" WHERE "playerId" = ${playerId}::uuid`,
    );
    return rows[0]?.dealCommitment ?? null;
  }
}

/**
 * Inside a new match's insert: removes the pending chain it deals from, so no second match ever
 * deals from it. PendingChainTaken (the transaction rolls back) when it is gone already.
 */
export async function takePending(
  query: <R>(sql: Prisma.Sql) => Promise<R[]>,
  chain: Pick<ChainForNewMatch, 'pendingOf' | 'dealCommitment'>,
): Promise<void> {
  if (chain.pendingOf === null) return;
  const taken = await query<{ one: number }>(Prisma.sql`
    DELETE FROM "PendingDealChain" WHERE "playerId" = ${chain.pendingOf}::uuid AND "dealCommitment" = ${chain.dealCommitment}
    RETURNING 1 AS "one"`);
  if (taken.length === 0) throw new PendingChainTaken();
}
