import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import { StatsWriter } from '../history/stats.writer.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { MatchState, MoveRecord, Rules, RoundResult, RoundState } from '../domain/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import {
  VersionConflict,
  type Commit,
  type CommitResult,
  type EventWithMove,
  type FinishedRoundRecord,
  type MatchRecord,
  type StoredEvent,
} from './match-record.js';

export const matchInclude = { seats: { orderBy: { index: 'asc' }, include: { player: { select: { name: true } } } } } as const;
export type MatchWithSeats = Prisma.MatchGetPayload<{ include: typeof matchInclude }>;

export function toRecord(m: MatchWithSeats): MatchRecord {
  return {
    id: m.id,
    status: m.status,
    version: m.version,
    seatCount: m.seatCount,
    partnerships: m.partnerships,
    rules: m.rules as unknown as Rules,
    chainSecret: m.chainSecret,
    dealCommitment: m.dealCommitment,
    state: m.state as unknown as MatchState | null,
    lastEventSeq: m.lastEventSeq,
    createdAt: m.createdAt,
    winnerTeam: m.winnerTeam,
    seats: m.seats.map((s) => ({
      index: s.index,
      playerId: s.playerId,
      playerName: s.player?.name ?? null,
      team: s.team,
      isBot: s.isBot,
      botStrategy: s.botStrategy,
      clientSeed: s.clientSeed,
    })),
  };
}

/** A unique-key violation, whether Prisma mapped it (P2002) or it came from a raw statement. */
function isUniqueViolation(e: unknown): boolean {
  if ((e as { code?: unknown }).code === '23505') return true; // straight from node-postgres (hot path)
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (e.code === 'P2002') return true;
  const meta = e.meta as { code?: string; driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } } | undefined;
  return (
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505'
  );
}

/** A match about to be created: its settings and empty seats (the first commit seats the creator). */
export interface NewMatch {
  id: string;
  createdById: string;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  /** the deal chain's head S_N (secret) and its published commitment (docs/fair-deals.md) */
  chainSecret: string;
  dealCommitment: string;
  seats: { index: number; team: number; isBot: boolean; botStrategy: string | null; clientSeed: string }[];
  teams: number;
}

/** The only place that talks to the database about matches. */
@Injectable()
export class MatchesRepository {
  /** How long a fresh bot turn is left to the in-process wake-up before sweepers may take it. */
  private readonly botGraceSeconds: number;

  constructor(
    private readonly prisma: PrismaService,
    private readonly stats: StatsWriter,
    private readonly outbox: WebhookOutbox,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.botGraceSeconds = config.sweep.graceMs / 1000;
  }

  /**
   * Claims up to `limit` matches whose bot is due to move, oldest first, skipping rows another
   * instance is claiming or committing right now; the claim pushes their due time `leaseMs` ahead
   * (the lease). Background work: not counted in the request metrics.
   */
  async claimDueBotTurns(limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.prisma.background<{ id: string }>(Prisma.sql`
      UPDATE "Match" m SET "botDueAt" = now() + make_interval(secs => ${leaseMs / 1000}::float8)
      FROM (SELECT "id" FROM "Match" WHERE "botDueAt" <= now() ORDER BY "botDueAt" LIMIT ${limit}::int FOR UPDATE SKIP LOCKED) due
      WHERE m."id" = due."id"
      RETURNING m."id"`);
    return rows.map((r) => r.id);
  }

  /** The match with its seats and players' names, in one round trip (every command starts here). */
  async find(id: string): Promise<MatchRecord | null> {
    const rows = await this.prisma.hot<Omit<MatchRecord, 'seats'> & { seats: MatchRecord['seats'] }>(Prisma.sql`
      SELECT m."id", m."status"::text AS "status", m."version", m."seatCount", m."partnerships", m."rules", m."chainSecret", m."dealCommitment", m."state",
             m."lastEventSeq", m."createdAt" AT TIME ZONE 'UTC' AS "createdAt", m."winnerTeam",
             (SELECT json_agg(json_build_object(
                       'index', s."index", 'playerId', s."playerId", 'playerName', p."name", 'team', s."team",
                       'isBot', s."isBot", 'botStrategy', s."botStrategy", 'clientSeed', s."clientSeed") ORDER BY s."index")
                FROM "Seat" s LEFT JOIN "Player" p ON p."id" = s."playerId"
               WHERE s."matchId" = m."id") AS "seats"
      FROM "Match" m WHERE m."id" = ${id}::uuid`);
    const r = rows[0];
    return r ? { ...r, seats: r.seats ?? [] } : null;
  }

