import type { MatchState, Rules } from '../domain/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { LoadedMatch, MatchStatusValue } from './loaded-match.js';

/**
 * The one way a match is read: these columns of `"Match" m`, its seats and their players' names
 * in one subquery, mapped by `loadedMatch`. Every read (a command's load, the history pages)
 * selects MATCH_COLUMNS through PrismaService.poolQuery, so dates and numbers come back alike.
 * `createdAt` is stored as UTC wall time (`timestamp(3)`, Prisma's convention): read as UTC.
 */
export const MATCH_COLUMNS = Prisma.sql`
  m."id", m."status"::text AS "status", m."version", m."seatCount", m."partnerships", m."rules", m."chainSecret", m."dealCommitment",
  (SELECT c."checkpoints" FROM "MatchDealChain" c WHERE c."matchId" = m."id") AS "dealCheckpoints",
  m."state", m."lastEventSeq", m."createdAt" AT TIME ZONE 'UTC' AS "createdAt", m."winnerTeam", m."clock", m."clockState",
  json_build_object(
    'private', m."private", 'inviteCode', m."inviteCode", 'rematchOfId', m."rematchOfId",
    'rematchId', (SELECT r."id" FROM "Match" r WHERE r."rematchOfId" = m."id"),
    'rematchLeader', CASE WHEN m."rematchLeaderSeat" IS NOT NULL THEN json_build_object('seat', m."rematchLeaderSeat", 'playerId', m."rematchLeaderId") END
  ) AS "matchmaking",
  (SELECT json_agg(json_build_object(
            'index', s."index", 'playerId', s."playerId", 'playerName', p."name", 'team', s."team",
            'isBot', s."isBot", 'botStrategy', s."botStrategy", 'clientSeed', s."clientSeed") ORDER BY s."index")
     FROM "Seat" s LEFT JOIN "Player" p ON p."id" = s."playerId"
    WHERE s."matchId" = m."id") AS "seats"`;

/** A row of MATCH_COLUMNS as the driver returns it. */
export interface MatchRow {
  id: string;
  status: MatchStatusValue;
  version: number;
  seatCount: number;
  partnerships: boolean;
  rules: Rules;
  chainSecret: string;
  dealCommitment: string;
  dealCheckpoints: Buffer | null;
  state: MatchState | null;
  lastEventSeq: number;
  createdAt: Date | string;
  winnerTeam: number | null;
  clock: LoadedMatch['clock'];
  clockState: LoadedMatch['clockState'];
  matchmaking: LoadedMatch['matchmaking'];
  seats: LoadedMatch['seats'] | null;
}

export function loadedMatch(row: MatchRow): LoadedMatch {
  return {
    id: row.id,
    status: row.status,
    version: row.version,
    seatCount: row.seatCount,
    partnerships: row.partnerships,
    rules: row.rules,
    chainSecret: row.chainSecret,
    // Copied: pg hands a bytea as a view on a shared 8 KB block, which a cached match would keep alive.
    dealCheckpoints: row.dealCheckpoints && new Uint8Array(row.dealCheckpoints),
    dealCommitment: row.dealCommitment,
    state: row.state,
    lastEventSeq: row.lastEventSeq,
    createdAt: new Date(row.createdAt),
    winnerTeam: row.winnerTeam,
    clock: row.clock,
    clockState: row.clockState,
    matchmaking: row.matchmaking,
    seats: row.seats ?? [],
  };
}
