import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { FeedRegistry } from './feed-registry.js';

/** How far before the last re-check an end is still looked for (see `recheckPlayers`). */
const ENDS_OVERLAP_MS = 60_000;

/**
 * A backstop for signals that never came. A command signals its commit after the commit, from
 * its own process: a crash in between, a NOTIFY that failed, or a commit whose answer the
 * connection lost leaves the match's feeds (on every instance, with PUBSUB=postgres) waiting for
 * events that are in the table. Every FEED_RECHECK_MS one statement reads the newest event of
 * each match watched here; a feed behind it reads what it missed from the table, as after a
 * resync. A myTurns feed is handed, the same way, a turn of its player that no signal announced,
 * and an end (or rematch offer) of one of their matches (one more statement over the watched
 * players' seats). Signals still carry every event at once:
 * this only bounds how late a lost one is.
 */
@Injectable()
export class FeedRecheck implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FeedRecheck.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** When the last re-check of the watched players began (ms since the epoch). */
  private lastPlayersRecheck = 0;

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
      if (players.length > 0) await this.recheckPlayers(players);
    } catch (e) {
      this.logger.warn(`feed re-check failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.running = false;
    }
  }

  /**
   * The turns that are each watched player's now (as myTurns' catch-up reads them), and the ends
   * and rematch offers of their matches since the last re-check, in one statement: both come from
   * one pass over the players' seats.
   */
  private async recheckPlayers(players: string[]): Promise<void> {
    const startedAt = Date.now();
    // A commit is stamped when its transaction began, so one that was still running at the last
    // re-check may carry an earlier time: the window reaches back ENDS_OVERLAP_MS further.
    const since = players.map((p) =>
      new Date(Math.max(this.registry.watchedSince(p) ?? startedAt, this.lastPlayersRecheck - ENDS_OVERLAP_MS)).toISOString(),
    );
    const rows = await this.prisma.background<{ playerId: string; matchId: string; version: number; lastSeq: number; live: boolean }>(Prisma.sql`
      SELECT s."playerId"::text AS "playerId", m."id"::text AS "matchId", m."version", m."lastEventSeq" AS "lastSeq",
             m."status" = 'IN_PROGRESS' AS "live"
        FROM unnest(${players}::uuid[], ${since}::timestamptz[]) AS w("playerId", "since")
        JOIN "Seat" s ON s."playerId" = w."playerId"
        JOIN "Match" m ON m."id" = s."matchId"
       WHERE (m."status" = 'IN_PROGRESS' AND m."turn" = s."index")
          OR (m."status" IN ('FINISHED', 'ABANDONED') AND m."updatedAt" > w."since")`);
    this.lastPlayersRecheck = startedAt;
    type Found = { matchId: string; version: number; lastSeq: number };
    const byPlayer = new Map<string, { turns: Found[]; ends: Found[] }>(players.map((p) => [p, { turns: [], ends: [] }]));
    for (const { playerId, live, ...found } of rows) byPlayer.get(playerId)?.[live ? 'turns' : 'ends'].push(found);
    byPlayer.forEach(({ turns, ends }, playerId) => {
      this.registry.turnsNow(playerId, turns);
      this.registry.endsNow(playerId, ends);
    });
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