  /**
   * A new match and its first command (the creator sits down, and with bots in every other seat
   * the deal) in ONE transaction, so that no crash can leave a match its creator does not sit
   * in. The creator's row is locked first, so that concurrent creates count the creator's
   * WAITING matches one after another; null, with nothing written, when the new match would be
   * one more than `maxWaiting`.
   */
  async insert(m: NewMatch, first: Commit, seats: readonly (string | null)[], maxWaiting: number): Promise<CommitResult | null> {
    return this.prisma.transaction(async (query) => {
      await query(Prisma.sql`SELECT 1 FROM "Player" WHERE "id" = ${m.createdById}::uuid FOR NO KEY UPDATE`);
      if (first.status === 'WAITING') {
        const [{ waiting }] = await query<{ waiting: number }>(
          Prisma.sql`SELECT count(*)::int AS "waiting" FROM "PlayerMatch" WHERE "playerId" = ${m.createdById}::uuid AND "status" = 'WAITING'`,
        );
        if (waiting >= maxWaiting) return null;
      }
      const s = m.seats;
      await query(Prisma.sql`
        WITH new_match AS (
          INSERT INTO "Match" ("id", "seatCount", "partnerships", "rules", "chainSecret", "dealCommitment", "createdById", "createdAt", "updatedAt")
          VALUES (${m.id}::uuid, ${m.seatCount}, ${m.partnerships}, ${JSON.stringify(m.rules)}::jsonb, ${m.chainSecret}, ${m.dealCommitment},
                  ${m.createdById}::uuid, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')),
        new_seats AS (
          INSERT INTO "Seat" ("matchId", "index", "playerId", "team", "isBot", "botStrategy", "clientSeed")
          SELECT ${m.id}::uuid, x.idx, NULL, x.team, x.bot, x.strategy, x.client_seed
          FROM unnest(${s.map((x) => x.index)}::int[], ${s.map((x) => x.team)}::int[], ${s.map((x) => x.isBot)}::boolean[],
                      ${s.map((x) => x.botStrategy)}::text[], ${s.map((x) => x.clientSeed)}::text[]) AS x(idx, team, bot, strategy, client_seed))
        INSERT INTO "Team" ("matchId", "index") SELECT ${m.id}::uuid, generate_series(0, ${m.teams - 1}::int)`);
      return this.commitWith(query, first, seats);
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
    const rows = await this.prisma.hot<{
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
   * Writes one command atomically as ONE statement of data-modifying CTEs: the compare-and-set on
   * `version` first, and every other write guarded by it, so when the version moved on (a
   * concurrent command committed first; this one waited on the row lock) nothing is written and
   * the command is re-run (VersionConflict). One statement needs no BEGIN/COMMIT round trips: a
   * round-ending command costs one round trip like any move, instead of holding a transaction
   * open across ten while the event loop serves other requests.
   *
   * @param seats who sits in each seat, by index, once this commit holds (for the history's
   *   writes). Taken from the record the command decided on, not re-read: Seat rows change only
   *   through commit(), and the compare-and-set proves that record current.
   */
  async commit(c: Commit, seats: readonly (string | null)[]): Promise<CommitResult> {
    return this.commitWith((sql) => this.prisma.hot(sql), c, seats);
  }

  private async commitWith(query: <R>(sql: Prisma.Sql) => Promise<R[]>, c: Commit, seats: readonly (string | null)[]): Promise<CommitResult> {
    const events: StoredEvent[] = c.events.map((e, i) => ({ ...e, seq: c.lastEventSeq + 1 + i }));
    const guard = Prisma.sql`EXISTS (SELECT 1 FROM cas)`;
    const ctes = [
      ...(c.seatChanges?.length ? [this.seatsCte(c, c.seatChanges, guard)] : []),
      ...(c.moves.length > 0 ? [this.movesCte(c, guard)] : []),
      ...(events.length > 0 ? [this.eventsCte(c, events, guard)] : []),
      ...(c.scores ? [this.scoresCte(c, c.scores, guard)] : []),
      ...(c.roundsFinished.length > 0 ? [this.roundsFinishedCte(c, guard)] : []),
      ...(c.roundsStarted.length > 0 ? [this.roundsStartedCte(c, guard)] : []),
      // History index and player stats move with the commit, never apart from it.
      ...this.stats.ctes(c, seats, guard),
      // Webhook messages: written with the commit or not at all (the outbox).
      ...this.outbox.ctes(c, seats, guard),
    ];
    try {
      const statement = ctes.reduce((sql, cte) => Prisma.sql`${sql}, ${cte}`, Prisma.sql`WITH ${this.casCte(c, events)}`);
      const rows = await query<{ version: number }>(Prisma.sql`${statement} SELECT "version" FROM cas`);
      if (rows.length === 0) throw new VersionConflict();
      return { version: c.expectedVersion + 1, events };
    } catch (e) {
      // Two retries of one command racing on the same idempotency key: the loser re-reads.
      if (isUniqueViolation(e)) throw new VersionConflict();
      throw e;
    }
  }

  /** `cas AS (…)`: the compare-and-set on the match row; it returns a row only if it held. */
  private casCte(c: Commit, events: StoredEvent[]): Prisma.Sql {
    return Prisma.sql`cas AS (
      UPDATE "Match" SET
        "version" = "version" + 1,
        "status" = ${c.status}::"MatchStatus",
        "state" = ${c.state === null ? null : JSON.stringify(c.state)}::jsonb,
        "turn" = ${c.state && c.status === 'IN_PROGRESS' ? c.state.round.turn : null}::int,
        "botDueAt" = CASE WHEN ${c.botToMove ?? false} THEN now() + make_interval(secs => ${this.botGraceSeconds}::float8) END,
        "winnerTeam" = ${c.winnerTeam}::int,
        "lastEventSeq" = "lastEventSeq" + ${events.length}::int,
        "startedAt" = CASE WHEN ${c.started ?? false} THEN now() ELSE "startedAt" END,
        "finishedAt" = CASE WHEN ${c.finished ?? false} THEN now() ELSE "finishedAt" END,
        "updatedAt" = now()
      WHERE "id" = ${c.matchId}::uuid AND "version" = ${c.expectedVersion}
      RETURNING "version")`;
  }

  private seatsCte(c: Commit, changes: NonNullable<Commit['seatChanges']>, guard: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`seats AS (
      UPDATE "Seat" s SET "playerId" = x.player, "clientSeed" = x.client_seed
      FROM unnest(${changes.map((x) => x.index)}::int[], ${changes.map((x) => x.playerId)}::uuid[], ${changes.map((x) => x.clientSeed)}::text[])
        AS x(idx, player, client_seed)
      WHERE s."matchId" = ${c.matchId}::uuid AND s."index" = x.idx AND ${guard})`;
  }

  /** The command's moves in one multi-row INSERT (Prisma's createMany measured ~9 ms against ~1 ms). */
  private movesCte(c: Commit, guard: Prisma.Sql): Prisma.Sql {
    const m = c.moves;
    return Prisma.sql`moves AS (
      INSERT INTO "Move" ("matchId", "seq", "round", "seat", "type", "tileHigh", "tileLow", "end", "points", "count", "clientMoveId", "playerId")
      SELECT ${c.matchId}::uuid, x.seq, x.round, x.seat, x.type::"MoveType", x.high, x.low, x.end_, x.points, x.count,
             CASE WHEN x.ord = 1 THEN ${c.clientMoveId ?? null}::text END, CASE WHEN x.ord = 1 THEN ${c.playerId ?? null}::uuid END
      FROM unnest(
        ${m.map((v) => v.seq)}::int[], ${m.map((v) => v.round)}::int[], ${m.map((v) => v.seat)}::int[], ${m.map((v) => v.type)}::text[],
        ${m.map((v) => v.tile?.high ?? null)}::int[], ${m.map((v) => v.tile?.low ?? null)}::int[], ${m.map((v) => v.end)}::text[],
        ${m.map((v) => v.points)}::int[], ${m.map((v) => v.count)}::int[]
      ) WITH ORDINALITY AS x(seq, round, seat, type, high, low, end_, points, count, ord)
      WHERE ${guard})`;
  }

  private eventsCte(c: Commit, events: StoredEvent[], guard: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`events AS (
      INSERT INTO "MatchEvent" ("matchId", "seq", "type", "moveSeq")
      SELECT ${c.matchId}::uuid, e.seq, e.type, e.move_seq
      FROM unnest(${events.map((e) => e.seq)}::int[], ${events.map((e) => e.type)}::text[], ${events.map((e) => e.moveSeq)}::int[]) AS e(seq, type, move_seq)
      WHERE ${guard})`;
  }

  private scoresCte(c: Commit, scores: readonly number[], guard: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`scores AS (
      UPDATE "Team" t SET "score" = s.score
      FROM unnest(${[...scores]}::int[]) WITH ORDINALITY AS s(score, ord)
      WHERE t."matchId" = ${c.matchId}::uuid AND t."index" = s.ord - 1 AND t."score" <> s.score AND ${guard})`;
  }

  /** A finished round keeps its final state (hands revealed) and result. */
  private roundsFinishedCte(c: Commit, guard: Prisma.Sql): Prisma.Sql {
    const r = c.roundsFinished;
    return Prisma.sql`rounds_finished AS (
      UPDATE "Round" r SET "status" = 'FINISHED', "snapshot" = f.snapshot, "result" = f.result, "endedAt" = now()
      FROM unnest(
        ${r.map((x) => x.number)}::int[], ${r.map((x) => JSON.stringify(x.snapshot))}::jsonb[], ${r.map((x) => JSON.stringify(x.result))}::jsonb[]
      ) AS f(number, snapshot, result)
      WHERE r."matchId" = ${c.matchId}::uuid AND r."number" = f.number AND ${guard})`;
  }

  private roundsStartedCte(c: Commit, guard: Prisma.Sql): Prisma.Sql {
    const r = c.roundsStarted;
    return Prisma.sql`rounds_started AS (
      INSERT INTO "Round" ("matchId", "number", "starter")
      SELECT ${c.matchId}::uuid, x.number, x.starter
      FROM unnest(${r.map((x) => x.number)}::int[], ${r.map((x) => x.starter)}::int[]) AS x(number, starter)
      WHERE ${guard})`;
  }

  /** The finished rounds of each of these matches, in round order (one statement for them all). */
  async finishedRoundsOf(matchIds: readonly string[]): Promise<FinishedRoundRecord[][]> {
    const rows = await this.prisma.round.findMany({
      where: { matchId: { in: [...matchIds] }, status: 'FINISHED' },
      orderBy: [{ matchId: 'asc' }, { number: 'asc' }],
      select: { matchId: true, number: true, snapshot: true, result: true },
    });
    const byMatch = new Map<string, FinishedRoundRecord[]>(matchIds.map((id) => [id, []]));
    for (const r of rows) {
      byMatch.get(r.matchId)?.push({ number: r.number, snapshot: r.snapshot as unknown as RoundState, result: r.result as unknown as RoundResult });
    }
    return matchIds.map((id) => byMatch.get(id)!);
  }

  /** How many matches still WAITING this player sits in (the history index counts them). */
  async waitingCount(playerId: string): Promise<number> {
    const [{ waiting }] = await this.prisma.hot<{ waiting: number }>(
      Prisma.sql`SELECT count(*)::int AS "waiting" FROM "PlayerMatch" WHERE "playerId" = ${playerId}::uuid AND "status" = 'WAITING'`,
    );
    return waiting;
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
      }[]
    >`
      SELECT e.seq, e.type, m.seq AS "moveSeq", m.round, m.seat, m.type::text AS "moveType", m."tileHigh", m."tileLow", m."end", m.points, m.count
      FROM "MatchEvent" e
      LEFT JOIN "Move" m ON m."matchId" = e."matchId" AND m.seq = e."moveSeq"
      WHERE e."matchId" = ${matchId}::uuid AND e.seq > ${afterSeq}
      ORDER BY e.seq
      LIMIT ${limit}`;
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
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
