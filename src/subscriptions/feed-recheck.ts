import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { FeedRegistry } from './feed-registry.js';

/**
 * A backstop for signals that never came. A command signals its commit after the commit, from
 * its own process: a crash in between, a NOTIFY that failed, or a commit whose answer the
 * connection lost leaves the match's feeds (on every instance, with PUBSUB=postgres) waiting for
 * events that are in the table. Every FEED_RECHECK_MS one statement reads the newest event of
 * each match watched here; a feed behind it reads what it missed from the table, as after a
 * resync. A myTurns feed is handed, the same way, a turn of its player that no signal announced
 * (one more statement over the watched players' seats). Signals still carry every event at once:
 * this only bounds how late a lost one is.
 */
@Injectable()
export class FeedRecheck implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FeedRecheck.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly registry: FeedRegistry,
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.feedRecheckMs <= 0) return;
    this.timer = setInterval(() => void this.recheck(), this.config.feedRecheckMs);
    this.timer.unref();
  }

  /**
   * Tells the feeds of every watched match whose table is ahead of its signals to read it, and
   * the myTurns feeds of every watched player the turns no signal announced.
   */
  async recheck(): Promise<void> {
    const matches = this.registry.watchedMatches();
    const players = this.registry.watchedPlayers();
    if (this.running || matches.length + players.length === 0) return;
    this.running = true;
    try {
      if (matches.length > 0) {
        const rows = await this.prisma.background<{ id: string; lastEventSeq: number }>(
          Prisma.sql`SELECT "id"::text AS "id", "lastEventSeq" FROM "Match" WHERE "id" = ANY(${matches}::uuid[])`,
        );
        for (const row of rows) this.registry.behind(row.id, row.lastEventSeq);
      }
      if (players.length > 0) await this.recheckTurns(players);
    } catch (e) {
      this.logger.warn(`feed re-check failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.running = false;
    }
  }

  /** The turns that are each watched player's now (as myTurns' catch-up reads them), in one statement. */
  private async recheckTurns(players: string[]): Promise<void> {
    const rows = await this.prisma.background<{ playerId: string; matchId: string; version: number; lastSeq: number }>(Prisma.sql`
      SELECT s."playerId"::text AS "playerId", m."id"::text AS "matchId", m."version", m."lastEventSeq" AS "lastSeq"
        FROM "Seat" s JOIN "Match" m ON m."id" = s."matchId"
       WHERE s."playerId" = ANY(${players}::uuid[]) AND m."status" = 'IN_PROGRESS' AND m."turn" = s."index"`);
    const byPlayer = new Map<string, { matchId: string; version: number; lastSeq: number }[]>(players.map((p) => [p, []]));
    for (const r of rows) byPlayer.get(r.playerId)?.push(r);
    byPlayer.forEach((turns, playerId) => this.registry.turnsNow(playerId, turns));
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
