import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { DueItem } from '../due-work/due-work-kind.js';
import { PrismaService } from '../database/prisma.service.js';
import { StatsWriter } from './stats/stats.writer.js';
import type { MoveRecord, Rules, RoundResult, RoundState } from '../domain/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import { CommitContributions } from './commit-contributions.js';
import { commitStatement } from './commit-statement.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { loadedMatch, MATCH_COLUMNS, type MatchRow } from './match-row.js';
import { takePending } from './pending-deal-chains.js';
import {
  AlreadyRematched,
  VersionConflict,
  WaitingCapReached,
  type Commit,
  type CommitResult,
  type EventWithMove,
  type FinishedRound,
  type MatchmakingRecord,
  type LoadedMatch,
  type StoredEvent,
} from './loaded-match.js';

type Query = <R>(sql: Prisma.Sql) => Promise<R[]>;

/** A second match's commit made in the same transaction as an insert (a rematch's offer on the finished match). */
export interface AlsoCommit {
  commit: Commit;
  seats: readonly (string | null)[];
}

/** A match about to be created: its settings and empty seats (the first commit seats the creator). */
export interface NewMatch {
  id: string;
  createdById: string;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  /** the deal chain's head S_N and checkpoints (secret) and its published commitment (docs/fair-deals.md) */
  chainSecret: string;
  dealCheckpoints: Uint8Array;
  dealCommitment: string;
  /** the player whose pending draw (this id and chain) it is, taken by the insert (PendingDealChains); null: drawn for it alone */
  pendingOf: string | null;
  seats: { index: number; team: number; isBot: boolean; botStrategy: string | null; clientSeed: string }[];
  teams: number;
  /** visibility, invitation and rematch links (docs/matchmaking.md) */
  matchmaking: Omit<MatchmakingRecord, 'rematchId'>;
  /** the clock's settings; null: no clock */
  clock?: LoadedMatch['clock'];
}

