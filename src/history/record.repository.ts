import { Injectable } from '@nestjs/common';
import { PrismaService } from '../database/prisma.service.js';
import type { End, Rules, Tile } from '../domain/index.js';
import type { MatchStatusValue } from '../matches/loaded-match.js';
import type { RecordSource } from './record-format.js';
import type { FairDealSource } from './record-format-v2.js';

type Raw = {
  id: string;
  status: MatchStatusValue;
  createdAt: Date | string;
  finishedAt: Date | string | null;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  winnerTeam: number | null;
  chainSecret: string;
  dealCheckpoints: Uint8Array | null;
  dealCommitment: string;
  clientSeeds: string[] | null;
  seats: RecordSource['seats'] | null;
  scores: number[] | null;
  rounds: RecordSource['rounds'] | null;
  /** [seq, round, seat, type, tileHigh, tileLow, end, points, count]: compact, it is the bulk */
  moves: [number, number, number, 'PLAY' | 'DRAW' | 'PASS', number | null, number | null, End | null, number, number | null][] | null;
  cutShortHands: Tile[][] | null;
  round1Leader: number | null;
  forfeit: RecordSource['forfeit'];
};

/**
 * Reads what a match record is made of in one statement; of the snapshot only a cut-short round's
 * hands. The chain's head and checkpoints are read for a FINISHED match only, to reveal its rounds'
 * secrets; they never go into the record.
 */
@Injectable()
export class RecordRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The match's status alone when it is not FINISHED; its full source when it is; null if none. */
  async load(matchId: string): Promise<{ status: MatchStatusValue; source: RecordSource | null; fair: FairDealSource | null } | null> {
    const rows = await this.prisma.$queryRaw<Raw[]>`
      SELECT m."id", m."status"::text AS "status", m."createdAt", m."finishedAt", m."seatCount", m."partnerships", m."rules", m."winnerTeam",
        CASE WHEN m."status" = 'FINISHED' THEN m."chainSecret" END AS "chainSecret", m."dealCommitment",
        CASE WHEN m."status" = 'FINISHED' THEN (SELECT c."checkpoints" FROM "MatchDealChain" c WHERE c."matchId" = m."id") END AS "dealCheckpoints",
        (SELECT json_agg(s."clientSeed" ORDER BY s."index") FROM "Seat" s WHERE s."matchId" = m."id") AS "clientSeeds",
        (SELECT json_agg(json_build_object('index', s."index", 'team', s."team", 'isBot', s."isBot", 'botStrategy', s."botStrategy",
                                           'playerId', s."playerId", 'playerName', p."name") ORDER BY s."index")
           FROM "Seat" s LEFT JOIN "Player" p ON p."id" = s."playerId" WHERE s."matchId" = m."id") AS "seats",
        (SELECT json_agg(t."score" ORDER BY t."index") FROM "Team" t WHERE t."matchId" = m."id") AS "scores",
        CASE WHEN m."status" = 'FINISHED' THEN
          (SELECT json_agg(json_build_object('number', r."number", 'starter', r."starter", 'status', r."status", 'result', r."result") ORDER BY r."number")
             FROM "Round" r WHERE r."matchId" = m."id") END AS "rounds",
        CASE WHEN m."status" = 'FINISHED' THEN
          (SELECT json_agg(json_build_array(v."seq", v."round", v."seat", v."type", v."tileHigh", v."tileLow", v."end", v."points", v."count") ORDER BY v."seq")
             FROM "Move" v WHERE v."matchId" = m."id") END AS "moves",
        -- the hands of a round a resignation cut short: the match is over, so they are shown
        CASE WHEN m."status" = 'FINISHED' AND m."state"->'round'->>'status' = 'IN_PROGRESS' THEN m."state"->'round'->'hands' END AS "cutShortHands",
        -- R24: a rematch's round 1 led by the previous winning scorer's seat (absent: by lot)
        (m."state"->'config'->>'round1Leader')::int AS "round1Leader",
        -- a forfeit ended it: the event just before MATCH_FINISHED says why and which seat
        CASE WHEN m."status" = 'FINISHED' THEN
          (SELECT json_build_object('cause', c."type", 'seat', c."seat") FROM "MatchEvent" f
             JOIN "MatchEvent" c ON c."matchId" = f."matchId" AND c."seq" = f."seq" - 1 AND c."type" IN ('RESIGNED', 'TIMED_OUT')
            WHERE f."matchId" = m."id" AND f."type" = 'MATCH_FINISHED') END AS "forfeit"
      FROM "Match" m WHERE m."id" = ${matchId}::uuid`;
    const m = rows[0];
    if (!m) return null;
    if (m.status !== 'FINISHED' || m.winnerTeam === null) return { status: m.status, source: null, fair: null };
    return {
      status: m.status,
      fair: { chainSecret: m.chainSecret, dealCheckpoints: m.dealCheckpoints, dealCommitment: m.dealCommitment, clientSeeds: m.clientSeeds ?? [] },
      source: {
        id: m.id,
        createdAt: new Date(m.createdAt),
        finishedAt: m.finishedAt === null ? null : new Date(m.finishedAt),
        seatCount: m.seatCount,
        partnerships: m.partnerships,
        rules: m.rules,
        winnerTeam: m.winnerTeam,
        seats: m.seats ?? [],
        scores: m.scores ?? [],
        rounds: (m.rounds ?? []).map((r) => ({ ...r, result: r.result })),
        cutShortHands: m.cutShortHands,
        round1Leader: m.round1Leader,
        forfeit: m.forfeit,
        moves: (m.moves ?? []).map(([seq, round, seat, type, high, low, end, points, count]) => ({
          seq,
          round,
          seat,
          type,
          tile: high === null || low === null ? null : { high, low },
          end,
          points,
          count,
        })),
      },
    };
  }
}