/** The only place that talks to the database about matches. */
@Injectable()
export class MatchesRepository {
  /** How long a fresh bot turn is left to the in-process wake-up before sweepers may take it. */
  private readonly botGraceSeconds: number;
  /** How long a WAITING match nobody joins stays open (OPEN_MATCH_TTL_HOURS). */
  private readonly openMatchTtlSeconds: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly stats: StatsWriter,
    private readonly contributions: CommitContributions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.botGraceSeconds = config.sweep.graceMs / 1000;
    this.openMatchTtlSeconds = config.openMatchTtlHours * 3600;
  }

  /**
   * Claims up to `limit` matches whose bot is due to move, oldest first, skipping rows another
   * instance is claiming or committing right now; the claim pushes their due time `leaseMs` ahead
   * (the lease). Background work: not counted in the request metrics.
   */
  async claimDueBotTurns(limit: number, leaseMs: number): Promise<DueItem[]> {
    const rows = await this.prisma.background<{ id: string; lateMs: number }>(Prisma.sql`
      UPDATE "Match" m SET "botDueAt" = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      FROM (SELECT "id", "botDueAt" FROM "Match" WHERE "botDueAt" <= now() ORDER BY "botDueAt" LIMIT ${limit}::int FOR UPDATE SKIP LOCKED) due
      WHERE m."id" = due."id"
      RETURNING m."id", (EXTRACT(EPOCH FROM now() - due."botDueAt") * 1000)::float8 AS "lateMs"`);
    return rows.map((r) => ({ key: r.id, lateMs: r.lateMs }));
  }

  /** The match with its seats and players' names, in one round trip (every command starts here). */
  async find(id: string): Promise<LoadedMatch | null> {
    const rows = await this.prisma.poolQuery<MatchRow>(Prisma.sql`SELECT ${MATCH_COLUMNS} FROM "Match" m WHERE m."id" = ${id}::uuid`);
    return rows[0] ? loadedMatch(rows[0]) : null;
  }

  /** These matches (those that exist), in one round trip: a myTurns catch-up reads a page at once. */
  async findMany(ids: readonly string[]): Promise<LoadedMatch[]> {
    const rows = await this.prisma.poolQuery<MatchRow>(Prisma.sql`SELECT ${MATCH_COLUMNS} FROM "Match" m WHERE m."id" = ANY(${[...ids]}::uuid[])`);
    return rows.map(loadedMatch);
  }

  /**
   * A new match and its first command (the creator sits down, and with bots in every other seat
   * the deal) in ONE transaction, so that no crash can leave a match its creator does not sit
   * in. A first commit with a `waitingCap` (the match stays WAITING) is counted against it as
   * commit() does: WaitingCapReached, with nothing written, when over the cap.
   */
  async insert(m: NewMatch, first: Commit, seats: readonly (string | null)[], also?: AlsoCommit): Promise<CommitResult> {
    return this.prisma.transaction(async (query) => {
      if (first.waitingCap) await this.holdWaitingCap(query, first.waitingCap.playerId, first.waitingCap.max);
      await takePending(query, { pendingOf: m.pendingOf, matchId: m.id });
      const s = m.seats;
      const mm = m.matchmaking;
      try {
        await query(Prisma.sql`
        WITH new_match AS (
          INSERT INTO "Match" ("id", "seatCount", "partnerships", "rules", "chainSecret", "dealCommitment", "createdById", "createdAt", "updatedAt",
                               "private", "inviteCode", "rematchOfId", "rematchLeaderSeat", "rematchLeaderId", "clock")
          VALUES (${m.id}::uuid, ${m.seatCount}, ${m.partnerships}, ${JSON.stringify(m.rules)}::jsonb, ${m.chainSecret}, ${m.dealCommitment},
                  ${m.createdById}::uuid, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC',
                  ${mm.private}, ${mm.inviteCode}, ${mm.rematchOfId}::uuid, ${mm.rematchLeader?.seat ?? null}::int, ${mm.rematchLeader?.playerId ?? null}::uuid,
                  ${m.clock ? JSON.stringify(m.clock) : null}::jsonb)
          RETURNING "id"),
        deal_chain AS (
          INSERT INTO "MatchDealChain" ("matchId", "checkpoints") SELECT "id", ${Buffer.from(m.dealCheckpoints)} FROM new_match),
        new_seats AS (
          INSERT INTO "Seat" ("matchId", "index", "playerId", "team", "isBot", "botStrategy", "clientSeed")
          SELECT ${m.id}::uuid, x.idx, NULL, x.team, x.bot, x.strategy, x.client_seed
          FROM unnest(${s.map((x) => x.index)}::int[], ${s.map((x) => x.team)}::int[], ${s.map((x) => x.isBot)}::boolean[],
                      ${s.map((x) => x.botStrategy)}::text[], ${s.map((x) => x.clientSeed)}::text[]) AS x(idx, team, bot, strategy, client_seed))
        INSERT INTO "Team" ("matchId", "index") SELECT ${m.id}::uuid, generate_series(0, ${m.teams - 1}::int)`);
      } catch (e) {
        // Another player's rematch of the same match committed first (Match.rematchOfId is unique).
        if (mm.rematchOfId !== null && isUniqueViolation(e)) throw new AlreadyRematched();
        throw e;
      }
      const result = await this.commitWith(query, first, seats);
      // A rematch's REMATCH_OFFERED on the finished match commits with it, or neither does.
      if (also) await this.commitWith(query, also.commit, also.seats);
      return result;
    });
  }

  /**
   * The move a command with this idempotency key from this player stored in this match, if any.
   * On the hot path of every command that carries a clientMoveId, hence raw SQL on the pool.
   */
  async clientMove(
    matchId: string,
    playerId: string,
    clientMoveId: string,
  ): Promise<Pick<MoveRecord, 'seq' | 'seat' | 'type' | 'tile' | 'end'> | null> {
    const rows = await this.prisma.poolQuery<{
      seq: number;
      seat: number;
      type: MoveRecord['type'];
      tileHigh: number | null;
      tileLow: number | null;
      end: MoveRecord['end'];
    }>(
      Prisma.sql`SELECT "seq", "seat", "type"::text AS "type", "tileHigh", "tileLow", "end" FROM "Move"
                 WHERE "matchId" = ${matchId}::uuid AND "playerId" = ${playerId}::uuid AND "clientMoveId" = ${clientMoveId}`,
    );
    const m = rows[0];
    if (!m) return null;
    const tile = m.tileHigh === null || m.tileLow === null ? null : { high: m.tileHigh, low: m.tileLow };
    return { seq: m.seq, seat: m.seat, type: m.type, tile, end: m.end };
  }

  /**
   * Writes one command atomically: one statement (see commitStatement), on the pool, with no
   * BEGIN/COMMIT round trips. A command that seats a player in a match still WAITING carries a
   * `waitingCap`: that one runs in a transaction that locks the player's row and counts their
   * WAITING matches first, as insert() does, so that concurrent joins and creates by one player
   * are counted one after another (WaitingCapReached, nothing written, when over the cap).
   *
   * @param seats who sits in each seat, by index, once this commit holds (for the history's
   *   writes). Taken from the loaded match the command decided on, not re-read: Seat rows change only
   *   through commit(), and the compare-and-set proves that loaded match current.
   */
  async commit(c: Commit, seats: readonly (string | null)[]): Promise<CommitResult> {
    const cap = c.waitingCap;
    if (!cap) return this.commitWith((sql) => this.prisma.poolQuery(sql), c, seats);
    return this.prisma.transaction(async (query) => {
      await this.holdWaitingCap(query, cap.playerId, cap.max);
      return this.commitWith(query, c, seats);
    });
  }

  /** Locks the player's row, then refuses (WaitingCapReached) when they already sit in `max` WAITING matches. */
  private async holdWaitingCap(query: Query, playerId: string, max: number): Promise<void> {
    await query(Prisma.sql`SELECT 1 FROM "Player" WHERE "id" = ${playerId}::uuid FOR NO KEY UPDATE`);
    const [{ waiting }] = await query<{ waiting: number }>(
      Prisma.sql`SELECT count(*)::int AS "waiting" FROM "PlayerMatch" WHERE "playerId" = ${playerId}::uuid AND "status" = 'WAITING'`,
    );
    if (waiting >= max) throw new WaitingCapReached(max);
  }

  private async commitWith(query: Query, c: Commit, seats: readonly (string | null)[]): Promise<CommitResult> {
    const events: StoredEvent[] = c.events.map((e, i) => ({ ...e, seq: c.lastEventSeq + 1 + i }));
    try {
      // History index, player stats and other modules' writes (the webhook outbox) move with the commit, never apart from it.
      const contributed = (guard: Prisma.Sql) => [...this.stats.ctes(c, seats, guard), ...this.contributions.ctes(c, seats, guard)];
      const statement = commitStatement(c, events, this.botGraceSeconds, contributed, this.openMatchTtlSeconds);
      const rows = await query<{ version: number }>(statement);
      if (rows.length === 0) throw new VersionConflict();
      return { version: c.expectedVersion + 1, events };
    } catch (e) {
      // Two retries of one command racing on the same idempotency key: the loser re-reads.
      if (isUniqueViolation(e)) throw new VersionConflict();
      throw e;
    }
  }

  /** The finished rounds of each of these matches, in round order (one statement for them all). */
  async finishedRoundsOf(matchIds: readonly string[]): Promise<FinishedRound[][]> {
    const rows = await this.prisma.round.findMany({
      where: { matchId: { in: [...matchIds] }, status: 'FINISHED' },
      orderBy: [{ matchId: 'asc' }, { number: 'asc' }],
      select: { matchId: true, number: true, snapshot: true, result: true },
    });
    const byMatch = new Map<string, FinishedRound[]>(matchIds.map((id) => [id, []]));
    for (const r of rows) {
      byMatch.get(r.matchId)?.push({ number: r.number, snapshot: r.snapshot as unknown as RoundState, result: r.result as unknown as RoundResult });
    }
    return matchIds.map((id) => byMatch.get(id)!);
  }

  /** Stored events after `afterSeq`, in order, each with its move (unredacted: views redact). */
  async eventsAfter(matchId: string, afterSeq: number, limit = 500): Promise<EventWithMove[]> {
    const rows = await this.prisma.$queryRaw<
      {
        seq: number;
        type: EventWithMove['type'];
        moveSeq: number | null;
        round: number | null;
        seat: number | null;
        moveType: MoveRecord['type'] | null;
        tileHigh: number | null;
        tileLow: number | null;
        end: string | null;
        points: number | null;
        count: number | null;
        eventSeat: number | null;
        timedOut: boolean | null;
      }[]
    >`
      SELECT e.seq, e.type, m.seq AS "moveSeq", m.round, m.seat, m.type::text AS "moveType", m."tileHigh", m."tileLow", m."end", m.points, m.count,
             e.seat AS "eventSeat", m."timedOut"
      FROM "MatchEvent" e
      LEFT JOIN "Move" m ON m."matchId" = e."matchId" AND m.seq = e."moveSeq"
      WHERE e."matchId" = ${matchId}::uuid AND e.seq > ${afterSeq}
      ORDER BY e.seq
      LIMIT ${limit}`;
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
      seat: r.eventSeat,
      timedOut: r.timedOut ?? false,
      move:
        r.moveSeq === null
          ? null
          : {
              seq: r.moveSeq,
              round: r.round!,
              seat: r.seat!,
              type: r.moveType!,
              tile: r.tileHigh === null ? null : { high: r.tileHigh, low: r.tileLow! },
              end: r.end as MoveRecord['end'],
              points: r.points!,
              count: r.count,
            },
    }));
  }
}
